"""Navigation: the home menu, the setup wizard, the race screen, the pause menu,
history and confirm dialogs. Each screen turns gestures into actions on the app and
returns a View. Nothing of a particular game lives here: the race screen shows the
game's own view and offers exactly the moves its rules allow.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable

from companion.ui import screens as ui
from companion.ui.view import Menu, View

if TYPE_CHECKING:  # the activity contract is loaded with the first activity, not for the first frame
    from companion.games.api import Option

UP, DOWN, OK, BACK, GO = "UP", "DOWN", "OK", "BACK", "GO"
MENU_CHARS, FOOTER_CHARS = 20, 21  # size-1 characters in a scrolling menu line, in the footer


def _step(gesture) -> int:
    """+1 / -1 for DOWN / UP presses and repeats, 0 otherwise."""
    if gesture.kind not in ("press", "repeat"):
        return 0
    return {"UP": -1, "DOWN": 1}.get(gesture.button, 0)


class Screen:
    def view(self, app) -> View:  # pragma: no cover - interface
        raise NotImplementedError

    def handle(self, app, gesture) -> None:  # pragma: no cover - interface
        raise NotImplementedError


# -- home ---------------------------------------------------------------------------

@dataclass
class Home(Screen):
    selected: int = 0

    def items(self, app) -> list[tuple[str, str]]:
        items: list[tuple[str, str]] = []
        if app.journal.open_session() is not None:
            items.append(("continue", "Continue race"))
        items += [(slug, title) for slug, title in app.catalogue()]
        items += [("results", "Results"), ("printer", "Printer")]
        return items

    def view(self, app) -> View:
        items = self.items(app)
        self.selected = min(self.selected, len(items) - 1)
        return replace(ui.main_menu([label for _, label in items], self.selected), footer="OK: choose")

    def handle(self, app, gesture) -> None:
        items = self.items(app)
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(items)
        elif gesture.kind == "press" and gesture.button in (OK, GO):
            key = items[self.selected][0]
            if key == "continue":
                app.resume_open_session()
            elif key == "results":
                app.push(Results())
            elif key == "printer":
                app.push(PrinterMenu())
            else:
                app.push(Wizard(key))


# -- setup wizard -------------------------------------------------------------------

@dataclass
class Wizard(Screen):
    slug: str
    step: int = 0
    values: dict[str, Any] = field(default_factory=dict)
    names: dict[str, str] | None = None   # colour -> player's name (None: not asked yet)

    def options(self, app) -> tuple[Option, ...]:
        return tuple(getattr(app.activity(self.slug).rules, "OPTIONS", ()))

    def current(self, app) -> Option | None:
        opts = self.options(app)
        return opts[self.step] if self.step < len(opts) else None

    def value(self, option: Option) -> Any:
        if option.key in self.values:
            return self.values[option.key]
        if option.default is not None:
            return option.default
        if option.kind == "choice":
            return option.choices[0][0]
        return option.low

    def view(self, app) -> View:
        option = self.current(app)
        if option is None:
            return ui.message(app.title_of(self.slug), "Starting...")
        count = len(self.options(app))
        return replace(ui.options_wizard(option, self.value(option), self.step, count),
                       footer="OK: next  BACK: back")

    def handle(self, app, gesture) -> None:
        option = self.current(app)
        if option is None:
            return
        step = _step(gesture)
        if step:
            self.values[option.key] = adjust(option, self.value(option), step)
        elif gesture.kind == "press" and gesture.button in (OK, GO):
            self.values[option.key] = self.value(option)
            if option.kind == "players":
                self.name_players(app, int(self.values[option.key]))
            else:
                self.next(app)
        elif gesture.kind == "press" and gesture.button == BACK:
            if self.step == 0:
                app.pop()
            else:
                self.step -= 1


    def next(self, app) -> None:
        self.step += 1
        if self.step < len(self.options(app)):
            return
        try:
            app.start_session(self.slug, finish_options(self.options(app), self.values, self.names))
        except ValueError as exc:  # a setup the game refuses, an owner's broken data file
            self.step -= 1         # nothing was written: the answers stay, the message says why
            app.toast = str(exc)

    def name_players(self, app, count: int) -> None:
        """The cars' list to name them (the last race's names offered), then on."""
        from companion.games.api import COLOURS
        from companion.ui.players import Players, clash

        if self.names is None:
            self.names = app.recent_names()
        colours = COLOURS[:count]
        for colour in colours:  # an offered name another car of this race is called by
            if colour in self.names and clash(self.names, colours, colour, self.names[colour]):
                del self.names[colour]
        app.push(Players(colours, self.names, lambda: self.next(app)))


def adjust(option: Option, value: Any, step: int) -> Any:
    """The next value of ``option`` after one UP (-1) or DOWN (+1)."""
    if option.kind == "choice":
        keys = [v for v, _ in option.choices]
        i = keys.index(value) if value in keys else 0
        return keys[(i + step) % len(keys)]
    # numbers and player counts: DOWN lowers, UP raises, within bounds
    new = int(value) - step * (option.step or 1)
    return max(option.low, min(option.high, new))


def finish_options(options: tuple[Option, ...], values: dict[str, Any],
                   names: dict[str, str] | None = None) -> dict[str, Any]:
    """The options dict ``setup`` receives: every key, and players as name/colour dicts
    (``names``: colour -> name; a car without one is called by its colour)."""
    from companion.games.api import COLOURS
    out = dict(values)
    for option in options:
        if option.kind == "players":
            count = int(values.get(option.key, option.default or option.low))
            out[option.key] = count
            out["players"] = [{"name": (names or {}).get(c) or c, "colour": c} for c in COLOURS[:count]]
    return out


# -- the race -----------------------------------------------------------------------

@dataclass
class Race(Screen):
    highlighted: int = 0

    def view(self, app) -> View:
        runner = app.runner
        view = runner.activity.screens.view(runner.state)
        moves = runner.moves()
        if moves:
            self.highlighted %= len(moves)
            move = moves[self.highlighted]
            arrows = len(moves) > 1
            footer = f"< {move.label} >" if arrows else move.label
        else:
            footer = "OK: main menu"
            view, self.highlighted = _scrolled(view, self.highlighted)
        return replace(view, footer=footer)

    def handle(self, app, gesture) -> None:
        runner = app.runner
        moves = runner.moves()
        if gesture.button == BACK and gesture.kind == "long":
            app.undo()
            return
        if _step(gesture) and moves:
            self.highlighted = (self.highlighted + _step(gesture)) % len(moves)
            return
        if _step(gesture):  # the race is over: UP/DOWN scroll the results
            self.highlighted = max(0, self.highlighted + _step(gesture))
            return
        if gesture.kind != "press":
            return
        if gesture.button == BACK:
            app.push(Pause())
        elif gesture.button in (OK, GO) and not moves:
            app.close_session()
        elif gesture.button in (OK, GO):
            # Both do what the footer shows; after each action the highlight
            # returns to the game's main move, so GO alone always rolls/draws.
            app.perform(moves[self.highlighted % len(moves)])
            self.highlighted = _primary_index(runner.moves())


def _scrolled(view: View, selected: int) -> tuple[View, int]:
    """``view`` with its menu scrolled to ``selected``, and that index clamped to the
    list (so a press past either end is not owed back)."""
    body = list(view.body)
    chosen = 0
    for i, widget in enumerate(body):
        if isinstance(widget, Menu):
            chosen = max(0, min(selected, len(widget.items) - 1))
            body[i] = replace(widget, selected=chosen)
    return replace(view, body=tuple(body)), chosen


def _primary_index(moves) -> int:
    return next((i for i, m in enumerate(moves) if m.primary), 0)


@dataclass
class Pause(Screen):
    selected: int = 0
    ITEMS = ("Continue", "History", "Undo last", "Print program", "End race", "Main menu")

    def view(self, app) -> View:
        return replace(ui.main_menu(list(self.ITEMS), self.selected, title="Paused"), footer="OK: choose")

    def handle(self, app, gesture) -> None:
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(self.ITEMS)
            return
        if gesture.kind != "press":
            return
        if gesture.button == BACK:
            app.pop()
            return
        if gesture.button not in (OK, GO):
            return
        item = self.ITEMS[self.selected]
        if item == "Continue":
            app.pop()
        elif item == "History":
            app.push(History())
        elif item == "Undo last":
            app.pop()
            app.undo()
        elif item == "Print program":
            app.pop()
            app.print_receipt("program")
        elif item == "End race":
            app.push(Confirm("End this race now?", lambda: app.end_session()))
        elif item == "Main menu":
            app.go_home()


@dataclass
class History(Screen):
    selected: int = -1

    def view(self, app) -> View:
        entries = app.runner.history()
        labels = [f"{e.seq} {e.label}" for e in entries] or ["(nothing yet)"]
        undone = {i for i, e in enumerate(entries) if e.undone}
        if self.selected < 0:  # opens on the newest entry
            self.selected = len(labels) - 1
        view, self.selected = _scrolled(ui.history(labels, undone), self.selected)
        return replace(view, footer=_rest_of(labels[self.selected]))

    def handle(self, app, gesture) -> None:
        if _step(gesture):
            self.selected = max(0, self.selected + _step(gesture))
        elif gesture.kind == "press" and gesture.button in (BACK, OK):
            app.pop()


def _rest_of(label: str) -> str:
    """The footer under a history entry: its end when the menu line cuts it."""
    if len(label) <= MENU_CHARS:
        return "BACK: return"
    return "…" + label[-(FOOTER_CHARS - 1):]


@dataclass
class Confirm(Screen):
    question: str
    on_yes: Callable[[], None]

    def view(self, app) -> View:
        return replace(ui.confirm(self.question), footer="OK: yes  BACK: no")

    def handle(self, app, gesture) -> None:
        if gesture.kind != "press":
            return
        if gesture.button in (OK, GO):
            app.pop()
            self.on_yes()
        elif gesture.button == BACK:
            app.pop()


@dataclass
class Results(Screen):
    selected: int = 0

    def view(self, app) -> View:
        lines = app.championship_lines()
        if not lines:
            return replace(ui.message("Championship", "No finished races yet."), footer="BACK: return")
        view, self.selected = _scrolled(ui.main_menu(lines, 0, title="Championship"), self.selected)
        return replace(view, footer="GO: print BACK: back")

    def handle(self, app, gesture) -> None:
        if _step(gesture):
            self.selected = max(0, self.selected + _step(gesture))
        elif gesture.kind == "press" and gesture.button == GO:
            app.print_championship()
        elif gesture.kind == "press" and gesture.button in (BACK, OK):
            app.pop()


@dataclass
class PrinterMenu(Screen):
    selected: int = 0
    ITEMS = ("Print waiting", "Print last results", "Print championship")

    def view(self, app) -> View:
        status = app.printer_status() or "Printer ready"
        waiting = app.printer_pending()
        items = [f"{self.ITEMS[0]} ({waiting})", *self.ITEMS[1:]]
        view = ui.main_menu(items, self.selected, title="Printer")
        return replace(view, footer=status[:21])

    def handle(self, app, gesture) -> None:
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(self.ITEMS)
        elif gesture.kind == "press" and gesture.button == BACK:
            app.pop()
        elif gesture.kind == "press" and gesture.button in (OK, GO):
            [app.retry_printing, app.print_last_results, app.print_championship][self.selected]()
