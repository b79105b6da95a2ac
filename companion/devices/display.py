"""Displays: ``show(image)`` takes a PIL image, mode "1", 128x64; ``close()`` is idempotent.

Backends:

* :class:`OledDisplay` — the SSD1306/SH1106 OLED over I2C (luma.oled), sending only
  the part of the frame that changed.
* :class:`HeadlessDisplay` — each distinct frame to ``frame-00001.png`` ... (128x64).
* :class:`DesktopDisplay` — a luma.emulator pygame window, 4x.
* :class:`TerminalDisplay` — Unicode blocks in the terminal.

luma and pygame are imported inside the backends that need them: the headless path
never loads them.
"""

from __future__ import annotations

import os
import re
import sys
from collections import deque
from pathlib import Path
from typing import Protocol

from PIL import Image

from companion.devices import DeviceError

WIDTH, HEIGHT = 128, 64
SIZE = (WIDTH, HEIGHT)


class Display(Protocol):
    def show(self, image: Image.Image) -> None: ...
    def close(self) -> None: ...


def check_frame(image: Image.Image) -> None:
    if image.mode != "1" or image.size != SIZE:
        raise ValueError(f"a frame is a mode '1' {WIDTH}x{HEIGHT} image, not mode {image.mode!r} "
                         f"{image.size[0]}x{image.size[1]}")


def image_bytes(image: Image.Image, rawmode: str = "") -> bytes:
    """``image.tobytes("raw", rawmode or image.mode)``, through the raw encoder that
    ``tobytes`` itself uses, but without the import of ``PIL.ImageFile`` (and with it
    ``logging``) that Pillow's ``tobytes`` does on its first call: 22 M instructions of a
    headless start to its first frame, 16 M of the Pi's (docs/performance.md). Falls back
    to ``tobytes`` should a Pillow version encode otherwise."""
    rawmode = rawmode or image.mode
    if not image.width or not image.height:
        return b""
    try:
        encoder = Image.core.raw_encoder(image.mode, rawmode)
    except (AttributeError, TypeError, ValueError):
        return image.tobytes("raw", rawmode)
    image.load()
    chunks = []
    try:
        encoder.setimage(image.im, (0, 0, *image.size))
        status = 0
        while not status:
            _, status, data = encoder.encode(max(65536, image.size[0] * 4))  # as tobytes asks
            chunks.append(data)
    finally:
        encoder.cleanup()
    return b"".join(chunks) if status > 0 else image.tobytes("raw", rawmode)


def same_frame(a: Image.Image | None, b: Image.Image) -> bool:
    return a is not None and image_bytes(a) == image_bytes(b)


# -- OLED with partial updates --------------------------------------------------------

def page_bytes(image: Image.Image) -> bytes:
    """The controller's RAM image of a mode "1" picture: ``pages`` rows of ``width``
    bytes, page-major; bit i of byte (page, x) is pixel (x, 8 * page + i)."""
    width, height = image.size
    pages = height // 8
    # Transposed, each picture column is a row of bytes; packed "1;R", the top pixel is bit 0.
    columns = image_bytes(image.transpose(Image.Transpose.TRANSPOSE), "1;R")
    return b"".join(columns[page::pages] for page in range(pages))


_RUNS: dict[int, re.Pattern] = {}
_MARKED = bytes([0] + [1] * 255)   # a byte of the XOR: 0 unchanged, 1 changed


def changed_runs(old: bytes, new: bytes, width: int, join: int = 0) -> list[tuple[int, int, int]]:
    """``(page, first_column, last_column)`` for every run of bytes where ``new`` differs
    from ``old`` (RAM images as page_bytes()), in RAM order; runs of a page apart by at
    most ``join`` unchanged bytes are one run; no run crosses a page."""
    if join not in _RUNS:
        _RUNS[join] = re.compile(b"\x01+(?:\x00{1,%d}\x01+)*" % join if join else b"\x01+")
    runs_in = _RUNS[join].finditer
    # changed bytes marked 1 (the pattern then starts with a byte the search skips to; one
    # that starts with "any byte but 0" is tried at every byte of the frame)
    marked = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big").translate(_MARKED)
    runs = []
    for start in range(0, len(new), width):
        if old[start:start + width] == new[start:start + width]:
            continue                   # an unchanged page
        for match in runs_in(marked, start, start + width):
            first, end = match.span()
            runs.append((start // width, first - start, end - 1 - start))
    return runs


COMMAND, DATA = 0x00, 0x40   # control bytes (Co=0): commands follow, data follow, to the STOP
CHAINED = 0x80                # Co=1: one command (or data byte, with DATA) and another control byte
DATA_RUN = bytes((DATA,))


def run_cost(n: int) -> int:
    """Bus bytes of ``n`` commands, or ``n`` data bytes, between runs of the other kind:
    a control byte each (Co=1) or a write of their own (its address byte, a control byte
    with Co=0, the bytes), whichever is fewer."""
    return n + min(n, 2)


def _nibbles(at: int | None, column: int) -> int:
    """Column-address commands needed to move the pointer from ``at`` to ``column``
    (page addressing: one command sets the low nibble, one the high)."""
    if at is None:
        return 2
    return ((at ^ column) & 0x0F != 0) + ((at ^ column) >> 4 != 0)


def control_runs(write: bytes) -> list[tuple[bool, bytes]]:
    """A write (its first control byte and what follows) as the controller takes it:
    ``(data?, bytes)`` for each control byte (D/C=1: data); one with Co=1 is followed by
    one byte and another control byte, one with Co=0 by bytes up to the end."""
    runs, i = [], 0
    while i < len(write):
        control = write[i]
        if not control & CHAINED:
            runs.append((bool(control & DATA), write[i + 1:]))
            break
        runs.append((bool(control & DATA), write[i + 1:i + 2]))
        i += 2
    return runs


JOINED = 4
"""Gaps of at most this many unchanged bytes are sent (joined in changed_runs()): another
window costs at least as much (its column commands with their control bytes, 2 at least,
and its data's control byte and address byte, 2), but for a one-byte window behind a gap
of 4 with one column command (3: its data byte goes with Co=1), which is left to save
the planner's time."""


def plan_windows(runs: list[tuple[int, int, int]], offset: int = 0, at: tuple = (None, None),
                 columns: int = 128) -> list[tuple[int, int, int]]:
    """The windows ``(page, first, last)`` that send ``runs`` (changed_runs(), gaps of
    JOINED bytes or fewer joined) under page addressing in about the fewest bus bytes
    (bench/oled_ratio.py computes the exact optimum, and how far this is from it): the
    pages in order from the one the pointer ``at`` (page, RAM column) is on; two runs of a
    page are one window when the unchanged bytes between them cost no more than another
    window there (its column commands and its data's overhead, run_cost()); a window
    starts a byte or two before its changes, or ends one after them, where that spares
    column commands. ``offset``: the RAM column of picture column 0; ``columns``: the
    RAM's (the pointer past the last one is not counted on)."""
    if at[0] is not None and runs and runs[0][0] != at[0]:
        split = next((i for i, run in enumerate(runs) if run[0] >= at[0]), len(runs))
        runs = runs[split:] + runs[:split]
    windows: list[tuple[int, int, int]] = []
    page = first = last = -1
    page_at, column_at = at
    for p, a, c in runs:
        if p == page:
            after, start = offset + last + 1, offset + a
            moves = after ^ start
            if moves < 16 or not moves & 0x0F:
                # one column command, 2 bytes with its control byte, and the data's 1-2 bytes
                # of overhead: never more than the gap (JOINED)
                windows.append((page, first, last))
                first, last = a, c
                continue
            # both column commands: 4 bytes, or 3 with a byte more before or after the gap
            gap = a - last - 1
            one = a == c
            trail = (after + 1) ^ start
            if trail < 16 or not trail & 0x0F:
                if gap <= 5 - one:
                    last = c
                    continue
                windows.append((page, first, last + 1))
                first, last = a, c
                continue
            lead = after ^ (start - 1)
            if lead < 16 or not lead & 0x0F:
                if gap <= 5:
                    last = c
                    continue
                a -= 1
            elif gap <= 6 - one:
                last = c
                continue
            windows.append((page, first, last))
            first, last = a, c
            continue
        if page >= 0:
            windows.append((page, first, last))
            page_at, column_at = page, offset + last + 1
            if column_at >= columns:
                column_at = None
        if column_at is not None and 0 < offset + a - column_at <= 2 and column_at >= offset:
            # a byte or two more spare both column commands (5 bytes with the page's, or
            # 4 without it, down to 2 or none)
            moves = (p != page_at) + _nibbles(column_at, offset + a)
            if offset + a - column_at + (a == c) < run_cost(moves) - run_cost(p != page_at):
                a = column_at - offset
        page, first, last = p, a, c
    if page >= 0:
        windows.append((page, first, last))
    return windows


class PartialUpdates:
    """Mixed in before a luma 1-bit OLED driver, it replaces the driver's ``display()``
    (which sends all 1,024 bytes every time): the first frame, and the first after
    ``invalidate()`` or a failed write, is sent whole; later ones send only the changed
    bytes of the changed pages, in the windows plan_windows() picks. The RAM is written
    with page addressing (the SH1106 has nothing else; the SSD1306 is switched to it with
    the whole frame): a window needs at most three commands (page, column low and high
    nibble, each left out when the pointer is there already) and its data. Runs of two or
    more commands or data bytes end a write of their own (a control byte with Co=0 and the
    bytes); a single command or data byte is chained into that write before them (a
    control byte with Co=1 and the byte: 2 bytes, where a write of its own takes 3). A
    frame's writes go to the link (``i2c_link``) together.
    The driver's init sequence, ``command()`` and ``data()`` are used as they are; a
    window class (below) supplies ``column_offset`` and the commands that select page
    addressing."""

    NOP = 0xE3
    # A command write cut short (a loose wire, a NACK half-way) leaves the controller
    # waiting for the rest of that command's arguments, across I2C transactions: the next
    # bytes would be eaten as arguments. NOPs complete whatever is pending (no command
    # luma sends takes more than 6 argument bytes), then the cut command is sent again
    # whole (a NOP taken as its argument set it wrongly), then the frame.
    RECOVERY_NOPS = 6
    _frame: bytes | None = None   # what the controller's RAM holds, as page_bytes()
    _cut: tuple[int, ...] | None = None   # a command write that failed, to send again
    _at: tuple[int | None, int | None] = (None, None)   # the RAM pointer: page, column

    def invalidate(self) -> None:
        self._frame = None

    def command(self, *cmd) -> None:
        try:
            self._serial_interface.command(*cmd)   # what luma's command() does
        except Exception:
            self._frame = None
            self._cut = tuple(cmd)
            raise

    def data(self, data) -> None:
        try:
            self._serial_interface.data(data)      # what luma's data() does
        except Exception:
            self._frame = None
            self._cut = self._cut or ()
            raise

    def _recover(self) -> None:
        if self._cut is None:
            return
        cut = self._cut
        super().command(*[self.NOP] * self.RECOVERY_NOPS)
        if cut:
            super().command(*cut)
        self._cut = None

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode and image.size == self.size
        self._recover()
        frame = page_bytes(self.preprocess(image))
        width, offset, columns = self._w, self.column_offset, self.RAM_COLUMNS
        old, self._frame = self._frame, None   # unknown until the writes succeed
        if old is None:
            windows = [(page, 0, width - 1) for page in range(self._h // 8)]
            page_at, column_at = None, None
            setup = self.PAGE_ADDRESSING
        else:
            page_at, column_at = self._at
            windows = plan_windows(changed_runs(old, frame, width, JOINED), offset, self._at, columns)
            setup = ()
        self._at = (None, None)
        # runs of commands and of data, one after the other: a run of one byte goes with
        # Co=1 (a control byte and the byte) into the write the next longer run ends
        writes, chained, final = [], b"", windows[-1] if windows else None
        for window in windows:
            page, first, last = window
            column = offset + first
            moves = 0xFF if column_at is None else column_at ^ column
            commands = [*setup]
            setup = ()
            if page != page_at:
                commands.append(0xB0 | page)
            if moves & 0x0F:
                commands.append(column & 0x0F)
            if moves >> 4:
                commands.append(0x10 | column >> 4)
            if len(commands) == 1:
                chained += bytes((CHAINED | COMMAND, commands[0]))
            elif commands:
                if chained:
                    writes.append(chained + bytes((COMMAND, *commands)))
                    chained = b""
                else:
                    writes.append(bytes((COMMAND, *commands)))
            start = page * width
            if first == last and window is not final:
                chained += bytes((CHAINED | DATA, frame[start + first]))
            elif chained:
                writes.append(chained + DATA_RUN + frame[start + first:start + last + 1])
                chained = b""
            else:
                writes.append(DATA_RUN + frame[start + first:start + last + 1])
            # past the RAM's last column the pointer wraps (SSD1306): not counted on
            page_at, column_at = page, (offset + last + 1 if offset + last + 1 < columns else None)
        try:
            self._serial_interface.write_all(writes)
        except Exception:
            # whatever was cut is set again by the whole frame that comes next, which
            # starts with the addressing mode: NOPs complete a command left waiting
            self._cut = self._cut or ()
            raise
        self._at = (page_at, column_at)
        self._frame = frame


class Ssd1306Window:
    """The SSD1306 in page addressing mode (luma's init selects horizontal addressing).

    Its ``__init__`` is luma's ssd1306 init, byte for byte, less the two 8,192-entry
    tables luma's own ``display()`` uses (``_mask``, ``_offsets``): partial updates
    never use them, and building them cost 15 M instructions of the Pi's cold start."""

    PAGE_ADDRESSING = (0x20, 0x02)
    RAM_COLUMNS = 128
    _SETTINGS = {   # luma.oled.device.ssd1306's supported modes
        (128, 64): dict(multiplex=0x3F, displayclockdiv=0x80, compins=0x12, colstart=0),
        (128, 32): dict(multiplex=0x1F, displayclockdiv=0x80, compins=0x02, colstart=0),
        (96, 16): dict(multiplex=0x0F, displayclockdiv=0x60, compins=0x02, colstart=0),
        (64, 48): dict(multiplex=0x2F, displayclockdiv=0x80, compins=0x12, colstart=32),
        (64, 32): dict(multiplex=0x1F, displayclockdiv=0x80, compins=0x12, colstart=32),
    }

    def __init__(self, serial_interface=None, width=128, height=64, rotate=0, **kwargs):
        import luma.core.error
        import luma.oled.const
        import luma.oled.device

        super(luma.oled.device.ssd1306, self).__init__(luma.oled.const.ssd1306, serial_interface)
        self.capabilities(width, height, rotate)
        settings = self._SETTINGS.get((width, height))
        if settings is None:
            raise luma.core.error.DeviceDisplayModeError(f"Unsupported display mode: {width} x {height}")
        self._pages = height // 8
        self._colstart = settings["colstart"]
        self._colend = self._colstart + self._w
        c = self._const
        self.command(
            c.DISPLAYOFF,
            c.SETDISPLAYCLOCKDIV, settings["displayclockdiv"],
            c.SETMULTIPLEX, settings["multiplex"],
            c.SETDISPLAYOFFSET, 0x00,
            c.SETSTARTLINE,
            c.CHARGEPUMP, 0x14,
            c.MEMORYMODE, 0x00,
            c.SETSEGMENTREMAP,
            c.COMSCANDEC,
            c.SETCOMPINS, settings["compins"],
            c.SETPRECHARGE, 0xF1,
            c.SETVCOMDETECT, 0x40,
            c.DISPLAYALLON_RESUME,
            c.NORMALDISPLAY)
        self.contrast(0xCF)
        self.clear()
        self.show()

    @property
    def column_offset(self) -> int:
        return self._colstart


class Sh1106Window:
    """The SH1106: page addressing only; its 132-column RAM shows columns 2..129."""

    PAGE_ADDRESSING = ()
    RAM_COLUMNS = 132

    @property
    def column_offset(self) -> int:
        return self._page_address_offset


_DRIVERS: dict[str, type] = {}


def oled_class(driver: str) -> type:
    """The luma driver class ``driver`` ("ssd1306" or "sh1106") with partial updates."""
    if driver not in _DRIVERS:
        import luma.oled.device as luma_oled
        window = {"ssd1306": Ssd1306Window, "sh1106": Sh1106Window}[driver]
        base = getattr(luma_oled, driver)
        _DRIVERS[driver] = type(f"Partial{driver.upper()}", (PartialUpdates, window, base), {})
    return _DRIVERS[driver]


_LINK: list[type] = []
MESSAGES_PER_CALL = 42   # I2C_RDWR_IOCTL_MAX_MSGS in Linux's i2c-dev


def i2c_link(bus, port: int, address: int):
    """luma's I2C interface with ``write_all(writes)``: a frame's writes (each a control
    byte and what follows it, control_runs()) as I2C messages. On the bus luma opens itself (smbus2) they
    go in one ``i2c_rdwr`` call (one system call a frame, each message with its own
    address byte); on a bus handed in that writes messages (``write_messages``, as the
    recording bus in devices/fake_i2c.py does, so that the demo and the tests carry what
    the device carries) in one call too; on any other bus as luma's ``command()`` and
    ``data()`` (SMBus blocks of at most 32 bytes, each with its own address and control
    byte)."""
    if not _LINK:
        from luma.core.interface.serial import i2c

        class Link(i2c):
            def write_all(self, writes: list[bytes]) -> None:
                if self._managed:
                    messages = [self._i2c_msg_write(self._addr, w) for w in writes]
                    for i in range(0, len(messages), MESSAGES_PER_CALL):
                        self._bus.i2c_rdwr(*messages[i:i + MESSAGES_PER_CALL])
                    return
                write = getattr(self._bus, "write_messages", None)
                if write is not None:
                    write(self._addr, writes)
                    return
                for w in writes:
                    for data, sent in control_runs(w):
                        if data:
                            self.data(list(sent))
                        else:
                            self.command(*sent)

        _LINK.append(Link)
    return _LINK[0](bus=bus, port=port, address=address)


class OledDisplay:
    """The OLED of ``config`` (the ``[display]`` table of the pinout). ``bus``: an
    smbus-like object (tests pass a recording fake); None opens /dev/i2c-<port>."""

    def __init__(self, config: dict, *, bus=None):
        self.config = config
        port, address = config["i2c_port"], config["address"]
        try:
            serial = i2c_link(bus, port, address)
            self.device = oled_class(config["driver"])(
                serial, width=config["width"], height=config["height"], rotate=config["rotate"])
            self.device.contrast(config["contrast"])
        except DeviceError:
            raise
        except Exception as exc:
            raise DeviceError(oled_problem(exc, port, address)) from None
        self.device.invalidate()  # the first frame is sent whole
        self._closed = False

    def show(self, image: Image.Image) -> None:
        check_frame(image)
        try:
            self.device.display(image)
        except Exception as exc:
            raise DeviceError(oled_problem(exc, self.config["i2c_port"], self.config["address"])) from None

    def close(self, blank: bool = True) -> None:
        """Release the bus; ``blank=False`` leaves the last frame on the screen."""
        if self._closed:
            return
        self._closed = True
        self.device.persist = not blank
        try:
            self.device.cleanup()   # blanks the screen unless persist, closes the bus
        except Exception:
            pass                    # a display that is gone cannot be blanked
        self.device.persist = True  # luma's exit hook must not touch it again


def oled_problem(exc: BaseException, port: int, address: int) -> str:
    """One line for an OLED failure, with the fix."""
    text = str(exc)
    wiring = "check wiring SDA=GPIO2 SCL=GPIO3, 3V3 and GND"
    if "permission" in text.lower() or isinstance(exc, PermissionError):
        return (f"no permission to use I2C bus {port}: add the user to the i2c group "
                f"(sudo adduser $USER i2c) and log in again")
    if re.search(r"I2C device not found: ", text) or isinstance(exc, FileNotFoundError):
        return (f"I2C bus {port} not found (/dev/i2c-{port}): enable I2C "
                f"(dtparam=i2c_arm=on, see firmware/config.txt) and reboot")
    if "not found on address" in text or isinstance(exc, OSError):
        return (f"no I2C device at 0x{address:02X} on bus {port}: {wiring}, and the address "
                f"(0x3C or 0x3D) in hardware/pinout.toml; enable I2C (firmware/config.txt)")
    return f"the display does not work: {text or type(exc).__name__} ({wiring})"


# -- files ----------------------------------------------------------------------------

def png_bytes(image: Image.Image) -> bytes:
    """A mode "1" frame as a 1-bit greyscale PNG file, written here rather than by
    ``image.save``: importing Pillow's PNG plugin costs a headless start more than
    everything else it does to show its first frame (docs/performance.md)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    width, height = image.size
    stride = (width + 7) // 8
    pixels = image_bytes(image)  # rows of packed bits, MSB first, 1 = white: PNG's own layout
    rows = b"".join(b"\0" + pixels[y * stride:(y + 1) * stride] for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def hint_lines(text: str, width: int) -> list[str]:
    """``text``, hints parted by two spaces, as lines of at most ``width`` characters broken
    between hints (a hint is broken only when it is wider than a line)."""
    import textwrap

    lines: list[str] = []
    for hint in text.split("  "):
        if lines and len(lines[-1]) + 2 + len(hint) <= width:
            lines[-1] += "  " + hint
        else:
            lines += textwrap.wrap(hint, width) or [""]
    return lines


class HeadlessDisplay:
    """Each frame that differs from the one before is saved as ``frame-00001.png``...
    (128x64, exactly the OLED's pixels) in ``out_dir``; numbering continues after the
    frames already there. Only the newest ``keep`` frames are kept on disk (a long run
    would otherwise fill the disk: ~4 KB a frame); older ones are deleted as new ones
    come. ``out_dir=None`` keeps frames in memory only. ``last_image`` is the last frame
    shown; ``written`` the paths of the frames kept from this run."""

    KEEP = 500

    def __init__(self, out_dir: str | Path | None = None, keep: int = KEEP):
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self.keep = max(1, int(keep))
        self.last_image: Image.Image | None = None
        self.count = 0
        self._on_disk: deque[Path] = deque()
        if self.out_dir is not None:
            try:
                self.out_dir.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DeviceError(f"cannot create the frame folder {self.out_dir}: {exc.strerror}") from None
            found = sorted((int(m.group(1)), p) for p in self.out_dir.glob("frame-*.png")
                           if (m := re.fullmatch(r"frame-(\d+)\.png", p.name)))
            self.count = found[-1][0] if found else 0
            self._on_disk.extend(p for _, p in found)
            self._trim()
        self.written: deque[Path] = deque(maxlen=self.keep)

    def _trim(self) -> None:
        while len(self._on_disk) > self.keep:
            old = self._on_disk.popleft()
            try:
                old.unlink()
            except OSError:
                pass   # already gone, or not ours to delete: never a reason to stop the race

    def show(self, image: Image.Image) -> None:
        check_frame(image)
        if same_frame(self.last_image, image):
            return
        self.last_image = image.copy()
        if self.out_dir is None:
            return
        self.count += 1
        path = self.out_dir / f"frame-{self.count:05d}.png"
        try:
            path.write_bytes(png_bytes(self.last_image))
        except OSError as exc:
            raise DeviceError(f"cannot write {path}: {exc.strerror}") from None
        self.written.append(path)
        self._on_disk.append(path)
        self._trim()

    def close(self) -> None:
        pass


# -- desktop window ---------------------------------------------------------------------

def graphical_display_available(env=os.environ, platform: str = sys.platform) -> bool:
    if platform in ("darwin", "win32"):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


class DesktopDisplay:
    """A luma.emulator pygame window at ``scale`` x. Its keyboard is the buttons
    (``buttons.PygameKeys``); Esc is BACK there, not luma's "quit"."""

    def __init__(self, scale: int = 4):
        if not graphical_display_available():
            raise DeviceError("no graphical display here (DISPLAY and WAYLAND_DISPLAY are unset): "
                              "use --hardware terminal or --hardware headless")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            from luma.emulator.device import pygame as window
        except ImportError:
            raise DeviceError("the desktop window needs luma.emulator and pygame "
                              "(pip install 'race-companion[desktop]'): or use --hardware terminal") from None

        class Window(window):
            def _abort(self):
                return False  # Esc is BACK; closing the window ends the input instead

        try:
            self.device = Window(width=WIDTH, height=HEIGHT, mode="1",
                                 transform="identity", scale=scale)
            self.device._pygame.display.set_caption("Race Companion")
        except Exception as exc:
            raise DeviceError(f"cannot open a window ({exc}): use --hardware terminal or --hardware headless") from None
        self._last: Image.Image | None = None
        self._closed = False

    def show(self, image: Image.Image) -> None:
        check_frame(image)
        self._last = image.copy()
        self.device.display(self._last)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.device._pygame.quit()


# -- terminal ---------------------------------------------------------------------------

_HALF = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}
# 2x2 pixels -> a quadrant block; key = top-left, top-right, bottom-left, bottom-right
_QUADRANT = dict(zip(
    [(a, b, c, d) for a in (0, 1) for b in (0, 1) for c in (0, 1) for d in (0, 1)],
    " \u2597\u2596\u2584\u259d\u2590\u259e\u259f\u2598\u259a\u258c\u2599\u2580\u259c\u259b\u2588"))


def half_blocks(image: Image.Image) -> list[str]:
    """One line per two pixel rows, one character per pixel column: lit pixels are ink."""
    w, h = image.size
    px = image.load()
    return ["".join(_HALF[(px[x, y] > 0, y + 1 < h and px[x, y + 1] > 0)] for x in range(w))
            for y in range(0, h, 2)]


def quadrant_blocks(image: Image.Image) -> list[str]:
    """Half as wide: one character per 2x2 pixels (for terminals under 130 columns)."""
    w, h = image.size
    px = image.load()

    def lit(x, y):
        return int(x < w and y < h and px[x, y] > 0)

    return ["".join(_QUADRANT[(lit(x, y), lit(x + 1, y), lit(x, y + 1), lit(x + 1, y + 1))]
                    for x in range(0, w, 2)) for y in range(0, h, 2)]


_BRAILLE_DOTS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08),
                 (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def braille_blocks(image: Image.Image) -> list[str]:
    """A quarter as tall as wide blocks: one Braille character per 2x4 pixels, so the
    128x64 screen takes 64 columns and 16 lines (an 80x24 terminal holds it framed)."""
    w, h = image.size
    px = image.load()

    def cell(x, y):
        return chr(0x2800 + sum(bit for dx, dy, bit in _BRAILLE_DOTS
                                if x + dx < w and y + dy < h and px[x + dx, y + dy] > 0))

    return ["".join(cell(x, y) for x in range(0, w, 2)) for y in range(0, h, 4)]


MARKED_MIN_ROWS = 8     # an inverted field holds a line of text: 10 px or more


def marked(image: Image.Image) -> Image.Image:
    """``image`` with its inverted bands (the title bar, a highlighted row: a lit field with
    dark letters) drawn the other way round, lit letters on dark, with a marker bar at
    their left edge instead. At 2x4 pixels a Braille character an inverted field is a solid
    block with letters as gaps; letters drawn as dots stay legible.

    A band starts at a row lit over at least half the width (the padding row above the
    letters); its parts are that row's lit runs, and it runs down as long as the run's
    first column stays lit (the field's edge). The status box at the right of the title
    bar, lit letters already, is left as it is."""
    w, h = image.size
    im = image.convert("1").copy()
    px = im.load()
    y = 0
    while y < h:
        lit = [px[x, y] > 0 for x in range(w)]
        if sum(lit) * 2 < w:
            y += 1
            continue
        runs, x = [], 0
        while x < w:
            if lit[x]:
                start = x
                while x < w and lit[x]:
                    x += 1
                if x - start >= 8:
                    runs.append((start, x))
            else:
                x += 1
        bottom = y
        if runs:
            edge = runs[0][0]
            while bottom + 1 < h and px[edge, bottom + 1] > 0:
                bottom += 1
        if bottom - y + 1 < MARKED_MIN_ROWS:     # a rule, not a field of text
            y += 1
            continue
        for x0, x1 in runs:
            for yy in range(y, bottom + 1):
                for xx in range(x0, x1):
                    px[xx, yy] = 0 if px[xx, yy] else 1
            for yy in range(y, bottom + 1):          # the marker: a bar at the field's left
                px[x0, yy] = 1
        y = bottom + 1
    return im


def braille_marked(image: Image.Image) -> list[str]:
    """Braille with the inverted bands drawn as marked plain text (:func:`marked`)."""
    return braille_blocks(marked(image))


TERMINAL_DETAIL = (
    (half_blocks, "full detail"),
    (quadrant_blocks, "2x2 pixels a character"),
    (braille_marked, "Braille, 2x4 pixels a character"),
)
"""The drawings of the terminal display, finest first. Half blocks draw two pixel rows
per line, so full detail needs 130 columns and 35 lines (the frame and the key help
around 128x32 characters); quadrants 66x35; Braille 66x21, which an 80x24 terminal holds."""

FULL_DETAIL = (WIDTH + 2, HEIGHT // 2 + 3)
SMALLEST = (WIDTH // 2 + 2, HEIGHT // 4 + 5)   # the help on two lines and the note


class TerminalDisplay:
    """The frame drawn with block characters in the terminal (alternate screen), framed,
    with the key help under it: the finest drawing the terminal's size holds
    (TERMINAL_DETAIL). A terminal too small for any says the size it needs instead of
    scrolling the title away."""

    def __init__(self, stream=None, help_line: str = ""):
        self.stream = stream or sys.stdout
        self.help_line = help_line
        self._last: Image.Image | None = None
        self._closed = False
        self._drawing = False
        self._resized = False
        self._old_winch = None
        self.stream.write("\x1b[?1049h\x1b[?25l\x1b[2J")  # alternate screen, hide cursor
        self.stream.flush()
        self._watch_resizes()

    def _watch_resizes(self) -> None:
        """Redraw the last frame at the new size when the terminal is resized (SIGWINCH),
        not at the next change of the screen. The handler runs in the main thread, as
        ``show`` does: inside ``show`` it only asks for one more drawing at its end."""
        import signal
        if not hasattr(signal, "SIGWINCH"):
            return
        try:
            self._old_winch = signal.signal(signal.SIGWINCH, self._on_resize)
        except ValueError:      # not the main thread: the next frame is drawn at the new size
            self._old_winch = None

    def _on_resize(self, signum=None, frame=None) -> None:
        self._resized = True
        if not self._drawing and not self._closed:
            self._draw()

    def lines_for(self, image: Image.Image, columns: int, lines: int | None = None) -> list[str]:
        """The text lines that show ``image`` in a terminal of ``columns`` x ``lines``
        (``lines`` None: as many as needed): the finest drawing that fits whole."""
        import textwrap

        for draw, name in TERMINAL_DETAIL:
            rows = draw(image)
            width = len(rows[0])
            if columns < width + 2:
                continue
            out = ["\u250c" + "\u2500" * width + "\u2510"]
            out += ["\u2502" + row + "\u2502" for row in rows]
            out.append("\u2514" + "\u2500" * width + "\u2518")
            if self.help_line:
                out += hint_lines(self.help_line, max(columns - 1, 20))
            if draw is not half_blocks:
                out.append(f"({name}: {FULL_DETAIL[0]}x{FULL_DETAIL[1]} shows full detail)"[:max(columns - 1, 1)])
            if lines is None or len(out) <= lines:
                return out
        said = [line for text in (          # wrapped, not cut: the sizes are read whole
            f"Terminal {columns}x{lines}: too small for the screen.",
            f"Make it at least {SMALLEST[0]}x{SMALLEST[1]} "
            f"({FULL_DETAIL[0]}x{FULL_DETAIL[1]} for full detail).",
            "q quits") for line in textwrap.wrap(text, max(columns - 1, 1), break_on_hyphens=False)]
        return said if lines is None else said[:max(lines, 1)]

    def render(self, image: Image.Image, columns: int, lines: int | None = None) -> str:
        """The escape sequences that draw ``image`` (see :meth:`lines_for`)."""
        return "\x1b[H" + "\x1b[K\n".join(self.lines_for(image, columns, lines)) + "\x1b[K\x1b[J"

    def show(self, image: Image.Image) -> None:
        check_frame(image)
        if same_frame(self._last, image) and not self._resized:
            return
        self._last = image.copy()
        self._draw()

    def _draw(self) -> None:
        """Draw the last frame at the terminal's size now, again if it changed meanwhile."""
        if self._last is None:
            return
        self._drawing = True
        import shutil  # the terminal backend's alone: not loaded for a headless or OLED start

        try:
            self._resized = True
            while self._resized:
                self._resized = False
                size = shutil.get_terminal_size()
                self.stream.write(self.render(self._last, size.columns, size.lines))
                self.stream.flush()
        finally:
            self._drawing = False

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._old_winch is not None:
                import signal
                try:
                    signal.signal(signal.SIGWINCH, self._old_winch)
                except ValueError:
                    pass
            self.stream.write("\x1b[?25h\x1b[?1049l")  # cursor back, main screen back
            self.stream.flush()
