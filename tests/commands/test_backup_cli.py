"""``companion backup DIR`` and ``companion restore FILE`` on real journals: a copy taken
while a race is written, a copy cut short, a stick missing, read-only or full, and a
restore that checks what it is given and keeps what it replaces."""

import os
import resource
import signal
import sqlite3
import subprocess
import sys
import threading

import pytest

from companion.league import seasons
from companion.cli import main
from companion.core import backup
from companion.core.journal import Journal
from tests.commands.test_read_only_card import read_only
from tests.tablescreen.conftest import play, race
from tests.table import make_app


def record(state_dir):
    """Every session of the journal in ``state_dir``: its setup, its effective events and its
    results, and the championship standings: what a backup must keep."""
    with Journal(state_dir, read_only=True) as journal:
        sessions = [(s.id, s.activity, s.options, s.championship, s.finished, s.results,
                     journal.replay(s.id).effective) for s in journal.sessions()]
        return sessions, seasons.shown_table(journal)


def files(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_a_backup_taken_while_races_are_written_is_consistent_and_restores_them(state_dir, tmp_path, capsys):
    stick = tmp_path / "stick"
    stick.mkdir()
    app = make_app(state_dir)
    done = threading.Event()

    def races():
        try:
            for slug in ("formula-de", "laps", "top-speed", "formula-de"):
                play(app, slug, 10_000)
                app.close_session()
        finally:
            done.set()

    writer = threading.Thread(target=races)
    writer.start()
    taken = []
    while not done.is_set() or not taken:
        assert main(["backup", str(stick), "--state", str(state_dir)]) == 0
        taken = backup.backups(stick)
    writer.join()
    assert len(taken) >= 2
    final = record(state_dir)
    for n, copy in enumerate(taken):       # each copy is the journal at one commit:
        restored = tmp_path / f"restored-{n}"
        assert main(["restore", str(copy), "--state", str(restored)]) == 0
        sessions, _ = record(restored)
        for got, whole in zip(sessions, final[0]):
            events = got[-1]
            assert events == whole[-1][:len(events)]        # a prefix of the race as it went on
            if got[4] is not None:                         # a finished race is there in full
                assert got == whole
    assert main(["backup", str(stick), "--state", str(state_dir)]) == 0
    newest = backup.backups(stick)[-1]
    assert main(["restore", str(newest), "--state", str(tmp_path / "new-card")]) == 0
    assert record(tmp_path / "new-card") == final
    assert [s[4] is not None for s in final[0]] == [True] * 4
    out = capsys.readouterr().out
    assert f"backed up 4 sessions (4 finished)" in out and "there was no journal to replace" in out


def backed_up_race(state_dir, tmp_path):
    """A stick (a directory) holding one backup of a journal with one finished race."""
    stick = tmp_path / "stick"
    stick.mkdir()
    race(state_dir, "laps", 10_000).journal.close()
    assert main(["backup", str(stick), "--state", str(state_dir)]) == 0
    return stick


def limited_backup(state_dir, stick, max_bytes):
    """``companion backup`` in a process that cannot write a file longer than ``max_bytes``
    (a write past it fails, as on a full stick)."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, max_bytes))
    return subprocess.run([sys.executable, "-m", "companion.cli", "backup", str(stick), "--state", str(state_dir)],
                          capture_output=True, text=True, preexec_fn=limit, timeout=60)


def test_a_copy_cut_short_leaves_the_earlier_backup_whole(state_dir, tmp_path):
    stick = backed_up_race(state_dir, tmp_path)
    before = files(stick)
    app = race(state_dir, "formula-de", 10_000)          # the journal grows past the limit
    app.journal.close()
    assert (state_dir / Journal.FILENAME).stat().st_size > 16 * 1024
    cut = limited_backup(state_dir, stick, 16 * 1024)
    assert cut.returncode == 1, cut.stderr
    assert cut.stderr.startswith("companion backup: ") and "the earlier backups there are whole" in cut.stderr
    assert files(stick) == before                          # no part left, the old one untouched
    [earlier] = before
    assert backup.check(stick / earlier).finished == 1


def test_a_backup_killed_mid_copy_leaves_the_earlier_one_whole(state_dir, tmp_path):
    stick = backed_up_race(state_dir, tmp_path)
    before = files(stick)
    with Journal(state_dir) as journal:                    # a big journal: a long copy
        sid = journal.start_session("laps", {}, {"padding": "x" * 2_000_000})
        for n in range(20):
            journal.append(sid, {"kind": "note", "text": "y" * 100_000}, f"note {n}")
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "backup", str(stick), "--state", str(state_dir)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    while proc.poll() is None and not list(stick.glob(".*.part")):
        pass
    proc.kill()
    proc.wait()
    if proc.returncode == 0:
        pytest.skip("the copy finished before it could be cut")
    assert {n: b for n, b in files(stick).items() if not n.startswith(".")} == before   # (a temporary file)
    assert backup.check(stick / next(iter(before))).finished == 1
    assert main(["backup", str(stick), "--state", str(state_dir)]) == 0     # the next one is whole
    assert backup.check(backup.backups(stick)[-1]).races == 2


def test_a_missing_directory_is_named_with_the_fix(state_dir, tmp_path, capsys):
    race(state_dir, "laps", 10_000).journal.close()
    assert main(["backup", str(tmp_path / "no-stick"), "--state", str(state_dir)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"companion backup: no directory {tmp_path / 'no-stick'}") and "mkdir -p" in err
    assert not (tmp_path / "no-stick").exists()


def test_a_read_only_stick_is_said(state_dir, tmp_path, capsys):
    race(state_dir, "laps", 10_000).journal.close()
    stick = tmp_path / "stick"
    stick.mkdir()
    with read_only(stick, tmp_path) as view:
        assert main(["backup", str(view), "--state", str(state_dir)]) == 1
    err = capsys.readouterr().err
    assert f"cannot write in {view}" in err and ("read-only" in err or "permission" in err)
    assert list(stick.iterdir()) == []


def test_a_full_stick_is_said(state_dir, tmp_path, capsys):
    if os.geteuid() != 0:
        pytest.skip("a small file system of its own needs root (mount -t tmpfs)")
    stick = tmp_path / "stick"
    stick.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(stick)],
                      capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        (stick / "filler").write_bytes(b"\0" * 60 * 1024)
        app = race(state_dir, "formula-de", 10_000)
        app.journal.close()
        assert main(["backup", str(stick), "--state", str(state_dir)]) == 1
        err = capsys.readouterr().err
        assert f"{stick} is full" in err and "free some space" in err
        assert sorted(p.name for p in stick.iterdir()) == ["filler"]
    finally:
        subprocess.run(["umount", str(stick)], capture_output=True)


def test_backup_keeps_the_newest_it_is_told(state_dir, tmp_path):
    stick = tmp_path / "stick"
    stick.mkdir()
    race(state_dir, "laps", 10_000).journal.close()
    made = []
    for n in range(7):
        path, _ = backup.back_up(state_dir / Journal.FILENAME, stick, keep=5, now=1_790_000_000 + n // 2)
        made.append(path)
    assert backup.backups(stick) == made[2:]                # two in one second sort in order too
    assert main(["backup", str(stick), "--state", str(state_dir), "--keep", "0"]) == 2


def damaged_copies(good, tmp_path):
    """A row whose checksum fails, a copy cut in half, a text file, another SQLite file,
    a journal of a newer version: each refused."""
    row = tmp_path / "bad-row.sqlite3"
    row.write_bytes(good.read_bytes())
    with sqlite3.connect(row) as db:
        db.execute("UPDATE events SET body = body || ' ' WHERE session = 1 AND seq = 2")
    torn = tmp_path / "torn.sqlite3"
    torn.write_bytes(good.read_bytes()[:good.stat().st_size // 2])
    text = tmp_path / "notes.txt"
    text.write_text("race results\n")
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE sessions (id INTEGER)")
    newer = tmp_path / "newer.sqlite3"
    newer.write_bytes(good.read_bytes())
    with sqlite3.connect(newer) as db:
        db.execute("PRAGMA user_version = 7")
    return {row: "damaged row (race 1 event 2", torn: "", text: "not a sound SQLite file",
            other: "not a Race Companion journal", newer: "version 7"}


def test_restore_refuses_a_damaged_or_foreign_file_and_changes_nothing(state_dir, tmp_path, capsys):
    stick = backed_up_race(state_dir, tmp_path)
    race(state_dir, "laps", 10_000).journal.close()
    before = files(state_dir)
    capsys.readouterr()
    for bad, said in damaged_copies(backup.backups(stick)[0], tmp_path).items():
        assert main(["restore", str(bad), "--state", str(state_dir)]) == 1, bad
        err = capsys.readouterr().err
        assert err.startswith(f"companion restore: {bad} ") and said in err, err
        assert "nothing was changed" in err
        assert files(state_dir) == before
    assert main(["restore", str(tmp_path / "nowhere.sqlite3"), "--state", str(state_dir)]) == 1
    assert "is not a file" in capsys.readouterr().err
    assert files(state_dir) == before


def test_restore_keeps_the_journal_it_replaces(state_dir, tmp_path, capsys):
    stick = backed_up_race(state_dir, tmp_path)
    kept = record(state_dir)
    race(state_dir, "formula-de", 10_000).journal.close()
    replaced = record(state_dir)
    capsys.readouterr()
    assert main(["restore", str(backup.backups(stick)[0]), "--state", str(state_dir)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("restored 1 session (1 finished)")
    [aside] = state_dir.glob("journal.sqlite3.replaced-*[0-9]")
    assert f"the journal it replaced is kept as {aside}" in out
    assert record(state_dir) == kept
    with Journal(state_dir) as journal:                  # the companion starts on it, told of nothing
        assert journal.notice is None and len(journal.sessions(finished=True)) == 1
    moved = tmp_path / "moved"
    moved.mkdir()
    for p in state_dir.glob(f"{aside.name}*"):
        p.rename(moved / p.name.replace(aside.name, Journal.FILENAME))
    assert record(moved) == replaced                      # what was replaced, whole


def test_restore_refuses_while_the_companion_runs(state_dir, tmp_path, capsys):
    stick = tmp_path / "stick"
    stick.mkdir()
    app = race(state_dir, "laps", 10_000)
    assert main(["backup", str(stick), "--state", str(state_dir)]) == 0   # a backup while it runs
    before = files(state_dir)
    assert main(["restore", str(backup.backups(stick)[0]), "--state", str(state_dir)]) == 1
    err = capsys.readouterr().err
    assert "is open" in err and "sudo systemctl stop companion" in err
    assert files(state_dir).keys() == before.keys()
    app.journal.close()
    with Journal(state_dir, read_only=True):             # the table screen reading it
        assert main(["restore", str(backup.backups(stick)[0]), "--state", str(state_dir)]) == 1
    assert main(["restore", str(backup.backups(stick)[0]), "--state", str(state_dir)]) == 0


def test_root_restores_a_journal_the_service_can_write(state_dir, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("only root can give a file to another user")
    stick = backed_up_race(state_dir, tmp_path)
    card = tmp_path / "new-card"
    card.mkdir()
    os.chown(card, 4321, 4321)                      # the service's user owns its state
    assert main(["restore", str(backup.backups(stick)[0]), "--state", str(card)]) == 0
    st = (card / Journal.FILENAME).stat()
    assert (st.st_uid, st.st_gid, st.st_mode & 0o777) == (4321, 4321, 0o640)


def test_a_journal_with_a_damaged_row_is_not_backed_up_as_sound(state_dir, tmp_path, capsys):
    stick = backed_up_race(state_dir, tmp_path)
    before = files(stick)
    with sqlite3.connect(state_dir / Journal.FILENAME) as db:     # a row the card garbled
        db.execute("UPDATE events SET body = body || ' ' WHERE session = 1 AND seq = 3")
    capsys.readouterr()
    assert main(["backup", str(stick), "--state", str(state_dir)]) == 1
    err = capsys.readouterr().err
    assert f"the copy of {state_dir / Journal.FILENAME} has a damaged row (race 1 event 3" in err
    assert "nothing was kept" in err and "companion selftest" in err
    assert files(stick) == before


def test_backups_of_one_second_stay_in_order_when_the_oldest_are_pruned(state_dir, tmp_path):
    """Seven backups in the same second, five kept: the newest is always the last, and a
    name freed by pruning is never taken again (it would sort before the ones it follows)."""
    race(state_dir, "dice", 3)
    stick = tmp_path / "stick"
    stick.mkdir()
    journal_file = state_dir / Journal.FILENAME
    made = [backup.back_up(journal_file, stick, keep=5, now=1_800_000_000.0)[0] for _ in range(7)]
    kept = backup.backups(stick)
    assert kept == made[-5:]
    assert [p.name.rsplit("-", 1)[-1] for p in kept] == [f"{n}.sqlite3" for n in range(3, 8)]
