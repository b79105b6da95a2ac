"""A race through the session runner and the SQLite journal: commit, undo, resume, results."""

import json
import random


from companion.games import data as game_data
from companion.core.journal import Journal
from companion.games.street_illegal import autoplay, rules
from companion.session import SessionRunner
from companion.ui.wizard import finish_options


def test_race_in_the_journal_resumes_and_reports(state_dir):
    options = finish_options(rules.OPTIONS, {"players": 2, "grid": "age", "nitrous": True})
    assert [p["name"] for p in options["players"]] == ["Red", "Blue"]
    rng = random.Random(21)
    with Journal(state_dir) as journal:
        runner = SessionRunner.start(journal, "street-illegal", options, game_data.load("street-illegal"))
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


def test_championship_in_the_journal_counts_the_old_pros_as_one_team(state_dir):
    """Two races with different fields through the journal, then the device's championship
    table (companion.league.seasons): one "Old Pros" row with the sum of the team's points."""
    from companion.league import seasons

    data = game_data.load("street-illegal")
    stored = []
    with Journal(state_dir) as journal:
        for seed, players in ((31, 2), (32, 3)):
            options = finish_options(rules.OPTIONS, {"players": players, "grid": "age"})
            runner = SessionRunner.start(journal, "street-illegal", options, data, championship="street-illegal")
            rng = random.Random(seed)
            while not runner.finished():
                runner.perform(autoplay.choose(runner.state, rng), rng)
            stored.append(runner.finish())
        key, table = seasons.shown_table(journal)

    assert key == "street-illegal"
    rows = {r["name"]: r for r in table}
    assert not any(name.startswith("Old Pro ") for name in rows)
    assert rows["Old Pros"]["points"] == sum(r["teams"][0]["points"] for r in stored)
    assert rows["Old Pros"]["results"] == tuple(r["teams"][0]["best_position"] for r in stored)
    for name in ("Red", "Blue"):
        assert rows[name]["points"] == sum(s["points"] for r in stored for s in r["standings"] if s["name"] == name)
    assert rows["Yellow"]["results"][0] is None and rows["Yellow"]["races"] == 1
    assert [r["name"] for r in table] == [r["name"] for r in rules.championship(stored)]
    for race in stored:     # each race's team points are its best Old Pro's points
        best = min(s["position"] for s in race["standings"] if s["old_pro"])
        assert race["teams"][0]["points"] == (15, 11, 8, 6, 4, 2, 1)[best - 1]
        assert race["teams"][0]["points"] == max(s["points"] for s in race["standings"] if s["old_pro"])
