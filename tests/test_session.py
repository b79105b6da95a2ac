"""The session runner's snapshots: a resume replays only the events after the newest
snapshot and gets exactly the state a full replay gives; an undo behind a snapshot, a
damaged snapshot or one made by other code falls back to the full replay. Undo is for a
mis-press: the same move made again where an undo returned gives the undone outcome
back (after a restart too), another move rolls anew."""

import itertools
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


def test_a_snapshot_fingerprint_is_the_sha1_of_the_code_and_loads_no_openssl():
    """The fingerprint is SHA-1 from CPython's own module: hashlib would load OpenSSL
    (about 4 MB resident on the box) for this one digest."""
    import hashlib
    import subprocess
    import sys
    from pathlib import Path

    import companion

    root = Path(companion.__file__).parent
    files = sorted([*(root / "games" / "formula_de").rglob("*.py"), *(root / "core").rglob("*.py"),
                    *(root / "kit").rglob("*.py")]) + [root / "games" / "api.py"]
    digest = hashlib.sha1(companion.__version__.encode())
    for path in files:
        digest.update(path.read_bytes())
    assert session_module.code_fingerprint("companion.games.formula_de") == digest.hexdigest()[:16]
    done = subprocess.run([sys.executable, "-c", "import sys; from companion.session import code_fingerprint; "
                           "print(code_fingerprint('companion.games.top_speed'), '_hashlib' in sys.modules)"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [session_module.code_fingerprint("companion.games.top_speed"), "False"]


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


class CountingRng(random.Random):
    """A seeded rng that counts the dice it rolls."""

    def __init__(self, seed):
        super().__init__(seed)
        self.rolls = 0

    def randrange(self, *args, **kwargs):
        self.rolls += 1
        return super().randrange(*args, **kwargs)


def formula_de_at_the_first_gear(state_dir):
    journal = Journal(state_dir)
    runner = SessionRunner.start(journal, "formula-de", {"players": 2, "weather": "good"},
                                 game_data.load("formula-de"))
    rng = random.Random(5)
    while runner.state.phase != "gear":
        runner.perform(next(m for m in runner.moves() if m.primary), rng)
    return journal, runner


def gear_move(runner, g):
    return next(m for m in runner.moves() if m.kind == "gear" and m.arg("gear") == g)


def test_an_undone_roll_made_again_gives_the_same_outcome_and_stays_in_the_history(state_dir):
    journal, runner = formula_de_at_the_first_gear(state_dir)
    first = runner.perform(gear_move(runner, 1), random.Random(1))
    rolled = runner.state
    runner.undo()
    for seed in range(2, 8):                   # however often BACK and GO are pressed
        rng = CountingRng(seed)
        assert runner.perform(gear_move(runner, 1), rng) == first
        assert rng.rolls == 0 and runner.state == rolled
        runner.undo()
    history = runner.history()
    assert [e.event["roll"] for e in history if e.event.get("kind") == "gear"] == [first["roll"]] * 7
    assert sum(e.undone for e in history) == 7
    assert runner.state == full_replay(journal, runner.session.id)


def test_another_gear_rolls_anew_and_the_first_gear_still_gets_its_roll_back(state_dir):
    journal, runner = formula_de_at_the_first_gear(state_dir)
    rng = random.Random(5)
    while not (runner.state.phase == "gear" and len([m for m in runner.moves() if m.kind == "gear"]) >= 2):
        runner.perform(next(m for m in runner.moves() if m.primary), rng)
    low, high = sorted(m.arg("gear") for m in runner.moves() if m.kind == "gear")[:2]
    first = runner.perform(gear_move(runner, low), random.Random(1))
    runner.undo()
    other = CountingRng(3)
    runner.perform(gear_move(runner, high), other)     # another choice: a new roll
    assert other.rolls == 1
    runner.undo()
    again = CountingRng(4)
    assert runner.perform(gear_move(runner, low), again) == first and again.rolls == 0


def test_a_new_line_of_play_forgets_what_was_undone_further_on(state_dir):
    journal, runner = formula_de_at_the_first_gear(state_dir)
    first = runner.perform(gear_move(runner, 1), random.Random(1))
    runner.undo()
    runner.perform(next(m for m in runner.moves() if m.kind == "advice"), random.Random(1))
    rng = CountingRng(9)
    runner.perform(gear_move(runner, 1), rng)  # another state (the odds shown): a new roll
    assert rng.rolls == 1
    assert runner.state.report.roll in runner.state.settings.faces[0]
    assert first["kind"] == "gear"


def test_the_kept_outcome_survives_a_restart(state_dir):
    journal, runner = formula_de_at_the_first_gear(state_dir)
    first = runner.perform(gear_move(runner, 1), random.Random(1))
    runner.undo()
    sid = runner.session.id
    journal.close()
    journal = Journal(state_dir)
    resumed = SessionRunner.resume(journal, journal.session(sid))
    rng = CountingRng(6)
    assert resumed.perform(gear_move(resumed, 1), rng) == first and rng.rolls == 0
    assert resumed.state == full_replay(journal, sid)
    journal.close()


def test_an_undone_die_of_the_dice_roller_rolls_the_same_and_another_die_anew(state_dir):
    journal, runner = race(state_dir, 3)
    roll = next(m for m in runner.moves() if m.primary)
    first = runner.perform(roll, random.Random(1))
    runner.undo()
    same = CountingRng(2)
    assert runner.perform(roll, same) == first and same.rolls == 0
    runner.undo()
    other = next(m for m in runner.moves() if m.kind == "roll" and m.arg("die") != roll.arg("die"))
    rng = CountingRng(2)
    runner.perform(other, rng)
    assert rng.rolls == 1


def test_a_move_without_dice_is_resolved_afresh(state_dir, monkeypatch):
    journal = Journal(state_dir)
    runner = SessionRunner.start(journal, "laps", {"players": 2, "timing": "on"}, {})
    go = next(m for m in runner.moves() if m.primary)
    runner.perform(go, random.Random(1))
    lap = next(m for m in runner.moves() if m.kind != "finish")
    clock = itertools.count(1000.0, 30.0)          # the wall clock moves on between the presses
    monkeypatch.setattr("time.time", lambda: next(clock))
    first = runner.perform(lap, random.Random(1))
    runner.undo()
    again = runner.perform(lap, random.Random(1))
    assert first["at"] < again["at"] and {**first, "at": 0} == {**again, "at": 0}
