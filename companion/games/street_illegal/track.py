"""Track cards and situations from the game data, checked.

A track card has a speed limit (mph, or none) and a situation (obstacle left, right or
middle, uphill, downhill). The situation says which tempo card each player replaces in
phase 1 and which icon earns chips; the limit is what phase 2 asks of every driver.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from companion.core.config import ConfigError

SOURCE = "street-illegal data"
RACE_LENGTH = 8
"""Track cards drawn for a race (rulebook, setup)."""
SHORT_CHARS = 12
"""A situation's short label: beside "NO LIMIT" on one 21-character line."""


@dataclass(frozen=True)
class Situation:
    id: str
    label: str
    effect: tuple[str, ...]   # screen lines, at most 21 characters each
    short: str = ""           # the label where the screen has less room (default: label)


@dataclass(frozen=True)
class TrackCard:
    name: str
    limit: int | None          # None: no speed limit
    situation: Situation

    @property
    def limit_text(self) -> str:
        return f"LIMIT {self.limit}" if self.limit else "NO LIMIT"


def load_situations(data: Mapping[str, Any]) -> dict[str, Situation]:
    table = data.get("situations")
    if not isinstance(table, Mapping) or not table:
        raise ConfigError(SOURCE, "situations", "missing", "add [situations.uphill] with label and effect")
    out = {}
    for sid, entry in table.items():
        key = f"situations.{sid}"
        if not isinstance(entry, Mapping):
            raise ConfigError(SOURCE, key, "must be a table with label and effect")
        label, effect = entry.get("label"), entry.get("effect", "")
        short = entry.get("short", label)
        if not isinstance(label, str) or not label.strip():
            raise ConfigError(SOURCE, f"{key}.label", "missing or not text", 'e.g. label = "Uphill"')
        if not isinstance(effect, str):
            raise ConfigError(SOURCE, f"{key}.effect", "must be text", 'lines split at "|"')
        if not isinstance(short, str) or not short.strip():
            raise ConfigError(SOURCE, f"{key}.short", "must be text", 'e.g. short = "Obst. left"')
        lines = tuple(part.strip()[:21] for part in effect.split("|") if part.strip())
        out[sid] = Situation(sid, label, lines, short.strip()[:SHORT_CHARS])
    return out


def load_track(data: Mapping[str, Any]) -> tuple[TrackCard, ...]:
    """Every track card of the data (counts expanded), in data order."""
    situations = load_situations(data)
    deck = data.get("decks", {}).get("track")
    if not isinstance(deck, Mapping) or not isinstance(deck.get("cards"), list):
        raise ConfigError(SOURCE, "decks.track", "missing", "add [decks.track] with its 20 cards")
    cards: list[TrackCard] = []
    for i, entry in enumerate(deck["cards"]):
        at = f"decks.track.cards[{i}]"
        limit = entry.get("limit")
        if limit == "none":
            limit = None
        elif not (isinstance(limit, int) and not isinstance(limit, bool) and 10 <= limit <= 500 and limit % 10 == 0):
            raise ConfigError(SOURCE, f"{at}.limit", f"must be a speed in tens of mph or \"none\", not {limit!r}",
                              'e.g. limit = 90 or limit = "none"')
        sid = entry.get("situation")
        if sid not in situations:
            raise ConfigError(SOURCE, f"{at}.situation", f"unknown situation {sid!r}",
                              f"use one of: {', '.join(situations)}")
        cards.extend([TrackCard(str(entry.get("name", "")), limit, situations[sid])] * int(entry.get("count", 1)))
    if len(cards) < RACE_LENGTH:
        raise ConfigError(SOURCE, "decks.track.cards", f"has {len(cards)} cards; a race needs {RACE_LENGTH}",
                          "add track cards")
    return tuple(cards)


def tempo_cards(data: Mapping[str, Any]):
    """The tempo deck as cards (``companion.core.deck.Card``), each with a whole ``value``."""
    from companion.core.deck import build

    deck = data.get("decks", {}).get("tempo")
    if not isinstance(deck, Mapping) or not isinstance(deck.get("cards"), list):
        raise ConfigError(SOURCE, "decks.tempo", "missing", "add [decks.tempo] with its 90 cards")
    cards = build(deck["cards"])
    for i, entry in enumerate(deck["cards"]):
        value = entry.get("value")
        if not (isinstance(value, int) and not isinstance(value, bool) and 0 < value <= 100):
            raise ConfigError(SOURCE, f"decks.tempo.cards[{i}].value", f"must be a speed like 30, not {value!r}")
    if len(cards) < 3:
        raise ConfigError(SOURCE, "decks.tempo.cards", "needs at least 3 cards", "the game has 90")
    return cards


def race_points(data: Mapping[str, Any]) -> tuple[int, ...]:
    table = data.get("points", {}).get("race")
    if not isinstance(table, Mapping) or not isinstance(table.get("positions"), list):
        raise ConfigError(SOURCE, "points.race", "missing", "add [points.race] positions = [15, 11, 8, 6, 4, 2, 1]")
    return tuple(int(p) for p in table["positions"])
