"""The race the table screen shows, kept in step with the journal without writing to it.

:class:`Follower` opens the journal read-only (``Journal(state, read_only=True)``: SQLite ``mode=ro``,
every query a short read transaction, so the box's writer is never blocked), replays the
newest session with its activity's pure rules, and on ``poll()`` applies the events the
box has committed since (an undo, or a new session, replays it again). ``payload`` is
everything the page shows, as JSON: the public view (``companion.table.public``), the
last actions in the history's words, the lap chart and the championship.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

from companion import results
from companion.core.journal import UNDO, Journal, JournalError, Session
from companion.games import registry
from companion.table.public import public_view

log = logging.getLogger(__name__)

HISTORY = 10
"""How many of the last actions the page lists."""
WITHHELD = "(a choice made face down)"
"""An action the page does not say yet: a tactic picked, a card played face down."""


def chart_point(activity, state) -> tuple[int, list[str]] | None:
    """(leader's lap, the order) of ``state`` for the lap chart; None: the activity has no
    order (the dice roller). The lap is the standings' ``laps`` when they have it, else
    the public view's ``lap``."""
    rows = activity.standings(state)
    if not rows:
        return None
    if "laps" in rows[0]:
        lap = max(int(r.get("laps") or 0) for r in rows)
    elif activity.public is not None:
        lap = int(activity.public(state).get("lap") or 0)
    else:
        return None
    return lap, [str(r["name"]) for r in rows]


class Follower:
    """The newest session of the journal in ``state_dir``, read-only."""

    def __init__(self, state_dir):
        self.state_dir = state_dir
        self.journal: Journal | None = None       # opened once the box has made it
        self.version: int | None = None
        self.session: Session | None = None
        self.activity = None
        self.state: Any = None
        self.seq = 0                       # the last journal row applied
        self.labels: list[str] = []        # the history's words, oldest first
        self.chart: dict[int, list[str]] = {}
        self.secret_from: int | None = None  # labels from here on are face-down choices
        self.problems: list[str] = []
        self.payload: dict[str, Any] = {}
        self.text = ""                     # the payload as JSON
        self.poll()

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()

    def poll(self) -> bool:
        """Read what the box committed since the last poll; True when the page changes."""
        if self.journal is not None and self.journal.writer_back():
            self.journal.close()              # opened while the box was off: now it writes again
            self.journal, self.version = None, None
        if self.journal is None:
            try:
                self.journal = Journal(self.state_dir, read_only=True)
            except JournalError as exc:     # the box has not made its journal yet
                self.problems = [str(exc)]
                return self._publish()
            self.problems = []
        try:
            version = self.journal.data_version()
        except sqlite3.DatabaseError as exc:   # busy for a moment: the next poll reads it
            log.warning("journal not read: %s", exc)
            return False
        if version == self.version:
            return False
        self.version = version
        newest = self._newest()
        if newest is None:
            self.session, self.state = None, None
        elif self.session is None or newest.id != self.session.id:
            self._rebuild(newest)
        else:
            self.session = newest
            self._catch_up()
        return self._publish()

    def _newest(self) -> Session | None:
        """The race being played; none (the main menu, a race put aside): the one that
        finished last (never a race put aside, which is not being played)."""
        found = self.journal.open_session()
        if found is None:
            ended = self.journal.sessions(finished=True)
            found = max(ended, key=lambda s: (s.finished, s.id)) if ended else None
        return found

    def _rebuild(self, session: Session) -> None:
        self.session, self.seq, self.labels, self.chart, self.problems = session, 0, [], {}, []
        self.secret_from = None
        try:
            self.activity = registry.activity(session.activity)
            self.state = self.activity.setup(session.options, session.data)
        except Exception as exc:  # an activity this version cannot set up: say so
            self.activity, self.state = None, None
            self.problems.append(f"cannot show {session.activity}: {exc}")
            return
        self._sample()
        self._catch_up()

    def _catch_up(self) -> None:
        if self.activity is None:
            return
        replay = self.journal.replay(self.session.id, after=self.seq)
        rows = replay.rows
        if self.seq and any(event is not None and event.get("kind") == UNDO for _, _, event, _ in rows):
            self._rebuild(self.session)   # an undo reaches back: replay from the setup
            return
        for seq, label, event, _ in rows:
            self.seq = seq
            self.labels.append(label)
            if event is None or seq in replay.undone or event.get("kind") == UNDO:
                continue
            try:
                self.state = self.activity.apply(self.state, event)
            except Exception as exc:  # the box reports it too; keep going
                self.problems.append(f"journal event {seq} could not be applied ({exc})")
                continue
            self._sample()
        self.problems += [p for p in replay.problems if p not in self.problems]

    def _sample(self) -> None:
        secret = self.activity.secret
        if secret is not None and secret(self.state):
            if self.secret_from is None:
                self.secret_from = len(self.labels)
        else:
            self.secret_from = None
        point = chart_point(self.activity, self.state)
        if point is not None:
            self.chart[point[0]] = point[1]

    def _publish(self) -> bool:
        payload = self._make_payload()
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        changed = text != self.text
        self.payload, self.text = payload, text
        return changed

    def _make_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"title": "Race Companion", "activity": "", "race": None, "history": [],
                               "chart": [], "championship": {"title": "", "races": 0, "standings": []},
                               "problems": self.problems[-3:]}
        if self.journal is None:
            return out
        out["championship"] = self._championship()
        if self.session is None:
            return out
        out["title"] = results.activity_title(self.session.activity, self.session.options)
        out["activity"] = self.session.activity
        shown = len(self.labels) if self.secret_from is None else self.secret_from
        labels = self.labels[:shown] + [WITHHELD] * (len(self.labels) - shown)
        out["history"] = labels[-HISTORY:][::-1]
        if self.activity is not None and self.state is not None:
            out["race"] = public_view(self.activity, self.state)
            out["chart"] = [[lap, order] for lap, order in sorted(self.chart.items())]
        return out

    def _championship(self) -> dict[str, Any]:
        key, rows = results.standings(self.journal)
        if key is None:
            return {"title": "", "races": 0, "standings": []}
        return {"title": results.title(key), "races": results.race_count(self.journal, key),
                "standings": [{"position": r["position"], "name": r["name"], "points": r["points"]} for r in rows]}
