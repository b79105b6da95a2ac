"""The lap counter on the table screen: every car's laps as a gauge of the race's length,
laps led, and the finish when flagged (a race ended early flags every car where it
stands)."""

from __future__ import annotations

from typing import Any

from companion.core.names import counted
from companion.kit.dashboard import FINISHED, bar, car, stat, waiting
from companion.tools.lap_counter import rules as R


def public(state: R.LapCounter) -> dict[str, Any]:
    race = state.race
    rows = R.standings(state)
    lead = max((r["laps"] for r in rows), default=0)
    laps = f"{counted(race.length - lead, 'lap')} to go" if race.countdown else f"Lap {lead} of {race.length}"
    moves = R.moves(state)
    turn, waits = waiting(moves)
    cars = [car(r["name"], r.get("colour") or r["name"],
                [bar("laps", r["laps"], race.length), stat("laps led", r.get("laps_led", 0))],
                note="finished" if r.get("finished") else "",
                row=[counted(r["laps"], "lap"), f"led {r.get('laps_led', 0)}"],
                state=FINISHED if r.get("finished") else "")
            for r in rows]
    note = "" if state.table else "Race order: the most laps first; on the same lap, who crossed first."
    return {"laps": laps, "lap": lead, "turn": turn, "waiting": waits, "cars": cars, "order_note": note}

