"""Views: what a screen shows, as data. ``companion.ui.render`` draws them on 128x64.

A game's ``screens.view(state)`` returns a :class:`View`. The app adds the move
selector (the footer) and dialogs; the renderer lays everything out. Views are plain
frozen data, so tests can compare them and the renderer can be swapped.

Layout on 128x64: a title bar (inverted, 10 px) at the top, the body in the middle,
and a footer line (10 px) at the bottom with the selected move ("< DRAW >").
``Big`` fills the body: a roll result or a card, readable at arm's length.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Text:
    """One line of text. ``size`` 1 = small (about 21 chars per line), 2 = double, 3 = triple."""
    text: str
    size: int = 1
    align: str = "left"      # "left" | "center" | "right"
    invert: bool = False
    above: int = 0           # px of space above the line (the name editor's marks clear g and j)


@dataclass(frozen=True)
class Big:
    """The result that fills the body: the largest size at which ``text`` fits.
    ``caption`` is a small line under it (e.g. "gear 5", "3 cards left")."""
    text: str
    caption: str = ""


@dataclass(frozen=True)
class Row:
    """A line with text at the left and text at the right (e.g. "RED" ... "lap 12")."""
    left: str
    right: str
    invert: bool = False


@dataclass(frozen=True)
class Bar:
    """A horizontal gauge: ``value`` of ``maximum`` (fuel, cards left, laps)."""
    label: str
    value: int
    maximum: int


@dataclass(frozen=True)
class Menu:
    """A vertical list with one selected item, scrolled so the selection is visible.
    ``selected`` below 0: a list to read, nothing highlighted: every list whose rows are
    not what OK/GO acts on (a race view's lists: its footer is the move).
    ``top``: the first line shown instead (None: where the selection puts it); the app
    sets it when a player scrolls a list (``companion.ui.nav.Scroll``); a screen sets it
    only to open a list to read at a line worth seeing (the lap counter's last crossing)."""
    items: tuple[str, ...]
    selected: int = 0
    top: int | None = None


Widget = Text | Big | Row | Bar | Menu
"""(and ``companion.ui.picture.Picture``, a view of its own: loaded only where one is shown)"""


@dataclass(frozen=True)
class View:
    title: str
    body: tuple[Widget, ...] = ()
    footer: str = ""          # set by the app: the selected move, or a hint
    status: str = ""          # right side of the title bar: e.g. "L12", "PAPER!", "3/8"
    alert: str = ""           # a message box over the body (printer out of paper, ...)
