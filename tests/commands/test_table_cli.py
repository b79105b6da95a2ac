"""``companion table``: serves alone, says where at start, and stands aside when the
pinout switches it off (what the service runs)."""

import json
import subprocess
import sys
import urllib.request

from tests.tablescreen.conftest import race


def test_serves_the_state_directory_and_prints_its_address(state_dir):
    race(state_dir, "dice", 2)
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "table", "--state", str(state_dir),
                             "--host", "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("companion table: serving the table screen on http://127.0.0.1:")
        url = line.split(" on ", 1)[1].strip()
        with urllib.request.urlopen(url + "state.json", timeout=30) as reply:
            assert json.load(reply)["activity"] == "dice"
    finally:
        proc.terminate()
        proc.wait(10)


def test_switched_off_in_the_pinout_it_does_nothing(state_dir, tmp_path):
    from companion.paths import REPO
    pinout = tmp_path / "pinout.toml"
    pinout.write_text((REPO / "hardware" / "pinout.toml").read_text().replace("enabled = true", "enabled = false"))
    done = subprocess.run([sys.executable, "-m", "companion.cli", "table", "--if-enabled", "--pinout", str(pinout),
                           "--state", str(state_dir)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and "switched off" in done.stderr


def test_a_bad_port_in_the_pinout_is_named(state_dir, tmp_path):
    from companion.paths import REPO
    pinout = tmp_path / "pinout.toml"
    pinout.write_text((REPO / "hardware" / "pinout.toml").read_text().replace("port = 8080", "port = 99999"))
    done = subprocess.run([sys.executable, "-m", "companion.cli", "table", "--pinout", str(pinout),
                           "--state", str(state_dir)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "table.port: must be a port number from 1 to 65535" in done.stderr
