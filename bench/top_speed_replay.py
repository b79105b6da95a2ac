"""Cost of rebuilding a full Top Speed race from its journal (what a boot does).

    .venv/bin/python bench/top_speed_replay.py [players] [laps]

A race of ``laps`` laps (default 66, the Montmeló Grand Prix) with ``players`` scripted
drivers (default 8, the most) and every advanced rule on: the events are made once, then
replayed through ``rules.apply`` as on boot, and the view and receipts of the finished
race are built. Prints wall times per event; under ``valgrind --tool=callgrind`` compare
runs with different ``laps`` for instructions.
"""

from __future__ import annotations

import collections
import sys
import time


from companion.games import data as game_data
from companion.core.rng import make_rng
from companion.games.top_speed import autoplay, rules, screens


def main(players: int, laps: int) -> None:
    options = {"players": players, "race": "normal", "laps": laps, "grid": "qualifying",
               "fastest_lap": True, "kers": True}
    start = rules.setup(options, game_data.load("top-speed"))
    final, log = autoplay.play(start, make_rng(2024))
    per_kind: dict[str, float] = collections.defaultdict(float)
    count: collections.Counter = collections.Counter()
    state = start
    t0 = time.perf_counter()
    for event in log:
        state = rules.apply(state, event)
    t1 = time.perf_counter()
    assert state == final
    state = start
    for event in log:
        a = time.perf_counter()
        state = rules.apply(state, event)
        per_kind[event["kind"]] += time.perf_counter() - a
        count[event["kind"]] += 1
    t2 = time.perf_counter()
    screens.view(state)
    screens.receipts(state)
    t3 = time.perf_counter()
    print(f"{players} players, {laps} laps: {len(log)} events, {state.round} rounds")
    print(f"replay {1000 * (t1 - t0):.1f} ms, {1e6 * (t1 - t0) / len(log):.1f} us per event")
    for kind, n in count.most_common():
        print(f"  {kind:10} {n:6} events {1e6 * per_kind[kind] / n:8.1f} us each")
    print(f"view + receipts {1000 * (t3 - t2):.1f} ms")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(*(args + [8, 66][len(args):]))
