"""Deck shuffler screens: the card drawn last fills the screen; the title bar says how
many cards are left to draw; a small line says what else happened (discards, shuffles)."""

from __future__ import annotations

from companion.tools.deck_shuffler.rules import Deck, State, can_draw
from companion.ui.view import Big, Text, View


def view(state: State) -> View:
    if not state.decks:
        return View(f"{state.name} decks", (Text("No decks here. Add"), Text("[decks.my-deck] to"),
                                            Text(f"games/{state.game}.toml")))
    d = state.deck
    status = f"{d.pile.left} left"
    if not d.shown:
        return View(d.label, _waiting(d), status=status)
    return View(d.label, (Big(d.shown[-1].name, caption=_caption(d)),), status=status)


def _waiting(d: Deck) -> tuple[Text, ...]:
    """No card on show: what happened last, and what GO does now."""
    discarded = len(d.pile.discard)
    if not can_draw(d):
        return Text(""), Text("No cards to draw", align="center")
    if not d.shuffled:
        lines = ("", "Press GO to shuffle", f"and draw ({d.size} cards)")
    elif d.pile.left:
        pile = f"{discarded} in the discards" if discarded else ""
        lines = ("", "Press GO to draw", pile) if not d.note else (d.note, "Press GO to draw", "")
    else:
        lines = ("Draw pile empty:", "GO reshuffles the", f"{discarded} discards, draws")
    return tuple(Text(line, align="center") for line in lines)


def _caption(d: Deck) -> str:
    """Under the card: a reshuffle it caused, else how many cards are out and discarded
    (nothing when it is the only card out, so a long card name gets the room)."""
    if d.note:
        return d.note
    parts = [f"{len(d.shown)} on show"] if len(d.shown) > 1 else []
    if d.pile.discard:
        parts.append(f"{len(d.pile.discard)} discarded")
    if not d.pile.left and not d.pile.discard:
        parts.append("none left")
    return ", ".join(parts)


def receipts(state: State) -> dict:
    return {}
