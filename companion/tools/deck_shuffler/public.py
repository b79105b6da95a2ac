"""The deck shuffler on the table screen: each deck's cards left and the cards drawn and
showing. The order of the cards still to draw is never on the page."""

from __future__ import annotations

from typing import Any

from companion.core.names import counted
from companion.kit.dashboard import bar, car, cards, waiting
from companion.tools.deck_shuffler import rules as R


def public(state: R.State) -> dict[str, Any]:
    moves = R.moves(state)
    decks = [car(d.label, "Grey", [bar("cards left", d.pile.left, d.size),
                                   cards("showing", [c.name for c in d.shown] or ["none"])],
                 note="in use" if i == state.current else "",
                 row=[f"{d.pile.left} left", f"{len(d.shown)} showing"],
                 state="in use" if i == state.current else "")
             for i, d in enumerate(state.decks)]
    return {"laps": counted(state.draws, "draw"), "waiting": waiting(moves)[1],
            "cars": decks}
