"""Scripted players for the demo and the tests: humans with real (simulated) hands.

The companion never sees a human's cards; a scripted human holds a hand of its own, dealt
from the human cars' suits as the table would deal them (a fixed shuffle per race), and
plays it with the Steady policy of :mod:`companion.games.lacorsa.driver`, entering each
card as a player does (a Redline with a card takes two presses).
"""

from __future__ import annotations

import random
from collections import Counter

from companion.games.api import Move
from companion.games.lacorsa import driver, rules
from companion.games.lacorsa.rules import ACT, DISCARD, PLAY, QUALIFY, RACE, State
from companion.kit.update import evolve, replace_at


def table_hands(state: State) -> dict[int, tuple[str, ...]]:
    """The hands the table dealt to the human cars this race (a fixed shuffle)."""
    humans = state.humans
    cards = [d.name for d in state.settings.suit for _ in humans]
    random.Random(f"lacorsa-table-{state.race}").shuffle(cards)
    return {c: tuple(cards[k::len(humans)]) for k, c in enumerate(humans)}


def hand(state: State, car: int) -> tuple[str, ...]:
    """What human ``car`` holds now: its dealt hand less the cards it played."""
    left = Counter(table_hands(state)[car])
    left.subtract(state.played[car])
    return tuple(sorted((+left).elements()))


def _knowledge(state: State, car: int) -> driver.Knowledge:
    """What the scripted human knows: the companion's public facts and its own hand."""
    return rules.knowledge(evolve(state, hands=replace_at(state.hands, car, hand(state, car))), car)


def _enter(state: State, car: int, cards: tuple[str, ...], options: list[Move]) -> Move:
    if len(cards) == 2 and state.redline != car:
        return next(m for m in options if m.kind == "redline")
    want = tuple(cards)
    for m in options:
        if m.arg("car") == car and tuple(m.arg("cards") or ()) in (want, want[::-1]):
            return m
    return options[0]


def choose(state: State) -> Move | None:
    options = rules.moves(state)
    if not options:
        return None
    primary = next((m for m in options if m.primary), options[0])
    if state.show:
        return next(m for m in options if m.kind == "table")
    if state.step == QUALIFY or (state.step == RACE and state.stage == PLAY):
        pending = rules.waiting(state)
        car = next((c for c in pending if not state.cars[c].auto), None)
        if car is None or any(state.cars[c].auto for c in pending):
            return primary
        return _enter(state, car, rules.face_down_play(state, car, _knowledge(state, car)), options)
    if state.step == RACE and state.stage in (ACT, DISCARD) and not state.cars[state.actor].auto:
        car = state.actor
        action, cards = driver.decide(_knowledge(state, car))
        if state.stage == ACT:
            if action == "challenge":
                return next(m for m in options if m.kind == "challenge")
            if action == "extend":
                return next(m for m in options if m.kind == "extend" and m.arg("cards") == cards)
            return next(m for m in options if m.kind == "discard-menu")
        if action != "discard":
            cards = driver.lowest(_knowledge(state, car))
        return _enter(state, car, cards, options)
    return primary


# -- the demo race (``companion demo --game lacorsa``) -------------------------------------

DEMO_OPTIONS = {
    "players": 4, "championship": False, "tie_crash": False,
    "cars": [{"driver": "human"}, {"driver": "auto", "level": "racer"},
             {"driver": "human"}, {"driver": "auto", "level": "steady"}],
}
DEMO_SEED = 7


def demo_script(state: State) -> Move | None:
    """The scripted table's move now (None when the race is over)."""
    if rules.finished(state):
        return None
    return choose(state)
