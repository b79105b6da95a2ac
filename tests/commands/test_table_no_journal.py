"""`companion table` on a folder with no journal serves all the same and says so on
stderr; a port taken names the option of where it was started."""

import subprocess
import sys


def test_no_journal_is_said_on_stderr(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "table", "--state", str(empty),
                             "--port", "0", "--host", "127.0.0.1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "serving the table screen on" in proc.stdout.readline()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert f"companion table: no journal yet: the box has not started" in err and str(empty) in err


def test_a_taken_port_names_the_option_of_where_it_was_started(tmp_path):
    import os
    import socket
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        env = {**os.environ, "COMPANION_PORT_OPTION": "TABLE_PORT=8081 (make run TABLE_PORT=8081)"}
        done = subprocess.run([sys.executable, "-m", "companion.cli", "table", "--state", str(tmp_path),
                               "--port", str(port), "--host", "127.0.0.1"],
                              capture_output=True, text=True, env=env, timeout=30)
    finally:
        taken.close()
    assert done.returncode != 0
    assert "try TABLE_PORT=8081 (make run TABLE_PORT=8081)" in done.stderr and "try --port" not in done.stderr
