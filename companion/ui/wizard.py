"""The setup wizard: the activity's questions in order, the cars named after their number,
then every per-car question car by car (a choice, a number, points split among parts).
It asks what the activity declares and knows nothing of any game.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable

from companion.profile import LINE_CHARS, MENU_CHARS
from companion.ui import screens as ui
from companion.ui.nav import BACK, GO, OK, Screen, Scroll, paging, pressed, step as _step
from companion.ui.view import Menu, View

if TYPE_CHECKING:  # the contract is loaded with the first activity, not for the first frame
    from companion.games.api import CarOption, Option
    from companion.ui.host import Host


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
    held: int = 0                                  # UP/DOWN repeats of the hold going on
    _data: Any = field(default=None, repr=False, compare=False)   # the game's data, read once
    _options: Any = field(default=None, repr=False, compare=False)   # (answers, options) last resolved
    scroll: Scroll = field(default_factory=Scroll, compare=False)   # a long list (the split's parts)
    scrolled_at: int = field(default=-1, compare=False)             # the step it scrolls

    def draft(self) -> dict[str, Any]:
        """The answers so far, as the journal keeps them (a copy, JSON's types)."""
        import json
        return json.loads(json.dumps({"slug": self.slug, "step": self.step, "values": self.values,
                                      "names": self.names, "cars": {str(i): a for i, a in self.cars.items()}}))

    @classmethod
    def from_draft(cls, draft: dict[str, Any]) -> "Wizard":
        """The wizard where :meth:`draft` left it (a setup in progress across a restart)."""
        names = draft.get("names")
        return cls(str(draft["slug"]), int(draft.get("step", 0)), dict(draft.get("values") or {}),
                   dict(names) if isinstance(names, dict) else None,
                   {int(i): dict(a) for i, a in (draft.get("cars") or {}).items()})

    def options(self, app: Host) -> tuple[Option, ...]:
        answers = tuple(self.values.items())
        if self._options is None or self._options[0] != answers:   # the choices follow the answers
            self._options = (answers, tuple(self.resolved(app, o) for o in app.activity(self.slug).options))
        return self._options[1]

    def data(self, app: Host) -> Any:
        """The game's data (the owner's files included) for choices read from it."""
        if self._data is None:
            try:
                self._data = app.game_data(self.slug)
            except (ValueError, OSError) as exc:   # broken data: said now (the file, the key), and at the start
                self._data = {}
                app.toast = str(exc)
        return self._data

    def resolved(self, app: Host, option: Any) -> Any:
        """``option`` with the choices its ``source`` reads from the data and the answers."""
        if getattr(option, "source", None) is None:
            return option
        return replace(option, choices=tuple(option.source(self.data(app), self.values)) or option.choices)

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
        race = self.race(app)
        for option in self.car_options(app):
            out += [Question(option, i) for i in range(self.car_count(app)) if option.applies(self.car(option, i), race)]
        return out

    def race(self, app: Host) -> dict[str, Any]:
        """The race's answers so far (a question not answered yet: its default)."""
        return {o.key: self.value(o) for o in self.options(app)}

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
        value = self.values[option.key]
        if option.kind == "choice" and option.choices and all(value != v for v, _ in option.choices):
            return option.initial()   # read from the data: an earlier answer changed what is offered
        return value

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
        view = ui.options_wizard(q.option, self.value(q.option, q.car), self.step, count, title=title)
        if self.scrolled_at != self.step:
            self.scroll.reset()
            self.scrolled_at = self.step
        return self.scroll.show(view if q.option.kind == "split" else replace(view, footer="OK: next  BACK: back"))

    def name_of(self, app: Host, car: int) -> str:
        colour = self.colours(app)[car]
        return (self.names or {}).get(colour) or colour

    def handle(self, app: Host, gesture) -> None:
        q = self.current(app)
        if q is None:
            return
        step = _step(gesture)
        self.held = self.held + 1 if step and gesture.kind == "repeat" else 0
        if paging(gesture):
            self.scroll.page()
        elif step and q.option.kind == "split":   # UP/DOWN choose nothing here: they scroll
            self.scroll.line(step)
        elif step:
            by = hold_step(self.held) if q.option.kind == "number" else 1
            self.set(q, adjust(q.option, self.value(q.option, q.car), step, by))
        elif pressed(gesture, OK, GO):
            self.set(q, self.value(q.option, q.car))
            if q.option.kind == "players":
                self.name_players(app, int(self.values[q.option.key]), q.option.label)
            elif q.option.kind == "split":
                app.push(SplitEntry(self.name_of(app, q.car), q.option, dict(self.value(q.option, q.car)),
                                    lambda answer: (self.set(q, answer), self.next(app))))
            elif getattr(q.option, "describe", None) is not None and self.describing(q):
                app.push(Describing(self.slug, describe=q.option.describe, on_saved=lambda key: self.saved(q, key)))
            else:
                self.next(app)
        elif pressed(gesture, BACK):
            if self.step == 0:
                app.pop()
            else:
                self.step -= 1

    def describing(self, question: Question) -> bool:
        """Whether the answer is "describe a new one" (the contract is loaded by now)."""
        from companion.games.api import DESCRIBE
        return self.value(question.option, question.car) == DESCRIBE

    def saved(self, question: Question, key: str) -> None:
        """A new entry was described and saved: it is offered, and chosen."""
        self._data = self._options = None
        self.set(question, key)

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
        cars = [i for i in range(self.car_count(app)) if option.applies(self.car(option, i), self.race(app))]
        return option.problem([self.value(option, i) for i in cars])

    def name_players(self, app: Host, count: int, label: str = "Players") -> None:
        """The cars' list to name them (the last race's names offered), then on."""
        from companion.kit.cars import colours as colours_of
        from companion.ui.players import Players, clash

        if self.names is None:
            self.names = app.recent_names()
        colours = colours_of(count)
        for colour in colours:  # an offered name another car of this race is called by
            if colour in self.names and clash(self.names, colours, colour, self.names[colour]):
                del self.names[colour]
        # the list is the same step of the setup as the count: same title, same "2/5"
        count_steps = len(self.questions(app))
        status = f"{self.step + 1}/{count_steps}" if count_steps > 1 else ""
        app.push(Players(colours, self.names, lambda: self.next(app), title=label, status=status))


HOLD_STEPS = ((4, 1), (20, 5), (None, 10))
"""A number held UP or DOWN speeds up: the first 4 repeats step by 1, the next 16 by 5,
then by 10 (66 laps down to 15 is about 15 repeats, two seconds, not 50 presses)."""


def hold_step(repeats: int) -> int:
    """How far the ``repeats``-th repeat of one hold moves a number (0: a press)."""
    for upto, by in HOLD_STEPS:
        if upto is None or repeats <= upto:
            return by
    return 1


def adjust(option, value: Any, step: int, by: int = 1) -> Any:
    """The next value of ``option`` after one UP (-1) or DOWN (+1); a number moves ``by``
    steps at once while held, landing on round values (60, 55, 50...)."""
    if option.kind == "choice":
        keys = [v for v, _ in option.choices]
        i = keys.index(value) if value in keys else 0
        return keys[(i + step) % len(keys)]
    # numbers and player counts: DOWN lowers, UP raises, within bounds
    unit = option.step or 1
    value = int(value)
    if by > 1:
        size = by * unit
        off = value % size
        new = value - (off or size) if step > 0 else value + (size - off)
    else:
        new = value - step * unit
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
                    footer="\u2191\u2193: change  OK: done" if self.editing else "OK: edit  GO: keep")

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


@dataclass
class Describing(Wizard):
    """A new entry of the game's data (a circuit) described with the board in front of
    you: the questions the pack declares (``Option.describe``), a group of them asked of
    each item in turn (``C1: starts at``, ``C1: length``...), each starting from what the
    answers before it suggest. At the end the entry is checked by the pack and saved in
    the owner's data (a refusal says why and keeps every answer); then it is chosen."""
    describe: Any = None
    on_saved: Callable[[str], None] | None = None
    items: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)

    def questions(self, app: Host) -> list[Question]:
        out = []
        for q in self.describe.questions:
            if hasattr(q, "options"):    # a Group: its questions for each item
                for i in range(self.count(q)):
                    out += [Question(o, (q.key, i)) for o in q.options]
            else:
                out.append(Question(self.resolved(app, q)))
        return out

    def count(self, group) -> int:
        if isinstance(group.count, int):
            return group.count
        option = next(o for o in self.describe.questions if getattr(o, "key", None) == group.count)
        return int(self.value(option))

    def value(self, option, car=None) -> Any:
        store = self.values if car is None else self.items.setdefault(car, {})
        if option.key not in store:
            start = None
            if self.describe.suggest is not None:
                group, index = car if car is not None else (None, 0)
                start = self.describe.suggest(self.values, self.grouped(), group, index, option.key)
            if start is not None and option.kind == "number":
                start = max(option.low, min(option.high, int(start)))
            store[option.key] = option.initial() if start is None else start
        return store[option.key]

    def set(self, question: Question, value: Any) -> None:
        store = self.values if question.car is None else self.items.setdefault(question.car, {})
        store[question.option.key] = value

    def grouped(self) -> dict[str, list[dict[str, Any]]]:
        """group key -> the answers of each item so far, in order."""
        out: dict[str, list[dict[str, Any]]] = {}
        for (group, i), answers in sorted(self.items.items()):
            out.setdefault(group, []).append(answers)
        return out

    def view(self, app: Host) -> View:
        qs = self.questions(app)
        q = qs[min(self.step, len(qs) - 1)]
        title = q.option.label
        if q.car is not None:
            group = next(g for g in self.describe.questions if getattr(g, "key", None) == q.car[0])
            title = f"{group.label}{q.car[1] + 1}: {q.option.label}"
        last = self.step >= len(qs) - 1
        return replace(ui.options_wizard(q.option, self.value(q.option, q.car), self.step, len(qs), title=title),
                       footer="OK: save  BACK: back" if last else "OK: next  BACK: back")

    def next(self, app: Host) -> None:
        qs = self.questions(app)
        if self.step + 1 < len(qs):
            self.step += 1
            return
        answers = {q.option.key: self.value(q.option) for q in qs if q.car is None}
        items: dict[str, list[dict[str, Any]]] = {}
        for q in qs:
            if q.car is not None:
                group, i = q.car
                rows = items.setdefault(group, [])
                while len(rows) <= i:
                    rows.append({})
                rows[i][q.option.key] = self.value(q.option, q.car)
        try:
            entry = self.describe.build(answers, items)
            key, label = app.add_entry(self.slug, self.describe.table, self.describe.name, entry)
        except (ValueError, OSError) as exc:   # refused or not written: every answer stays
            app.toast = getattr(exc, "problem", None) or str(exc)
            return
        app.pop()
        app.toast = f"Saved: {label}"
        if self.on_saved is not None:
            self.on_saved(key)
