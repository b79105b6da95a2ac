"""The contract every activity follows: a game pack or a toolkit tool.

An activity is a module (``rules``) of pure functions plus a module (``screens``)
that turns its state into views. The app never looks inside a state.

rules module:

    OPTIONS: tuple[Option, ...]            # what the setup wizard asks, in order
    setup(options: dict, data: dict) -> State
        # ``options`` maps each Option.key to the chosen value (plus "players": a list of
        # {"name": str, "colour": str} dicts when the activity has a players option);
        # ``data`` is the game's data.toml as loaded (with the owner's overrides).
        # Pure: no randomness here; a first move ("start") shuffles or draws.
    moves(state) -> list[Move]             # exactly what may be done now, by whom
    resolve(state, move, rng) -> dict      # the ONLY place randomness enters. Returns a
        # JSON-serialisable event dict with a "kind" key that records every outcome
        # (faces rolled, cards drawn, shuffled order), so apply() needs no rng.
    apply(state, event: dict) -> State     # pure; no I/O, no clock, no rng
    finished(state) -> bool
    standings(state) -> list[dict]         # [{"position": 1, "name": ..., "points": ...}, ...]
    summary(state) -> dict                 # extra fields for results.json (may be {})
    describe(event) -> str                 # optional: the outcome in a few words for the
        # history ("5xs 7xx 5x 6xx", "Tire Trouble"); the history shows "<move>: <outcome>"

screens module:

    view(state) -> companion.ui.view.View  # what the 128x64 screen shows now
    receipts(state) -> dict[str, Receipt]  # e.g. {"program": ..., "results": ...}; the
        # app prints "program" when the race starts and "results" when it finishes.

States are frozen dataclasses (or tuples/mappings treated as immutable).
Events are plain dicts so the journal can store them as JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class Move:
    """Something a player may do now. ``label`` is what the menu shows (keep it <= 14 chars).

    ``primary`` marks the move the big GO button performs (roll, draw). ``args`` holds
    the move's parameters as a tuple of (key, value) pairs so a Move stays hashable.
    """

    kind: str
    label: str
    player: str | None = None
    args: tuple[tuple[str, Any], ...] = ()
    primary: bool = False

    def arg(self, key: str, default: Any = None) -> Any:
        for k, v in self.args:
            if k == key:
                return v
        return default

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "label": self.label, "player": self.player,
                "args": [list(a) for a in self.args], "primary": self.primary}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Move":
        return cls(kind=d["kind"], label=d["label"], player=d.get("player"),
                   args=tuple((k, _freeze(v)) for k, v in d.get("args", ())),
                   primary=bool(d.get("primary", False)))


def make_move(kind: str, label: str, *, player: str | None = None, primary: bool = False, **args: Any) -> Move:
    """A Move with keyword args: ``make_move("roll", "Roll gear 5", die="gear-5", primary=True)``."""
    return Move(kind, label, player, tuple(sorted((k, _freeze(v)) for k, v in args.items())), primary)


def _freeze(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    return v


@dataclass(frozen=True)
class Option:
    """One question of the setup wizard.

    kind "choice": pick one of ``choices`` (a tuple of (value, label)).
    kind "number": an int from ``low`` to ``high`` (UP/DOWN change it).
    kind "players": how many players (``low``..``high``); names and colours are assigned
        from the colour list and can be edited.
    """

    key: str
    label: str
    kind: str = "choice"
    choices: tuple[tuple[Any, str], ...] = ()
    default: Any = None
    low: int = 0
    high: int = 0
    step: int = 1


def event_json(event: Mapping[str, Any]) -> str:
    """The canonical JSON text of an event (sorted keys, no spaces)."""
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


COLOURS = ("Red", "Blue", "Yellow", "Green", "Black", "White", "Orange", "Purple",
           "Pink", "Grey", "Brown", "Silver")
