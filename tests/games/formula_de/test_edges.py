"""The rules at their edges, through the public rules API: braking after a slipstream,
chained slipstreams, the finishing line ending a car's race (and a stopwatch lap), a
stopwatch lap through a 3-stop corner with one stop made."""

from companion.games.formula_de import rules as R

from .helpers import adjust, corner, done, gear, on_turn, put, started
from .test_qualifying import qualifying, throw

C1, C4 = corner(1), corner(4)
assert C4.stops == 3


def whats(state):
    return [m.arg("what") for m in R.moves(state) if m.kind == "adjust"]


def test_braking_is_offered_after_a_slipstream_and_shortens_it():
    length = started(2).settings.circuit.length
    start = length + C1.at - 10                            # lap 2, 10 spaces before C1
    state = gear(on_turn(put(started(2), 0, dist=start, gear=4), 0), 0, 4, 10)
    state = adjust(state, "slip")                          # 10 + 3: past the corner's end
    assert R.preview(state).overshoots
    assert "brake" in whats(state)
    state = adjust(state, "brake", 2)                      # back into the corner: a stop
    p = R.preview(state)
    assert p.final == start + 10 + 3 - 2 and p.corner == 1 and not p.overshoots
    assert ("brakes", 2, "braking") in p.losses
    assert "slip" not in whats(state)                      # braking to slipstream is prohibited
    state = done(state)
    assert state.cars[0].corner == 1 and state.cars[0].dist == start + 11


def test_slipstreams_chain_without_a_limit():
    length = started(2).settings.circuit.length
    start = 66                                             # the long straight after the last corner
    state = gear(on_turn(put(started(6), 0, dist=start, gear=4), 0), 0, 4, 7)
    for n in range(1, 6):
        assert "slip" in whats(state), f"slipstream {n} not offered"
        state = adjust(state, "slip")
    assert R.preview(state).final == start + 7 + 15
    assert start + 7 + 15 < length + C1.at


def test_the_finishing_line_ends_the_race_before_the_next_lap_s_first_corner():
    state = started(2)
    line = state.settings.laps * state.settings.circuit.length
    state = put(state, 0, dist=line - 3, gear=5, wp={"tires": 1})
    state = done(gear(on_turn(state, 0), 0, 5, 20))        # would be 5 past the next lap's C1
    car = state.cars[0]
    assert not car.out and car.place == 1 and state.finish == (0,)
    assert car.zone_wp("tires") == 1 and not state.last.overshoots and not state.last.losses


def test_a_finisher_keeps_its_tires_when_it_could_have_paid_for_the_overshoot():
    state = started(2)
    line = state.settings.laps * state.settings.circuit.length
    state = done(gear(on_turn(put(state, 0, dist=line - 3, gear=5), 0), 0, 5, 20))
    assert state.cars[0].place == 1 and state.cars[0].wp == state.cars[0].full


def test_a_stopwatch_lap_ends_on_the_line_without_judging_the_next_corner():
    state = qualifying()
    length = state.settings.circuit.length
    car = state.cars[0]
    state = R.evolve(state, cars=R.replace_at(state.cars, 0, R.evolve(car, dist=length - 3, gear=5)))
    state = throw(state, 5, 20, 30.0)                      # would be 5 past C1 of a next lap
    throws, _, back = state.qual[0]
    assert (throws, back) == (1, False)


def test_a_stopwatch_lap_with_one_stop_in_a_3_stop_corner_costs_throws_not_the_grid():
    state = qualifying()
    car = state.cars[0]
    state = R.evolve(state, cars=R.replace_at(state.cars, 0, R.evolve(car, dist=C4.at + 2, gear=2, corner=4,
                                                                        stops=1)))
    state = throw(state, 3, 8, 1.0)                        # leaves C4 owing 2 stops
    over = C4.at + 2 + 8 - C4.end
    assert over > 0 and state.last.overshoots == ((4, over),)
    assert not state.last.out and state.car_on == 0 and not state.qual[0]
    assert state.qthrows == 1 + over
    assert state.cars[0].dist == C4.at + 10


def test_a_stopwatch_lap_with_no_stop_in_a_3_stop_corner_is_over():
    state = qualifying()
    car = state.cars[0]
    state = R.evolve(state, cars=R.replace_at(state.cars, 0, R.evolve(car, dist=C4.at - 1, gear=3)))
    state = throw(state, 3, 8, 1.0)
    assert state.qual[0][2] is True and state.car_on == 1


# -- setup: tires once the weather is known, road races, the grid on screen ----------------

from companion.games.formula_de import screens as S          # noqa: E402
from companion.games.formula_de import tables as T           # noqa: E402

from .helpers import data                                     # noqa: E402


def grid_after_start(options, weather=1):
    state = R.setup(options, data())
    grid = [[20 - i] for i in range(len(state.cars))]
    return R.apply(state, {"kind": "start", "weather": weather, "grid": grid, "starts": [10] * len(state.cars)})


def test_tires_are_not_asked_at_setup_but_fitted_once_the_rain_is_rolled():
    assert "tires" not in [o.key for o in R.CAR_OPTIONS]
    state = grid_after_start({"players": 3, "cars": [{}, {}, {"driver": "auto"}]}, weather=1)   # 1: rain
    assert state.rain and state.phase == R.GRID
    assert state.cars[2].tires == T.RAIN                 # the automated car fits its own
    changes = [m for m in R.moves(state) if m.kind == "tires"]
    assert [(m.arg("car"), m.label) for m in changes] == [(0, "Red to soft"), (1, "Blue to soft")]
    for _ in range(2):                                   # hard -> soft -> rain
        move = next(m for m in R.moves(state) if m.kind == "tires" and m.arg("car") == 0)
        state = R.apply(state, R.resolve(state, move, None))
    assert state.cars[0].tires == T.RAIN
    assert any("rain tires" in line for line in S.grid_lines(state))
    assert "Red: rain tires" not in S.grid_lines(state)
    state = R.apply(state, {"kind": "ok"})
    assert state.phase == R.GEAR and not [m for m in R.moves(state) if m.kind == "tires"]


def test_a_tire_change_is_refused_once_the_race_runs():
    import pytest
    from companion.kit.errors import RuleError

    state = R.apply(grid_after_start({"players": 2}), {"kind": "ok"})
    with pytest.raises(RuleError):
        R.apply(state, {"kind": "tires", "car": 0, "tires": T.SOFT})


def test_a_road_race_asks_no_tires_nor_build_and_offers_no_tire_change():
    road, circuit = {"race": "road"}, {"race": "circuit"}
    human = {"driver": "human", "build": "constructed"}
    assert [o.key for o in R.CAR_OPTIONS if o.applies(human, road)] == ["driver"]
    assert [o.key for o in R.CAR_OPTIONS if o.applies(human, circuit)] == ["driver", "build", "wear"]
    state = grid_after_start({"players": 2, "race": "road"})
    assert [m.kind for m in R.moves(state)] == ["ok"]
    assert {c.tires for c in state.cars} == {T.HARD}


def test_grid_boxes_are_not_read_as_space_0():
    state = R.apply(grid_after_start({"players": 3}, weather=15), {"kind": "ok"})
    assert [c.dist for c in state.cars] == [0, -1, -2]
    captions = []
    for c in range(3):                                    # each rolls a 1 in 1st gear
        state = gear(state, c, 1, 1)
        captions.append(S.outcome_caption(state, R.preview(state)))
        state = done(state)
        if state.phase == R.SHOW:
            state = R.apply(state, {"kind": "ok"})
    assert captions == ["to sp 1", "to grid 1, car near", "to grid 2, car near"]
    words = [S.turn_lines(state, R.Turn(c, 1, 1, d - 1, d))[1] for c, d in ((0, 1), (1, 0), (2, -1))]
    assert words == ["move 1 to space 1", "move 1 to grid 1", "move 1 to grid 2"]
    cars = [line for line in S.round_lines(state) if line[0].isdigit()]
    assert [line.endswith(w) for line, w in zip(cars, ["sp 1 1st", "grid 1 1st", "grid 2 1st"])] == [True] * 3, cars
