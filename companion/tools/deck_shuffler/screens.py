"""Deck shuffler screens: the card drawn last fills the screen, with the cards left."""

from __future__ import annotations

from companion.tools.deck_shuffler.rules import State
from companion.ui.view import Big, Text, View


def view(state: State) -> View:
    if not state.decks:
        return View(f"{state.name} decks", (Text("No decks here. Add"), Text("[decks.my-deck] to"),
                                            Text(f"games/{state.game}.toml")))
    d = state.deck
    status = f"{d.pile.left} left"
    if not d.shown:
        hint = "Press GO to draw" if d.pile.left or d.pile.discard else "No cards to draw"
        return View(d.label, (Text(""), Text(hint, align="center"),
                              Text(f"{d.size} cards, {len(d.pile.discard)} discarded", align="center")),
                    status=status)
    parts = [f"{len(d.shown)} drawn"] if len(d.shown) > 1 else []
    parts.append(f"{len(d.pile.discard)} discarded")
    return View(d.label, (Big(d.shown[-1].name, caption=", ".join(parts)),), status=status)


def receipts(state: State) -> dict:
    return {}
