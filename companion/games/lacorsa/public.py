"""Lacorsa on the table screen: every car's cards left in hand and the cards it has played
(face up on the table), its space, and the championship. An automated car's hand is
secret: the page has how many cards it holds, never which."""

from __future__ import annotations

from typing import Any, Mapping

from companion.games.lacorsa import rules as R
from companion.core.names import counted
from companion.kit.dashboard import FINISHED, bar, car, cards, stat, waiting


def public(state: R.State) -> dict[str, Any]:
    s = state.settings
    laps = f"Lap {state.lap}" if state.step == R.RACE else {
        R.DEAL: "dealing", R.QUALIFY: "qualifying", R.GRID: "the grid", R.START: "the start",
        R.BETWEEN: "between races", R.DONE: "finished"}.get(state.step, state.step)
    if state.championship:
        laps += f", race {state.race} of {s.races}"
    turn, waits = _waiting(state)
    turn_cars = [state.name(c) for c in R.waiting(state)] if _choosing(state) else [turn] if turn else []
    notes = []
    if state.defender >= 0 and state.stage == R.PLAY:
        notes.append(f"Challenge: {state.name(state.actor)} against {state.name(state.defender)}")
    return {"laps": laps, **chart(state), "turn": turn, "turn_cars": turn_cars,
            "waiting": waits, "notes": notes,
            "cars": [dashboard(state, i) for i in range(len(state.cars))]}


def chart(state: R.State) -> dict[str, Any]:
    """The lap chart's part of the view: the lap, the race of a championship, the order."""
    return {"lap": state.lap, "race_no": state.race if state.championship else 0,
            "order": [state.name(c) for c in R.final_order(state)]}


def _choosing(state: R.State) -> bool:
    """Cards are being played face down (qualifying, a challenge): by the cars ``R.waiting`` names."""
    return state.step == R.QUALIFY or state.stage == R.PLAY and state.step == R.RACE


def _waiting(state: R.State) -> tuple[str, str]:
    """Whose turn and what the box waits for, in words: a human's card entry lists every
    card a car may hold, so the highlighted one is never said."""
    if _choosing(state):
        pending = [state.name(c) for c in R.waiting(state)]
        return (pending[0] if len(pending) == 1 else ""), f"{' and '.join(pending)}: play face down"
    if state.step == R.RACE and state.actor >= 0:
        who = state.name(state.actor)
        if state.cars[state.actor].auto:
            return who, f"{who} drives (automated)"
        if state.stage == R.DISCARD:
            return who, f"{who}: enter the card discarded"
        return who, f"{who}: challenge, extend or discard"
    return waiting(R.moves(state))


def dashboard(state: R.State, i: int) -> dict[str, Any]:
    c = state.cars[i]
    suit = len(state.settings.suit)
    over = state.step in (R.BETWEEN, R.DONE)
    # a play made face down while another car has still to play is not shown yet
    down = dict(state.plays).get(i, ()) if R.waiting(state) else ()
    widgets, row = [], []
    if state.left:
        left = state.left[i] + len(down)
        widgets.append(bar("cards left in hand", left, suit))
        row.append(counted(left, "card"))
    if state.played:
        shown = list(state.played[i][:len(state.played[i]) - len(down)])
        widgets.append(cards(f"cards played ({len(shown)} face up)" if down else f"cards played ({len(shown)})",
                             shown + (["face down"] if down else []) or ["none" if over else "none yet"]))
    if state.space and state.step in (R.RACE, R.DONE):
        widgets.append(stat("space", state.space[i]))
        row.append(f"space {state.space[i]}")
    if state.championship and state.totals:
        widgets.append(stat("championship", counted(state.totals[i], "point")))
        row.append(f"{state.totals[i]} pts")
    crashed = any(i in g for g in state.crashed)
    note = ("automated" if c.auto else f"{c.owner_name}'s car") + (", crashed" if crashed else "")
    return car(c.name, c.colour, widgets, note=note, out=crashed, row=row, state=_state(state, i, crashed))


def _state(state: R.State, i: int, crashed: bool) -> str:
    """Where car ``i`` stands, for the tower: crashed, challenging, out of cards, finished."""
    if crashed:
        return "crashed"
    if state.step in (R.BETWEEN, R.DONE):
        return FINISHED
    if state.step != R.RACE:
        return ""
    if state.defender >= 0 and state.stage == R.PLAY and i in (state.actor, state.defender):
        return "challenging" if i == state.actor else "defending"
    return "no cards" if state.left and not state.left[i] else ""


def secret(state: R.State) -> bool:
    """Cards are in face down while another car has still to play: they stay off the
    table screen until the reveal."""
    return bool(state.plays) and bool(R.waiting(state))


def public_words(before: R.State, event: Mapping[str, Any], after: R.State) -> str | None:
    """The table's words for an event: a play entered face down, by a human or an automated
    car, says who played (``Ann 1: a card face down``), never what, before and after the
    reveal; the play that completes them all reveals every card (``Cards turned: Ann 1
    played 10, Bob played R+7``). A Redline chosen for a play (``R + a card``) and Back from it say nothing:
    one card or two is the player's secret until the reveal. Anything else: the history's
    words."""
    kind = event.get("kind")
    entering = before.step == R.QUALIFY or before.step == R.RACE and before.stage == R.PLAY
    if kind in ("redline", "back") and entering:
        return ""
    if kind != "plays":
        return None
    cars = [entry[0] for entry in event.get("plays", ())]
    if R.waiting(after):
        names = " and ".join(before.name(c) for c in cars)
        return f"{names}: {'a card' if len(cars) == 1 else 'cards'} face down"
    shown = list(before.plays) + [(c, tuple(cards)) for c, cards in event.get("plays", ())]
    return "Cards turned: " + ", ".join(f"{before.name(c)} played {'+'.join(cards)}" for c, cards in shown)
