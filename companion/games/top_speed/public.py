"""Top Speed on the table screen: every car's cards left, its row this round and its
damage row (both face up on the table), its state in the round, and the exact chance that
its next card busts it; once the flag is out, its result. The order of a deck is never on
the page: the chance counts the cards left, whatever their order."""

from __future__ import annotations

from typing import Any

from companion.games.top_speed import rules as R
from companion.core.names import counted
from companion.kit.dashboard import FINISHED, bar, car, cards, stat, waiting
from companion.kit.standings import ordinal

STATUS = {R.DRAWING: "drawing", R.PASSED: "passed", R.BUST: "bust", R.PIT: "in the pits", R.DONE: "round done",
          R.NO_LAP: "no lap"}
"""A car's part in the round, in words (its note)."""
STATES = {R.PASSED: "passed", R.BUST: "bust", R.PIT: "in the pits", R.NO_LAP: "no lap"}
"""The parts of a round the tower marks (drawing and done are racing as usual)."""


def short(card) -> str:
    return str(card.get("short", card.name))


def public(state: R.State) -> dict[str, Any]:
    s = state.settings
    lap = chart(state)["lap"]
    laps = (f"last lap of {s.laps}" if state.laps_left == 1 else f"{counted(state.laps_left, 'lap')} to go of {s.laps}") \
        if state.phase not in (R.START, R.GRID) else "before the start"   # as the box says it
    if over(state):
        laps = f"finished, {counted(s.laps, 'lap')}"
    notes = [f"{s.race_label} race, {s.circuit}"]
    if state.sc:
        notes.append(f"Safety Car out ({state.sc})")
    if state.yellow:
        notes.append("Yellow flag: no overtaking")
    turn, waits = waiting(R.moves(state), state.name(state.turn) if 0 <= state.turn < len(state.cars) else "")
    places = {r["name"]: r["position"] for r in R.standings(state)} if over(state) else {}
    return {"laps": laps, "lap": lap, "turn": turn, "waiting": waits, "notes": notes,
            "cars": [dashboard(state, i, places.get(state.name(i), 0)) for i in range(len(state.cars))]}


def chart(state: R.State) -> dict[str, Any]:
    """The lap chart's part of the view: the laps run."""
    return {"lap": max(0, state.settings.laps - state.laps_left)}


def over(state: R.State) -> bool:
    """The flag is out: no lap left (the last steps on the screen included)."""
    return state.laps_left <= 0


def dashboard(state: R.State, i: int, place: int = 0) -> dict[str, Any]:
    """Car ``i``'s dashboard; ``place``: its result once the race is over."""
    c = state.cars[i]
    left = bar("cards left", c.pile.left, len(state.settings.deck))
    damage = cards("damage", [short(x) for x in c.damage] or ["none"])
    pits = [stat("pit stops", c.pits)] if c.pits else []
    if place:
        widgets = [stat("result", ordinal(place)), left, damage, *pits,
                   stat("laps led", c.led), stat("best round", counted(c.best, "space"))]
        row = [f"{c.pile.left} left", f"led {c.led}", counted(c.pits, "pit")]
        return car(c.name, c.colour, widgets, note=f"finished {ordinal(place)}", row=row, state=FINISHED)
    chance = round(100 * R.bust_chance(c))
    widgets = [left, stat("bust next", f"{chance}%" if c.pile.left else "deck empty"),
               cards("this round", [short(x) for x in c.row] or ["none yet"]), damage,
               stat("moved", f"{R.green(c)} green"), *pits]
    row = [f"{c.pile.left} left", f"bust {chance}%" if c.pile.left else "deck empty", f"{R.green(c)} green"]
    return car(c.name, c.colour, widgets, note=STATUS.get(c.status, c.status), row=row,
               state=STATES.get(c.status, ""))
