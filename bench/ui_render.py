"""Cost of drawing OLED frames: run under callgrind and subtract a run with 0 frames.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/ui_render.py 0
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/ui_render.py 100

(instructions of the second run - the first) / 100 = instructions per frame. The frames
are those of a race in progress: a roll result that changes every frame, a dashboard,
and a menu whose selection moves, so the line cache sees what it sees on a device.
"""

from __future__ import annotations

import sys

from companion.ui.render import render
from companion.ui.view import Bar, Big, Menu, Row, View

FACES = ("5x", "5xs", "6xx", "6xx", "7xx", "8xxx")
GAMES = ("Street Illegal", "3-Wide", "Formula D\u00e9", "Lacorsa", "Top Speed", "Dice roller")


def frame(i: int) -> View:
    kind = i % 3
    if kind == 0:
        return View(title="3-Wide", status=f"L{i % 40}", body=(Big(FACES[i % 6], caption="black tire die"),),
                    footer="< Roll black >")
    if kind == 1:
        return View(title="Car 3 Yellow", status=f"L{i % 40}",
                    body=(Bar("Fuel", i % 9, 8), Bar("Tires", i % 7, 6), Row("Damage", str(i % 4))),
                    footer="< Pit stop >")
    return View(title="Race Companion", body=(Menu(GAMES, i % len(GAMES)),), footer="OK select")


def main(frames: int) -> None:
    for i in range(frames):
        render(frame(i))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
