"""Displays: the luma OLED drivers against a recording I2C bus, headless PNGs, the terminal."""

import io
import random
import subprocess
import sys

import pytest
from PIL import Image

from companion.devices import DeviceError
from companion.devices.board import DEFAULTS
from companion.devices.emulated import HeadlessDisplay, TerminalDisplay, half_blocks, quadrant_blocks
from companion.devices.oled import OledDisplay, Sh1106Window, Ssd1306Window
from companion.devices.oled_plan import JOINED, changed_runs, page_bytes, plan_windows, plan_writes
from companion.ui.render import render
from companion.ui.view import Big, View

from companion.devices.fake_i2c import COMMAND, DATA, FakeBus, Sh1106Ram, Ssd1306Ram, data_count, pieces

CONTROLLERS = [("ssd1306", Ssd1306Ram), ("sh1106", Sh1106Ram)]
FULL_FRAME = 128 * 64 // 8


def roll_screen(result: str) -> Image.Image:
    return render(View(title="Formula De", status="RED", body=(Big(result, caption="gear 5"),), footer="ROLL"))


def random_frame(rng: random.Random, density: float) -> Image.Image:
    return Image.frombytes("1", (128, 64), bytes(rng.getrandbits(8) if rng.random() < density else 0
                                                 for _ in range(FULL_FRAME)))


def open_oled(driver, **settings):
    bus = FakeBus()
    display = OledDisplay(dict(DEFAULTS["display"], driver=driver, **settings), bus=bus)
    return display, bus


@pytest.mark.parametrize("driver, ram_class", CONTROLLERS)
def test_first_frame_is_sent_whole_and_reconstructs_exactly(driver, ram_class):
    display, bus = open_oled(driver)
    bus.clear()
    frame = roll_screen("7")
    display.show(frame)
    assert bus.data_bytes() == FULL_FRAME
    ram = ram_class()
    ram.replay(bus.writes)
    assert ram.image().tobytes() == frame.tobytes()
    display.close()


@pytest.mark.parametrize("driver, ram_class", CONTROLLERS)
@pytest.mark.parametrize("before, after", [("7", "18"), ("18", "7"), ("4", "12"), ("20", "19"), ("2", "3")])
def test_roll_change_sends_at_most_a_quarter_frame(driver, ram_class, before, after):
    display, bus = open_oled(driver)
    ram = ram_class()
    display.show(roll_screen(before))
    ram.replay(bus.writes)
    bus.clear()
    display.show(roll_screen(after))
    assert 0 < bus.data_bytes() <= FULL_FRAME // 4
    ram.replay(bus.writes)
    assert ram.image().tobytes() == roll_screen(after).tobytes()


@pytest.mark.parametrize("driver, ram_class", CONTROLLERS)
def test_same_frame_again_sends_nothing(driver, ram_class):
    display, bus = open_oled(driver)
    display.show(roll_screen("5"))
    bus.clear()
    display.show(roll_screen("5"))
    assert bus.writes == []


@pytest.mark.parametrize("driver, ram_class", CONTROLLERS)
def test_one_pixel_sends_one_byte(driver, ram_class):
    display, bus = open_oled(driver)
    frame = Image.new("1", (128, 64))
    display.show(frame)
    frame.putpixel((77, 42), 1)
    bus.clear()
    display.show(frame)
    assert bus.data_bytes() == 1
    if driver == "ssd1306":   # page 5, column 77 = 0x4D
        assert bus.command_bytes() == [0xB5, 0x0D, 0x14]
    else:                     # page 5, column 77 + 2 = 0x4F
        assert bus.command_bytes() == [0xB5, 0x0F, 0x14]


@pytest.mark.parametrize("driver, ram_class", CONTROLLERS)
@pytest.mark.parametrize("rotate", [0, 2])
def test_random_frames_reconstruct_exactly(driver, ram_class, rotate):
    rng = random.Random(f"{driver}{rotate}")
    display, bus = open_oled(driver, rotate=rotate)
    ram = ram_class()
    for density in [0.5, 0.0, 0.02, 0.1, 1.0, 0.05, 0.3] * 3:
        frame = random_frame(rng, density)
        display.show(frame)
        ram.replay(bus.writes)
        bus.clear()
        expected = frame.rotate(180) if rotate == 2 else frame
        assert ram.image().tobytes() == expected.tobytes()


def test_contrast_from_the_pinout_is_sent():
    display, bus = open_oled("ssd1306", contrast=40)
    commands = bus.command_bytes()
    assert commands[-5:-3] == [0x81, 40] or (0x81, 40) in zip(commands, commands[1:])
    display.close()


def test_failed_write_makes_the_next_frame_whole():
    display, bus = open_oled("ssd1306")
    display.show(roll_screen("1"))
    bus.present = False
    with pytest.raises(DeviceError, match="no I2C device at 0x3C on bus 1"):
        display.show(roll_screen("2"))
    bus.present = True
    bus.clear()
    display.show(roll_screen("2"))
    assert bus.data_bytes() == FULL_FRAME


def test_missing_display_is_one_line_with_the_fix():
    with pytest.raises(DeviceError) as err:
        OledDisplay(DEFAULTS["display"], bus=FakeBus(present=False))
    message = str(err.value)
    assert "no I2C device at 0x3C on bus 1" in message
    assert "SDA=GPIO2 SCL=GPIO3" in message and "\n" not in message


def test_close_blanks_once_and_is_idempotent():
    display, bus = open_oled("ssd1306")
    display.show(roll_screen("9"))
    bus.clear()
    display.close()
    ram = Ssd1306Ram()
    ram.ram = [[0xFF] * 128 for _ in range(8)]
    ram.replay(bus.writes)
    assert 0xAE in bus.command_bytes()                    # display off
    writes = len(bus.writes)
    display.close()
    assert len(bus.writes) == writes


def test_frames_must_be_1_bit_128x64():
    display, _ = open_oled("ssd1306")
    with pytest.raises(ValueError, match="mode '1' 128x64"):
        display.show(Image.new("L", (128, 64)))


def test_page_bytes_layout():
    frame = Image.new("1", (128, 64))
    frame.putpixel((3, 0), 1)
    frame.putpixel((3, 7), 1)
    frame.putpixel((127, 63), 1)
    data = page_bytes(frame)
    assert len(data) == FULL_FRAME
    assert data[3] == 0x81
    assert data[7 * 128 + 127] == 0x80
    assert sum(1 for b in data if b) == 2


def test_changed_runs_stop_at_the_end_of_a_page():
    old = bytes(384)
    new = bytearray(old)
    for x in (10, 11, 15, 126, 127, 128, 256 + 40):
        new[x] = 1
    assert changed_runs(old, bytes(new), 128) == [(0, 10, 11), (0, 15, 15), (0, 126, 127), (1, 0, 0),
                                                  (2, 40, 40)]
    # joined across 3 unchanged bytes (12..14), not across 4, nor across a page's end
    assert changed_runs(old, bytes(new), 128, join=3) == [(0, 10, 15), (0, 126, 127), (1, 0, 0), (2, 40, 40)]
    assert changed_runs(old, bytes(new), 128, join=2)[:2] == [(0, 10, 11), (0, 15, 15)]


def test_changed_runs_see_any_changed_bit_and_pass_over_unchanged_pages():
    old = bytes(range(256)) * 2
    new = bytearray(old)
    new[5] ^= 0x80            # page 0: one bit of a byte that was 0x05
    new[300] ^= 0xFF          # page 2 (page 1 unchanged); 300 held 0x2C
    new[301] ^= 0x01
    assert changed_runs(old, bytes(new), 128, join=4) == [(0, 5, 5), (2, 44, 45)]
    assert changed_runs(old, old, 128, join=4) == []


def test_windows_join_runs_when_the_gap_costs_less_than_a_window():
    # the runs come with gaps of up to 4 joined (changed_runs(..., JOINED)); another
    # window costs its column commands (1: a control byte with Co=1 and the command; 2:
    # 4 bytes either way) and its data's control byte and address byte (1 for one byte)
    assert JOINED == 4
    assert plan_windows([(1, 1, 3), (1, 9, 11)]) == [(1, 1, 3), (1, 9, 11)]     # 5 between, low nibble: 2 + 2
    # from 14 (0x0E) to 20 (0x14) both nibbles change, and a byte before or after does not
    # help: 4 + 2 bytes, 6 between
    assert plan_windows([(1, 10, 13), (1, 20, 22)]) == [(1, 10, 22)]
    # a one-byte window's data byte goes with Co=1: 4 + 1
    assert plan_windows([(1, 10, 13), (1, 20, 20)]) == [(1, 10, 13), (1, 20, 20)]
    assert plan_windows([(1, 10, 12), (2, 13, 14)]) == [(1, 10, 12), (2, 13, 14)]   # never across pages
    # on an SH1106 the picture starts at RAM column 2: 14 + 2 and 21 + 2 share the high nibble
    assert plan_windows([(1, 14, 14), (1, 21, 21)], offset=2) == [(1, 14, 14), (1, 21, 21)]


def test_windows_reach_a_byte_or_two_past_their_changes_where_that_spares_commands():
    # from column 15 (0x0F) to 21 (0x15) both nibbles change (4 bytes); one more byte sent
    # puts the pointer at 16 (0x10): the low nibble alone (2 bytes)
    assert plan_windows([(1, 14, 14), (1, 21, 21)]) == [(1, 14, 15), (1, 21, 21)]
    # into another page the page command goes anyway: starting where the pointer is spares
    # both column commands (5 bytes down to 2, for 1 or 2 bytes more)
    assert plan_windows([(1, 10, 14), (2, 17, 18)]) == [(1, 10, 14), (2, 15, 18)]
    assert plan_windows([(1, 10, 12), (2, 14, 16)]) == [(1, 10, 12), (2, 13, 16)]
    assert plan_windows([(1, 10, 12), (2, 40, 41)]) == [(1, 10, 12), (2, 40, 41)]


@pytest.mark.parametrize("driver, ram_class", CONTROLLERS)
def test_the_planner_alone_brings_the_ram_from_frame_to_frame(driver, ram_class):
    """plan_writes() without luma or a bus: pictures in, writes out, and the controller
    model (from the datasheets) that replays them holds each picture; a frame like the one
    before needs no write and leaves the pointer where it was."""
    window = {"ssd1306": Ssd1306Window, "sh1106": Sh1106Window}[driver]
    offset = ram_class.offset
    ram, old, at = ram_class(), None, (None, None)
    rng = random.Random(7)
    for density in (0.5, 0.02, 0.2, 0.0):
        picture = random_frame(rng, density)
        frame = page_bytes(picture)
        writes, at = plan_writes(old, frame, 128, offset, at, window.RAM_COLUMNS, window.PAGE_ADDRESSING)
        bus = FakeBus()
        bus.write_messages(0x3C, writes)
        ram.replay(bus.writes)
        assert ram.image().tobytes() == picture.tobytes()
        old = frame
    assert plan_writes(old, old, 128, offset, at, window.RAM_COLUMNS) == ([], at)


def test_the_planner_and_the_frame_helpers_load_no_luma():
    probe = ("import sys; import companion.devices.oled_plan, companion.devices.emulated; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('luma', 'pygame', 'smbus2')))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_windows_start_on_the_page_the_pointer_is_on():
    runs = [(2, 5, 9), (3, 8, 9), (6, 40, 50)]
    assert plan_windows(runs, at=(3, 70)) == [(3, 8, 9), (6, 40, 50), (2, 5, 9)]
    assert plan_windows(runs, at=(None, None)) == runs


@pytest.mark.parametrize("driver, ram_class", CONTROLLERS)
def test_single_commands_and_data_bytes_are_chained_with_co_set(driver, ram_class):
    """A window that needs one command, and a one-byte window, go with control bytes
    whose Co bit is set (0x80 a command, 0xC0 a data byte) into the write of the next
    longer run: 12 bytes on the bus here, where a write of each run would take 14."""
    display, bus = open_oled(driver)
    ram = ram_class()
    frame = Image.new("1", (128, 64))
    display.show(frame)
    ram.replay(bus.writes)
    frame.putpixel((3, 0), 1)
    frame.putpixel((12, 0), 1)
    bus.clear()
    display.show(frame)
    offset = ram_class.offset
    assert [bytes((control, *rest)) for _, control, rest in bus.writes] == [
        bytes((0x00, 0xB0, (3 + offset) & 0x0F, 0x10)),
        bytes((0xC0, 0x01, 0x80, 12 + offset, 0x40, 0x01))]
    assert bus.bus_bytes() == 12 and bus.data_bytes() == 2
    ram.replay(bus.writes)
    assert ram.image().tobytes() == frame.tobytes()


def test_the_model_decodes_the_co_bit_as_the_datasheets_say():
    assert pieces(0x00, [0xB0, 0x02, 0x10]) == [(COMMAND, [0xB0, 0x02, 0x10])]
    assert pieces(0x80, [0xB0, 0xC0, 0x12, 0x80, 0x05, 0x40, 1, 2, 3]) == [
        (COMMAND, [0xB0]), (DATA, [0x12]), (COMMAND, [0x05]), (DATA, [1, 2, 3])]
    assert pieces(0x40, [0x80, 0xC0]) == [(DATA, [0x80, 0xC0])]   # Co=0: all data to the STOP
    for message in ([0x40, 1, 2], [0x00, 1, 2], [0x80, 0xB0, 0xC0, 0x12, 0xC0], [0xC0, 1, 0x80, 2, 0x40, 3, 4],
                    [0xC0, 1, 0x80, 2, 0x00, 3, 4], [0xC0]):
        assert data_count(message) == sum(len(b) for kind, b in pieces(message[0], message[1:]) if kind == DATA)
    bus = FakeBus()
    bus.write_messages(0x3C, [bytes((0x80, 0xB1, 0xC0, 0x0F, 0x00, 0x04, 0x10)), b"\x40\x01\x02"])
    assert bus.data_bytes() == 3 and bus.bus_bytes() == 12
    assert bus.command_bytes() == [0xB1, 0x04, 0x10]
    ram = Ssd1306Ram()
    ram.replay(bus.writes)
    assert ram.ram[1][:6] == [0x0F, 0, 0, 0, 0x01, 0x02]


@pytest.mark.parametrize("driver, ram_class", CONTROLLERS)
def test_on_a_plain_smbus_the_chained_writes_go_as_lumas_commands_and_data(driver, ram_class):
    """A bus with SMBus block writes alone (no I2C messages): each write is taken apart
    at its control bytes and sent with luma's command() and data()."""

    class SmbusOnly(FakeBus):
        write_messages = None

    bus = SmbusOnly()
    display = OledDisplay(dict(DEFAULTS["display"], driver=driver), bus=bus)
    ram = ram_class()
    rng = random.Random(driver)
    frame = Image.new("1", (128, 64))
    controls = set()
    for _ in range(6):
        for _ in range(12):
            frame.putpixel((rng.randrange(128), rng.randrange(64)), rng.randrange(2))
        display.show(frame)
        ram.replay(bus.writes)
        controls |= {control for _, control, _ in bus.writes}
        bus.clear()
        assert ram.image().tobytes() == frame.tobytes()
    assert controls == {COMMAND, DATA}


def test_on_the_device_bus_a_frame_is_one_i2c_rdwr_call_replayed_exactly():
    """On a Pi luma opens smbus2 itself: a frame's writes go as I2C messages in i2c_rdwr
    calls of at most 42 (Linux's limit), each message a control byte and what follows."""
    from smbus2 import i2c_msg

    from companion.devices.oled import i2c_link

    class Smbus2Like:
        def __init__(self):
            self.calls = []

        def i2c_rdwr(self, *messages):
            self.calls.append([(m.addr, bytes(m)) for m in messages])

    bus = Smbus2Like()
    link = i2c_link(FakeBus(), 1, 0x3C)
    link._bus, link._managed, link._i2c_msg_write = bus, True, i2c_msg.write   # as luma opens it
    writes = [b"\x00\xb0\x00\x10", b"\x40" + bytes(range(128))] * 30
    link.write_all(writes)
    assert [len(call) for call in bus.calls] == [42, 18]
    sent = [w for call in bus.calls for w in call]
    assert all(address == 0x3C for address, _ in sent)
    ram = Ssd1306Ram()
    ram.replay([(a, w[0], list(w[1:])) for a, w in sent])
    assert ram.ram[0] == list(range(128))


# -- headless -------------------------------------------------------------------------

def test_headless_writes_each_distinct_frame_as_128x64_png(tmp_path):
    display = HeadlessDisplay(tmp_path / "frames")
    for result in ["3", "3", "11", "11", "3"]:
        display.show(roll_screen(result))
    names = sorted(p.name for p in (tmp_path / "frames").iterdir())
    assert names == ["frame-00001.png", "frame-00002.png", "frame-00003.png"]
    with Image.open(tmp_path / "frames" / "frame-00002.png") as saved:
        assert saved.size == (128, 64)
        assert saved.convert("1").tobytes() == roll_screen("11").tobytes()
    assert display.last_image.tobytes() == roll_screen("3").tobytes()


def test_headless_numbering_continues_after_old_frames(tmp_path):
    HeadlessDisplay(tmp_path).show(roll_screen("1"))
    again = HeadlessDisplay(tmp_path)
    again.show(roll_screen("2"))
    assert [p.name for p in again.written] == ["frame-00002.png"]


def test_headless_without_a_folder_keeps_the_last_frame_only(tmp_path):
    display = HeadlessDisplay()
    display.show(roll_screen("6"))
    assert display.last_image.tobytes() == roll_screen("6").tobytes()
    assert list(display.written) == []


# -- terminal ---------------------------------------------------------------------------------

def test_half_blocks_are_exact():
    frame = Image.new("1", (128, 64))
    frame.putpixel((0, 0), 1)         # top only
    frame.putpixel((1, 1), 1)         # bottom only
    frame.putpixel((2, 0), 1)
    frame.putpixel((2, 1), 1)         # both
    lines = half_blocks(frame)
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert lines[0][:4] == "\u2580\u2584\u2588 "


def test_quadrant_blocks_decode_back_to_the_frame():
    frame = random_frame(random.Random(1), 0.5)
    lines = quadrant_blocks(frame)
    assert len(lines) == 32 and all(len(line) == 64 for line in lines)
    from companion.devices.emulated import _QUADRANT
    pixels = {char: bits for bits, char in _QUADRANT.items()}
    back = Image.new("1", (128, 64))
    for row, line in enumerate(lines):
        for col, char in enumerate(line):
            tl, tr, bl, br = pixels[char]
            for dx, dy, bit in ((0, 0, tl), (1, 0, tr), (0, 1, bl), (1, 1, br)):
                back.putpixel((2 * col + dx, 2 * row + dy), bit)
    assert back.tobytes() == frame.tobytes()


def test_terminal_display_draws_a_frame_and_restores_the_screen():
    out = io.StringIO()
    display = TerminalDisplay(stream=out, help_line="Enter OK")
    display.show(roll_screen("8"))
    text = out.getvalue()
    assert "\x1b[?1049h" in text and "Enter OK" in text
    assert "\u250c" + "\u2500" * 64 + "\u2510" in text or "\u250c" + "\u2500" * 128 + "\u2510" in text
    size = len(out.getvalue())
    display.show(roll_screen("8"))
    assert len(out.getvalue()) == size       # the same frame is not drawn again
    display.close()
    display.close()
    assert out.getvalue().endswith("\x1b[?25h\x1b[?1049l")


def test_terminal_render_picks_detail_by_width():
    display = TerminalDisplay(stream=io.StringIO())
    wide = display.render(roll_screen("8"), columns=200)
    narrow = display.render(roll_screen("8"), columns=80)
    assert "\u2500" * 128 in wide
    assert "\u2500" * 64 in narrow and "\u2500" * 65 not in narrow


# -- desktop window ---------------------------------------------------------------------------

def test_desktop_window_without_a_display_says_what_to_use(monkeypatch):
    from companion.devices.emulated import DesktopDisplay
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    with pytest.raises(DeviceError, match="--hardware terminal or --hardware headless"):
        DesktopDisplay()


def test_desktop_window_shows_frames(monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("DISPLAY", ":0")
    from companion.devices.emulated import DesktopDisplay
    display = DesktopDisplay()
    try:
        display.show(roll_screen("4"))
        surface = display.device._screen
        assert surface.get_size() == (512, 256)
        lit = sum(1 for x in range(0, 512, 4) for y in range(0, 256, 4) if surface.get_at((x, y))[0] > 0)
        assert lit == roll_screen("4").convert("L").histogram()[255]
    finally:
        display.close()
        display.close()


def test_headless_keeps_a_bounded_number_of_frames(tmp_path):
    """A long headless run keeps the newest frames only (it used to write every one)."""
    HeadlessDisplay(tmp_path, keep=10).show(roll_screen("0"))            # one from an earlier run
    display = HeadlessDisplay(tmp_path, keep=10)
    for n in range(1, 40):
        display.show(roll_screen(str(n)))
    names = sorted(p.name for p in tmp_path.glob("frame-*.png"))
    assert len(names) == 10 and names[-1] == "frame-00040.png" and names[0] == "frame-00031.png"
    assert len(display.written) == 10
    assert HeadlessDisplay.KEEP == 500
    HeadlessDisplay(tmp_path, keep=3)                                    # a smaller bound trims at start
    assert len(list(tmp_path.glob("frame-*.png"))) == 3


@pytest.mark.parametrize("size", [(128, 64), (128, 32), (64, 48)])
def test_the_ssd1306_init_is_lumas_command_for_command(size):
    """The partial-update driver's own init (luma's, less the tables only luma's
    display() uses) sends the controller exactly the commands luma's ssd1306 sends."""
    import luma.oled.device
    from luma.core.interface.serial import i2c

    from companion.devices.oled import i2c_link, oled_class

    def init_commands(make):
        bus = FakeBus()
        make(bus)
        commands = []
        for _, control, values in bus.writes:
            if control != 0x00:
                break          # the first data: the blank frame after the init
            commands += values
        return commands

    width, height = size
    lumas = init_commands(lambda bus: luma.oled.device.ssd1306(i2c(bus=bus, address=0x3C), width=width, height=height))
    lumas = lumas[:lumas.index(0x21)]   # luma's display() starts with COLUMNADDR: the init is before it
    ours = init_commands(lambda bus: oled_class("ssd1306")(i2c_link(bus, 1, 0x3C), width=width, height=height))
    assert ours[:len(lumas)] == lumas and len(lumas) == 24
    device = oled_class("ssd1306")(i2c_link(FakeBus(), 1, 0x3C), width=width, height=height)
    assert not hasattr(device, "_mask") and device.column_offset == (32 if width == 64 else 0)
