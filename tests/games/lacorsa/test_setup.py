"""Setup: race type by the number of players, colours, human and automated cars, the deal."""

import random
from collections import Counter

import pytest

from companion.core.config import ConfigError
from companion.games import data as game_data
from companion.games.api import make_move
from companion.kit.errors import DataError, RuleError
from companion.games.lacorsa import rules as R

from tests.games.lacorsa.helpers import data, deal, new


@pytest.mark.parametrize("players, cars", [(2, 4), (3, 6), (4, 4), (5, 5), (6, 6)])
def test_race_type_by_the_number_of_players(players, cars):
    state = new(players)
    assert len(state.cars) == cars
    owners = Counter(c.owner for c in state.cars)
    assert set(owners.values()) == {cars // players}


def test_two_cars_per_player_have_their_own_colours_and_one_owner():
    state = new(2)
    assert [c.colour for c in state.cars] == ["Red", "Yellow", "Blue", "Green"]
    assert len({c.name for c in state.cars}) == 4
    assert state.team(0) == (0, 1) and state.team(2) == (2, 3)


def test_a_named_player_with_two_cars():
    players = [{"name": "Anna", "colour": "Red"}, {"name": "Ben", "colour": "Blue", "driver": "auto"}]
    state = R.setup({"players": players}, data())
    assert [c.name for c in state.cars] == ["Anna 1", "Anna 2", "Ben 1", "Ben 2"]
    assert [c.auto for c in state.cars] == [False, False, True, True]


def test_any_mix_of_human_and_automated_cars():
    state = new(4, autos={1: "racer", 3: "steady"})
    assert state.autos == (1, 3) and state.humans == (0, 2)
    assert state.cars[1].level == "racer" and state.cars[3].level == "steady"


def test_the_demo_form_of_per_car_answers():
    state = R.setup({"players": 4, "cars": [{}, {"driver": "auto", "level": "racer"}]}, data())
    assert state.autos == (1,) and state.cars[1].level == "racer"


def test_the_device_deals_the_automated_cars_their_suits_only():
    state = new(4, autos={1: "steady", 3: "racer"})
    event = R.resolve(state, R.moves(state)[0], random.Random(5))
    assert event["kind"] == "deal" and len(event["hands"]) == 2
    assert all(len(h) == 13 for h in event["hands"])
    assert Counter(event["hands"][0] + event["hands"][1]) == state.settings.suit_counts(2)
    state = R.apply(state, event)
    assert state.step == R.QUALIFY
    assert state.hands[0] == () and state.hands[2] == ()     # humans' hands: at the table
    assert sorted(state.hands[1]) == sorted(event["hands"][0])


def test_a_deal_of_other_cards_is_refused():
    state = new(4, autos={1: "steady"})
    with pytest.raises(RuleError):
        R.apply(state, {"kind": "deal", "hands": [["R"] * 13]})


def test_an_all_human_table_deals_the_physical_deck():
    state = new(4)
    assert R.moves(state)[0].label == "Cards dealt"
    assert R.resolve(state, R.moves(state)[0], random.Random(1)) == {"kind": "deal", "hands": []}


def test_humans_enter_only_cards_their_suits_hold():
    state = deal(new(4, autos={1: "steady"}))
    labels = [m.label for m in R.moves(state)]
    assert "Auto cards" not in labels and labels[0] == "Blue plays"
    state = R.apply(state, R.resolve(state, R.moves(state)[0], random.Random(1)))
    entry = R.moves(state)
    # from the middle card DOWN lowers, UP (wrapping round) raises
    assert [m.label for m in entry] == ["7", "6", "5", "4", "Drafting 3", "Extend 2", "Extend 1", "Cards left",
                                        "R + a card", "R", "Champion 12", "11", "10", "9", "8"]
    assert all(len(m.label) <= 14 for m in entry)
    state = R.apply(state, R.resolve(state, entry[-3], random.Random(1)))   # Red played its 10
    entry = R.moves(state)
    assert entry[0].player == "Yellow" and "10" in [m.label for m in entry]  # three table suits
    state = R.apply(state, {"kind": "redline", "car": 2})
    combos = [m.label for m in R.moves(state)]
    assert combos[0] == "R + 7" and "R + R" in combos and combos[-1] == "R + 8" and "Back" in combos


@pytest.mark.parametrize("bad", [{"players": 7}, {"players": 1}, {"players": "four"}, {"players": [1, 2]}])
def test_nonsense_options_are_a_rule_error(bad):
    with pytest.raises(RuleError):
        R.setup(bad, data())


@pytest.mark.parametrize("over, key", [
    ({"decks": {"suit": {"cards": [{"name": "9", "kind": "wild", "value": 9}]}}}, "kind"),
    ({"decks": {"suit": {"cards": [{"name": "9", "kind": "standard", "value": "nine"}]}}}, "value"),
    ({"setup": {"cards_per_car": 12}}, "cards_per_car"),
    ({"setup": {"cars_per_player": {"3": 3}}}, "cars_per_player"),
    ({"dice": {"tie": {"label": "Tie die", "faces": [4, 4]}}}, "faces"),
])
def test_unusable_data_is_refused_with_its_key(over, key):
    with pytest.raises(RuleError) as exc:
        R.check_data(data(**over))
    assert key in str(exc.value)


@pytest.mark.parametrize("table, value", [("points", "x"), ("dice", {"tie": 5}), ("setup", []),
                                          ("decks", {"suit": "x"}), ("points", {"race": "x"})])
def test_an_owners_nonsense_table_is_a_data_error_not_a_crash(table, value):
    broken = data()
    broken[table] = value
    with pytest.raises(DataError) as exc:
        R.setup({"players": 4}, broken)
    assert exc.value.keys[0] == table


def test_the_loader_names_the_owners_file(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    (games / "lacorsa.toml").write_text('[setup]\ncards_per_car = 10\n')
    game_data.clear_cache()
    try:
        with pytest.raises(ConfigError) as exc:
            game_data.load("lacorsa", override_dir=tmp_path)
        assert "lacorsa.toml" in str(exc.value) and "cards_per_car" in str(exc.value)
    finally:
        game_data.clear_cache()


def test_owner_points_are_used():
    state = R.setup({"players": 4}, data(points={"race": {"label": "Pts", "positions": [25, 18, 15, 12]}}))
    assert state.settings.points == (25, 18, 15, 12)


def test_moves_name_their_player():
    state = deal(new(4))
    assert all(m.player == "Red" for m in R.moves(state) if m.kind == "plays")
    assert make_move("table", "Cards left", history="Cards left shown") in R.moves(state)
