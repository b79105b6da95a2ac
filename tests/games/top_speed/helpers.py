"""Stacked-deck races for the Top Speed tests, through the real rules (resolve + apply)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from companion.core.config import deep_merge
from companion.core.rng import make_rng
from companion.games.top_speed import rules as R

DATA_FILE = Path(R.__file__).with_name("data.toml")


def data(**overrides) -> dict:
    """The built-in data.toml, with ``overrides`` (tables) laid over it."""
    with DATA_FILE.open("rb") as f:
        return deep_merge(tomllib.load(f), overrides)


def new_race(players: int = 3, *, spaces: int | None = None, **options) -> R.State:
    opts = {"players": players, "race": "wet", "laps": 66, **options}
    over = {"circuit": {"spaces": spaces}} if spaces else {}
    return R.setup(opts, data(**over))


def stacked_start(state: R.State, grid: list[int], tops: dict[int, list[str]] | None = None) -> R.State:
    """Start the race with each car's deck holding ``tops[car]`` on top (the rest in data
    order: the green 1s first)."""
    event = {"kind": "start", "grid": grid, "decks": None if state.qualified else stacked_orders(state, tops)}
    return R.apply(R.apply(state, event), {"kind": "go"})     # the table has seen the grid


def stacked_orders(state: R.State, tops: dict[int, list[str]] | None) -> list[list[int]]:
    """Shuffle orders that put ``tops[car]`` on top of each car's deck."""
    tops = tops or {}
    orders = []
    for c, car in enumerate(state.cars):
        cards = car.pile.draw + car.pile.discard
        used: list[int] = []
        for name in tops.get(c, []):
            used.append(next(i for i, x in enumerate(cards) if x.name == name and i not in used))
        orders.append(used + [i for i in range(len(cards)) if i not in used])
    return orders


def act(state: R.State, kind: str, rng=None, see: bool = True, **args) -> R.State:
    """Perform the offered move of ``kind`` (it must be offered), like a button press. A
    draw is seen at once (its outcome screen passed with GO) unless ``see`` is False."""
    if state.drawn and kind not in ("seen", "cards"):
        state = seen(state)
    offered = [m for m in R.moves(state) if m.kind == kind and all(m.arg(k) == v for k, v in args.items())]
    assert offered, f"{kind} not offered; moves: {[m.label for m in R.moves(state)]}"
    state = R.apply(state, R.resolve(state, offered[0], rng or make_rng(0)))
    return seen(state) if kind == "draw" and see else state


def seen(state: R.State) -> R.State:
    """The player who just drew has read the outcome and hands on."""
    return R.apply(state, {"kind": "seen", "car": state.turn})


def draws(state: R.State, n: int) -> R.State:
    """The player on turn draws ``n`` cards in a row (others must have passed)."""
    car = state.turn
    for _ in range(n):
        assert state.turn == car
        state = act(state, "draw")
    return state


def finish_round(state: R.State) -> R.State:
    """Step through the movement phase to the round-end screen (or the finish)."""
    while state.phase == R.STEPS:
        state = act(state, "next")
    return state


def next_round(state: R.State) -> R.State:
    state = finish_round(state)
    return act(state, "next") if state.phase == R.ROUND_END else state


def kinds(state: R.State) -> list[str]:
    return [m.kind for m in R.moves(state)]
