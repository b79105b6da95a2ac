"""Track cards and situations from the game data, checked.

A track card has a speed limit (mph, or none) and a situation (obstacle left, right or
middle, uphill, downhill). The situation says which tempo card each player replaces in
phase 1 and which icon earns chips; the limit is what phase 2 asks of every driver.

These are facts: the situations' words (``effect`` lines, ``short`` labels) are kept as
the data gives them; the screens fit them to the display.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from companion.core.config import ConfigError
from companion.kit.errors import DataError

SOURCE = "street-illegal data"
RACE_LENGTH = 8
"""Track cards drawn for a race (rulebook, setup)."""


class DataProblem(DataError, ConfigError):
    """A table of Street Illegal's data the pack cannot use. A DataError, so the loader
    names the file it came from (``keys``: the path of tables to it, which the loader
    looks up in the owner's file), and a ConfigError naming the exact key (``detail``: the
    place inside a list, "[3].limit"), as setup has always raised it."""

    def __init__(self, keys: tuple[str, ...], problem: str, fix: str = "", detail: str = ""):
        ConfigError.__init__(self, SOURCE, ".".join(keys) + detail, problem, fix)
        self.keys = tuple(str(k) for k in keys)
        self.problem = f"{detail.lstrip('.')}: {problem}" if detail else problem


@dataclass(frozen=True)
class Situation:
    id: str
    label: str
    effect: tuple[str, ...]   # what phase 1 makes a player do, in the data's lines
    short: str = ""           # the label where the screen has less room (default: label)


@dataclass(frozen=True)
class TrackCard:
    name: str
    limit: int | None          # None: no speed limit
    situation: Situation

    @property
    def limit_text(self) -> str:
        return f"LIMIT {self.limit}" if self.limit else "NO LIMIT"


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def load_situations(data: Mapping[str, Any]) -> dict[str, Situation]:
    table = data.get("situations")
    if not isinstance(table, Mapping) or not table:
        raise DataProblem(("situations",), "missing or not a table of situations",
                          "add [situations.uphill] with label and effect")
    out = {}
    for sid, entry in table.items():
        key = ("situations", sid)
        if not isinstance(entry, Mapping):
            raise DataProblem(key, "must be a table with label and effect")
        label, effect = entry.get("label"), entry.get("effect", "")
        short = entry.get("short", label)
        if not isinstance(label, str) or not label.strip():
            raise DataProblem(key, "missing or not text", 'e.g. label = "Uphill"', ".label")
        if not isinstance(effect, str):
            raise DataProblem(key, "must be text", 'lines split at "|"', ".effect")
        if not isinstance(short, str) or not short.strip():
            raise DataProblem(key, "must be text", 'e.g. short = "Obst. left"', ".short")
        lines = tuple(part.strip() for part in effect.split("|") if part.strip())
        out[sid] = Situation(sid, label.strip(), lines, short.strip())
    return out


def load_track(data: Mapping[str, Any]) -> tuple[TrackCard, ...]:
    """Every track card of the data (counts expanded), in data order."""
    situations = load_situations(data)
    decks = data.get("decks", {})
    deck = decks.get("track") if isinstance(decks, Mapping) else None
    if not isinstance(deck, Mapping) or not isinstance(deck.get("cards"), list):
        raise DataProblem(("decks", "track"), "missing", "add [decks.track] with its 20 cards")
    where = ("decks", "track", "cards")
    cards: list[TrackCard] = []
    for i, entry in enumerate(deck["cards"]):
        if not isinstance(entry, Mapping):
            raise DataProblem(where, "must be a card table", "e.g. { limit = 70, situation = \"uphill\" }", f"[{i}]")
        limit = entry.get("limit")
        if limit == "none":
            limit = None
        elif not (_is_int(limit) and 10 <= limit <= 500 and limit % 10 == 0):
            raise DataProblem(where, f"must be a speed in tens of mph or \"none\", not {limit!r}",
                              'e.g. limit = 90 or limit = "none"', f"[{i}].limit")
        sid = entry.get("situation")
        if not isinstance(sid, str) or sid not in situations:
            raise DataProblem(where, f"unknown situation {sid!r}", f"use one of: {', '.join(situations)}",
                              f"[{i}].situation")
        count = entry.get("count", 1)
        if not (_is_int(count) and 0 <= count <= 100):
            raise DataProblem(where, f"must be a number of cards, not {count!r}", "e.g. count = 1", f"[{i}].count")
        cards.extend([TrackCard(str(entry.get("name", "")), limit, situations[sid])] * count)
    if len(cards) < RACE_LENGTH:
        raise DataProblem(where, f"has {len(cards)} cards; a race needs {RACE_LENGTH}", "add track cards")
    return tuple(cards)


def tempo_cards(data: Mapping[str, Any]):
    """The tempo deck as cards (``companion.core.deck.Card``), each with a whole ``value``."""
    from companion.core.deck import build

    decks = data.get("decks", {})
    deck = decks.get("tempo") if isinstance(decks, Mapping) else None
    if not isinstance(deck, Mapping) or not isinstance(deck.get("cards"), list):
        raise DataProblem(("decks", "tempo"), "missing", "add [decks.tempo] with its 90 cards")
    where = ("decks", "tempo", "cards")
    for i, entry in enumerate(deck["cards"]):
        value = entry.get("value") if isinstance(entry, Mapping) else None
        if not (_is_int(value) and 0 < value <= 100):
            raise DataProblem(where, f"must be a speed like 30, not {value!r}", "", f"[{i}].value")
    cards = build(deck["cards"])
    if len(cards) < 3:
        raise DataProblem(where, "needs at least 3 cards", "the game has 90")
    return cards


def race_points(data: Mapping[str, Any]) -> tuple[int, ...]:
    points = data.get("points", {})
    table = points.get("race") if isinstance(points, Mapping) else None
    if not isinstance(table, Mapping) or not isinstance(table.get("positions"), list):
        raise DataProblem(("points", "race"), "missing", "add [points.race] positions = [15, 11, 8, 6, 4, 2, 1]")
    positions = table["positions"]
    if not positions or not all(_is_int(p) for p in positions):
        raise DataProblem(("points", "race", "positions"), f"must be whole points, first place first, not {positions!r}",
                          "e.g. positions = [15, 11, 8, 6, 4, 2, 1]")
    return tuple(positions)


def check_data(data: Mapping[str, Any]) -> None:
    """Every table of the data Street Illegal reads, checked (Activity.check_data): a
    DataError names the key path of the first one it cannot use."""
    load_track(data)
    tempo_cards(data)
    race_points(data)
