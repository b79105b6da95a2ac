"""Starting positions: by age, and the Tactical Starting Positions bidding."""

import pytest

from companion.core.config import ConfigError
from companion.games.street_illegal import rules
from tests.games.street_illegal.helpers import car, names, passed_review, perform, players, start


def test_by_age_youngest_last_old_pros_in_front(data):
    state = start(rules.setup({"players": players("Ann", "Ben", "Cat", "Dan"), "grid": "age"}, data))
    assert state.step == "grid"
    assert [m.label for m in rules.moves(state)] == ["Ann", "Ben", "Cat", "Dan"]
    state, _ = perform(state, "seat", car=car(state, "Cat"))     # youngest: 7th
    state, _ = perform(state, "seat", car=car(state, "Ann"))     # 6th
    state, _ = perform(state, "seat", car=car(state, "Dan"))     # 5th; Ben, eldest, takes 4th
    assert state.step == "lineup"                                 # the grid is shown before the race
    state = passed_review(state)
    assert state.step == "race"
    assert names(state, state.grid) == ["Old Pro 1", "Old Pro 2", "Old Pro 3", "Ben", "Dan", "Ann", "Cat"]
    assert state.current_player == car(state, "Ben")              # phase 1 starts at the front


def test_solo_races_six_old_pros(data):
    state = start(rules.setup({"players": players("Solo")}, data))
    assert state.step == "lineup"
    state = passed_review(state)
    assert state.step == "race"
    assert names(state, state.order) == [f"Old Pro {k}" for k in range(1, 7)] + ["Solo"]


def test_seven_players_no_old_pros(data):
    state = rules.setup({"players": 7}, data)
    assert not any(c.old_pro for c in state.cars) and len(state.cars) == 7
    with pytest.raises(rules.RuleError):
        rules.setup({"players": 8}, data)


def test_tactical_bidding_with_a_tie(data):
    state = start(rules.setup({"players": players("Ann", "Ben", "Cat"), "grid": "tactical"}, data))
    ann, ben, cat = car(state, "Ann"), car(state, "Ben"), car(state, "Cat")
    # position 7: Ann 20, Ben 20, Cat 50 -> Ann and Ben alone bid again
    for who, value in ((ann, 20), (ben, 20), (cat, 50)):
        assert state.current_player == who
        state, _ = perform(state, "bid", car=who, card=value)
    assert state.bidders == (ann, ben) and state.seated == ()
    state, _ = perform(state, "bid", car=ann, card=40)
    state, _ = perform(state, "bid", car=ben, card=30)
    assert state.seated == (ben,)                                 # Ben put down the slowest: 7th
    # position 6: Ann and Cat bid; Cat slower -> 6th, Ann the last one left -> 5th
    state, _ = perform(state, "bid", car=ann, card=60)
    state, _ = perform(state, "bid", car=cat, card=10)
    assert state.step == "lineup"
    state = passed_review(state)
    assert state.step == "race"
    assert names(state, state.order)[4:] == ["Ann", "Cat", "Ben"]
    assert [m.label for m in rules.moves(state)] == ["All done", "Ann done"]   # phase 1: one press for all


def test_bid_labels_and_out_of_turn_bid(data):
    state = start(rules.setup({"players": players("Ann", "Ben"), "grid": "tactical"}, data))
    assert [m.label for m in rules.moves(state)] == [f"Card {v}" for v in range(10, 61, 10)]
    with pytest.raises(rules.RuleError):
        rules.apply(state, {"kind": "bid", "car": car(state, "Ben"), "card": 10})


def test_unknown_grid_option(data):
    with pytest.raises(ConfigError, match="grid"):
        rules.setup({"players": 2, "grid": "random"}, data)


def test_go_alone_never_ties_and_the_screen_says_how_to_change_the_card(data):
    """Each bidder's footer starts on another card: GO, GO, GO seats a car, no tie loop."""
    from companion.games.street_illegal import screens
    from companion.kit.turns import primary
    state = start(rules.setup({"players": players("Ann", "Ben", "Cat"), "grid": "tactical"}, data))
    texts = [getattr(w, "text", "") for w in screens.view(state).body]
    assert any("\u2191\u2193" in t and "card" in t for t in texts), texts
    offered = []
    for _ in range(3):
        move = primary(rules.moves(state))
        offered.append(move.label)
        state, _ = perform(state, "bid", car=state.current_player, card=int(move.label.split()[-1]))
    assert len(set(offered)) == 3 and len(state.seated) == 1      # no "Tie at": a car is seated
    assert not any("Tie" in getattr(w, "text", "") for w in screens.view(state).body)
