"""Cost of sending frames to the OLED: partial updates against luma's full-frame driver.

    .venv/bin/python bench/oled_update.py partial 200     # bytes on the bus per frame
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/oled_update.py partial 0
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/oled_update.py partial 200

(instructions of the second run - the first) / 200 = instructions per frame; the same
with ``full`` for luma's own ssd1306 driver. The frames are pre-rendered (a roll result
that changes every frame, as in a race; the same number in every run), so the
difference is the sending alone. The bus
counts bytes the way the I2C bus carries them (address, control byte, payload).
"""

from __future__ import annotations

import sys

from companion.devices.board import DEFAULTS
from companion.ui.render import render
from companion.ui.view import Big, View


FRAMES = 40  # rendered in every run, sent or not


class CountingBus:
    def __init__(self):
        self.bytes = 0
        self.transactions = 0

    def write_i2c_block_data(self, address, register, values):
        self.bytes += 2 + len(values)
        self.transactions += 1

    def write_messages(self, address, messages):   # I2C writes of any length, as on the device
        for values in messages:
            self.bytes += 1 + len(values)
            self.transactions += 1


def main(mode: str, frames: int) -> None:
    from luma.core.interface.serial import i2c
    images = [render(View(title="Formula De", status="RED", body=(Big(str(2 + i % 19), caption="gear 5"),),
                          footer="ROLL")) for i in range(FRAMES)]
    bus = CountingBus()
    if mode == "partial":
        from companion.devices.oled import OledDisplay
        device = OledDisplay(DEFAULTS["display"], bus=bus).device
    else:
        from luma.oled.device import ssd1306
        device = ssd1306(i2c(bus=bus))
    bus.bytes = bus.transactions = 0
    for i in range(frames):
        device.display(images[i % FRAMES])
    if frames:
        print(f"{mode}: {bus.bytes / frames:.0f} bytes, {bus.transactions / frames:.1f} I2C writes per frame")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "partial", int(sys.argv[2]) if len(sys.argv) > 2 else 200)
