"""A race's settings, from the data file and the setup wizard's answers, checked once.

Everything the rules need that does not change during a race lives in one frozen
:class:`Settings`: the team deck for the chosen race type, the circuit, the options.
A mistake in the data (an owner's override) is a ConfigError naming the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from companion.core.config import ConfigError
from companion.core.deck import Card, build
from companion.kit.errors import DataError

DATA = "top-speed data"
DECK = "team"
SIGNALS = ("yellow-flag", "safety-car")
MAX_PLAYERS = 8


class DataProblem(DataError, ConfigError):
    """A table of Top Speed's data the pack cannot use. A DataError, so the loader names
    the file it came from (``keys``: the path of tables to it, which the loader looks up
    in the owner's file), and a ConfigError naming the exact key (``detail``: the place
    inside a list, "[3].value"), as setup has always raised it."""

    def __init__(self, keys: tuple[str, ...], problem: str, fix: str = "", detail: str = ""):
        ConfigError.__init__(self, DATA, ".".join(str(k) for k in keys) + detail, problem, fix)
        self.keys = tuple(str(k) for k in keys)
        self.problem = f"{detail.lstrip('.')}: {problem}" if detail else problem


def _table(data: Mapping[str, Any], *keys: str, required: bool = False) -> Mapping[str, Any]:
    """The table at ``keys`` ({} when it is absent and not ``required``)."""
    node: Any = data
    for i, key in enumerate(keys):
        node = node.get(key, {}) if isinstance(node, Mapping) else None
        if not isinstance(node, Mapping):
            raise DataProblem(keys[:i + 1], f"must be a table, not {_kind(node)}",
                              f"write [{'.'.join(keys[:i + 1])}] with its keys under it")
    if required and not node:
        raise DataProblem(keys, "missing", f"add [{'.'.join(keys)}]")
    return node


def _kind(value: Any) -> str:
    return {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list"}.get(
        type(value), "a table" if isinstance(value, Mapping) else type(value).__name__)


@dataclass(frozen=True)
class Settings:
    deck: tuple[Card, ...]          # one player's deck, race-type cards removed, unshuffled
    race_type: str
    race_label: str
    circuit: str
    spaces: int                     # spaces round the circuit
    laps: int
    grid: str                       # "random" | "qualifying"
    fastest_lap: bool               # advanced rule: fastest-lap bonus at the end
    kers: bool                      # advanced rule: keep one green card for later
    points: tuple[int, ...]
    points_note: str
    bonus: tuple[tuple[str, int], ...]   # points table bonuses (companion.core.scoring.BONUSES)
    pit_back: int
    signal_cards: int
    qualifying_laps: int
    deck_note: str

    cards: Mapping[str, Card]       # the deck's cards by name (read only)

    def card(self, name: str) -> Card:
        """The deck's card called ``name`` (a KeyError names it when there is none)."""
        try:
            return self.cards[name]
        except KeyError:
            raise KeyError(f"no card {name!r} in the deck") from None


def _int(table: Mapping[str, Any], key: str, where: tuple[str, ...], low: int, high: int,
         default: int | None = None) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DataProblem((*where, key), f"must be a whole number from {low} to {high}, not {value!r}")
    return value


def _check_card(card: Card, at: str) -> None:
    where = ("decks", DECK, "cards")
    value = card.get("value", 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DataProblem(where, f"must be a whole number of movement points, not {value!r}", "", f"{at}.value")
    if (value > 0) == bool(card.get("trouble")):
        raise DataProblem(where, f"card '{card.name}' must be either green (value > 0) or trouble = true", "", at)
    signal = card.get("signal")
    if signal is not None and signal not in SIGNALS:
        raise DataProblem(where, f"unknown signal {signal!r}", f"use one of: {', '.join(SIGNALS)}", f"{at}.signal")
    for key in ("pit_extra", "back"):
        extra = card.get(key, 0)
        if isinstance(extra, bool) or not isinstance(extra, int) or not 0 <= extra <= 40:
            raise DataProblem(where, f"must be a whole number of spaces, not {extra!r}", "", f"{at}.{key}")


def _remove(deck: list[Card], removals: Any, at: tuple[str, ...]) -> list[Card]:
    if not isinstance(removals, Mapping):
        raise DataProblem((*at, "remove"), "must be a table of card name = count",
                          'e.g. remove = { "Safety Car" = 1 }')
    out = list(deck)
    for name, count in removals.items():
        have = sum(1 for c in out if c.name == name)
        if not have:
            raise DataProblem((*at, "remove"), f"no card named {name!r} in the deck",
                              f"use one of: {', '.join(sorted({c.name for c in deck}))}")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= have:
            raise DataProblem((*at, "remove", name), f"must be 0 to {have} (cards in the deck), not {count!r}")
        for _ in range(count):
            out.remove(next(c for c in out if c.name == name))
    return out


def race_types(data: Mapping[str, Any]) -> dict[str, str]:
    """Race type id -> label."""
    types = data.get("race_types", {})
    if not isinstance(types, Mapping):
        return {}
    return {k: str(v.get("label", k)) for k, v in types.items() if isinstance(v, Mapping)}


def _team_deck(data: Mapping[str, Any]) -> tuple[list[Card], str]:
    """One player's full deck (every card of every race type), checked, and its note."""
    team = _table(data, "decks", DECK, required=True)
    cards = team.get("cards")
    if not isinstance(cards, list) or not cards or not all(isinstance(c, Mapping) for c in cards):
        raise DataProblem(("decks", DECK, "cards"), "must be a list of card tables",
                          'e.g. { name = "1", count = 25, value = 1 }')
    for i, card in enumerate(build({**c, "count": 1} for c in cards)):
        _check_card(card, f"[{i}]")
    return build(cards), str(team.get("assumption", ""))


def _race_type(data: Mapping[str, Any], deck: list[Card], race_type: str) -> tuple[list[Card], str]:
    """The deck of ``race_type`` (its cards removed) and its label."""
    at = ("race_types", race_type)
    entry = _table(data, *at)
    deck = _remove(list(deck), entry.get("remove", {}), at)
    if not any(c.get("value", 0) > 0 for c in deck):
        raise DataProblem((*at, "remove"), "leaves no green card in the deck")
    return deck, str(entry.get("label", race_type))


def _points(data: Mapping[str, Any]) -> Mapping[str, Any]:
    from companion.core.scoring import ScoringError, check_table

    points = _table(data, "points", "race")
    if points:
        try:
            check_table(points, "points.race")
        except ScoringError as exc:
            raise DataProblem(("points", "race"), str(exc), "e.g. positions = [25, 18, 15]") from None
    return points


def check_data(data: Mapping[str, Any]) -> None:
    """Every table of the data Top Speed reads, checked for every race type an owner may
    choose (Activity.check_data): a DataError names the key path of the first one the
    pack cannot use."""
    deck, _ = _team_deck(data)
    types = _table(data, "race_types")
    if not types:
        raise DataProblem(("race_types",), "missing", "add [race_types.normal] with remove = { }")
    for race_type in types:
        _race_type(data, deck, race_type)
    circuit = _table(data, "circuit")
    _int(circuit, "spaces", ("circuit",), 2 * MAX_PLAYERS, 500)
    _int(circuit, "laps", ("circuit",), 2, 99, 66)
    race = _table(data, "race")
    _int(race, "pit_stop_back", ("race",), 0, 40, 8)
    _int(race, "signal_cards", ("race",), 1, 16, 2)
    _int(race, "qualifying_laps", ("race",), 1, 20, 5)
    _points(data)


def build_settings(options: Mapping[str, Any], data: Mapping[str, Any]) -> Settings:
    """The settings of one race (ConfigError on bad data or options)."""
    full, deck_note = _team_deck(data)
    race_type = str(options.get("race", "normal"))
    types = _table(data, "race_types")
    if race_type not in types or not isinstance(types[race_type], Mapping):
        raise ConfigError(DATA, f"race_types.{race_type}", "unknown race type",
                          f"use one of: {', '.join(types) or 'add [race_types.normal]'}")
    deck, race_label = _race_type(data, full, race_type)
    circuit = _table(data, "circuit")
    race = _table(data, "race")
    points = _points(data)
    return Settings(
        deck=tuple(deck),
        race_type=race_type,
        race_label=race_label,
        circuit=str(circuit.get("name", "Circuit")),
        spaces=_int(circuit, "spaces", ("circuit",), 2 * MAX_PLAYERS, 500),
        laps=_int(options, "laps", ("options",), 2, 99, _int(circuit, "laps", ("circuit",), 2, 99, 66)),
        grid="qualifying" if options.get("grid") == "qualifying" else "random",
        fastest_lap=bool(options.get("fastest_lap", False)),
        kers=bool(options.get("kers", False)),
        points=tuple(points.get("positions", ())),
        points_note=str(points.get("assumption", "")),
        bonus=tuple(sorted(points.get("bonus", {}).items())),
        pit_back=_int(race, "pit_stop_back", ("race",), 0, 40, 8),
        signal_cards=_int(race, "signal_cards", ("race",), 1, 16, 2),
        qualifying_laps=_int(race, "qualifying_laps", ("race",), 1, 20, 5),
        deck_note=deck_note,
        cards={c.name: c for c in deck},  # read-only by convention (a plain dict pickles for snapshots)
    )
