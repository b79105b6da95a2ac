"""Shared steps for the Street Illegal tests: stacked decks and moves by kind."""

import random
import tomllib
from pathlib import Path

from companion.games.street_illegal import rules

DATA_FILE = Path(rules.__file__).with_name("data.toml")


def load_data():
    with DATA_FILE.open("rb") as f:
        return tomllib.load(f)


def players(*names):
    return [{"name": n, "colour": c} for n, c in zip(names, ("Purple", "Red", "Yellow", "Blue", "Green", "Black", "White"))]


def track_index(state, limit, situation):
    """The index in the track deck of the card with this limit and situation."""
    return next(i for i, c in enumerate(state.deck) if c.limit == limit and c.situation.id == situation)


def stacked_order(state, values):
    """An order of the Old Pro deck that puts tempo cards of ``values`` on top, in turn."""
    order, used = [], set()
    for v in values:
        i = next(i for i, c in enumerate(state.tempo) if c.get("value") == v and i not in used)
        order.append(i)
        used.add(i)
    return order + [i for i in range(len(state.tempo)) if i not in used]


def start(state, track=None, op_values=()):
    """Apply a start event with the given track (indices; default the first 8 cards) and the
    Old Pro deck stacked with ``op_values`` on top; the table has seen the track."""
    track = list(track if track is not None else range(8))
    track += [i for i in range(len(state.deck)) if i not in track][: 8 - len(track)]
    state = rules.apply(state, {"kind": "start", "track": track, "op_order": stacked_order(state, op_values)})
    return rules.apply(state, {"kind": "go"})


def passed_review(state):
    """The state after the table pressed GO on a review (the track, the starting grid)."""
    while state.step in rules.REVIEWS:
        state = rules.apply(state, {"kind": "go"})
    return state


def perform(state, kind, rng=None, **args):
    """Resolve and apply the one offered move of ``kind`` whose args include ``args`` (a
    review of the track or the grid on the way is passed with GO)."""
    if kind not in ("go", "page"):
        state = passed_review(state)
    player = args.pop("player", None)
    offered = [m for m in rules.moves(state) if m.kind == kind and player in (None, m.player)
               and all(m.arg(k) == v for k, v in args.items())]
    assert len(offered) == 1, f"{kind} {args} not offered once in {[m.label for m in rules.moves(state)]}"
    event = rules.resolve(state, offered[0], rng or random.Random(0))
    return rules.apply(state, event), event


def car(state, name):
    return next(i for i, c in enumerate(state.cars) if c.name == name)


def names(state, cars):
    return [state.cars[c].name for c in cars]
