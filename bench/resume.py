"""Journals of a race in progress, for measuring what resuming it costs on boot.

    .venv/bin/python bench/resume.py DIR --game formula-de [--events 5000]
    .venv/bin/python bench/first_frame.py --hardware headless --state DIR

The first command (it prints what it wrote as JSON) writes ``DIR/journal.sqlite3`` with one
open session holding the
first ``--events`` events of the longest race the game can produce (all of them by
default), through the session runner's ``record``, so each row is committed, and the
state snapshotted every few hundred events, as on a device. The second is the cold start
that resumes it; ``bench/run.py`` runs it under callgrind for every game and subtracts
the cold start with an empty journal.

The longest race: the most cars the game allows and its longest length (``LONGEST``;
where a choice's length is not known in advance, every choice is played and the longest
race kept), played to its end by the game's own demo players (``Activity.demo.script``)
through the pure rules, with a fixed seed. The lap counter's is bench/lap_counter_replay.py's
12 cars over 200 laps with lap times.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from functools import lru_cache
from pathlib import Path

from companion.core.journal import Journal
from companion.session import SessionRunner

MAX = "max"
LONGEST: dict[str, dict] = {
    # per option: a value, MAX (the option's highest number) or a tuple of values to try
    "street-illegal": {"players": MAX, "grid": "tactical", "better_old_pros": True, "nitrous": True},
    "3-wide": {"players": MAX, "length": "long",
               "race": ("classic-intermediate", "tri-superspeedway", "classic-short")},
    "formula-de": {"players": MAX, "laps": MAX, "race": "circuit", "grid": "stopwatch", "weather": "roll"},
    "lacorsa": {"players": MAX, "championship": True, "tie_crash": False},
    "top-speed": {"players": MAX, "race": "normal", "laps": MAX, "grid": "qualifying", "fastest_lap": True,
                  "kers": True},
}
GAMES = (*LONGEST, "laps")
SEED = 2024
LIMIT = 200_000


def _highest(option):
    if option.choices:
        numbers = [v for v, _ in option.choices if isinstance(v, int) and not isinstance(v, bool)]
        return max(numbers)
    return option.high


def _candidates(slug: str) -> list[dict]:
    """Every set of wizard answers ``LONGEST`` asks to try for ``slug``."""
    from companion.games.registry import activity

    act = activity(slug)
    by_key = {o.key: o for o in act.options}
    fixed, tries = {}, {}
    for key, value in LONGEST[slug].items():
        if value == MAX:
            fixed[key] = _highest(by_key[key])
        elif isinstance(value, tuple):
            tries[key] = value
        else:
            fixed[key] = value
    return [{**fixed, **dict(zip(tries, combo))} for combo in itertools.product(*tries.values())]


def _play(slug: str, answers: dict) -> tuple[dict, dict, list[dict]]:
    """(options, data, events) of the race ``answers`` set up, played to its end by the
    demo's players (per-car answers as the demo gives them, the defaults for more cars)."""
    from companion.core.rng import make_rng
    from companion.games import data as game_data
    from companion.games.registry import activity
    from companion.kit.turns import play_out
    from companion.ui.wizard import finish_options

    act = activity(slug)
    demo_cars = list(act.demo.options.get("cars", []))
    values = {**{k: v for k, v in act.demo.options.items() if k != "cars"}, **answers}
    options = finish_options(act.options, values, car_options=act.car_options,
                             cars=dict(enumerate(demo_cars)))
    data = game_data.load(slug)
    _, events = play_out(act.setup(options, data), make_rng(SEED), act.demo.script, act.resolve, act.apply,
                         LIMIT)
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


@lru_cache(maxsize=None)
def longest_race(slug: str) -> tuple[dict, dict, list[dict]]:
    """(options, data, events) of the longest race of ``slug`` (a game, or "laps")."""
    if slug == "laps":
        return lap_counter_race()
    races = [_play(slug, answers) for answers in _candidates(slug)]
    return max(races, key=lambda race: len(race[2]))


def described(slug: str) -> str:
    """The options of the longest race in a few words (for the bench's notes)."""
    options, _, events = longest_race(slug)
    shown = {k: v for k, v in options.items() if k in LONGEST.get(slug, {"length": 0})}
    if isinstance(options.get("players"), list):
        shown["players"] = len(options["players"])
    return ", ".join(f"{k}={v}" for k, v in shown.items()) + f": {len(events):,} events"


def available(game: str) -> int:
    """How many events the longest race of ``game`` has."""
    return len(longest_race(game)[2])


def write_journal(state_dir: str | Path, game: str, events: int | None = None) -> int:
    """A journal in ``state_dir`` with ``game``'s longest race open after ``events``
    events (all of them when None or more than it has); returns how many were written."""
    options, data, log = longest_race(game)
    log = log[:events] if events is not None else log
    with Journal(state_dir) as journal:
        runner = SessionRunner.start(journal, game, options, data)
        for event in log:
            runner.record(event, event["kind"])  # as on the device: snapshots included
    return len(log)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("state", help="state directory to write the journal in (it should be empty)")
    parser.add_argument("--game", choices=GAMES, default="top-speed")
    parser.add_argument("--events", type=int, help="only the first N events (default: the whole race)")
    args = parser.parse_args(argv)
    written = write_journal(args.state, args.game, args.events)
    print(json.dumps({"written": written, "events": available(args.game), "race": described(args.game)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
