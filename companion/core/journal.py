"""The journal: an append-only SQLite event store.

Every action a player takes is appended (and committed, fsync'd) here before the
screen shows its outcome. A race is a *session*: the activity, its setup options and a
snapshot of the game data, then its events in order. The state of a session is
rebuilt by replaying its events through the rules' pure ``apply``.

Undo is an event too (``{"kind": "undo", "target": seq}``): the undone action stays
in the journal and in the history, and replay skips it.

Each event row carries a CRC32 of its JSON body. A row whose body is unreadable is
reported (``Replay.problems``) and skipped; it stays in the file, nothing is deleted.
SQLite's write-ahead log makes each append atomic: a torn last write (power cut during
the write) leaves the journal at the previous committed event.

Snapshots are a cache, never the truth: every few hundred events the session runner
stores the state reached (``save_snapshot``) so a resume replays only the events after
it. An undo that reaches behind a snapshot deletes it in the same transaction, and a
snapshot that cannot be read, fails its CRC or was made by other code is passed over for
an older one or the full replay, which give the same state.
"""

from __future__ import annotations

import json
import sqlite3
import time
import zlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterator

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    activity TEXT NOT NULL,
    options TEXT NOT NULL,
    data TEXT NOT NULL,
    championship TEXT,
    started REAL NOT NULL,
    finished REAL,
    results TEXT
);
CREATE TABLE IF NOT EXISTS events (
    session INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    label TEXT NOT NULL,
    body TEXT NOT NULL,
    crc INTEGER NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (session, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    session INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    code TEXT NOT NULL,
    state BLOB NOT NULL,
    crc INTEGER NOT NULL,
    PRIMARY KEY (session, seq)
) WITHOUT ROWID;
"""

UNDO = "undo"


class JournalError(RuntimeError):
    """The journal file cannot be opened or written; ``str()`` says what to do."""


@dataclass(frozen=True)
class Session:
    id: int
    activity: str
    options: dict[str, Any]
    data: dict[str, Any]
    championship: str | None
    started: float
    finished: float | None
    results: dict[str, Any] | None


@dataclass(frozen=True)
class Entry:
    """One journal row as the history shows it."""
    seq: int
    label: str
    event: dict[str, Any] | None      # None when the row is unreadable
    created: float
    undone: bool = False


@dataclass
class Replay:
    """A session's events, ready to replay: ``effective`` are the events to apply in order.
    ``entries`` (the history) is made from the rows on first use: a resume needs only
    ``effective``, and making thousands of entries would slow every boot."""
    rows: list[tuple[int, str, dict[str, Any] | None, float]] = field(default_factory=list, repr=False)
    undone: set[int] = field(default_factory=set, repr=False)
    effective: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @cached_property
    def entries(self) -> list[Entry]:
        return [Entry(seq, label, event, created, seq in self.undone) for seq, label, event, created in self.rows]


def _crc(body: str) -> int:
    return zlib.crc32(body.encode("utf-8"))


def _dump(obj: Any) -> str:
    # insertion order is kept: a data snapshot must replay exactly as it was set up
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class Journal:
    """The event store in ``<state dir>/journal.sqlite3``."""

    FILENAME = "journal.sqlite3"

    def __init__(self, state_dir: str | Path):
        self.path = Path(state_dir) / self.FILENAME
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            columns = [r[1] for r in self._db.execute("PRAGMA table_info(snapshots)")]
            if columns and "crc" not in columns:  # snapshots are a cache: an older form goes
                self._db.execute("DROP TABLE snapshots")
            self._db.executescript(SCHEMA)
        except (sqlite3.DatabaseError, OSError) as exc:
            raise JournalError(f"cannot open the journal {self.path}: {exc} "
                               "(check the state directory is writable; move a damaged file aside)") from None

    def close(self) -> None:
        db, self._db = getattr(self, "_db", None), None
        if db is not None:
            db.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- sessions ---------------------------------------------------------------------

    def start_session(self, activity: str, options: dict[str, Any], data: dict[str, Any],
                      championship: str | None = None) -> int:
        cur = self._write(
            "INSERT INTO sessions (activity, options, data, championship, started) VALUES (?,?,?,?,?)",
            (activity, _dump(options), _dump(data), championship, time.time()))
        return int(cur.lastrowid)

    def session(self, session_id: int) -> Session:
        row = self._db.execute("SELECT * FROM sessions WHERE id=?", (session_id,)).fetchone()
        if row is None:
            raise JournalError(f"no session {session_id} in {self.path}")
        return self._session(row)

    def open_session(self) -> Session | None:
        """The newest session that has not finished (the race to resume on boot)."""
        row = self._db.execute(
            "SELECT * FROM sessions WHERE finished IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        return self._session(row) if row else None

    def sessions(self, finished: bool | None = None) -> list[Session]:
        sql = "SELECT * FROM sessions"
        if finished is True:
            sql += " WHERE finished IS NOT NULL"
        elif finished is False:
            sql += " WHERE finished IS NULL"
        return [self._session(r) for r in self._db.execute(sql + " ORDER BY id")]

    def finish_session(self, session_id: int, results: dict[str, Any] | None) -> None:
        self._write("UPDATE sessions SET finished=?, results=? WHERE id=?",
                    (time.time(), _dump(results) if results is not None else None, session_id))

    def reopen_session(self, session_id: int) -> None:
        """Mark a finished session as running again (its last move was undone)."""
        self._write("UPDATE sessions SET finished=NULL, results=NULL WHERE id=?", (session_id,))

    def _session(self, row) -> Session:
        sid, activity, options, data, champ, started, finished, results = row
        return Session(sid, activity, _loads(options, {}), _loads(data, {}), champ, started, finished,
                       _loads(results, None) if results else None)

    # -- events -----------------------------------------------------------------------

    def append(self, session_id: int, event: dict[str, Any], label: str) -> int:
        """Commit ``event`` (with its history ``label``) and return its sequence number."""
        body = _dump(event)
        seq = self._next_seq(session_id)
        self._write("INSERT INTO events (session, seq, label, body, crc, created) VALUES (?,?,?,?,?,?)",
                    (session_id, seq, label, body, _crc(body), time.time()))
        return seq

    def undo_last(self, session_id: int) -> Entry | None:
        """Append an undo of the newest action not yet undone; return that action's entry."""
        replay = self.replay(session_id)
        target = next((e for e in reversed(replay.entries)
                       if e.event is not None and not e.undone and e.event.get("kind") != UNDO), None)
        if target is None:
            return None
        body = _dump({"kind": UNDO, "target": target.seq})
        seq = self._next_seq(session_id)
        self._transaction([
            ("INSERT INTO events (session, seq, label, body, crc, created) VALUES (?,?,?,?,?,?)",
             (session_id, seq, f"Undo: {target.label}", body, _crc(body), time.time())),
            # a snapshot that holds the undone event is no longer the state
            ("DELETE FROM snapshots WHERE session=? AND seq>=?", (session_id, target.seq)),
        ])
        return target

    # -- snapshots --------------------------------------------------------------------

    def save_snapshot(self, session_id: int, seq: int, code: str, state: bytes) -> None:
        """Keep ``state`` (the state after event ``seq``, made by code ``code``)."""
        self._write("INSERT OR REPLACE INTO snapshots (session, seq, code, state, crc) VALUES (?,?,?,?,?)",
                    (session_id, seq, code, state, zlib.crc32(state)))

    def latest_snapshot(self, session_id: int, code: str) -> tuple[int, bytes] | None:
        """(seq, state) of the newest intact snapshot made by ``code``, if any (a damaged
        one is passed over like an unreadable event)."""
        rows = self._db.execute("SELECT seq, state, crc FROM snapshots WHERE session=? AND code=? "
                                "ORDER BY seq DESC", (session_id, code))
        return next(((int(seq), bytes(state)) for seq, state, crc in rows if zlib.crc32(state) == crc), None)

    def _next_seq(self, session_id: int) -> int:
        cur = self._db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE session=?", (session_id,))
        return int(cur.fetchone()[0])

    def rows(self, session_id: int, after: int = 0) -> Iterator[tuple[int, str, str, int, float]]:
        return iter(self._db.execute(
            "SELECT seq, label, body, crc, created FROM events WHERE session=? AND seq>? ORDER BY seq",
            (session_id, after)))

    def replay(self, session_id: int, after: int = 0) -> Replay:
        """Read a session's events (those after ``after`` only, when resuming from a
        snapshot); skip (and report) unreadable rows and undone actions."""
        rows: list[tuple[int, str, dict[str, Any] | None, float]] = []
        problems: list[str] = []
        undone: set[int] = set()
        for seq, label, body, crc, created in self.rows(session_id, after):
            event = None
            if _crc(body) != crc:
                problems.append(f"journal entry {seq} ({label}) is damaged and was skipped")
            else:
                event = _load_event(body)
                if not isinstance(event, dict) or "kind" not in event:
                    problems.append(f"journal entry {seq} ({label}) is unreadable and was skipped")
                    event = None
                elif event["kind"] == UNDO:
                    undone.add(event.get("target"))
            rows.append((seq, label, event, created))
        effective = [event for seq, _, event, _ in rows
                     if event is not None and seq not in undone and event["kind"] != UNDO]
        return Replay(rows, undone, effective, problems)

    # -- internals --------------------------------------------------------------------

    def _write(self, sql: str, params: tuple) -> sqlite3.Cursor:
        return self._transaction([(sql, params)])

    def _transaction(self, statements: list[tuple[str, tuple]]) -> sqlite3.Cursor:
        try:
            with self._db:  # one transaction, committed (and synced) on exit
                self._db.execute("BEGIN IMMEDIATE")
                for sql, params in statements:
                    cur = self._db.execute(sql, params)
                return cur
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"cannot write the journal {self.path}: {exc} "
                               "(is the disk full or read-only?)") from None


_RAW_DECODE = json.JSONDecoder().raw_decode


def _load_event(body: str) -> Any:
    """An event body as ``_dump`` wrote it (compact JSON): decoded without the
    whitespace scans of ``json.loads``, which replaying thousands of events notices.
    Anything else is left to ``_loads`` (None if it is not JSON)."""
    try:
        value, end = _RAW_DECODE(body)
        if end == len(body):
            return value
    except (ValueError, TypeError):
        pass
    return _loads(body, None)


def _loads(text: str | None, default: Any) -> Any:
    if text is None:
        return default
    try:
        return json.loads(text)
    except (ValueError, TypeError):
        return default
