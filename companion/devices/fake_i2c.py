"""A recording smbus-like bus and models of the SSD1306 / SH1106 display RAM (for the demo and tests).

The bus is handed to luma's ``i2c(bus=...)``: luma then writes commands with control
byte 0x00 and data with 0x40, in blocks of at most 32 bytes. The models replay those
writes the way the controllers address their RAM, so a test can read back the picture.
"""

from __future__ import annotations

import errno

from PIL import Image

COMMAND, DATA = 0x00, 0x40


class FakeBus:
    """Records every block written (``writes``), or with ``keep_writes=False`` only counts
    the data bytes (a long demo race would otherwise hold megabytes of frames)."""

    def __init__(self, address: int = 0x3C, present: bool = True, keep_writes: bool = True):
        self.address = address
        self.present = present
        self.keep_writes = keep_writes
        self.writes: list[tuple[int, int, list[int]]] = []
        self._data = 0

    def write_i2c_block_data(self, address, register, values):
        if not self.present or address != self.address:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if len(values) > 32:
            raise OSError(errno.EINVAL, f"I2C block of {len(values)} bytes: at most 32")
        if register == DATA:
            self._data += len(values)
        if self.keep_writes:
            self.writes.append((address, register, list(values)))

    def clear(self):
        self.writes.clear()
        self._data = 0

    def data_bytes(self) -> int:
        """Display data bytes sent since the bus was made or cleared."""
        return self._data

    def command_bytes(self) -> list[int]:
        return [b for _, reg, v in self.writes if reg == COMMAND for b in v]


# Commands that take argument bytes (count), for each controller.
_SSD1306_ARGS = {0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0x20: 1, 0x21: 2, 0x22: 2}
_SH1106_ARGS = {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class Ssd1306Ram:
    """128x64 GDDRAM in horizontal addressing mode (what luma's init selects)."""
    columns = 128
    offset = 0

    def __init__(self):
        self.ram = [[0] * self.columns for _ in range(8)]
        self.col0, self.col1, self.page0, self.page1 = 0, self.columns - 1, 0, 7
        self.col, self.page = 0, 0

    def replay(self, writes):
        for _, register, values in writes:
            if register == DATA:
                for byte in values:
                    self.write(byte)
            else:
                self.commands(values)

    def commands(self, values):
        i = 0
        while i < len(values):
            op = values[i]
            n = _SSD1306_ARGS.get(op, 0)
            self.command(op, values[i + 1:i + 1 + n])
            i += 1 + n

    def command(self, op, args):
        if op == 0x21:
            self.col0, self.col1 = args
            self.col = self.col0
        elif op == 0x22:
            self.page0, self.page1 = args
            self.page = self.page0

    def write(self, byte):
        self.ram[self.page][self.col] = byte
        self.col += 1
        if self.col > self.col1:
            self.col = self.col0
            self.page = self.page0 if self.page >= self.page1 else self.page + 1

    def image(self) -> Image.Image:
        image = Image.new("1", (128, 64))
        for y in range(64):
            for x in range(128):
                image.putpixel((x, y), (self.ram[y // 8][x + self.offset] >> (y % 8)) & 1)
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
