"""The table screen with the rights its service has on the box: a user of its own, in the
companion's group, so it may read the state directory and nothing more, following a race
the companion writes with its own user and umask (systemd/companion.service: UMask=0027,
StateDirectoryMode=0750; systemd/companion-table.service: DynamicUser=yes,
SupplementaryGroups=companion).

The companion and the table screen run as children forked from the test, each with the
user, groups and umask of its service (real permission checks need a test run as root;
forked, the children need no interpreter of their own, which those users might not be
allowed to read). Each step is one committed press and one poll: what the table screen
reads is counted in polls, not waited for."""

import json
import os
import socket
import sqlite3
import stat
import tempfile
import traceback
from pathlib import Path

import pytest

from companion.core.journal import Journal
from companion.games import data as game_data
from companion.table.source import Follower
from tests.tablescreen.conftest import play, race

COMPANION, TABLE = 4242, 4343          # uids (and gids) no account of this machine uses
UMASK = 0o027                         # UMask= of systemd/companion.service

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run as two other users")


class Child:
    """A forked child running ``work(ask)`` as ``uid`` with ``groups``: ``ask(message)`` sends
    the child a JSON message and returns its answer."""

    def __init__(self, uid: int, groups: list[int], umask: int, state: Path, work):
        mine, theirs = socket.socketpair()
        self.pid = os.fork()
        if self.pid == 0:                               # the child
            code = 1
            try:
                mine.close()
                os.setgroups(groups)
                os.setgid(uid)
                os.setuid(uid)
                os.umask(umask)
                os.environ["COMPANION_STATE"] = str(state)   # the owner's files: this state only
                game_data.clear_cache()
                stream = theirs.makefile("rw")
                for line in stream:
                    stream.write(json.dumps(work(json.loads(line))) + "\n")
                    stream.flush()
                code = 0
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(code)
        theirs.close()
        self.sock = mine
        self.stream = mine.makefile("rw")

    def ask(self, message):
        self.stream.write(json.dumps(message) + "\n")
        self.stream.flush()
        answer = self.stream.readline()
        assert answer, "the child ended (its traceback is on stderr)"
        return json.loads(answer)

    def end(self) -> int:
        self.stream.close()
        self.sock.close()
        return os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])


def companion_work(state: Path):
    """The box: ``["lacorsa", n]`` plays n presses of a Lacorsa race (begun at the first),
    ``["dice", n]`` a new dice session, ``"stop"`` closes its journal; answers the last label."""
    box = {}

    def work(message):
        if message == "stop":
            box.pop("app").journal.close()
            box.pop("slug")
            return None
        slug, n = message
        if box.get("slug") != slug or "app" not in box:
            if "app" in box:
                box["app"].journal.close()
            box["app"], box["slug"] = race(state, slug, n), slug
        else:
            play(box["app"], slug, n)
        return box["app"].runner.history()[-1].label
    return work


def table_work(state: Path):
    """The table screen: ``"poll"`` answers what one poll shows (the newest action, whether
    the journal is read as it lies on the card); ``"write"`` tries to write and answers
    what stopped it."""
    follower = {}

    def work(message):
        if message == "poll":
            if "f" not in follower:
                follower["f"] = Follower(state)
            f = follower["f"]
            f.poll()
            return {"newest": (f.payload.get("history") or [None])[0], "problems": f.problems,
                    "immutable": f.journal is not None and f.journal.immutable}
        if message == "close":
            follower.pop("f").close()
            return None
        stopped = []
        db = sqlite3.connect(state / Journal.FILENAME)
        try:
            db.execute("DELETE FROM events")
            db.commit()
        except sqlite3.Error as exc:
            stopped.append(f"sqlite: {exc}")
        finally:
            db.close()
        for name in ("new-file", Journal.FILENAME):
            try:
                with open(state / name, "a"):
                    pass
            except PermissionError as exc:
                stopped.append(f"{name}: {exc.strerror}")
        return stopped
    return work


def warm_up(scratch: Path) -> None:
    """Everything the children will do, done once here: the modules they need are then
    imported before they fork (the interpreter's own directory may be closed to them)."""
    work = companion_work(scratch)
    work(["lacorsa", 10])
    follower = Follower(scratch)
    work(["lacorsa", 4])
    follower.poll()
    work("stop")
    follower.close()
    follower = Follower(scratch)
    work(["dice", 2])
    follower.poll()
    follower.close()
    work("stop")
    table_work(scratch)("write")


@pytest.fixture
def shared(tmp_path):
    """The box's state directory as systemd makes it (StateDirectoryMode=0750, owned by the
    companion), in a directory both users may pass through."""
    warm_up(tmp_path / "scratch")
    base = Path(tempfile.mkdtemp(prefix="race-companion-"))
    base.chmod(0o755)
    state = base / "race-companion"
    state.mkdir(mode=0o750)
    os.chown(state, COMPANION, COMPANION)
    yield state
    for path in sorted(base.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() and not path.is_symlink() else path.unlink()
    base.rmdir()


def test_the_table_screen_follows_a_race_with_read_access_only(shared):
    box = Child(COMPANION, [], UMASK, shared, companion_work(shared))
    table = Child(TABLE, [COMPANION], 0o077, shared, table_work(shared))
    try:
        # the box running (its -shm there, but read-only for the table): live, poll by poll
        label = box.ask(["lacorsa", 10])
        files = [Journal.FILENAME + suffix for suffix in ("", "-wal", "-shm")]
        assert {name: stat.S_IMODE((shared / name).stat().st_mode) for name in files} == dict.fromkeys(files, 0o640)
        assert stat.S_IMODE(shared.stat().st_mode) == 0o750
        seen = table.ask("poll")
        assert (seen["newest"], seen["immutable"], seen["problems"]) == (label, False, [])
        for n in (1, 1, 3):
            label = box.ask(["lacorsa", n])
            assert table.ask("poll")["newest"] == label          # the next poll has it
        # nothing it may write: not the journal, not a new file
        stopped = table.ask("write")
        assert len(stopped) == 3 and "readonly" in stopped[0] and "Permission denied" in stopped[1], stopped
        label = box.ask(["lacorsa", 1])
        assert table.ask("poll")["newest"] == label

        # the box off while the table screen reads: the -shm stays (the reader holds it),
        # and a table screen started now reads it with no writer to trust it
        box.ask("stop")
        assert table.ask("poll")["newest"] == label
        table.ask("close")
        assert (shared / (Journal.FILENAME + "-shm")).exists()
        seen = table.ask("poll")
        assert (seen["newest"], seen["problems"]) == (label, [])
        table.ask("close")

        # the box on and off again with nobody reading: no -shm left, read as it lies on the
        # card; and on again, a new race, which the table screen follows
        label = box.ask(["dice", 2])
        box.ask("stop")
        assert not (shared / (Journal.FILENAME + "-shm")).exists()
        seen = table.ask("poll")
        assert (seen["newest"], seen["immutable"]) == (label, True)
        label = box.ask(["dice", 1])
        seen = table.ask("poll")
        assert (seen["newest"], seen["immutable"]) == (label, False)
        label = box.ask(["dice", 1])
        assert table.ask("poll")["newest"] == label
        box.ask("stop")
    finally:
        assert table.end() == 0
        assert box.end() == 0
