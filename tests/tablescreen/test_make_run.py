"""`make run` (the README's Quick start) serves, on the table screen, the race of the state
directory the companion runs on: `--state DIR` in ARGS, or the default one. The real make
target in the terminal display on a pseudo-terminal (no window), the address read from
what it prints first, the race asked of that address, and `q` to quit."""

import fcntl
import json
import os
import pty
import re
import select
import shutil
import socket
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.tablescreen.conftest import race
from tests.tablescreen.test_server import WAIT_S, get
from tests.zbar import decode, needs_zbar

REPO = Path(__file__).resolve().parents[2]
VENV = Path(sys.prefix)
ADDRESS = re.compile(rb"serving the table screen on http://[^/\s]+:(\d+)/")

needs_make = pytest.mark.skipif(
    shutil.which("make") is None or not (VENV / "bin" / "companion").exists(),
    reason="needs make, and the tests running in a venv")


class MakeRun:
    """`make run` on a pseudo-terminal of 130x35 characters; ``port`` is the table screen's."""

    def __init__(self, args: str, env: dict):
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 35, 130, 0, 0))
        # -o: the venv the tests run in counts as set up (make never reinstalls it here)
        self.proc = subprocess.Popen(
            ["make", "--no-print-directory", "-o", f"{VENV}/.installed", f"VENV={VENV}", "run",
             f"ARGS={args}", "TABLE_PORT=0"],
            cwd=REPO, stdin=slave, stdout=slave, stderr=slave, env={**env, "TERM": "xterm"},
            start_new_session=True)
        os.close(slave)
        self.out = b""
        deadline = time.monotonic() + WAIT_S * 2
        while not ADDRESS.search(self.out):
            assert self.proc.poll() is None and time.monotonic() < deadline, self.out.decode(errors="replace")
            if select.select([self.master], [], [], 1)[0]:
                self.out += os.read(self.master, 65536)
        self.port = int(ADDRESS.search(self.out)[1])

    def quit(self) -> int:
        """Press q until the companion has quit (a q typed before the terminal display has
        set the terminal up is flushed with what else was typed ahead), and wait for make."""
        deadline = time.monotonic() + WAIT_S * 2
        while self.proc.poll() is None and time.monotonic() < deadline:
            os.write(self.master, b"q")
            try:
                while select.select([self.master], [], [], 0.5)[0]:
                    self.out += os.read(self.master, 65536)
            except OSError:                              # the terminal closed: everyone has gone
                break
        try:
            return self.proc.wait(WAIT_S)
        finally:
            os.close(self.master)

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, 9)
            self.proc.wait()


@pytest.fixture
def env(tmp_path):
    """No state of the user's: the default state directory is an empty one of the test."""
    default = tmp_path / "default-state"
    default.mkdir()
    return {**os.environ, "COMPANION_STATE": str(default), "XDG_STATE_HOME": str(tmp_path / "xdg")}


@needs_make
@pytest.mark.parametrize("where", ["--state DIR", "the default state"])
def test_make_run_serves_the_race_of_its_state_on_the_table_screen(tmp_path, env, where):
    state = tmp_path / "club-night"
    if where == "the default state":
        state, args = Path(env["COMPANION_STATE"]), "--hardware terminal"
    else:
        args = f"--hardware terminal --state {state}"
    app = race(state, "lacorsa", 12)
    newest = app.runner.history()[-1].label
    app.journal.close()
    run = MakeRun(args, env)
    try:
        payload = json.loads(get(run.port, "/state.json")[2])
        assert payload["problems"] == [] and payload["activity"] == "lacorsa"
        assert payload["history"][0] == newest
        assert run.quit() == 0, run.out.decode(errors="replace")
    finally:
        run.kill()
    with pytest.raises(ConnectionRefusedError):           # the table screen stopped with it
        socket.create_connection(("127.0.0.1", run.port), timeout=WAIT_S).close()


def test_a_table_port_without_the_table_screen_is_one_line(capsys):
    from companion.cli import main
    assert main(["run", "--table-port", "8081", "--hardware", "headless"]) == 2
    assert capsys.readouterr().err == "companion run: --table-port is the port of --table: give both, or neither\n"


@needs_zbar
def test_the_pause_menus_qr_code_leads_to_the_table_screen_beside_it(tmp_path):
    """On another port than the pinout's (TABLE_PORT=0: any free one), the pause menu's QR
    code still leads to the table screen `companion run --table` started."""
    from PIL import Image


    state = tmp_path / "state"
    race(state, "lacorsa", 12).journal.close()          # a race open: run resumes it
    done = subprocess.run(
        [str(VENV / "bin" / "companion"), "run", "--table", "--table-port", "0", "--hardware", "headless",
         "--state", str(state), "--keys", "BACK UP UP OK"],   # the pause menu, Table screen (before Main menu)
        capture_output=True, text=True, timeout=WAIT_S * 4)
    assert done.returncode == 0, done.stderr
    served = re.search(r"serving the table screen on (\S+)", done.stdout)[1]
    assert not served.endswith(":8080/")
    newest = max((state / "frames").glob("*.png"), key=lambda p: p.stat().st_mtime_ns)
    assert decode(Image.open(newest), tmp_path / "qr.png") == served
