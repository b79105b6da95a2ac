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

DATA = "top-speed data"
DECK = "team"
SIGNALS = ("yellow-flag", "safety-car")
MAX_PLAYERS = 8


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


def _int(table: Mapping[str, Any], key: str, where: str, low: int, high: int, default: int | None = None) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(DATA, f"{where}.{key}", f"must be a whole number from {low} to {high}, not {value!r}")
    return value


def _check_card(card: Card, at: str) -> None:
    value = card.get("value", 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(DATA, f"{at}.value", f"must be a whole number of movement points, not {value!r}")
    if (value > 0) == bool(card.get("trouble")):
        raise ConfigError(DATA, at, f"card '{card.name}' must be either green (value > 0) or trouble = true")
    signal = card.get("signal")
    if signal is not None and signal not in SIGNALS:
        raise ConfigError(DATA, f"{at}.signal", f"unknown signal {signal!r}", f"use one of: {', '.join(SIGNALS)}")
    for key in ("pit_extra", "back"):
        extra = card.get(key, 0)
        if isinstance(extra, bool) or not isinstance(extra, int) or not 0 <= extra <= 40:
            raise ConfigError(DATA, f"{at}.{key}", f"must be a whole number of spaces, not {extra!r}")


def _remove(deck: list[Card], removals: Mapping[str, Any], at: str) -> list[Card]:
    if not isinstance(removals, Mapping):
        raise ConfigError(DATA, f"{at}.remove", "must be a table of card name = count",
                          'e.g. remove = { "Safety Car" = 1 }')
    out = list(deck)
    for name, count in removals.items():
        have = sum(1 for c in out if c.name == name)
        if not have:
            raise ConfigError(DATA, f"{at}.remove", f"no card named {name!r} in the deck",
                              f"use one of: {', '.join(sorted({c.name for c in deck}))}")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= have:
            raise ConfigError(DATA, f"{at}.remove.{name}", f"must be 0 to {have} (cards in the deck), not {count!r}")
        for _ in range(count):
            out.remove(next(c for c in out if c.name == name))
    return out


def race_types(data: Mapping[str, Any]) -> dict[str, str]:
    """Race type id -> label."""
    return {k: str(v.get("label", k)) for k, v in data.get("race_types", {}).items() if isinstance(v, Mapping)}


def build_settings(options: Mapping[str, Any], data: Mapping[str, Any]) -> Settings:
    """The settings of one race (ConfigError on bad data or options)."""
    decks = data.get("decks", {})
    if DECK not in decks:
        raise ConfigError(DATA, f"decks.{DECK}", "missing", "the team deck is needed to play")
    deck = build(decks[DECK]["cards"])
    for i, card in enumerate(build({**c, "count": 1} for c in decks[DECK]["cards"])):
        _check_card(card, f"decks.{DECK}.cards[{i}]")
    race_type = str(options.get("race", "normal"))
    types = data.get("race_types", {})
    if race_type not in types or not isinstance(types[race_type], Mapping):
        raise ConfigError(DATA, f"race_types.{race_type}", "unknown race type",
                          f"use one of: {', '.join(types) or 'add [race_types.normal]'}")
    deck = _remove(list(deck), types[race_type].get("remove", {}), f"race_types.{race_type}")
    if not any(c.get("value", 0) > 0 for c in deck):
        raise ConfigError(DATA, f"race_types.{race_type}.remove", "leaves no green card in the deck")
    circuit = data.get("circuit", {})
    race = data.get("race", {})
    points = data.get("points", {}).get("race", {})
    return Settings(
        deck=tuple(deck),
        race_type=race_type,
        race_label=str(types[race_type].get("label", race_type)),
        circuit=str(circuit.get("name", "Circuit")),
        spaces=_int(circuit, "spaces", "circuit", 2 * MAX_PLAYERS, 500),
        laps=_int(options, "laps", "options", 2, 99, circuit.get("laps", 66)),
        grid="qualifying" if options.get("grid") == "qualifying" else "random",
        fastest_lap=bool(options.get("fastest_lap", False)),
        kers=bool(options.get("kers", False)),
        points=tuple(points.get("positions", ())),
        points_note=str(points.get("assumption", "")),
        bonus=tuple(sorted(points.get("bonus", {}).items())),
        pit_back=_int(race, "pit_stop_back", "race", 0, 40, 8),
        signal_cards=_int(race, "signal_cards", "race", 1, 16, 2),
        qualifying_laps=_int(race, "qualifying_laps", "race", 1, 20, 5),
        deck_note=str(decks[DECK].get("assumption", "")),
        cards={c.name: c for c in deck},  # read-only by convention (a plain dict pickles for snapshots)
    )
