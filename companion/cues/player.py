"""The cues of a running box: found, written to ``cues.jsonl`` and played, off the loop.

:class:`Cues` is handed everything on a queue (``emit``, ``watch``, ``moved``) and does the
work on a worker thread of its own: reading the race's public view, finding the cues
(``derive``), writing each as a line ``{"t": ..., "cue": "last-lap", "game": "top-speed"}``
to every log, and playing it on every output (the buzzer, the sound card), one after
another. So a cue never delays a press or a frame: the loop only puts on a queue. A cue
that would start more than ``STALE_S`` late (presses faster than the tunes) is written but
not played. Muted, cues are written and not played.

The turn timer calls ``emit("timer-warning")`` and ``emit("timer-out")``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Iterable

# The catalogue, the setting, ``threading``, ``queue``, ``json`` and ``derive`` are loaded
# with the first cue, race or look at the setting: a start to the main menu pays for none.

STALE_S = 1.0
LOG = "cues.jsonl"
TURN_GAP_S = 3.0
"""A turn passing this soon after the last cue is not cued: turns passed at a press's
pace (a card drawn and passed) would be a cue for every press."""
TURN_CUES = ("turn", "your-choice")
FRAME_WAIT_S = 0.25
"""The longest the worker waits for a move's frame before it reads the race anyway."""


class Cues:
    """``outputs``: objects with ``play(cue, loudness)`` (may take the tune's time) and
    ``close()``, or a function that opens them (called on the worker when the first cue
    plays: the buzzer's gpiozero is not loaded before); ``logs``: the ``cues.jsonl`` files; ``clock``: seconds (a cue's ``t``);
    ``now``: the worker's clock, to tell a stale cue. ``sound``: the mute and volume, else
    read from ``state_dir`` (``settings.load``) when first needed."""

    def __init__(self, *, outputs: Iterable[Any] | Callable[[], list] = (), logs: Iterable[str | Path] = (),
                 clock: Callable[[], float] = time.time, now: Callable[[], float] = time.monotonic,
                 sound=None, state_dir: str | Path | None = None):
        self._open_outputs = outputs if callable(outputs) else None
        self.outputs: list = [] if callable(outputs) else list(outputs)
        self.logs = [Path(p) for p in logs]
        self.clock = clock
        self.now = now
        self._sound = sound
        self._state_dir = state_dir
        self.game: str | None = None
        self.written: list[dict] = []     # every cue this run, as written (tests, the demo)
        self.problem = ""                 # the last output's failure, said in the log once
        self._queue: Any = None
        self._thread: Any = None
        self._drawn: Any = None            # threading.Event: the move's frame is drawn
        self._files: dict[Path, Any] = {}
        self._moment: Any = None           # derive.Moment of the race followed
        self._automated: frozenset[str] = frozenset()
        self._closed = False
        self._last_t = float("-inf")       # when the last cue was

    # -- what the loop (or the timer) calls: each only puts on the queue -----------------

    def emit(self, name: str, game: str | None = None) -> None:
        """Cue ``name`` now (one of ``catalogue.CUES``; a ValueError otherwise)."""
        from companion.cues.catalogue import CUES
        if name not in CUES:
            raise ValueError(f"unknown cue {name!r}: use one of {', '.join(CUES)}")
        self._put(("emit", name, game, self.clock(), self.now()))

    def watch(self, activity, state, *, game: str | None = None, automated: Iterable[str] = ()) -> None:
        """The race to follow from now (started, resumed, undone): no cue for this moment."""
        self._put(("watch", activity, state, game, frozenset(automated)))

    def moved(self, activity, state) -> None:
        """A move led to ``state``: its cues, found and played on the worker once the
        move's frame is drawn (:meth:`drawn`), so reading the race does not compete with it."""
        if self._drawn is not None:
            self._drawn.clear()
        self._put(("moved", activity, state, self.clock(), self.now()))

    def drawn(self) -> None:
        """The loop has handed a frame to the display (the worker may read the race now)."""
        if self._drawn is not None:
            self._drawn.set()

    @property
    def sound(self):
        """The mute and volume (``settings.Sound``)."""
        if self._sound is None:
            from companion.cues.settings import load
            self._sound = load(self._state_dir)
        return self._sound

    def set_sound(self, sound) -> None:
        self._sound = sound

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything put so far is written and played (a demo's end, tests)."""
        if self._thread is None:
            return True
        import threading
        done = threading.Event()
        self._queue.put(("flush", done))
        return done.wait(timeout)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=5)
        for fh in self._files.values():
            fh.close()
        for output in self.outputs:
            try:
                output.close()
            except Exception:
                pass

    # -- the worker ------------------------------------------------------------------------

    def _put(self, item) -> None:
        if self._closed:
            return
        if self._thread is None:
            import queue
            import threading
            self._queue = queue.SimpleQueue()
            self._drawn = threading.Event()
            self._thread = threading.Thread(target=self._work, name="cues", daemon=True)
            self._thread.start()
        self._queue.put(item)

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            try:
                self._do(item)
            except Exception as exc:   # a cue must never take the box down
                self._said(f"cue failed: {exc!r}")

    def _do(self, item) -> None:
        from companion.cues import derive
        kind = item[0]
        if kind == "flush":
            item[1].set()
        elif kind == "watch":
            _, activity, state, game, automated = item
            self.game, self._automated = game, automated
            self._moment = _moment_of(activity, state)
        elif kind == "moved":
            _, activity, state, t, asked = item
            self._drawn.wait(FRAME_WAIT_S)
            after = _moment_of(activity, state)
            for name in derive.cues_between(self._moment or derive.Moment(), after, self._automated):
                if name in TURN_CUES and t - self._last_t < TURN_GAP_S:
                    continue
                self._cue(name, self.game, t, asked)
            self._moment = after
        elif kind == "emit":
            _, name, game, t, asked = item
            self._cue(name, game or self.game, t, asked)

    def _cue(self, name: str, game: str | None, t: float, asked: float) -> None:
        import json
        line = {"t": round(t, 3), "cue": name, "game": game}
        self._last_t = t
        self.written.append(line)
        for path in self.logs:
            try:
                fh = self._files.get(path)
                if fh is None:
                    fh = self._files[path] = open(path, "a", encoding="utf-8")
                fh.write(json.dumps(line) + "\n")
                fh.flush()
            except OSError as exc:
                self._said(f"cues not written to {path}: {exc}")
        from companion.cues.catalogue import CUES
        loudness = self.sound.loudness
        if not loudness or self.now() - asked > STALE_S:
            return
        if self._open_outputs is not None:
            opener, self._open_outputs = self._open_outputs, None
            self.outputs = list(opener())
        for output in self.outputs:
            try:
                output.play(CUES[name], loudness)
            except Exception as exc:
                self._said(f"cue not played on {type(output).__name__}: {exc}")

    def _said(self, problem: str) -> None:
        if problem != self.problem:
            self.problem = problem
            import logging
            logging.getLogger(__name__).warning("%s", problem)


def _moment_of(activity, state):
    from companion.cues import derive
    public = activity.public(state) if activity.public is not None else None
    return derive.moment(public, bool(activity.finished(state)))


def automated_names(options: dict) -> set[str]:
    """The names (and colours) of the cars the box drives, from a race's setup answers."""
    names: set[str] = set()
    players = options.get("players")
    for player in players if isinstance(players, list) else ():
        if isinstance(player, dict) and player.get("driver") == "auto":
            names.update(str(player[k]) for k in ("name", "colour") if player.get(k))
    return names
