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
