"""Cost of each button press, from the pin's edge to the new frame handed to the OLED.

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=sys_call_tracing \\
        --zero-before=sys_call_tracing --dump-after=os_getppid --dump-line=no \\
        --callgrind-out-file=DIR/cg.out .venv/bin/python bench/press_to_frame.py DIR [--game top-speed]

Plays the demo's scripted race (``companion.demo.run_demo``: gpiozero buttons on mock
pins, the luma driver on the fake I2C bus, the printer simulator on a pseudo-terminal)
with one change to its driver: every 10 ms tick of the script runs inside
``sys.call_tracing``, the edge a press or release makes on the pin included in the
tick that follows it. Under the options above callgrind counts only what the tick
runs on the loop's thread (the printer's worker and gpiozero's threads are left out),
zeroes its counters when a tick starts, and dumps them when ``os.getppid()`` is called:
which happens the moment the OLED driver has a frame. So each dump ``cg.out.N`` holds the
instructions from a button's edge (or the tick that found a long press) to its frame:
decoding the gesture, the screen's handling of it (resolve, journal commit, apply for
a move), drawing the frame and sending it over I2C. The demo saving each frame as a
PNG comes after the dump. ``DIR/gestures.json`` names each dump: the gesture, the screen
that handled it and the frame the player saw when pressing (its title and footer), so the
slowest presses can be found and explained.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from companion import demo
from companion.ui.render import render as _render


class MarkFrames:
    """The OLED driver, with the callgrind marker called once it has a frame the
    script's driver is measuring."""

    def __init__(self, inner, driver: "MeasuredDriver"):
        self.inner = inner
        self.driver = driver

    def show(self, image) -> None:
        self.inner.show(image)
        if self.driver.measuring:
            os.getppid()
            self.driver.frames.append(self.driver.described())  # after the dump: not counted

    def __getattr__(self, name):
        return getattr(self.inner, name)


class MeasuredDriver(demo.Driver):
    """The demo's driver with each tick (and the edge before it) measured."""

    def __init__(self, app, buttons, clock):
        super().__init__(app, buttons, clock)
        app.display.inner = MarkFrames(app.display.inner, self)  # inside the demo's frame recorder
        self.frames: list[dict] = []   # what each frame answered, in the order of the dumps
        self.measuring = False
        self.gesture = ""
        self.screen = ""
        self._edge = None
        self._seen = None    # the view of the frame on the display (what the player sees)
        self._shown = None   # ... and of the one before it
        render = app._render

        def keep(view):  # the app's renderer, remembering the views it draws
            self._shown, self._seen = self._seen, view
            return (render or _render)(view)
        app._render = keep

    def described(self) -> dict:
        """The gesture just measured, the screen that handled it and the frame the player
        was looking at when pressing."""
        before = self._shown
        return {"gesture": self.gesture, "screen": self.screen,
                "title": getattr(before, "title", ""), "footer": getattr(before, "footer", "")}

    def press(self, name: str, hold_ms: int = demo.PRESS_MS) -> None:
        pin = self.buttons.buttons[name].pin
        self._edge = pin.drive_low
        self._settle(hold_ms)
        self._edge = pin.drive_high
        self._settle(demo.GAP_MS)

    def _settle(self, ms: int) -> None:
        for _ in range(max(1, ms // 10)):
            sys.call_tracing(self._tick, ())

    def _tick(self) -> None:
        edge, self._edge = self._edge, None
        if edge is not None:
            edge()
        self.clock.advance(10)
        for gesture in self.buttons.pump(0):
            self.gestures += 1
            self.gesture = f"{gesture.button} {gesture.kind}"
            self.screen = type(self.app.screen).__name__
            self.measuring = True
            try:
                self.app.step(gesture)
            finally:
                self.measuring = False


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="folder for the demo's output and gestures.json")
    parser.add_argument("--game", default="top-speed")
    parser.add_argument("--seed", type=int)
    args = parser.parse_args(argv)
    drivers: list[MeasuredDriver] = []

    def make_driver(*a):
        drivers.append(MeasuredDriver(*a))
        return drivers[-1]

    demo.Driver = make_driver  # run_demo builds its driver by this name
    summary = demo.run_demo(args.game, args.out, args.seed)
    frames = drivers[0].frames
    Path(args.out, "gestures.json").write_text(json.dumps(frames))
    print(f"{args.game}: {summary['moves']} moves, {len(frames)} frames measured after a gesture")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
