"""Nothing wrong without notice: every stored row carries a checksum over its keys and
values, and a one-bit change anywhere is refused with its place named, or changes
nothing shown.

The fault campaign builds a small journal with the real app (finished races, a race put
aside, a season started, two names merged), backs it up, then changes every stored value
(every column of every row, keys and checksums included) by one bit, one at a time, on a
copy. Each copy is restored (``companion restore``'s check), opened as the companion
starts on it, and read by ``companion results``: a change is either refused with its
place named and nothing changed, or everything shown (``results --json``, ``--seasons``,
the selftest's verdict) is as from the undamaged backup. Nothing may be accepted and show
something else. Runs in this process: a few seconds.
"""

import contextlib
import io
import shutil
import sqlite3
import struct

import pytest

from companion.cli import main
from companion.commands import selftest
from companion.core import backup, rowsums
from companion.core.journal import Journal, JournalDamaged
from tests.table import make_app, press

TWO = ({"name": "Ann", "colour": "Red"}, {"name": "Bob", "colour": "Blue"})
LAPS = {"game": "none", "length": 1, "count": "up", "timing": "off"}


def race(app, players) -> int:
    app.start_session("laps", {**LAPS, "players": list(players)})
    while app.moves():
        press(app, "GO")
    session = app.runner.session.id
    press(app, "OK")                               # the race over, left for the main menu
    return session


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A backup of a small journal made by the app, and what it shows once restored."""
    root = tmp_path_factory.mktemp("record")
    state = root / "state"
    app = make_app(state)
    race(app, TWO)
    assert app.club().start_season("Spring", 3, 1) == "Season Spring started"
    race(app, (TWO[0], {"name": "Bobby", "colour": "Blue"}))
    assert app.club().merge("Bobby", "Bob") == "Bobby is Bob now"
    app.start_session("laps", {**LAPS, "players": list(TWO)})
    press(app, "GO GO")                            # started, a car crossed
    race(app, TWO)                                 # puts the first aside
    assert len(app.journal.aside_sessions()) == 1
    app.journal.close()
    stick = root / "stick"
    stick.mkdir()
    made, _ = backup.back_up(state / Journal.FILENAME, stick)
    restored = root / "restored"
    backup.restore(made, restored)
    return made, shown(restored)


def run(*argv) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(list(argv))
    return code, out.getvalue()


def shown(state) -> tuple:
    """Everything a club sees of the journal in ``state``."""
    verdicts = tuple(check(state)[0] for check in (selftest._check_state, selftest._check_record))
    return run("results", "--json", "--state", str(state)), run("results", "--seasons", "--state", str(state)), verdicts


def values(path) -> list[tuple[str, list[str], list[str], tuple, int]]:
    """(table, columns, key columns, the row's key, column index) for every stored value."""
    db = sqlite3.connect(path)
    try:
        out = []
        for table, (columns, keys) in rowsums.layout(db).items():
            every = columns + [rowsums.COLUMN]
            for row in db.execute(f"SELECT {', '.join(every)} FROM {table}"):
                key = tuple(row[every.index(k)] for k in keys)
                out += [(table, every, keys, key, i) for i in range(len(every))]
        return out
    finally:
        db.close()


def flipped(value, n: int):
    """``value`` with one bit changed (the ``n``-th choice of bit); None when it has none."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value ^ (1 << (n % 31))
    if isinstance(value, float):
        (bits,) = struct.unpack("<Q", struct.pack("<d", value))
        return struct.unpack("<d", struct.pack("<Q", bits ^ (1 << (n % 64))))[0]
    if isinstance(value, bytes):
        if not value:
            return None
        data = bytearray(value)
        data[n % len(data)] ^= 1 << (n % 8)
        return bytes(data)
    ascii_at = [i for i, c in enumerate(value) if ord(c) < 128]
    if not ascii_at:
        return None
    i = ascii_at[n % len(ascii_at)]
    return value[:i] + chr(ord(value[i]) ^ (1 << (n % 7))) + value[i + 1:]


def damage_one(source, target, table, columns, keys, key, index, n) -> bool:
    """Copy ``source`` to ``target`` with one value changed by one bit (bypassing the
    journal: no checksum is made again); False when no bit of it can be stored."""
    shutil.copyfile(source, target)
    db = sqlite3.connect(target, isolation_level=None)
    try:
        db.execute("PRAGMA ignore_check_constraints=1")
        where = " AND ".join(f"{k} IS ?" for k in keys)
        value = db.execute(f"SELECT {columns[index]} FROM {table} WHERE {where}", key).fetchone()[0]
        for attempt in range(8):
            new = flipped(value, n + attempt)
            if new is None or new == value:
                return False
            try:
                db.execute(f"UPDATE {table} SET {columns[index]} = ? WHERE {where}", (new, *key))
                return True
            except sqlite3.IntegrityError:    # a key that another row has: another bit
                continue
        return False
    finally:
        db.close()


def test_every_one_bit_change_is_refused_with_its_place_or_changes_nothing_shown(good, tmp_path):
    made, reference = good
    every = values(made)
    counts = {"changed": 0, "refused": 0, "unchanged": 0, "no bit": 0, "accepted and different": 0}
    wrong = []
    for n, (table, columns, keys, key, index) in enumerate(every):
        case = tmp_path / f"case-{n}"
        case.mkdir()
        copy = case / "backup.sqlite3"
        if not damage_one(made, copy, table, columns, keys, key, index, n):
            counts["no bit"] += 1
            continue
        counts["changed"] += 1
        state = case / "state"
        try:
            backup.restore(copy, state)
        except backup.BackupError as exc:
            counts["refused"] += 1
            assert "damaged row" in str(exc) and f"table {table}" in str(exc), str(exc)
            assert not (state / Journal.FILENAME).exists()         # nothing was changed
            # the same file on the card: the start refuses it, and changes nothing
            state.mkdir(exist_ok=True)
            live = state / Journal.FILENAME
            shutil.copyfile(copy, live)
            before = live.read_bytes()
            with pytest.raises(JournalDamaged) as refused:
                if table in rowsums.READ_AS_NEEDED:      # a race's moves: verified where read back
                    with Journal(state, read_only=True) as journal:
                        journal.checked_rows()
                else:
                    Journal(state)
            assert f"table {table}" in str(refused.value)
            assert live.read_bytes() == before
            if table in rowsums.READ_AS_NEEDED and n % 7 == 0:
                ok, verdict = selftest._check_record(state)
                assert not ok and f"table {table}" in verdict and "damaged row" in verdict
            elif n % 7 == 0:           # a view and the selftest say so, never a traceback
                code, said = run("results", "--json", "--state", str(state))
                assert code != 0 and f"table {table}" in said and "Traceback" not in said
                ok, verdict = selftest._check_record(state)
                assert not ok and f"table {table}" in verdict and "damaged row" in verdict
        else:
            if shown(state) == reference:
                counts["unchanged"] += 1
            else:
                counts["accepted and different"] += 1
                wrong.append((table, columns[index], key))
        shutil.rmtree(case)
    tables = {t: sum(1 for v in every if v[0] == t) for t, *_ in every}
    print("fault campaign:", counts, "values by table:", tables)
    assert counts["accepted and different"] == 0, wrong
    assert counts["changed"] > 100 and counts["refused"] + counts["unchanged"] == counts["changed"]
    assert {t for t, *_ in every} >= {"sessions", "events", "races", "club", "aside"}


def test_a_journal_written_before_checksums_is_upgraded_once_when_opened_writable(tmp_path):
    state = tmp_path / "state"
    app = make_app(state)
    race(app, TWO)
    app.journal.close()
    db = sqlite3.connect(state / Journal.FILENAME, isolation_level=None)
    for table in rowsums.layout(db):                 # as an older companion wrote it
        db.execute(f"ALTER TABLE {table} DROP COLUMN {rowsums.COLUMN}")
    db.execute("PRAGMA user_version=0")
    db.close()
    assert backup.check(state / Journal.FILENAME).finished == 1     # an older backup restores
    with Journal(state, read_only=True) as old:                     # read as it is
        assert old.checked_rows() is None
    with Journal(state) as journal:                                 # upgraded here
        rows = journal.checked_rows()
        assert rows and rows > 5
    db = sqlite3.connect(state / Journal.FILENAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == rowsums.VERSION
    db.execute("UPDATE sessions SET started = started + 1 WHERE id = 1")
    db.commit()
    db.close()
    with pytest.raises(JournalDamaged, match=r"race 1 \(table sessions\)"):
        Journal(state)


def test_a_changed_move_of_the_open_race_is_skipped_and_said_where_it_is_replayed(tmp_path):
    """The start reads a race's moves only as far as it replays them, and verifies each as
    it reads it: one changed value of the open race is never replayed, and the entry is named."""
    state = tmp_path / "state"
    app = make_app(state)
    app.start_session("laps", {**LAPS, "players": list(TWO)})
    press(app, "GO GO")                            # started, a car crossed: the race is open
    session = app.runner.session.id
    app.journal.close()
    db = sqlite3.connect(state / Journal.FILENAME, isolation_level=None)
    seq, label = db.execute("SELECT seq, label FROM events WHERE session=? ORDER BY seq DESC", (session,)).fetchone()
    db.execute("UPDATE events SET created = created + 1 WHERE session=? AND seq=?", (session, seq))
    db.close()
    with Journal(state) as journal:
        replay = journal.replay(session)
    assert f"journal entry {seq} ({label}) is damaged and was skipped" in replay.problems
    assert seq not in [row[0] for row in replay.rows if row[2] is not None]
    ok, verdict = selftest._check_record(state)
    assert not ok and "table events" in verdict and f"race {session} event {seq}" in verdict
