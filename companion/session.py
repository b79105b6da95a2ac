"""A running session: one activity's state, kept in step with the journal.

``perform(move)`` resolves the move (the only place randomness enters), commits the
event to the journal, and only then applies it. ``undo()`` journals an undo and
rebuilds the state by replay. ``SessionRunner.resume`` rebuilds a session after a
restart from the journal alone.

Undo is for a mis-press, never a free re-roll: a move made again at the state an undo
returned to, the same move as one undone there (the same die, the same gear), gets the
undone event's outcome back instead of a new roll. The undone event stays in the
history; the repeat is journaled as any event; another move rolls anew. What was undone
where is derived from the journal (each event row keeps the key of its move), so a
restart keeps it. A move whose resolve needs no randomness (a lap time read from the
clock) is resolved afresh.
"""

from __future__ import annotations

import copy
import functools
import json
import pickle
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from companion.core import turnclock
from companion.core.journal import UNDO, Entry, Journal, Replay, Session
from companion.games import registry
from companion.games.api import Activity, Move, history_line
from companion.kit.cars import human_drivers
from companion.kit.turns import player_on_turn


def _warn(message: str, *args) -> None:
    """A warning in the log; ``logging`` is imported only when there is one to write (a
    resumed race's first frame does not pay for it)."""
    import logging
    logging.getLogger(__name__).warning(message, *args)


SNAPSHOT_EVERY = 200
"""A snapshot of the state every this many events: a resume replays at most this many
(a 66-lap Top Speed race has about 3,000 events)."""


@functools.lru_cache(maxsize=None)
def code_fingerprint(package: str) -> str:
    """A hash of the code that shapes a state (the activity's package, ``core``, ``kit`` and the
    contract): a snapshot is used only by the code that made it."""
    import companion

    try:
        from _sha1 import sha1   # CPython's own: hashlib would load OpenSSL, 4 MB resident, for this one digest
    except ImportError:          # pragma: no cover - an interpreter without it
        from hashlib import sha1
    root = Path(companion.__file__).parent
    folders = [root.joinpath(*package.split(".")[1:]), root / "core", root / "kit"]
    digest = sha1(companion.__version__.encode())
    for path in sorted(p for folder in folders for p in folder.rglob("*.py")) + [root / "games" / "api.py"]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def move_key(move: Move) -> str:
    """What makes two moves the same move (its kind, player and arguments; not its label)."""
    return json.dumps([move.kind, move.player, [list(a) for a in move.args]], separators=(",", ":"), default=str)


class _WouldRoll(BaseException):
    """A resolve reached for the dice (BaseException: a pack's ``except Exception`` lets it through)."""


class _NoDice:
    """An rng that refuses to roll: resolving with it tells whether a move has a random outcome."""

    def __getattr__(self, name: str):
        raise _WouldRoll(name)


def resolve_without_dice(activity: Activity, state: Any, move: Move) -> dict | None:
    """``move`` resolved when its outcome is not random (it may read the clock); None
    when its resolve reaches for the dice."""
    try:
        return activity.resolve(state, move, _NoDice())
    except _WouldRoll:
        return None


Undone = dict[int, list[tuple[str, dict]]]
"""depth (effective events since the replay's start) -> [(move key, event undone there)]"""


def undone_outcomes(replay: Replay) -> tuple[int, Undone]:
    """From a session's journal rows: how many effective events the state holds (from
    where the replay starts), and the events undone at each depth of the present line
    of play, with their moves. An event made at a depth where it was not undone before
    forgets what was undone deeper (that was another line of play)."""
    stack: list[int] = []
    events: dict[int, dict] = {}
    undone: Undone = {}
    for seq, _label, event, _created in replay.rows:
        if event is None:
            continue
        if event["kind"] == UNDO:
            target = event.get("target")
            if stack and stack[-1] == target:
                stack.pop()
                key = replay.moves.get(target)
                if key is not None:
                    undone.setdefault(len(stack), []).append((key, events[target]))
            elif target in stack:               # not the newest: where it leaves is not known
                stack.remove(target)
                undone.clear()
            continue
        _forget_deeper(undone, len(stack), event)
        stack.append(seq)
        events[seq] = event
    return len(stack), undone


def _forget_deeper(undone: Undone, depth: int, event: dict) -> None:
    """``event`` is made at ``depth``: unless it is one undone there (the same line of
    play again), what was undone deeper is of another line."""
    if any(ev == event for _, ev in undone.get(depth, ())):
        return
    for d in [d for d in undone if d > depth]:
        del undone[d]


@dataclass(frozen=True)
class TimedSnapshot:
    """A snapshot of a race with a turn timer: its state and the time spent up to it."""
    state: Any
    ledger: turnclock.Ledger


@dataclass
class SessionRunner:
    journal: Journal
    session: Session
    activity: Activity
    state: Any
    package: str = ""                  # the activity's package (snapshots' code fingerprint)
    problems: list[str] = field(default_factory=list)
    depth: int = 0                     # effective events since the replay's start
    undone: Undone = field(default_factory=dict)   # outcomes undone at each depth (undone_outcomes)
    clock: Callable[[], float] = time.monotonic    # the turn timer's clock, in seconds (injectable)
    timer: turnclock.Setting = turnclock.Setting()  # the race's turn timer (off: nothing kept)
    ledger: turnclock.Ledger = turnclock.Ledger()   # the time spent, from the journal's rows
    stopwatch: turnclock.Stopwatch | None = None    # the time since the last row

    # -- construction -----------------------------------------------------------------

    @classmethod
    def start(cls, journal: Journal, slug: str, options: dict, data: dict,
              championship: str | None = None, clock: Callable[[], float] | None = None) -> "SessionRunner":
        act = registry.activity(slug)
        state = act.setup(options, data)  # fails before anything is written
        turnclock.setting(options.get(turnclock.KEY))   # so does a timer that is not one
        sid = journal.start_session(slug, options, data, championship or registry.championship_of(slug, options))
        runner = cls(journal, journal.session(sid), act, state, registry.entry(slug).package)
        runner._start_timer(clock)
        return runner

    @classmethod
    def resume(cls, journal: Journal, session: Session, clock: Callable[[], float] | None = None) -> "SessionRunner":
        act = registry.activity(session.activity)
        runner = cls(journal, session, act, None, registry.entry(session.activity).package)
        runner._start_timer(clock)
        runner.rebuild()
        return runner

    def _start_timer(self, clock: Callable[[], float] | None) -> None:
        """The race's turn timer, counting from now (after a restart: from the resume;
        what was spent is in the journal's rows)."""
        self.clock = clock or self.clock
        self.timer = turnclock.of_options(self.session.options)
        if self.timer.on:
            self.stopwatch = turnclock.Stopwatch(self.clock)
            self._drivers = human_drivers(self.session.options)

    def rebuild(self) -> None:
        """State from the newest usable snapshot (or the session's setup) and the effective
        events after it, skipping unusable ones."""
        act = self.activity
        state, after, ledger = self._from_snapshot()
        if state is None:
            state, after, ledger = act.setup(self.session.options, self.session.data), 0, turnclock.Ledger()
        replay = self.journal.replay(self.session.id, after=after)
        if self.timer.on:
            self.ledger = turnclock.fold(ledger, replay.clocks)
        problems = list(replay.problems)
        for event in replay.effective:
            try:
                state = act.apply(state, event)
            except Exception as exc:  # a damaged or out-of-place event: report, keep going
                problems.append(f"journal event '{event.get('kind')}' could not be applied ({exc}); skipped")
        self.state = state
        self.problems = problems
        self.depth, self.undone = undone_outcomes(replay)

    # -- actions ----------------------------------------------------------------------

    def moves(self) -> list[Move]:
        return list(self._once("moves", lambda state: tuple(self.activity.moves(state))))

    def perform(self, move: Move, rng: random.Random) -> dict:
        """Resolve, commit, apply. Returns the committed event. The same move as one
        undone at this state gets that event's outcome back (never a re-roll)."""
        key = move_key(move)
        event = self._undone_outcome(move, key)
        if event is None:
            event = self.activity.resolve(self.state, move, rng)
        after = self.activity.apply(self.state, event)   # an event the rules refuse is not committed
        self.record(event, self._label(move, event, after), key, after)
        return event

    def _label(self, move: Move, event: dict, after: Any) -> str:
        """The history's words for ``event`` (``after``: the state it leads to):
        ``history_line`` of the move and its outcome ("Black: 5th gear, 15 spaces"), or where
        the activity has words of its own for a choice made face down or its reveal
        (``public_words``: "Ann: a card face down"), those, so the box's history never names
        a card before it is turned."""
        words = None
        if self.activity.public_words is not None:
            try:
                words = self.activity.public_words(self.state, event, after)
            except Exception as exc:   # a bug in the words must not lose the press
                _warn("no public words for %s: %s", event.get("kind"), exc)
        return words or history_line(move, self.activity.describe(event))

    def _undone_outcome(self, move: Move, key: str) -> dict | None:
        """The event of ``move`` undone at this state, when its outcome was random (a
        move with none, or one read from the clock, is resolved afresh)."""
        found = next((ev for k, ev in reversed(self.undone.get(self.depth, ())) if k == key), None)
        if found is None:
            return None
        fresh = resolve_without_dice(self.activity, self.state, move)
        return copy.deepcopy(found) if fresh is None else fresh

    def record(self, event: dict, label: str, move: str | None = None, after: Any = None) -> None:
        """Commit an event already resolved (``move``: the key of the move it came from;
        with a turn timer, the time the driver on turn spent before it), then apply it, or
        take ``after``, the state it leads to when already worked out (and keep a snapshot
        now and then)."""
        clock = self._spent()
        seq = self.journal.append(self.session.id, event, label, move, clock)
        if clock is not None:
            self.ledger = self.ledger.add(*clock)
        self.state = self.activity.apply(self.state, event) if after is None else after
        if self.undone:
            _forget_deeper(self.undone, self.depth, event)
        self.depth += 1
        if seq % SNAPSHOT_EVERY == 0:
            self._save_snapshot(seq)

    # -- snapshots (a cache: the journal's events are the truth) ------------------------

    def _save_snapshot(self, seq: int) -> None:
        kept = TimedSnapshot(self.state, self.ledger) if self.timer.on else self.state
        try:
            blob = pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # a state that cannot be pickled just replays in full
            _warn("no snapshot of %s: %s", self.session.activity, exc)
            return
        self.journal.save_snapshot(self.session.id, seq, code_fingerprint(self.package), blob)

    def _from_snapshot(self) -> tuple[Any, int, turnclock.Ledger]:
        """(state, its seq, the time spent up to it) of the newest usable snapshot; (None,
        0, ...) when there is none (a race with a turn timer uses only one that kept it)."""
        found = self.journal.latest_snapshot(self.session.id, code_fingerprint(self.package))
        if found is None:
            return None, 0, turnclock.Ledger()
        seq, blob = found
        try:
            kept = pickle.loads(blob)
        except Exception as exc:  # damaged: the full replay gives the same state
            _warn("snapshot %s of session %s unreadable (%s): replaying in full", seq, self.session.id, exc)
            return None, 0, turnclock.Ledger()
        if isinstance(kept, TimedSnapshot):
            return kept.state, seq, kept.ledger
        return (None, 0, turnclock.Ledger()) if self.timer.on else (kept, seq, turnclock.Ledger())

    # -- the turn timer -----------------------------------------------------------------

    def on_turn(self) -> str:
        """The driver the turn timer times now ("" when the timer is off, the race is over,
        or the move GO performs names nobody or an automated driver): the player of that
        move (``kit.turns.player_on_turn``), from the moves the screen asks for anyway."""
        if not self.timer.on or self.finished():
            return ""
        turn = player_on_turn(self.moves())
        return turn if turn in self._drivers else ""

    def _spent(self) -> list | None:
        """The row's ``[driver on turn, ms since the last row]`` (None: no timer)."""
        if self.stopwatch is None:
            return None
        return [self.on_turn(), self.stopwatch.take()]

    def timer_reading(self) -> turnclock.Reading | None:
        """What is left of the turn's time now (None: no timer, nobody timed on turn, or
        the race is over)."""
        if self.stopwatch is None or self.session.finished is not None:
            return None
        return turnclock.reading(self.timer, self.ledger, self.on_turn(), self.stopwatch.live_ms())

    def thinking(self) -> list[dict]:
        """Each timed driver's thinking time (the results' ``thinking`` rows)."""
        names = tuple(str(r.get("name")) for r in self.activity.standings(self.state))
        return self.ledger.thinking(names)

    def undo(self) -> Entry | None:
        entry = self.journal.undo_last(self.session.id, self._spent())
        if entry is not None:
            self.rebuild()
            if self.session.finished is not None and not self.finished():
                # the race's last move undone: it runs again (and leaves the championship)
                self.journal.reopen_session(self.session.id)
                self.session = self.journal.session(self.session.id)
        return entry

    def view(self):
        """The activity's view of the state (UP and DOWN redraw the same state)."""
        return self._once("view", self.activity.view)

    def _once(self, what: str, work):
        """``work(state)``, worked out once per state: states are immutable, so the same
        object gives the same answer (a press asks for the moves three times)."""
        state, answer = self.__dict__.get(f"_{what}_of", (None, None))
        if state is not self.state:
            answer = work(self.state)
            self.__dict__[f"_{what}_of"] = (self.state, answer)
        return answer

    def history(self) -> list[Entry]:
        return self.journal.replay(self.session.id).entries

    def finished(self) -> bool:
        return bool(self.activity.finished(self.state))

    def results(self) -> dict:
        """What ``results.json`` holds: game, standings and what the game adds."""
        out = {"game": registry.game_of(self.session.activity, self.session.options), "activity": self.session.activity,
               "standings": list(self.activity.standings(self.state))}
        for key, value in (self.activity.summary(self.state) or {}).items():
            out.setdefault(key, value)
        if self.timer.on:
            out["timer"] = self.session.options.get(turnclock.KEY)
            out["thinking"] = self.thinking()
        return out

    def receipts(self) -> dict:
        return dict(self.activity.receipts(self.state) or {})

    def finish(self, *, early: bool = False) -> dict:
        """Close the session with its results; ``early``: the table ended the race before
        its end, and the results (and the receipts made from them) say so."""
        results = {**self.results(), "ended_early": True} if early else self.results()
        self.journal.finish_session(self.session.id, results)
        self.session = self.journal.session(self.session.id)
        return results
