"""The built-in data file, loaded the way the app loads it, and an owner's override."""

from collections import Counter

import pytest


from companion.games import data as game_data
from companion.core.config import ConfigError
from companion.games.top_speed import rules as R


def test_data_file_loads_through_the_platform_loader_and_marks_its_assumptions():
    data = game_data.load("top-speed")
    deck = game_data.decks("top-speed")["team"]
    assert len(deck) == 72
    counts = Counter(c.name for c in deck)
    assert counts["Safety Car"] >= 2 and counts["Yellow Flag"] >= 1 and counts["Off Track"] >= 1
    assert {c.name for c in deck if c.get("trouble")} == {
        "Tire Trouble", "Engine Trouble", "Off Track", "Safety Car", "Yellow Flag", "Drive Through"}
    assert "assumption" in data["decks"]["team"]
    assert "assumption" in data["circuit"] and "assumption" in data["points"]["race"]
    assert data["circuit"]["laps"] == 66
    assert data["game"]["players"] == [2, 8]
    assert all(len(str(c.get("short"))) <= 4 for c in deck)


def test_owner_override_corrects_the_deck_and_the_circuit(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "top-speed.toml").write_text(
        '[circuit]\nspaces = 52\n[race_types.normal]\nremove = { "Safety Car" = 2, "Yellow Flag" = 1, "Off Track" = 1 }\n',
        encoding="utf-8")
    data = game_data.load("top-speed", tmp_path)
    state = R.setup({"players": 3, "race": "normal"}, data)
    assert state.settings.spaces == 52
    assert len(state.cars[0].pile.draw) == 68
    assert not any(c.name == "Safety Car" for c in state.cars[0].pile.draw)


def test_owner_override_with_a_mistake_names_the_key(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "top-speed.toml").write_text('[circuit]\nspaces = "forty"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"circuit\.spaces: must be a whole number") as err:
        R.setup({"players": 3}, game_data.load("top-speed", tmp_path))
    assert str(tmp_path / "games" / "top-speed.toml") in str(err.value)   # the owner's file, named


def test_options_default_to_the_data_file():
    state = R.setup({"players": 4}, game_data.load("top-speed"))
    assert state.laps_left == 66 and state.settings.race_type == "normal"
    assert [o.key for o in R.OPTIONS] == ["players", "race", "laps", "grid", "fastest_lap", "kers"]
    assert all(len(label) <= 14 for o in R.OPTIONS for _, label in o.choices)
