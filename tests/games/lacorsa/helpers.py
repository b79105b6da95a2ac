"""Lacorsa races with fixed hands and fixed cards, through the real rules (resolve + apply)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from companion.core.config import deep_merge
from companion.games.lacorsa import rules as R

DATA_FILE = Path(R.__file__).with_name("data.toml")
COLOURS = ("Red", "Blue", "Yellow", "Green", "Black", "White")


def data(**overrides) -> dict:
    """The built-in data.toml with ``overrides`` (tables) laid over it."""
    with DATA_FILE.open("rb") as f:
        return deep_merge(tomllib.load(f), overrides)


def new(players: int = 4, autos: dict[int, str] | None = None, **options) -> R.State:
    """A race of ``players`` drivers; ``autos``: driver index -> level for automated ones."""
    autos = autos or {}
    entries = [{"name": c, "colour": c, **({"driver": "auto", "level": autos[i]} if i in autos else {"driver": "human"})}
               for i, c in enumerate(COLOURS[:players])]
    return R.setup({"players": entries, **options}, data())


def step(state: R.State, event: dict) -> R.State:
    """Apply ``event`` as the journal would store it (through JSON)."""
    return R.apply(state, json.loads(json.dumps(event)))


def deal(state: R.State, hands: dict[int, list[str]] | None = None) -> R.State:
    """Deal the automated cars ``hands`` (by car); unnamed ones get whole suits in data order."""
    suit = [d.name for d in state.settings.suit]
    hands = hands or {}
    given = [list(hands.get(c, suit)) for c in state.autos]
    return step(state, {"kind": "deal", "hands": given})


def qualify(state: R.State, cards: dict[int, list[str]], rolls: list | None = None) -> R.State:
    """Every car's qualifying play (by car), then the grid with the tie die ``rolls``."""
    for car in range(len(state.cars)):
        state = step(state, {"kind": "plays", "plays": [[car, cards[car]]]})
    state = step(state, {"kind": "grid", "rolls": rolls or []})
    return step(state, {"kind": "start"})


def race(players: int = 4, autos: dict[int, str] | None = None, hands=None, **options) -> R.State:
    """A race on the grid 0, 1, 2, ... (car 0 on pole): qualifying cards 11, 10, 9..."""
    state = deal(new(players, autos, **options), hands)
    values = ["11", "10", "9", "8", "7", "6"]
    return qualify(state, {c: [values[c]] for c in range(len(state.cars))})


def play(state: R.State, car: int, *cards: str) -> R.State:
    return step(state, {"kind": "plays", "plays": [[car, list(cards)]]})


def act(state: R.State, car: int, action: str, *cards: str) -> R.State:
    return step(state, {"kind": "act", "car": car, "action": action, "cards": list(cards)})


def challenge(state: R.State, attack: list[str], defend: list[str]) -> R.State:
    """The car on turn challenges the car ahead; both play the given cards."""
    a = state.actor
    d = state.ahead(a)
    state = act(state, a, "challenge")
    state = play(state, a, *attack)
    if state.stage == R.PLAY and d in R.waiting(state):
        state = play(state, d, *defend)
    return state


class Dice:
    """An rng whose ``randrange`` gives the stacked die faces' indices, in order."""

    def __init__(self, *faces: int, table=(1, 2, 3, 4, 5, 6)):
        self.indices = [table.index(f) for f in faces]

    def randrange(self, n: int) -> int:
        return self.indices.pop(0)
