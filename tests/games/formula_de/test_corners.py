"""Corners: stops, overshooting 1-, 2- and 3-stop corners, the spin on the last tire WP,
the tires' effects, with the built-in circuit's corners."""

import pytest

from companion.games.formula_de import rules as R
from companion.games.formula_de import tables as T

from .helpers import corner, done, gear, on_turn, put, started

ONE, TWO, THREE = corner(1), corner(2), corner(4)
assert (ONE.stops, TWO.stops, THREE.stops) == (1, 2, 3)


def drive(state, c, g, roll, **rolls):
    return done(gear(on_turn(state, c), c, g, roll), **rolls)


def at(state, c, dist, g, **fields):
    return put(state, c, dist=dist, gear=g, **fields)


def test_a_move_ending_inside_a_corner_is_a_stop_and_the_next_leaves_it_freely():
    state = at(started(2), 0, ONE.at - 4, 2)
    state = drive(state, 0, 2, 4)                         # ends on the corner's first space
    car = state.cars[0]
    assert (car.corner, car.stops, car.dist) == (1, 1, ONE.at)
    state = drive(R.evolve(state, phase=R.GEAR), 0, 3, 8)
    assert state.cars[0].wp == state.cars[0].full and state.cars[0].corner == 0


@pytest.mark.parametrize("roll", [4, 5, 6, 7, 8])
def test_overshooting_a_1_stop_corner_costs_a_tire_wp_a_space(roll):
    start = ONE.at - 1
    state = drive(at(started(2), 0, start, 3), 0, 3, roll)
    car = state.cars[0]
    over = start + roll - ONE.end
    if over <= 0:
        assert car.corner == 1 and car.zone_wp("tires") == car.full[0]
    else:
        assert car.full[0] - car.zone_wp("tires") == over
        assert state.last.overshoots == ((1, over),)


def test_2_stop_corner_no_stop_eliminates_one_stop_overshoots():
    state = drive(at(started(2), 0, TWO.at - 1, 3), 0, 3, 8)          # straight through
    assert state.cars[0].out == "skipped stops C2"
    assert state.cars[0].dist % state.settings.circuit.length in state.markers
    one = at(started(2), 0, TWO.at + 1, 2, corner=2, stops=1)
    after = drive(one, 0, 2, 4).cars[0]
    over = TWO.at + 1 + 4 - TWO.end
    assert not after.out and after.full[0] - after.zone_wp("tires") == over
    two = at(started(2), 0, TWO.at + 1, 2, corner=2, stops=2)
    assert drive(two, 0, 2, 4).cars[0].wp == two.cars[0].wp


@pytest.mark.parametrize("stops, out", [(0, True), (1, True), (2, False), (3, False)])
def test_3_stop_corner(stops, out):
    start = THREE.at + 2 if stops else THREE.at - 1
    state = at(started(2), 0, start, 3, corner=4 if stops else 0, stops=stops)
    after = drive(state, 0, 3, 8).cars[0]
    assert bool(after.out) == out
    if not out:
        over = max(0, start + 8 - THREE.end) if stops == 2 else 0
        assert after.full[0] - after.zone_wp("tires") == over


def test_losing_the_last_tire_wp_by_one_space_spins_the_car_to_1st_gear():
    # 3rd gear roll 4 from two spaces before the exit: one space past it
    state = drive(at(started(2), 0, ONE.end - 3, 3, wp={"tires": 1}), 0, 3, 4)
    car = state.cars[0]
    assert not car.out and car.zone_wp("tires") == 0 and car.cap == 1
    assert state.last.spin
    assert [m.arg("gear") for m in R.moves(on_turn(state, 0)) if m.kind == "gear"] == [1]


def test_losing_the_last_tire_wp_by_more_than_one_space_eliminates():
    state = drive(at(started(2), 0, ONE.end - 3, 3, wp={"tires": 2}), 0, 3, 5)   # 2 past, 2 WP
    assert state.cars[0].out == "spun off C1"


def test_losing_more_tire_wp_than_it_has_eliminates():
    state = drive(at(started(2), 0, ONE.end - 3, 3, wp={"tires": 2}), 0, 3, 6)   # 3 past, 2 WP
    assert state.cars[0].out == "overshoot C1"


def test_a_stop_at_the_end_of_an_overshoot_does_not_count_for_the_next_corner():
    # from inside C2 with 1 stop made, a move through its exit into C3
    c3 = corner(3)
    start = TWO.end - 1
    roll = c3.at - start
    state = at(started(2), 0, start, 5, corner=2, stops=1, wp={"tires": 14})
    after = drive(state, 0, 5, 14 if roll <= 14 else roll)
    car = after.cars[0]
    if car.corner == 3:
        assert car.stops == 0


def test_rain_tires_in_the_dry_double_the_overshoot():
    state = drive(at(started(2), 0, ONE.end - 3, 3, tires=T.RAIN), 0, 3, 6)        # 3 past
    assert state.cars[0].full[0] - state.cars[0].zone_wp("tires") == 6


def test_soft_tires_unchanged_into_the_third_lap_treble_it():
    s = started(2, laps=3)
    lap3 = 2 * s.settings.circuit.length
    state = drive(at(s, 0, lap3 + ONE.end - 3, 3, tires=T.SOFT, wp={"tires": 14}), 0, 3, 5)   # 2 past
    assert 14 - state.cars[0].zone_wp("tires") == 6


def test_hard_tires_slide_3_spaces_in_rain_when_the_move_touches_a_corner():
    wet = started(2, weather=1)
    assert wet.rain
    state = drive(at(wet, 0, ONE.at - 6, 2, wp={"tires": 14}), 0, 2, 4)      # 4 to 2 short of the corner
    assert state.cars[0].dist == ONE.at - 2                                   # no corner touched
    state = drive(at(wet, 0, ONE.at - 3, 2, wp={"tires": 14}), 0, 2, 4)
    assert state.cars[0].dist == ONE.at - 3 + 4 + 3 and state.last.slide == 3


def test_the_poor_starter_moves_in_the_second_round():
    state = started(2, starts=[1, 10])
    assert state.order == (1,)
    state = done(gear(state, 1, 1, 2))
    assert state.phase == R.ROUND
    state = R.apply(state, {"kind": "next"})
    assert 0 in state.order


def test_a_correction_moves_the_car_and_its_corner_follows():
    state = on_turn(at(started(2), 0, ONE.at - 1, 2), 0)
    fix = next(m for m in R.moves(state) if m.kind == "fix" and m.arg("by") == 1)
    state = R.apply(state, R.resolve(state, fix, None))
    car = state.cars[0]
    assert (car.dist, car.corner, car.stops) == (ONE.at, 1, 0)      # in the corner, no stop made
    # a move of 1 now ends in the corner: its first stop
    after = drive(state, 0, 1, 1)
    assert (after.cars[0].corner, after.cars[0].stops) == (1, 1)
