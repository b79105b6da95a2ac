"""Scripted crossings for the demo race: the cars cross the line in a shuffling order,
as they would round a real board, until the race is over; then the race is finished."""

from __future__ import annotations

from companion.games.api import Move
from companion.tools.lap_counter import rules as R

DEMO_OPTIONS = {"players": 4, "length": 5, "count": "up", "timing": "off"}
DEMO_SEED = 1


def demo_script(state: R.LapCounter) -> Move | None:
    moves = R.moves(state)
    if not moves:
        return None
    crossings = [m for m in moves if m.kind == "cross"]
    if not crossings or R.racing.is_over(state.race):
        return next(m for m in moves if m.kind in ("start", "finish"))
    # the car that crossed longest ago usually comes round first; every third crossing
    # the second one does, so overtakes happen and the order changes
    done = len(state.race.crossings)
    return crossings[1] if done % 3 == 2 and len(crossings) > 1 else crossings[0]
