"""3-Wide on the table screen: every car's tire chips in their colours, the fuel gauge,
damage, handling and markers, and its pit state; in the tower its lap, fuel and damage,
and its state (in the pits, on its roof, demolished, finished). The tactic hands are secret: the page
has how many cards each player holds, never which (nor the tactic deck's order)."""

from __future__ import annotations

from typing import Any, Mapping

from companion.games.three_wide import rules as R
from companion.games.three_wide import tables
from companion.core.names import counted
from companion.kit.cars import COLOURS
from companion.kit.dashboard import FINISHED, bar, car, chips, primary_index, stat, waiting

CHIP_WORDS = ("B", "G", "Y", "R")   # a chip's wear, as on the OLED (black .. red)
PHASES = {R.START: "Draw the grid", R.DEAL: "Deal the tactic cards", R.OVER: "The race is over"}


def public(state: R.State) -> dict[str, Any]:
    s = state.settings
    lead = max((c.lap for c in state.cars if not c.out), default=0)
    laps = f"Lap {lead} of {s.laps}"
    if state.phase == R.OVER:
        laps = f"finished, {counted(s.laps, 'lap')}"
    elif state.yellow:
        laps += ", yellow flag"
    elif state.gwc:
        laps += ", green-white-checker"
    turn, waits = _waiting(state)
    notes = []
    if state.hands:
        notes.append("Tactic cards in hand: " + ", ".join(
            f"{name} {len(hand)}" for name, hand in zip(state.players, state.hands)))
    return {"laps": laps, **chart_order(state), "turn": turn, "turn_cars": _turn_cars(state), "waiting": waits, "notes": notes,
            "cars": [dashboard(state, i) for i in range(len(state.cars))]}


def chart_order(state: R.State) -> dict[str, Any]:
    """The lap chart's point: the race order after each turn, at the turn's number. A
    turn's pace roll moves every car several laps at once, so the leader's lap skips
    numbers (1, then 3): sampled by lap the chart had no point at the laps skipped and
    uneven gaps. Between two turns' ends the order is the last turn's (the grid's before)."""
    order = state.chart[-1][1] if state.chart else R.classification(state)
    return {"lap": len(state.chart), "axis": "turn", "order": [R.car_name(state, c) for c in order]}


def _turn_cars(state: R.State) -> list[str]:
    """The cars whose turn it is, as the tower names them: a player picking tactics, all
    of theirs (for which one the pick is stays secret); else the car the box's next press
    is for, when it is for one."""
    if state.phase == R.TACTICS:
        return [state.name(i) for i, c in enumerate(state.cars) if c.owner == state.actor]
    moves = R.moves(state)
    if not moves:
        return []
    car = moves[primary_index(moves)].arg("car")
    return [state.name(car)] if isinstance(car, int) and 0 <= car < len(state.cars) else []



def _waiting(state: R.State) -> tuple[str, str]:
    """Whose turn and what the box waits for. While a player picks tactics the moves name
    the cards of their hand: then only the player is said."""
    if state.phase == R.TACTICS:
        who = state.players[state.actor]
        return who, f"{who}: choose tactics ({counted(len(state.hands[state.actor]), 'card')} in hand, secret)"
    if state.phase in PHASES:
        return "", PHASES[state.phase]
    return waiting(R.moves(state))


def dashboard(state: R.State, i: int) -> dict[str, Any]:
    c = state.cars[i]
    tank = state.settings.tank
    fuel = min(c.fuel, tank)
    widgets = [chips("tires", [(CHIP_WORDS[w], tables.TIRES[w]) for w in c.tires]),
               bar("fuel", fuel, tank),
               stat("damage", c.damage), stat("handling", c.handling)]
    marks = list(c.markers) + (["Sling"] if any(x[0] == i for x in state.slings) else [])
    if marks:
        widgets.append(chips("markers", [(m, "grey") for m in marks]))
    pit = "demolished" if c.out else "kept in the pits" if c.stuck else "on its roof" if c.roof else ""
    if state.car == i:
        pit = "in the pits now"
    widgets.append(stat("pits", counted(c.pits, "stop") + (f", {pit}" if pit else "")))
    owner = state.players[c.owner]
    note = f"{owner}'s {'team' if c.team else 'associated'} car, lap {c.lap}"
    if state.phase == R.OVER and not c.out:
        note += ", finished"
    return car(state.name(i), COLOURS[c.owner % len(COLOURS)], widgets, note=note, out=c.out,
               row=[f"L{c.lap}", f"fuel {fuel}", f"dmg {c.damage}"], state=_state(state, i))


def _state(state: R.State, i: int) -> str:
    """Where car ``i`` stands, for the tower ("" racing)."""
    c = state.cars[i]
    if c.out:
        return "demolished"
    if state.phase == R.OVER:
        return FINISHED
    if c.stuck or state.car == i or state.phase in (R.SERVICE, R.YSERVICE) and i in state.boxes:
        return "in the pits"
    return "on its roof" if c.roof else ""


def secret(state: R.State) -> bool:
    """The players pick their tactics in turn from their hands: what each picked stays
    off the table screen until the tactics are turned."""
    return state.phase == R.TACTICS


def public_words(before: R.State, event: Mapping[str, Any], after: R.State) -> str | None:
    """The table's words for an event: a tactic picked says who picked one
    (``Red: a tactic face down``), never which card nor for which car, before and after
    the reveal; the last player's Done turns them all (``Tactics turned: MoveNow>#11,
    Draft>#3``). Anything else: the history's words."""
    kind = event.get("kind")
    if kind == "play" and before.phase == R.TACTICS:
        return f"{before.players[before.actor]}: a tactic face down"
    if kind == "tactics-done" and before.phase == R.TACTICS and after.phase != R.TACTICS:
        turned = [f"{R.card(after, i).short}>#{after.cars[c].number}" for i, c in after.played]
        return "Tactics turned: " + (", ".join(turned) or "none")
    return None
