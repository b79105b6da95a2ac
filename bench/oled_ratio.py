"""OLED traffic against its floor: bytes on the I2C bus / display RAM bytes that change.

    .venv/bin/python bench/oled_ratio.py [--driver ssd1306|sh1106] [slug ...]   # default: every demo

Plays each demo race (``companion.demo.run_demo``: the luma driver with partial updates
on the recording I2C bus) and, for every frame after the first, counts the bytes the bus
carries for it (the address byte and control byte of each write, commands, data) and the
bytes of the controller's RAM (128 columns x 8 pages) that differ from the frame before.
Each frame is also replayed on a model of the controller's RAM written from its
datasheet (devices/fake_i2c.py), which must show exactly the frame. The first frame is
sent whole (the RAM's content at power-on is unknown) and is left out of both counts.
Prints one line per demo; ``ratios()`` is what bench/run.py's ``oled`` part calls.

Beside it, the floor: the fewest bytes any way of addressing these controllers' RAM row
by row could carry for the same frames. Every changed byte is sent once; between two
changed bytes of a page, the unchanged ones are either sent or skipped, and skipping
needs a new I2C write (its address byte, a control byte, at least one column command,
a control byte before the data: 4 bytes), so a gap costs at least min(gap, 4); moving to
another page is counted free. Text drawn in 5-pixel glyphs a column apart leaves
one-byte gaps between most changed bytes: that, not the addressing, is what keeps the
ratio above 1.25 in most races.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

BUDGET = 1.25
FLOOR_MARGIN = 1.15
"""The budget a race is held to: 1.25 bus bytes per changed RAM byte, or, where the race's
own frames put the floor (below) so high that 1.25 cannot be reached, within 15 % of that
floor (every demo race is within 13 % of it today)."""
SKIP = 4   # the fewest bytes a skip inside a page costs (see above)
DEMOS = ("street-illegal", "3-wide", "formula-de", "lacorsa", "top-speed", "dice", "deck", "laps")


def measure(slug: str, out: str | Path, driver: str | None = None) -> dict:
    """Frames, changed RAM bytes, bus bytes and their ratio over ``slug``'s demo race."""
    from companion import demo
    from companion.devices import board, fake_i2c

    models = {"ssd1306": fake_i2c.Ssd1306Ram, "sh1106": fake_i2c.Sh1106Ram}
    counts = {"frames": 0, "changed": 0, "bus": 0, "floor": 0}
    buses: list[fake_i2c.FakeBus] = []

    class Bus(fake_i2c.FakeBus):
        def __init__(self, *args, **kw):
            super().__init__(*args, **{**kw, "keep_writes": True})
            buses.append(self)

    class Check(demo.FrameRecorder):
        """The frames handed to the OLED, counted and checked on the model; not saved."""

        def __init__(self, inner, out_dir, bus=None):
            self.inner, self.count, self.bus_bytes, self.changed_bytes = inner, 0, 0, 0
            self.model = models[inner.config["driver"]]()
            self.ram: list[bytes] | None = None

        def show(self, image) -> None:
            bus = buses[-1]
            bus.clear()
            self.inner.show(image)
            self.count += 1
            self.model.replay(bus.writes)
            if self.model.image().tobytes() != image.tobytes():
                raise AssertionError(f"{slug}: the controller's RAM does not show frame {self.count}")
            ram = [bytes(row[self.model.offset:self.model.offset + 128]) for row in self.model.ram]
            if self.ram is not None:
                counts["frames"] += 1
                counts["bus"] += bus.bus_bytes()
                for old, new in zip(self.ram, ram):
                    changed = [x for x, (a, b) in enumerate(zip(old, new)) if a != b]
                    counts["changed"] += len(changed)
                    counts["floor"] += len(changed) + sum(min(b - a - 1, SKIP) for a, b in zip(changed, changed[1:]))
            self.ram = ram
            self.bus_bytes, self.changed_bytes = counts["bus"], counts["changed"]

    saved = fake_i2c.FakeBus, demo.FrameRecorder, board.load_pinout
    fake_i2c.FakeBus, demo.FrameRecorder = Bus, Check
    if driver:
        def load_pinout(path, _load=saved[2]):
            pinout = _load(path)
            pinout["display"] = {**pinout["display"], "driver": driver}
            return pinout
        board.load_pinout = load_pinout
    try:
        demo.run_demo(slug, out)
    finally:
        fake_i2c.FakeBus, demo.FrameRecorder, board.load_pinout = saved
    changed = counts["changed"]
    return {**counts, "ratio": counts["bus"] / changed if changed else 0.0,
            "floor_ratio": counts["floor"] / changed if changed else 0.0}


def budget(m: dict) -> float:
    """The ratio race ``m`` (as measure() gives it) is held to."""
    return max(BUDGET, round(FLOOR_MARGIN * m["floor_ratio"], 2))


def ratios(slugs=DEMOS, driver: str | None = None) -> dict[str, dict]:
    with tempfile.TemporaryDirectory(prefix="companion-oled-") as tmp:
        return {slug: measure(slug, Path(tmp) / slug, driver) for slug in slugs}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", default=DEMOS)
    parser.add_argument("--driver", choices=("ssd1306", "sh1106"), help="the controller (default: the pinout's)")
    parser.add_argument("--json", action="store_true", help="print the counts of every race as JSON")
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps(ratios(args.slugs, args.driver)))
        return 0
    missed = 0
    for slug, m in ratios(args.slugs, args.driver).items():
        missed += m["ratio"] > budget(m)
        print(f"{slug}: {m['ratio']:.3f} bus bytes per changed RAM byte ({m['bus']:,} / {m['changed']:,}, "
              f"{m['frames']} frames after the first); floor {m['floor_ratio']:.3f}, budget {budget(m):.2f}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
