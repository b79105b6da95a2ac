"""A simulated 58 mm thermal printer on a real pseudo-terminal.

The driver opens ``sim.path`` with pyserial exactly as it opens ``/dev/serial0``. The
simulator models what makes a real printer lose data or stall:

- the wire: bytes arrive no faster than ``baudrate / 10`` per second (8N1);
- a small input buffer (``buffer_bytes``): a byte arriving while it is full is lost and
  counted in ``overflow``;
- the paper speed: a printed line holds the print engine for ``dots x line_ms``
  (24 dot lines for font A, 48 at double height); the buffer drains only as it prints;
- raster images: ``GS v 0`` bands printed a dot row at a time as their data arrives (each
  row holds the engine ``line_ms``, darker rows longer), ``ESC *`` 24-dot stripes printed at
  their line feed, each only on the models that know it (``Hardware.raster``);
- QR codes: ``GS ( k`` (model, module size, error correction level, store, print) on the
  models that draw them (``Hardware.qr``), printed as a picture drawn at the alignment;
- real-time status (``DLE EOT n``), answered on arrival; in-order status (``GS r 1``,
  ``ESC v 0``), answered when the engine reaches it; ``silent`` ignores every query;
- the model's quirks (``model``, see ``HARDWARE``): which status commands it answers,
  whether it knows ``ESC 7``, whether it starts in Kanji mode (two bytes >= 0x80 print one
  Chinese character until ``FS .``);
- a printer slower than its setting (``slow``: 1.25 = 25% slower) whose dark lines print
  slower still (``dark``: extra time for a line full of ink, 0.3 = 30%);
- paper out (the engine stops, the sensor says so), the cover open (offline: the data is
  held, the paper sensor still says paper, ``DLE EOT 1`` says offline), unplugging (the
  pty closes and the port's path disappears) and plugging back in (same path, a fresh pty).

Time is accounted on the simulator's own clock: each byte gets an arrival time from the
wire model and each line a finish time from the engine model, so ``jobs`` report how long
a receipt took on paper regardless of thread scheduling. ``Decoder`` is the printer's
command interpreter; it also turns captured bytes back into text lines and styles.
"""

from __future__ import annotations

import fcntl
import os
import select
import struct
import tempfile
import termios
import threading
import time
import tty
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from companion.receipts.printers import CODE_PAGES

LINE_DOTS = 24


@dataclass(frozen=True)
class PrintedLine:
    """A line as it came out of the printer."""
    text: str
    bold: bool = False
    width: int = 1
    height: int = 1
    align: str = "left"
    dots: int = LINE_DOTS
    raster: bytes = b""        # a picture's dots, row by row (8 a byte, MSB left, 1 = ink)
    raster_width: int = 0      # its width in dots (0: a text line)


def pictures(lines: list[PrintedLine]) -> list:
    """The pictures on the paper as Pillow images (mode "1", 0 ink): consecutive raster
    lines (the bands of one picture) joined."""
    from PIL import Image
    out, run = [], []
    for line in [*lines, PrintedLine("")]:
        if line.raster_width:
            run.append(line)
            continue
        if run:
            width = run[0].raster_width
            data = b"".join(x.raster for x in run)
            rows = len(data) // (width // 8)
            out.append(Image.frombytes("1", (width, rows), data.translate(bytes(255 - b for b in range(256)))))
            run = []
    return out


# ESC/GS/FS commands this printer knows, by their second byte, with their parameter count.
_ESC_ARGS = {b"@": 0, b"7": 3, b"t": 1, b"3": 1, b"2": 0, b"a": 1, b"E": 1, b"d": 1, b"!": 1, b"-": 1, b"J": 1,
             b"v": 1, b"*": 3}
_GS_ARGS = {b"!": 1, b"B": 1, b"V": 1, b"r": 1, b"v": 6, b"(": 3}
_FS_ARGS = {b".": 0, b"&": 0}
_ALIGNS = {0: "left", 1: "center", 2: "right", 48: "left", 49: "center", 50: "right"}


@dataclass(frozen=True)
class Hardware:
    """What one model of printer does with the commands it is sent."""
    realtime: bool = True          # answers DLE EOT n
    gs_r: bool = True              # answers GS r 1 (in order)
    esc_v: bool = False            # answers ESC v 0 (in order)
    heat: bool = True              # knows ESC 7
    kanji_at_start: bool = False   # starts (and resets to) Kanji mode
    raster: tuple[str, ...] = ("gs-v-0", "esc-star")   # the image commands it knows
    qr: bool = False               # draws QR codes (GS ( k)


# The printers the profiles in companion/receipts/printers.py are written for.
HARDWARE = {
    "generic-58mm": Hardware(),
    "epson": Hardware(heat=False, qr=True),
    "csn-a2": Hardware(realtime=False, esc_v=True),
    "csn-a2-kanji": Hardware(realtime=False, esc_v=True, kanji_at_start=True),
    "esc-v": Hardware(realtime=False, gs_r=False, esc_v=True, raster=("esc-star",)),
    "mute": Hardware(realtime=False, gs_r=False, esc_v=False),
}
KANJI_GLYPH = "\u6f22"   # what a two-byte character prints as, for the tests


class Decoder:
    """The printer's interpreter: fed bytes in order, it builds the printed lines.

    ``feed()`` returns how many dot lines of paper the bytes moved. Commands it does not
    know are kept in ``unknown``; every ``ESC @`` counts in ``resets``.
    """

    def __init__(self, width: int = 32, hardware: Hardware = Hardware(), on_query=None):
        self.width = width
        self.hardware = hardware
        self.on_query = on_query       # called with the query bytes when an in-order query is reached
        self.lines: list[PrintedLine] = []
        self.unknown: list[bytes] = []
        self.resets = 0
        self.ink = 0.0                 # how dark the last dots printed are, 0..1 (bold counts twice)
        self._cmd = b""
        self._lead = b""               # the first byte of a Kanji character
        self._image: list | None = None   # a raster command's data: [kind, width bytes, rows, data, m]
        self.qr_commands: list[bytes] = []  # each GS ( k's data (cn fn parameters), in order
        self._reset_state()

    def _reset_state(self) -> None:
        self._text = []
        self._bold, self._wide, self._tall, self._align, self._spacing = False, 1, 1, "left", 30
        self.encoding = "cp437"        # ESC t n chooses another (CODE_PAGES)
        self.kanji = self.hardware.kanji_at_start
        self._lead = b""
        self._stripe: bytes = b""      # an ESC * stripe waiting for its line feed
        self._qr = {"size": 3, "level": "L", "data": b""}   # GS ( k's settings and stored data

    def _knows(self, prefix: bytes, name: bytes) -> bool:
        hw = self.hardware
        if prefix == b"\x1b":
            return (name in _ESC_ARGS and (name != b"7" or hw.heat) and (name != b"v" or hw.esc_v)
                    and (name != b"*" or "esc-star" in hw.raster))
        if prefix == b"\x1d":
            return (name in _GS_ARGS and (name != b"r" or hw.gs_r) and (name != b"v" or "gs-v-0" in hw.raster)
                    and (name != b"(" or hw.qr))
        return name in _FS_ARGS

    def feed(self, data: bytes) -> int:
        dots = 0
        for b in data:
            dots += self._byte(bytes([b]))
        return dots

    def _byte(self, b: bytes) -> int:
        if self._image is not None:
            return self._image_byte(b[0])
        if self._cmd:
            self._cmd += b
            return self._command()
        if b in (b"\x1b", b"\x1d", b"\x10", b"\x1c"):
            self._cmd = b
            self._lead = b""
            return 0
        if b == b"\n":
            return self._print_line()
        if b == b"\r" or b < b" ":
            return 0
        if self.kanji and (self._lead or b >= b"\x80"):
            if not self._lead:
                self._lead = b
                return 0
            self._lead = b""
            char = KANJI_GLYPH
        else:
            char = b.decode(self.encoding)
        self._text.append(char)
        if len(self._text) > self.width // self._wide:   # the printer wraps a full line
            extra = self._text.pop()
            dots = self._print_line()
            self._text.append(extra)
            return dots
        return 0

    def _command(self) -> int:
        cmd = self._cmd
        prefix = cmd[:1]
        if len(cmd) < 2:
            return 0
        if prefix == b"\x10":                          # DLE EOT n / DLE ENQ n: real time
            if len(cmd) < 3:
                return 0
            self._cmd = b""
            if cmd[1:2] not in (b"\x04", b"\x05"):
                self.unknown.append(cmd)
            return 0
        table = _ESC_ARGS if prefix == b"\x1b" else _GS_ARGS if prefix == b"\x1d" else _FS_ARGS
        name = cmd[1:2]
        if not self._knows(prefix, name):
            self._cmd = b""
            self.unknown.append(cmd)
            return 0
        if len(cmd) < 2 + table[name]:
            return 0
        self._cmd = b""
        arg = cmd[2] if len(cmd) > 2 else 0
        if prefix == b"\x1c":
            self.kanji = name == b"&"
            return 0
        if (prefix, name) in ((b"\x1d", b"r"), (b"\x1b", b"v")):
            if self.on_query is not None:
                self.on_query(cmd)
            return 0
        if prefix == b"\x1d":
            if name == b"!":
                self._wide, self._tall = (arg >> 4) + 1, (arg & 15) + 1
            elif name == b"(":                        # GS ( k pL pH: pL + 256 pH bytes follow
                length = cmd[3] | cmd[4] << 8
                if cmd[2:3] != b"k" or not length:
                    self.unknown.append(cmd)
                else:
                    self._image = ["gs-k", length, 1, bytearray(), 0]
            elif name == b"v" and cmd[2:3] in (b"0", b"\x00"):   # GS v 0 m xL xH yL yH
                width, rows = cmd[4] | cmd[5] << 8, cmd[6] | cmd[7] << 8
                if width and rows:
                    self._image = ["gs-v-0", width, rows, bytearray(), cmd[3]]
            return 0
        if name == b"*":                               # ESC * m nL nH: columns follow
            cols = cmd[3] | cmd[4] << 8
            if cols:
                self._image = ["esc-star", cols, 3 if arg in (32, 33) else 1, bytearray(), arg]
            return 0
        if name == b"@":
            self.resets += 1
            self._reset_state()
        elif name == b"3":
            self._spacing = arg
        elif name == b"t":
            self.encoding = next((page for page, n in CODE_PAGES.items() if n == arg), self.encoding)
        elif name == b"2":
            self._spacing = 30
        elif name == b"a":
            if not self._text:      # Epson: alignment takes effect only at the start of a line
                self._align = _ALIGNS.get(arg, "left")
        elif name == b"E":
            self._bold = bool(arg & 1)
        elif name == b"!":
            self._bold = bool(arg & 8)
            self._wide, self._tall = (2 if arg & 32 else 1), (2 if arg & 16 else 1)
        elif name == b"d":
            dots = self._print_line() if self._text else 0
            for _ in range(arg):
                dots += self._print_line()
            return dots
        elif name == b"J":
            return arg
        return 0

    def _image_byte(self, b: int) -> int:
        """One byte of a raster command's data; a GS v 0 row completed prints (1 dot)."""
        kind, width, rows, data, _mode = self._image
        data.append(b)
        if kind == "gs-k":
            if len(data) < width:
                return 0
            self._image = None
            return self._two_dimensional_code(bytes(data))
        if kind == "gs-v-0":
            if len(data) % width:
                return 0
            row = data[-width:]
            self.ink = min(1.0, sum(bin(x).count("1") for x in row) / (width * 8) * 2)
            if len(data) == width * rows:
                self._image = None
                self.lines.append(PrintedLine("", dots=rows, raster=bytes(data), raster_width=width * 8))
            return 1
        if len(data) == width * rows:                  # ESC *: the stripe prints at the line feed
            self._image = None
            self._stripe = bytes(data) if rows == 3 else b""
            self._stripe_cols = width
        return 0

    def _two_dimensional_code(self, data: bytes) -> int:
        """One GS ( k function (``data``: cn fn parameters); QR codes only (cn 49)."""
        self.qr_commands.append(data)
        fn, arg = data[1:2], data[2] if len(data) > 2 else None
        if data[:1] != b"1" or fn not in b"ACEPQ" or not fn:
            self.unknown.append(b"\x1d(k" + data)
        elif fn == b"C" and arg is not None and 1 <= arg <= 16:
            self._qr["size"] = arg
        elif fn == b"E" and arg is not None and 48 <= arg <= 51:
            self._qr["level"] = "LMQH"[arg - 48]
        elif fn == b"P" and arg == 48:
            self._qr["data"] = data[3:]
        elif fn == b"Q" and arg == 48 and self._qr["data"]:
            return self._print_qr()
        return 0

    def _print_qr(self) -> int:
        """The stored data printed as a QR code (drawn by the companion's encoder) at the
        alignment, its modules ``size`` dots square, at the level selected."""
        from companion import qr
        if self._text:
            self._print_line()
        level = self._qr["level"]
        paper = self.width * 12
        x = {"left": 0, "center": None, "right": paper}[self._align]
        img = qr.image(self._qr["data"].decode("utf-8", "replace"), level, self._qr["size"], paper, x)
        ink = img.tobytes().translate(bytes(255 - b for b in range(256)))
        self.ink = min(1.0, sum(bin(b).count("1") for b in ink) / len(ink) * 2)
        self.lines.append(PrintedLine("", dots=img.height, raster=ink, raster_width=paper))
        return img.height

    def _print_line(self) -> int:
        if self._stripe:
            cols, data = self._stripe_cols, self._stripe
            self._stripe = b""
            from PIL import Image
            img = Image.frombytes("1", (24, cols), data).transpose(Image.Transpose.TRANSPOSE)
            self.ink = min(1.0, sum(bin(x).count("1") for x in data) / (cols * 24) * 2)
            height = max(self._spacing, 24)
            self.lines.append(PrintedLine("", dots=height, raster=img.tobytes(), raster_width=cols))
            return height
        text = "".join(self._text)
        self._text = []
        height = max(self._spacing, LINE_DOTS * self._tall) if text else self._spacing
        self.lines.append(PrintedLine(text, self._bold, self._wide, self._tall, self._align, height))
        ink = sum(ch != " " for ch in text) * self._wide * (2 if self._bold else 1)
        self.ink = min(1.0, ink / self.width)
        return height


def decode(data: bytes, width: int = 32, model: str = "generic-58mm") -> Decoder:
    """Interpret a whole byte stream as the printer ``model`` would (see ``HARDWARE``);
    the result's ``lines`` are what the paper shows."""
    decoder = Decoder(width, HARDWARE[model])
    decoder.feed(data)
    return decoder


def paper_text(lines: list[PrintedLine], width: int = 32) -> list[str]:
    """The lines as a reader sees them: aligned in their width, trailing spaces removed."""
    out = []
    for line in lines:
        w = width // line.width
        text = line.text.center(w) if line.align == "center" else line.text.rjust(w) if line.align == "right" else line.text
        out.append(text.rstrip())
    return out


@dataclass
class Job:
    """One print job (from one ``ESC @`` to the next) on the simulator's clock."""
    started: float                   # when its first byte began to arrive
    finished: float = 0.0            # when its last line was printed
    first_line: int = 0
    nbytes: int = 0
    data: bytearray = field(default_factory=bytearray)   # the bytes its interpreter read
    dots: int = 0
    overflow: int = 0
    lines: list[PrintedLine] = field(default_factory=list)

    @property
    def duration(self) -> float:
        return self.finished - self.started

    def text(self, width: int = 32) -> list[str]:
        return paper_text(self.lines, width)


class Engine:
    """The timing model: wire, input buffer, print engine. Times are in seconds."""

    def __init__(self, *, baudrate: int, buffer_bytes: int | None, line_ms: float, width: int = 32,
                 hardware: Hardware = Hardware(), slow: float = 1.0, dark: float = 0.0, on_query=None):
        self.byte_s = 10.0 / baudrate
        self.line_s = line_ms / 1000.0 * slow
        self.dark = dark
        self.width = width
        self.capacity = buffer_bytes
        self.decoder = Decoder(width, hardware, on_query)
        self.queue: deque[tuple[float, int]] = deque()
        self.wire_free = float("-inf")
        self.engine_free = float("-inf")
        self.paper = True
        self.online = True             # False: cover open (the engine holds what it has)
        self.overflow = 0
        self.jobs: list[Job] = []
        self._last_arrival = 0.0

    def receive(self, t: float, data: bytes, realtime: int = 0) -> None:
        """``data`` was read at ``t``: give each byte its arrival time, buffer or lose it.
        ``realtime`` bytes (status queries, answered at once) also took wire time."""
        self.wire_free = max(t, self.wire_free + self.byte_s * realtime) if realtime else self.wire_free
        for b in data:
            arrival = max(t, self.wire_free + self.byte_s)
            self.wire_free = arrival
            self.advance(arrival)
            if self.capacity is not None and len(self.queue) >= self.capacity:
                self.overflow += 1
                if self.jobs:
                    self.jobs[-1].overflow += 1
            else:
                self.queue.append((arrival, b))

    def advance(self, t: float) -> None:
        """Let the engine consume and print what it can up to time ``t``."""
        dec = self.decoder
        self._idle_queries(t)
        while self.queue and self.paper and self.online:
            arrival, b = self.queue[0]
            start = max(self.engine_free, arrival)
            if start > t:
                break
            self.queue.popleft()
            resets = dec.resets
            dots = dec.feed(bytes([b]))
            if dec.resets != resets:
                self.jobs.append(Job(started=self._last_arrival - self.byte_s, first_line=len(dec.lines)))
                self.jobs[-1].nbytes = 1             # the ESC before the "@"
                self.jobs[-1].data += b"\x1b"
            self._last_arrival = arrival
            self.engine_free = start + dots * self.line_s * (1 + self.dark * self._ink(dots))
            if self.jobs:
                job = self.jobs[-1]
                job.nbytes += 1
                job.data.append(b)
                if dots:
                    job.dots += dots
                    job.finished = self.engine_free
                    job.lines = dec.lines[job.first_line:]

    def _idle_queries(self, t: float) -> None:
        """Out of paper but online, the interpreter still reaches a status query with
        nothing to print ahead of it (that is how an owner's printer says "paper out")."""
        hw, dec = self.decoder.hardware, self.decoder
        while not self.paper and self.online and len(self.queue) >= 3 and not dec._cmd and not dec._text:
            head = bytes(b for _, b in list(self.queue)[:3])
            if not ((head == b"\x1dr\x01" and hw.gs_r) or (head == b"\x1bv\x00" and hw.esc_v)):
                return
            if self.queue[2][0] > t:
                return
            for _ in range(3):
                dec.feed(bytes([self.queue.popleft()[1]]))

    def _ink(self, dots: int) -> float:
        """How dark the dots just printed are, 0..1 (bold text, and a raster row's ink,
        count twice)."""
        return self.decoder.ink if dots else 0.0

    def idle_at(self) -> float | None:
        """When everything received will have been printed (None: never, paper out)."""
        if self.queue and not (self.paper and self.online):
            return None
        return self.engine_free if not self.queue else float("inf")


def fastest_time(data: bytes, *, baudrate: int, line_ms: float, width: int = 32) -> float:
    """The shortest time the modelled printer needs for ``data``: every byte sent back to
    back at the baud rate into an unlimited buffer, measured like ``Job.duration``."""
    engine = Engine(baudrate=baudrate, buffer_bytes=None, line_ms=line_ms, width=width)
    engine.receive(0.0, data)
    engine.advance(float("inf"))
    job = engine.jobs[-1]
    return job.duration


class PrinterSim:
    """A thermal printer at the other end of a pty. Use as a context manager or call
    ``close()``. ``path`` stays the same across ``unplug()``/``plug()``."""

    def __init__(self, *, baudrate: int = 9600, buffer_bytes: int = 256, line_ms: float = 12,
                 width: int = 32, path: str | os.PathLike | None = None, model: str = "generic-58mm",
                 slow: float = 1.0, dark: float = 0.0):
        self.baudrate, self.buffer_bytes, self.line_ms, self.width = baudrate, buffer_bytes, line_ms, width
        self.model = model
        self.hardware = HARDWARE[model]
        self.engine = Engine(baudrate=baudrate, buffer_bytes=buffer_bytes, line_ms=line_ms, width=width,
                             hardware=self.hardware, slow=slow, dark=dark, on_query=self._in_order)
        self.silent = False
        self.received = bytearray()
        self.status_queries = 0
        self._tmpdir = None
        if path is None:
            self._tmpdir = tempfile.mkdtemp(prefix="printer-sim-")
            path = Path(self._tmpdir) / "printer"
        self.path = str(path)
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._rt = b""
        self._unplug_after: int | None = None
        self._stop = threading.Event()
        self.plug()
        self._thread = threading.Thread(target=self._run, name="printer-sim", daemon=True)
        self._thread.start()

    # -- faults an owner meets ------------------------------------------------------------
    def plug(self) -> None:
        """Connect (again): a fresh pty behind the same ``path``."""
        with self._lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)
            self._master, self._slave = master, slave
            tmp = self.path + ".new"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(os.ttyname(slave), tmp)
            os.replace(tmp, self.path)

    def unplug(self) -> None:
        """Pull the cable: the pty closes, the port's path disappears."""
        with self._lock:
            if self._master is None:
                return
            for fd in (self._master, self._slave):
                os.close(fd)
            self._master = self._slave = None
            self._rt = b""
            if os.path.lexists(self.path):
                os.unlink(self.path)

    def unplug_after(self, nbytes: int) -> None:
        """Pull the cable once ``nbytes`` more bytes have arrived (mid-receipt)."""
        with self._lock:
            self._unplug_after = len(self.received) + nbytes

    def paper_out(self) -> None:
        with self._lock:
            self.engine.advance(time.monotonic())
            self.engine.paper = False

    def load_paper(self) -> None:
        with self._lock:
            self.engine.paper = True
            self.engine.engine_free = max(self.engine.engine_free, time.monotonic())

    def open_cover(self) -> None:
        """Offline: the engine stops and holds its data; the paper sensor still sees paper."""
        with self._lock:
            self.engine.advance(time.monotonic())
            self.engine.online = False

    def close_cover(self) -> None:
        with self._lock:
            self.engine.online = True
            self.engine.engine_free = max(self.engine.engine_free, time.monotonic())

    @property
    def plugged(self) -> bool:
        return self._master is not None

    # -- what came out --------------------------------------------------------------------
    @property
    def overflow(self) -> int:
        """Bytes lost because they arrived while the input buffer was full."""
        return self.engine.overflow

    @property
    def jobs(self) -> list[Job]:
        with self._lock:
            self.engine.advance(time.monotonic())
            return list(self.engine.jobs)

    def receipts(self) -> list[list[str]]:
        """The text of every job printed so far, as a reader sees the paper."""
        return [job.text(self.width) for job in self.jobs]

    def _unread(self) -> int:
        """Bytes written by the driver that the simulator has not read yet."""
        if self._master is None:
            return 0
        return struct.unpack("i", fcntl.ioctl(self._master, termios.FIONREAD, b"\0\0\0\0"))[0]

    def wait_printed(self, timeout: float = 30.0, settle: float = 0.1) -> bool:
        """Wait (wall clock) until everything sent so far has been printed and nothing more
        has come in for ``settle`` seconds (the pty hands bytes over asynchronously)."""
        deadline = time.monotonic() + timeout
        quiet_since = None
        while time.monotonic() < deadline:
            with self._lock:
                now = time.monotonic()
                self.engine.advance(now)
                idle = self.engine.idle_at()
                done = idle is not None and idle <= now and not self._unread()
                received = len(self.received)
            if not done or quiet_since is None or quiet_since[1] != received:
                quiet_since = (now, received) if done else None
            elif now - quiet_since[0] >= settle:
                return True
            time.sleep(0.01)
        return False

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.unplug()
        if self._tmpdir:
            try:
                os.rmdir(self._tmpdir)
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- the printer's side of the wire ---------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            master = self._master
            if master is None:
                time.sleep(0.01)
                continue
            try:
                select.select([master], [], [], 0.01)
                with self._lock:          # read and account in one step (see wait_printed)
                    now = time.monotonic()
                    if self._master == master:
                        ready, _, _ = select.select([master], [], [], 0)
                        if ready:
                            self._arrive(now, os.read(master, 4096))
                    self.engine.advance(now)
            except OSError:          # closed by unplug() meanwhile
                time.sleep(0.005)

    def _arrive(self, now: float, data: bytes) -> None:
        limit = self._unplug_after
        if limit is not None and len(self.received) + len(data) >= limit:
            data = data[:max(0, limit - len(self.received))]
        self.received += data
        stream, realtime = bytearray(), 0
        for b in data:                 # real-time commands are answered on arrival
            self._rt += bytes([b])
            if (not self.hardware.realtime or self._rt[:1] != b"\x10"
                    or self._rt[1:2] not in (b"", b"\x04")):
                stream += self._rt
                self._rt = b""
            elif len(self._rt) == 3:
                self._answer(self._rt[2])
                self._rt = b""
                realtime += 3
        self.engine.receive(now, bytes(stream), realtime)
        if limit is not None and len(self.received) >= limit:
            self._unplug_after = None
            self.unplug()

    def _answer(self, n: int) -> None:
        """DLE EOT n: 1 printer (bit 3 offline), 2 offline cause (bit 2 cover open, bit 5
        stopped at paper end), 4 paper sensor (bits 5-6 paper end)."""
        self.status_queries += 1
        if self.silent or self._master is None:
            return
        paper, online = self.engine.paper, self.engine.online
        offline = not (paper and online)
        reply = {1: 0x12 | (0x08 if offline else 0),
                 2: 0x12 | (0 if online else 0x04) | (0 if paper else 0x20),
                 4: 0x12 if paper else 0x72}.get(n)
        if reply is not None:
            os.write(self._master, bytes([reply]))

    def _in_order(self, query: bytes) -> None:
        """GS r 1 / ESC v 0 reached by the engine: the paper sensor, bits 2-3 paper end."""
        self.status_queries += 1
        if self.silent or self._master is None:
            return
        try:
            os.write(self._master, b"\x00" if self.engine.paper else b"\x0c")
        except OSError:
            pass
