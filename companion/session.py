"""A running session: one activity's state, kept in step with the journal.

``perform(move)`` resolves the move (the only place randomness enters), commits the
event to the journal, and only then applies it. ``undo()`` journals an undo and
rebuilds the state by replay. ``SessionRunner.resume`` rebuilds a session after a
restart from the journal alone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.core.journal import Entry, Journal, Session
from companion.games.api import Move
from companion.games.registry import Activity, activity


class ReplayProblem(Exception):
    pass


@dataclass
class SessionRunner:
    journal: Journal
    session: Session
    activity: Activity
    state: Any
    problems: list[str] = field(default_factory=list)

    # -- construction -----------------------------------------------------------------

    @classmethod
    def start(cls, journal: Journal, slug: str, options: dict, data: dict,
              championship: str | None = None) -> "SessionRunner":
        act = activity(slug)
        state = act.rules.setup(options, data)  # fails before anything is written
        sid = journal.start_session(slug, options, data, championship)
        return cls(journal, journal.session(sid), act, state)

    @classmethod
    def resume(cls, journal: Journal, session: Session) -> "SessionRunner":
        act = activity(session.activity)
        runner = cls(journal, session, act, None)
        runner.rebuild()
        return runner

    def rebuild(self) -> None:
        """State from the session's setup and its effective events (skipping unusable ones)."""
        rules = self.activity.rules
        replay = self.journal.replay(self.session.id)
        problems = list(replay.problems)
        state = rules.setup(self.session.options, self.session.data)
        for event in replay.effective:
            try:
                state = rules.apply(state, event)
            except Exception as exc:  # a damaged or out-of-place event: report, keep going
                problems.append(f"journal event '{event.get('kind')}' could not be applied ({exc}); skipped")
        self.state = state
        self.problems = problems

    # -- actions ----------------------------------------------------------------------

    @property
    def rules(self):
        return self.activity.rules

    def moves(self) -> list[Move]:
        return list(self.rules.moves(self.state))

    def perform(self, move: Move, rng: random.Random) -> dict:
        """Resolve, commit, apply. Returns the committed event."""
        event = self.rules.resolve(self.state, move, rng)
        label = move.label if not move.player or move.player in move.label else f"{move.player}: {move.label}"
        describe = getattr(self.rules, "describe", None)
        outcome = describe(event) if describe is not None else ""
        if outcome:
            label = f"{label}: {outcome}"
        self.journal.append(self.session.id, event, label)
        self.state = self.rules.apply(self.state, event)
        return event

    def undo(self) -> Entry | None:
        entry = self.journal.undo_last(self.session.id)
        if entry is not None:
            self.rebuild()
        return entry

    def history(self) -> list[Entry]:
        return self.journal.replay(self.session.id).entries

    def finished(self) -> bool:
        return bool(self.rules.finished(self.state))

    def results(self) -> dict:
        """What ``results.json`` holds: game, standings and what the game adds."""
        game = self.session.options.get("game") if self.session.activity not in _games() else self.session.activity
        out = {"game": game or self.session.activity, "activity": self.session.activity,
               "standings": list(self.rules.standings(self.state))}
        summary = getattr(self.rules, "summary", None)
        if summary is not None:
            for key, value in (summary(self.state) or {}).items():
                out.setdefault(key, value)
        return out

    def receipts(self) -> dict:
        return dict(self.activity.screens.receipts(self.state) or {})

    def finish(self) -> dict:
        results = self.results()
        self.journal.finish_session(self.session.id, results)
        self.session = self.journal.session(self.session.id)
        return results


def _games():
    from companion.games.registry import GAMES
    return GAMES
