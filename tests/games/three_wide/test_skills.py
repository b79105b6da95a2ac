"""Skills (1.4 and appendix A): bought with 8 points a team, used from the dashboard."""

import pytest

from companion.games.three_wide import rules, tables
from companion.kit.errors import RuleError
from companion.kit.update import evolve
from tests.games.three_wide.helpers import Scripted, card_index, perform, started, with_car

ORDER = tables.SKILLS   # experience, fast-pit, great-save, major-repair, quick-fix


def team(name, **points):
    return {"name": name, "colour": name, "skills": {"none": 0, **points}}


def test_points_buy_tokens_at_their_cost(data):
    state = rules.setup({"players": [team("Red", **{"fast-pit": 4, "quick-fix": 3}), team("Blue"), team("Green")]}, data)
    assert state.skills[0] == (0, 2, 0, 0, 1)          # 4 points: two Fast Pit; 3 points: one Quick Fix
    with pytest.raises(RuleError):
        rules.setup({"players": [team("Red", **{"fast-pit": 10}), team("Blue"), team("Green")]}, data)
    with pytest.raises(RuleError):
        rules.setup({"players": [team("Red", nitro=2), team("Blue"), team("Green")]}, data)


def _green_stop(state, c):
    state = evolve(state, phase=rules.PITS, pitted=())
    state, _ = perform(state, "pit", car=c)
    state, _ = perform(state, "done")
    return state


def test_fast_pit_stop_takes_time_off_a_green_stop(data):
    state = started(3)
    state = with_car(state, 0, space=31, lap=10)
    state = _green_stop(state, 0)
    state, _ = perform(state, "skill", car=0, skill="fast-pit")
    assert state.skills[0][ORDER.index("fast-pit")] == 0          # the default team had one
    assert all(m.arg("skill") != "fast-pit" for m in rules.moves(state))     # one per stop
    state, _ = perform(state, "stop", stop="splash", extra=False)            # 3 - 2 = 1 row back
    assert state.cars[0].space == 34 and state.cars[0].lap == 9


def test_quick_fix_and_major_repair_remove_damage(data):
    state = started(3)
    state = with_car(state, 0, damage=4, tires=(3, 3, 3, 3), fuel=1)
    state = _green_stop(state, 0)
    state, _ = perform(state, "skill", car=0, skill="quick-fix")
    state, event = perform(state, "stop", Scripted(ints=[6]), stop=rules.MAJOR, extra=True)
    car = state.cars[0]
    assert event["rolls"] == [6]                      # the extra adjustment, last: fails
    assert car.damage == 1 and car.tires == (0, 0, 0, 0) and car.fuel == state.settings.tank
    assert state.news[0][-2] == 3
    assert state.skills[0][ORDER.index("major-repair")] == 0


def test_major_repair_time_under_yellow_is_16_plus_the_box(data):
    state = evolve(started(3), phase=rules.CAUTION, yellow=True)
    state, _ = perform(state, "caution", Scripted(ints=[1]))
    state, _ = perform(state, "pit", car=0)
    state, _ = perform(state, "stay")
    state, _ = perform(state, "stop", stop=rules.MAJOR, extra=False)
    assert state.restarts[-1][0][-1] == 0
    assert state.news[0][2] == rules.MAJOR


def test_great_save_keeps_a_car_off_its_roof(data):
    state = evolve(started(3), phase=rules.CHECK)
    state = with_car(state, 0, markers=("Incident",), damage=1)
    trigger = card_index(state, trigger=())
    big = card_index(state, flag="green", cars=1, damage=2)
    state = rules.apply(state, {"kind": "check", "cards": [trigger, big], "pile": [], "discard": []})
    state, _ = perform(state, "wreck")
    assert state.cars[0].damage == 1 and not state.cars[0].roof
    assert state.skills[0][ORDER.index("great-save")] == 0
    assert not state.yellow


def test_experience_rerolls_the_tire_dice_once(data):
    state = started([team("Red", experience=2), team("Blue"), team("Green")])
    state, _ = perform(state, "roll", Scripted(choices=["5x", "5x", "5x", "6xx"]))
    state, event = perform(state, "experience", Scripted(choices=["8xxx", "7xx", "5xs", "6xx"]), car=0)
    assert state.faces == ("8xxx", "7xx", "5xs", "6xx") and state.phase == rules.CHOOSE
    assert all(m.kind != "experience" for m in rules.moves(state))
    assert state.skills[0][ORDER.index("experience")] == 0
