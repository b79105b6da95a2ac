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


def test_each_corner_is_suggested_after_the_one_before_and_the_pit_after_the_last():
    items = {"corners": [{"at": 12, "length": 3, "stops": 2}]}
    assert C.DESCRIBE.suggest({"length": 80}, items, "corners", 1, "at") == 23
    assert C.DESCRIBE.suggest({"length": 80}, items, None, 0, "pit") == 17
    assert C.DESCRIBE.suggest({"length": 80}, {}, "corners", 0, "at") is None
