"""A journal damaged on the SD card: found when it is opened, never a traceback later.

The files are damaged the way the outside review did it: a page of random bytes in the
middle, the file emptied, the write-ahead log removed after a kill."""

import random
import shutil

from companion.core.journal import PROBLEMS_FILE, Journal

PAGE = 4096


def race(state_dir, n):
    j = Journal(state_dir)
    sid = j.start_session("dice", {"game": "formula-de"}, {"dice": {}})
    for i in range(n):
        j.append(sid, {"kind": "roll", "faces": [i], "pad": "x" * 200}, f"Roll {i}")
    return j, sid


def test_random_page_in_the_middle_is_found_at_open_and_the_intact_events_kept(state_dir):
    j, sid = race(state_dir, 400)          # ~25 pages of events
    j.save_snapshot(sid, 399, "code", b"state")
    j.close()
    data = bytearray(j.path.read_bytes())
    pages = len(data) // PAGE
    assert pages > 10
    middle = pages // 2
    data[middle * PAGE:(middle + 1) * PAGE] = random.Random(13).randbytes(PAGE)
    j.path.write_bytes(bytes(data))

    again = Journal(state_dir)             # no traceback, now or on the first undo
    assert again.notice and again.notice.startswith("Journal was damaged:")
    assert "journal.sqlite3.damaged-1" in again.notice
    assert (state_dir / "journal.sqlite3.damaged-1").read_bytes() == bytes(data)   # kept for the owner
    replay = again.replay(sid)
    faces = [e["faces"][0] for e in replay.effective]
    assert 300 < len(faces) < 400          # the events on the damaged page are gone, the rest kept
    told = again.notice.split(";")[0]      # counted in words, never "event(s)"
    assert told.startswith(f"Journal was damaged: {len(faces)} events kept, "), told
    assert told.endswith((f"{400 - len(faces)} events lost", "some events may be lost")), told
    assert faces == sorted(faces) and faces[0] == 0 and faces[-1] == 399
    assert again.undo_last(sid).label == "Roll 399"
    assert [r[0] for r in again._db.execute("PRAGMA quick_check")] == ["ok"]
    assert "damaged" in (state_dir / PROBLEMS_FILE).read_text()
    again.close()
    assert Journal(state_dir).notice is None    # told once on screen; selftest keeps the file


def test_emptied_journal_is_noticed(state_dir):
    j, sid = race(state_dir, 5)
    j.close()
    j.path.write_bytes(b"")
    again = Journal(state_dir)
    assert again.notice == f"Journal lost history: it had event 5 of race {sid}, that race is gone"
    assert again.sessions() == []
    assert "write-ahead log" in (state_dir / PROBLEMS_FILE).read_text()


def test_removed_write_ahead_log_is_noticed(state_dir, tmp_path):
    j, sid = race(state_dir, 3)
    j.close()                               # a checkpointed journal with 3 events
    j = Journal(state_dir)
    for i in range(3, 6):
        j.append(sid, {"kind": "roll", "faces": [i]}, f"Roll {i}")
    # killed: the last three events live only in the write-ahead log, which is then lost
    copy = tmp_path / "after-kill"
    copy.mkdir()
    for name in (Journal.FILENAME, Journal.FILENAME + ".last"):
        shutil.copy(state_dir / name, copy / name)
    j.close()
    again = Journal(copy)
    assert len(again.replay(sid).effective) == 3
    assert again.notice == f"Journal lost history: it had event 6 of race {sid}, it ends at event 3"


def test_sound_journal_has_no_notice_and_the_note_follows_undo(state_dir):
    j, sid = race(state_dir, 3)
    j.undo_last(sid)
    j.close()
    again = Journal(state_dir)
    assert again.notice is None
    assert not (state_dir / PROBLEMS_FILE).exists()


def test_not_a_database_is_moved_aside_with_a_message(state_dir):
    (state_dir / Journal.FILENAME).write_bytes(b"this is not sqlite" * 100)
    j = Journal(state_dir)
    assert j.notice.startswith("Journal was damaged: 0 events kept, some events may be lost;")
    assert (state_dir / "journal.sqlite3.damaged-1").read_bytes() == b"this is not sqlite" * 100
    sid = j.start_session("dice", {}, {})
    assert j.append(sid, {"kind": "roll"}, "Roll") == 1


def test_damaged_note_is_ignored(state_dir):
    j, sid = race(state_dir, 2)
    j.close()
    (state_dir / (Journal.FILENAME + ".last")).write_text("RCJ1 0000000001 0000000099 deadbeef\n")
    assert Journal(state_dir).notice is None


def test_selftest_and_the_first_frame_say_so(state_dir, capsys):
    from companion.cli import main
    from companion.runtime import Runtime
    j, sid = race(state_dir, 4)
    j.close()
    j.path.write_bytes(b"")
    with Runtime.open(hardware="headless", state=str(state_dir), keys="", pinout=None) as runtime:
        assert runtime.app.frame().alert == f"Journal lost history: it had event 4 of race {sid}, that race is gone"
        assert runtime.problems()[0].startswith("Journal lost history")
    code = main(["selftest", "--state", str(state_dir), "--skip", "display", "--skip", "buttons",
                 "--skip", "printer"])
    out = capsys.readouterr().out
    assert code == 1
    assert f"[FAIL] state: {state_dir}: " in out and "Journal lost history" in out
    assert "delete that file to clear this" in out
    (state_dir / PROBLEMS_FILE).unlink()
    assert main(["selftest", "--state", str(state_dir), "--skip", "display", "--skip", "buttons",
                 "--skip", "printer"]) == 0


def test_a_row_failing_its_checksum_is_not_carried_into_the_salvaged_journal(state_dir):
    """A damaged page makes the file salvaged; a row changed elsewhere (its checksum no
    longer matching) stays out of the new journal rather than be summed anew there."""
    import sqlite3

    j, sid = race(state_dir, 400)
    j.close()
    db = sqlite3.connect(j.path)
    db.execute("UPDATE events SET body = replace(body, '[1]', '[7]') WHERE seq = 2")   # no triggers here
    db.commit()
    db.close()
    data = bytearray(j.path.read_bytes())
    middle = len(data) // PAGE // 2
    data[middle * PAGE:(middle + 1) * PAGE] = random.Random(13).randbytes(PAGE)
    j.path.write_bytes(bytes(data))
    again = Journal(state_dir)
    faces = [e["faces"][0] for e in again.replay(sid).effective]
    assert faces[:2] == [0, 2] and faces.count(7) == 1   # event 2 (faces [1], changed to [7]) left out
    again.close()
    assert Journal(state_dir).checked_rows() > 300     # the new journal is whole
