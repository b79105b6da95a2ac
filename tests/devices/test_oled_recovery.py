"""A command write cut short on the I2C bus, replayed on a model of the SSD1306 that
consumes command arguments the way the datasheet says: across transactions, the bytes
after a command are its arguments until it has them all. The frame after the fault must
be right, and so must the contrast."""

import errno

import pytest
from PIL import Image

from companion.devices import DeviceError
from companion.devices.board import DEFAULTS
from companion.devices.oled import OledDisplay
from companion.devices.fake_i2c import DATA, FakeBus, pieces
from companion.ui.render import render
from companion.ui.view import Big, View

# SSD1306 datasheet, section 9 (command table): argument bytes after each command byte.
ARGS = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0x8D: 1,
        0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2}
NOP = 0xE3


class Ssd1306Model:
    """The controller's command decoder and GDDRAM. The decoder's state (a command
    waiting for arguments) survives the end of an I2C transaction."""

    def __init__(self):
        self.ram = [[0] * 128 for _ in range(8)]
        self.mode = 2                   # page addressing after reset
        self.contrast = 0x7F
        self.col0, self.col1, self.page0, self.page1 = 0, 127, 0, 7
        self.col = self.page = 0
        self.pending: list[int] = []    # a command and the arguments it has so far

    def command_byte(self, byte: int) -> None:
        if self.pending:
            self.pending.append(byte)
        elif byte in ARGS:
            self.pending = [byte]
        else:
            self.execute([byte])
            return
        if len(self.pending) == 1 + ARGS[self.pending[0]]:
            cmd, self.pending = self.pending, []
            self.execute(cmd)

    def execute(self, cmd: list[int]) -> None:
        op, args = cmd[0], cmd[1:]
        if op == 0x81:
            self.contrast = args[0]
        elif op == 0x20:
            self.mode = args[0] & 0x03
        elif op == 0x21:
            self.col0, self.col1 = args[0] & 0x7F, args[1] & 0x7F
            self.col = self.col0
        elif op == 0x22:
            self.page0, self.page1 = args[0] & 0x07, args[1] & 0x07
            self.page = self.page0
        elif 0xB0 <= op <= 0xB7 and self.mode == 2:
            self.page = op & 0x07
        elif op <= 0x0F and self.mode == 2:
            self.col = (self.col & 0xF0) | op
        elif 0x10 <= op <= 0x1F and self.mode == 2:
            self.col = (self.col & 0x0F) | (op & 0x0F) << 4

    def data_byte(self, byte: int) -> None:
        self.ram[self.page][self.col] = byte
        if self.mode == 0:              # horizontal: wrap at the window's end to the next page
            self.col += 1
            if self.col > self.col1:
                self.col = self.col0
                self.page = self.page0 if self.page >= self.page1 else self.page + 1
        elif self.mode == 2:
            self.col = min(self.col + 1, 127)

    def image(self) -> Image.Image:
        image = Image.new("1", (128, 64))
        px = image.load()
        for y in range(64):
            for x in range(128):
                px[x, y] = (self.ram[y // 8][x] >> (y % 8)) & 1
        return image


class CuttingBus(FakeBus):
    """Feeds every write to the model; ``cut(n)`` makes the next command write deliver
    only its first ``n`` bytes and then fail (a NACK half-way)."""

    def __init__(self):
        super().__init__()
        self.model = Ssd1306Model()
        self._cut: int | None = None

    def cut(self, n: int) -> None:
        self._cut = n

    def write_i2c_block_data(self, address, register, values):
        super().write_i2c_block_data(address, register, values)
        self.feed(register, values)

    def write_messages(self, address, messages):
        for values in messages:
            super().write_messages(address, (values,))
            self.feed(values[0], values[1:])

    def feed(self, register, values):
        """A write's bytes after its first control byte, taken apart at its control bytes
        (Co bit) the way the datasheet says; a write that starts with commands can be cut
        after its first ``n`` bytes."""
        values = list(values)
        failed = not register & DATA and self._cut is not None
        if failed:
            values, self._cut = values[:self._cut], None
        for kind, sent in pieces(register, values):
            for byte in sent:
                (self.model.data_byte if kind == DATA else self.model.command_byte)(byte)
        if failed:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")


def screen(text: str) -> Image.Image:
    return render(View(title="Formula De", status="RED", body=(Big(text, caption="gear 5"),), footer="ROLL"))


def open_display(contrast=200):
    bus = CuttingBus()
    display = OledDisplay(dict(DEFAULTS["display"], contrast=contrast), bus=bus)
    return display, bus


def test_the_model_shows_what_the_driver_sends():
    display, bus = open_display()
    display.show(screen("3"))
    assert bus.model.image().tobytes() == screen("3").tobytes()
    assert bus.model.contrast == 200 and bus.model.pending == []


@pytest.mark.parametrize("cut", [1, 2])
def test_window_command_cut_short_the_next_frame_is_right(cut):
    display, bus = open_display()
    display.show(screen("3"))
    bus.cut(cut)                                   # page, column low, column high: cut inside
    with pytest.raises(DeviceError):
        display.show(screen("11"))
    display.show(screen("7"))
    assert bus.model.image().tobytes() == screen("7").tobytes()
    assert bus.model.pending == [] and bus.model.mode == 2 and bus.model.contrast == 200
    display.show(screen("8"))                      # and partial updates carry on from there
    assert bus.model.image().tobytes() == screen("8").tobytes()


@pytest.mark.parametrize("cut", [1, 3])
def test_addressing_mode_command_cut_short_the_next_frame_is_right(cut):
    display, bus = open_display()
    display.show(screen("3"))
    display.device.invalidate()                    # the next frame is whole: 0x20 0x02 first
    bus.cut(cut)
    with pytest.raises(DeviceError):
        display.show(screen("11"))
    if cut == 1:
        assert bus.model.pending == [0x20]         # the controller waits for the mode
    display.show(screen("7"))
    assert bus.model.image().tobytes() == screen("7").tobytes()
    assert bus.model.pending == [] and bus.model.mode == 2 and bus.model.contrast == 200
    display.show(screen("8"))
    assert bus.model.image().tobytes() == screen("8").tobytes()


def test_contrast_command_cut_short_is_sent_again():
    display, bus = open_display()
    display.show(screen("3"))
    bus.cut(1)                                     # 0x81 arrives, its level does not
    with pytest.raises(Exception):
        display.device.contrast(40)
    display.show(screen("4"))
    assert bus.model.contrast == 40
    assert bus.model.image().tobytes() == screen("4").tobytes()


@pytest.mark.parametrize("cut", [1, 2, 3])
def test_chained_write_cut_short_the_next_frame_is_right(cut):
    """A write that starts with one command chained (Co=1) to the data after it, cut
    inside: the command, its control byte or the data's."""
    display, bus = open_display()
    frame = Image.new("1", (128, 64))
    display.show(frame)
    frame.putpixel((10, 25), 1)
    display.show(frame)
    frame.putpixel((10, 25), 0)
    frame.putpixel((14, 25), 1)                    # the pointer is at column 11 of page 3
    frame.putpixel((15, 25), 1)
    bus.cut(cut)
    with pytest.raises(DeviceError):
        display.show(frame)
    assert bus.writes[-1][1:] == (0x80, [0x0A, 0x40, 0, 0, 0, 0, 2, 2])   # page 3, columns 10-15
    frame.putpixel((40, 60), 1)
    display.show(frame)
    assert bus.model.image().tobytes() == frame.tobytes()
    assert bus.model.pending == [] and bus.model.mode == 2 and bus.model.contrast == 200
