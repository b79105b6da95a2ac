"""Stopwatch qualifying with the companion as referee: throws counted, +1 a full minute
and a space overshot, no stop in a 2- or 3-stop corner to the back, ties by time."""

from companion.games.formula_de import qualifying as Q
from companion.games.formula_de import rules as R
from companion.games.formula_de import screens as S

from .helpers import corner, data


def qualifying(players=2, weather="good"):
    state = R.setup({"players": players, "grid": "stopwatch", "weather": weather}, data())
    (move,) = R.moves(state)
    assert move.label == "Qualify"
    state = R.apply(state, {"kind": "start", "qualifying": True, "weather": 0})
    assert state.phase == R.GRID and state.car_on == -1      # the weather known: tires first
    return R.apply(state, {"kind": "ok"})


def throw(state, g, roll, clock, **report):
    c = state.car_on
    state = R.apply(state, {"kind": "gear", "car": c, "gear": g, "roll": roll, "clock": clock})
    for what, n in report.items():
        for _ in range(n):
            state = R.apply(state, {"kind": "adjust", "car": c, "what": what})
    return R.apply(state, {"kind": "done", "car": c, "rolls": {}, "clock": clock})


def drive_lap(state, clock_end, overshoot_first=False):
    """A lap through every corner with a stop each time it owes one (1st/2nd gear in
    the corners, the fastest gear allowed between them); returns the state after it."""
    length = state.settings.circuit.length
    clock = 0.0
    c = state.car_on
    while state.phase == R.GEAR and state.car_on == c:
        car = state.cars[c]
        g = 1 if car.gear == 0 else min(car.gear + 1, 2)
        roll = min(state.settings.faces[g - 1])
        clock += 1
        final = car.dist + roll >= length
        state = throw(state, g, roll, clock_end if final else clock)
    return state


def test_throws_and_time_set_the_grid_ties_by_time():
    state = qualifying()
    assert state.qualifying and state.car_on == 0
    state = drive_lap(state, 62.0)                    # started at 1.0: 61 s, one throw more
    assert state.car_on == 1
    first = state.qual[0]
    state = drive_lap(state, 31.0)
    assert state.phase == R.QDONE
    second = state.qual[1]
    assert first[0] == second[0] + 1                  # the same throws, +1 for the full minute
    assert (first[1], second[1]) == (61.0, 30.0)
    assert Q.order(state) == (1, 0)
    state = R.apply(state, {"kind": "start", "weather": 0, "grid": None, "starts": [10, 10]})
    assert state.grid == (1, 0) and state.cars[1].dist == 0 and state.cars[0].dist == -1
    assert any("thr" in line for line in S.qualifying_lines(state))


def test_an_overshot_space_is_a_throw_and_wp_do_not_count():
    state = qualifying()
    c1 = corner(1)
    state = throw(state, 1, 2, 1.0)
    state = throw(state, 2, 4, 2.0)
    state = throw(state, 3, 8, 3.0)                   # from 6: through corner 1
    over = 6 + 8 - c1.end
    assert state.last.overshoots == ((1, over),)
    assert state.qthrows == 3 + over
    assert state.cars[0].wp == state.cars[0].full


def test_no_stop_in_a_2_stop_corner_ends_the_lap_at_the_back():
    state = qualifying()
    c2 = corner(2)
    state = R.evolve(state, cars=R.replace_at(state.cars, 0, R.evolve(state.cars[0], dist=c2.at - 2, gear=3)))
    state = throw(state, 3, 8, 1.0)                   # straight through corner 2
    assert state.qual[0][2] is True and state.car_on == 1
    state = drive_lap(state, 200.0)
    assert Q.order(state) == (1, 0)        # slow, but it stopped everywhere


def test_tires_are_fitted_before_the_qualifying_laps_and_again_before_the_race():
    state = R.setup({"players": 2, "grid": "stopwatch", "weather": "rain"}, data())
    state = R.apply(state, {"kind": "start", "qualifying": True, "weather": 0})
    change = next(m for m in R.moves(state) if m.kind == "tires" and m.arg("car") == 1)
    assert change.label == "Blue to soft"
    state = R.apply(state, R.resolve(state, change, None))
    state = R.apply(state, {"kind": "ok"})
    assert state.cars[1].tires == "soft" and state.car_on == 0
    state = drive_lap(drive_lap(state, 10.0), 12.0)
    assert state.phase == R.QDONE
    assert [m.kind for m in R.moves(state)] == ["start"]
    state = R.apply(state, {"kind": "start", "weather": 0, "grid": None, "starts": [10, 10]})
    assert state.phase == R.GRID and state.cars[1].tires == "soft"
    change = next(m for m in R.moves(state) if m.kind == "tires" and m.arg("car") == 1)
    assert change.label == "Blue to rain"
    state = R.apply(state, R.resolve(state, change, None))
    assert state.cars[1].tires == "rain"
