"""What every screen shares: the button names, UP/DOWN as a step, and the Screen
interface (a screen reaches the app only through ``companion.ui.host.Host``)."""

from __future__ import annotations

UP, DOWN, OK, BACK, GO = "UP", "DOWN", "OK", "BACK", "GO"


def step(gesture) -> int:
    """+1 / -1 for DOWN / UP presses and repeats, 0 otherwise."""
    if gesture.kind not in ("press", "repeat"):
        return 0
    return {UP: -1, DOWN: 1}.get(gesture.button, 0)


def pressed(gesture, *buttons: str) -> bool:
    """Whether ``gesture`` is a press of one of ``buttons``."""
    return gesture.kind == "press" and gesture.button in buttons


class Screen:
    """One screen of the navigation stack: a view now, and what a gesture does.

    ``chooses``: the screen starts, resumes, ends or chooses a session (the home menu, the
    races aside, a race over, the pause menu, a confirm dialog, the club's choices): only a
    deliberate OK acts on it, GO does nothing there (the app drops it before the screen sees
    it), so a burst of GO past a result never lands in another race."""

    chooses = False

    def takes_go(self, app: "Host") -> bool:
        """Whether GO may act on this screen now (not on one that ``chooses``)."""
        return not self.chooses

    def view(self, app: "Host") -> "View":  # pragma: no cover - interface
        raise NotImplementedError

    def handle(self, app: "Host", gesture) -> None:  # pragma: no cover - interface
        raise NotImplementedError



def paging(gesture) -> bool:
    """Whether ``gesture`` asks for a list's next page: OK held, on every screen."""
    return gesture.button == OK and gesture.kind == "long"


PAGING_HINTS = {"\u2191\u2193: more  BACK: back": "\u2191\u2193, hold OK: more",
                "OK: main menu": "OK: menu  hold: more", "OK: go on": "OK: go on  hold: more"}
"""A screen's hint and the same hint saying that OK held pages the list, for when the list
is longer than the screen (BACK is always back: it makes room)."""


class Scroll:
    """How far a screen's list (the view's first ``Menu``) is scrolled: one way to read a
    list longer than the screen, on every screen. OK held shows the next page (after the
    last page, the top again); where UP/DOWN choose nothing else they move it a line
    (:meth:`line`). ``top`` None: the list shows where the view puts it."""

    __slots__ = ("top", "window")

    def __init__(self) -> None:
        self.top: int | None = None
        self.window: tuple[int, int, int] | None = None   # (first, shown, lines) as drawn

    def show(self, view):
        """``view`` with its list from this scroll's line; the window drawn is kept."""
        from companion.ui.view import Menu
        if not any(isinstance(w, Menu) for w in view.body):   # nothing to scroll
            self.window = None
            return view
        from dataclasses import replace
        from companion.ui.render import list_window
        if self.top is not None:
            body = list(view.body)
            for i, widget in enumerate(body):
                if isinstance(widget, Menu):
                    body[i] = replace(widget, top=self.top)
                    break
            view = replace(view, body=tuple(body))
        self.window = list_window(view)
        if self.top is not None and self.window is not None:
            self.top = self.window[0]      # clamped: a press past either end is not owed back
        if self.window is not None and self.window[1] < self.window[2] and view.footer in PAGING_HINTS:
            view = replace(view, footer=PAGING_HINTS[view.footer])
            self.window = list_window(view)
        return view

    def line(self, delta: int) -> None:
        """Up or down by ``delta`` lines, stopping at either end."""
        if self.window is not None:
            first, shown, n = self.window
            self.top = max(0, min(first + delta, n - shown))

    def page(self) -> None:
        """The next page; after the last one, the first."""
        if self.window is not None:
            first, shown, n = self.window
            self.top = 0 if first + shown >= n else first + shown

    def reset(self) -> None:
        self.top = None
