"""An owner's override file can hold anything TOML can: whatever it holds, the game is
either set up and played, or refused with a message naming the file and the key. No
other exception reaches the app.

For every game the companion plays (``registry.playable()``), Hypothesis mutates the
tables of its built-in data (wrong types, missing keys, numbers out of range, nonsense
text, empty tables, unknown keys), writes the mutation as the owner's
``games/<slug>.toml``, loads it the app's way (``companion.games.data.load``, which runs
the pack's ``check_data``), sets the game up with its demo options and plays a few moves.
"""

from __future__ import annotations

import copy
import json
import math
import pickle
import random
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.config import ConfigError
from companion.games import data as game_data
from companion.games import registry

GAMES = [e.slug for e in registry.playable() if e.kind == "game" and game_data.has_data(e.slug)]
MOVES = 25
"""Moves played after a setup that worked: data read during the race is checked too."""


# -- TOML: values an owner could write, and a writer for them ---------------------------------

_keys = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)
_scalars = st.one_of(
    st.integers(min_value=-2**63, max_value=2**63 - 1),
    st.integers(min_value=-3, max_value=200),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20),
    st.sampled_from(["none", "", "uphill", "Safety Car", "normal", "x", "0", "red-flag"]),
)
toml_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=4)),
    max_leaves=8,
)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)} = {_toml(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def dump(table: dict[str, Any]) -> str:
    return "".join(f"{json.dumps(k, ensure_ascii=False)} = {_toml(v)}\n" for k, v in table.items())


# -- mutations of a game's data --------------------------------------------------------------

def paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in the data: table keys and list indices."""
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, prefix + (i,))
    return out


def _at(node: Any, path: tuple) -> Any:
    for k in path:
        node = node[k]
    return node


def override_for(mutated: dict[str, Any], path: tuple) -> dict[str, Any]:
    """The owner's file that turns the built-in data into ``mutated`` at ``path``: tables
    down to the first list on the way (the loader merges tables and replaces lists)."""
    cut = next((i for i, k in enumerate(path) if isinstance(k, int)), len(path))
    cut = max(cut - 1, 0) if cut < len(path) else cut - 1
    keys = path[:cut + 1]
    out: dict[str, Any] = {}
    node = out
    for k in keys[:-1]:
        node = node.setdefault(k, {})
    node[keys[-1]] = copy.deepcopy(_at(mutated, keys))
    return out


def mutations(base: dict[str, Any]) -> st.SearchStrategy[tuple[dict[str, Any], tuple]]:
    """The data ``base`` changed at one of its places (the places and a pickle of the data
    made once a game: unpickling is a fresh copy ten times faster than copy.deepcopy)."""
    return _mutated(pickle.dumps(base), paths(base))


@st.composite
def _mutated(draw, base: bytes, places: list[tuple]) -> tuple[dict[str, Any], tuple]:
    path = draw(st.sampled_from(places))
    data = pickle.loads(base)
    parent, key = _at(data, path[:-1]), path[-1]
    value = parent[key]
    how = draw(st.sampled_from(["replace", "number", "text", "empty", "drop", "extra"]))
    if how == "number":
        parent[key] = draw(st.one_of(st.integers(-10**12, 10**12), st.sampled_from([0, -1, 1, 10**9, 499, 501])))
    elif how == "text":
        parent[key] = draw(st.text(max_size=30).filter(lambda s: s.isprintable()))
    elif how == "empty":
        parent[key] = draw(st.sampled_from([{}, [], ""]))
    elif how == "drop" and isinstance(value, dict) and value:
        del value[draw(st.sampled_from(sorted(value)))]
    elif how == "extra" and isinstance(value, dict):
        value[draw(_keys)] = draw(toml_values)
    elif how == "drop" and isinstance(parent, list) and len(parent) > 1:
        del parent[key]
        return data, path[:-1]
    else:
        parent[key] = draw(toml_values)
    return data, path


def play(activity, state) -> None:
    """A few moves of the demo script, with every screen and receipt on the way."""
    rng = random.Random(0)
    for _ in range(MOVES):
        activity.view(state)
        activity.receipts(state)
        activity.standings(state)
        move = activity.demo.script(state)
        if move is None:
            return
        state = activity.apply(state, activity.resolve(state, move, rng))


def _check_refusal(err: ValueError, files: tuple[Path, Path]) -> None:
    message = str(err)
    assert any(str(f) in message for f in files), f"the message names no file: {message}"
    key = getattr(err, "key", None)
    shown = key if not key or key.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in key)
    assert key and shown in message, f"the message names no key: {message}"
    assert "\n" not in message


@pytest.mark.parametrize("slug", GAMES)
def test_any_override_is_played_or_refused_with_its_file_and_key(slug):
    activity = registry.entry(slug).load()
    with game_data.data_path(slug).open("rb") as f:
        base = tomllib.load(f)

    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(mutations(base))
    def check(mutation):
        mutated, path = mutation
        override = override_for(mutated, path) if path else mutated
        text = dump(override)
        assert tomllib.loads(text) == json.loads(json.dumps(override)) or _has_nan(override)
        with tempfile.TemporaryDirectory() as tmp:
            owner = game_data.override_path(slug, tmp)
            owner.parent.mkdir()
            owner.write_text(text, encoding="utf-8")
            try:
                data = game_data.load(slug, tmp)
                state = activity.setup(activity.demo.options, data)
            except ValueError as err:           # ConfigError, RuleError, DataError
                _check_refusal(err, (owner, game_data.data_path(slug)))
                return
            play(activity, state)

    try:
        check()
    finally:
        game_data.clear_cache()


def _has_nan(value: Any) -> bool:
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, list):
        return any(_has_nan(v) for v in value)
    if isinstance(value, dict):
        return any(_has_nan(v) for v in value.values())
    return False


def test_the_games_with_data_are_all_covered():
    assert {"street-illegal", "top-speed"} <= set(GAMES)


@pytest.mark.parametrize("slug, text, key", [
    ("top-speed", "circuit = 'x'\n", "circuit"),
    ("top-speed", "race = [1, 2]\n", "race"),
    ("top-speed", "race_types = 5\n", "race_types"),
    ("top-speed", "[race_types.wet]\nremove = 3\n", "race_types.wet.remove"),
    ("street-illegal", "situations = 5\n", "situations"),
    ("street-illegal", "[situations.uphill]\nlabel = 7\n", "situations.uphill"),
    ("street-illegal", "[decks.track]\nlabel = 'T'\ncards = [{ name = 'a', limit = [70] , situation = 'uphill'}]\n",
     "decks.track.cards"),
])
def test_the_reported_overrides_are_refused_when_the_data_is_loaded(tmp_path, slug, text, key):
    owner = game_data.override_path(slug, tmp_path)
    owner.parent.mkdir()
    owner.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        game_data.load(slug, tmp_path)
    assert str(owner) in str(err.value) and err.value.key == key
    game_data.clear_cache()
