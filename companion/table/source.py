"""The race the table screen shows, kept in step with the journal without writing to it.

:class:`Follower` opens the journal read-only (``Journal(state, read_only=True)``: SQLite ``mode=ro``,
every query a short read transaction, so the box's writer is never blocked), replays the
newest session with its activity's pure rules, and on ``poll()`` applies the events the
box has committed since (an undo replays the line of play again, a new session starts
over). ``payload`` is everything the page shows, as JSON: the public view, the last
actions and the problems in ``companion.table.public``'s words (never a journal entry's
label as it is, never an exception's text), the lap chart and the championship.

The rows are followed in the order the box wrote them, as the box lived them: each event
meets the state it was made in (an undo goes back to the state before its target), so the
words of every row, undone or not, are those of the moment it was made and the same for
a follower started at any time.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import sqlite3
import time
from typing import Any, Callable

from companion.core import turnclock
from companion.core.journal import UNDO, Journal, JournalError, Session
from companion.games import registry
from companion.league import ledger, paper, record, seasons, teams
from companion.table import public
from companion.table.public import public_view

log = logging.getLogger(__name__)

HISTORY = 10
"""How many of the last actions the page lists."""
KEPT = 64
"""How many of the newest events keep the state before them: an undo of one goes back at
once; an older one replays the line of play from the setup."""
CLOCK_EVERY = 5.0
"""Seconds between two sendings of a running turn timer when nothing else changes: a page
opened late counts down from the box's time, not from an old sending."""


def chart_point(activity, state) -> tuple[tuple[int, int], list[str]] | None:
    """((race, leader's lap), the order) of ``state`` for the lap chart; None: the activity
    has no order (the dice roller). A pack's public view may give the race order itself
    (``order``, and ``race_no``: which race of a championship session, whose laps start
    again at each race); else the order is the standings', the lap their ``laps`` when they
    have it, else the public view's ``lap``, and the race 0. A pack's ``chart`` gives those
    keys of its public view alone, made without the rest."""
    if activity.chart is not None:
        view = activity.chart(state)
    else:
        view = activity.public(state) if activity.public is not None else {}
    if "order" in view:
        return (int(view.get("race_no") or 0), int(view.get("lap") or 0)), [str(n) for n in view["order"]]
    rows = activity.standings(state)
    if not rows:
        return None
    if "laps" in rows[0]:
        lap = max(int(r.get("laps") or 0) for r in rows)
    elif activity.public is not None:
        lap = int(view.get("lap") or 0)
    else:
        return None
    return (0, lap), [str(r["name"]) for r in rows]


def remembering(activity):
    """``activity`` whose ``public`` and ``standings`` each work out the newest state they
    were asked about once (states are immutable: the same object, the same answer). The
    follower asks them of each state it follows for the lap chart's point, then again for
    the page made of it: the second time is read back, not made again."""
    return dataclasses.replace(activity, standings=_once_per_state(activity.standings),
                               public=None if activity.public is None else _once_per_state(activity.public))


def _once_per_state(work):
    last: list = [None, None]           # (the state, its answer): the newest asked

    def once(state):
        if last[0] is not state or state is None:
            last[:] = [state, work(state)]
        return last[1]
    return once


class Follower:
    """The newest session of the journal in ``state_dir``, read-only."""

    def __init__(self, state_dir, clock: Callable[[], float] = time.time):
        self.state_dir = state_dir
        self.clock = clock                 # wall time, as the journal's rows keep it (injectable)
        self.timer = turnclock.Setting()   # the race's turn timer
        self.ledger = turnclock.Ledger()   # the time spent, from the rows followed
        self.drivers: frozenset[str] = frozenset()   # the cars the timer times
        self.row_at = 0.0                  # when the last row (else the race) was written
        self.sent_at = 0.0                 # when the payload was last made
        self.journal: Journal | None = None       # opened once the box has made it
        self.version: int | None = None
        self.session: Session | None = None
        self.activity = None
        self.state: Any = None
        self.seq = 0                       # the last journal row followed
        self.words: dict[int, str] = {}    # seq -> the table's words for that row
        self.history: list[str] = []       # the words listed, oldest first ("" rows left out)
        self.kept: list[tuple[int, Any, tuple | None]] = []   # (seq, state before, chart change)
        self.chart: dict[tuple[int, int], list[str]] = {}     # (race, lap) -> the order
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
                log.info("no journal to follow: %s", exc)
                self.problems = [public.no_journal()]
                return self._publish()
            self.problems = []
        try:
            version = self.journal.data_version()
        except sqlite3.DatabaseError as exc:   # busy for a moment: the next poll reads it
            log.warning("journal not read: %s", exc)
            return False
        if version == self.version:
            return self.timer.on and self.clock() - self.sent_at >= CLOCK_EVERY and self._publish()
        self.version = version
        with self.journal.snapshot():      # the race, the season and the drivers of one moment
            newest = self._newest()
            if newest is None:
                self.session, self.state = None, None
            elif self.session is None or newest.id != self.session.id:
                self._start(newest)
            else:
                self.session = newest
                self._catch_up()
            return self._publish()

    def _newest(self) -> Session | None:
        """The race being played; none (the main menu, a race put aside): the one that
        finished last (never a race put aside, which is not being played)."""
        found = self.journal.open_session()
        return self.journal.session_finished_last() if found is None else found

    def _start(self, session: Session) -> None:
        self.session, self.seq, self.words, self.history, self.problems = session, 0, {}, [], []
        from companion.kit.cars import human_drivers
        self.timer, self.ledger = turnclock.of_options(session.options), turnclock.Ledger()
        self.drivers, self.row_at = human_drivers(session.options), session.started
        self.activity = self._setup()
        if self.activity is not None:
            self._catch_up()

    def _setup(self):
        """The activity of the session, its state set up and the chart started; None
        (and a problem said) when this version cannot set it up."""
        session = self.session
        try:
            activity = remembering(registry.activity(session.activity))
            self.state = activity.setup(session.options, session.data)
        except Exception as exc:  # an activity this version cannot set up: say so
            log.warning("cannot set up %s: %s", session.activity, exc)
            self.state = None
            self._problem(public.cannot_show(session.activity))
            return None
        self.activity, self.chart, self.kept = activity, {}, []
        self._sample()
        return activity

    def _catch_up(self) -> None:
        if self.activity is None:
            return
        replay = self.journal.replay(self.session.id, after=self.seq)
        if self.timer.on and replay.rows:
            self.ledger = turnclock.fold(self.ledger, replay.clocks)
            self.row_at = replay.rows[-1][3]
        for seq, label, event, _ in replay.rows:
            self.seq = seq
            if event is None:
                self._say(seq, public.UNREADABLE)
                self._problem(public.unreadable(seq))
            elif event.get("kind") == UNDO:
                target = event.get("target")
                self._say(seq, public.undo_line(self.words.get(target)))
                self._undo(seq, target)
            else:
                self._follow(seq, label, event)

    def _follow(self, seq: int, label: str, event: dict) -> None:
        before = self.state
        try:
            after = self.activity.apply(before, event)
        except Exception as exc:  # the box reports it too; keep going
            log.warning("journal event %s not applied: %s", seq, exc)
            self._say(seq, public.NOT_APPLIED)
            self._problem(public.not_applied(seq))
            return
        self._say(seq, public.history_line(self.activity, label, before, event, after))
        self.state = after
        self.kept.append((seq, before, self._sample()))
        del self.kept[:-KEPT]

    def _undo(self, seq: int, target: Any) -> None:
        """Back to the state before ``target``, undone in row ``seq``: at once when it is
        the newest event kept, else the line of play as the journal held it then, replayed
        from the setup (the lap chart with it)."""
        if self.kept and self.kept[-1][0] == target:
            _, self.state, change = self.kept.pop()
            if change is not None:
                lap, old = change
                if old is None:
                    del self.chart[lap]
                else:
                    self.chart[lap] = old
            return
        rows = [(s, event) for s, _, event, _ in self.journal.replay(self.session.id).rows
                if s <= seq and event is not None]
        undone = {event.get("target") for _, event in rows if event.get("kind") == UNDO}
        if self._setup() is None:
            return
        for s, event in rows:
            if s in undone or event.get("kind") == UNDO:
                continue
            try:
                self.state = self.activity.apply(self.state, event)
            except Exception:  # said when it was first followed
                continue
            self._sample()

    def _say(self, seq: int, words: str) -> None:
        self.words[seq] = words
        if words:
            self.history.append(words)

    def _problem(self, problem: str) -> None:
        if problem not in self.problems:
            self.problems.append(problem)

    def _sample(self) -> tuple[tuple[int, int], list[str] | None] | None:
        """The lap chart's point of the state now; the change it made (the race and lap,
        the order it held before: None when none) for an undo to take back."""
        point = chart_point(self.activity, self.state)
        if point is None:
            return None
        lap, order = point
        old = self.chart.get(lap)
        self.chart[lap] = order
        return lap, old

    def _publish(self) -> bool:
        payload = self._make_payload()
        self.sent_at = self.clock()
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
        from companion.devices import power
        if power.low_in(self.journal.club_events()):
            out["problems"] = [*out["problems"], f"{power.STATUS} on the box: {power.ADVICE}"]
        out["drivers"] = record.summaries(self.journal)
        note = ledger.unshown_note(self.journal)
        if note:
            out["problems"] = [*out["problems"], note]
        if self.session is None:
            return out
        out["title"] = paper.activity_title(self.session.activity, self.session.options)
        out["activity"] = self.session.activity
        out["history"] = self.history[-HISTORY:][::-1]
        if self.activity is not None and self.state is not None:
            out["race"] = public_view(self.activity, self.state)
            clock = self._clock()
            if clock is not None:
                out["race"]["clock"] = clock
            point = chart_point(self.activity, self.state)
            race = point[0][0] if point else 0        # a championship's race now: its laps alone
            out["chart"] = [[lap, order] for (r, lap), order in sorted(self.chart.items()) if r == race]
        return out

    def _clock(self) -> dict[str, Any] | None:
        """The turn timer of the driver on turn as the box counts it (to within a poll;
        the same driver: ``kit.turns.player_on_turn``): what is left now, the page counting
        on from it (``turnclock.Reading.to_json``)."""
        if not self.timer.on or self.activity.finished(self.state):
            return None
        from companion.kit.turns import player_on_turn
        turn = player_on_turn(self.activity.moves(self.state))
        live = (self.clock() - self.row_at) * 1000
        reading = turnclock.reading(self.timer, self.ledger, turn if turn in self.drivers else "", live)
        return reading.to_json() if reading is not None else None

    def _championship(self) -> dict[str, Any]:
        """The championship of the race being run (or shown): never another game's, and
        no points before that championship has a result."""
        running = self.session.championship if self.session is not None else None
        key, rows = seasons.shown_table(self.journal, running)
        if key is None:
            return {"title": "", "season": "", "races": 0, "standings": [], "dropped": [], "teams": [], "past": []}
        shown = seasons.shown(self.journal, key)
        return {"title": ledger.title(key), "season": shown.name,
                "races": seasons.race_count(self.journal, key),
                "standings": [{"position": r["position"], "name": r["name"], "points": r["points"]} for r in rows],
                "dropped": seasons.dropped_note(rows),
                "teams": [{"position": t["position"], "name": t["name"], "points": t["points"],
                           "drivers": t["drivers"]} for t in teams.table(self.journal, shown)],
                "past": past_seasons(self.journal, key, shown)}


PAST_SEASONS = 12
"""Past seasons the page lists at most (the newest), each with its table's first
:data:`PAST_ROWS` rows: what is served stays small however long a club plays."""
PAST_ROWS = 12


def past_seasons(journal, key: str, shown) -> list[dict[str, Any]]:
    """The seasons of championship ``key`` before the one shown, newest first, each its
    name, races, whether it was completed or left for the next, and its final table."""
    every = [s for s in seasons.listed(journal, key) if s.name != shown.name and s.race_list()]
    out = []
    for season in reversed(every[-PAST_SEASONS:]):
        rows = seasons.table(journal, season)
        out.append({"name": season.name, "races": len(season.race_list()), "of": season.races,
                    "rows": len(rows),
                    "standings": [{"position": r["position"], "name": r["name"], "points": r["points"]}
                                  for r in rows[:PAST_ROWS]]})
    return out
