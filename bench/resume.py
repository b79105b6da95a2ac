"""Journals of a race in progress, for measuring what resuming it costs on boot.

    .venv/bin/python bench/resume.py DIR --game top-speed --events 5000
    .venv/bin/python bench/first_frame.py --hardware headless --state DIR

The first command writes ``DIR/journal.sqlite3`` with one open session holding the
first ``--events`` events of a scripted race (all of them if the race has fewer),
through the session runner's ``record``, so each row is committed, and the state
snapshotted every few hundred events, as on a device. The
second is the cold start that resumes it; ``bench/run.py`` runs it under callgrind and
subtracts the cold start with an empty journal.

* ``top-speed``: the longest Top Speed race, 8 players over 99 laps with every advanced
  rule on, played by the demo's scripted drivers (4,891 events with today's rules).
* ``laps``: the lap counter's longest race, 12 cars over 200 laps with lap times
  (2,401 events before the finish), from bench/lap_counter_replay.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.core.journal import Journal
from companion.session import SessionRunner

GAMES = ("top-speed", "laps")


def top_speed_race() -> tuple[dict, dict, list[dict]]:
    """(options, data, events) of the longest Top Speed race."""
    from companion.games import data as game_data
    from companion.core.rng import make_rng
    from companion.games.top_speed import autoplay, rules
    from companion.ui.wizard import finish_options

    options = finish_options(rules.OPTIONS, {"players": 8, "race": "normal", "laps": 99, "grid": "qualifying",
                                             "fastest_lap": True, "kers": True})
    data = game_data.load("top-speed")
    _, events = autoplay.play(rules.setup(options, data), make_rng(2024))
    return options, data, events


def lap_counter_race() -> tuple[dict, dict, list[dict]]:
    """(options, data, events) of the longest lap-counter race."""
    from lap_counter_replay import events

    from companion.kit.cars import COLOURS
    from companion.tools.lap_counter import rules

    options = {"players": [{"name": c, "colour": c} for c in COLOURS], "length": 200}
    start, log = events(200)
    assert rules.setup(options, {}) == start, "the options do not match bench/lap_counter_replay.py"
    return options, {}, log[:-1]  # the race in progress: without its closing "finish"


RACES = {"top-speed": top_speed_race, "laps": lap_counter_race}


def available(game: str) -> int:
    """How many events the race of ``game`` has."""
    return len(RACES[game]()[2])


def write_journal(state_dir: str | Path, game: str, events: int) -> int:
    """A journal in ``state_dir`` with ``game``'s race open after ``events`` events
    (all of them if the race has fewer); returns how many were written."""
    options, data, log = RACES[game]()
    log = log[:events]
    with Journal(state_dir) as journal:
        runner = SessionRunner.start(journal, game, options, data)
        for event in log:
            runner.record(event, event["kind"])  # as on the device: snapshots included
    return len(log)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("state", help="state directory to write the journal in (it should be empty)")
    parser.add_argument("--game", choices=GAMES, default="top-speed")
    parser.add_argument("--events", type=int, default=5000)
    args = parser.parse_args(argv)
    written = write_journal(args.state, args.game, args.events)
    print(f"{args.state}: {args.game} race open after {written} events")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
