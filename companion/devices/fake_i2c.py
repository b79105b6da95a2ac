"""A recording smbus-like bus and models of the SSD1306 / SH1106 display RAM (for the demo and tests).

The bus is handed to luma's ``i2c(bus=...)`` (through ``oled.i2c_link``): luma's own
commands (init, contrast, power) come with control byte 0x00 in SMBus blocks of at most
32 bytes; a frame's windows come as I2C messages of any length, all in one call
(``write_messages``, what smbus2's ``i2c_rdwr`` does on the device), each a control byte
and commands (0x00) or data (0x40) after it, or single commands and data bytes chained
with control bytes whose Co bit is set (0x80, 0xC0; see pieces()). The models replay
those writes the way the controllers address their RAM (the SSD1306 in horizontal or
page addressing, the SH1106 in page addressing), so a test can read back the picture.
"""

from __future__ import annotations

import errno

from PIL import Image

COMMAND, DATA = 0x00, 0x40
CONTINUATION = 0x80


def pieces(control: int, values) -> list[tuple[int, list[int]]]:
    """What a write carries after its address byte, ``control`` its first control byte and
    ``values`` the rest, as the SSD1306 and SH1106 datasheets describe the I2C control
    byte: its D/C# bit (0x40) says whether the byte(s) after it are data for the RAM or
    commands; with its Co bit (0x80) set, one such byte follows and then another control
    byte; with Co clear, every byte up to the STOP is of that kind. ``(COMMAND or DATA,
    bytes)`` in order."""
    out: list[tuple[int, list[int]]] = []
    values = list(values)
    while True:
        kind = DATA if control & DATA else COMMAND
        if not control & CONTINUATION:
            out.append((kind, values))
            return out
        out.append((kind, values[:1]))
        if len(values) < 2:
            return out
        control, values = values[1], values[2:]


def data_count(message) -> int:
    """The data bytes of a write (control byte first), as pieces() takes it apart, counted
    without copying it: the demo's recording bus counts every frame's writes."""
    i, n, count = 0, len(message), 0
    while i < n:
        control = message[i]
        if not control & CONTINUATION:
            return count + (n - i - 1 if control & DATA else 0)
        count += i + 1 < n and control & DATA != 0
        i += 2
    return count


MESSAGE_MAX = 8192
"""The longest I2C write Linux's i2c-dev takes in one message (I2C_RDWR)."""


class FakeBus:
    """Records every write (``writes``: address, control byte, the bytes after it), or
    with ``keep_writes=False`` only counts them (a long demo race would otherwise hold
    megabytes of frames). ``bus_bytes()`` counts every byte the bus carries: the address
    byte of each write, the control byte, the rest."""

    def __init__(self, address: int = 0x3C, present: bool = True, keep_writes: bool = True):
        self.address = address
        self.present = present
        self.keep_writes = keep_writes
        self.writes: list[tuple[int, int, list[int]]] = []
        self._data = 0
        self._bus = 0

    def write_i2c_block_data(self, address, register, values):
        """An SMBus "I2C block" write: the register (the control byte), at most 32 bytes."""
        if len(values) > 32:
            raise OSError(errno.EINVAL, f"I2C block of {len(values)} bytes: at most 32")
        self._write(address, register, values)

    def write_message(self, address, values):
        """One I2C write of any length (an I2C_RDWR message): the control byte first."""
        self.write_messages(address, (values,))

    def write_messages(self, address, messages):
        """I2C writes one after the other (one I2C_RDWR call, as the driver makes one a
        frame on the device); each message is a control byte and what follows it."""
        for values in messages:
            n = len(values)
            if not 1 <= n <= MESSAGE_MAX:
                raise OSError(errno.EINVAL, f"I2C message of {n} bytes: 1 to {MESSAGE_MAX}")
            if not self.present or address != self.address:
                raise OSError(errno.EREMOTEIO, "Remote I/O error")
            control = values[0]
            if control & CONTINUATION:
                self._data += data_count(values)
            elif control & DATA:
                self._data += n - 1
            self._bus += 1 + n
            if self.keep_writes:
                self.writes.append((address, values[0], list(values[1:])))

    def _write(self, address, register, values):
        if not self.present or address != self.address:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if register == DATA:
            self._data += len(values)
        self._bus += 2 + len(values)
        if self.keep_writes:
            self.writes.append((address, register, list(values)))

    def clear(self):
        self.writes.clear()
        self._data = 0
        self._bus = 0

    def data_bytes(self) -> int:
        """Display data bytes sent since the bus was made or cleared."""
        return self._data

    def bus_bytes(self) -> int:
        """Every byte the bus carried since it was made or cleared (address, control, the rest)."""
        return self._bus

    def command_bytes(self) -> list[int]:
        return [b for _, control, v in self.writes for kind, sent in pieces(control, v) if kind == COMMAND
                for b in sent]


# Commands that take argument bytes (count), for each controller.
_SSD1306_ARGS = {0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0x20: 1, 0x21: 2, 0x22: 2}
_SH1106_ARGS = {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class Ssd1306Ram:
    """128x64 GDDRAM, in horizontal addressing mode (what luma's init selects) or page
    addressing mode (``0x20 0x02``), as the datasheet's section 10.1.3 describes them."""
    columns = 128
    offset = 0

    def __init__(self):
        self.ram = [[0] * self.columns for _ in range(8)]
        self.col0, self.col1, self.page0, self.page1 = 0, self.columns - 1, 0, 7
        self.col, self.page = 0, 0
        self.mode = 2   # page addressing after reset

    def replay(self, writes):
        """Apply recorded writes ``(address, control byte, the rest)``: commands (with their
        argument bytes, however the control bytes split them) and RAM data."""
        commands: list[int] = []
        for _, control, values in writes:
            for kind, sent in pieces(control, values):
                if kind == COMMAND:
                    commands += sent
                    continue
                if commands:
                    self.commands(commands)
                    commands = []
                for byte in sent:
                    self.write(byte)
        if commands:
            self.commands(commands)

    def commands(self, values):
        i = 0
        while i < len(values):
            op = values[i]
            n = _SSD1306_ARGS.get(op, 0)
            self.command(op, values[i + 1:i + 1 + n])
            i += 1 + n

    def command(self, op, args):
        if op == 0x20:
            self.mode = args[0] & 0x03
        elif op == 0x21:
            self.col0, self.col1 = args
            self.col = self.col0
        elif op == 0x22:
            self.page0, self.page1 = args
            self.page = self.page0
        elif self.mode != 2:
            return   # the page addressing commands below do nothing in the other modes
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 0x07
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | (op & 0x0F) << 4

    def write(self, byte):
        self.ram[self.page][self.col] = byte
        self.col += 1
        if self.mode == 2:
            self.col %= self.columns   # page addressing: the column wraps, the page stays
        elif self.col > self.col1:
            self.col = self.col0
            self.page = self.page0 if self.page >= self.page1 else self.page + 1

    def image(self) -> Image.Image:
        """The picture the panel shows: bit i of RAM byte (page, column) is the pixel
        (column - offset, 8 * page + i)."""
        image = Image.new("1", (128, 64))
        for page in range(8):
            row = bytes(self.ram[page][self.offset:self.offset + 128])
            # one byte a row of 8 pixels, the MSB leftmost: turned, the LSB is on top
            strip = Image.frombytes("1", (8, 128), row).transpose(Image.Transpose.TRANSPOSE)
            image.paste(strip.transpose(Image.Transpose.FLIP_TOP_BOTTOM), (0, 8 * page))
        return image


class Sh1106Ram(Ssd1306Ram):
    """132x64 RAM in page addressing mode; the 128 visible columns start at column 2."""
    columns = 132
    offset = 2

    def commands(self, values):
        i = 0
        while i < len(values):
            op = values[i]
            n = _SH1106_ARGS.get(op, 0)
            if 0xB0 <= op <= 0xB7:
                self.page = op & 0x07
            elif op <= 0x0F:
                self.col = (self.col & 0xF0) | op
            elif op <= 0x1F:
                self.col = (self.col & 0x0F) | (op & 0x0F) << 4
            i += 1 + n

    def write(self, byte):
        if self.col < self.columns:
            self.ram[self.page][self.col] = byte
        self.col += 1  # no wrap to the next page in page addressing mode
