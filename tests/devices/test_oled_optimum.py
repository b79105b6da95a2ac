"""The OLED's partial updates against the exact optimum of bench/oled_ratio.py: the fewest
bus bytes any planner could send for a frame under page addressing and the I2C control
bytes of the SSD1306 and SH1106 datasheets, and a lower bound under it."""

import sys
from pathlib import Path

import pytest
from PIL import Image

from companion.devices.board import DEFAULTS
from companion.devices.oled import OledDisplay
from companion.devices.fake_i2c import FakeBus, Sh1106Ram, Ssd1306Ram
from companion.ui.render import render
from companion.ui.view import Big, View

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from oled_ratio import bound, optimum, runs_of  # noqa: E402


def test_the_optimum_counts_every_byte_of_the_protocol():
    # the page command and both column commands (a write: 1 + 1 + 3), the data (1 + 1 + 3)
    assert optimum({3: [(10, 12)]}, 0, 127, None) == (10, (3, 13))
    # runs 10-12 and 14 one window (the gap sent); then one byte more (15, 0x0F -> 16, 0x10)
    # leaves the low nibble alone to change for 30: 1 + 2 (Co=1) and the data's 2 + 2
    assert optimum({3: [(10, 12), (14, 14), (30, 31)]}, 0, 127, None) == (19, (3, 32))


def test_the_optimum_searches_the_order_of_the_pages():
    # from page 5, column 20: page 1 first needs the page command alone (2 bytes with Co=1),
    # then page 5 the page and the low nibble (4); the other way round 2 + 5
    assert optimum({1: [(20, 21)], 5: [(30, 31)]}, 0, 127, None, (5, 20)) == (14, (5, 32))
    assert bound({1: [(20, 21)], 5: [(30, 31)]}, 5) == 4 + 3 + 3 - 2


def roll_screen(result: str, caption: str) -> Image.Image:
    return render(View(title="Formula De", status="RED", body=(Big(result, caption=caption),), footer="ROLL"))


@pytest.mark.parametrize("driver, ram_class", [("ssd1306", Ssd1306Ram), ("sh1106", Sh1106Ram)])
def test_the_planner_stays_within_a_percent_of_the_optimum(driver, ram_class):
    bus = FakeBus()
    display = OledDisplay(dict(DEFAULTS["display"], driver=driver), bus=bus)
    ram = ram_class()
    offset = ram.offset
    past_end = offset + 128 if offset + 128 < ram.columns else None
    sent = best = 0
    frames = [roll_screen(str(n), caption) for n in (3, 17, 8, 11, 20, 4, 9)
              for caption in ("gear 4", "gear 5 (20 faces)")]
    for n, frame in enumerate(frames):
        bus.clear()
        at = ram.page, ram.col or None
        before = [bytes(row[offset:offset + 128]) for row in ram.ram]
        display.show(frame)
        ram.replay(bus.writes)
        assert ram.image().tobytes() == frame.tobytes()
        if n:
            pages = {page: runs for page, row in enumerate(ram.ram)
                     if (runs := runs_of(before[page], bytes(row[offset:offset + 128]), offset))}
            frame_best, _ = optimum(pages, offset, offset + 127, past_end, at)
            assert bound(pages, at[0]) <= frame_best <= bus.bus_bytes()
            sent, best = sent + bus.bus_bytes(), best + frame_best
    assert best <= sent <= 1.01 * best, (sent, best)
