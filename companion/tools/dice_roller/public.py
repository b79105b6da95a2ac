"""The dice roller on the table screen: the last rolls, newest first."""

from __future__ import annotations

from typing import Any

from companion.core.names import counted
from companion.kit.dashboard import waiting
from companion.tools.dice_roller import rules as R


def public(state: R.State) -> dict[str, Any]:
    moves = R.moves(state)
    notes = [f"{roll.caption}: {' '.join(str(f) for f in roll.faces)}" for roll in reversed(state.history)]
    return {"laps": counted(state.count, "roll"), "waiting": waiting(moves)[1],
            "notes": notes or ["Nothing rolled yet"]}
