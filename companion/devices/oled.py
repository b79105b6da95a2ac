"""The OLED: luma.oled's SSD1306 and SH1106 drivers over I2C, sending only what changed.

:class:`OledDisplay` is the display of a Pi's ``[display]`` table; :func:`oled_class` the
luma driver class with :class:`PartialUpdates` mixed in, which sends the writes the byte
planner (``devices/oled_plan.py``) makes instead of the 1,024 bytes luma's ``display()``
sends each time; :func:`i2c_link` luma's I2C interface with one more method, to send a
frame's writes in one call.

Where this reaches past luma's public API, it is written against luma.core 2.6.0 and
luma.oled 3.16.0, and only in two places: :class:`Ssd1306Window` runs luma's ssd1306 init
without building the tables only luma's own ``display()`` uses (15 M instructions of the
Pi's cold start), and :func:`i2c_link` sends through the bus luma's ``i2c`` holds
(``_bus``, ``_addr``, ``_managed``, ``_i2c_msg_write``: luma's public ``command()`` and
``data()`` cut a frame in SMBus blocks of 32 bytes). tests/devices/test_display.py holds
both to luma: the init command for command, the messages on a bus as luma opens it.
Everything else goes through luma's public methods (``command``, ``data``, ``preprocess``,
``contrast``, ``cleanup``, ``persist``).
"""

from __future__ import annotations

import re

from PIL import Image

from companion.devices import DeviceError
from companion.devices.display import check_frame
from companion.devices.oled_plan import control_runs, page_bytes, plan_writes


class PartialUpdates:
    """Mixed in before a luma 1-bit OLED driver, it replaces the driver's ``display()``
    (which sends all 1,024 bytes every time): the first frame, and the first after
    ``invalidate()`` or a failed write, is sent whole; later ones send only the changed
    bytes of the changed pages, in the writes the planner makes (``oled_plan.plan_writes``).
    The RAM is written with page addressing (the SH1106 has nothing else; the SSD1306 is
    switched to it with the whole frame). A frame's writes go to the link (``i2c_link``)
    together. The driver's init sequence, ``command()`` and ``data()`` are luma's, used
    through its public methods; a window class (below) supplies ``column_offset`` and the
    commands that select page addressing."""

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

    def __init__(self, serial_interface, *args, **kwargs):
        self.link = serial_interface     # i2c_link()'s: write_all() sends a frame's writes
        super().__init__(serial_interface, *args, **kwargs)

    def invalidate(self) -> None:
        self._frame = None

    def command(self, *cmd) -> None:
        try:
            super().command(*cmd)
        except Exception:
            self._frame = None
            self._cut = tuple(cmd)
            raise

    def data(self, data) -> None:
        try:
            super().data(data)
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
        native = self.preprocess(image)             # turned to the controller's own rows
        frame = page_bytes(native)
        old, self._frame = self._frame, None        # unknown until the writes succeed
        at, self._at = self._at, (None, None)
        writes, at = plan_writes(old, frame, native.width, self.column_offset, at, self.RAM_COLUMNS,
                                 self.PAGE_ADDRESSING)
        try:
            self.link.write_all(writes)
        except Exception:
            # whatever was cut is set again by the whole frame that comes next, which
            # starts with the addressing mode: NOPs complete a command left waiting
            self._cut = self._cut or ()
            raise
        self._at = at
        self._frame = frame


class Ssd1306Window:
    """The SSD1306 in page addressing mode (luma's init selects horizontal addressing).

    Its ``__init__`` is luma's ssd1306 init, byte for byte, less the two 8,192-entry
    tables luma's own ``display()`` uses (``_mask``, ``_offsets``): partial updates
    never use them, and building them cost 15 M instructions of the Pi's cold start.
    Written against luma.oled 3.16.0: it calls the ``__init__`` of luma's ssd1306's base
    (luma.core's ``device``: the serial interface, ``persist``, the exit hook) in place of
    luma's ssd1306 ``__init__``."""

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
        self.column_offset = settings["colstart"]
        c = luma.oled.const.ssd1306
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


class Sh1106Window:
    """The SH1106: page addressing only; its 132-column RAM shows columns 2..129 (luma's
    sh1106's default ``page_address_offset``, which only its own ``display()`` reads)."""

    PAGE_ADDRESSING = ()
    RAM_COLUMNS = 132
    column_offset = 2


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
    byte). Written against luma.core 2.6.0: luma's ``i2c`` keeps the bus, the address and
    whether it opened the bus itself (smbus2) in ``_bus``, ``_addr``, ``_managed`` and
    ``_i2c_msg_write``, and has no public way to send I2C messages."""
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
