"""Cost of rebuilding a long lap-counter race from its journal (what a boot does).

    .venv/bin/python bench/lap_counter_replay.py [laps]

A 12-car race of ``laps`` laps (default 200, the tool's maximum) with every crossing
timed: the events are made once, then replayed through ``rules.apply`` as on boot, and
the view and receipts of the finished race are built. Prints wall times; under
``valgrind --tool=callgrind`` compare runs with different ``laps`` for instructions.
"""

from __future__ import annotations

import sys
import time

from companion.core import race
from companion.kit.cars import COLOURS
from companion.tools.lap_counter import rules, screens


def events(laps: int) -> tuple[rules.LapCounter, list[dict]]:
    start = rules.setup({"players": [{"name": c, "colour": c} for c in COLOURS], "length": laps}, {})
    state = rules.apply(start, {"kind": "start", "at": 0.0})
    out = [{"kind": "start", "at": 0.0}]
    clock = 0.0
    while not race.is_over(state.race):
        car = race.next_to_cross(state.race)[0]
        clock += 5.0 + (len(out) * 7919 % 13)
        out.append({"kind": "cross", "car": car.name, "at": clock})
        state = rules.apply(state, out[-1])
    return start, [*out, {"kind": "finish"}]


def main(laps: int) -> None:
    start, log = events(laps)
    t0 = time.perf_counter()
    state = start
    for event in log:
        state = rules.apply(state, event)
    t1 = time.perf_counter()
    screens.view(state)
    t2 = time.perf_counter()
    printed = screens.receipts(state)
    t3 = time.perf_counter()
    print(f"{len(log)} events: replay {1000 * (t1 - t0):.0f} ms, view {1000 * (t2 - t1):.1f} ms, "
          f"receipts {1000 * (t3 - t2):.1f} ms ({len(printed['lap-chart'].items)} lap-chart items)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
