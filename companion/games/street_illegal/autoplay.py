"""Scripted players: plausible human choices for a whole race (the demo and tests).

``choose(state, rng)`` returns one of ``rules.moves(state)``: players mostly keep to the
limit, sometimes pay chips or brake, show a speed near the limit with a chip or two
against an Old Pro, and now and then try a second pass.
"""

from __future__ import annotations

import random

from companion.games.api import Move
from companion.games.street_illegal import rules
from companion.games.street_illegal.rules import BRAKE, PAID, WITHIN, State
from companion.kit.turns import primary


def choose(state: State, rng: random.Random) -> Move:
    """A plausible choice among ``rules.moves(state)``; deterministic for a seeded ``rng``."""
    options = rules.moves(state)
    if not options:
        raise ValueError("the race is over: nothing to choose")
    kinds = {m.kind for m in options}
    if kinds & {"drive", "redrive"} and len(options) > 1:
        return _by_arg(options, "choice", rng.choices((WITHIN, PAID, BRAKE), weights=(7, 2, 1))[0])
    if "speed" in kinds:
        return _speed(state, options, rng)
    if "again" in kinds:
        return _by_kind(options, "again" if rng.random() < 0.3 else "stop")
    if "winner" in kinds:
        if "tie" in kinds and rng.random() < 0.15:
            return _by_kind(options, "tie")
        if "pass_up" in kinds and rng.random() < 0.1:
            return _by_kind(options, "pass_up")
        return rng.choice([m for m in options if m.kind == "winner"])
    if "old_pro" in kinds:
        if "pass_up" in kinds and rng.random() < 0.1:
            return _by_kind(options, "pass_up")
        return _by_kind(options, "old_pro")
    if kinds <= {"seat", "bid", "raise"}:
        return rng.choice(options)
    return primary(options)


def _speed(state: State, options: list[Move], rng: random.Random) -> Move:
    base = state.limit or rng.choice(range(90, 160, 10))
    chips = rng.choice((0, 0, 1, 1, 2))
    wanted = base + rng.choice((-10, 0, 0, 10)) + 10 * chips
    return min(options, key=lambda m: abs(m.arg("speed") - wanted))


def _by_kind(options: list[Move], kind: str) -> Move:
    return next(m for m in options if m.kind == kind)


def _by_arg(options: list[Move], key: str, value) -> Move:
    return next((m for m in options if m.arg(key) == value), options[0])


# -- the demo race (``companion demo --game street-illegal``) ----------------------------

DEMO_OPTIONS = {"players": 3, "grid": "tactical", "better_old_pros": False, "nitrous": True}
DEMO_SEED = 3


def demo_script(state: State) -> Move | None:
    """The scripted players' move now (None when the race is over). The choice depends on
    the state alone, so a demo replays the same way."""
    if rules.finished(state):
        return None
    return choose(state, random.Random(_fingerprint(state)))


def _fingerprint(state: State) -> str:
    """A text that changes with every move (string seeds are stable across processes)."""
    return "|".join(str(x) for x in (state.step, state.card, state.phase, state.turn, state.stage, state.actor,
                                     state.order, state.seated, state.bids, state.pile.left,
                                     len(state.pile.discard), state.won, state.lost, state.hand))
