"""Tire dice (2.3 and appendix B): the rulebook's examples, wear, duplicates and fuel."""

import pytest

from companion.games.three_wide import dice
from tests.games.three_wide.helpers import load_data


def test_the_faces_are_the_published_ones():
    data = load_data()["dice"]
    assert data["tire-black"]["faces"] == ["5x", "5xs", "6xx", "6xx", "7xx", "8xxx"]
    assert data["tire-green"]["faces"] == ["4!", "4s", "5x", "5x", "6xx", "6xx"]
    assert data["tire-yellow"]["faces"] == ["3!", "3!", "4", "4s", "5x", "5x"]
    assert data["tire-red"]["faces"] == ["1!", "1!", "2!", "2!", "3", "3"]
    assert dice.face("5xs") == dice.Face(speed=5, wear=1, save=True, trouble=0)
    assert dice.face("8xxx") == dice.Face(8, 3, False, 0)
    assert dice.face("2!") == dice.Face(2, 0, False, 1)
    assert dice.parse("x5") is None


def test_first_example_5xs_saves_fuel_wears_one_and_moves_7():
    roll = ["5xs", "7xx", "5x", "5x"]
    assert dice.trouble_marker(roll) is None
    f = dice.face(roll[0])
    assert (f.save, f.wear) == (True, 1)
    assert dice.duplicates(roll, 0) == 2
    assert dice.distance(roll, 0) == 7


def test_second_example_two_bangs_a_tire_marker_4s_moves_5():
    roll = ["4!", "3!", "4s", "5x"]
    assert dice.trouble(roll) == 2
    assert dice.trouble_marker(roll) == "Tire"
    assert dice.face(roll[2]).save
    assert dice.distance(roll, 2) == 5


def test_third_example_one_bang_no_marker_8xxx_moves_9():
    roll = ["8xxx", "8xxx", "7xx", "4!"]
    assert dice.trouble_marker(roll) is None
    assert dice.face(roll[0]).wear == 3
    assert dice.distance(roll, 0) == 9


def test_three_or_four_bangs_are_an_automatic_incident():
    assert dice.trouble_marker(["1!", "2!", "3!", "5x"]) == "Incident"
    assert dice.trouble_marker(["1!", "1!", "2!", "2!"]) == "Incident"


def test_damage_slows_and_never_below_zero():
    roll = ["3", "3", "1!", "2!"]
    assert dice.distance(roll, 0) == 4
    assert dice.distance(roll, 0, slowdown=2) == 2
    assert dice.distance(roll, 2, slowdown=5) == 0


def test_choices_are_one_per_distinct_face_fastest_first():
    roll = ["5x", "7xx", "5x", "5xs"]
    assert [roll[i] for i in dice.choices(roll)] == ["7xx", "5x", "5xs"]


@pytest.mark.parametrize("tires, times, after", [
    ((0, 0, 0, 0), 1, (1, 0, 0, 0)),         # black -> green
    ((0, 0, 0, 0), 3, (1, 1, 1, 0)),         # the freshest chip each time
    ((1, 1, 1, 1), 1, (2, 1, 1, 1)),         # green -> yellow
    ((2, 3, 3, 3), 1, (3, 3, 3, 3)),         # yellow -> red
    ((3, 3, 3, 2), 3, (3, 3, 3, 3)),         # red wears no further
    ((3, 3, 3, 1), 2, (3, 3, 3, 3)),         # one chip worn twice: green, yellow, red
    ((3, 3, 3, 3), 2, (3, 3, 3, 3)),
])
def test_tire_wear_chains(tires, times, after):
    assert dice.wear(tires, times) == after


def test_fuel_saved_on_full_goes_past_f_and_back_on_the_next_step():
    assert dice.save_fuel(9, 10) == 10
    assert dice.save_fuel(10, 10) == 11            # outside the F space
    assert dice.save_fuel(11, 10) == 11            # no further
    assert dice.burn(11, 1) == (10, False)         # back onto F


def test_fuel_onto_e_is_fine_past_it_is_out_of_gas():
    assert dice.burn(2, 2) == (0, False)
    assert dice.burn(0, 1) == (0, True)
    assert dice.burn(1, 2) == (0, True)
