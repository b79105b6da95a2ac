"""The dice roller's demo: 3-Wide's tire dice rolled as a set, a die of the set worn to
the next colour, and each single die rolled once; then the demo ends."""

from __future__ import annotations

from companion.games.api import Move
from companion.tools.dice_roller import rules as R

DEMO_OPTIONS = {"game": "3-wide"}
DEMO_SEED = 1
ROLLS = 8     # rolls before the demo ends


def demo_script(state: R.State) -> Move | None:
    if state.count >= ROLLS:
        return None
    moves = R.moves(state)
    if state.count == 2 and state.changed is None:  # a tire wears: the next die of its set
        swap = next((m for m in moves if m.kind == "swap"), None)
        if swap is not None:
            return swap
    rolls = [m for m in moves if m.kind in ("roll", "roll-set")]
    return rolls[state.count % len(rolls)]
