"""Cold start to the first frame, as ``companion run`` does it.

    .venv/bin/python bench/first_frame.py --hardware pi --state DIR
    .venv/bin/python bench/first_frame.py --hardware headless --state DIR --out DIR

Parses the command line with the companion's own parser (``build_parser("run")``, the
run command's alone, as ``companion run`` builds it), opens the runtime and runs the app,
exactly as ``companion run`` does, except that with ``--hardware pi`` the luma driver
writes to ``FakeBus`` and the buttons' pins are gpiozero's mock pins
(``GPIOZERO_PIN_FACTORY=mock``, set here). The app returns right after its first frame
(``COMPANION_EXIT_AFTER_FIRST_FRAME``, set here), and the moment the display has the
frame the script calls ``os.getppid()``: ``bench/run.py`` runs it under
``valgrind --tool=callgrind --dump-before=os_getppid``, so the first dump counts the
instructions from the process's start to the first frame, the last one the exit.
With ``--hardware pi`` the script then opens the buttons, as ``App.run`` does right
after the first frame, and calls ``os.getppid()`` again: the second dump is their
opening (gpiozero's import, the mock factory found through gpiozero's entry points,
five Buttons).
"""

from __future__ import annotations

import os
import sys

MARK = "os_getppid"  # the C function of os.getppid(), the callgrind marker


class MarkFirstFrame:
    """The display, with the marker called once it holds the first frame."""

    def __init__(self, inner):
        self.inner = inner
        self.marked = False

    def show(self, image) -> None:
        self.inner.show(image)
        if not self.marked:
            self.marked = True
            os.getppid()

    def __getattr__(self, name):
        return getattr(self.inner, name)


def main(argv: list[str]) -> int:
    from companion.cli import build_parser

    args = build_parser("run").parse_args(["run", *argv])
    devices = {}
    if args.hardware == "pi":
        from companion.devices.fake_i2c import FakeBus
        os.environ["GPIOZERO_PIN_FACTORY"] = "mock"  # the pins are opened after the first frame
        devices = {"i2c_bus": FakeBus()}

    from companion.runtime import Runtime

    os.environ["COMPANION_EXIT_AFTER_FIRST_FRAME"] = "1"
    with Runtime.open(hardware=args.hardware, state=args.state, pinout=args.pinout, keys=args.keys,
                      out=args.out, seed=args.seed, **devices) as runtime:
        display = runtime.app.display = MarkFirstFrame(runtime.app.display)
        runtime.app.run(runtime.board.buttons)
        if display.marked and hasattr(runtime.board.buttons, "open"):
            runtime.board.buttons.open()
            os.getppid()
    return 0 if display.marked else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
