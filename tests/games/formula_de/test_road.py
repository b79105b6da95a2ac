"""Road races: the drivers' features, nitro, engine noise, the police station and the
checkpoint, on the built-in road course."""

import pytest

from companion.games.formula_de import rules as R
from companion.games.formula_de import tables as T

from .helpers import Dice, adjust, gear, on_turn, put, started

SKILLS = ["weather-frog", "how-sweet", "aggressive", "skidding-pro", "experienced-mechanic",
          "quick-off-the-mark", "car-radio", "pile-of-scrap", "little-genius", "better-nitro"]


def road(players=2, **kw):
    return started(players, race="road", **kw)


def confirm(state, *black):
    move = next(m for m in R.moves(state) if m.kind == "done")
    event = R.resolve(state, move, Dice(*black))
    return R.apply(state, event), event


def test_cars_get_the_drivers_hard_tires_and_no_pits():
    state = road(10)
    assert [c.skill for c in state.cars] == SKILLS
    assert all(c.tires == T.HARD for c in state.cars)
    assert set(state.settings.circuit.danger) <= set(state.markers)      # red spaces are markers
    circuit = state.settings.circuit
    state = gear(on_turn(put(state, 0, dist=circuit.pit - 5, gear=4), 0), 0, 4, 9)
    assert "pit" not in [m.arg("what") for m in R.moves(state)]


@pytest.mark.parametrize("roll, zone", [(1, None), (15, None), (16, T.TIRES), (18, T.TIRES), (19, T.BODY),
                                        (20, T.ENGINE)])
def test_engine_noise_table(roll, zone):
    assert T.noise_effect(roll) == zone
    state = road()
    first, last = state.settings.circuit.noise
    state = gear(on_turn(put(state, 0, dist=first - 4, gear=2), 0), 0, 2, 4)
    after, event = confirm(state, roll)
    assert event["rolls"]["noise"] == roll
    car = after.cars[0]
    lost = {z: f - w for z, f, w in zip(T.ZONES, car.full, car.wp) if f != w}
    assert lost == ({zone: 1} if zone else {})


def test_nitro_once_a_lap_adds_the_gear_and_better_nitro_3_more():
    state = road(10)
    state = gear(on_turn(put(state, 0, dist=0, gear=2), 0), 0, 3, 4)
    state = adjust(state, "nitro")
    assert R.preview(state).moved == 4 + 3
    after, _ = confirm(state)
    assert after.cars[0].nitro_lap == 1
    again = gear(on_turn(R.evolve(after, phase=R.GEAR), 0), 0, 3, 4)
    assert "nitro" not in [m.arg("what") for m in R.moves(again)]
    better = gear(on_turn(put(state, 9, dist=0, gear=2), 9), 9, 3, 4)
    better = adjust(better, "nitro")
    assert R.preview(better).moved == 4 + 3 + T.BETTER_NITRO


@pytest.mark.parametrize("car, repaired", [(0, T.CHECKPOINT_REPAIR), (4, T.MECHANIC_REPAIR)])
def test_checkpoint_gives_the_tires_back_and_repairs(car, repaired):
    state = road(10)
    length = state.settings.circuit.length
    worn = {"tires": 1, "brakes": 1, "gearbox": 1, "body": 1}
    state = gear(on_turn(put(state, car, dist=length - 3, gear=2, wp=worn), car), car, 2, 4)
    after, _ = confirm(state)
    c = after.cars[car]
    assert c.zone_wp("tires") == c.full[0]
    assert sum(c.wp[1:]) - sum(state.cars[car].wp[1:]) == repaired


def test_police_station_pays_the_fastest_once_all_have_crossed():
    state = road(2)
    police = state.settings.circuit.police
    state = put(state, 0, dist=police - 2, gear=2, wp={"brakes": 1})
    state = put(state, 1, dist=police - 3, gear=2, wp={"brakes": 1})
    state = confirm(gear(on_turn(state, 0), 0, 2, 2))[0]         # speed 20
    assert not state.police_paid and state.police == ((0, 0, 20),)
    state = confirm(gear(on_turn(R.evolve(state, phase=R.GEAR), 1), 1, 2, 4))[0]    # speed 40
    assert state.police_paid == ((0, 1),)
    assert state.cars[1].zone_wp("brakes") == 3 and state.cars[0].zone_wp("brakes") == 1


def test_weather_frog_rolls_again_and_the_second_counts():
    state = R.setup({"players": 2, "race": "road"}, __import__("tests.games.formula_de.helpers",
                                                               fromlist=["data"]).data())
    event = R.resolve(state, R.moves(state)[0], Dice(20, 10, 9, 10, 10, 1))
    assert event["weather"] == 20 and event["frog"] == 1
    assert R.apply(state, event).rain


def test_frog_slides_1_in_rain_not_3():
    state = road(2, weather=1)
    corner = state.settings.circuit.corners[0]
    state = gear(on_turn(put(state, 0, dist=corner.at - 3, gear=2), 0), 0, 2, 4)
    assert R.preview(state).slide == T.FROG_SLIDE


def test_little_genius_and_pile_of_scrap_thresholds():
    state = road(10)
    state = put(state, 0, dist=0, gear=5)
    state = put(state, 8, dist=-5, gear=5)          # Little Genius in 5th
    state = gear(on_turn(state, 0), 0, 5, 20)
    after, event = confirm(state, 10, 4)           # car 0 engine 10, genius 4 (no hit: 1-3)
    assert after.cars[8].zone_wp("engine") == after.cars[8].full[4]
    scrap = R.evolve(road(10), markers=(3,))
    scrap = adjust(gear(on_turn(put(scrap, 7, dist=0, gear=2), 7), 7, 2, 4), "over")
    after, _ = confirm(scrap, 3)                    # 3: a hit for anyone else, not for him
    assert after.cars[7].zone_wp("handling") == after.cars[7].full[5]


def test_how_sweet_costs_a_space_to_whoever_overtakes_her_on_a_straight():
    state = road(2)
    state = put(put(state, 1, dist=3, gear=2), 0, dist=0, gear=2)
    state = gear(on_turn(state, 0), 0, 2, 4)
    assert R.preview(state).final == 3          # 4 spaces, one lost passing her


@pytest.mark.parametrize("roll, zone", [(1, T.TIRES), (5, T.BRAKES), (8, T.GEARBOX), (11, T.BODY),
                                        (14, T.ENGINE), (18, T.HANDLING), (20, T.HANDLING)])
def test_car_radio_table(roll, zone):
    assert T.radio_zone(roll) == zone
    state = road(7)
    state = put(put(state, 6, dist=10, gear=2), 0, dist=14, gear=2)
    state = gear(on_turn(state, 6), 6, 2, 4)        # ends beside car 0
    state = adjust(state, "contact", value=0)
    state = adjust(state, "radio", value=1)
    after, _ = confirm(state, roll)
    assert after.cars[0].zone_wp(zone) == after.cars[0].full[T.ZONES.index(zone)] - 1
    assert after.cars[6].radio_used


def test_the_police_stations_award_is_on_the_screen_when_it_is_made():
    from companion.games.formula_de import screens as S
    state = road(2)
    police = state.settings.circuit.police
    state = put(state, 0, dist=police - 2, gear=2, wp={"brakes": 1})
    state = put(state, 1, dist=police - 3, gear=2, wp={"brakes": 1})
    state = confirm(gear(on_turn(state, 0), 0, 2, 2))[0]
    state = confirm(gear(on_turn(R.evolve(state, phase=R.GEAR), 1), 1, 2, 4))[0]
    assert state.phase == R.SHOW
    assert "police: brakes +2" in S.turn_lines(state, state.last)


def test_aggressive_makes_the_car_he_runs_into_roll_twice():
    state = road(3)
    state = put(put(state, 2, dist=10, gear=2), 0, dist=14, gear=2)      # car 2 is Aggressive
    state = gear(on_turn(state, 2), 2, 2, 4)                             # ends beside car 0
    after, event = confirm(state, 10, 1, 1)         # his own check 10; car 0 rolls 1 and 1
    assert event["rolls"]["victim"] == [0, 1, 1]
    assert after.cars[0].zone_wp("body") == after.cars[0].full[3] - 2
    assert after.cars[2].zone_wp("body") == after.cars[2].full[3]


def test_pile_of_scrap_drops_a_marker_where_it_was_once_a_lap():
    state = road(8)
    state = gear(on_turn(put(state, 7, dist=5, gear=2), 7), 7, 2, 3)
    state = adjust(state, "scrap")
    after, _ = confirm(state)
    assert 5 in after.markers and after.cars[7].scrap_lap == 1
    again = gear(on_turn(R.evolve(after, phase=R.GEAR), 7), 7, 2, 3)
    assert "scrap" not in [m.arg("what") for m in R.moves(again)]


def test_weather_frog_rolls_changeable_weather_again_too():
    state = road(2, weather=10)                     # changeable
    straight = state.settings.circuit.corners[-1].end + 2
    state = put(state, 0, dist=straight, gear=5)
    state = gear(on_turn(state, 0), 0, 5, 20)
    after, event = confirm(state, 10, 20, 1)        # engine 10, weather 20 (good), frog 1 (rain)
    assert event["rolls"]["weather"] == 20 and event["rolls"]["frog"] == 1
    assert after.weather == T.RAIN_CHANGEABLE
