"""Top Speed on the table screen: every car's cards left, its row this round and its
damage row (both face up on the table), its state in the round, and the exact chance that
its next card busts it. The order of a deck is never on the page: the chance counts the
cards left, whatever their order."""

from __future__ import annotations

from typing import Any

from companion.games.top_speed import rules as R
from companion.core.names import counted
from companion.kit.dashboard import bar, car, cards, stat, waiting

STATUS = {R.DRAWING: "drawing", R.PASSED: "passed", R.BUST: "bust", R.PIT: "in the pits", R.DONE: "done",
          R.NO_LAP: "no lap"}


def short(card) -> str:
    return str(card.get("short", card.name))


def public(state: R.State) -> dict[str, Any]:
    s = state.settings
    lap = max(0, s.laps - state.laps_left)
    laps = f"{counted(state.laps_left, 'lap')} to go of {s.laps}" if state.phase not in (R.START, R.GRID) else "before the start"
    notes = [f"{s.race_label} race, {s.circuit}"]
    if state.sc:
        notes.append(f"Safety Car out ({state.sc})")
    if state.yellow:
        notes.append("Yellow flag: no overtaking")
    turn, waits = waiting(R.moves(state), state.name(state.turn) if 0 <= state.turn < len(state.cars) else "")
    return {"laps": laps, "lap": lap, "turn": turn, "waiting": waits, "notes": notes,
            "cars": [dashboard(state, i) for i in range(len(state.cars))]}


def dashboard(state: R.State, i: int) -> dict[str, Any]:
    c = state.cars[i]
    total = len(state.settings.deck)
    widgets = [bar("cards left", c.pile.left, total)]
    risk = f"{round(100 * R.bust_chance(c))}%" if c.pile.left else "deck empty"
    widgets.append(stat("bust next", risk))
    widgets.append(cards("this round", [short(x) for x in c.row] or ["none yet"]))
    widgets.append(cards("damage", [short(x) for x in c.damage] or ["none"]))
    widgets.append(stat("moved", f"{R.green(c)} green"))
    if c.pits:
        widgets.append(stat("pit stops", c.pits))
    return car(c.name, c.colour, widgets, note=STATUS.get(c.status, c.status))
