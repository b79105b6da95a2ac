"""The session runner's snapshots: a resume replays only the events after the newest
snapshot and gets exactly the state a full replay gives; an undo behind a snapshot, a
damaged snapshot or one made by other code falls back to the full replay."""

import pickle
import random
import sqlite3

from companion import session as session_module
from companion.games import data as game_data
from companion.core.journal import Journal
from companion.session import SNAPSHOT_EVERY, SessionRunner


def full_replay(journal, sid):
    s = journal.session(sid)
    from companion.games.registry import activity
    act = activity(s.activity)
    state = act.setup(s.options, s.data)
    for event in journal.replay(sid).effective:
        state = act.apply(state, event)
    return state


def race(state_dir, events):
    journal = Journal(state_dir)
    runner = SessionRunner.start(journal, "dice", {"game": "formula-de"}, game_data.load("formula-de"))
    rng = random.Random(11)
    for _ in range(events):
        runner.perform(next(m for m in runner.moves() if m.primary), rng)
    return journal, runner


def snapshot_seqs(journal, sid):
    return [row[0] for row in journal._db.execute("SELECT seq FROM snapshots WHERE session=?", (sid,))]


def test_resume_starts_from_the_newest_snapshot(state_dir, monkeypatch):
    journal, runner = race(state_dir, SNAPSHOT_EVERY * 2 + 7)
    sid = runner.session.id
    assert snapshot_seqs(journal, sid) == [SNAPSHOT_EVERY, SNAPSHOT_EVERY * 2]
    read_after = []
    original = Journal.replay
    monkeypatch.setattr(Journal, "replay", lambda self, s, after=0: read_after.append(after) or original(self, s, after))
    resumed = SessionRunner.resume(journal, journal.session(sid))
    assert read_after == [SNAPSHOT_EVERY * 2]       # only the last 7 events were read
    assert resumed.state == runner.state == full_replay(journal, sid)


def test_undo_behind_a_snapshot_drops_it(state_dir):
    journal, runner = race(state_dir, SNAPSHOT_EVERY)   # the last event made a snapshot
    sid = runner.session.id
    assert snapshot_seqs(journal, sid) == [SNAPSHOT_EVERY]
    runner.undo()                                         # undoes event SNAPSHOT_EVERY
    assert snapshot_seqs(journal, sid) == []
    assert runner.state == full_replay(journal, sid)
    assert runner.state.count == SNAPSHOT_EVERY - 1


def test_damaged_snapshot_falls_back_to_the_full_replay(state_dir):
    journal, runner = race(state_dir, SNAPSHOT_EVERY + 3)
    sid = runner.session.id
    journal._db.execute("UPDATE snapshots SET state = x'00ff00ff'")
    resumed = SessionRunner.resume(journal, journal.session(sid))
    assert resumed.state == full_replay(journal, sid)


def test_snapshot_of_other_code_is_ignored(state_dir, monkeypatch):
    journal, runner = race(state_dir, SNAPSHOT_EVERY + 3)
    sid = runner.session.id
    monkeypatch.setattr(session_module, "code_fingerprint", lambda package: "changed-code")
    read_after = []
    original = Journal.replay
    monkeypatch.setattr(Journal, "replay", lambda self, s, after=0: read_after.append(after) or original(self, s, after))
    resumed = SessionRunner.resume(journal, journal.session(sid))
    assert read_after == [0]
    assert resumed.state == runner.state


def test_snapshots_survive_reopening_the_file(state_dir):
    journal, runner = race(state_dir, SNAPSHOT_EVERY + 1)
    expected = runner.state
    journal.close()
    db = sqlite3.connect(state_dir / Journal.FILENAME)
    assert db.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] == 1
    db.close()
    again = Journal(state_dir)
    assert SessionRunner.resume(again, again.open_session()).state == expected


def test_every_activity_state_can_be_snapshotted():
    """A state that cannot be pickled would silently replay in full at every boot."""
    import pickle

    from companion.games.registry import activity, playable
    from companion.ui.wizard import finish_options

    for slug in [e.slug for e in playable()]:
        act = activity(slug)
        options = finish_options(act.options, {**act.demo.options,
                                               **({"game": "street-illegal"} if slug == "deck" else {})})
        data = game_data.load(options["game"]) if options.get("game") in game_data.games_with_data() else (
            game_data.load(slug) if slug in game_data.games_with_data() else {})
        state = act.setup(options, data)
        rng = random.Random(3)
        for _ in range(40):
            move = act.demo.script(state)
            if move is None:
                break
            state = act.apply(state, act.resolve(state, move, rng))
        assert pickle.loads(pickle.dumps(state)) == state, slug


def test_a_snapshot_whose_bytes_changed_is_passed_over_for_an_older_one(state_dir):
    """A damaged blob that would still unpickle must not become the state: its CRC fails."""
    journal, runner = race(state_dir, SNAPSHOT_EVERY * 2 + 3)
    sid = runner.session.id
    older = pickle.dumps(full_replay(journal, sid))            # any state that unpickles
    journal._db.execute("UPDATE snapshots SET state=? WHERE seq=?", (older, SNAPSHOT_EVERY * 2))
    assert journal.latest_snapshot(sid, session_module.code_fingerprint(runner.package))[0] == SNAPSHOT_EVERY
    resumed = SessionRunner.resume(journal, journal.session(sid))
    assert resumed.state == runner.state


def test_a_journal_with_the_older_snapshot_table_opens(state_dir):
    db = sqlite3.connect(state_dir / Journal.FILENAME)
    db.execute("CREATE TABLE snapshots (session INTEGER, seq INTEGER, code TEXT, state BLOB, PRIMARY KEY (session, seq))")
    db.execute("INSERT INTO snapshots VALUES (1, 250, 'x', x'00')")
    db.commit()
    db.close()
    journal, runner = race(state_dir, SNAPSHOT_EVERY + 1)
    assert snapshot_seqs(journal, runner.session.id) == [SNAPSHOT_EVERY]
