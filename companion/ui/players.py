"""Naming the players during setup: the list of cars (colour and name) and a name entry
worked with five buttons, arcade style.

Names stay short (``MAX_NAME`` characters, as long as the longest colour) so every game
screen laid out for colour names holds a player's name too. A car without a name is called
by its colour. The names of the last race are offered again, so a championship keeps them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from companion.ui import screens as ui
from companion.ui.nav import BACK, GO, OK, Screen, step as _step
from companion.ui.view import Text, View

MAX_NAME = 6
BIG_LETTERS = 10
"""Letters a line of double-size letters holds: a longer name is typed in small ones."""
MARKS_BELOW = 2
"""px between a name's line and the cursor marks under it, so the descenders of g, j, p, q
and y do not touch the marks (4 blank rows between; the body is full at double size)."""
ACCENTED = "éèêëàâäåáãçñöôòóõøüûùúïîìíýÿæœß"
"""The accented letters of the languages the games' players write in (French, German,
Italian, Spanish, Portuguese, Dutch, the Nordic ones), the commonest first; each comes in
capitals too (but ß)."""
_CAPITALS = "".join(ch.upper() for ch in ACCENTED if ch.upper() != ch and len(ch.upper()) == 1)
FIRST = " ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-'" + ACCENTED + _CAPITALS[::-1]
LATER = " abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-'" + _CAPITALS + ACCENTED[::-1]
"""The letter wheel: blank first; capitals come first for the first letter, small letters
after it, so UP from a blank gives the usual letter. The accented letters close the wheel,
so DOWN from a blank gives them at once, the commonest first (É for a first letter, é
after it)."""


def clean(name: str, most: int = MAX_NAME) -> str:
    """A name as it is kept: blanks at either end dropped, inner runs made one."""
    return " ".join(name.split())[:most]


def clash(names: dict[str, str], colours: tuple[str, ...], colour: str, name: str) -> str | None:
    """The colour of another car already called ``name`` (any case; a car without a name
    is called by its colour), else None."""
    wanted = name.casefold()
    return next((c for c in colours if c != colour and names.get(c, c).casefold() == wanted), None)


@dataclass
class Players(Screen):
    """The cars of the race, ``Red: Anna``: OK names the highlighted car, GO goes on."""
    colours: tuple[str, ...]
    names: dict[str, str]
    on_done: Callable[[], None]
    selected: int = 0
    title: str = "Players"      # the setup question's label ("Cars")
    status: str = ""            # the setup step ("2/5"); "" shows the number of cars

    def view(self, app) -> View:
        entries = [{"name": self.names.get(c) or c, "colour": c} for c in self.colours]
        return ui.players(entries, self.selected, title=self.title, status=self.status)

    def handle(self, app, gesture) -> None:
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(self.colours)
        elif gesture.kind != "press":
            return
        elif gesture.button == OK:
            colour = self.colours[self.selected]
            app.push(NameEntry(colour, self.names, self.colours))
        elif gesture.button == GO:
            app.pop()
            self.on_done()
        elif gesture.button == BACK:
            app.pop()


class Typing(Screen):
    """A name typed with five buttons: UP/DOWN turn the letter at the cursor, OK moves on
    (a new letter at the end; on the last letter a name can have, OK keeps it), BACK moves
    back (at the first letter: leave unchanged), GO keeps it. A subclass gives ``chars``,
    ``cursor``, ``most`` (letters at most), :meth:`heading`, :meth:`blank` (what an empty
    name gives) and :meth:`save`."""
    chars: list[str]
    cursor: int
    most: int = MAX_NAME

    def heading(self) -> str:  # pragma: no cover - interface
        raise NotImplementedError

    def blank(self) -> str:  # pragma: no cover - interface
        raise NotImplementedError

    def save(self, app) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def typed(self) -> str:
        return clean("".join(self.chars), self.most)

    def view(self, app) -> View:
        typed = "".join(self.chars)
        shown = typed if typed.strip() else f"({self.blank()})"   # what a blank name gives
        size = 2 if len(shown) <= BIG_LETTERS else 1     # a long name in small letters
        caret = " " * (size * self.cursor) + "\u25b2" * size
        return View(title=self.heading(), status=f"{self.cursor + 1}/{self.most}",
                    body=(Text(shown, size=size), Text(caret, above=MARKS_BELOW), Text("\u2191\u2193 letter  BACK \u25c0")),
                    footer="OK: keep" if self._last() else "OK: next  GO: keep")

    def _last(self) -> bool:
        """Whether the cursor is on the last letter a name can have (OK has no next one)."""
        return self.cursor == self.most - 1

    def handle(self, app, gesture) -> None:
        step = _step(gesture)
        if step:  # UP (-1) turns the wheel forward, DOWN back
            wheel = FIRST if self.cursor == 0 else LATER
            here = self.chars[self.cursor]
            i = wheel.index(here) if here in wheel else 0
            self.chars[self.cursor] = wheel[(i - step) % len(wheel)]
            return
        if gesture.kind != "press":
            return
        if gesture.button == OK and self._last():
            self.save(app)
        elif gesture.button == OK:
            if self.cursor == len(self.chars) - 1 and len(self.chars) < self.most:
                self.chars.append(" ")
            self.cursor = min(self.cursor + 1, len(self.chars) - 1)
        elif gesture.button == BACK:
            if self.cursor == 0:
                app.pop()
            else:
                self.cursor -= 1
        elif gesture.button == GO:
            self.save(app)


@dataclass
class NameEntry(Typing):
    """One car's name. An empty name gives the car its colour back."""
    colour: str
    names: dict[str, str]
    colours: tuple[str, ...]
    chars: list[str] = field(default_factory=list)
    cursor: int = 0

    def __post_init__(self) -> None:
        if not self.chars:
            self.chars = list(self.names.get(self.colour, "")) or [" "]

    def heading(self) -> str:
        return f"Name of {self.colour}"

    def blank(self) -> str:
        return self.colour

    def save(self, app) -> None:
        name = self.typed()
        if not name or name == self.colour:
            self.names.pop(self.colour, None)
            app.pop()
            return
        other = clash(self.names, self.colours, self.colour, name)
        if other is not None:
            app.toast = f"{other} is called {name} already"
            return
        self.names[self.colour] = name
        app.pop()


ENTRY_NAME = 14
"""Letters of a described entry's name (a circuit): what a menu line shows beside a
history number ("My circuit 12")."""


@dataclass
class EntryName(Typing):
    """The name of an entry described on the box (a circuit): kept blank, ``default``.
    ``keep(app, name)`` saves it (name "" for the default); a refusal leaves the name on
    the screen to change (the alert says why)."""
    noun: str
    default: str
    keep: Callable[..., bool]
    chars: list[str] = field(default_factory=list)
    cursor: int = 0
    most: int = ENTRY_NAME

    def __post_init__(self) -> None:
        if not self.chars:
            self.chars = [" "]

    def heading(self) -> str:
        return f"Name the {self.noun}"

    def blank(self) -> str:
        return self.default

    def save(self, app) -> None:
        self.keep(app, self.typed())
