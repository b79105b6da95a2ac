"""Navigation: the home menu, the setup wizard, the race screen, the pause menu,
history and confirm dialogs. Each screen turns gestures into calls on the host (the
app, through ``companion.ui.host.Host``) and returns a View. Nothing of a particular
game lives here: the race screen shows the game's own view and offers exactly the
moves its rules allow; the wizard asks the questions the activity declares.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable

from companion.profile import LINE_CHARS, MENU_CHARS
from companion.ui import screens as ui
from companion.ui.nav import BACK, GO, OK, Screen, pressed, step as _step
from companion.ui.view import Menu, View

if TYPE_CHECKING:  # the contract, the kit and the wizard's screens are loaded when first
    # used, not for the first frame
    from companion.games.api import CarOption, Option
    from companion.ui.host import Host


# -- home ---------------------------------------------------------------------------

@dataclass
class Home(Screen):
    selected: int = 0

    def items(self, app: Host) -> list[tuple[str, str]]:
        items: list[tuple[str, str]] = []
        noun = app.open_session_noun()
        if noun:
            items.append(("continue", f"Continue {noun}"))
        items += [(slug, title) for slug, title in app.catalogue()]
        items += [("results", "Results"), ("printer", "Printer")]
        return items

    def view(self, app: Host) -> View:
        items = self.items(app)
        self.selected = min(self.selected, len(items) - 1)
        return replace(ui.main_menu([label for _, label in items], self.selected), footer="OK: choose")

    def handle(self, app: Host, gesture) -> None:
        items = self.items(app)
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(items)
        elif pressed(gesture, OK, GO):
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

@dataclass(frozen=True)
class Question:
    """One step of the wizard: a question of the race, or a per-car question of car ``car``."""
    option: Any                  # Option or CarOption
    car: int | None = None


@dataclass
class Wizard(Screen):
    """The activity's questions in order; after the number of players, the cars are named;
    then every per-car question, car by car. The answers stay when a step is refused."""
    slug: str
    step: int = 0
    values: dict[str, Any] = field(default_factory=dict)
    names: dict[str, str] | None = None           # colour -> player's name (None: not asked yet)
    cars: dict[int, dict[str, Any]] = field(default_factory=dict)   # car -> per-car answers

    def options(self, app: Host) -> tuple[Option, ...]:
        return app.activity(self.slug).options

    def car_options(self, app: Host) -> tuple[CarOption, ...]:
        return app.activity(self.slug).car_options

    def car_count(self, app: Host) -> int:
        count = next((o for o in self.options(app) if o.kind == "players"), None)
        return 0 if count is None else int(self.value(count))

    def colours(self, app: Host) -> tuple[str, ...]:
        from companion.kit.cars import colours
        return colours(self.car_count(app))

    def questions(self, app: Host) -> list[Question]:
        out = [Question(o) for o in self.options(app)]
        for option in self.car_options(app):
            out += [Question(option, i) for i in range(self.car_count(app)) if option.applies(self.car(option, i))]
        return out

    def car(self, option: CarOption | None, i: int) -> dict[str, Any]:
        """Car ``i``'s answers so far (each per-car question at its first answer)."""
        return self.cars.setdefault(i, {})

    def current(self, app: Host) -> Question | None:
        qs = self.questions(app)
        return qs[self.step] if self.step < len(qs) else None

    def value(self, option, car: int | None = None) -> Any:
        if car is not None:
            answers = self.cars.setdefault(car, {})
            if option.key not in answers:
                answers[option.key] = option.initial()
            return answers[option.key]
        if option.key not in self.values:
            return option.initial()
        return self.values[option.key]

    def set(self, question: Question, value: Any) -> None:
        if question.car is None:
            self.values[question.option.key] = value
        else:
            self.cars.setdefault(question.car, {})[question.option.key] = value

    def view(self, app: Host) -> View:
        q = self.current(app)
        if q is None:
            return ui.message(app.title_of(self.slug), "Starting...")
        count = len(self.questions(app))
        title = None
        if q.car is not None:
            title = f"{self.name_of(app, q.car)}: {q.option.label}"
        return replace(ui.options_wizard(q.option, self.value(q.option, q.car), self.step, count, title=title),
                       footer="OK: next  BACK: back")

    def name_of(self, app: Host, car: int) -> str:
        colour = self.colours(app)[car]
        return (self.names or {}).get(colour) or colour

    def handle(self, app: Host, gesture) -> None:
        q = self.current(app)
        if q is None:
            return
        step = _step(gesture)
        if step and q.option.kind != "split":
            self.set(q, adjust(q.option, self.value(q.option, q.car), step))
        elif pressed(gesture, OK, GO):
            self.set(q, self.value(q.option, q.car))
            if q.option.kind == "players":
                self.name_players(app, int(self.values[q.option.key]))
            elif q.option.kind == "split":
                app.push(SplitEntry(self.name_of(app, q.car), q.option, dict(self.value(q.option, q.car)),
                                    lambda answer: (self.set(q, answer), self.next(app))))
            else:
                self.next(app)
        elif pressed(gesture, BACK):
            if self.step == 0:
                app.pop()
            else:
                self.step -= 1

    def next(self, app: Host) -> None:
        done = self.current(app)
        self.step += 1
        if done is not None and done.car is not None:
            problem = self.problem(app, done.option)
            if problem and not self._more_of(app, done.option):
                self.step -= 1
                app.toast = problem
                return
        if self.step < len(self.questions(app)):
            return
        try:
            app.start_session(self.slug, finish_options(self.options(app), self.values, self.names,
                                                        self.car_options(app), self.cars))
        except ValueError as exc:  # a setup the game refuses, an owner's broken data file
            self.step -= 1         # nothing was written: the answers stay, the message says why
            app.toast = str(exc)

    def _more_of(self, app: Host, option) -> bool:
        """Whether the next step asks ``option`` of another car."""
        q = self.current(app)
        return q is not None and q.option is option

    def problem(self, app: Host, option: CarOption) -> str:
        cars = [i for i in range(self.car_count(app)) if option.applies(self.car(option, i))]
        return option.problem([self.value(option, i) for i in cars])

    def name_players(self, app: Host, count: int) -> None:
        """The cars' list to name them (the last race's names offered), then on."""
        from companion.kit.cars import colours as colours_of
        from companion.ui.players import Players, clash

        if self.names is None:
            self.names = app.recent_names()
        colours = colours_of(count)
        for colour in colours:  # an offered name another car of this race is called by
            if colour in self.names and clash(self.names, colours, colour, self.names[colour]):
                del self.names[colour]
        app.push(Players(colours, self.names, lambda: self.next(app)))


def adjust(option, value: Any, step: int) -> Any:
    """The next value of ``option`` after one UP (-1) or DOWN (+1)."""
    if option.kind == "choice":
        keys = [v for v, _ in option.choices]
        i = keys.index(value) if value in keys else 0
        return keys[(i + step) % len(keys)]
    # numbers and player counts: DOWN lowers, UP raises, within bounds
    new = int(value) - step * (option.step or 1)
    return max(option.low, min(option.high, new))


def finish_options(options: tuple[Option, ...], values: dict[str, Any],
                   names: dict[str, str] | None = None, car_options: tuple[CarOption, ...] = (),
                   cars: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The options dict ``setup`` receives: every key, and the players as dicts of name,
    colour and their per-car answers (``names``: colour -> name; a car without one is
    called by its colour; a per-car question a car was not asked keeps its default)."""
    from companion.kit.cars import colours
    out = dict(values)
    for option in options:
        if option.kind == "players":
            count = int(values.get(option.key, option.default or option.low))
            out[option.key] = count
            players = []
            for i, c in enumerate(colours(count)):
                car = {"name": (names or {}).get(c) or c, "colour": c}
                answers = (cars or {}).get(i, {})
                for co in car_options:
                    car[co.key] = answers.get(co.key, co.initial())
                players.append(car)
            out["players"] = players
    return out


@dataclass
class SplitEntry(Screen):
    """Points shared among parts (a car's wear points per zone): UP/DOWN pick a part, OK
    edits it (UP/DOWN change it, OK again done), GO keeps the split once it adds up."""
    car: str
    option: Any
    answer: dict[str, int]
    on_done: Callable[[dict[str, int]], None]
    selected: int = 0
    editing: bool = False

    def left(self) -> int:
        return self.option.total - sum(int(self.answer.get(k, 0)) for k, *_ in self.option.parts)

    def view(self, app: Host) -> View:
        from companion.kit.text import fit, row
        items = []
        for i, (key, label, _, _) in enumerate(self.option.parts):
            value = str(self.answer.get(key, 0))
            if self.editing and i == self.selected:
                value = f"<{value}>"
            items.append(row(label, value, MENU_CHARS))
        status = f"{self.left()} left"
        return View(title=fit(f"{self.car}: {self.option.label}", LINE_CHARS - 1 - len(status)), status=status,
                    body=(Menu(tuple(items), self.selected),),
                    footer="\u2191\u2193 change OK done" if self.editing else "OK edit  GO keep")

    def handle(self, app: Host, gesture) -> None:
        step = _step(gesture)
        key, _, low, high = self.option.parts[self.selected]
        if step and self.editing:
            value = int(self.answer.get(key, low)) - step
            room = int(self.answer.get(key, low)) + self.left()
            self.answer[key] = max(low, min(high, room, value))
        elif step:
            self.selected = (self.selected + step) % len(self.option.parts)
        elif pressed(gesture, OK):
            self.editing = not self.editing
        elif pressed(gesture, BACK):
            if self.editing:
                self.editing = False
            else:
                app.pop()
        elif pressed(gesture, GO):
            problem = self.option.problem([self.answer])
            if problem:
                app.toast = problem
                return
            app.pop()
            self.on_done(dict(self.answer))


# -- the race -----------------------------------------------------------------------

@dataclass
class Race(Screen):
    highlighted: int = 0

    @classmethod
    def on(cls, moves) -> "Race":
        """The race screen with the game's main move highlighted."""
        from companion.kit.turns import primary_index
        return cls(primary_index(moves))

    def reset(self, moves) -> None:
        """After an action: the highlight goes back to the game's main move."""
        from companion.kit.turns import primary_index
        self.highlighted = primary_index(moves)

    def view(self, app: Host) -> View:
        view = app.race_view()
        moves = app.moves()
        if moves:
            self.highlighted %= len(moves)
            move = moves[self.highlighted]
            arrows = len(moves) > 1
            footer = f"< {move.label} >" if arrows else move.label
        else:
            footer = "OK: main menu"
            view, self.highlighted = _scrolled(view, self.highlighted)
        return replace(view, footer=footer)

    def handle(self, app: Host, gesture) -> None:
        moves = app.moves()
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
            self.reset(app.moves())


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


PAUSE_LABELS = {"continue": "Continue", "history": "History", "undo": "Undo last",
                "program": "Print program", "grid": "Grid and track", "end": "End {}",
                "home": "Main menu"}
"""The pause menu's words for the items an activity declares (``Activity.pause``)."""


@dataclass
class Pause(Screen):
    selected: int = 0

    def items(self, app: Host) -> list[tuple[str, str]]:
        act = app.current()
        keys = [k for k in act.pause if k != "grid" or act.decisions is not None]
        return [(k, PAUSE_LABELS[k].format(act.session)) for k in keys]

    def view(self, app: Host) -> View:
        labels = [label for _, label in self.items(app)]
        return replace(ui.main_menu(labels, self.selected, title="Paused"), footer="OK: choose")

    def handle(self, app: Host, gesture) -> None:
        items = self.items(app)
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(items)
            return
        if pressed(gesture, BACK):
            app.pop()
            return
        if not pressed(gesture, OK, GO):
            return
        key, _ = items[self.selected % len(items)]
        if key == "continue":
            app.pop()
        elif key == "history":
            app.push(History())
        elif key == "undo":
            app.pop()
            app.undo()
        elif key == "program":
            app.pop()
            app.print_receipt("program")
        elif key == "grid":
            app.push(Decisions())
        elif key == "end":
            app.push(Confirm(f"End this {app.current().session} now?", lambda: app.end_session()))
        elif key == "home":
            app.go_home()


@dataclass
class Decisions(Screen):
    """What the companion decided (grid, track, cards drawn), scrollable: the table can
    play without the printer."""
    selected: int = 0

    def view(self, app: Host) -> View:
        view = app.decisions_view() or ui.message("Decided", "Nothing decided yet.")
        view, self.selected = _scrolled(view, self.selected)
        return replace(view, footer="\u2191\u2193 scroll  BACK: return")

    def handle(self, app: Host, gesture) -> None:
        if _step(gesture):
            self.selected = max(0, self.selected + _step(gesture))
        elif pressed(gesture, BACK, OK, GO):
            app.pop()


@dataclass
class History(Screen):
    selected: int = -1

    def view(self, app: Host) -> View:
        entries = app.history()
        labels = [f"{e.seq} {e.label}" for e in entries] or ["(nothing yet)"]
        undone = {i for i, e in enumerate(entries) if e.undone}
        if self.selected < 0:  # opens on the newest entry
            self.selected = len(labels) - 1
        view, self.selected = _scrolled(ui.history(labels, undone), self.selected)
        return replace(view, footer=_rest_of(labels[self.selected]))

    def handle(self, app: Host, gesture) -> None:
        if _step(gesture):
            self.selected = max(0, self.selected + _step(gesture))
        elif pressed(gesture, BACK, OK):
            app.pop()


def _rest_of(label: str) -> str:
    """The footer under a history entry: its end when the menu line cuts it."""
    if len(label) <= MENU_CHARS:
        return "BACK: return"
    return "\u2026" + label[-(LINE_CHARS - 1):]


@dataclass
class Confirm(Screen):
    question: str
    on_yes: Callable[[], None]

    def view(self, app: Host) -> View:
        return replace(ui.confirm(self.question), footer="OK: yes  BACK: no")

    def handle(self, app: Host, gesture) -> None:
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

    def view(self, app: Host) -> View:
        lines = app.championship_lines()
        if not lines:
            return replace(ui.message("Championship", "No finished races yet."), footer="BACK: return")
        view, self.selected = _scrolled(ui.main_menu(lines, 0, title="Championship"), self.selected)
        return replace(view, footer="GO: print BACK: back")

    def handle(self, app: Host, gesture) -> None:
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

    def view(self, app: Host) -> View:
        status = app.printer_status() or "Printer ready"
        waiting = app.printer_pending()
        items = [f"{self.ITEMS[0]} ({waiting})", *self.ITEMS[1:]]
        view = ui.main_menu(items, self.selected, title="Printer")
        return replace(view, footer=status[:LINE_CHARS])

    def handle(self, app: Host, gesture) -> None:
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(self.ITEMS)
        elif gesture.kind == "press" and gesture.button == BACK:
            app.pop()
        elif gesture.kind == "press" and gesture.button in (OK, GO):
            [app.retry_printing, app.print_last_results, app.print_championship][self.selected]()
