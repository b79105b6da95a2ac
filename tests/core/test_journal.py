import shutil
import sqlite3

import pytest

from companion.core.journal import Journal, JournalError


def make(state_dir, n=3):
    j = Journal(state_dir)
    sid = j.start_session("dice", {"game": "formula-de"}, {"dice": {}})
    for i in range(n):
        j.append(sid, {"kind": "roll", "faces": [i]}, f"Roll {i}")
    return j, sid


def test_append_and_replay_in_order(state_dir):
    j, sid = make(state_dir)
    replay = j.replay(sid)
    assert [e["faces"] for e in replay.effective] == [[0], [1], [2]]
    assert [e.label for e in replay.entries] == ["Roll 0", "Roll 1", "Roll 2"]
    assert replay.problems == []


def test_events_survive_reopen(state_dir):
    j, sid = make(state_dir)
    j.close()
    again = Journal(state_dir)
    assert again.open_session().id == sid
    assert len(again.replay(sid).effective) == 3


def test_undo_keeps_the_undone_action_in_history(state_dir):
    j, sid = make(state_dir)
    target = j.undo_last(sid)
    assert target.label == "Roll 2"
    replay = j.replay(sid)
    assert [e["faces"] for e in replay.effective] == [[0], [1]]
    labels = [(e.label, e.undone) for e in replay.entries]
    assert ("Roll 2", True) in labels
    assert labels[-1] == ("Undo: Roll 2", False)
    # a second undo takes the action before
    assert j.undo_last(sid).label == "Roll 1"
    assert [e["faces"] for e in j.replay(sid).effective] == [[0]]


def test_undo_with_nothing_to_undo(state_dir):
    j = Journal(state_dir)
    sid = j.start_session("dice", {}, {})
    assert j.undo_last(sid) is None


def test_corrupt_row_is_reported_and_skipped_not_deleted(state_dir):
    j, sid = make(state_dir)
    db = sqlite3.connect(j.path)
    db.execute("UPDATE events SET body='{\"kind\": \"roll\", \"faces\": [9' WHERE seq=2")
    db.commit()
    db.close()
    replay = j.replay(sid)
    assert [e["faces"] for e in replay.effective] == [[0], [2]]
    assert len(replay.problems) == 1
    assert "entry 2" in replay.problems[0] and "Roll 1" in replay.problems[0]
    # the damaged row is still in the file
    assert len(list(j.rows(sid))) == 3


def test_tampered_row_with_valid_json_fails_its_checksum(state_dir):
    j, sid = make(state_dir)
    db = sqlite3.connect(j.path)
    db.execute("UPDATE events SET body='{\"kind\":\"roll\",\"faces\":[6]}' WHERE seq=1")
    db.commit()
    db.close()
    replay = j.replay(sid)
    assert [e["faces"] for e in replay.effective] == [[1], [2]]
    assert "damaged" in replay.problems[0]


def test_finish_session_stores_results(state_dir):
    j, sid = make(state_dir)
    j.finish_session(sid, {"standings": [{"position": 1, "name": "Red", "points": 10}]})
    assert j.open_session() is None
    (s,) = j.sessions(finished=True)
    assert s.results["standings"][0]["name"] == "Red"


def test_the_session_finished_last_is_by_the_time_it_finished(state_dir):
    j, first = make(state_dir)
    assert j.session_finished_last() is None
    second = j.start_session("dice", {"game": "formula-de"}, {"dice": {}})
    j.finish_session(second, {"standings": []})
    j.finish_session(first, {"standings": []})          # the older race finished after the newer
    assert j.session_finished_last().id == first
    j.reopen_session(first)
    assert j.session_finished_last().id == second


def test_a_read_only_journal_reads_a_session_row_again_only_once_it_changes(state_dir):
    j, sid = make(state_dir)
    reader = Journal(state_dir, read_only=True)
    seen = reader.open_session()
    assert reader.open_session() is seen                 # the same row: the session already read
    j.append(sid, {"kind": "roll", "faces": [4]}, "Roll 4")
    assert reader.open_session() is seen                 # an event does not change the session's row
    j.finish_session(sid, {"standings": [{"position": 1, "name": "Red", "points": 10}]})
    ended = reader.session_finished_last()
    assert ended is not seen and ended.id == sid and ended.results["standings"][0]["name"] == "Red"
    assert j.session(sid) is not j.session(sid)           # the box's own journal reads it afresh
    reader.close()


def test_unwritable_state_dir_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(JournalError, match="cannot open the journal"):
        Journal(blocker / "state")


def test_torn_last_write_leaves_the_previous_committed_event(state_dir, tmp_path):
    """Cut the write-ahead log in the middle of the last transaction: on reopen the
    journal holds every event before it, and still accepts new ones."""
    j, sid = make(state_dir, n=5)
    wal = j.path.with_name(j.path.name + "-wal")
    snapshot = tmp_path / "snap"
    snapshot.mkdir()
    size_before = wal.stat().st_size
    j.append(sid, {"kind": "roll", "faces": [99]}, "Roll 99")
    # copy the files as they are on disk while the connection is open (no checkpoint)
    shutil.copy(j.path, snapshot / j.path.name)
    data = wal.read_bytes()
    assert len(data) > size_before
    torn = data[: size_before + (len(data) - size_before) // 2]
    (snapshot / wal.name).write_bytes(torn)
    j.close()
    again = Journal(snapshot)
    faces = [e["faces"] for e in again.replay(sid).effective]
    assert faces == [[0], [1], [2], [3], [4]]
    again.append(sid, {"kind": "roll", "faces": [7]}, "Roll 7")
    assert again.replay(sid).effective[-1]["faces"] == [7]
