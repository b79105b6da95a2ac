"""Raw button edges become gestures: the one decoder every button source uses.

Times are integer milliseconds from any fixed origin (a monotonic clock). Pass them
explicitly (tests do) or let the decoder read its injectable ``clock``.

Rules, per button:

* Debounce: after an accepted edge, edges within ``bounce_ms`` are ignored. The last
  level seen during that quiet time is taken once it ends, so a bounce that settles in
  the other state is not lost (``tick`` applies it at the end of the quiet time).
* ``press`` fires on release, if nothing else fired during the hold.
* ``long`` (OK, BACK, GO) fires once, while still held, at ``long_press_ms``; no press
  follows on release. A release found after ``long_press_ms`` without a tick in
  between still gives ``long``.
* ``repeat`` (UP, DOWN) fires while held: first at ``repeat_delay_ms``, then every
  ``repeat_interval_ms``. At most one repeat per tick: a stalled loop does not flood
  the menu with the repeats it missed. No press follows on release.
* ``both`` (UP and DOWN held together, ``CHORD``: the sound on or off) fires once, at
  UP, when both have been down together for ``long_press_ms``. Once both are down, neither
  repeats nor gives a press on release: the chord is all they do.
* ``stuck`` fires once when a button has been held for ``stuck_ms``; after it the
  button says nothing more until it is released (and nothing on release).
  A button already down when the program starts is treated as held with its press
  unknown (:meth:`GestureDecoder.already_down`): it can only be reported stuck.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Mapping

BUTTONS = ("UP", "DOWN", "OK", "BACK", "GO")
REPEATING = ("UP", "DOWN")
CHORD = ("UP", "DOWN")
KINDS = ("press", "long", "repeat", "stuck", "both")


@dataclass(frozen=True)
class Gesture:
    """What a player did with one button: ``kind`` is press, long, repeat or stuck."""
    button: str
    kind: str = "press"

    def __post_init__(self):
        if self.button not in BUTTONS:
            raise ValueError(f"unknown button {self.button!r}: use one of {', '.join(BUTTONS)}")
        if self.kind not in KINDS:
            raise ValueError(f"unknown gesture kind {self.kind!r}: use one of {', '.join(KINDS)}")
        if self.kind == "repeat" and self.button not in REPEATING:
            raise ValueError(f"only {' and '.join(REPEATING)} repeat, not {self.button}")
        if self.kind == "both" and self.button != CHORD[0]:
            raise ValueError(f"{' and '.join(CHORD)} held together are Gesture({CHORD[0]!r}, 'both')")


@dataclass(frozen=True)
class Timing:
    """The ``[buttons]`` timings of hardware/pinout.toml, in milliseconds."""
    bounce_ms: int = 20
    long_press_ms: int = 700
    repeat_delay_ms: int = 400
    repeat_interval_ms: int = 120
    stuck_ms: int = 30_000

    @classmethod
    def from_table(cls, buttons: Mapping[str, object]) -> "Timing":
        """The timings from a checked ``[buttons]`` table (see ``board.load_pinout``)."""
        return cls(**{name: int(buttons[name]) for name in cls.__dataclass_fields__ if name in buttons})


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


@dataclass
class _Button:
    raw: bool = False            # the last level an edge reported
    level: bool = False          # the debounced level
    quiet_until: int = -(1 << 62)
    down_at: int = 0
    fired: bool = False          # a long or repeat fired during this hold
    next_repeat: int = 0
    stuck: bool = False
    seen_press: bool = True      # False: down before anything watched it


class GestureDecoder:
    """Feed ``edge()`` and ``tick()``; both return the gestures that became due."""

    def __init__(self, timing: Timing = Timing(), clock: Callable[[], int] = monotonic_ms):
        self.timing = timing
        self.clock = clock
        self._buttons = {name: _Button() for name in BUTTONS}
        self._last_t: int | None = None
        self._chord_at: int | None = None    # when the chord's buttons were both down
        self._chord_fired = False

    def now(self) -> int:
        return int(self.clock())

    @property
    def busy(self) -> bool:
        """True while a button is down (and not yet reported stuck) or settling: the
        caller should keep ticking. A release always comes as an edge."""
        return any((b.level and not b.stuck) or b.raw != b.level for b in self._buttons.values())

    def edge(self, button: str, pressed: bool, t: int | None = None) -> list[Gesture]:
        """A raw edge: ``pressed`` is the new level of ``button`` at time ``t``."""
        state = self._state(button)
        t = self._time(t)
        out = self._advance(t, settle_at_t=False)  # a level that ends at t never settles
        state.raw = bool(pressed)
        if t >= state.quiet_until and state.raw != state.level:
            out += self._change(button, state, state.raw, t)
        return out

    def already_down(self, button: str, t: int | None = None) -> None:
        """``button`` was down before anything watched it: it may be held or shorted."""
        state = self._state(button)
        t = self._time(t)
        state.raw = state.level = True
        state.down_at, state.fired, state.stuck, state.seen_press = t, True, False, False
        state.quiet_until = t + self.timing.bounce_ms

    def tick(self, t: int | None = None) -> list[Gesture]:
        """Let time pass to ``t``: settled bounces, long presses, repeats, stuck buttons."""
        return self._advance(self._time(t), settle_at_t=True)

    # -- internals -------------------------------------------------------------------

    def _advance(self, t: int, settle_at_t: bool) -> list[Gesture]:
        out: list[Gesture] = []
        for name, state in self._buttons.items():
            settles = t >= state.quiet_until if settle_at_t else t > state.quiet_until
            if state.raw != state.level and settles:
                out += self._change(name, state, state.raw, state.quiet_until)
            if state.level:
                out += self._held(name, state, t)
        return out + self._chord(t)

    def _chord(self, t: int) -> list[Gesture]:
        """UP and DOWN held together: ``both`` once, after ``long_press_ms``."""
        held = [self._buttons[name] for name in CHORD]
        if self._chord_at is None:
            return []
        if not all(b.level for b in held) or any(b.stuck for b in held):
            return []
        if not self._chord_fired and t - self._chord_at >= self.timing.long_press_ms:
            self._chord_fired = True
            return [Gesture(CHORD[0], "both")]
        return []

    def _state(self, button: str) -> _Button:
        try:
            return self._buttons[button]
        except KeyError:
            raise ValueError(f"unknown button {button!r}: use one of {', '.join(BUTTONS)}") from None

    def _time(self, t: int | None) -> int:
        t = self.now() if t is None else int(t)
        if self._last_t is not None and t < self._last_t:
            t = self._last_t  # a clock never runs backwards here
        self._last_t = t
        return t

    def _change(self, name: str, state: _Button, pressed: bool, t: int) -> list[Gesture]:
        timing = self.timing
        state.level = pressed
        state.quiet_until = t + timing.bounce_ms
        if pressed:
            state.down_at, state.fired, state.stuck, state.seen_press = t, False, False, True
            state.next_repeat = t + timing.repeat_delay_ms
            if name in CHORD and all(self._buttons[n].level for n in CHORD):
                self._chord_at, self._chord_fired = t, False
                for n in CHORD:               # the chord is all they do
                    self._buttons[n].fired = True
            return []
        if name in CHORD and self._chord_at is not None:
            self._chord_at = None if not any(self._buttons[n].level for n in CHORD) else self._chord_at
            return []
        if state.fired or state.stuck:
            return []
        if name not in REPEATING and t - state.down_at >= timing.long_press_ms:
            return [Gesture(name, "long")]
        return [Gesture(name, "press")]

    def _held(self, name: str, state: _Button, t: int) -> list[Gesture]:
        timing = self.timing
        if state.stuck:
            return []
        if t - state.down_at >= timing.stuck_ms:
            state.stuck = True
            return [Gesture(name, "stuck")]
        if not state.seen_press:
            return []
        if name in REPEATING:
            if self._chord_at is not None:
                return []
            if t >= state.next_repeat:
                following = state.next_repeat + timing.repeat_interval_ms
                state.next_repeat = following if following > t else t + timing.repeat_interval_ms
                state.fired = True
                return [Gesture(name, "repeat")]
            return []
        if not state.fired and t - state.down_at >= timing.long_press_ms:
            state.fired = True
            return [Gesture(name, "long")]
        return []
