"""The rulebook's tables, row by row, through the rules that use them."""

import pytest

from companion.games.formula_de import tables as T
from companion.kit.errors import RuleError

from .helpers import adjust, done, gear, on_turn, put, started


# -- gearing down: gears skipped -> gearbox, brake, engine WP -------------------------------

@pytest.mark.parametrize("skipped, gearbox, brakes, engine", [(1, 1, 0, 0), (2, 1, 1, 0), (3, 1, 1, 1)])
def test_gearing_down_costs_the_tables_wp(skipped, gearbox, brakes, engine):
    state = on_turn(put(started(), 0, gear=6), 0)
    before = state.cars[0].wp
    new = 6 - skipped - 1
    after = gear(state, 0, new, min(state.settings.faces[new - 1])).cars[0]
    lost = dict(zip(T.ZONES, (b - a for b, a in zip(before, after.wp))))
    assert (lost["gearbox"], lost["brakes"], lost["engine"]) == (gearbox, brakes, engine)
    assert lost["tires"] == lost["body"] == lost["handling"] == 0
    assert after.gear == new


def test_one_gear_down_or_up_costs_nothing_and_skipping_four_is_refused():
    state = on_turn(put(started(), 0, gear=6), 0)
    offered = [m.arg("gear") for m in __import__("companion.games.formula_de.rules", fromlist=["x"]).moves(state)
               if m.kind == "gear"]
    assert offered == [2, 3, 4, 5, 6]          # 6 -> 1 would skip 4 gears
    assert gear(state, 0, 5, 11).cars[0].wp == state.cars[0].wp
    with pytest.raises(RuleError):
        gear(state, 0, 1, 1)
    low = on_turn(put(started(), 0, gear=3), 0)
    with pytest.raises(RuleError):              # up two gears
        gear(low, 0, 5, 11)


def test_a_gear_change_the_car_cannot_pay_for_is_not_offered():
    from companion.games.formula_de import rules as R
    state = on_turn(put(started(), 0, gear=5, wp={"gearbox": 0}), 0)
    assert [m.arg("gear") for m in R.moves(state) if m.kind == "gear"] == [4, 5, 6]


def test_losing_the_last_engine_wp_gearing_down_eliminates():
    state = on_turn(put(started(), 0, gear=6, wp={"engine": 1}), 0)
    after = gear(state, 0, 2, 2)
    assert after.cars[0].out == "engine"


# -- blocked braking: spaces remaining -> brake and tire WP; 7 eliminates ------------------

@pytest.mark.parametrize("spaces", range(1, 8))
def test_blocked_braking_row(spaces):
    state = on_turn(put(started(), 0, gear=5, dist=100, wp={"brakes": 7, "tires": 14}), 0)
    state = gear(state, 0, 5, 20 if spaces < 7 else 20)
    state = adjust(state, "blocked", spaces)
    after = done(state).cars[0]
    if spaces == 7:
        assert after.out == "blocked"
        return
    brake, tire = T.BLOCKED[spaces]
    assert (7 - after.zone_wp("brakes"), 14 - after.zone_wp("tires")) == (brake, tire)
    assert after.dist == 100 + 20 - spaces


def test_blocked_without_the_brake_wp_to_stop_eliminates():
    state = on_turn(put(started(), 0, gear=5, dist=100, wp={"brakes": 2}), 0)
    state = adjust(gear(state, 0, 5, 16), "blocked", 3)     # needs 3 brake WP
    assert done(state).cars[0].out == "blocked"


def test_braking_costs_one_brake_wp_a_space():
    state = on_turn(put(started(), 0, gear=4, dist=100), 0)
    state = adjust(gear(state, 0, 4, 12), "brake", 2)
    after = done(state).cars[0]
    assert after.dist == 110 and after.zone_wp("brakes") == state.cars[0].zone_wp("brakes") - 2


# -- start and pit-stop rolls -------------------------------------------------------------

def test_start_roll_rows():
    assert [T.start_effect(r) for r in (1, 2, 10, 19, 20)] == ["poor", "normal", "normal", "normal", "great"]
    state = started(3, starts=[1, 20, 10])
    pole, second, third = state.cars
    assert pole.start_roll == 1 and 0 not in state.order   # misses the first turn
    assert state.order == (1, 2)                             # the great start leads
    assert second.dist == -1 + T.GREAT_START_SPACES and second.gear == 1
    from companion.games.formula_de import rules as R
    second_turn = on_turn(state, 1)
    assert [m.arg("gear") for m in R.moves(second_turn) if m.kind == "gear"] == [1, 2]   # may take 2nd
    assert [m.arg("gear") for m in R.moves(on_turn(state, 2)) if m.kind == "gear"] == [1]


@pytest.mark.parametrize("roll", range(1, 21))
def test_pit_roll_rows(roll):
    kind, spaces = T.pit_effect(roll)
    if roll <= 10:
        assert kind == "quick" and spaces == -(-roll // 2)
    else:
        assert kind == "slow" and spaces == 0


# -- weather lines -----------------------------------------------------------------------

def test_weather_shifts_as_the_table_says():
    assert T.shift(T.CHANGEABLE, "good") == T.GOOD
    assert T.shift(T.CHANGEABLE, "changeable") == T.CHANGEABLE
    assert T.shift(T.CHANGEABLE, "rain") == T.RAIN_CHANGEABLE
    assert T.shift(T.RAIN_CHANGEABLE, "rain") == T.RAINY
    assert T.shift(T.RAIN_CHANGEABLE, "good") == T.CHANGEABLE
    assert T.shift(T.GOOD, "rain") == T.GOOD and T.shift(T.RAINY, "good") == T.RAINY
    assert [T.raining(x) for x in range(4)] == [False, False, True, True]


@pytest.mark.parametrize("roll, line", [(1, T.RAINY), (8, T.RAINY), (9, T.CHANGEABLE), (14, T.CHANGEABLE),
                                         (15, T.GOOD), (20, T.GOOD)])
def test_weather_roll_read_on_the_circuits_chart(roll, line):
    assert started(weather=roll).weather == line


# -- black-die thresholds, dry and rain ---------------------------------------------------

@pytest.mark.parametrize("rain", [False, True])
def test_thresholds(rain):
    assert [r for r in range(1, 21) if T.collision_hit(r, rain)] == ([1, 2] if rain else [1])
    assert [r for r in range(1, 21) if T.engine_hit(r, rain)] == ([1, 2, 3] if rain else [1, 2, 3, 4])
    assert [r for r in range(1, 21) if T.handling_hit(r, rain)] == ([1, 2, 3, 4, 5] if rain else [1, 2, 3, 4])
