"""The journal: an append-only SQLite event store.

Every action a player takes is appended (and committed, fsync'd) here before the
screen shows its outcome. A race is a *session*: the activity, its setup options and a
snapshot of the game data, then its events in order. The state of a session is
rebuilt by replaying its events through the rules' pure ``apply``.

Undo is an event too (``{"kind": "undo", "target": seq}``): the undone action stays
in the journal and in the history, and replay skips it.

An event may be appended with the move that was resolved into it (``append(...,
move=key)``, an opaque string the session runner makes): it is kept in the row's body
under ``MOVE_KEY`` and handed back apart (``Replay.moves``), never inside the event the
rules apply. The session runner uses it to give an undone move's outcome back when the
same move is made again at the same state.

Each event row carries a CRC32 of its JSON body. A row whose body is unreadable is
reported (``Replay.problems``) and skipped; it stays in the file, nothing is deleted.
SQLite's write-ahead log makes each append atomic: a torn last write (power cut during
the write) leaves the journal at the previous committed event.

One session at a time is *open* (the one being played, resumed on boot): the newest
unfinished one not put aside. A race put aside (``put_aside``) stays unfinished, counted
nowhere, until it is taken up again (``take_up``) and finished or ended; starting a
session puts any other unfinished one aside, so none is ever hidden behind another.

Snapshots are a cache, never the truth: every few hundred events the session runner
stores the state reached (``save_snapshot``) so a resume replays only the events after
it. An undo that reaches behind a snapshot deletes it in the same transaction, and a
snapshot that cannot be read, fails its CRC or was made by other code is passed over for
an older one or the full replay, which give the same state.
"""

from __future__ import annotations

import contextlib
import json
import os
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
    results TEXT,
    rowsum INTEGER
);
CREATE TABLE IF NOT EXISTS events (
    session INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    label TEXT NOT NULL,
    body TEXT NOT NULL,
    crc INTEGER NOT NULL,
    created REAL NOT NULL,
    rowsum INTEGER,
    PRIMARY KEY (session, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS setup (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL,
    crc INTEGER NOT NULL,
    rowsum INTEGER
);
CREATE TABLE IF NOT EXISTS aside (
    session INTEGER PRIMARY KEY REFERENCES sessions(id),
    rowsum INTEGER
);
CREATE TABLE IF NOT EXISTS snapshots (
    session INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    code TEXT NOT NULL,
    state BLOB NOT NULL,
    crc INTEGER NOT NULL,
    rowsum INTEGER,
    PRIMARY KEY (session, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS races (
    session INTEGER PRIMARY KEY REFERENCES sessions(id),
    race TEXT NOT NULL UNIQUE,
    season TEXT,
    rowsum INTEGER
);
CREATE TABLE IF NOT EXISTS club (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    body TEXT NOT NULL,
    crc INTEGER NOT NULL,
    created REAL NOT NULL,
    rowsum INTEGER
);
"""

SESSION_COLUMNS = "id, activity, options, data, championship, started, finished, results"
"""A session row as ``Session`` holds it (not its checksum)."""

FINGERPRINTS = {
    "finished": "SELECT COUNT(*), COALESCE(MAX(id), 0), COALESCE(SUM(finished), 0) FROM sessions "
                "WHERE finished IS NOT NULL AND results IS NOT NULL",
    "club": "SELECT COUNT(*), COALESCE(MAX(id), 0) FROM club",
    "races": "SELECT COUNT(*), COALESCE(MAX(session), 0) FROM races",
}
"""What ``Journal.cached`` values are kept against: each query's row changes when its part
of the journal does (a session finishes or reopens, a club event, a race id)."""

LEFT_BEHIND = ("INSERT OR IGNORE INTO aside (session) SELECT id FROM sessions WHERE finished IS NULL "
               "AND id < (SELECT MAX(id) FROM sessions)", ())
"""A journal written before sessions could be put aside: the unfinished sessions a newer
one was started after were left behind, and are aside from then on."""

UNDO = "undo"
MOVE_KEY = "_move"
CLOCK_KEY = "_clock"
"""An event or undo row's thinking time while a race's turn timer runs: ``[driver, ms]``
(``companion.core.turnclock``), in the body, under its CRC and row checksum."""
"""The key of an event row's body that holds the move it was resolved from (not part of the event)."""
MARK_MAGIC = "RCJ1"
PROBLEMS_FILE = "journal-problems.txt"
SWAP_MARKER = ".journal-swap.json"
"""The note a restore leaves while it swaps journals (``companion.core.swap.MARKER``)."""


class JournalError(RuntimeError):
    """The journal file cannot be opened or written; ``str()`` says what to do."""


class JournalDamaged(JournalError):
    """A stored row fails its checksum (``companion.core.rowsums``): the journal is refused
    as it is, nothing was changed; ``where`` names the row."""

    def __init__(self, path: Path, where: str):
        super().__init__(
            f"the journal {path} has a damaged row ({where}); it was refused and nothing was changed. "
            "Restore the newest backup that passes its check (`companion restore FILE`), "
            "see docs/record-integrity.md")
        self.where = where


class JournalReadOnly(JournalError):
    """The journal is intact but on a read-only card or directory: it can be read
    (``Journal(state_dir, read_only=True)``), not raced on."""


def read_only_reason(path: Path) -> str | None:
    """Why the journal at ``path`` cannot be written (a read-only file system, a
    directory or file without write permission), or None when it can be."""
    folder = path.parent
    for target in (folder, path):
        if target.exists() and not os.access(target, os.W_OK):
            try:
                readonly_fs = bool(os.statvfs(target).f_flag & os.ST_RDONLY)
            except OSError:
                readonly_fs = False
            return ("its file system is mounted read-only" if readonly_fs
                    else f"{'the directory' if target == folder else 'the file'} is not writable")
    return None


def _read_only_error(path: Path, reason: str) -> JournalError:
    if not path.exists():
        return JournalError(f"cannot make a journal in {path.parent}: {reason} "
                            "(remount the card read-write, or pass --state DIR)")
    return JournalReadOnly(
        f"the journal {path} is read-only ({reason}); it is intact, nothing was changed. "
        "Racing needs it writable: remount the card read-write (or fix the permissions) and start again. "
        "`companion results` and `companion print` can read it as it is")


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
    unreadable: tuple[str, ...] = ()   # the stored values that could not be read ("results", "options")


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
    moves: dict[int, str] = field(default_factory=dict, repr=False)   # seq -> the move's key
    clocks: list[Any] = field(default_factory=list, repr=False)       # the rows' ``[driver, ms]``, in order

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
    _rows_summed = True     # set by the open (_verify): False for a journal from before row checksums

    def __init__(self, state_dir: str | Path, *, read_only: bool = False):
        self.path = Path(state_dir) / self.FILENAME
        self.notice: str | None = None     # what a person must be told about this journal
        self._mark_fd: int | None = None
        self.read_only = read_only
        self._cache: dict[str, tuple[tuple, Any]] = {}   # cached()
        self._marks: tuple[tuple, dict[str, Any]] = ((), {})   # (when, each part's fingerprint then)
        self._read_last: tuple[tuple, Session] | None = None    # read-only: the session row read last, as read
        if read_only:
            self._open_read_only()
            return
        reason = read_only_reason(self.path)
        if reason is not None and self.path.exists():
            raise _read_only_error(self.path, reason)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot open the journal {self.path}: {exc.strerror or exc} "
                               "(check the state directory is writable)") from None
        if (self.path.parent / SWAP_MARKER).exists():     # a restore was cut short
            from companion.core import swap
            said = swap.finish(self.path.parent, self.FILENAME)
            if said:
                self._tell(said[0].upper() + said[1:], "companion restore was stopped between its steps")
        fault = self._connect()
        if fault is not None:
            self._salvage(fault)
        self._check_history()

    def _open_read_only(self) -> None:
        """Open the file for reading only (``read_only=True``: ``companion results``,
        ``print``, the table screen): SQLite's ``mode=ro``, nothing written, checked or
        salvaged, every write refused. Each query is its own short read transaction, so a
        writer in WAL mode is never blocked. On a read-only file system a journal whose
        writer is not running has no shared-memory file and cannot be opened so: it is then
        read as it is on the card (SQLite's ``immutable``, ``self.immutable``), exact while
        nobody writes; reopen it once the writer is back (``writer_back()``)."""
        self.immutable = False
        if not self.path.is_file():
            raise JournalError(f"no journal at {self.path} (start the companion once, or check --state)")
        uri = self.path.absolute().as_uri()
        try:
            self._db = self._connect_read_only(f"{uri}?mode=ro")
        except sqlite3.DatabaseError:
            wal = self.path.with_name(self.FILENAME + "-wal")
            if wal.exists() and wal.stat().st_size:
                self.notice = (f"{wal.name} holds events a read-only card cannot merge: "
                               "the newest may be missing here")
            try:
                self._db = self._connect_read_only(f"{uri}?mode=ro&immutable=1")
            except sqlite3.DatabaseError as exc:
                raise JournalError(f"cannot read the journal {self.path}: {exc}") from None
            self.immutable = True
        self._verify()

    def _verify(self) -> None:
        """Refuse the journal (JournalDamaged, nothing changed) when a stored row fails its
        checksum; a journal written before rows carried them is read as it is."""
        from companion.core import rowsums
        try:
            self._rows_summed = rowsums.summed(self._db)
            where = rowsums.damage(self._db, skip=rowsums.READ_AS_NEEDED) if self._rows_summed else None
        except sqlite3.DatabaseError as exc:
            where = f"it cannot be read: {exc}"
        if where is not None:
            self._db.close()
            raise JournalDamaged(self.path, where)

    @staticmethod
    def _connect_read_only(uri: str) -> sqlite3.Connection:
        db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA query_only=1")
            db.execute("SELECT COUNT(*) FROM sessions").fetchone()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def checked_rows(self) -> int | None:
        """How many stored rows carry a checksum that matches (every one: a damaged row
        refused the journal when it was opened); None for a journal written before rows
        carried them, read as it is."""
        from companion.core import rowsums
        if not rowsums.summed(self._db):
            return None
        where = rowsums.damage(self._db)
        if where is not None:
            raise JournalDamaged(self.path, where)
        return sum(int(self._db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) for t in rowsums.layout(self._db))

    def writer_back(self) -> bool:
        """Whether a journal read ``immutable`` has a writer again (its shared memory is back)."""
        return self.immutable and self.path.with_name(self.FILENAME + "-shm").exists()

    @contextlib.contextmanager
    def snapshot(self):
        """Every read inside sees the journal as one moment (a read transaction of the WAL):
        a page built from several reads never mixes a race just finished with the season
        as it was before it, while the box writes meanwhile."""
        if self._db.in_transaction:
            yield
            return
        self._db.execute("BEGIN")
        try:
            yield
        finally:
            self._db.execute("COMMIT")

    def data_version(self) -> int:
        """A number that changes when another connection commits (``PRAGMA data_version``)."""
        return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    def _connect(self) -> str | None:
        """Open the file and run SQLite's quick integrity check; return what is wrong
        with it (None: it is sound)."""
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except (sqlite3.DatabaseError, OSError) as exc:
            raise JournalError(f"cannot open the journal {self.path}: {exc} "
                               "(check the state directory is writable)") from None
        try:
            problems = [r[0] for r in self._db.execute("PRAGMA quick_check(3)")]
            if problems != ["ok"]:
                return "; ".join(problems)
        except sqlite3.DatabaseError as exc:
            problems = [str(exc)]
        if problems == ["ok"]:
            self._verify()              # before anything is written: a damaged row is refused
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            if problems != ["ok"]:
                return "; ".join(problems)
            columns = [r[1] for r in self._db.execute("PRAGMA table_info(snapshots)")]
            if columns and "crc" not in columns:  # snapshots are a cache: an older form goes
                self._db.execute("DROP TABLE snapshots")
            before_aside = self._db.execute("SELECT 1 FROM sqlite_master WHERE name='aside'").fetchone() is None
            self._db.executescript(SCHEMA)
            self._summed()
            if before_aside:
                self._write(*LEFT_BEHIND)
        except sqlite3.DatabaseError as exc:
            reason = read_only_reason(self.path)
            if reason is not None:
                self._db.close()
                raise _read_only_error(self.path, reason) from None
            if "readonly" in str(exc) or "locked" in str(exc) or "disk I/O" in str(exc):
                self._db.close()
                raise JournalError(f"cannot open the journal {self.path}: {exc} "
                                   "(another companion may be using it, or the card is failing: "
                                   "run `companion selftest`)") from None
            return str(exc)
        return None

    def _summed(self) -> None:
        """Every row written from now on carries its checksum; a journal written before
        rows had one is given them once, as its rows stand (``rowsums.upgrade``)."""
        from companion.core import rowsums
        rowsums.register(self._db)
        if int(self._db.execute("PRAGMA user_version").fetchone()[0]) < rowsums.VERSION:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                rowsums.upgrade(self._db)
                self._db.execute(f"PRAGMA user_version={rowsums.VERSION}")
        rowsums.seal(self._db)

    # -- damage ------------------------------------------------------------------------

    def _salvage(self, fault: str) -> None:
        """The file is damaged: read what can still be read, move the file (and its
        write-ahead log) aside as ``journal.sqlite3.damaged-N``, and start a sound
        journal holding the rows that were intact. Snapshots (a cache) are not kept."""
        sessions = _intact(self._db, "sessions", SESSION_COLUMNS, "id")
        events = _intact(self._db, "events", "session, seq, label, body, crc, created", "session, seq")
        club = [_intact(self._db, "races", "session, race, season", "session"),
                _intact(self._db, "club", "id, body, crc, created", "id")]
        aside = _intact(self._db, "aside", "session", "session")
        total = _count(self._db, "events")
        self._db.close()
        n = 1
        while self.path.with_name(f"{self.FILENAME}.damaged-{n}").exists():
            n += 1
        moved = self.path.with_name(f"{self.FILENAME}.damaged-{n}")
        try:
            for suffix in ("-wal", "-shm"):
                side = self.path.with_name(self.FILENAME + suffix)
                if side.exists():
                    os.replace(side, moved.with_name(moved.name + suffix))
            os.replace(self.path, moved)
        except OSError as exc:
            raise JournalError(f"the journal {self.path} is damaged ({fault}) and cannot be moved aside: "
                               f"{exc.strerror or exc} (move it aside by hand)") from None
        if self._connect() is not None:
            raise JournalError(f"cannot make a new journal {self.path} (check the SD card)")
        known = {row[0] for row in sessions}
        kept = [row for row in events if row[0] in known]
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT OR IGNORE INTO sessions (id, activity, options, data, championship, "
                                 "started, finished, results) VALUES (?,?,?,?,?,?,?,?)", sessions)
            self._db.executemany("INSERT OR IGNORE INTO events (session, seq, label, body, crc, created) "
                                 "VALUES (?,?,?,?,?,?)", kept)
            self._db.executemany("INSERT OR IGNORE INTO races (session, race, season) VALUES (?,?,?)", [r for r in club[0] if r[0] in known])
            self._db.executemany("INSERT OR IGNORE INTO club (id, body, crc, created) VALUES (?,?,?,?)", club[1])
            self._db.executemany("INSERT OR IGNORE INTO aside (session) VALUES (?)",
                                 [row for row in aside if row[0] in known])
        from companion.core.names import counted   # only on a damaged journal: not at every start
        lost = f"{counted(total - len(kept), 'event')} lost" if total is not None and total > len(kept) else \
            "some events may be lost"
        self._tell(f"Journal was damaged: {counted(len(kept), 'event')} kept, {lost}; "
                   f"the damaged file is {moved.name}", fault)

    def _check_history(self) -> None:
        """Compare the journal with the last committed event noted beside it: a journal
        emptied, replaced or missing its write-ahead log has lost history."""
        mark = self.path.with_name(self.FILENAME + ".last")
        noted = _read_mark(mark)
        if noted is not None and noted[0] > 0:     # (0, 0): the journal had no race
            session, seq = noted
            row = self._db.execute("SELECT COALESCE(MAX(seq), 0), (SELECT COUNT(*) FROM sessions WHERE id=?) "
                                   "FROM events WHERE session=?", (session, session)).fetchone()
            have, exists = int(row[0]), bool(row[1])
            if (not exists or have < seq) and self.notice is None:   # damage already told
                now = f"it ends at event {have}" if exists else "that race is gone"
                self._tell(f"Journal lost history: it had event {seq} of race {session}, {now}",
                           "the journal file was emptied or replaced, or its write-ahead log "
                           f"({self.FILENAME}-wal) was removed")
        try:
            self._mark_fd = os.open(mark, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            self._mark_fd = None       # the journal still works; loss is not detected then
        if noted is None or self.notice:
            last = self._db.execute("SELECT session, MAX(seq) FROM events WHERE session = "
                                    "(SELECT MAX(id) FROM sessions)").fetchone()
            sid = self._db.execute("SELECT MAX(id) FROM sessions").fetchone()[0]
            self._note(int(sid or 0), int(last[1] or 0) if sid and last and last[0] == sid else 0)

    def _note(self, session: int, seq: int) -> None:
        """Keep (session, seq) of the last committed event beside the journal. Written
        after the commit, so the note is never ahead of the journal; not synced: a note
        lost to a power cut is only behind, which is never a false alarm."""
        if self._mark_fd is None:
            return
        record = f"{session:010d} {seq:010d}"
        line = f"{MARK_MAGIC} {record} {zlib.crc32(record.encode()):08x}\n".encode()
        try:
            os.pwrite(self._mark_fd, line, 0)
        except OSError:
            pass

    def _tell(self, message: str, detail: str) -> None:
        """Make ``message`` the notice and keep it in ``journal-problems.txt`` (which
        ``companion selftest`` reports until the owner deletes it)."""
        self.notice = message if self.notice is None else f"{self.notice}; {message}"
        try:
            with open(self.problems_path, "a", encoding="utf-8") as fh:
                fh.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {message} ({detail})\n")
        except OSError:
            pass

    @property
    def problems_path(self) -> Path:
        return self.path.with_name(PROBLEMS_FILE)

    def close(self) -> None:
        db, self._db = getattr(self, "_db", None), None
        if db is not None:
            db.close()
        fd, self._mark_fd = getattr(self, "_mark_fd", None), None
        if fd is not None:
            os.close(fd)

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- sessions ---------------------------------------------------------------------

    def start_session(self, activity: str, options: dict[str, Any], data: dict[str, Any],
                      championship: str | None = None) -> int:
        """Open a session, the open one from now on (any other unfinished session goes
        aside); its race id (a random UUID, kept in ``races``) is written in the same
        transaction."""
        cur = self._transaction([
            self._all_aside(),
            ("INSERT INTO sessions (activity, options, data, championship, started) VALUES (?,?,?,?,?)",
             (activity, _dump(options), _dump(data), championship, time.time())),
            ("INSERT INTO races (session, race) VALUES (last_insert_rowid(), ?)", (random_uuid(),)),
        ])
        sid = int(cur.lastrowid)             # races.session is the row id
        self._note(sid, 0)
        return sid

    def forget_session(self, session_id: int) -> bool:
        """Take back a session nothing happened in yet (its setup is being changed): it
        leaves no trace. False (and nothing deleted) once it has an event."""
        if self._db.execute("SELECT 1 FROM events WHERE session=? LIMIT 1", (session_id,)).fetchone():
            return False
        self._transaction([(f"DELETE FROM {table} WHERE session=?", (session_id,))
                           for table in ("snapshots", "aside", "races")]
                          + [("DELETE FROM sessions WHERE id=?", (session_id,))])
        return True

    def session(self, session_id: int) -> Session:
        row = self._db.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id=?", (session_id,)).fetchone()
        if row is None:
            raise JournalError(f"no session {session_id} in {self.path}")
        return self._session(row)

    def open_session(self) -> Session | None:
        """The session being played: the newest that has not finished and was not put
        aside (the race to resume on boot)."""
        row = self._db.execute(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE finished IS NULL {self._not_aside()} ORDER BY id DESC LIMIT 1").fetchone()
        return self._session(row) if row else None

    def aside_sessions(self) -> list[Session]:
        """The sessions put aside, newest first: every unfinished session but the open
        one (a journal written before races could be put aside: the older unfinished
        ones, left when another race began)."""
        current = self.open_session()
        return [s for s in reversed(self.sessions(finished=False)) if current is None or s.id != current.id]

    def put_aside(self) -> None:
        """Put the open session aside (unfinished, counted nowhere, resumable): every
        unfinished session is marked aside, so none becomes the open one by itself."""
        self._write(*self._all_aside())

    def take_up(self, session_id: int) -> None:
        """Make a session put aside the open one again (any other open session goes aside)."""
        self._transaction([self._all_aside(), ("DELETE FROM aside WHERE session=?", (session_id,))])

    @staticmethod
    def _all_aside() -> tuple[str, tuple]:
        return "INSERT OR IGNORE INTO aside (session) SELECT id FROM sessions WHERE finished IS NULL", ()

    def _not_aside(self) -> str:
        """The condition that leaves out the sessions aside (in a journal read read-only
        that was written before it had them: those left behind by a newer session)."""
        if self.read_only and self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name='aside'").fetchone() is None:
            return "AND id = (SELECT MAX(id) FROM sessions)"
        return "AND id NOT IN (SELECT session FROM aside)"

    def save_setup(self, setup: dict[str, Any] | None) -> None:
        """Keep the setup in progress (the wizard's answers so far; None: there is none),
        committed like an event, so a Ctrl-C or a power cut loses no answer."""
        if setup is None:
            self._write("DELETE FROM setup", ())
            return
        body = _dump(setup)
        self._write("INSERT OR REPLACE INTO setup (id, body, crc) VALUES (1, ?, ?)", (body, _crc(body)))

    def setup_in_progress(self) -> dict[str, Any] | None:
        """The setup kept by :meth:`save_setup`; None when there is none or it is unreadable
        (a setup is asked again, nothing else depends on it)."""
        try:
            row = self._db.execute("SELECT body, crc FROM setup WHERE id = 1").fetchone()
            if row is None or _crc(row[0]) != row[1]:
                return None
            setup = _loads(row[0], None)
        except sqlite3.DatabaseError:
            return None
        return setup if isinstance(setup, dict) else None

    def session_finished_last(self) -> Session | None:
        """The session that finished last, by the time it finished, whatever it was (an
        imported race too: ``league.ledger.last_finished`` is the box's own); None: none has."""
        row = self._db.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE finished IS NOT NULL "
                               "ORDER BY finished DESC, id DESC LIMIT 1").fetchone()
        return self._session(row) if row else None

    def sessions(self, finished: bool | None = None) -> list[Session]:
        sql = f"SELECT {SESSION_COLUMNS} FROM sessions"
        if finished is True:
            sql += " WHERE finished IS NOT NULL"
        elif finished is False:
            sql += " WHERE finished IS NULL"
        return [self._session(r) for r in self._db.execute(sql + " ORDER BY id")]

    def finished_sessions(self) -> list[Session]:
        """The finished sessions that kept results, oldest first, without their data
        snapshot (``data`` is {}: ``session(id)`` has it): what championships, seasons and
        records are counted from. Read again only once a session has finished (or reopened)."""
        return self.cached("finished", lambda: [self._session(r) for r in self._db.execute(
            "SELECT id, activity, options, NULL, championship, started, finished, results FROM sessions "
            "WHERE finished IS NOT NULL AND results IS NOT NULL ORDER BY id")], ("finished",))

    def cached(self, name: str, read, depends: tuple[str, ...] = tuple(FINGERPRINTS)):
        """``read()``, kept under ``name`` until what it ``depends`` on changes (the
        finished sessions, the club's events, the race ids: :data:`FINGERPRINTS`); an
        event of a race in progress changes none of them."""
        now = (self.data_version(), self._db.total_changes)
        if self._marks[0] != now:       # the journal changed (here or by another connection)
            self._marks = (now, {})
        marks = self._marks[1]
        key = tuple(marks[part] if part in marks else marks.setdefault(part, self._fingerprint(part))
                    for part in depends)
        kept = self._cache.get(name)
        if kept is None or kept[0] != key:
            kept = self._cache[name] = (key, read())
        return kept[1]

    def _fingerprint(self, part: str) -> tuple | None:
        try:
            return tuple(self._db.execute(FINGERPRINTS[part]).fetchone())
        except sqlite3.OperationalError:      # a table an older journal read as it is lacks
            return None

    def finish_session(self, session_id: int, results: dict[str, Any] | None) -> None:
        self._write("UPDATE sessions SET finished=?, results=? WHERE id=?",
                    (time.time(), _dump(results) if results is not None else None, session_id))

    def reopen_session(self, session_id: int) -> None:
        """Mark a finished session as running again (its last move was undone)."""
        self._write("UPDATE sessions SET finished=NULL, results=NULL WHERE id=?", (session_id,))

    # -- the club: race ids, seasons and merged names (companion.league.seasons) ---------------

    def race_ids(self) -> dict[int, tuple[str, str | None]]:
        """session id -> (race id, the season it was put in by an import, else None).
        Sessions from before race ids were kept have none here (``companion.league.seasons.race_id``)."""
        try:
            return self.cached("races", lambda: {int(s): (str(r), season) for s, r, season
                                                 in self._db.execute("SELECT session, race, season FROM races")},
                               ("races",))
        except sqlite3.OperationalError:     # a journal written before the table existed, read as it is
            return {}

    def club_events(self) -> list[dict[str, Any]]:
        """The club's events (a season started, two names merged), oldest first, each with
        its ``id`` and ``created``; a row that fails its CRC is skipped."""
        try:
            rows = self.cached("club", lambda: list(self._db.execute("SELECT id, body, crc, created FROM club ORDER BY id")),
                               ("club",))
        except sqlite3.OperationalError:
            return []
        out = []
        for cid, body, crc, created in rows:
            event = _loads(body, None) if _crc(body) == crc else None
            if isinstance(event, dict) and "kind" in event:
                out.append({**event, "id": int(cid), "created": created})
        return out

    def add_club_event(self, event: dict[str, Any]) -> int:
        """Commit one club event (appended, never changed)."""
        return int(self._write(*_club_row(event)).lastrowid)

    def add_finished_sessions(self, races: list[tuple[Session, str, str | None]],
                              club_event: dict[str, Any] | None = None,
                              changes: list[dict[str, Any]] = ()) -> None:
        """Keep finished races brought from another box (``companion import``), each
        ``(session, race id, season)``: their session rows and race ids, and the club event
        that starts their season when the box has none (``club_event``), all in one
        transaction (all or none), with the club's ``changes`` to them (a void, a correction,
        a penalty: ``companion.league.corrections``) after; their events stay on the box that
        ran them."""
        statements = []
        if club_event is not None:
            statements.append(_club_row(club_event))
        for session, race, season in races:
            statements += [
                ("INSERT INTO sessions (activity, options, data, championship, started, finished, results) "
                 "VALUES (?,?,?,?,?,?,?)",
                 (session.activity, _dump(session.options), _dump(session.data), session.championship,
                  session.started, session.finished, _dump(session.results))),
                ("INSERT INTO races (session, race, season) VALUES (last_insert_rowid(), ?, ?)", (race, season)),
            ]
        statements += [_club_row(change) for change in changes]
        if statements:
            self._transaction(statements)

    def _session(self, row) -> Session:
        """The session of a ``sessions`` row. A journal read read-only (the table screen's,
        which asks for the race it shows on every change it follows) keeps the row it read
        last: the same row again is the same session, not read again."""
        if self._read_last is not None and self._read_last[0] == row:
            return self._read_last[1]
        sid, activity, options, data, champ, started, finished, results = row
        read = {name: _read(text) for name, text in (("options", options), ("data", data), ("results", results))}
        unreadable = tuple(name for name, value in read.items() if value is UNREADABLE)
        kept = {name: None if value is UNREADABLE else value for name, value in read.items()}
        session = Session(sid, activity, kept["options"] or {}, kept["data"] or {}, champ, started, finished,
                          kept["results"], unreadable)
        if self.read_only:
            self._read_last = (tuple(row), session)
        return session

    # -- events -----------------------------------------------------------------------

    def append(self, session_id: int, event: dict[str, Any], label: str, move: str | None = None,
               clock: list | None = None) -> int:
        """Commit ``event`` (with its history ``label`` and, if given, the key of the move
        it was resolved from and the turn timer's ``[driver, ms]``) and return its sequence number."""
        extra = {k: v for k, v in ((MOVE_KEY, move), (CLOCK_KEY, clock)) if v is not None}
        body = _dump({**event, **extra} if extra else event)
        seq = self._next_seq(session_id)
        self._write("INSERT INTO events (session, seq, label, body, crc, created) VALUES (?,?,?,?,?,?)",
                    (session_id, seq, label, body, _crc(body), time.time()))
        self._note(session_id, seq)
        return seq

    def undo_last(self, session_id: int, clock: list | None = None) -> Entry | None:
        """Append an undo of the newest action not yet undone (with the turn timer's
        ``[driver, ms]`` when given); return that action's entry."""
        replay = self.replay(session_id)
        target = next((e for e in reversed(replay.entries)
                       if e.event is not None and not e.undone and e.event.get("kind") != UNDO), None)
        if target is None:
            return None
        body = _dump({"kind": UNDO, "target": target.seq, **({CLOCK_KEY: clock} if clock is not None else {})})
        seq = self._next_seq(session_id)
        self._transaction([
            ("INSERT INTO events (session, seq, label, body, crc, created) VALUES (?,?,?,?,?,?)",
             (session_id, seq, f"Undo: {target.label}", body, _crc(body), time.time())),
            # a snapshot that holds the undone event is no longer the state
            ("DELETE FROM snapshots WHERE session=? AND seq>=?", (session_id, target.seq)),
        ])
        self._note(session_id, seq)
        return target

    # -- snapshots --------------------------------------------------------------------

    def save_snapshot(self, session_id: int, seq: int, code: str, state: bytes) -> None:
        """Keep ``state`` (the state after event ``seq``, made by code ``code``)."""
        self._write("INSERT OR REPLACE INTO snapshots (session, seq, code, state, crc) VALUES (?,?,?,?,?)",
                    (session_id, seq, code, state, zlib.crc32(state)))

    def latest_snapshot(self, session_id: int, code: str) -> tuple[int, bytes] | None:
        """(seq, state) of the newest intact snapshot made by ``code``, if any (a damaged
        one is passed over like an unreadable event)."""
        from companion.core import rowsums
        if not self._rows_summed:
            rows = self._db.execute("SELECT seq, state, crc FROM snapshots WHERE session=? AND code=? "
                                    "ORDER BY seq DESC", (session_id, code))
            return next(((int(seq), bytes(state)) for seq, state, crc in rows if zlib.crc32(state) == crc), None)
        rows = self._db.execute("SELECT session, seq, code, state, crc, rowsum FROM snapshots "
                                "WHERE session=? AND code=? ORDER BY seq DESC", (session_id, code))
        for session, seq, made_by, state, crc, stored in rows:
            if rowsums.row_sum("snapshots", session, seq, made_by, state, crc) == stored and zlib.crc32(state) == crc:
                return int(seq), bytes(state)
        return None

    def _next_seq(self, session_id: int) -> int:
        cur = self._db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE session=?", (session_id,))
        return int(cur.fetchone()[0])

    def rows(self, session_id: int, after: int = 0) -> Iterator[tuple[int, str, str, int, float]]:
        """A session's events after ``after``, each verified against its row's checksum as it
        is read: a row that fails it comes with the crc -1 (no CRC32 is negative), so the
        replay skips it and says which entry it was, as it does a damaged body."""
        from companion.core import rowsums
        if not self._rows_summed:
            yield from self._db.execute(
                "SELECT seq, label, body, crc, created FROM events WHERE session=? AND seq>? ORDER BY seq",
                (session_id, after))
            return
        for session, seq, label, body, crc, created, stored in self._db.execute(
                "SELECT session, seq, label, body, crc, created, rowsum FROM events "
                "WHERE session=? AND seq>? ORDER BY seq", (session_id, after)):
            intact = rowsums.row_sum("events", session, seq, label, body, crc, created) == stored
            yield seq, label, body, crc if intact else -1, created

    def replay(self, session_id: int, after: int = 0) -> Replay:
        """Read a session's events (those after ``after`` only, when resuming from a
        snapshot); skip (and report) unreadable rows and undone actions."""
        rows: list[tuple[int, str, dict[str, Any] | None, float]] = []
        problems: list[str] = []
        undone: set[int] = set()
        moves: dict[int, str] = {}
        clocks: list[Any] = []
        for seq, label, body, crc, created in self.rows(session_id, after):
            event = None
            if _crc(body) != crc:
                problems.append(f"journal entry {seq} ({label}) is damaged and was skipped")
            else:
                event = _load_event(body)
                if not isinstance(event, dict) or "kind" not in event:
                    problems.append(f"journal entry {seq} ({label}) is unreadable and was skipped")
                    event = None
                else:
                    if CLOCK_KEY in event:
                        clocks.append(event.pop(CLOCK_KEY))
                    if event["kind"] == UNDO:
                        undone.add(event.get("target"))
                    elif MOVE_KEY in event:
                        moves[seq] = event.pop(MOVE_KEY)
            rows.append((seq, label, event, created))
        effective = [event for seq, _, event, _ in rows
                     if event is not None and seq not in undone and event["kind"] != UNDO]
        return Replay(rows, undone, effective, problems, moves, clocks)

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


def _club_row(event: dict[str, Any]) -> tuple[str, tuple]:
    """The statement that appends a club event, with its checksum."""
    body = _dump(event)
    return "INSERT INTO club (body, crc, created) VALUES (?,?,?)", (body, _crc(body), time.time())


def random_uuid() -> str:
    """A random (version 4) UUID, as ``str(uuid.uuid4())`` makes it, without importing
    ``uuid`` on the press that starts a race."""
    b = bytearray(os.urandom(16))
    b[6] = (b[6] & 0x0F) | 0x40          # version 4
    b[8] = (b[8] & 0x3F) | 0x80          # the RFC 4122 variant
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _read_around(db: sqlite3.Connection, select: str, key: str) -> list[tuple]:
    """The rows of ``select`` that can still be read from a damaged file: read forwards
    until a damaged page stops the scan, then backwards from the other end."""
    rows: dict[tuple, tuple] = {}
    width = key.count(",") + 1
    for order in ("ASC", "DESC"):
        order_by = ", ".join(f"{k.strip()} {order}" for k in key.split(","))
        try:
            for row in db.execute(f"{select} ORDER BY {order_by}"):
                rows.setdefault(tuple(row[:width]), tuple(row))
        except sqlite3.DatabaseError:
            pass
    return [rows[k] for k in sorted(rows)]


def _intact(db: sqlite3.Connection, table: str, columns: str, key: str) -> list[tuple]:
    """The rows of ``table`` still readable from a damaged file (``_read_around``) whose
    checksum matches (all of them in a journal written before rows had one): a damaged
    row is never copied into the new journal, where it would be summed anew."""
    from companion.core import rowsums
    try:
        summed = rowsums.COLUMN in {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
    except sqlite3.DatabaseError:
        summed = False
    if not summed:
        return _read_around(db, f"SELECT {columns} FROM {table}", key)
    rows = _read_around(db, f"SELECT {columns}, {rowsums.COLUMN} FROM {table}", key)
    return [row[:-1] for row in rows if row[-1] == rowsums.row_sum(table, *row[:-1])]


def _count(db: sqlite3.Connection, table: str) -> int | None:
    try:
        return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    except sqlite3.DatabaseError:
        return None


def _read_mark(path: Path) -> tuple[int, int] | None:
    """(session, seq) from the note beside the journal; None when there is none or it
    does not read back whole."""
    try:
        text = path.read_text("ascii")
    except (OSError, UnicodeDecodeError):
        return None
    parts = text.split()
    if len(parts) != 4 or parts[0] != MARK_MAGIC:
        return None
    record = f"{parts[1]} {parts[2]}"
    try:
        if int(parts[3], 16) != zlib.crc32(record.encode()):
            return None
        return int(parts[1]), int(parts[2])
    except ValueError:
        return None


_RAW_DECODE = json.JSONDecoder().raw_decode


DEEPEST = 64
"""How deeply a stored value may nest to be read (a race's results nest 4 deep; an import
takes at most 8): one deeper (a crafted row, a file imported before imports were checked)
is unreadable, said as such, rather than a value every view after would fail on."""

UNREADABLE = object()
"""What :func:`_read` gives for a stored value that cannot be read."""


def nesting(value: Any, stop: int = 1000) -> int:
    """How deeply ``value`` nests (a scalar: 0), counted without recursion (past ``stop``:
    a number past it), a level at a time: every value of a session's data is looked at
    when it is read, so the walk keeps to list building (3x quicker than a stack of them)."""
    depth, level = 0, [value]
    while level:
        level = [v for v in level if isinstance(v, (dict, list))]
        if not level or depth == stop + 1:
            break
        depth += 1
        level = [x for v in level for x in (v.values() if isinstance(v, dict) else v)]
    return depth


def _shallow(text: str, value: Any) -> bool:
    """Whether a value read from ``text`` nests at most :data:`DEEPEST` levels: at once
    when the text has no more brackets than that, else counted."""
    return text.count("[") + text.count("{") <= DEEPEST or nesting(value, DEEPEST) <= DEEPEST


def _read(text: str | None) -> Any:
    """A stored JSON value: None for none, :data:`UNREADABLE` for one that is not JSON or
    nests deeper than :data:`DEEPEST` (never a RecursionError in a view after)."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except (ValueError, TypeError, RecursionError):
        return UNREADABLE
    return value if _shallow(text, value) else UNREADABLE


def _load_event(body: str) -> Any:
    """An event body as ``_dump`` wrote it (compact JSON): decoded without the
    whitespace scans of ``json.loads``, which replaying thousands of events notices.
    Anything else is left to ``_loads`` (None if it is not JSON or nests too deeply)."""
    try:
        value, end = _RAW_DECODE(body)
        if end == len(body):
            return value if _shallow(body, value) else None
    except (ValueError, TypeError, RecursionError):
        pass
    return _loads(body, None)


def _loads(text: str | None, default: Any) -> Any:
    value = _read(text)
    return default if value is None or value is UNREADABLE else value
