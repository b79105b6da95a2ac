"""The black-die checks the companion rolls and applies: motor damage, collision, road
handling, the weather re-roll, and the pit stop."""

import pytest

from companion.games.formula_de import rules as R
from companion.games.formula_de import tables as T

from .helpers import Dice, adjust, corner, gear, on_turn, put, started


STRAIGHT = corner(5).end + 3          # the main straight: 20 spaces clear to corner 1


def confirm(state, *black):
    """Resolve the confirmation with the black die showing ``black`` in turn, then apply."""
    move = next(m for m in R.moves(state) if m.kind == "done")
    event = R.resolve(state, move, Dice(*black))
    return R.apply(state, event), event


def straight(state, c, dist):
    return put(state, c, dist=dist)


def test_a_20_in_5th_makes_every_car_in_5th_or_6th_roll_for_its_engine():
    state = started(4)
    state = put(state, 0, dist=STRAIGHT, gear=5)
    state = put(state, 1, dist=STRAIGHT - 3, gear=6)
    state = put(state, 2, dist=STRAIGHT - 4, gear=4)
    state = put(state, 3, dist=STRAIGHT - 5, gear=5)
    state = gear(on_turn(state, 0), 0, 5, 20)
    after, event = confirm(state, 4, 5, 1)                 # car 0: 4 (hit), car 1: 5, car 3: 1 (hit)
    assert [i for i, _ in event["rolls"]["motor"]] == [0, 1, 3]
    lost = [c.full[4] - c.zone_wp("engine") for c in after.cars]
    assert lost == [1, 0, 0, 1]
    assert set(after.markers) == {(STRAIGHT + 20) % after.settings.circuit.length, STRAIGHT - 5}     # where the damaged cars stand


def test_motor_damage_in_rain_hits_on_1_to_3_only():
    state = started(2, weather=1)
    state = put(put(state, 0, dist=STRAIGHT, gear=5), 1, dist=STRAIGHT - 2, gear=5)
    state = gear(on_turn(state, 0), 0, 5, 20)
    after, _ = confirm(state, 4, 3)
    assert [c.full[4] - c.zone_wp("engine") for c in after.cars] == [0, 1]


def test_no_engine_roll_below_the_top_face():
    state = gear(on_turn(put(started(2), 0, dist=STRAIGHT, gear=5), 0), 0, 5, 19)
    _, event = confirm(state)
    assert "motor" not in event["rolls"]


def test_losing_the_last_engine_wp_eliminates():
    state = put(put(started(2), 0, dist=STRAIGHT, gear=5), 1, dist=STRAIGHT - 2, gear=6, wp={"engine": 1})
    state = gear(on_turn(state, 0), 0, 5, 20)
    after, _ = confirm(state, 10, 2)
    assert after.cars[1].out == "engine" and after.cars[0].racing


@pytest.mark.parametrize("weather, roll, hit", [(15, 1, True), (15, 2, False), (1, 2, True), (1, 3, False)])
def test_collision_check_dry_1_rain_1_or_2(weather, roll, hit):
    state = started(2, weather=weather)
    state = put(put(state, 0, dist=STRAIGHT, gear=4), 1, dist=STRAIGHT + 13, gear=4)   # ends right behind car 1
    state = gear(on_turn(state, 0), 0, 4, 12)
    assert R.preview(state).contact
    after, event = confirm(state, roll)
    assert event["rolls"]["collision"] == roll
    assert (after.cars[0].full[3] - after.cars[0].zone_wp("body") == 1) is hit


def test_no_car_near_means_no_collision_roll():
    state = put(put(started(2), 0, dist=STRAIGHT, gear=4), 1, dist=STRAIGHT + 13, gear=4)
    state = adjust(gear(on_turn(state, 0), 0, 4, 12), "contact", value=0)
    _, event = confirm(state)
    assert "collision" not in event["rolls"]


@pytest.mark.parametrize("weather, roll, hit", [(15, 4, True), (15, 5, False), (1, 5, True), (1, 6, False)])
def test_handling_roll_over_a_damage_marker(weather, roll, hit):
    state = R.evolve(started(2, weather=weather), markers=(STRAIGHT + 5,))
    state = put(state, 0, dist=STRAIGHT, gear=4)
    state = gear(on_turn(state, 0), 0, 4, 7)
    state = adjust(state, "over")
    after, event = confirm(state, roll)
    assert event["rolls"]["handling"] == [roll]
    assert (after.cars[0].zone_wp("handling") < after.cars[0].full[5]) is hit


def test_changeable_weather_is_rolled_again_on_a_20_in_5th():
    state = started(2, weather=10)
    assert state.weather == T.CHANGEABLE
    state = gear(on_turn(put(state, 0, dist=STRAIGHT, gear=5), 0), 0, 5, 20)
    after, event = confirm(state, 10, 1)         # engine 10, weather 1: rain
    assert event["rolls"]["weather"] == 1
    assert after.weather == T.RAIN_CHANGEABLE and after.rain


def test_slipstream_adds_3_and_into_a_corner_costs_a_brake_wp():
    c1 = corner(1)
    state = put(started(2), 0, dist=c1.at - 10, gear=4, wp={"brakes": 3})
    state = gear(on_turn(state, 0), 0, 4, 8)               # 2 short of the corner
    state = adjust(state, "slip")
    p = R.preview(state)
    assert p.final == c1.at - 10 + 8 + 3
    assert ("brakes", 1, "slipstream") in p.losses


def test_slipstream_needs_4th_gear():
    state = gear(on_turn(put(started(2), 0, dist=STRAIGHT, gear=3), 0), 0, 3, 6)
    assert "slip" not in [m.arg("what") for m in R.moves(state)]


def pit_state(tires=T.HARD, wp=None):
    s = started(2)
    entry = s.settings.circuit.pit
    state = put(s, 0, dist=entry - 5, gear=4, wp=wp or {"tires": 1}, tires=tires)
    return gear(on_turn(state, 0), 0, 4, 9)


@pytest.mark.parametrize("roll", [1, 7, 10])
def test_quick_pit_stop(roll):
    state = adjust(pit_state(), "pit", value=T.RAIN)
    after, event = confirm(state, roll)
    car = after.cars[0]
    line = after.settings.circuit.length
    assert car.zone_wp("tires") == car.full[0] and car.tires == T.RAIN and car.pits == 1
    assert car.dist == line + -(-roll // 2) and car.gear == T.PIT_GEAR
    assert event["rolls"]["pit"] == roll


def test_slow_pit_stop_waits_a_round_then_leaves_in_4th_or_lower():
    after, _ = confirm(adjust(pit_state(), "pit", value=T.HARD), 15)
    car = after.cars[0]
    assert car.pit_wait and car.dist == after.settings.circuit.length
    state = on_turn(R.evolve(after, cars=R.replace_at(after.cars, 0, R.evolve(car, pit_wait=False))), 0)
    assert [m.arg("gear") for m in R.moves(state) if m.kind == "gear"] == [1, 2, 3, 4]


def test_technical_stop_gives_back_2_wp_in_the_zones_that_lost_most():
    state = adjust(pit_state(wp={"tires": 1, "brakes": 1, "body": 2}), "pit", value="tech")
    after, _ = confirm(state, 3)
    car = after.cars[0]
    assert car.zone_wp("brakes") == 3 and car.zone_wp("body") == 2 and car.repair == 0
    assert car.cap == T.PIT_GEAR


def test_no_pit_stop_on_the_last_lap():
    s = started(2)
    entry = s.settings.circuit.pit + s.settings.circuit.length
    state = gear(on_turn(put(s, 0, dist=entry - 5, gear=4), 0), 0, 4, 9)
    assert "pit" not in [m.arg("what") for m in R.moves(state)]
