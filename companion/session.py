"""A running session: one activity's state, kept in step with the journal.

``perform(move)`` resolves the move (the only place randomness enters), commits the
event to the journal, and only then applies it. ``undo()`` journals an undo and
rebuilds the state by replay. ``SessionRunner.resume`` rebuilds a session after a
restart from the journal alone.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import pickle
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.core.journal import Entry, Journal, Session
from companion.games import registry
from companion.games.api import Activity, Move


log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 250
"""A snapshot of the state every this many events: a resume replays at most this many
(a 66-lap Top Speed race has about 3,000 events)."""


@functools.lru_cache(maxsize=None)
def code_fingerprint(package: str) -> str:
    """A hash of the code that shapes a state (the activity's package, ``core``, ``kit`` and the
    contract): a snapshot is used only by the code that made it."""
    import companion

    root = Path(companion.__file__).parent
    folders = [root.joinpath(*package.split(".")[1:]), root / "core", root / "kit"]
    digest = hashlib.sha1(companion.__version__.encode())
    for path in sorted(p for folder in folders for p in folder.rglob("*.py")) + [root / "games" / "api.py"]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass
class SessionRunner:
    journal: Journal
    session: Session
    activity: Activity
    state: Any
    package: str = ""                  # the activity's package (snapshots' code fingerprint)
    problems: list[str] = field(default_factory=list)

    # -- construction -----------------------------------------------------------------

    @classmethod
    def start(cls, journal: Journal, slug: str, options: dict, data: dict,
              championship: str | None = None) -> "SessionRunner":
        act = registry.activity(slug)
        state = act.setup(options, data)  # fails before anything is written
        sid = journal.start_session(slug, options, data, championship or game_of(slug, options))
        return cls(journal, journal.session(sid), act, state, registry.entry(slug).package)

    @classmethod
    def resume(cls, journal: Journal, session: Session) -> "SessionRunner":
        act = registry.activity(session.activity)
        runner = cls(journal, session, act, None, registry.entry(session.activity).package)
        runner.rebuild()
        return runner

    def rebuild(self) -> None:
        """State from the newest usable snapshot (or the session's setup) and the effective
        events after it, skipping unusable ones."""
        act = self.activity
        state, after = self._from_snapshot()
        if state is None:
            state, after = act.setup(self.session.options, self.session.data), 0
        replay = self.journal.replay(self.session.id, after=after)
        problems = list(replay.problems)
        for event in replay.effective:
            try:
                state = act.apply(state, event)
            except Exception as exc:  # a damaged or out-of-place event: report, keep going
                problems.append(f"journal event '{event.get('kind')}' could not be applied ({exc}); skipped")
        self.state = state
        self.problems = problems

    # -- actions ----------------------------------------------------------------------

    def moves(self) -> list[Move]:
        return list(self._once("moves", lambda state: tuple(self.activity.moves(state))))

    def perform(self, move: Move, rng: random.Random) -> dict:
        """Resolve, commit, apply. Returns the committed event."""
        event = self.activity.resolve(self.state, move, rng)
        label = move.label if not move.player or move.player in move.label else f"{move.player}: {move.label}"
        outcome = self.activity.describe(event)
        if outcome:
            label = f"{label}: {outcome}"
        self.record(event, label)
        return event

    def record(self, event: dict, label: str) -> None:
        """Commit an event already resolved, then apply it (and keep a snapshot now and then)."""
        seq = self.journal.append(self.session.id, event, label)
        self.state = self.activity.apply(self.state, event)
        if seq % SNAPSHOT_EVERY == 0:
            self._save_snapshot(seq)

    # -- snapshots (a cache: the journal's events are the truth) ------------------------

    def _save_snapshot(self, seq: int) -> None:
        try:
            blob = pickle.dumps(self.state, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # a state that cannot be pickled just replays in full
            log.warning("no snapshot of %s: %s", self.session.activity, exc)
            return
        self.journal.save_snapshot(self.session.id, seq, code_fingerprint(self.package), blob)

    def _from_snapshot(self) -> tuple[Any, int]:
        found = self.journal.latest_snapshot(self.session.id, code_fingerprint(self.package))
        if found is None:
            return None, 0
        seq, blob = found
        try:
            return pickle.loads(blob), seq
        except Exception as exc:  # damaged: the full replay gives the same state
            log.warning("snapshot %s of session %s unreadable (%s): replaying in full", seq, self.session.id, exc)
            return None, 0

    def undo(self) -> Entry | None:
        entry = self.journal.undo_last(self.session.id)
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
        out = {"game": game_of(self.session.activity, self.session.options), "activity": self.session.activity,
               "standings": list(self.activity.standings(self.state))}
        for key, value in (self.activity.summary(self.state) or {}).items():
            out.setdefault(key, value)
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


def game_of(slug: str, options: dict) -> str:
    """The game a session counts for: the activity when it is a game; for a tool, the game
    whose points table it uses (the lap counter's "Points" option), else the tool itself."""
    if slug in registry.GAMES:
        return slug
    game = options.get("game")
    return game if game in registry.GAMES else slug
