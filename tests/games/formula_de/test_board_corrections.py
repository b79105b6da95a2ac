"""Corrections from the board after the roll: the move as the board counts it, a car
that ends in the corner the companion says it overshot, a car that stops in the corner
the companion says it fell short of. Each is a correction event; the roll stays."""

import pytest

from companion.games.formula_de import rules as R
from companion.kit.errors import RuleError

from .helpers import corner, data, done, gear, on_turn, put, started

ONE, TWO = corner(1), corner(2)


def rolled(dist, g, roll, **fields):
    state = put(started(2), 0, dist=dist, gear=g, **fields)
    return gear(on_turn(state, 0), 0, g, roll)


def corrections(state):
    return {m.label: m for m in R.moves(state) if m.kind == "correct"}


def correct(state, label):
    move = corrections(state)[label]
    event = R.resolve(state, move, rng=None)
    assert event["kind"] == "correct"
    return R.apply(state, event)


def caption(state):
    from companion.games.formula_de import screens
    return screens.outcome_caption(state, R.preview(state))


def test_an_overshoot_the_board_disagrees_with_ends_in_the_corner_with_the_roll_kept():
    start = ONE.at - 1
    state = rolled(start, 3, 5)                  # 5 from the space before C1 (3 long): 2 over
    assert caption(state) == "overshoots C1 by 2"
    state = correct(state, "Ends in C1")
    assert state.report.roll == 5 and state.report.gear == 3
    assert caption(state) == f"to sp {ONE.end}: C1 1/1"
    after = done(state)
    car = after.cars[0]
    assert (car.dist, car.corner, car.stops) == (ONE.end, 1, 1)
    assert car.wp == car.full and not after.last.overshoots


def test_a_move_short_of_a_corner_stops_in_it():
    state = rolled(ONE.at - 5, 2, 4)             # ends on the space before C1
    assert caption(state) == f"to sp {ONE.at - 1}"
    state = correct(state, "Stops in C1")
    car = done(state).cars[0]
    assert (car.dist, car.corner, car.stops) == (ONE.at, 1, 1)


def test_a_2_stop_corner_skipped_on_screen_is_a_stop_on_the_board():
    state = rolled(TWO.at - 1, 3, 8)             # straight through C2: eliminated on screen
    assert caption(state) == "OUT: skipped stops C2"
    assert "Ends in C2" in corrections(state)
    car = done(correct(state, "Ends in C2")).cars[0]
    assert not car.out and (car.corner, car.stops, car.dist) == (2, 1, TWO.end)


def test_board_spaces_one_at_a_time_both_ways_without_wear():
    state = rolled(40, 3, 4)                     # on the straight between C3 and C4
    assert {"Board: 3 sp", "Board: 5 sp"} <= set(corrections(state))
    state = correct(state, "Board: 5 sp")
    assert R.preview(state).moved == 5 and "Board: 6 sp" in corrections(state)
    state = correct(correct(state, "Board: 4 sp"), "Board: 3 sp")
    after = done(state)
    assert after.cars[0].dist == 43 and after.cars[0].wp == after.cars[0].full
    assert after.last.roll == 4


def test_a_correction_not_offered_is_refused_and_loses_nothing():
    state = rolled(40, 3, 4)
    with pytest.raises(RuleError):
        R.apply(state, {"kind": "correct", "car": 0, "what": "board", "value": 5})
    with pytest.raises(RuleError):
        R.apply(state, {"kind": "correct", "car": 0, "what": "ends", "value": -1})   # no corner passed
    assert R.preview(state).moved == 4


def test_corrections_are_bounded_and_never_offered_into_the_pit():
    state = rolled(40, 3, 4)
    for _ in range(6):
        state = correct(state, f"Board: {R.preview(state).moved + 1} sp")
    assert not any(m.arg("value") == 1 for m in corrections(state).values())
    pit = state.settings.circuit.pit
    state = rolled(pit - 3, 3, 6)
    state = R.apply(state, {"kind": "adjust", "car": 0, "what": "pit", "value": "hard"})
    assert R.preview(state).pit and not corrections(state)


def test_the_history_says_a_correction_and_a_replay_gives_the_same_race():
    state = rolled(ONE.at - 1, 3, 5)
    move = corrections(state)["Ends in C1"]
    event = R.resolve(state, move, rng=None)
    assert R.describe(event) == ""                   # the move says it: "Red: Board: ends in C1"
    assert move.history == "Board: ends in C1"
    assert R.apply(state, event) == R.apply(state, dict(event))


def test_in_qualifying_a_corrected_overshoot_costs_no_throws():
    state = R.setup({"players": 2, "grid": "stopwatch", "weather": "good"}, data())
    state = R.apply(state, {"kind": "start", "qualifying": True, "weather": 0})
    state = R.apply(state, {"kind": "ok"})                   # tires fitted, the weather known
    state = put(state, 0, dist=ONE.at - 1, gear=2)
    state = R.apply(state, {"kind": "gear", "car": 0, "gear": 3, "roll": 5, "clock": 1.0})
    assert caption(state) == "overshoots C1 by 2"
    state = correct(state, "Ends in C1")
    state = R.apply(state, {"kind": "done", "car": 0, "rolls": {}, "clock": 2.0})
    assert state.qthrows == 1 and (state.cars[0].dist, state.cars[0].stops) == (ONE.end, 1)
