"""Deck shuffler screens: the card drawn last fills the screen; the title bar says how
many cards are left to draw; a small line says what else happened (discards, shuffles)."""

from __future__ import annotations

from companion.core.names import counted
from companion.kit.text import first_fitting, short_name
from companion.profile import LINE_CHARS
from companion.tools.deck_shuffler.rules import Deck, State, can_draw
from companion.ui.view import Big, Text, View


def view(state: State) -> View:
    if not state.decks:
        return View(f"{state.name} decks", (Text("No decks here. Add"), Text("[decks.my-deck] to"),
                                            Text(f"games/{state.game}.toml")))
    d = state.deck
    status = f"{d.pile.left} left"
    title = first_fitting(d.label, short_name(d.label), limit=LINE_CHARS - 1 - len(status))
    if not d.shown:
        return View(title, _waiting(d), status=status)
    return View(title, (Big(d.shown[-1].name, caption=_caption(d)),), status=status)


def _waiting(d: Deck) -> tuple[Text, ...]:
    """No card on show: what happened last, and what GO does now."""
    discarded = len(d.pile.discard)
    if not can_draw(d):
        return Text(""), Text("No cards to draw", align="center")
    if not d.shuffled:
        lines = ("", "Press GO to shuffle", f"and draw ({counted(d.size, 'card')})")
    elif d.pile.left:
        pile = f"{discarded} in the discards" if discarded else ""
        lines = ("", "Press GO to draw", pile) if not d.done[0] else _noted(d)
    else:
        lines = ("Draw pile empty:", "GO reshuffles the", f"{counted(discarded, 'discard')}, draws")
    return tuple(Text(line, align="center") for line in lines)


def _caption(d: Deck) -> str:
    """Under the card: a reshuffle it caused, else how many cards are out and discarded
    (nothing when it is the only card out, so a long card name gets the room)."""
    if d.done[0]:
        return _note(d)
    shown, discarded = len(d.shown), len(d.pile.discard)
    parts = [(f"{shown} on show", f"{shown} out")] if shown > 1 else []
    if discarded:
        parts.append((f"{discarded} discarded", f"{discarded} disc."))
    if not d.pile.left and not discarded:
        parts.append(("none left", "none left"))
    return first_fitting(", ".join(p[0] for p in parts), ", ".join(p[1] for p in parts))


def _noted(d: Deck) -> tuple[str, str, str]:
    """The lines after an action: what it did (a long card name on a line of its own)."""
    what, _, name = d.done
    if what == "discarded" and name and len(f"{name} discarded") > LINE_CHARS:
        return name, "discarded", "Press GO to draw"
    return _note(d), "Press GO to draw", ""


def _note(d: Deck) -> str:
    """What the last action did, in one line."""
    what, count, name = d.done
    discards, cards = counted(count, "discard"), counted(count, "card")
    words = {
        "reshuffled": (f"{discards} reshuffled", f"{cards} reshuffled", f"{count} reshuffled"),
        "discarded": (f"{name} discarded" if name else f"{cards} discarded", f"{cards} discarded"),
        "put-back": (f"{discards} put back", f"{count} put back"),
        "shuffled": (f"All {cards} shuffled", f"{count} shuffled"),
    }.get(what, ("",))
    return first_fitting(*words)


def receipts(state: State) -> dict:
    return {}
