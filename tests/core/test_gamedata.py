import pickle
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core import gamedata

from companion.games import data as game_data
from companion.core.config import ConfigError
from companion.games.registry import UnknownName
from tests import fuzzing

MINE = ("3-wide", "formula-de", "lacorsa")


@pytest.fixture(autouse=True)
def fresh_cache():
    game_data.clear_cache()
    yield
    game_data.clear_cache()


def owner_file(state_dir: Path, slug: str, text: str) -> Path:
    path = game_data.override_path(slug, state_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)    # a new file: ext4 flushes a file truncated and written again when it is closed
    path.write_text(text, encoding="utf-8")
    return path


# -- the built-in data -------------------------------------------------------------------

def test_formula_de_gear_dice_have_the_true_faces():
    dice = game_data.dice("formula-de")
    assert dice["gear-1"].faces == (1, 1, 2, 2)
    assert dice["gear-2"].faces == (2, 3, 3, 4, 4, 4)
    assert dice["gear-3"].faces == (4, 5, 6, 6, 7, 7, 8, 8)
    assert dice["gear-4"].faces == tuple(sorted(list(range(7, 13)) * 2))
    assert dice["gear-5"].faces == tuple(sorted(list(range(11, 21)) * 2))
    assert dice["gear-6"].faces == tuple(sorted(list(range(21, 31)) * 3))
    assert dice["black"].faces == tuple(range(1, 21))
    weather = game_data.load("formula-de")["circuits"]["default"]["weather"]
    assert weather == {"rain": [1, 8], "changeable": [9, 14], "good": [15, 20]}


def test_three_wide_tire_dice_and_points():
    dice = game_data.dice("3-wide")
    assert dice["tire-black"].faces == ("5x", "5xs", "6xx", "6xx", "7xx", "8xxx")
    assert dice["tire-green"].faces == ("4!", "4s", "5x", "5x", "6xx", "6xx")
    assert dice["tire-yellow"].faces == ("3!", "3!", "4", "4s", "5x", "5x")
    assert dice["tire-red"].faces == ("1!", "1!", "2!", "2!", "3", "3")
    assert gamedata.dice_sets_of(game_data.load("3-wide"))["tires"]["dice"] == ["tire-black"] * 4
    race = game_data.points_tables("3-wide")["race"]
    assert race["positions"] == list(range(12, 0, -1))
    assert race["bonus"] == {"win": 3, "laps_led": 1, "most_laps_led": 1}


def test_lacorsa_suit_and_unpublished_points_marked_as_assumption():
    suit = game_data.decks("lacorsa")["suit"]
    assert len(suit) == 13
    assert [c.get("value") for c in suit] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0]
    assert suit[-1].name == "R" and suit[-1].get("with_card") == 2
    assert game_data.points_tables("lacorsa")["race"]["assumption"]
    assert game_data.dice("lacorsa")["tie"].assumption


@pytest.mark.parametrize("slug", MINE)
def test_every_label_fits_a_menu_line(slug):
    data = game_data.load(slug)
    for section in ("dice", "decks", "points", "dice_sets"):
        for label in gamedata.labels_of(data, section).values():
            assert len(label) <= 14, label


def test_any_is_the_plain_dice():
    assert game_data.dice(gamedata.ANY) == {} and game_data.decks(gamedata.ANY) == {}
    assert gamedata.game_name({}, gamedata.ANY) == "Any dice"


def test_unknown_game_and_game_without_data(monkeypatch, tmp_path):
    with pytest.raises(UnknownName):
        game_data.load("monopoly")
    monkeypatch.setattr(game_data, "data_path", lambda slug: tmp_path / "data.toml")
    with pytest.raises(ConfigError, match="no data file"):
        game_data.load("lacorsa")


def test_callers_get_their_own_copy():
    first = game_data.load("lacorsa")
    first["decks"]["suit"]["cards"].clear()
    assert len(game_data.load("lacorsa")["decks"]["suit"]["cards"]) == 13


# -- the owner's overrides ---------------------------------------------------------------

def test_owner_adds_a_deck_and_changes_a_die(state_dir):
    owner_file(state_dir, "3-wide", """
[decks.my-deck]
label = "Tactics"
cards = [ { name = "Move One", count = 2, move = 1 }, { name = "Push", tactic = 9 } ]

[dice.tire-red]
faces = ["1!", "2!", "3"]
""")
    decks = game_data.decks("3-wide", state_dir)
    assert [c.name for c in decks["my-deck"]] == ["Move One", "Move One", "Push"]
    dice = game_data.dice("3-wide", state_dir)
    assert dice["tire-red"].faces == ("1!", "2!", "3")
    assert dice["tire-red"].label == "Red tire"          # the rest of the table is kept
    assert dice["tire-black"].faces[0] == "5x"


def test_no_owner_file_is_the_built_in_data(state_dir):
    assert game_data.load("formula-de", state_dir) == game_data.load("formula-de")


def test_an_edited_owner_file_is_read_again(state_dir):
    path = owner_file(state_dir, "lacorsa", "[points.race]\npositions = [5, 3, 1]\n")
    assert game_data.points_tables("lacorsa", state_dir)["race"]["positions"] == [5, 3, 1]
    path.write_text("[points.race]\npositions = [9, 6, 3, 1]\n")
    assert game_data.points_tables("lacorsa", state_dir)["race"]["positions"] == [9, 6, 3, 1]


BAD = [
    ("[dice.gear-5]\nfaces = []\n", "dice.gear-5.faces", "1 to"),
    ("[dice.gear-5]\nfaces = [1, 1.5]\n", "dice.gear-5.faces[1]", "whole number"),
    ("[dice.gear-5]\nfaces = [1, true]\n", "dice.gear-5.faces[1]", "whole number"),
    ("[dice.gear-5]\nfaces = 20\n", "dice.gear-5.faces", "must be a list"),
    ("[dice.gear-5]\nface = [1]\n", "dice.gear-5.face", "unknown key"),
    ("[dice.new]\nfaces = [1, 2]\n", "dice.new.label", "missing"),
    ("[dice.My-Die]\nlabel = \"x\"\nfaces = [1]\n", "dice.My-Die", "lowercase"),
    ("dice = 5\n", "dice", "table"),
    ("[dice]\ngear-1 = 4\n", "dice.gear-1", "must be a table"),
    ("[decks.mine]\nlabel = \"Mine\"\ncards = []\n", "decks.mine.cards", "1 to"),
    ("[decks.mine]\nlabel = \"Mine\"\ncards = [{ count = 2 }]\n", "decks.mine.cards[0].name", "missing or not text"),
    ("[decks.mine]\nlabel = \"Mine\"\ncards = [{ name = \"A\", count = 0 }]\n", "decks.mine.cards[0].count", "1 to"),
    ("[decks.mine]\nlabel = \"Mine\"\ncards = [{ name = \"A\", x = { y = 1 } }]\n", "decks.mine.cards[0].x", "text, a number"),
    ("[decks.mine]\nlabel = \"Mine\"\ncards = [\"A\"]\n", "decks.mine.cards[0]", "card table"),
    ("[points.race]\npositions = [\"ten\"]\n", "points.race.positions", "whole numbers"),
    ("[points.race]\nbonus = { win = \"3\" }\n", "points.race.bonus.win", "whole number"),
    ("[game]\nplayers = [6, 2]\n", "game.players", "fewest, most"),
    ("[game]\nname = 3\n", "game.name", "must be text"),
    ("game = \"x\"\n", "game", "table"),
    ("[dice_sets.pair]\nlabel = \"Pair\"\ndice = [\"gear-1\", \"gear-9\"]\n", "dice_sets.pair.dice[1]", "unknown die"),
]


@pytest.mark.parametrize("text,key,problem", BAD)
def test_a_broken_owner_file_is_one_clear_line_naming_file_and_key(state_dir, text, key, problem):
    path = owner_file(state_dir, "formula-de", text)
    with pytest.raises(ConfigError) as exc:
        game_data.load("formula-de", state_dir)
    err = exc.value
    assert err.path == str(path)
    assert err.key == key
    assert problem in err.problem
    assert "\n" not in str(err) and str(path) in str(err)


@pytest.mark.parametrize("text,problem", [("[dice\n", "not valid TOML"), (b"\xff\xfe", "UTF-8")])
def test_unreadable_owner_files(state_dir, text, problem):
    path = game_data.override_path("lacorsa", state_dir)
    path.parent.mkdir(parents=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(ConfigError, match=problem):
        game_data.load("lacorsa", state_dir)


def test_an_error_in_the_built_in_part_blames_the_built_in_file(state_dir):
    owner_file(state_dir, "lacorsa", "[decks.suit]\nlabel = 7\n")
    with pytest.raises(ConfigError) as exc:
        game_data.load("lacorsa", state_dir)
    assert exc.value.path.endswith("lacorsa.toml")
    data = game_data.load("lacorsa")
    data["dice"]["tie"]["faces"] = []
    with pytest.raises(ConfigError) as exc:
        gamedata.validate(data, game_data.data_path("lacorsa"))
    assert exc.value.path.endswith("data.toml") and exc.value.key == "dice.tie.faces"


# -- property: anything malformed is a ConfigError, never another exception --------------

KEYS = ["game", "dice", "decks", "points", "dice_sets", "name", "players", "label", "faces", "cards", "count",
        "positions", "bonus", "swap", "assumption", "gear-5", "tires", "suit", "race", "dice", "x-y", "Bad Id", ""]
BASES = {slug: pickle.dumps(game_data.load(slug)) for slug in MINE}
"""Each game's data pickled: unpickled, a fresh copy ten times faster than copy.deepcopy."""


def scalar(rnd):
    return fuzzing.scalar(rnd, (None,))


def value(rnd):
    return fuzzing.nested(rnd, scalar, max_leaves=12, width=4, keys=lambda r: fuzzing.text(r, 8))


def mutated(rnd):
    """A game's data with a few subtrees replaced, deleted or added."""
    data = pickle.loads(BASES[rnd.choice(MINE)])
    for _ in range(rnd.randint(1, 3)):
        node = data
        while True:
            keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
            if not keys or rnd.randint(0, 3) == 0:
                break
            key = rnd.choice(keys)
            child = node[key]
            if not isinstance(child, (dict, list)) or rnd.randint(0, 2) == 0:
                action = rnd.choice(["replace", "delete", "add"])
                if action == "replace":
                    node[key] = value(rnd)
                elif action == "delete":
                    del node[key]
                elif isinstance(node, dict):
                    node[rnd.choice(KEYS)] = value(rnd)
                else:
                    node.append(value(rnd))
                break
            node = child
    return data


def check_loader(data):
    try:
        checked = gamedata.validate(data, "owner.toml")
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("owner.toml")
        return
    # accepted data must build into dice, decks and points without surprises
    gamedata.dice_of(checked), gamedata.decks_of(checked), gamedata.points_of(checked)
    gamedata.dice_sets_of(checked)


@settings(max_examples=2000, deadline=None)
@given(fuzzing.randoms())
def test_mutated_data_is_checked_or_refused_with_a_config_error(rnd):
    check_loader(mutated(rnd))


@settings(max_examples=500, deadline=None)
@given(fuzzing.randoms())
def test_arbitrary_structures_are_refused_with_a_config_error(rnd):
    check_loader(value(rnd))


TOML_BITS = st.sampled_from(["[", "]", "[[", "]]", "=", "\"", "'", ",", "{", "}", "\n", ".", " ",
                             "dice", "decks", "points", "game", "faces", "cards", "label", "count",
                             "positions", "gear-5", "suit", "race", "1", "-3", "1.5", "true", "x",
                             "1979-05-27", "\"5xs\"", "name", "\\u00e9", "#", "inf", "nan"])


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(TOML_BITS, max_size=40).map("".join))
def test_malformed_owner_toml_is_always_a_config_error(state_dir, text):
    owner_file(state_dir, "formula-de", text)
    game_data.clear_cache()
    try:
        game_data.load("formula-de", state_dir)
    except ConfigError as exc:
        assert "\n" not in str(exc)


def test_the_kept_parse_of_a_built_in_file_is_never_handed_out_to_be_changed():
    """The built-in file is parsed once a process; what a caller does to its tables does not
    reach the next caller (a race that changed them would change the next race's)."""
    path = game_data.data_path("formula-de")
    first = gamedata.load_files(path)
    for table in first.values():
        if isinstance(table, dict):
            table.clear()
    assert gamedata.load_files(path) == gamedata.load_files(path) != first
