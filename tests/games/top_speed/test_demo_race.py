"""Whole races with the scripted players, through setup/moves/resolve/apply."""

import json

import pytest

from companion.core.rng import make_rng
from companion.games.api import Move
from companion.games.top_speed import autoplay as A
from companion.games.top_speed import rules as R
from tests.games.top_speed.helpers import data


def demo_race(seed=A.DEMO_SEED, **options):
    return A.play(R.setup({**A.DEMO_OPTIONS, **options}, data()), make_rng(seed))


def test_demo_race_has_a_safety_car_period_and_a_pit_stop_and_sane_standings():
    final, events = demo_race()
    assert R.finished(final)
    assert final.sc_periods >= 1
    assert any(c.pits for c in final.cars)
    assert any(e["kind"] == "pit" for e in events)
    rows = R.standings(final)
    assert [r["position"] for r in rows] == list(range(1, 7))
    assert sorted(r["name"] for r in rows) == sorted(c.name for c in final.cars)
    assert [r["points"] for r in rows] == [25, 18, 15, 12, 10, 8]
    assert sum(r["laps_led"] for r in rows) == A.DEMO_OPTIONS["laps"]
    distances = {c.name: c.distance for c in final.cars}
    assert [distances[r["name"]] for r in rows] == sorted(distances.values(), reverse=True)
    summary = R.summary(final)
    assert summary["safety_car_periods"] == final.sc_periods
    json.dumps({"game": "top-speed", "standings": rows, **summary})      # results.json material


def test_every_scripted_move_is_one_the_rules_offer():
    state = R.setup(A.DEMO_OPTIONS, data())
    rng = make_rng(3)
    for _ in range(400):
        move = A.demo_script(state)
        if move is None:
            break
        offered = R.moves(state)
        assert move in offered
        assert all(len(m.label) <= 14 for m in offered)
        state = R.apply(state, R.resolve(state, move, rng))


@pytest.mark.parametrize("seed", range(8))
def test_demo_races_show_a_pit_stop_whatever_the_seed(seed):
    final, _ = demo_race(seed)
    assert any(c.pits for c in final.cars)
    assert R.finished(final)


def test_demo_seed_finds_a_showcase_race():
    seed = A.demo_seed(data(), start=0)
    final, _ = demo_race(seed)
    assert A.showcase(final)


def test_temperaments_differ():
    assert [A.temperament(i) for i in range(4)] == ["cautious", "greedy", "calculating", "cautious"]


def test_replaying_the_journal_rebuilds_the_same_race():
    options = {"players": 5, "race": "normal", "laps": 20, "grid": "qualifying", "fastest_lap": True,
               "kers": True}
    start = R.setup({**A.DEMO_OPTIONS, **options}, data())
    final, events = A.play(start, make_rng(11))
    state = start
    for event in events:
        state = R.apply(state, json.loads(json.dumps(event)))      # as stored in the journal
    assert state == final
    assert R.finished(state)
    assert any(e["kind"] == "qualify" for e in events)


def test_undo_is_a_replay_without_the_last_event():
    start = R.setup(A.DEMO_OPTIONS, data())
    final, events = A.play(start, make_rng(5))
    state = start
    for event in events[:-1]:
        state = R.apply(state, event)
    again = R.apply(state, events[-1])
    assert again == final and state != final


def test_a_full_length_race_with_eight_players_finishes():
    final, events = demo_race(2, players=8, laps=66, race="normal")
    assert R.finished(final)
    assert final.round <= 65
    rows = R.standings(final)
    assert len(rows) == 8 and rows[0]["points"] == 25 and rows[-1]["points"] == 4
    assert sum(r["laps_led"] for r in rows) == 66
    assert isinstance(A.demo_script(final), (Move, type(None)))
