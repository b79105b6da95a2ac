"""Pull the plug: SIGKILL the running companion at random moments of scripted races, start
it again, and check that every committed event is there and the state equals a clean
replay of them.

The races are deterministic (a fixed seed and a fixed key script), so an uninterrupted
run gives the reference journal: a killed run's journal must be an exact prefix of it (at
most the event being written when the plug was pulled is missing), and the restarted
companion must resume exactly that state.

Most cuts are timed from the moment the race's first event is committed, so that a busy
machine (a slow start, a slow first screen) does not push them all before the race; one in
ten falls anywhere from the start of the process, journal creation included. The cuts of each race come in batches,
so that parallel test workers share them.

Each run is a child forked from a process that has already imported the companion
(tests/forkstart.py), so the 200 runs do not spend their time starting Python; so are the
restarts that check the resumed state, but for one per race, started as a whole new Python.
"""

import os
import random
import sqlite3
import subprocess
import sys
import time

import pytest

from companion.core.journal import Journal
from companion.session import SNAPSHOT_EVERY, SessionRunner
from tests.shared import once_per_run

KILLS = int(os.environ.get("COMPANION_POWER_CUTS", "200"))
BATCHES = 4          # per race

ROUND = "GO GO DOWN OK GO GO UP "                 # five rolls of the dice roller
UNDO_ROUND = "GO GO DOWN OK HOLD:BACK GO UP "        # three rolls, an undo, a roll
RACES = {
    # home: DOWN x3 = Street Illegal; the wizard's defaults (GO: the cars keep their
    # colours as names); then GO plays the main move (once the race is over GO does
    # nothing: OK leaves it) and a second race the same way
    "street-illegal": ("DOWN DOWN DOWN OK OK GO OK OK OK " + "GO " * 100 + "OK ") * 2,
    # Dice roller of 3-Wide: rolls, another die, an undo now and then (each undo replays the
    # race, so one in four rounds has one), past the 200th event and the snapshot kept there
    # (SNAPSHOT_EVERY), with two undos after it
    "dice": "OK DOWN DOWN OK " + (UNDO_ROUND + ROUND * 3) * 10 + UNDO_ROUND * 2,
}


def arguments(state, keys, seed=5):
    return ["run", "--hardware", "headless", "--state", str(state), "--seed", str(seed), "--keys", keys]


def bodies(state):
    """Every event body in the journal, in order (opened as the companion opens it, so a
    journal cut before its tables were written reads as empty)."""
    with Journal(state) as journal:
        return [row[2] for s in journal.sessions() for row in journal.rows(s.id)]


@pytest.fixture(scope="module")
def references(tmp_path_factory, starter):
    """Each race run uninterrupted: its events, and the seconds before and during the race
    (run once for all the test workers: the races are the same for each)."""
    def run_races():
        out = {}
        for name, keys in RACES.items():
            state = tmp_path_factory.mktemp(f"ref-{name}")
            start = time.monotonic()
            log = state.with_name(state.name + ".stderr")
            proc = starter.start(arguments(state, keys), stderr=log)
            opened = journal_appears(state, proc)
            assert proc.wait() == 0, log.read_text()
            out[name] = (bodies(state), opened - start, time.monotonic() - opened)
        return out
    return once_per_run(tmp_path_factory, "power-loss-references", run_races)


POLL_S = 0.005       # how often a waiting test looks again (a cut's moment is random anyway)


def journal_appears(state, proc):
    """When the journal file appears (or the process ends without one)."""
    path = state / Journal.FILENAME
    while not path.exists() and proc.poll() is None:
        time.sleep(POLL_S)
    return time.monotonic()


def race_begins(state, proc):
    """When the journal holds its first event (or the process ends without one): read as the
    table screen reads it, a read-only connection beside the writer (one connection, asked
    again until it answers: connecting anew each time cost more than the race)."""
    uri = f"file:{state / Journal.FILENAME}?mode=ro"
    journal_appears(state, proc)
    db = None
    try:
        while proc.poll() is None:
            if db is None:
                try:
                    db = sqlite3.connect(uri, uri=True, timeout=0.05, isolation_level=None)
                except sqlite3.Error:          # not there yet
                    db = None
            if db is not None and has_events(db):
                break
            time.sleep(POLL_S)
    finally:
        if db is not None:
            db.close()
    return time.monotonic()


def has_events(db: sqlite3.Connection) -> bool:
    try:
        return db.execute("SELECT 1 FROM events LIMIT 1").fetchone() is not None
    except sqlite3.Error:          # its tables are not written yet
        return False


def check_resumes_clean(state, restart, starter=None):
    """The companion comes back with the state a clean replay gives: started again as a
    process when ``restart`` (a child of ``starter``, else a whole new Python), otherwise
    resumed the way it resumes at boot."""
    if restart:
        if starter is not None:
            log = state.with_name(state.name + ".restart.stderr")
            code, said = starter.start(arguments(state, "", seed=99), stderr=log).wait(), log.read_text()
        else:
            proc = subprocess.run([sys.executable, "-m", "companion.cli", *arguments(state, "", seed=99)],
                                  capture_output=True, text=True, timeout=60)
            code, said = proc.returncode, proc.stderr
        assert code == 0, said
        assert "Traceback" not in said
    with Journal(state) as journal:
        session = journal.open_session() or (journal.sessions() or [None])[-1]
        if session is None:
            return
        resumed = SessionRunner.resume(journal, session)
        assert resumed.problems == []
        act = resumed.activity
        clean = act.setup(session.options, session.data)
        for event in journal.replay(session.id).effective:
            clean = act.apply(clean, event)
        assert resumed.state == clean


def test_reference_races_are_long_enough(references):
    # the dice race goes past a snapshot, so that cuts land before and after one is kept
    assert len(references["dice"][0]) > SNAPSHOT_EVERY
    for name, (events, before, during) in references.items():
        assert len(events) > 100, name
        assert during > before / 2, f"{name}: the race is too short next to the start for cuts to land in it"


@pytest.mark.parametrize("batch", range(BATCHES))
@pytest.mark.parametrize("race", sorted(RACES))
def test_sigkill_at_random_points(race, batch, references, starter, tmp_path):
    reference, before, during = references[race]
    rng = random.Random(f"power-cut-{race}-{batch}")
    kills = KILLS // len(RACES) // BATCHES
    reached = 0
    fresh = batch == 0     # the first cut checked restarts as a whole new Python (once per race)
    for k in range(kills):
        state = tmp_path / f"cut-{k}"
        proc = starter.start(arguments(state, RACES[race]))
        if rng.random() < 0.1:
            time.sleep(rng.uniform(0.0, before + during))      # anywhere, the start included
        else:
            race_begins(state, proc)
            time.sleep(rng.uniform(0.0, during))
        proc.kill()
        proc.wait()
        if not (state / Journal.FILENAME).exists():
            continue  # killed before the journal existed: nothing was committed
        got = bodies(state)
        # every committed event is there, in order, exactly as an uninterrupted race wrote it
        assert got == reference[:len(got)], f"cut {k}: the journal differs from the reference"
        reached += bool(got)
        # a restart now and then: a whole new Python for the first of the race, then children
        # of the fork server (the same start, without Python's own)
        check_resumes_clean(state, restart=fresh or k % 10 == 0, starter=None if fresh else starter)
        fresh = False
    # the cuts landed across the race, not only before it started
    assert reached >= kills // 2, f"only {reached} of {kills} cuts landed after the race began"
