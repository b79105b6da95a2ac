"""The turn timer, pure: what each driver has spent thinking, and what is left of their time.

A race's ``timer`` setup answer (:data:`CHOICES`) is off, a time per turn (30, 60, 90 or
120 s) or a chess clock (a total per player for the whole race: 10, 20 or 30 minutes).
The time spent is kept in the journal: each row the box writes while a driver is on turn
carries ``[driver, milliseconds]`` (``Journal.append(..., clock=...)``), and a
:class:`Ledger` folded from those rows, in the order they were written, undone rows and
undos included (time spent is never given back), gives every driver's total, their longest
turn, and the turn running now. A turn is a run of rows of the same driver: a second move
in one turn adds to it.

The live part is a :class:`Stopwatch` on an injected clock (seconds, ``time.monotonic``
on the box; a fake one in tests and the demo): nothing here reads the time itself.
A :class:`Reading` says what the screens show: the seconds left, whether the soft
warning is on (:data:`WARNING_S` left) and whether the time is out. The box never makes a
move for a driver whose time is out: the table decides.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Mapping

KEY = "timer"
"""The race option's key in a session's options."""
OFF = "off"
CHOICES: tuple[tuple[str, str], ...] = (
    (OFF, "Off"), ("turn-30", "30 s a turn"), ("turn-60", "60 s a turn"), ("turn-90", "90 s a turn"),
    ("turn-120", "120 s a turn"), ("chess-600", "Chess 10 min"), ("chess-1200", "Chess 20 min"),
    ("chess-1800", "Chess 30 min"))
"""The answers of the race option: a time per turn, or a chess clock's total per player."""
WARNING_S = 10
"""Seconds left when the soft warning starts."""


class _Value:
    """Equal by its fields, hashable, and never changed once made. Plain classes here: a
    race's start and every resume load this module, and making its classes as dataclasses
    cost a resume 16 M instructions (over its 250 M budget)."""
    __slots__ = ()

    def _fields(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._fields() == self._fields()

    def __hash__(self) -> int:
        return hash((type(self).__name__, *(repr(v) for v in self._fields())))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={v!r}' for n, v in zip(self.__slots__, self._fields()))})"


class Setting(_Value):
    """``mode`` "off", "turn" (``seconds`` a turn) or "chess" (``seconds`` per player in all)."""
    __slots__ = ("mode", "seconds")

    def __init__(self, mode: str = OFF, seconds: int = 0):
        self.mode, self.seconds = mode, seconds

    @property
    def on(self) -> bool:
        return self.mode != OFF


def setting(value: Any) -> Setting:
    """The timer of a race option's answer (None or missing: off). Anything else not in
    :data:`CHOICES` raises ValueError naming the answers there are."""
    if value is None or value == OFF:
        return Setting()
    if value in dict(CHOICES):
        mode, seconds = str(value).split("-")
        return Setting(mode, int(seconds))
    raise ValueError(f"timer: {value!r} is not a turn timer; choose one of " + ", ".join(k for k, _ in CHOICES))


def of_options(options: Mapping[str, Any]) -> Setting:
    """The timer a session was set up with; off for an answer this version does not know
    (a race from a newer box): a race is never refused for its timer."""
    try:
        return setting(options.get(KEY))
    except ValueError:
        return Setting()


class Ledger(_Value):
    """What the journal's rows say was spent: per driver the total, the longest turn and
    the number of turns (ms); ``on`` and ``turn_ms``: the turn the last row was part of
    ("" when the last row was nobody's: an automated driver, a step of the race)."""
    __slots__ = ("totals", "longest", "turns", "on", "turn_ms")

    def __init__(self, totals: Mapping[str, int] | None = None, longest: Mapping[str, int] | None = None,
                 turns: Mapping[str, int] | None = None, on: str = "", turn_ms: int = 0):
        self.totals = {} if totals is None else totals
        self.longest = {} if longest is None else longest
        self.turns = {} if turns is None else turns
        self.on, self.turn_ms = on, turn_ms

    def add(self, on: str, ms: int) -> "Ledger":
        """The ledger after a row of ``ms`` spent by ``on`` ("": nobody's turn)."""
        ms = max(0, int(ms))
        if not on:
            return Ledger(self.totals, self.longest, self.turns)
        same = on == self.on
        turn = self.turn_ms + ms if same else ms
        turns = self.turns if same else {**self.turns, on: self.turns.get(on, 0) + 1}
        return Ledger({**self.totals, on: self.totals.get(on, 0) + ms},
                      {**self.longest, on: max(self.longest.get(on, 0), turn)}, turns, on, turn)

    def spent(self, on: str, setting: Setting) -> int:
        """What counts against ``on``'s time now, before the live part: the turn so far
        (per turn) or everything they spent (chess clock)."""
        if setting.mode == "chess":
            return self.totals.get(on, 0)
        return self.turn_ms if on and on == self.on else 0

    def thinking(self, order: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        """The results' ``thinking`` rows: each driver's total and longest turn in seconds
        (one decimal) and their turns, in ``order`` (the standings' names), then the rest."""
        names = [n for n in order if n in self.totals] + sorted(n for n in self.totals if n not in order)
        return [{"name": n, "total_s": round(self.totals[n] / 1000, 1), "longest_s": round(self.longest.get(n, 0) / 1000, 1),
                 "turns": int(self.turns.get(n, 0))} for n in names]


def fold(ledger: Ledger, clocks: Any) -> Ledger:
    """``ledger`` after the rows' ``[driver, ms]`` records, in order (a record that is not
    one is passed over: a journal row is never trusted to be well formed)."""
    for record in clocks:
        if isinstance(record, (list, tuple)) and len(record) == 2 and isinstance(record[0], str) \
                and isinstance(record[1], int) and not isinstance(record[1], bool):
            ledger = ledger.add(record[0], record[1])
    return ledger


def duration(seconds: float) -> str:
    """A thinking time in few characters: ``45s``, ``4:05``, ``1:02:05``."""
    s = int(round(max(0.0, float(seconds))))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}:{s % 60:02d}"
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


class Reading(_Value):
    """What the screens show of the timer now: whose turn (``on``), the time left in ms
    (below 0 once it is out), and the limit it counts down from."""
    __slots__ = ("on", "left_ms", "limit_s", "mode")

    def __init__(self, on: str, left_ms: int, limit_s: int, mode: str):
        self.on, self.left_ms, self.limit_s, self.mode = on, left_ms, limit_s, mode

    @property
    def warning(self) -> bool:
        return 0 < self.left_ms <= WARNING_S * 1000

    @property
    def out(self) -> bool:
        return self.left_ms <= 0

    @property
    def seconds(self) -> int:
        """Whole seconds left, rounded up (a count shows 1 until the last moment), 0 when out."""
        return max(0, -(-self.left_ms // 1000))

    def text(self) -> str:
        """The OLED's words: ``45s`` a turn, ``9:58`` a chess clock, ``9s!`` in the soft
        warning, ``Time!`` when out."""
        if self.out:
            return "Time!"
        s = self.seconds
        words = f"{s // 60}:{s % 60:02d}" if self.mode == "chess" else f"{s}s"
        return words + "!" if self.warning else words

    def phase(self) -> str:
        """"out", "warning" or "" : what the cue layer and the table screen tell apart."""
        return "out" if self.out else "warning" if self.warning else ""

    def to_json(self) -> dict[str, Any]:
        return {"on": self.on, "left": round(self.left_ms / 1000, 1), "limit": self.limit_s, "mode": self.mode,
                "warning": WARNING_S}


def reading(setting: Setting, ledger: Ledger, on: str, live_ms: int) -> Reading | None:
    """What is left for ``on`` with ``live_ms`` spent since the last row; None when the
    timer is off or nobody is on turn."""
    if not setting.on or not on:
        return None
    left = setting.seconds * 1000 - ledger.spent(on, setting) - max(0, int(live_ms))
    return Reading(on, left, setting.seconds, setting.mode)


class Stopwatch:
    """The time since the last row, on ``clock`` (seconds; injectable)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.since = clock()

    def live_ms(self) -> int:
        return max(0, int(round((self.clock() - self.since) * 1000)))

    def take(self) -> int:
        """The ms since the last row, and a new count from now (a row is written)."""
        now = self.clock()
        ms = max(0, int(round((now - self.since) * 1000)))
        self.since = now
        return ms
