"""A season of 100 races, for measuring what its championship costs.

    .venv/bin/python bench/season.py write DIR [--races 100]
    .venv/bin/python bench/season.py measure DIR

``write`` plays ``--races`` lap-counter races (8 cars, 3 laps, Formula Dé's points)
through the app into ``DIR/journal.sqlite3``, all in one open-ended season that drops each
driver's two worst results (a season of a set number of races would be over after its last,
and the next one, empty, the current one), the drivers' places shuffled with a fixed seed.
``measure`` opens that journal as the box does and, inside ``sys.call_tracing`` (which
``bench/run.py`` has callgrind count alone), builds what the box shows on its
championship screen: the lines of the current season (``onscreen.championship_lines``,
made again for every frame of that screen). With ``--what receipt`` the championship
receipt instead, with ``--what table`` the table screen's championship block, with
``--what record`` every driver's record. The first time after the journal changed (the
code loaded, the journal's races not read yet), or with ``--again`` the next time (the
next frame of the screen: the finished races are read once per change of the journal).

    .venv/bin/python bench/season.py presses DIR --out names.json

presses the buttons through the championship and the club's screens (a new season's
rules, a season's table, a driver's record, the merge lists) on that journal, each press
measured on its own like bench/press_to_frame.py's.

    .venv/bin/python bench/season.py fill DIR [--races 200 --cars 40]
    .venv/bin/python bench/season.py presses DIR --out names.json --keys page
    .venv/bin/python bench/season.py measure DIR --what answer

``fill`` makes the largest season the box accepts (``seasons.MAX_RACES`` races of
``exchange.MAX_CARS`` cars, every driver's name ``exchange.MAX_NAME`` characters long), as
an import of the largest accepted files puts it in the journal (``Journal.add_finished_sessions``:
playing 8,000 cars through the lap counter would take an hour). ``--keys page`` presses
from the home menu to that season's page (Results, the club, Seasons, the season) and down
it; ``--what answer`` is the table screen's answer after a race: its page made again
(``Follower`` publishing, the journal's races read and counted).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

NAMES = ("Anne", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
COLOURS = ("Red", "Blue", "Green", "Black", "White", "Yellow", "Orange", "Purple")


def write(state: Path, races: int) -> None:
    from companion.league import seasons
    from companion.app import App
    from companion.core.journal import Journal
    from companion.devices.emulated import HeadlessDisplay

    rng = random.Random(2024)
    with Journal(state) as journal:
        app = App(journal=journal, display=HeadlessDisplay(), rng=random.Random(1), printer_factory=lambda: None)
        seasons.start(journal, "formula-de", "Long", drop=2)   # open: a set number would end it
        for _ in range(races):
            order = list(NAMES)
            rng.shuffle(order)
            players = [{"name": n, "colour": c} for n, c in zip(order, COLOURS)]
            app.start_session("laps", {"game": "formula-de", "players": players, "length": 3, "count": "up",
                                       "timing": "off"})
            app.perform(app.moves()[0])
            while not app.runner.finished():
                app.perform(app.moves()[0])


def fill(state: Path, races: int, cars: int) -> None:
    """The largest season the box accepts, as imports put it in the journal."""
    from companion.core.journal import Journal, Session
    from companion.league import exchange, seasons

    rng = random.Random(2024)
    names = [f"Driver {n:02d} ".ljust(exchange.MAX_NAME, "x") for n in range(cars)]
    with Journal(state) as journal:
        seasons.start(journal, "formula-de", "Largest")
        made = []
        for k in range(races):
            order = list(names)
            rng.shuffle(order)
            standings = [{"name": n, "position": p, "points": max(0, 26 - 2 * p)} for p, n in enumerate(order, 1)]
            made.append((Session(0, "formula-de", {}, {}, "formula-de", 1_795_000_000.0 + 7200 * k,
                                 1_795_003_600.0 + 7200 * k, {"standings": standings}), f"bench-{k}", "Largest"))
        journal.add_finished_sessions(made)


def measure(state: Path, what: str, again: bool) -> None:
    from companion.league import onscreen, paper, record, seasons
    from companion.core.journal import Journal

    if what == "answer":
        from companion.table.source import Follower
        follower = Follower(state)           # the code loaded, the page made once, as when the box started

        def answer():
            follower.journal._cache.clear()  # a race has just finished: the page made again
            follower._publish()
            return follower.text
        if not sys.call_tracing(answer, ()):
            raise SystemExit("answer: nothing made")
        return
    journal = Journal(state)
    work = {"lines": lambda: onscreen.championship_lines(journal),
            "receipt": lambda: paper.championship_receipt(journal),
            "table": lambda: seasons.shown_table(journal),
            "record": lambda: record.records(journal)}[what]
    work()                      # the code loaded, as on the box
    if not again:
        journal._cache.clear()  # the journal's races not read yet (a race has just finished)
    done = sys.call_tracing(work, ())
    if not done:
        raise SystemExit(f"{what}: nothing made")


CLUB_KEYS = ("UP UP OK "                         # the home menu's Results: the championship
             "DOWN UP OK OK DOWN OK DOWN OK BACK "  # the club menu; a new season's rules, not started
             "DOWN OK OK DOWN UP BACK BACK "        # Seasons: the season's table
             "DOWN OK OK DOWN BACK BACK "           # Drivers: a record
             "DOWN OK OK BACK BACK BACK")           # Merge names: whom, into whom; then the championship
PAGE_KEYS = ("UP UP OK "                         # the home menu's Results: the championship (the races read)
             "OK DOWN OK OK "                    # the club menu, Seasons, the season's page
             "DOWN DOWN DOWN DOWN DOWN DOWN")    # down its table
KEYS = {"club": CLUB_KEYS, "page": PAGE_KEYS}


def presses(state: Path, out: Path, keys: str = CLUB_KEYS) -> None:
    """Each press of ``CLUB_KEYS`` on the box (the headless display: the frame drawn, not
    sent over I2C), inside ``sys.call_tracing`` and ended by ``os.getppid()`` (bench/run.py
    has callgrind dump there); ``out`` gets what each press was, in order."""
    import json
    import os

    from companion.app import App
    from companion.core.journal import Journal
    from companion.devices.buttons import parse_keys
    from companion.devices.emulated import HeadlessDisplay

    app = App(journal=Journal(state), display=HeadlessDisplay(), rng=random.Random(1), printer_factory=lambda: None)
    app.refresh()
    named = []

    def step(gesture) -> None:
        app.step(gesture)
        os.getppid()

    for gesture in parse_keys(keys):
        named.append(f"{gesture.button} on {type(app.screen).__name__}")
        sys.call_tracing(step, (gesture,))
    out.write_text(json.dumps(named))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("write", "fill", "measure", "presses"))
    parser.add_argument("state", type=Path)
    parser.add_argument("--races", type=int, default=100)
    parser.add_argument("--cars", type=int, default=40, help="fill: cars in each race")
    parser.add_argument("--what", choices=("lines", "receipt", "table", "record", "answer"), default="lines")
    parser.add_argument("--keys", choices=tuple(KEYS), default="club", help="presses: which screens")
    parser.add_argument("--again", action="store_true", help="measure it made a second time (the next frame)")
    parser.add_argument("--out", type=Path, help="presses: the file naming each press")
    args = parser.parse_args(argv)
    if args.action == "write":
        args.state.mkdir(parents=True, exist_ok=True)
        write(args.state, args.races)
    elif args.action == "fill":
        args.state.mkdir(parents=True, exist_ok=True)
        fill(args.state, args.races, args.cars)
    elif args.action == "presses":
        presses(args.state, args.out, KEYS[args.keys])
    else:
        measure(args.state, args.what, args.again)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
