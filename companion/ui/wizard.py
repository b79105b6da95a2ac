"""The setup wizard: the activity's questions in order, the cars named after their number,
then every per-car question car by car (a choice, a number, points split among parts).
It asks what the activity declares and knows nothing of any game.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable

from companion.kit.questions import DESCRIBE, EDIT, Asking, CarOption, Option
from companion.profile import LINE_CHARS, MENU_CHARS
from companion.ui import screens as ui
from companion.ui.nav import BACK, GO, OK, Screen, Scroll, paging, pressed, step as _step
from companion.ui.view import Menu, View

if TYPE_CHECKING:
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
        choices = tuple(option.source(self.data(app), self.values)) or option.choices
        at = next((i for i, (v, _) in enumerate(choices) if v == DESCRIBE), None)
        if at is not None and getattr(option, "describe", None) is not None and self.owned(app, option.describe):
            # "Edit my circuits", before "Describe a circuit"
            choices = choices[:at] + ((EDIT, f"Edit my {option.describe.noun}s"),) + choices[at:]
        return replace(option, choices=choices)

    def owned(self, app: Host, describe) -> bool:
        """Whether the owner has entry files of the table ``describe`` adds to."""
        try:
            return bool(app.entries(self.slug, describe.table))
        except (ValueError, OSError):       # broken data: said by the question's data
            return False

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
            elif q.option.kind == "split" and gesture.button == GO:   # the points as shown: on
                self.next(app)
            elif q.option.kind == "split":
                app.push(SplitEntry(self.name_of(app, q.car), q.option, dict(self.value(q.option, q.car)),
                                    lambda answer: (self.set(q, answer), self.next(app))))
            elif getattr(q.option, "describe", None) is not None and self.describing(q):
                app.push(Describing(self.slug, describe=q.option.describe, on_saved=lambda key: self.saved(q, key),
                                    cars=self.car_count(app) or 10))
            elif getattr(q.option, "describe", None) is not None and self.editing(q):
                app.push(OwnEntries(self.slug, q.option.describe, self.car_count(app) or 10,
                                    lambda key: self.saved(q, key)))
            else:
                self.next(app)
        elif pressed(gesture, BACK):
            if self.step == 0:
                app.pop()
            else:
                self.step -= 1

    def describing(self, question: Question) -> bool:
        """Whether the answer is "describe a new one"."""
        return self.value(question.option, question.car) == DESCRIBE

    def editing(self, question: Question) -> bool:
        """Whether the answer is "edit my entries"."""
        return self.value(question.option, question.car) == EDIT

    def saved(self, question: Question, key: str | None) -> None:
        """An entry was described (or changed) and saved: it is offered, and chosen (None:
        one was deleted; the question starts from its default)."""
        self._data = self._options = None
        if key is None:
            self.values.pop(question.option.key, None)
        else:
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
                                                        self.car_options(app), self.cars), setup=self.draft())
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


@dataclass(frozen=True)
class Page:
    """One screen of a description: a question on its own, or the questions of one item
    of a group (``group``: its key, ``index``: the item) asked together."""
    group: str | None
    index: int
    options: tuple
    title: str


@dataclass
class Describing(Wizard):
    """A new entry of the game's data (a circuit) described with the board in front of
    you: the questions the pack declares (``Option.describe``), a group of them on one
    screen for each item in turn (``Corner 2 of 8``: starts at, length, stops). UP/DOWN
    change the highlighted answer (held: faster), OK goes to the next one, GO keeps the
    screen as it shows; BACK returns. Every answer stays within the range the answers
    before it leave (the pack's ``limits``), starts from what they suggest and is shown
    with what bounds it (``note``: the grid's spaces). Then the entry is named, checked
    by the pack and saved in the owner's data (a refusal says why and keeps every
    answer), and chosen. ``entry_id``: an entry of the owner's being changed."""
    describe: Any = None
    on_saved: Callable[[str], None] | None = None
    items: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    cars: int = 10                     # the race's cars (the grid's room follows them)
    at: int = 0                        # the highlighted answer of the screen
    entry_id: str | None = None
    label: str = ""
    suggested: set = field(default_factory=set)   # (item, key) of the answers still as suggested

    def pages(self, app: Host) -> list[Page]:
        out = []
        for q in self.describe.questions:
            if hasattr(q, "options"):    # a Group: its questions for each item
                n = self.count(q)
                for i in range(n):
                    title = q.label.strip() if q.count == 1 else f"{q.label}{i + 1} of {n}"
                    out.append(Page(q.key, i, q.options, title))
            else:
                out.append(Page(None, 0, (self.resolved(app, q),), q.label))
        return out

    def questions(self, app: Host) -> list[Question]:
        return [Question(o, None if p.group is None else (p.group, p.index)) for p in self.pages(app) for o in p.options]

    def count(self, group) -> int:
        if isinstance(group.count, int):
            return group.count
        return int(self.answer(group.count))

    def answer(self, key: str) -> Any:
        """The answer to the single question (or one-screen group's question) ``key``."""
        for q in self.describe.questions:
            if hasattr(q, "options") and q.count == 1:
                option = next((o for o in q.options if o.key == key), None)
                if option is not None:
                    return self.value(option, (q.key, 0))
            elif getattr(q, "key", None) == key:
                return self.value(q)
        raise KeyError(key)

    def answers(self) -> dict[str, Any]:
        """The answers given so far to single questions and one-screen groups."""
        out = dict(self.values)
        singles = {q.key for q in self.describe.questions if hasattr(q, "options") and q.count == 1}
        for (group, _), answers in self.items.items():
            if group in singles:
                out.update(answers)
        return out

    def asking(self, option, car) -> Any:
        group, index = car if car is not None else (None, 0)
        return Asking(self.answers(), self.grouped(), group, index, option.key, self.cars)

    def bounded(self, option, car=None) -> Any:
        """``option`` with the range the answers before it leave."""
        if option.kind != "number" or self.describe.limits is None:
            return option
        limits = self.describe.limits(self.asking(option, car))
        if limits is None:
            return option
        low, high = max(option.low, int(limits[0])), min(option.high, int(limits[1]))
        return replace(option, low=low, high=max(low, high))

    def value(self, option, car=None) -> Any:
        store = self.values if car is None else self.items.setdefault(car, {})
        if option.key not in store:
            start = None
            if self.describe.suggest is not None:
                start = self.describe.suggest(self.asking(option, car))
            store[option.key] = option.initial() if start is None else start
            self.suggested.add((car, option.key))
        if option.kind == "number":      # within what the answers before it leave
            bounded = self.bounded(option, car)
            store[option.key] = max(bounded.low, min(bounded.high, int(store[option.key])))
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

    def page(self, app: Host) -> tuple[Page, list[Page]]:
        pages = self.pages(app)
        self.step = max(0, min(self.step, len(pages) - 1))
        page = pages[self.step]
        self.at = max(0, min(self.at, len(page.options) - 1))
        return page, pages

    def car_of(self, page: Page):
        return None if page.group is None else (page.group, page.index)

    def note(self, page: Page, option) -> str:
        if self.describe.note is None:
            return ""
        return self.describe.note(self.asking(option, self.car_of(page)))

    def view(self, app: Host) -> View:
        page, pages = self.page(app)
        car = self.car_of(page)
        option = page.options[self.at]
        values = [self.value(o, car) for o in page.options]   # each within its range, in order
        bounded = self.bounded(option, car)
        status = f"{self.step + 1}/{len(pages)}"
        note = self.note(page, option)
        if len(page.options) == 1 and option.kind != "number":   # a choice: its list
            view = ui.options_wizard(option, values[0], self.step, len(pages), title=page.title)
            return replace(view, footer="OK: next  BACK: back")
        from companion.ui.view import Row, Text
        rows = tuple(Row(o.label, str(v), invert=i == self.at) for i, (o, v) in enumerate(zip(page.options, values)))
        span = f"{bounded.low}-{bounded.high}"
        lines = [f"{span}, {note}"] if note else [span]
        if note and len(lines[0]) > LINE_CHARS:
            lines = [span, note]
        from companion.profile import BODY_LINES
        lines = lines[:max(1, BODY_LINES - len(rows))]
        footer = "OK: next  GO: keep" if len(page.options) > 1 else "OK: next  BACK: back"
        return View(title=page.title, status=status, body=rows + tuple(Text(line) for line in lines), footer=footer)

    def handle(self, app: Host, gesture) -> None:
        page, pages = self.page(app)
        car = self.car_of(page)
        option = page.options[self.at]
        step = _step(gesture)
        self.held = self.held + 1 if step and gesture.kind == "repeat" else 0
        if step:
            option = self.bounded(option, car)
            by = hold_step(self.held) if option.kind == "number" else 1
            self.set(Question(option, car), adjust(option, self.value(option, car), step, by))
            self.suggested.discard((car, option.key))
            store = self.values if car is None else self.items.setdefault(car, {})
            for later in page.options[self.at + 1:]:    # suggested from this answer: suggested again
                if (car, later.key) in self.suggested:
                    store.pop(later.key, None)
        elif pressed(gesture, OK) and self.at < len(page.options) - 1:
            self.at += 1
        elif pressed(gesture, OK, GO):
            for o in page.options:          # the screen as it shows, kept
                self.set(Question(o, car), self.value(o, car))
            if self.step + 1 < len(pages):
                self.step, self.at = self.step + 1, 0
            else:
                self.name_it(app)
        elif pressed(gesture, BACK):
            if self.at > 0:
                self.at -= 1
            elif self.step > 0:
                self.step, self.at = self.step - 1, 0
            else:
                app.pop()

    def entry(self, app: Host) -> dict[str, Any]:
        """The entry the answers make (the pack's ``build``; a DataError when they do not fit)."""
        answers: dict[str, Any] = {}
        items: dict[str, list[dict[str, Any]]] = {}
        singles = {q.key for q in self.describe.questions if hasattr(q, "options") and q.count == 1}
        for page in self.pages(app):
            car = self.car_of(page)
            given = {o.key: self.value(o, car) for o in page.options}
            if page.group is None or page.group in singles:
                answers.update(given)
            else:
                items.setdefault(page.group, []).append(given)
        return self.describe.build(answers, items)

    def default_label(self, app: Host) -> str:
        from companion.kit.entries import new_name
        if self.entry_id is not None:
            return self.label
        table = dict((self.data(app) or {}).get(self.describe.table) or {})
        return new_name(table, self.describe.name)[1]

    def name_it(self, app: Host) -> None:
        """The last screen: the entry's name (blank keeps the one offered), then saved."""
        from companion.ui.players import EntryName
        app.push(EntryName(self.describe.noun, self.default_label(app), self.save,
                           list(self.label) if self.entry_id is not None and self.label else []))

    def save(self, app: Host, name: str) -> bool:
        try:
            entry = self.entry(app)
            key, label = app.add_entry(self.slug, self.describe.table, self.describe.name, entry,
                                       name if name != self.default_label(app) else "", self.entry_id)
        except (ValueError, OSError) as exc:   # refused or not written: every answer stays
            app.toast = getattr(exc, "problem", None) or str(exc)
            return False
        app.pop()                                # the name
        app.pop()                                # the description
        app.toast = f"Saved: {label}"
        if self.on_saved is not None:
            self.on_saved(key)
        return True


def prefilled(describing: Describing, entry: dict[str, Any]) -> Describing:
    """``describing`` with the answers of a saved ``entry`` (the pack's ``parse``)."""
    answers, items = describing.describe.parse(entry)
    for q in describing.describe.questions:
        if hasattr(q, "options") and q.count == 1:
            describing.items[(q.key, 0)] = {o.key: answers[o.key] for o in q.options if o.key in answers}
        elif hasattr(q, "options"):
            for i, row in enumerate(items.get(q.key, [])):
                describing.items[(q.key, i)] = dict(row)
        elif q.key in answers:
            describing.values[q.key] = answers[q.key]
    return describing


@dataclass
class OwnEntries(Screen):
    """The owner's entries of a table (their circuits): OK on one offers to change,
    rename or delete it. ``on_done(id)``: one was saved (None: one was deleted)."""
    slug: str
    describe: Any
    cars: int
    on_done: Callable[[str | None], None]
    selected: int = 0

    def view(self, app: Host) -> View:
        labels = [label for _, label, _ in app.entries(self.slug, self.describe.table)]
        if not labels:
            return replace(ui.message(f"My {self.describe.noun}s", "None left."), footer="BACK: back")
        self.selected = min(self.selected, len(labels) - 1)
        return replace(ui.main_menu(labels, self.selected, title=f"My {self.describe.noun}s"),
                       footer="OK: choose")

    def handle(self, app: Host, gesture) -> None:
        entries = app.entries(self.slug, self.describe.table)
        if _step(gesture) and entries:
            self.selected = (self.selected + _step(gesture)) % len(entries)
        elif pressed(gesture, OK, GO) and entries:
            app.push(EntryActions(self, *entries[min(self.selected, len(entries) - 1)]))
        elif pressed(gesture, BACK):
            app.pop()


ENTRY_ACTIONS = ("Change it", "Rename it", "Delete it")


@dataclass
class EntryActions(Screen):
    """What to do with one of the owner's entries: change its numbers (the description
    again, from its answers), rename it, or delete it (after a yes)."""
    owner: OwnEntries
    entry_id: str
    label: str
    entry: dict[str, Any]
    selected: int = 0

    def view(self, app: Host) -> View:
        return replace(ui.main_menu(ENTRY_ACTIONS, self.selected, title=self.label), footer="OK: choose")

    def done(self, app: Host, key: str | None) -> None:
        """Back to the question the entries were opened from."""
        while app.screen is not self.owner:      # (this screen, and what it opened)
            app.pop()
        app.pop()
        self.owner.on_done(key)

    def handle(self, app: Host, gesture) -> None:
        owner = self.owner
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(ENTRY_ACTIONS)
        elif pressed(gesture, BACK):
            app.pop()
        elif pressed(gesture, OK, GO) and self.selected == 0 and owner.describe.parse is not None:
            app.push(prefilled(Describing(owner.slug, describe=owner.describe, cars=owner.cars, entry_id=self.entry_id,
                                          label=self.label, on_saved=lambda key: self.done(app, key)), self.entry))
        elif pressed(gesture, OK, GO) and self.selected == 1:
            from companion.ui.players import EntryName
            app.push(EntryName(owner.describe.noun, self.label, self.rename, list(self.label)))
        elif pressed(gesture, OK, GO) and self.selected == 2:
            from companion.ui.dialog import Confirm
            app.push(Confirm(f"Delete {self.label}? Races run on it keep it.", lambda: self.delete(app)))

    def rename(self, app: Host, name: str) -> bool:
        entry = {k: v for k, v in self.entry.items() if k != "label"}
        try:
            key, label = app.add_entry(self.owner.slug, self.owner.describe.table, self.owner.describe.name,
                                       entry, name or self.label, self.entry_id)
        except (ValueError, OSError) as exc:
            app.toast = getattr(exc, "problem", None) or str(exc)
            return False
        self.done(app, key)
        app.toast = f"Saved: {label}"
        return True

    def delete(self, app: Host) -> None:
        try:
            app.remove_entry(self.owner.slug, self.owner.describe.table, self.entry_id)
        except (ValueError, OSError) as exc:
            app.toast = str(exc)
            return
        self.done(app, None)
        app.toast = f"Deleted: {self.label}"


REPEAT = ("Same as last race", "New setup")


@dataclass
class Repeat(Screen):
    """Before a game's setup, when it was run before: "Same as last race" starts it again
    with the last race's answers (its players and names included), one press to the
    summary; "New setup" (or BACK) asks the questions, the wizard under this screen."""
    slug: str
    options: dict[str, Any]
    selected: int = 0

    def view(self, app: Host) -> View:
        return replace(ui.main_menu(REPEAT, self.selected, title=app.title_of(self.slug)), footer="OK: choose")

    def handle(self, app: Host, gesture) -> None:
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(REPEAT)
        elif pressed(gesture, BACK) or (pressed(gesture, OK, GO) and self.selected == 1):
            app.pop()
        elif pressed(gesture, OK, GO):
            try:
                app.start_session(self.slug, dict(self.options))
            except ValueError as exc:   # the last race's data is gone (an owner's circuit): asked anew
                app.pop()
                app.toast = str(exc)
