"""Every stored row of the journal carries a checksum over its keys and values.

Each table of the journal has a ``rowsum`` column: the CRC32 of the table's name and the
row's other columns, keys included, in the schema's order (``row_sum``). A one-bit change
in any value (a result's points, a race's session, an event's number, a club event, the
checksum itself) makes the row fail it; the row is then refused with its place named
(``damage``), wherever the journal is read back whole: the journal's open (start-up, the
table screen, ``companion results``), ``companion restore`` and ``companion selftest``.

The sums are written by the journal's own connection, whatever statement writes a row:
``seal`` registers ``row_sum`` on it and adds temporary triggers (on that connection only,
nothing in the file needs them) that sum each row inserted or changed. A journal written
before rows carried sums (``PRAGMA user_version`` 0) is upgraded once, when it is opened
writable (``upgrade``): its rows are summed as they stand.
"""

from __future__ import annotations

import sqlite3
import zlib
from typing import Any

COLUMN = "rowsum"
VERSION = 1
"""``PRAGMA user_version`` of a journal whose rows carry sums (0: written before them)."""


def row_sum(table: str, *values: Any) -> int:
    """The checksum of a row of ``table`` holding ``values`` (every column but ``rowsum``,
    in the schema's order): the CRC32 of ``ascii()`` of them, which writes text, numbers (an
    integer and a real apart), NULL and blobs each in one way only, with every character
    beyond ASCII escaped by its code (the same under every Python and Unicode version)."""
    return zlib.crc32(ascii((table, *values)).encode("ascii"))


def layout(db: sqlite3.Connection) -> dict[str, tuple[list[str], list[str]]]:
    """Each table of the journal: (its columns but ``rowsum``, in order; its key's columns)."""
    out = {}
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
                               "ORDER BY name").fetchall():
        info = db.execute(f"PRAGMA table_info({table})").fetchall()
        columns = [r[1] for r in info if r[1] != COLUMN]
        keys = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5] > 0] or columns
        out[table] = (columns, keys)
    return out


def summed(db: sqlite3.Connection) -> bool:
    """Whether the journal's rows carry sums (every table has the column)."""
    tables = layout(db)
    return bool(tables) and all(
        COLUMN in {r[1] for r in db.execute(f"PRAGMA table_info({t})")} for t in tables)


PLACES = {"sessions": "race {}", "events": "race {} event {}", "snapshots": "race {} snapshot at event {}",
          "setup": "the setup in progress", "aside": "race {} put aside", "races": "race {}'s race id",
          "club": "club event {}"}
"""A row's place in a club's words, from its key."""


def place(table: str, key: list) -> str:
    """Where a row is, said as the club would: ``race 3 event 12``, ``club event 2``."""
    words = PLACES.get(table)
    if words is None or words.count("{}") != len(key):
        return f"table {table}, row {', '.join(map(repr, key))}"
    return words.format(*(repr(k) if not isinstance(k, int) else k for k in key))


READ_AS_NEEDED = ("events", "snapshots")
"""The tables of a race's moves: read back only as far as a race is replayed, and verified
there (``Journal.rows``, ``Journal.latest_snapshot``). Reading every one of them costs as
much as reading the whole file (a Top Speed race of 8,476 events: about 270 M instructions),
so the start leaves them to the replay, which skips a row that fails and says which it was
(as it does a damaged event's body, and passes over a damaged snapshot); restore, backup
and selftest verify them all."""


def damage(db: sqlite3.Connection, skip: tuple[str, ...] = ()) -> str | None:
    """The first row whose sum does not match, named by its table and key and what is
    wrong with it; None when every row is whole (the tables of ``skip`` are not read)."""
    for table, (columns, keys) in layout(db).items():
        if table in skip:
            continue
        picked = ", ".join(columns)
        at = [columns.index(k) for k in keys]
        try:
            for row in db.execute(f"SELECT {picked}, {COLUMN} FROM {table}"):
                *values, stored = row
                if stored is None or row_sum(table, *values) != stored:
                    where = place(table, [values[i] for i in at])
                    what = "has no checksum" if stored is None else \
                        "does not match its checksum (a value or its key was changed)"
                    return f"{where} (table {table}): {what}"
        except sqlite3.OperationalError as exc:     # a value no longer text, a column gone
            return f"table {table}: a row cannot be read ({exc})"
    return None


def register(db: sqlite3.Connection) -> None:
    """``row_sum`` as a SQL function on ``db``."""
    db.create_function("row_sum", -1, row_sum, deterministic=True)


def upgrade(db: sqlite3.Connection) -> bool:
    """Give a journal written before rows carried sums its ``rowsum`` column in every table
    and sum every row as it stands (inside the caller's transaction); True when it did."""
    tables = layout(db)
    missing = [t for t in tables if COLUMN not in {r[1] for r in db.execute(f"PRAGMA table_info({t})")}]
    for table in missing:
        db.execute(f"ALTER TABLE {table} ADD COLUMN {COLUMN} INTEGER")
    for table in missing:
        columns, _ = tables[table]
        db.execute(f"UPDATE {table} SET {COLUMN} = row_sum('{table}', {', '.join(columns)})")
    return bool(missing)


def seal(db: sqlite3.Connection) -> None:
    """Have every row written on ``db`` summed: ``row_sum`` as a SQL function and, on
    each table, temporary triggers that sum a row after it is inserted or changed."""
    register(db)
    for table, (columns, keys) in layout(db).items():
        values = ", ".join(f"NEW.{c}" for c in columns)
        where = " AND ".join(f"{k} IS NEW.{k}" for k in keys)
        update = f"UPDATE {table} SET {COLUMN} = row_sum('{table}', {values}) WHERE {where};"
        db.execute(f"CREATE TEMP TRIGGER IF NOT EXISTS {table}_summed_in AFTER INSERT ON main.{table} "
                   f"BEGIN {update} END")
        db.execute(f"CREATE TEMP TRIGGER IF NOT EXISTS {table}_summed_up AFTER UPDATE OF {', '.join(columns)} "
                   f"ON main.{table} BEGIN {update} END")
