"""Dice roller screens: the last roll fills the screen, its die named under it and the
rolls before it on the line below; after a die of a set changes, the set's dice."""

from __future__ import annotations

from companion.kit import keys
from companion.kit.text import title_fitting
from companion.profile import LINE_CHARS
from companion.tools.dice_roller import rules
from companion.ui.view import Big, Menu, Text, View

BEFORE = 6            # earlier rolls on the "before" line, as many of them as fit whole
BEFORE_UP_TO = 2      # dice in the last roll that leave room for that line at a large size
def key(state: rules.State) -> tuple[str, ...]:
    """A tire die's face and colours (``5xs``, ``Tire dice RBYB``) when the game's dice
    are tire dice (a set whose dice wear: 3-Wide's); other dice show no code: pause menu > Key."""
    return keys.TIRE_DICE if any(s.swap for s in state.sets) else ()


def view(state: rules.State) -> View:
    status = f"#{state.count}" if state.count else ""
    title = "Dice" if state.game == "any" else title_fitting(status, f"{state.name} dice", state.name, "Dice")
    if state.changed is not None:
        return _set_view(state, status)
    if not state.history:
        # UP/DOWN may already have picked another die: the footer names what GO rolls
        # (it starts on kit.turns.primary's move), so the body points at it, never names one
        more = len([m for m in rules.moves(state) if m.kind in ("roll", "roll-set")]) > 1
        return View(title, (Text(""), Text("Press GO to roll", align="center"),
                            Text("the dice named below", align="center"),
                            *((Text("\u2191\u2193 pick another", align="center"),) if more else ())))
    last = state.history[-1]
    body: tuple = (Big(" ".join(str(f) for f in last.faces), caption=last.caption),)
    earlier = [r for r in state.history[:-1] if r.key == last.key][-BEFORE:][::-1]   # the same dice's only
    if earlier and len(last.faces) <= BEFORE_UP_TO:
        body += (Text(_before(earlier), align="center"),)
    return View(title, body, status=status)


def _before(earlier) -> str:
    """"before: 4 · 1! · 1": the newest earlier rolls that fit the line whole."""
    line = "before:"
    for r in earlier:
        more = (" " if line == "before:" else " \u00b7 ") + " ".join(str(f) for f in r.faces)
        if len(line) + len(more) > LINE_CHARS:
            break
        line += more
    return line


def _set_view(state: rules.State, status: str) -> View:
    """The dice of the set that just changed, nothing highlighted (the footer's move is
    a roll again); the title says which set."""
    set_id, slot = state.changed
    s = state.dice_set(set_id)
    items = tuple(f"Die {i + 1}: {state.die(d).label}" for i, d in enumerate(s.dice))
    title = f"{s.label}: reset" if slot < 0 else f"{s.label} now"
    return View(title, (Menu(items, -1),), status=status)


def receipts(state: rules.State) -> dict:
    return {}
