"""The deck shuffler's demo: Top Speed's deck drawn two cards at a time and discarded,
the discards reused once, then more draws; then the demo ends."""

from __future__ import annotations

from companion.games.api import Move
from companion.tools.deck_shuffler import rules as R

DEMO_OPTIONS = {"game": "top-speed"}
DEMO_SEED = 1
DRAWS = 8        # cards drawn before the demo ends
REUSE_AT = 4     # the discards go back under the pile after this many draws


def demo_script(state: R.State) -> Move | None:
    if state.draws >= DRAWS or not state.decks:
        return None
    deck = state.deck
    if len(deck.shown) >= 2:
        wanted = "discard"
    elif deck.pile.discard and state.draws == REUSE_AT:
        wanted = "reshuffle"
    else:
        wanted = "draw"
    return next((m for m in R.moves(state) if m.kind == wanted), None)
