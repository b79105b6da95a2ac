"""Every receipt of a session carries its date and its number in the championship."""

import random

from companion.league import ledger, paper, seasons
from companion.app import App
from companion.core.journal import Journal
from companion.devices.emulated import HeadlessDisplay
from tests.table import PaperTray


def race(app, game="formula-de"):
    players = [{"name": c, "colour": c} for c in ("Red", "Blue")]
    app.start_session("laps", {"game": game, "players": players, "length": 1, "count": "up", "timing": "off"})
    while not app.runner.finished():
        app.perform(app.moves()[0])


def test_program_and_results_are_dated_and_numbered(state_dir):
    tray = PaperTray()
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), printer=tray, rng=random.Random(1))
    race(app)
    race(app)
    sessions = app.journal.sessions()
    kinds = [r.kind for r in tray.receipts]
    assert kinds == ["program", "results", "program", "results"]
    for receipt, session in zip(tray.receipts, [sessions[0]] * 2 + [sessions[1]] * 2):
        lines = receipt.text_lines()
        assert lines[1] == ledger.when(session.started)
    assert not any("championship" in line for line in tray.receipts[1].text_lines())   # a one-off so far
    # the lap counter's own championship (with Formula Dé's points), numbered in its season;
    # its whole name is too long for the line, so the tool's name stands for it
    name = seasons.current(app.journal, ledger.key_of(sessions[1])).name
    assert tray.receipts[2].text_lines()[2] == f"Lap counter {name}, race 2"
    assert tray.receipts[3].text_lines()[2] == f"Lap counter {name}, race 2"


def test_the_championship_says_when_it_was_printed(state_dir):
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), printer=PaperTray(), rng=random.Random(1))
    race(app)
    receipt = paper.championship_receipt(app.journal, now=0.0)
    assert receipt.text_lines()[1] == f"Printed {ledger.when(0.0)}"
    assert receipt.text_lines()[2] == "After 1 race"
    assert receipt.text_lines()[3] == "Lap counter, Formula Dé points"     # the title, too long for its line
    assert receipt.text_lines()[4] == f"Season {seasons.current(app.journal, 'laps:formula-de').name}"


def test_the_championship_draws_the_points_after_each_race(state_dir):
    from companion.receipts.model import Picture

    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), printer=PaperTray(), rng=random.Random(1))
    race(app)
    assert not any(isinstance(i, Picture) for i in paper.championship_receipt(app.journal, now=0.0).items)
    race(app)
    race(app)
    receipt = paper.championship_receipt(app.journal, now=0.0)
    (chart,) = [i for i in receipt.items if isinstance(i, Picture)]
    spec = chart.chart()
    assert spec["chart"] == "championship" and [len(p) for p in spec["points"]] == [4, 4]
    rows = seasons.shown_table(app.journal)[1]
    assert [p[-1] for p in spec["points"]] == [r["points"] for r in rows]


def test_a_session_that_runs_its_own_championship_is_not_numbered_again(state_dir):
    """Lacorsa numbers the races of its championship itself ("Championship race 7 of 7"):
    the stamp adds no second number; a plain race gets one from its second race on."""
    standings = {"standings": [{"position": 1, "name": "Red", "points": 10}]}
    with Journal(state_dir) as journal:
        for options in ({"championship": True}, {"championship": True}, {"championship": False},
                        {"championship": False}):
            sid = journal.start_session("lacorsa", options, {}, championship="lacorsa")
            journal.finish_session(sid, standings)
        own, again, plain, second = journal.sessions()
        assert not any("race" in line for line in paper.stamp_lines(journal, again))
        assert not any("race" in line for line in paper.stamp_lines(journal, own))
        assert paper.stamp_lines(journal, second)[-1].endswith("race 4")
