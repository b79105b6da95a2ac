"""Game data: each game's ``data.toml`` with the owner's overrides, checked on load.

``load(slug)`` reads ``companion/games/<package>/data.toml``, lays the owner's
``<override_dir>/games/<slug>.toml`` over it (table by table) and checks the dice,
decks, points tables and dice sets. A mistake is a :class:`ConfigError` naming the
file, the key and the fix. Tables a game adds of its own (circuits, setup...) are
passed through for its rules to check. The schema is described in docs/game-data.md.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.core.config import ConfigError, deep_merge, load_toml

if TYPE_CHECKING:  # loaded when dice or cards are built: the home menu's game names need neither
    from companion.core.deck import Card
    from companion.core.dice import Die

ANY = "any"
"""The pseudo game of the plain dN dice: no data file, no decks."""

_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_MAX_FACES, _MAX_ENTRIES, _MAX_COUNT, _MAX_SET = 1000, 500, 1000, 12
_SECTIONS = {"dice": "die", "decks": "deck", "points": "points table", "dice_sets": "dice set"}
_KEYS = {
    "dice": ({"label", "faces"}, {"assumption"}),
    "decks": ({"label", "cards"}, {"assumption"}),
    "points": ({"label", "positions"}, {"assumption", "bonus"}),
    "dice_sets": ({"label", "dice"}, {"assumption", "swap"}),
}

Pieces = Mapping[tuple[str, str], Path]
"""The owner's entry files: (table, id) -> the file holding that one entry."""


def load_files(base_path: Path, over_path: Path | None = None, pieces: Pieces | None = None) -> dict[str, Any]:
    """The data of ``base_path`` with the owner's file ``over_path`` (if it exists) laid
    over it table by table, then each of the owner's entry files (``pieces``: a circuit
    described on the box) as the whole entry of its table and id; checked. A mistake
    names the file it is in."""
    if not base_path.is_file():
        raise ConfigError(base_path, None, "this game has no data file yet", "add data.toml to its package")
    base = _built_in(base_path)
    over: Mapping[str, Any] = {}
    if over_path is not None and over_path.is_file():
        over = load_toml(over_path)
    merged = deep_merge(base, over)
    for (table, entry_id), path in (pieces or {}).items():
        if not _ID.fullmatch(entry_id) or len(entry_id) > 40:
            raise ConfigError(path, None, "a file's name is its entry's id: lowercase letters, digits and dashes",
                              'e.g. "my-circuit-1.toml"')
        section = merged.get(table, {})
        if not isinstance(section, Mapping):
            raise ConfigError(path, table, f"the data's {table} is not a table of entries")
        merged[table] = {**section, entry_id: load_toml(path)}
    return validate(merged, lambda keys: _source(keys, base_path, over_path, over, pieces))


_parsed: dict[Path, tuple[tuple[int, ...], bytes]] = {}


def _built_in(path: Path) -> dict[str, Any]:
    """The built-in data file ``path`` as parsed, parsed once a process while the file is
    unchanged (its size, times and inode): a new owner's file is laid over it without
    parsing it again. Each caller gets its own copy (a pickle's, a 20th of a parse), so
    a race that changed its tables could never change the next race's."""
    import pickle      # here, not at the top: the first frame is drawn before any race's data is read

    st = os.stat(path)
    stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    kept = _parsed.get(path)
    if kept is None or kept[0] != stamp:
        kept = _parsed[path] = (stamp, pickle.dumps(load_toml(path), protocol=pickle.HIGHEST_PROTOCOL))
    return pickle.loads(kept[1])


def blame(keys: tuple[str, ...], base_path: Path, over_path: Path | None, pieces: Pieces | None = None) -> Path:
    """The file a key path of merged data came from: an entry file of the owner's, else
    the owner's file when it has the key, else the built-in one."""
    over: Mapping[str, Any] = {}
    if over_path is not None and over_path.is_file():
        try:
            over = load_toml(over_path)
        except ConfigError:
            return over_path
    return _source(keys, base_path, over_path, over, pieces)


def _source(keys: tuple[str, ...], base_path: Path, over_path: Path | None, over: Mapping[str, Any],
            pieces: Pieces | None = None) -> Path:
    if len(keys) >= 2 and pieces and tuple(keys[:2]) in pieces:
        return pieces[tuple(keys[:2])]
    node: Any = over
    for k in keys:
        if not isinstance(node, Mapping) or k not in node:
            return base_path
        node = node[k]
    return over_path or base_path


def validate(data: Any, source: Path | str | Callable[[tuple[str, ...]], Path]) -> dict[str, Any]:
    """Check game data; returns it. ``source`` is the file to blame (or a function from a
    key path to that file, when the data came from two files)."""
    where = source if callable(source) else (lambda keys, p=source: p)
    if not isinstance(data, Mapping):
        raise ConfigError(where(()), None, f"must be a table of tables, not {_kind(data)}")
    _check_game(data, where)
    for section, noun in _SECTIONS.items():
        if section not in data:
            continue
        table = _need(data, (section,), Mapping, where, "a table of named entries")
        for entry_id, entry in table.items():
            keys = (section, entry_id)
            if not isinstance(entry_id, str) or len(entry_id) > 40 or not _ID.fullmatch(entry_id):
                raise ConfigError(where(keys), _dotted(keys), f"{noun} id must be lowercase letters, digits and dashes",
                                  'e.g. "my-deck"')
            if not isinstance(entry, Mapping):
                raise ConfigError(where(keys), _dotted(keys), f"must be a table, not {_kind(entry)}",
                                  f"write [{section}.{entry_id}] with its keys under it")
            _check_keys(entry, keys, section, where)
            _need(entry, keys + ("label",), str, where, "text")
            if "assumption" in entry:
                _need(entry, keys + ("assumption",), str, where, "text")
            _CHECKS[section](entry, keys, where, data)
    return dict(data)


def _check_game(data, where) -> None:
    game = _need(data, ("game",), Mapping, where, "a table", fix='add [game] with name = "..." and players = [2, 6]')
    name = _need(game, ("game", "name"), str, where, "text")
    if not name.strip():
        raise ConfigError(where(("game", "name")), "game.name", "is empty", 'write the game\'s name, e.g. name = "Lacorsa"')
    players = _need(game, ("game", "players"), list, where, "a list [fewest, most]")
    if len(players) != 2 or not all(_is_int(p) for p in players) or not 1 <= players[0] <= players[1] <= 99:
        raise ConfigError(where(("game", "players")), "game.players", f"must be [fewest, most] players, not {players!r}",
                          "e.g. players = [2, 6]")


def _check_dice(entry, keys, where, data) -> None:
    faces = _need(entry, keys + ("faces",), list, where, "a list of faces")
    if not 1 <= len(faces) <= _MAX_FACES:
        raise ConfigError(where(keys), _dotted(keys + ("faces",)), f"must have 1 to {_MAX_FACES} faces, not {len(faces)}")
    for i, face in enumerate(faces):
        if not (_is_int(face) or (isinstance(face, str) and 0 < len(face) <= 16)):
            raise ConfigError(where(keys), f"{_dotted(keys + ('faces',))}[{i}]",
                              f"must be a whole number or a short text like \"5xs\", not {_kind(face)} {face!r}")


def _check_dice_sets(entry, keys, where, data) -> None:
    from companion.core.dice import plain
    dice = data.get("dice", {})
    for field in ("dice", "swap"):
        if field not in entry:  # only the optional swap
            continue
        ids = _need(entry, keys + (field,), list, where, "a list of die ids")
        if not 1 <= len(ids) <= _MAX_SET:
            raise ConfigError(where(keys), _dotted(keys + (field,)), f"must list 1 to {_MAX_SET} dice, not {len(ids)}")
        for i, die_id in enumerate(ids):
            if not isinstance(die_id, str) or (die_id not in dice and plain(die_id) is None):
                raise ConfigError(where(keys), f"{_dotted(keys + (field,))}[{i}]", f"unknown die {die_id!r}",
                                  f"use one of: {', '.join([*dice, 'd6', 'd20'])}")


def _check_decks(entry, keys, where, data) -> None:
    cards = _need(entry, keys + ("cards",), list, where, "a list of cards")
    if not 1 <= len(cards) <= _MAX_ENTRIES:
        raise ConfigError(where(keys), _dotted(keys + ("cards",)), f"must have 1 to {_MAX_ENTRIES} entries, not {len(cards)}")
    for i, card in enumerate(cards):
        at = f"{_dotted(keys + ('cards',))}[{i}]"
        if not isinstance(card, Mapping):
            raise ConfigError(where(keys), at, f"must be a card table, not {_kind(card)}",
                              'e.g. { name = "10", count = 2, value = 10 }')
        if not isinstance(card.get("name"), str) or not card["name"].strip():
            raise ConfigError(where(keys), f"{at}.name", "missing or not text", 'give every card a name, e.g. name = "10"')
        count = card.get("count", 1)
        if not _is_int(count) or not 1 <= count <= _MAX_COUNT:
            raise ConfigError(where(keys), f"{at}.count", f"must be a whole number from 1 to {_MAX_COUNT}, not {count!r}")
        for field, value in card.items():
            if not isinstance(field, str) or not _is_card_value(value):
                raise ConfigError(where(keys), f"{at}.{field}",
                                  f"must be text, a number, true/false or a list of those, not {_kind(value)}")


def _check_points(entry, keys, where, data) -> None:
    positions = _need(entry, keys + ("positions",), list, where, "a list of points, first place first")
    if not 1 <= len(positions) <= 100 or not all(_is_int(p) for p in positions):
        raise ConfigError(where(keys), _dotted(keys + ("positions",)),
                          f"must be 1 to 100 whole numbers, first place first, not {positions!r}",
                          "e.g. positions = [10, 8, 6, 5, 4, 3, 2, 1]")
    if "bonus" in entry:
        bonus = _need(entry, keys + ("bonus",), Mapping, where, "a table of name = points")
        for name, points in bonus.items():
            if not _is_int(points):
                raise ConfigError(where(keys), _dotted(keys + ("bonus", name)), f"must be a whole number, not {points!r}")


_CHECKS = {"dice": _check_dice, "decks": _check_decks, "points": _check_points, "dice_sets": _check_dice_sets}


def _check_keys(entry, keys, section, where) -> None:
    required, optional = _KEYS[section]
    for k in sorted(required - set(entry)):
        raise ConfigError(where(keys), _dotted(keys + (k,)), "missing", f"add {k} = ...")
    for k in entry:
        if k not in required | optional:
            raise ConfigError(where(keys + (k,)), _dotted(keys + (k,)), "unknown key",
                              f"allowed: {', '.join(sorted(required | optional))}")


def _need(table, keys, kind, where, what, fix=""):
    key = keys[-1]
    if key not in table:
        raise ConfigError(where(keys[:-1]), _dotted(keys), "missing", fix or f"add {key} = ... ({what})")
    value = table[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ConfigError(where(keys), _dotted(keys), f"must be {what}, not {_kind(value)}", fix)
    return value


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10**9


def _is_card_value(v, nested: bool = False) -> bool:
    if isinstance(v, (str, bool)) or _is_int(v):
        return True
    if isinstance(v, float):
        return math.isfinite(v)
    if isinstance(v, list) and not nested:
        return all(_is_card_value(x, True) for x in v)
    return False


def _kind(v) -> str:
    return {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list",
            dict: "a table"}.get(type(v), type(v).__name__)


def _dotted(keys) -> str:
    """A key path as TOML writes it: gear-5.faces, or "odd key".faces."""
    return ".".join(k if isinstance(k, str) and _BARE.fullmatch(k) else json.dumps(str(k)) for k in keys)


# The data as objects: from a loaded data dict (``*_of``) or by game slug --------------

def dice_of(data: Mapping[str, Any]) -> dict[str, Die]:
    """The dice of loaded game data by id."""
    from companion.core.dice import Die
    return {i: Die(i, d["label"], tuple(d["faces"]), d.get("assumption", "")) for i, d in data.get("dice", {}).items()}


def dice_sets_of(data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Dice rolled together, by id: {"label", "dice": [die ids], "swap": [die ids]}."""
    return {i: {"label": s["label"], "dice": list(s["dice"]), "swap": list(s.get("swap", ()))}
            for i, s in data.get("dice_sets", {}).items()}


def decks_of(data: Mapping[str, Any]) -> dict[str, list[Card]]:
    """The decks of loaded game data by id, each as its full list of cards (counts expanded)."""
    from companion.core.deck import build
    return {i: list(build(d["cards"])) for i, d in data.get("decks", {}).items()}


def points_of(data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Points tables by id: {"label", "positions": [...], "bonus": {...}, "assumption"}."""
    return {i: {"label": p["label"], "positions": list(p["positions"]), "bonus": dict(p.get("bonus", {})),
                "assumption": p.get("assumption", "")} for i, p in data.get("points", {}).items()}


def labels_of(data: Mapping[str, Any], section: str) -> dict[str, str]:
    """id -> label of one section ("dice", "decks", "points", "dice_sets")."""
    return {i: e["label"] for i, e in data.get(section, {}).items()}


def game_name(data: Mapping[str, Any], slug: str) -> str:
    """The game's name from its data ("Any dice" for the plain dice)."""
    return "Any dice" if slug == ANY else data.get("game", {}).get("name", slug)
