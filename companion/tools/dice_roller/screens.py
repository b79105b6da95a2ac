"""Dice roller screens: the last roll fills the screen, its die named under it."""

from __future__ import annotations

from companion.tools.dice_roller import rules
from companion.ui.view import Big, Text, View


def view(state: rules.State) -> View:
    title = "Dice" if state.game == "any" else f"{state.name} dice"
    if not state.history:
        primary = next(m for m in rules.moves(state) if m.primary)
        return View(title, (Text(""), Text("Press GO to roll", align="center"),
                            Text(primary.label, align="center")))
    last = state.history[-1]
    return View(title, (Big(" ".join(str(f) for f in last.faces), caption=last.caption),),
                status=f"#{state.count}")


def receipts(state: rules.State) -> dict:
    return {}
