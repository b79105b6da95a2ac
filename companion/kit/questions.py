"""The setup wizard's questions, as a pack declares them and the ui asks them.

Per race (:class:`Option`) or per car (:class:`CarOption`): numbers within limits and a
total, choices (fixed or read from the game's data), a split of points; and the description
of a new entry of the data on the box (:class:`Describe`, its :class:`Group` of questions
per item, the :class:`Asking` its hooks are told). The contract (``games.api``) offers them
to the packs; the wizard (``ui.wizard``) reads them from here, knowing no game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from companion.core import turnclock


@dataclass(frozen=True)
class Option:
    """One question of the setup wizard.

    kind "choice": pick one of ``choices`` (a tuple of (value, label)).
    kind "number": an int from ``low`` to ``high`` (UP/DOWN change it).
    kind "players": how many players (``low``..``high``); names and colours are assigned
        from the colour list and can be edited.

    ``source`` (a choice read from the game's data): ``source(data, answers)`` gives the
    choices from the data the race is set up with (the owner's files included) and the
    answers so far; the wizard asks it instead of ``choices``. A choice of value
    :data:`DESCRIBE` starts ``describe``: the owner describes a new entry (a circuit) on
    the box, it is saved in their data and chosen.
    """

    key: str
    label: str
    kind: str = "choice"
    choices: tuple[tuple[Any, str], ...] = ()
    default: Any = None
    low: int = 0
    high: int = 0
    step: int = 1
    source: Callable[[Mapping[str, Any], Mapping[str, Any]], tuple[tuple[Any, str], ...]] | None = None
    describe: "Describe | None" = None

    def initial(self) -> Any:
        """The answer the wizard starts from."""
        if self.default is not None:
            return dict(self.default) if isinstance(self.default, Mapping) else self.default
        if self.kind == "choice":
            return self.choices[0][0] if self.choices else None   # a choice read from the data: the pack's default
        return self.low


TURN_TIMER = Option(turnclock.KEY, "Turn timer", choices=turnclock.CHOICES, default=turnclock.OFF)
"""The race question every game with turns asks last: off, a time per turn or a chess
clock (``companion.core.turnclock``; docs/turn-timer.md)."""


DESCRIBE = "+describe"
"""The value of the choice that describes a new entry of the data (``Option.describe``)."""


@dataclass(frozen=True)
class Group:
    """Questions asked together on one screen of each of ``count`` items in turn (each
    corner of a circuit): the wizard titles the screen ``<label><n> of <count>`` (``Corner
    2 of 8``). ``count`` is a number, or the key of an earlier number question of the same
    description; a ``count`` of 1 is one screen of questions titled ``label`` (``Lap``),
    its answers given to ``build`` with the description's other answers."""

    key: str
    label: str
    count: int | str
    options: tuple[Option, ...]


@dataclass(frozen=True)
class Asking:
    """What a description's hooks are told about the question being asked: the answers
    so far (``answers``: the single questions and the one-screen groups; ``items``: group
    key -> one dict of answers per item, in order), the question (``group``, its item
    ``index``, its ``key``) and the cars of the race being set up (10 when not known)."""

    answers: Mapping[str, Any]
    items: Mapping[str, list]
    group: str | None
    index: int
    key: str
    cars: int = 10

    def item(self, index: int) -> Mapping[str, Any]:
        """The answers of item ``index`` of this question's group ({} when not given)."""
        rows = self.items.get(self.group or "", [])
        return rows[index] if 0 <= index < len(rows) else {}


@dataclass(frozen=True)
class Describe:
    """How the owner describes a new entry of the data table ``table`` on the box, with
    the board in front of them: the ``questions`` (options and groups) in order, then
    ``build(answers, items)`` makes the table's entry (``items``: group key -> one dict of
    answers per item; raises kit.errors.DataError for answers that do not fit). The entry
    is checked by the pack (``Activity.check_data``) with the data it joins, saved as
    ``<state>/games/<slug>/<table>/<id>.toml`` and offered from then on, named as the
    owner names it at the end (``<name> <n>`` when they keep the name blank). ``noun``
    says what one entry is ("circuit": "Edit my circuits").

    Every answer is checked as it is given: ``limits(asking)`` gives a number question's
    (low, high) from the answers before it (None: the option's own), ``suggest(asking)``
    its starting value (None: the option's default), ``note(asking)`` a few words the
    screen shows under the questions (what bounds them: "grid 79-89"). ``parse(entry)``
    gives back (answers, items) of a saved entry, to change it on the box."""

    table: str
    name: str
    questions: tuple[Option | Group, ...]
    build: Callable[[Mapping[str, Any], Mapping[str, list]], dict]
    suggest: Callable[[Asking], Any] | None = None
    limits: Callable[[Asking], "tuple[int, int] | None"] | None = None
    note: Callable[[Asking], str] | None = None
    parse: Callable[[Mapping[str, Any]], "tuple[dict, dict]"] | None = None
    noun: str = "entry"


EDIT = "+edit"
"""The value of the choice that lists the owner's described entries to change or delete them."""


@dataclass(frozen=True)
class CarOption(Option):
    """A question the wizard asks for every car, after the cars are named. The answer is
    kept in the car's dict in ``options["players"]`` under ``key``.

    kind "choice": one of ``choices`` ((value, label) pairs): human or automated, a team,
        a tire type.
    kind "number": an int from ``low`` to ``high``; with ``total``, the cars' numbers
        together may not exceed it.
    kind "split": ``total`` points shared among ``parts`` ((key, label, low, high) each);
        the answer is a dict part -> number that adds up to ``total`` exactly
        (Formula Dé's wear points per zone). ``default`` is a dict too.

    ``only_if`` = (other key, value): asked only of the cars whose answer to the other
    question is that value (the level of an automated driver).
    ``race_if`` = (race option key, value): asked only when the race's answer to that
    option is that value (Formula Dé's car build: not in a road race, which gives every
    car its driver's card).
    """

    total: int = 0
    parts: tuple[tuple[str, str, int, int], ...] = ()
    only_if: tuple[str, Any] | None = None
    race_if: tuple[str, Any] | None = None

    def initial(self) -> Any:
        """The answer a car starts with."""
        if self.kind == "split" and self.default is None:
            return {key: low for key, _, low, _ in self.parts}
        return super().initial()

    def applies(self, car: Mapping[str, Any], race: Mapping[str, Any] | None = None) -> bool:
        """Whether the question is asked of ``car`` (its answers so far) in a race set up
        with the answers ``race``."""
        if self.race_if is not None and race is not None and race.get(self.race_if[0]) != self.race_if[1]:
            return False
        if self.only_if is None:
            return True
        key, value = self.only_if
        return car.get(key) == value

    def problem(self, answers: list[Any]) -> str:
        """What is wrong with the cars' ``answers`` to this question ("" when nothing)."""
        if self.kind == "split":
            for answer in answers:
                spent = sum(int(answer.get(k, 0)) for k, *_ in self.parts)
                if spent != self.total:
                    return f"{self.label}: {spent} of {self.total} given out"
        if self.kind == "number" and self.total and sum(int(a) for a in answers) > self.total:
            return f"{self.label}: {sum(int(a) for a in answers)} is more than {self.total} in all"
        return ""
