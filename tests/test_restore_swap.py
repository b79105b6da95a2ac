"""A restore stopped between any two of its steps (the process killed, as a power cut
would) never leaves the card without a whole journal: the next start finishes the swap or
takes it back, and the journal is the old one or the restored one, never an empty one.

The restore runs in a child process that ends itself (``os._exit``, no clean-up) at one
named step of ``companion.core.swap.put_in_place``; both ways of swapping are stopped at
each of their steps: the atomic exchange (``renameat2``) and, where a file system cannot
exchange, a second name then one rename."""

import subprocess
import sys

import pytest

from companion.core import backup, swap
from companion.core.journal import Journal
from tests.table import make_app, press

LAPS = {"game": "none", "length": 1, "count": "up", "timing": "off",
        "players": [{"name": "Ann", "colour": "Red"}, {"name": "Bob", "colour": "Blue"}]}

CHILD = """
import os, sys
from pathlib import Path
from companion.core import backup, swap
stop, exchange = sys.argv[3], sys.argv[4] == "exchange"
swap._step = lambda name: os._exit(9) if name == stop else None
if not exchange:
    swap._exchange = lambda a, b: False
backup.restore(Path(sys.argv[1]), Path(sys.argv[2]))
os._exit(0)
"""


def finished_races(state, n: int) -> None:
    app = make_app(state)
    for _ in range(n):
        app.start_session("laps", LAPS)
        while app.moves():
            press(app, "GO")
        press(app, "OK")
    app.journal.close()


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("swap")
    finished_races(root / "new", 2)
    stick = root / "stick"
    stick.mkdir()
    copy, _ = backup.back_up(root / "new" / Journal.FILENAME, stick)
    return copy


def count(state) -> int:
    with Journal(state) as journal:
        return len(journal.sessions(finished=True))


@pytest.mark.parametrize("way,stop", [
    ("exchange", "marked"), ("exchange", "exchanged"), ("exchange", "swapped"), ("exchange", "done"),
    ("link", "marked"), ("link", "linked"), ("link", "swapped"), ("link", "done"),
    ("exchange", "never")])
def test_a_restore_stopped_at_any_step_leaves_a_whole_journal(made, tmp_path, way, stop):
    state = tmp_path / "state"
    finished_races(state, 1)                      # the journal on the card: one race
    child = subprocess.run([sys.executable, "-c", CHILD, str(made), str(state), stop, way],
                           capture_output=True, text=True, timeout=60)
    assert child.returncode == (0 if stop == "never" else 9), child.stderr
    swapped = stop not in ("marked", "linked")
    assert count(state) == (2 if swapped else 1)  # the restored one, or the old one: whole
    assert not (state / swap.MARKER).exists() and not (state / swap.PART).exists()
    kept = sorted(state.glob(f"{Journal.FILENAME}.replaced-*[0-9]"))
    if swapped:                                   # the journal it replaced is kept, whole
        assert len(kept) == 1
        replaced = tmp_path / "replaced"
        replaced.mkdir()
        (replaced / Journal.FILENAME).write_bytes(kept[0].read_bytes())
        assert count(replaced) == 1
    else:
        assert kept == []
    problems = state / "journal-problems.txt"
    said = problems.read_text() if problems.exists() else ""
    assert "lost history" not in said
    if stop != "never":
        assert "restore cut short" in said


def test_the_file_system_here_exchanges_atomically(tmp_path):
    """The swap this machine's tests stop is the atomic exchange, not only the fallback."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("a")
    b.write_text("b")
    if not swap._exchange(a, b):
        pytest.skip("this file system cannot exchange two names")
    assert (a.read_text(), b.read_text()) == ("b", "a")
