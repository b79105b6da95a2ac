"""The circuit a race follows: chosen at setup among the data's circuits, described on the
box (the answers made into a checked circuit), and named as a stand-in when it is one."""

import pytest

from companion.games.api import DESCRIBE
from companion.games.formula_de import circuit as C
from companion.games.formula_de import rules as R
from companion.kit.errors import DataError, RuleError

from .helpers import BUILT_IN, data

MONACO = {"label": "Monaco", "length": 90, "corners": [{"at": 12, "length": 3, "stops": 2}], "pit": 60,
          "weather": {"rain": [1, 6], "changeable": [7, 12], "good": [13, 20]}}


def test_setup_follows_the_circuit_chosen():
    circuits = {**BUILT_IN["circuits"], "monaco": MONACO}
    state = R.setup({"players": 2, "circuit": "monaco"}, data(circuits=circuits))
    assert state.settings.circuit.label == "Monaco" and state.settings.circuit.corners[0].stops == 2


def test_an_unknown_circuit_is_refused_with_the_circuits_there_are():
    with pytest.raises(RuleError, match="no circuit 'monza'.*default, road"):
        R.setup({"players": 2, "circuit": "monza"}, data())


def test_the_choices_suit_the_race_and_circuit_races_may_describe_one():
    circuits = {**BUILT_IN["circuits"], "monaco": MONACO}
    assert C.choices(data(circuits=circuits), {"race": "circuit"}) == (
        ("default", "Example circuit"), ("monaco", "Monaco"), (DESCRIBE, "Describe a circuit"))
    assert C.choices(data(circuits=circuits), {"race": "road"}) == (("road", "Example road"),)


def test_the_built_in_circuits_are_named_stand_ins_with_their_numbers_an_assumption():
    for key in ("default", "road"):
        entry = BUILT_IN["circuits"][key]
        assert entry["label"].startswith("Example") and "stand-in" in entry["assumption"]


def test_the_answers_of_a_description_make_a_circuit_the_pack_accepts():
    answers = {"length": 80, "count": 2, "pit": 60, "rain": 6, "changeable": 12}
    items = {"corners": [{"at": 12, "length": 3, "stops": 2}, {"at": 30, "length": 5, "stops": 1}]}
    entry = C.described(answers, items)
    assert entry["weather"] == {"rain": [1, 6], "changeable": [7, 12], "good": [13, 20]}
    circuit = C.load({"circuits": {"mine": entry}}, "mine")
    assert [(c.at, c.end, c.stops) for c in circuit.corners] == [(12, 14, 2), (30, 34, 1)]
    with pytest.raises(DataError, match="changeable must end after rain"):
        C.described({**answers, "changeable": 6}, items)


def asking(answers, items, group, index, key, cars=10):
    from companion.games.api import Asking
    return Asking(answers, items, group, index, key, cars)


def test_each_corner_is_suggested_after_the_one_before_and_the_pit_just_after_the_last():
    lap = {"length": 90, "count": 8}
    items = {"corners": [{"at": 12, "length": 3, "stops": 2}]}
    # the room left (15-78) shared among the 7 corners to come, 3 spaces each
    assert C.DESCRIBE.suggest(asking(lap, items, "corners", 1, "at")) == 15 + (78 - 14 - 7 * 3) // 8
    assert C.DESCRIBE.suggest(asking(lap, items, "corners", 1, "length")) == 3
    assert C.DESCRIBE.suggest(asking(lap, items, "corners", 1, "stops")) == 1
    longer = {"corners": [items["corners"][0], {"at": 20, "length": 6}]}
    assert C.DESCRIBE.suggest(asking(lap, longer, "corners", 1, "stops")) == 3    # a stop for every two spaces
    assert C.DESCRIBE.suggest(asking(lap, {}, "corners", 0, "at")) == 1 + (78 - 8 * 3) // 9
    one = {**lap, "count": 1}
    assert C.DESCRIBE.suggest(asking(one, items, "pit", 0, "pit")) == 16


def test_each_answer_is_bounded_by_the_ones_before_and_the_grid_of_the_race():
    lap = {"length": 90, "count": 8}
    items = {"corners": [{"at": 12, "length": 3, "stops": 2}, {"at": 20, "length": 4}]}
    limits = C.DESCRIBE.limits
    assert limits(asking(lap, items, "corners", 1, "at")) == (15, 78 - 6)        # a space for each after
    assert limits(asking(lap, items, "corners", 1, "length")) == (1, 12)
    assert limits(asking(lap, {"corners": [{}, {"at": 70}]}, "corners", 1, "length")) == (1, 3)
    assert limits(asking(lap, items, "corners", 1, "stops")) == (1, 3)
    assert limits(asking(lap, {"corners": [{"at": 5, "length": 2}]}, "corners", 0, "stops")) == (1, 2)
    assert limits(asking(lap, items, "corners", 1, "at", cars=4)) == (15, 84 - 6)  # 4 cars: spaces 85-89
    assert limits(asking({**lap, "count": 2}, items, "pit", 0, "pit")) == (24, 89)   # after the last corner
    assert limits(asking({"rain": 6}, {}, "pit", 0, "changeable")) == (7, 19)
    assert C.DESCRIBE.note(asking(lap, items, "corners", 1, "at")) == "grid 79-89"
    assert C.DESCRIBE.note(asking(lap, {}, "lap", 0, "length", cars=6)) == "grid 83-89, 6 cars"


def test_the_grid_s_room_follows_the_cars_of_the_race():
    from companion.kit.errors import RuleError
    assert [C.grid_room(n) for n in (2, 4, 10)] == [3, 5, 11]
    entry = {"length": 90, "corners": [{"at": 80, "length": 3, "stops": 1}], "pit": 84,
             "weather": {"rain": [1, 8], "changeable": [9, 14], "good": [15, 20]}}
    circuit = C.load({"circuits": {"mine": entry}}, "mine")       # room for a grid of 4
    C.check_grid(circuit, 4)
    with pytest.raises(RuleError, match="10 cars need spaces 79-89 for the grid"):
        C.check_grid(circuit, 10)


