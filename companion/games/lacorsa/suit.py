"""Lacorsa's cards and the race settings read from the data, checked once.

One suit per car: Extend 1, Extend 2, Drafting Extend 3, the standard cards 4 to 11,
Champion 12 and the Redline R. A card is known by its name (the data's ``name``); the
rules keep hands and played cards as tuples of names.

How a play is worth (rulebook notes): one card is worth its value; a Redline with one
other card adds 2; a Redline alone is worth 0; two Redlines together count nothing
(both discarded). Extend cards (kinds ``extend`` and ``drafting-extend``) move a car one
space into an open space ahead; the leader cannot extend with the drafting one.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from companion.kit.errors import DataError

DECK = "suit"
KINDS = ("extend", "drafting-extend", "standard", "champion", "redline")
EXTENDS = ("extend", "drafting-extend")
MAX_CARS = 6
LEVELS = ("steady", "racer")            # the automated racecars' levels (driver.py)


@dataclass(frozen=True)
class CardDef:
    name: str
    kind: str
    value: int
    bonus: int = 0          # a Redline's worth when played with another card

    @property
    def redline(self) -> bool:
        return self.kind == "redline"

    @property
    def extend(self) -> bool:
        return self.kind in EXTENDS


@dataclass(frozen=True)
class Settings:
    suit: tuple[CardDef, ...]               # one suit, data order
    cars_per_player: tuple[tuple[int, int], ...]   # (players, cars each)
    points: tuple[int, ...]
    points_note: str
    races: int                              # races in a championship
    tie_faces: tuple[int, ...]              # the qualifying tie die
    nerve: tuple[tuple[str, float], ...] = ()   # automated level -> nerve (driver.py)

    def card(self, name: str) -> CardDef:
        for c in self.suit:
            if c.name == name:
                return c
        raise KeyError(name)

    def has(self, name: Any) -> bool:
        return isinstance(name, str) and any(c.name == name for c in self.suit)

    def cars_each(self, players: int) -> int:
        return dict(self.cars_per_player).get(players, 1)

    @property
    def redline(self) -> str | None:
        return next((c.name for c in self.suit if c.redline), None)

    def worth(self, cards: Iterable[str]) -> int:
        """What a play of ``cards`` (one, or two with a Redline) is worth."""
        defs = [self.card(n) for n in cards]
        reds = [d for d in defs if d.redline]
        if len(reds) >= 2 or not defs:
            return 0
        total = sum(d.value for d in defs if not d.redline)
        if reds and len(defs) > 1:
            total += reds[0].bonus
        return total

    def suit_counts(self, suits: int) -> Counter:
        return Counter({c.name: suits for c in self.suit})


def _whole(value: Any, keys: tuple, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DataError(keys, f"must be a whole number from {low} to {high}, not {value!r}")
    return value


def _table(data: Mapping[str, Any], keys: tuple[str, ...]) -> Mapping[str, Any]:
    """The table at ``keys`` ({} when absent); DataError when something else is there."""
    node: Any = data
    for i, k in enumerate(keys):
        node = node.get(k, {}) if isinstance(node, Mapping) else node
        if not isinstance(node, Mapping):
            raise DataError(keys[:i + 1], f"must be a table, not {node!r}")
    return node


def check_data(data: Mapping[str, Any]) -> None:
    """The pack's own tables: raises DataError naming the key path."""
    build(data)


def build(data: Mapping[str, Any]) -> Settings:
    """The settings of the data (DataError on anything unusable)."""
    decks = data.get("decks")
    if not isinstance(decks, Mapping) or not isinstance(decks.get(DECK), Mapping):
        raise DataError(("decks", DECK), "missing", "Lacorsa needs the suit of one car: [decks.suit]")
    cards = decks[DECK].get("cards")
    if not isinstance(cards, list) or not cards:
        raise DataError(("decks", DECK, "cards"), "must be a list of the cards of one suit")
    suit = []
    seen = set()
    for i, c in enumerate(cards):
        at = ("decks", DECK, "cards", str(i))
        if not isinstance(c, Mapping) or not isinstance(c.get("name"), str) or not c["name"].strip():
            raise DataError(at, "each card needs a name")
        if c.get("count", 1) != 1:
            raise DataError(at + ("count",), "a suit holds each card once", "remove count or set it to 1")
        if c["name"] in seen:
            raise DataError(at + ("name",), f"two cards called {c['name']!r}", "give every card its own name")
        seen.add(c["name"])
        kind = c.get("kind")
        if kind not in KINDS:
            raise DataError(at + ("kind",), f"unknown kind {kind!r}", f"use one of: {', '.join(KINDS)}")
        value = _whole(c.get("value", 0), at + ("value",), 0, 99)
        bonus = _whole(c.get("with_card", 0), at + ("with_card",), 0, 99) if kind == "redline" else 0
        suit.append(CardDef(c["name"], kind, value, bonus))
    if sum(1 for c in suit if c.redline) > 1:
        raise DataError(("decks", DECK, "cards"), "a suit holds one Redline at most")
    if not any(c.extend for c in suit):
        raise DataError(("decks", DECK, "cards"), "a suit needs at least one Extend card")
    if sum(1 for c in suit if not c.redline) < 2:
        raise DataError(("decks", DECK, "cards"), "a suit needs at least two cards besides the Redline")
    setup = _table(data, ("setup",))
    per = setup.get("cars_per_player", {})
    if not isinstance(per, Mapping):
        raise DataError(("setup", "cars_per_player"), "must be a table of players = cars each",
                        "e.g. { 2 = 2, 3 = 2, 4 = 1, 5 = 1, 6 = 1 }")
    pairs = []
    for k, v in per.items():
        if not str(k).isdigit() or not 2 <= int(k) <= MAX_CARS:
            raise DataError(("setup", "cars_per_player", str(k)), "must be a number of players from 2 to 6")
        each = _whole(v, ("setup", "cars_per_player", str(k)), 1, 2)
        if int(k) * each > MAX_CARS:
            raise DataError(("setup", "cars_per_player", str(k)), f"{k} players x {each} cars is more than {MAX_CARS}")
        pairs.append((int(k), each))
    hand = setup.get("cards_per_car", len(suit))
    if hand != len(suit):
        raise DataError(("setup", "cards_per_car"), f"each car is dealt one suit: {len(suit)} cards, not {hand!r}",
                        f"set it to {len(suit)} or change [decks.suit]")
    races = _whole(setup.get("championship_races", 7), ("setup", "championship_races"), 2, 20)
    faces = _table(data, ("dice", "tie")).get("faces")
    if not isinstance(faces, list) or len({f for f in faces if isinstance(f, int)}) < 2 or \
            not all(isinstance(f, int) and not isinstance(f, bool) for f in faces):
        raise DataError(("dice", "tie", "faces"), "the tie die needs at least two different whole numbers",
                        "e.g. faces = [1, 2, 3, 4, 5, 6]")
    points = _table(data, ("points", "race"))
    positions = points.get("positions", [])
    if not isinstance(positions, list) or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0
                                                  for p in positions):
        raise DataError(("points", "race", "positions"), "must be a list of whole points, first place first")
    nerve = []
    table = _table(data, ("automated", "nerve"))
    for level, value in table.items():
        if level not in LEVELS:
            raise DataError(("automated", "nerve", str(level)), "unknown level", f"use {' or '.join(LEVELS)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise DataError(("automated", "nerve", str(level)), f"must be a chance from 0 to 1, not {value!r}")
        nerve.append((str(level), float(value)))
    return Settings(nerve=tuple(sorted(nerve)), suit=tuple(suit), cars_per_player=tuple(sorted(pairs)), points=tuple(positions),
                    points_note=str(points.get("assumption", "")), races=races, tie_faces=tuple(faces))
