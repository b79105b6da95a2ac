"""The turn, from the rulebook's rules with stacked dice and cards."""

import random

import pytest

from companion.games.three_wide import rules
from companion.kit.errors import RuleError
from companion.kit.update import evolve
from tests.games.three_wide.helpers import Scripted, card_index, perform, skip_tactics, started, with_car


@pytest.mark.parametrize("players, per_team, field", [(2, 4, 8), (3, 4, 12), (4, 3, 12), (5, 2, 12), (6, 2, 12)])
def test_team_sizes_follow_the_number_of_players(data, players, per_team, field):
    state = rules.setup({"players": players}, data)
    assert len(state.cars) == field
    for p in range(players):
        assert sum(1 for c in state.cars if c.owner == p and c.team) == per_team
    associated = [c for c in state.cars if not c.team]
    assert len(associated) == field - players * per_team
    assert len({c.number for c in state.cars}) == field
    assert all(c.fuel == state.settings.tank and c.tires == (0, 0, 0, 0) for c in state.cars)


def test_car_numbers_name_the_team(data):
    state = rules.setup({"players": 3}, data)
    assert [c.number for c in state.cars[:5]] == [11, 12, 13, 14, 21]
    assert rules.car_name(state, 4) == "#21 Blue"


def test_grid_is_drawn_in_rounds_one_car_per_team(data):
    state = rules.setup({"players": 3}, data)
    state, event = perform(state, "start", random.Random(7))
    grid = event["grid"]
    for r in range(4):
        assert sorted(state.cars[c].owner for c in grid[3 * r:3 * r + 3]) == [0, 1, 2]
    assert [state.cars[c].space for c in grid] == list(range(1, 13))
    assert sorted(event["pile"]) == list(range(63))
    assert state.phase == rules.DEAL


def test_the_deck_is_45_standard_plus_18_race_cards(data):
    state = rules.setup({"players": 3, "race": "tri-superspeedway"}, data)
    names = [c.name for c in state.settings.deck]
    assert len(names) == 63
    assert names.count("In the Draft") == 4 + 4


def test_the_first_four_in_race_order_roll_three_in_an_8_car_race(data):
    state = started(3)
    assert state.rollers == (0, 1, 2, 3)
    assert started(2).rollers == (0, 1, 2)


def test_roll_chooses_and_lands_the_first_example(data):
    state = started(3)
    state = with_car(state, 0, fuel=5)
    state, _ = perform(state, "roll", Scripted(choices=["5xs", "7xx", "5x", "5x"]))
    labels = [m.label for m in rules.moves(state)]
    assert labels == ["7xx go 7", "5x go 7", "5xs go 7"]
    state, _ = perform(state, "die", die=0)
    car = state.cars[0]
    assert car.fuel == 6 and car.tires == (1, 0, 0, 0)
    # space 1 (row 0), 7 rows on across the line: row 13, inside lane = space 40
    assert state.proposal == 40 and state.want == 7
    state, _ = perform(state, "land", space=40)
    car = state.cars[0]
    assert (car.space, car.lap, car.face_up) == (40, 1, False)
    assert state.phase == rules.ROLL and state.rollers[state.k] == 1


def test_two_bangs_place_a_tire_marker_while_one_is_free(data):
    state = started(3)
    state = with_car(state, 0, tires=(1, 2, 3, 3))
    state, _ = perform(state, "roll", Scripted(choices=["4s", "3!", "1!", "3"]))
    assert state.cars[0].markers == ("Tire",)
    # both Tire markers in use: the next one is ignored
    state = with_car(state, 5, markers=("Tire",))
    state = evolve(state, phase=rules.ROLL, faces=())
    state, _ = perform(state, "roll", Scripted(choices=["4s", "3!", "1!", "3"]))
    assert state.cars[0].markers == ("Tire",)


def test_three_bangs_an_incident_marker(data):
    state = started(3)
    state = with_car(state, 0, tires=(3, 3, 3, 3))
    state, _ = perform(state, "roll", Scripted(choices=["1!", "2!", "2!", "3"]))
    assert state.cars[0].markers == ("Incident",)


def test_a_held_up_car_bumps_the_car_in_front(data):
    state = started(3)
    state, _ = perform(state, "roll", Scripted(choices=["5x", "6xx", "7xx", "8xxx"]))
    state, _ = perform(state, "die", die=3)    # wants 8 rows: row 12 (spaces 37-39)
    assert state.proposal == 37
    # the table says the car only got to 43 (row 14): held up behind car 5 at 40
    state = with_car(state, 5, space=40)
    state, _ = perform(state, "land", space=43)
    assert state.cars[5].markers == ("Bump",)


def test_passing_a_brake_zone_too_fast_places_a_brake_marker(data):
    state = started(3)   # Classic 300: brake zones at 16 and 46, limit 7
    state, _ = perform(state, "roll", Scripted(choices=["5x", "6xx", "7xx", "8xxx"]))
    state, _ = perform(state, "die", die=3)    # 8 from row 0 passes rows 19..12 (46 is row 15)
    state, _ = perform(state, "land", space=37)
    assert "Brake" in state.cars[0].markers


def test_three_wide_in_a_corner(data):
    state = started(3)
    # rows 15-19 are a corner; put two cars beside space 46's row
    state = with_car(state, 8, space=47)
    state = with_car(state, 9, space=48)
    state = with_car(state, 0, space=1)
    state, _ = perform(state, "roll", Scripted(choices=["5x", "6xx", "7xx", "8xxx"]))
    state, _ = perform(state, "die", die=0)    # 5 rows on from row 0 (across the line): row 15
    assert state.proposal == 46
    state, _ = perform(state, "land", space=46)
    assert state.cars[0].markers == ("3-Crn",)


def test_three_wide_on_a_straight(data):
    state = started(3)
    state = with_car(state, 8, space=38)
    state = with_car(state, 9, space=39)
    state, _ = perform(state, "roll", Scripted(choices=["5x", "6xx", "7xx", "8xxx"]))
    state, _ = perform(state, "die", die=3)    # 8 rows: row 12, a straight
    state, _ = perform(state, "land", space=37)
    assert "3-Str" in state.cars[0].markers


def _check(state, cards):
    """The incident check with these cards; every proposed wreck confirmed."""
    state = rules.apply(state, {"kind": "check", "cards": cards, "pile": [], "discard": cards})
    while state.phase == rules.WRECK:
        state, _ = perform(state, "wreck")
    return state


def test_brake_trigger_gives_damage_and_the_track_stays_green(data):
    state = evolve(started(3), phase=rules.CHECK)
    state = with_car(state, 2, markers=("Brake",))
    state = with_car(state, 3, markers=("Engine",))
    state = with_car(state, 4, markers=("Bump",))
    trigger = card_index(state, trigger=("Brake", "Engine"))
    state = _check(state, [trigger])
    assert state.cars[2].damage == 1 and state.cars[3].handling == 1
    assert state.cars[4].damage == 0                   # not triggered: forgiven
    assert all(not c.markers for c in state.cars)
    assert state.phase == rules.LEADER and not state.yellow


def test_triggered_incident_wrecks_by_the_nearest_car_rule(data):
    state = evolve(started(3), phase=rules.CHECK)
    # grid: car i on space i+1; car 4 (space 5: row 1, middle) has a Bump marker
    state = with_car(state, 4, markers=("Bump",))
    trigger = card_index(state, trigger=("Bump",))
    wreck = card_index(state, flag="yellow", cars=3, damage=2)
    state = _check(state, [trigger, wreck])
    # adjacent to 5 (row 1, middle): 1-3, 4, 6, 7-9; the closest space numbers are 4 and 6:
    # the larger, 6 (car 5). Next to 6 (row 1, outside): 2, 3, 8, 9 adjacent; 8 is closest
    # (car 7).
    damaged = tuple(i for i, c in enumerate(state.cars) if c.damage)
    assert damaged == (4, 5, 7)
    assert all(state.cars[i].damage == 2 for i in damaged)
    assert state.news[1][-1] == (4, 5, 7)
    assert state.yellow and state.phase == rules.CAUTION


def no_skills(state):
    return evolve(state, skills=tuple((0,) * 5 for _ in state.players))


def test_an_automatic_incident_needs_no_trigger_and_a_roof_brings_yellow(data):
    state = no_skills(evolve(started(3), phase=rules.CHECK))
    state = with_car(state, 0, markers=("Incident",), damage=1)
    trigger = card_index(state, trigger=())
    green = card_index(state, flag="green", cars=1, damage=2)
    state = _check(state, [trigger, green])
    assert state.cars[0].damage == 3 and state.cars[0].roof
    assert state.yellow


def test_five_damage_demolishes(data):
    state = no_skills(evolve(started(3), phase=rules.CHECK))
    state = with_car(state, 0, markers=("Incident",), damage=3, roof=True)
    trigger = card_index(state, trigger=())
    state = _check(state, [trigger, card_index(state, flag="green", cars=1, damage=2)])
    assert state.cars[0].out and not state.cars[0].running


def test_race_pace_leader_fuel_tires_laps(data):
    state = evolve(started(3), phase=rules.LEADER)
    state = with_car(state, 1, fuel=1)          # runs out: a lap down
    state = with_car(state, 2, fuel=11)         # past F
    state, _ = perform(state, "pace", Scripted(ints=[6]))   # [2, 2, 5]
    assert state.cars[0].led == 1
    assert state.cars[0].lap == 5 and state.cars[0].fuel == 8 and state.cars[0].tires == (1, 1, 0, 0)
    assert state.cars[1].lap == 4 and state.cars[1].fuel == 0 and state.cars[1].dry == 1
    assert state.cars[2].fuel == 9
    assert state.phase == rules.PITS
    # car 1 is on E: it must pit before anyone may say "no more pits"
    assert [m.kind for m in rules.moves(state)] == ["pit"]


def test_lap_markers_reset_when_all_are_face_down(data):
    state = evolve(started(3), phase=rules.LEADER)
    state = evolve(state, cars=tuple(evolve(c, face_up=False) for c in state.cars))
    state, _ = perform(state, "pace", Scripted(ints=[1]))
    assert all(c.face_up for c in state.cars)


def test_green_flag_pit_stop_timing(data):
    state = evolve(started(3), phase=rules.LEADER)
    state = with_car(state, 0, space=31, lap=10, tires=(3, 3, 2, 1), fuel=1, damage=1)
    state, _ = perform(state, "pace", Scripted(ints=[1]))     # [1, 0, 2]: lap 12, fuel 0
    state, _ = perform(state, "pit", car=0)
    state, _ = perform(state, "done")
    state, event = perform(state, "stop", Scripted(ints=[1, 4]), stop="full", extra=True)
    car = state.cars[0]
    assert event["rolls"] == [1, 4]
    assert car.tires == (0, 0, 0, 0) and car.fuel == 10 and car.damage == 0
    # time 12 + 3: 15 rows back from row 10 crosses the line backwards: lap 12 - 1 - 1
    assert car.lap == 10 and car.space == track_space(10 + 15 - 20, 0)
    assert state.phase == rules.DEAL


def track_space(r, ln):
    from companion.games.three_wide import track
    return track.space_at(r, ln)


def test_three_damage_after_adjustments_stay_in_the_pits(data):
    state = evolve(started(3), phase=rules.LEADER)
    state = with_car(state, 0, damage=4, roof=False)
    state, _ = perform(state, "pace", Scripted(ints=[1]))
    state, _ = perform(state, "pit", car=0)
    state, _ = perform(state, "done")
    state, _ = perform(state, "stop", Scripted(ints=[6]), stop="full", extra=False)
    assert state.cars[0].stuck and not state.cars[0].running
    # next time it must pit, with three adjustment attempts
    assert rules.must_pit(state, 0)
    assert rules.attempts(state, 0, "splash", False) == 3


def _yellow(state):
    return evolve(state, phase=rules.CAUTION, yellow=True)


def test_restart_grid_pit_times_and_a_wave_around(data):
    state = _yellow(started(3))
    # cars 0, 2 and 3 are the only ones on the lead lap, and they all pit
    laps = [10, 9, 10, 10, 9, 9, 9, 9, 9, 9, 9, 9]
    state = evolve(state, cars=tuple(evolve(c, lap=laps[i]) for i, c in enumerate(state.cars)))
    state, _ = perform(state, "caution", Scripted(ints=[1]))          # +2 laps for all: 12 / 11
    assert state.phase == rules.YPIT
    for c in (3, 0, 2):
        state, _ = perform(state, "pit", car=c)
    state, _ = perform(state, "stay")
    assert state.boxes == (0, 2, 3)                                    # boxes in race order
    state, _ = perform(state, "stop", stop="one-side", extra=False)                   # 7 + box 1 = 8
    state, _ = perform(state, "stop", stop="splash", extra=False)                     # 3 + box 2 = 5
    state, _ = perform(state, "stop", Scripted(ints=[6]), stop="splash", extra=True)  # 3 + 3 + box 3 = 9
    grid, waved = state.restarts[-1]
    stayed = (1, 4, 5, 6, 7, 8, 9, 10, 11)
    # the cars that stayed out are a lap down and ahead of the leader (car 2, fastest stop):
    # waved around to the back of the grid, a lap gained each
    assert waved == stayed
    assert grid == (2, 0, 3) + stayed
    assert all(state.cars[c].lap == 12 for c in range(12))
    assert state.cars[2].led == 1
    assert [state.cars[c].space for c in grid] == list(range(1, 13))
    assert not state.yellow and state.phase == rules.DEAL and all(c.face_up for c in state.cars)
    assert state.fill           # a restart turn fills the hands to five


def test_cars_that_stayed_out_line_up_first_in_race_order(data):
    state = _yellow(started(3))
    state, _ = perform(state, "caution", Scripted(ints=[1]))
    state, _ = perform(state, "pit", car=0)
    state, _ = perform(state, "stay")
    state, _ = perform(state, "stop", stop="splash", extra=False)
    grid, waved = state.restarts[-1]
    assert grid == tuple(range(1, 12)) + (0,) and waved == ()
    assert state.cars[1].led == 1


def test_equal_pit_times_line_up_in_pit_box_order(data):
    state = _yellow(started(3))
    state, _ = perform(state, "caution", Scripted(ints=[1]))
    for c in (2, 3):
        state, _ = perform(state, "pit", car=c)
    state, _ = perform(state, "stay")
    state, _ = perform(state, "stop", stop="one-side", extra=False)                  # 7 + box 1 = 8
    state, _ = perform(state, "stop", Scripted(ints=[6]), stop="splash", extra=True)  # 3 + 3 + box 2 = 8
    grid, _ = state.restarts[-1]
    assert grid[-2:] == (2, 3)          # box 1 finished its stop first


def test_cars_on_their_roofs_must_pit_after_the_others(data):
    state = _yellow(started(3))
    state = with_car(state, 0, roof=True, damage=3)
    state, _ = perform(state, "caution", Scripted(ints=[1]))
    assert all(m.arg("car") != 0 for m in rules.moves(state) if m.kind == "pit")
    state, _ = perform(state, "pit", car=5)
    state, _ = perform(state, "stay")
    assert state.boxes == (5, 0)


def test_finishing_under_yellow_plays_one_green_white_checker_turn(data):
    state = _yellow(started(3))
    state = evolve(state, cars=tuple(evolve(c, lap=state.settings.laps - 1) for c in state.cars))
    state, _ = perform(state, "caution", Scripted(ints=[1]))
    assert state.gwc == 1
    state, _ = perform(state, "stay")
    assert state.gwc == 2 and state.phase == rules.DEAL
    state = skip_tactics(state)
    # play the turn: every roller takes its first die and lands where proposed
    rng = random.Random(3)
    while state.phase in (rules.ROLL, rules.CHOOSE, rules.PLACE):
        move = next(m for m in rules.moves(state) if m.primary)
        state = rules.apply(state, rules.resolve(state, move, rng))
    # the incident check never shows yellow in this turn, whatever the card
    state = with_car(state, 6, markers=("Incident",))
    state = _check(state, [card_index(state, trigger=()), card_index(state, flag="yellow")])
    assert not state.yellow and state.phase == rules.LEADER
    before = state.cars[6]
    state, _ = perform(state, "pace", Scripted(ints=[6]))
    after = state.cars[6]
    assert (before.fuel - after.fuel, after.lap - before.lap, after.tires) == (1, 2, before.tires)
    assert rules.finished(state)


def test_green_finish_ends_at_the_leader_phase(data):
    state = evolve(started(3), phase=rules.LEADER)
    state = with_car(state, 0, lap=state.settings.laps - 2)
    state, _ = perform(state, "pace", Scripted(ints=[1]))
    assert rules.finished(state) and rules.moves(state) == []


def test_scoring_with_bonuses_and_associated_cars(data):
    state = started(5)            # 10 team cars, 2 associated (to players 5 and 4)
    assert [(c.owner, c.team) for c in state.cars[10:]] == [(4, False), (3, False)]
    order = [10, 0, 2, 4, 6, 8, 1, 3, 5, 7, 9, 11]
    cars = list(state.cars)
    for pos, c in enumerate(order):
        cars[c] = evolve(cars[c], lap=50, space=pos + 1)
    cars[10] = evolve(cars[10], led=3)
    cars[0] = evolve(cars[0], led=3)
    cars[2] = evolve(cars[2], led=1)
    state = evolve(state, cars=tuple(cars))
    rows = rules.standings(state)
    assert rows[0]["name"] == "#71 Black" and rows[0]["points"] == 12 + 3 + 1 + 1
    assert rows[1]["points"] == 11 + 1 + 1            # #11: led, ties for most
    assert rows[2]["points"] == 10 + 1
    assert rows[-1]["points"] == 1
    players = {r["name"]: r for r in rules.player_scores(state)}
    # Black (player 5): team cars 8 (6th, 7 pts) and 9 (11th, 2 pts); associated #71: 17 -> 8
    assert players["Black"]["team"] == 7 + 2 and players["Black"]["associated"] == 17
    assert players["Black"]["points"] == 9 + 8
    # Green (player 4): associated #72 last (1 pt) halves to 0
    assert players["Green"]["associated"] == 1 and players["Green"]["points"] == players["Green"]["team"]


def test_events_that_do_not_fit_are_refused(data):
    state = started(3)
    with pytest.raises(RuleError):
        rules.apply(state, {"kind": "roll", "car": 7, "faces": ["5x"] * 4})
    with pytest.raises(RuleError):
        rules.apply(state, {"kind": "roll", "car": 0, "faces": ["zz"] * 4})
    with pytest.raises(RuleError):
        rules.apply(state, {"kind": "nonsense"})


def test_the_table_corrects_a_wreck(data):
    state = evolve(started(3), phase=rules.CHECK)
    state = with_car(state, 4, markers=("Bump",))
    trigger = card_index(state, trigger=("Bump",))
    wreck = card_index(state, flag="green", cars=2, damage=1)
    state = rules.apply(state, {"kind": "check", "cards": [trigger, wreck], "pile": [], "discard": []})
    assert state.phase == rules.WRECK and state.wreck_cars == (4, 5)      # the rule: space 6 (car 5)
    state, _ = perform(state, "swap", car=3)                              # it was car 3 (space 4)
    assert state.wreck_cars == (4, 3)
    state, _ = perform(state, "wreck")
    assert [c.damage for c in state.cars[3:6]] == [1, 1, 0]
    assert state.phase == rules.LEADER


def test_a_wreck_can_be_made_smaller(data):
    state = evolve(started(3), phase=rules.CHECK)
    state = with_car(state, 4, markers=("Incident",))
    wreck = card_index(state, flag="green", cars=3, damage=1)
    state = rules.apply(state, {"kind": "check", "cards": [card_index(state, trigger=()), wreck],
                                "pile": [], "discard": []})
    assert len(state.wreck_cars) == 3
    dropped = state.wreck_cars[2]
    state, _ = perform(state, "drop", car=dropped)
    state, _ = perform(state, "wreck")
    assert state.cars[dropped].damage == 0 and state.cars[4].damage == 1


def test_the_table_adds_a_movement_incident_the_companion_did_not_see(data):
    state = started(3)
    state, _ = perform(state, "roll", Scripted(choices=["5x", "6xx", "7xx", "8xxx"]))
    state, _ = perform(state, "die", die=1)
    state, _ = perform(state, "land", space=state.proposal)
    assert state.cars[0].markers == ()
    state, _ = perform(state, "mark", car=0, marker="3-Str")
    assert state.cars[0].markers == ("3-Str",)
    assert all(m.arg("marker") != "3-Str" for m in rules.moves(state))     # one of a kind per car
    # both 3-Str markers in use: none offered
    state = with_car(state, 7, markers=("3-Str",))
    state = with_car(state, 0, markers=())
    state = with_car(state, 8, markers=("3-Str",))
    assert all(m.arg("marker") != "3-Str" for m in rules.moves(state))


def test_green_stops_are_declared_then_serviced_in_race_order(data):
    state = evolve(started(3), phase=rules.LEADER)
    state, _ = perform(state, "pace", Scripted(ints=[1]))
    for c in (7, 2, 5):
        state, _ = perform(state, "pit", car=c)
    assert state.phase == rules.PITS
    state, _ = perform(state, "done")
    served = []
    while state.phase == rules.SERVICE:
        served.append(state.car)
        state, _ = perform(state, "stop", stop="splash", extra=False)
    assert served == [2, 5, 7] and state.phase == rules.DEAL
