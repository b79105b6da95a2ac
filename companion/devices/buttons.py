"""Gesture sources: the five buttons on GPIO, the keyboard on a desktop or in a terminal, a script.

Every source has ``get(timeout=None) -> Gesture | None`` (None when ``timeout`` seconds
pass with nothing) and an idempotent ``close()``. A source that has nothing more to
give (the script ran out, the window was closed, ``q`` in the terminal) raises
:class:`InputEnded` from ``get``. Sources are read by the app loop, on its thread.
"""

from __future__ import annotations

import os
import select
import sys
import time
import warnings
from collections import deque
from functools import partial
from typing import Callable, Iterable, Mapping

from companion.devices import DeviceError
from companion.devices.gestures import BUTTONS, CHORD, REPEATING, Gesture, GestureDecoder, Timing, monotonic_ms

TICK_S = 0.01          # how often a held button is looked at
ESCAPE_WAIT_S = 0.05   # a lone Esc byte is the Esc key if nothing follows within this

# Key names (as pygame names them) -> buttons. Holding a key is holding the button.
KEYBOARD = {
    "up": "UP",
    "down": "DOWN",
    "return": "OK",
    "enter": "OK",          # keypad Enter
    "backspace": "BACK",
    "escape": "BACK",
    "space": "GO",
}


class InputEnded(Exception):
    """The source has no more gestures: the script ran out or the user closed it."""


# -- --keys ---------------------------------------------------------------------------

_PREFIXES = {"": "press", "HOLD": "long", "REPEAT": "repeat", "STUCK": "stuck"}
KEYS_HELP = ("use UP, DOWN, OK, BACK, GO; HOLD:<button> a long press, REPEAT:UP or REPEAT:DOWN "
             "an auto-repeat, STUCK:<button> held down, UP+DOWN both held")


def parse_keys(text: str) -> list[Gesture]:
    """``"OK DOWN GO HOLD:BACK REPEAT:UP"`` -> gestures. Case does not matter; commas
    or spaces separate. A bad token is a ValueError naming it and the valid names."""
    gestures = []
    for token in text.replace(",", " ").split():
        if token.upper() == "+".join(CHORD):
            gestures.append(Gesture(CHORD[0], "both"))
            continue
        prefix, _, name = token.upper().rpartition(":")
        shown = token if len(token) <= 24 else token[:21] + "..."
        if prefix not in _PREFIXES or name not in BUTTONS:
            raise ValueError(f"bad key {shown!r}: {KEYS_HELP}")
        kind = _PREFIXES[prefix]
        if kind == "repeat" and name not in REPEATING:
            raise ValueError(f"bad key {shown!r}: only UP and DOWN repeat ({KEYS_HELP})")
        gestures.append(Gesture(name, kind))
    return gestures


class ScriptedButtons:
    """Gives the scripted gestures one by one, then raises InputEnded."""

    def __init__(self, gestures: Iterable[Gesture]):
        self._gestures = deque(gestures)

    @classmethod
    def from_keys(cls, text: str) -> "ScriptedButtons":
        return cls(parse_keys(text))

    def get(self, timeout: float | None = None) -> Gesture | None:
        if not self._gestures:
            raise InputEnded("end of the scripted keys")
        return self._gestures.popleft()

    def close(self) -> None:
        self._gestures.clear()


# -- sources that feed edges to the decoder ------------------------------------------

class _DecodedSource:
    """Edges from ``_collect`` go through one GestureDecoder; ``get`` is its ticker."""

    def __init__(self, timing: Timing, clock: Callable[[], int] = monotonic_ms):
        self.decoder = GestureDecoder(timing, clock)
        self._ready: deque[Gesture] = deque()
        self._closed = False

    def _collect(self, wait: float | None) -> list[tuple[str, bool, int]]:
        """Edges ``(button, pressed, t_ms)`` seen so far, waiting up to ``wait`` s for one."""
        raise NotImplementedError

    def pump(self, wait: float | None = 0.0) -> list[Gesture]:
        """Feed the edges that arrived (waiting up to ``wait`` s) and let time pass to now."""
        gestures: list[Gesture] = []
        for button, pressed, t in self._collect(wait):
            gestures += self.decoder.edge(button, pressed, t)
        return gestures + self.decoder.tick()

    def get(self, timeout: float | None = None) -> Gesture | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._ready:
            if self._closed:
                raise InputEnded("the buttons are closed")
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return None
            wait = remaining
            if self.decoder.busy:
                wait = TICK_S if remaining is None else min(remaining, TICK_S)
            self._ready.extend(self.pump(wait))
        return self._ready.popleft()

    def close(self) -> None:
        self._closed = True


class GpioButtons(_DecodedSource):
    """One gpiozero Button per pin (to ground, internal pull-up). gpiozero's callbacks
    (its own threads) only put timestamped edges on a queue; the decoder runs in ``get``.

    ``pin_factory`` is gpiozero's: None makes lgpio's (:func:`lgpio_factory`), else lets
    gpiozero pick; tests pass ``gpiozero.pins.mock.MockFactory()``.

    ``opened=False`` leaves the pins to :meth:`open` (or the first ``get``): ``companion
    run`` opens them right after its first frame, which does not wait for gpiozero's
    import and five Buttons (docs/performance.md). A button already down when the pins
    open is in ``held_at_start``: held, stuck or shorted, it is never a press.
    """

    def __init__(self, pins: Mapping[str, int], timing: Timing = Timing(), *,
                 pin_factory=None, clock: Callable[[], int] = monotonic_ms, opened: bool = True):
        super().__init__(timing, clock)
        unknown = [name for name in pins if name not in BUTTONS]
        if unknown:
            raise ValueError(f"unknown button {unknown[0]!r}: use one of {', '.join(BUTTONS)}")
        import queue  # (with threading) only for the pins: not on a headless start
        self._edges: queue.Queue = queue.Queue()
        self._empty = queue.Empty
        self.buttons: dict[str, object] = {}
        self.pins = dict(pins)
        self.opened = False
        #: buttons that were down when the pins were opened (held, stuck or shorted)
        self.held_at_start: list[str] = []
        self._pin_factory = pin_factory
        if opened:
            self.open()

    def open(self) -> None:
        """Open the pins, once (a DeviceError with the fix if they cannot be); nothing
        after ``close``."""
        if self.opened or self._closed:
            return
        self.opened = True
        try:
            from gpiozero import Button
            from gpiozero.exc import PinFactoryFallback
            factory = self._pin_factory if self._pin_factory is not None else lgpio_factory()
            for name, pin in self.pins.items():
                with warnings.catch_warnings():   # gpiozero's trail of libraries it tried
                    warnings.simplefilter("ignore", PinFactoryFallback)
                    button = Button(pin, pull_up=True, bounce_time=None, pin_factory=factory)
                self.buttons[name] = button
                button.when_pressed = partial(self._on_edge, name, True)
                button.when_released = partial(self._on_edge, name, False)
        except Exception as exc:
            self.close()
            raise DeviceError(gpio_problem(exc)) from None
        now = self.decoder.now()
        self.held_at_start = [name for name, button in self.buttons.items() if button.is_pressed]
        for name in self.held_at_start:
            self.decoder.already_down(name, now)

    def get(self, timeout: float | None = None) -> Gesture | None:
        self.open()
        return super().get(timeout)

    def _on_edge(self, name: str, pressed: bool) -> None:
        self._edges.put((name, pressed, self.decoder.now()))

    def _collect(self, wait):
        edges = []
        try:
            edges.append(self._edges.get(timeout=wait) if wait != 0 else self._edges.get_nowait())
            while True:
                edges.append(self._edges.get_nowait())
        except self._empty:
            return edges

    def close(self) -> None:
        super().close()
        for button in self.buttons.values():
            button.close()  # gpiozero's close() is idempotent too
        self.buttons.clear()


def lgpio_factory(env=os.environ):
    """gpiozero's lgpio pin factory, made here: left to itself gpiozero finds its default
    factory by reading every installed package's entry points (``importlib.metadata``), a
    cost at every start on the device. None (gpiozero chooses, and says what is missing)
    when the owner chose a factory with $GPIOZERO_PIN_FACTORY or lgpio cannot be used."""
    if env.get("GPIOZERO_PIN_FACTORY"):
        return None
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
        return LGPIOFactory()
    except Exception:  # not installed (off a Pi), or no GPIO chip: gpiozero's own search says why
        return None


def gpio_problem(exc: BaseException) -> str:
    """One line for a GPIO failure, with the fix."""
    kind = type(exc).__name__
    if kind in ("BadPinFactory", "PinNoPins", "PinUnknownPi") or isinstance(exc, ImportError):
        return ("no GPIO library found: on a Raspberry Pi install lgpio (sudo apt install python3-lgpio); "
                "elsewhere use --hardware desktop, terminal or headless")
    if kind == "GPIOPinInUse":
        return f"a button pin is already in use ({exc}): stop the other program or fix [buttons] in hardware/pinout.toml"
    if isinstance(exc, PermissionError):
        return "no permission to use GPIO: add the user to the gpio group (sudo adduser $USER gpio) and log in again"
    return f"cannot open the buttons: {exc} (check [buttons] in hardware/pinout.toml)"


class PygameKeys(_DecodedSource):
    """The keyboard of the desktop window (see KEYBOARD): key down/up are button edges,
    so holding a key is a long press or an auto-repeat. Closing the window ends input."""

    def __init__(self, timing: Timing = Timing(), clock: Callable[[], int] = monotonic_ms):
        super().__init__(timing, clock)
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame
        self._pygame = pygame

    def _collect(self, wait):
        pg = self._pygame
        events = pg.event.get()
        if not events and wait != 0:
            event = pg.event.wait(max(1, int(1000 * (0.1 if wait is None else wait))))
            events = [event] + pg.event.get()
        edges = []
        for event in events:
            if event.type == pg.QUIT:
                self.close()
                raise InputEnded("the window was closed")
            if event.type in (pg.KEYDOWN, pg.KEYUP):
                button = KEYBOARD.get(pg.key.name(event.key))
                if button:
                    edges.append((button, event.type == pg.KEYDOWN, self.decoder.now()))
        return edges


# -- terminal keyboard ----------------------------------------------------------------

# A terminal reports no key releases: keys are presses, capitals are long presses.
TERMINAL_KEYS = {
    b"\x1b[A": Gesture("UP"), b"\x1bOA": Gesture("UP"),
    b"\x1b[B": Gesture("DOWN"), b"\x1bOB": Gesture("DOWN"),
    b"\r": Gesture("OK"), b"\n": Gesture("OK"),
    b"\x7f": Gesture("BACK"), b"\x08": Gesture("BACK"), b"\x1b": Gesture("BACK"),
    b" ": Gesture("GO"),
    b"u": Gesture("UP"), b"d": Gesture("DOWN"), b"o": Gesture("OK"), b"b": Gesture("BACK"), b"g": Gesture("GO"),
    b"O": Gesture("OK", "long"), b"B": Gesture("BACK", "long"), b"G": Gesture("GO", "long"),
    b"m": Gesture(CHORD[0], "both"),      # UP and DOWN held together: sound off or on
}
TERMINAL_QUIT = (b"q", b"\x04")  # q or Ctrl-D
TERMINAL_HELP = ("Up/Down move  Enter OK  Space GO  Backspace/Esc BACK  "
                 "Shift+O/B/G long OK/BACK(undo)/GO  m mute  q quit")


def decode_terminal(data: bytes, final: bool) -> tuple[list[Gesture | None], bytes]:
    """Terminal input bytes -> gestures (None = quit) and the bytes left undecided.
    ``final``: no more bytes are coming soon, so a lone Esc is the Esc key."""
    out: list[Gesture | None] = []
    i = 0
    while i < len(data):
        if data[i] == 0x1b:
            if i + 1 == len(data):
                if not final:
                    break
                out.append(TERMINAL_KEYS[b"\x1b"])
                i += 1
                continue
            if data[i + 1] in b"[O":
                end = i + 2
                while end < len(data) and not 0x40 <= data[end] <= 0x7e:
                    end += 1
                if end == len(data):
                    if not final:
                        break
                    i = end  # a cut-off sequence: drop it
                    continue
                gesture = TERMINAL_KEYS.get(data[i:end + 1])
                if gesture:
                    out.append(gesture)
                i = end + 1  # other keys (left, F1, ...) are ignored
                continue
            out.append(TERMINAL_KEYS[b"\x1b"])  # Esc followed by another key
            i += 1
            continue
        byte = data[i:i + 1]
        if byte in TERMINAL_QUIT:
            out.append(None)
        elif byte in TERMINAL_KEYS:
            out.append(TERMINAL_KEYS[byte])
        i += 1
    return out, data[i:]


TERMINAL_REPEAT_MS = 100
"""A terminal's key repeat sends the same key every 30 to 50 ms while it is held; two taps
of a finger are 150 ms apart or more. So a press of UP or DOWN within this of the one
before is a repeat: a held key, as the buttons' ``repeat`` (a number speeds up)."""


class KeyRepeat:
    """Presses of one key in quick succession -> the first a press, the rest ``repeat``
    (a terminal reports no release, so its key repeat is the only sign of a held key)."""

    def __init__(self, interval_ms: int = TERMINAL_REPEAT_MS):
        self.interval_ms = interval_ms
        self._last: tuple[str, float] | None = None

    def seen(self, gesture: Gesture, t_ms: float) -> Gesture:
        if gesture.kind != "press" or gesture.button not in REPEATING:
            self._last = None
            return gesture
        held = self._last is not None and self._last[0] == gesture.button and t_ms - self._last[1] <= self.interval_ms
        self._last = (gesture.button, t_ms)
        return Gesture(gesture.button, "repeat") if held else gesture


class TerminalKeys:
    """Keys from a terminal in cbreak mode (Ctrl-C still interrupts). ``fd``: stdin by default.
    UP or DOWN held down (the terminal's key repeat) comes as repeats (``KeyRepeat``)."""

    def __init__(self, fd: int | None = None):
        import termios
        import tty
        self._fd = sys.stdin.fileno() if fd is None else fd
        if not os.isatty(self._fd):
            raise DeviceError("the terminal keyboard needs an interactive terminal: "
                              "give the keys with --keys, or use --hardware headless")
        self._termios = termios
        self._saved = termios.tcgetattr(self._fd)
        tty.setcbreak(self._fd)
        self._buffer = b""
        self._ready: deque[Gesture | None] = deque()
        self._repeat = KeyRepeat()

    def get(self, timeout: float | None = None) -> Gesture | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._ready:
            if self._saved is None:
                raise InputEnded("the terminal keyboard is closed")
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            wait = min(ESCAPE_WAIT_S, remaining if remaining is not None else ESCAPE_WAIT_S) \
                if self._buffer else remaining
            readable, _, _ = select.select([self._fd], [], [], wait)
            if readable:
                chunk = os.read(self._fd, 64)
                if not chunk:
                    raise InputEnded("the terminal closed")
                self._buffer += chunk
            gestures, self._buffer = decode_terminal(self._buffer, final=not readable)
            self._ready.extend(gestures)
            if not self._ready and remaining == 0:
                return None
        gesture = self._ready.popleft()
        if gesture is None:
            raise InputEnded("quit")
        return self._repeat.seen(gesture, 1000 * time.monotonic())

    def close(self) -> None:
        if self._saved is not None:
            self._termios.tcsetattr(self._fd, self._termios.TCSADRAIN, self._saved)
            self._saved = None
