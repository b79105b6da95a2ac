"""Backups of the journal: a copy that survives the SD card, and its way back.

``back_up(journal_file, folder)`` copies the journal with SQLite's online backup API
while the companion runs (a consistent snapshot: a race being written is copied as it
stood at one commit), into ``folder`` as ``journal-YYYYMMDD-HHMMSS.sqlite3``. The copy is
written under a temporary name (``.journal-....sqlite3.part``), checked (SQLite's
``integrity_check`` and the journal's own checks, ``check``), synced, and only then
renamed: a cut at any moment (power, Ctrl-C, a full stick) leaves every earlier backup
whole. ``keep``: the newest backups kept in ``folder``, older ones deleted.

``restore(backup_file, state_dir)`` checks a backup before it replaces anything (every
row's checksum included: ``companion.core.rowsums``), refuses while a companion (or its
table screen) has the journal open, and swaps it in one atomic step (``companion.core.swap``),
keeping the journal it replaces as ``journal.sqlite3.replaced-YYYYMMDD-HHMMSS``.

A backup file is a self-contained SQLite file (rollback journal mode, no ``-wal`` beside
it); the companion turns it back to write-ahead logging when it opens it.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from companion.core import rowsums, swap
from companion.core.journal import SCHEMA, Journal

PREFIX = "journal-"
SUFFIX = ".sqlite3"
KEEP = 5
"""Backups kept in a folder by the automatic backup (``[backup] keep``)."""
JOURNAL_VERSIONS = (0, rowsums.VERSION)
"""The journal versions (``PRAGMA user_version``) this code reads: 0, written before rows
carried checksums (upgraded when the companion opens it), and rows with checksums."""
_NAME = re.compile(r"journal-(\d{8}-\d{6})(?:-(\d+))?\.sqlite3")
_CHECKED = (("events", "body"), ("setup", "body"), ("snapshots", "state"))
"""The tables whose rows carry a CRC32 (``crc``) of the named column."""


class BackupError(RuntimeError):
    """A backup or restore that cannot be done; ``str()`` says why and what to do, ``short``
    in a few words for the box's screen. Nothing was changed."""

    def __init__(self, message: str, short: str = ""):
        super().__init__(message)
        self.short = short or message


@dataclass(frozen=True)
class Contents:
    """What a journal file holds, once it passed ``check``."""
    races: int       # sessions (races, dice and deck sessions)
    finished: int
    events: int

    def __str__(self) -> str:
        from companion.core.names import counted
        return (f"{counted(self.races, 'session')} ({self.finished} finished), "
                f"{counted(self.events, 'event')}")


def _now_stamp(now: float | None) -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))


# -- checking ---------------------------------------------------------------------------


def _schema() -> dict[str, set[str]]:
    """Each table of the journal's schema and its columns."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(SCHEMA)
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                           "AND name NOT LIKE 'sqlite_%'")]
        return {t: {r[1] for r in db.execute(f"PRAGMA table_info({t})")} for t in tables}
    finally:
        db.close()


def check(path: str | Path, *, called: str | None = None) -> Contents:
    """Check the journal file at ``path`` as the companion would need it: it opens as
    SQLite, passes ``PRAGMA integrity_check``, has the journal's tables and columns in a
    version this code reads, and every row's checksum is good. Reads the file as it is
    (nothing is written beside it). A BackupError says what is wrong, naming the file
    ``called`` (default: its path)."""
    path = Path(path)
    name = called or str(path)
    if not path.is_file():
        raise BackupError(f"{name} is not a file")
    uri = f"{path.absolute().as_uri()}?mode=ro&immutable=1"
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise BackupError(f"{name} cannot be opened: {exc}") from None
    try:
        return _check_open(db, name)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{name} is not a sound SQLite file ({exc})") from None
    finally:
        db.close()


def _check_open(db: sqlite3.Connection, path: str) -> Contents:
    problems = [r[0] for r in db.execute("PRAGMA integrity_check(5)")]
    if problems != ["ok"]:
        raise BackupError(f"{path} is damaged (SQLite's integrity check: {'; '.join(problems)})")
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version not in JOURNAL_VERSIONS:
        raise BackupError(f"{path} is a journal of version {version}, which this companion does not read "
                          "(update the companion first)")
    for table, columns in _schema().items():
        if version < rowsums.VERSION:
            columns = columns - {rowsums.COLUMN}
        have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
        if not have:
            raise BackupError(f"{path} is not a Race Companion journal (it has no {table} table)")
        if not columns <= have:
            raise BackupError(f"{path} is not a Race Companion journal (its {table} table lacks "
                              f"{', '.join(sorted(columns - have))})")
    where = rowsums.damage(db) if version >= rowsums.VERSION else None
    if where is not None:
        raise BackupError(f"{path} has a damaged row ({where}); it was refused and nothing was changed",
                          "damaged row")
    for table, column in _CHECKED:
        key = "session, seq" if table != "setup" else "id"
        for row in db.execute(f"SELECT {key}, {column}, crc FROM {table}"):
            *where, value, crc = row
            data = value.encode("utf-8") if isinstance(value, str) else bytes(value)
            if zlib.crc32(data) != crc:
                at = {"events": "race {} event {}", "snapshots": "race {} snapshot at event {}",
                      "setup": "the setup in progress"}[table].format(*where)
                raise BackupError(f"{path} has a damaged row ({at}: its checksum does not match)")
    orphans = db.execute("SELECT COUNT(*) FROM events WHERE session NOT IN (SELECT id FROM sessions)").fetchone()[0]
    if orphans:
        raise BackupError(f"{path} is damaged ({orphans} events belong to no race)")
    races, finished = db.execute("SELECT COUNT(*), COUNT(finished) FROM sessions").fetchone()
    events = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    return Contents(int(races), int(finished), int(events))


# -- backing up -------------------------------------------------------------------------


def _writable_folder(folder: Path) -> None:
    """A BackupError unless ``folder`` is a directory this process may write in."""
    if not folder.exists():
        raise BackupError(f"no directory {folder} (plug in the stick and mount it there, "
                          f"or make it with `mkdir -p {folder}`)", "no directory")
    if not folder.is_dir():
        raise BackupError(f"{folder} is not a directory (name a directory to back up into)",
                          "not a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        try:
            read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
        except OSError:
            read_only = False
        raise BackupError(f"cannot write in {folder}: " + (
            "its file system is mounted read-only (mount the stick read-write)" if read_only else
            f"no permission (give the user {_user()} write access, e.g. `sudo chown {_user()} {folder}`)"),
            "stick read-only" if read_only else "no permission")


def _user() -> str:
    try:
        import pwd
        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return str(os.geteuid())


def _write_failed(folder: Path, exc: BaseException) -> BackupError:
    text = getattr(exc, "strerror", None) or str(exc)
    try:
        st = os.statvfs(folder)
        full = st.f_bavail * st.f_frsize < 1024 * 1024
    except OSError:
        full = False
    if full or "full" in text or "too large" in text.lower():
        return BackupError(f"{folder} is full ({text}): free some space on it or use another stick; "
                           "the earlier backups there are whole", "stick full")
    return BackupError(f"cannot write the backup in {folder}: {text} (is the stick failing or pulled out?); "
                       "the earlier backups there are whole", "cannot write")


def backups(folder: str | Path) -> list[Path]:
    """The backups in ``folder``, oldest first (by the date and time in their names, then
    the number a second backup in the same second has)."""
    try:
        found = [(m, p) for p in Path(folder).iterdir() if (m := _NAME.fullmatch(p.name))]
    except OSError:
        return []
    return [p for m, p in sorted(found, key=lambda f: (f[0][1], int(f[0][2] or 1)))]


def _new_name(folder: Path, now: float | None) -> Path:
    """A name after every backup of the same second, pruned ones too: the number after the
    highest there is (a name freed by pruning is not taken again, or the newest backup would
    sort before the ones it follows)."""
    stamp = _now_stamp(now)
    numbers = [int(m[2] or 1) for m in map(_NAME.fullmatch, os.listdir(folder)) if m and m[1] == stamp]
    n = max(numbers, default=0) + 1
    while (target := folder / (f"{PREFIX}{stamp}{SUFFIX}" if n == 1 else f"{PREFIX}{stamp}-{n}{SUFFIX}")).exists():
        n += 1
    return target


def back_up(journal_file: str | Path, folder: str | Path, *, keep: int | None = None,
            now: float | None = None) -> tuple[Path, Contents]:
    """Copy the journal at ``journal_file`` into ``folder`` (see the module's notes); the
    new backup's path and what it holds. ``keep``: delete all but the newest ``keep``
    backups there afterwards (None: delete none). A BackupError says why it failed;
    then nothing in ``folder`` was changed but a leftover temporary file."""
    source_path, folder = Path(journal_file), Path(folder)
    if not source_path.is_file():
        raise BackupError(f"no journal at {source_path} (start the companion once, or pass --state DIR)")
    _writable_folder(folder)
    target = _new_name(folder, now)
    part = folder / f".{target.name}.part"
    try:
        _copy(source_path, part)
        try:
            contents = check(part, called=f"the copy of {source_path}")
        except BackupError as exc:         # the journal itself is damaged: said, nothing kept
            raise BackupError(f"{exc}; nothing was kept (run `companion selftest`)", "journal damaged") from None
        swap.fsync(part)
        os.replace(part, target)
        swap.fsync(folder)
    except BaseException as exc:            # Ctrl-C too: no half copy is left under any name
        for left in (part, part.with_name(part.name + "-journal")):
            try:
                left.unlink()
            except OSError:
                pass
        if isinstance(exc, (OSError, sqlite3.Error)):
            raise _write_failed(folder, exc) from None
        raise
    _remove_stale_parts(folder)
    if keep is not None:
        prune(folder, keep)
    return target, contents


def _copy(source_path: Path, part: Path) -> None:
    """SQLite's online backup of the journal into ``part``: one step, so the copy is the
    journal at one commit; in write-ahead-log mode it never blocks the writer."""
    try:
        source = sqlite3.connect(f"{source_path.absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot read the journal {source_path}: {exc}") from None
    try:
        part.unlink(missing_ok=True)
        target = sqlite3.connect(part)
        try:
            try:
                source.backup(target)
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    raise BackupError(f"the journal {source_path} is busy ({exc}); try again") from None
                raise
            target.execute("PRAGMA journal_mode=DELETE")    # one file, no -wal beside it
        finally:
            target.close()
    finally:
        source.close()


def _remove_stale_parts(folder: Path, age: float = 600) -> None:
    """Temporary files (and their rollback journals) of backups cut short by a power cut
    or a killed process, older than ``age`` seconds (a younger one may be another
    backup's, under way)."""
    for stale in folder.glob(f".{PREFIX}*{SUFFIX}.part*"):
        try:
            if time.time() - stale.stat().st_mtime > age:
                stale.unlink()
        except OSError:
            pass


def prune(folder: str | Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups in ``folder``; the paths deleted."""
    gone = []
    for old in backups(folder)[:-keep] if keep > 0 else []:
        try:
            old.unlink()
            gone.append(old)
        except OSError:
            pass
    return gone


# -- restoring --------------------------------------------------------------------------


def in_use(journal_file: Path) -> bool:
    """Whether a companion or a table screen has the journal open: each holds a shared
    lock on it as long as it is open (write-ahead-log mode), which an exclusive lock
    cannot pass."""
    if not journal_file.exists():
        return False
    try:
        db = sqlite3.connect(journal_file, isolation_level=None, timeout=0)   # (read-only: no lock taken)
    except sqlite3.Error:
        return False
    try:
        db.execute("PRAGMA locking_mode=EXCLUSIVE")
        db.execute("BEGIN EXCLUSIVE")
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        db.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError as exc:
        return "locked" in str(exc) or "busy" in str(exc)
    except sqlite3.DatabaseError:
        return False              # a damaged journal nobody has open: it is replaced
    finally:
        db.close()


@dataclass(frozen=True)
class Restored:
    contents: Contents
    journal: Path
    replaced: Path | None      # where the journal it replaced was moved (None: there was none)


def restore(backup_file: str | Path, state_dir: str | Path, *, now: float | None = None) -> Restored:
    """Put the backup at ``backup_file`` in place as the journal of ``state_dir`` once it
    passed ``check`` (a copy of it in ``state_dir`` is checked, the bytes that go in place);
    the journal it replaces (its ``-wal`` merged into it, with its note of the last event) is
    kept as ``journal.sqlite3.replaced-YYYYMMDD-HHMMSS``; the swap is one atomic step. Refused (a BackupError, nothing
    changed) for a backup that fails its check and while the journal is open."""
    source = Path(backup_file)
    state = Path(state_dir)
    live = state / Journal.FILENAME
    check(source)                                      # before anything is written
    if in_use(live):
        raise BackupError(f"the journal {live} is open: the companion or its table screen is running "
                          "on it (stop them first: `sudo systemctl stop companion companion-table.socket companion-table`)")
    try:
        state.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(f"cannot make the state directory {state}: {exc.strerror or exc}") from None
    swap.finish(state)                                 # a restore cut short before this one
    part = state / swap.PART
    try:
        with open(source, "rb") as src, open(part, "wb") as dst:
            while chunk := src.read(1 << 20):
                dst.write(chunk)
            dst.flush()
            os.fsync(dst.fileno())
        contents = check(part)
        _owned_like(part, state)
    except BaseException as exc:
        part.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise BackupError(f"cannot copy {source} into {state}: {exc.strerror or exc} "
                              "(is the card full or read-only?); nothing was changed") from None
        raise
    aside = _aside_name(live, now) if live.exists() else None
    try:
        if aside is not None:
            _merge_log(live, aside)
        swap.put_in_place(part, live, aside)
    except OSError as exc:
        swap.finish(state)                     # taken back where it was not done
        raise BackupError(f"cannot put the backup in place in {state}: {exc.strerror or exc}"
                          + (f" (the journal it was to replace is {aside})" if aside and aside.exists() else "")
                          ) from None
    return Restored(contents, live, aside)


def _merge_log(live: Path, aside: Path) -> None:
    """Merge the journal's write-ahead log into its file and remove it (and the shared
    memory), so the file alone is the whole journal when its name moves. A journal too
    damaged to merge keeps its log under the name it goes aside as."""
    try:
        db = sqlite3.connect(live, isolation_level=None)
        try:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.execute("PRAGMA journal_mode=DELETE")
        finally:
            db.close()
    except sqlite3.DatabaseError:
        pass
    for suffix in ("-wal", "-shm"):
        side = live.with_name(live.name + suffix)
        if side.exists() and side.stat().st_size and suffix == "-wal":
            os.replace(side, aside.with_name(aside.name + suffix))
        side.unlink(missing_ok=True)


def _owned_like(path: Path, folder: Path) -> None:
    """Give ``path`` the owner of ``folder`` when root restores (``sudo companion restore``):
    the service's user must be able to write the journal it starts on."""
    if os.geteuid() != 0:
        return
    st = folder.stat()
    os.chown(path, st.st_uid, st.st_gid)
    os.chmod(path, 0o640)


def _aside_name(live: Path, now: float | None) -> Path:
    stem = f"{live.name}.replaced-{_now_stamp(now)}"
    aside, n = live.with_name(stem), 2
    while aside.exists():
        aside, n = live.with_name(f"{stem}-{n}"), n + 1
    return aside
