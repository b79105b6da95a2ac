"""The registry's entries are what the home menu knows before anything of a pack is loaded:
they must say what the packages say."""

import importlib.util

import pytest

from companion.core.config import load_toml
from companion.games import data, registry

ENTRIES = [*registry.GAMES.values(), *registry.TOOLS.values()]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.slug)
def test_playable_is_declared_as_the_package_has_it(entry):
    assert entry.playable == (importlib.util.find_spec(entry.package + ".pack") is not None)


@pytest.mark.parametrize("slug", list(registry.GAMES))
def test_a_games_title_is_the_name_in_its_data(slug):
    assert load_toml(data.data_path(slug))["game"]["name"] == registry.GAMES[slug].title


def test_an_owners_file_renames_a_game_everywhere_and_a_broken_one_does_not(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    (games / "lacorsa.toml").write_text('[game]\nname = "Corsa at home"\n')
    (games / "3-wide.toml").write_text('[game]\nname = "3-Wide"\nplayers = [2\n')   # not TOML
    (games / "top-speed.toml").write_text('[game]\nname = "  "\n')                  # no name
    (games / "notes.txt").write_text("not a game file")
    entries = registry.playable()
    titles = dict(zip([e.slug for e in entries], data.titles(entries, tmp_path)))
    assert titles["lacorsa"] == data.title("lacorsa", tmp_path) == "Corsa at home"
    assert titles["3-wide"] == "3-Wide" and titles["top-speed"] == "Top Speed" and titles["dice"] == "Dice roller"
    (games / "lacorsa.toml").write_text('[game]\nname = "Corsa"\n')                  # edited: read again
    assert data.title("lacorsa", tmp_path) == "Corsa"
    assert data.titles(entries, tmp_path / "nowhere") == [e.title for e in entries]
