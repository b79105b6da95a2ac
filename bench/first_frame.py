"""Cold start to the first frame with the Pi backend, on mock pins and a fake I2C bus.

    COMPANION_EXIT_AFTER_FIRST_FRAME=1 .venv/bin/python bench/first_frame.py --state DIR

Does what ``companion run --hardware pi`` does (parse the command line, open the
runtime, run the app), except that the buttons are gpiozero ``Button`` objects on
``MockFactory`` pins and the luma driver writes to ``FakeBus``. With
``COMPANION_EXIT_AFTER_FIRST_FRAME=1`` the app returns right after handing its first
frame to the display. ``bench/run.py`` runs this under callgrind; the headless figure
is the real command, ``companion run --hardware headless``.
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    from companion.cli import build_parser

    args = build_parser().parse_args(["run", "--hardware", "pi", *argv])

    from gpiozero.pins.mock import MockFactory

    from companion.devices.fake_i2c import FakeBus
    from companion.runtime import Runtime

    with Runtime.open(hardware=args.hardware, state=args.state, pinout=args.pinout, keys=args.keys,
                      seed=args.seed, pin_factory=MockFactory(), i2c_bus=FakeBus()) as runtime:
        runtime.app.run(runtime.board.buttons)
        return 0 if runtime.app.frames else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
