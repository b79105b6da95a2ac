"""A race through the session runner and the SQLite journal: commit, undo, resume, results."""

import json
import random

from companion.core import gamedata
from companion.core.journal import Journal
from companion.games.street_illegal import autoplay, rules
from companion.session import SessionRunner
from companion.ui.flow import finish_options


def test_race_in_the_journal_resumes_and_reports(state_dir):
    options = finish_options(rules.OPTIONS, {"players": 2, "grid": "age", "nitrous": True})
    assert [p["name"] for p in options["players"]] == ["Red", "Blue"]
    rng = random.Random(21)
    with Journal(state_dir) as journal:
        runner = SessionRunner.start(journal, "street-illegal", options, gamedata.load("street-illegal"))
        undone = False
        while not runner.finished():
            move = autoplay.demo_script(runner.state)
            runner.perform(move, rng)
            if move.kind == "old_pro" and not undone:       # long BACK: the cards are drawn again
                left = runner.state.pile.left
                runner.undo()
                assert runner.state.stage == "attack" and runner.state.duel.op_cards == ()
                assert runner.state.pile.left == left + 2              # the two cards are back
                runner.perform(move, rng)
                undone = True
        results = runner.finish()
        final = runner.state

    with Journal(state_dir) as journal:                       # after a restart
        session = journal.sessions(finished=True)[0]
        again = SessionRunner.resume(journal, session)
        assert again.problems == [] and again.state == final
        stored = session.results

    assert undone
    assert json.loads(json.dumps(results)) == stored
    assert stored["game"] == "street-illegal"
    rows = stored["standings"]
    assert [r["position"] for r in rows] == list(range(1, 8))
    assert {r["name"] for r in rows if not r["old_pro"]} == {"Red", "Blue"}
    assert sum(r["old_pro"] for r in rows) == 5
    best = min(r["position"] for r in rows if r["old_pro"])
    assert stored["teams"][0]["points"] == (15, 11, 8, 6, 4, 2, 1)[best - 1]
    assert sum(r["duels_won"] for r in rows) == sum(r["duels_lost"] for r in rows) > 0
