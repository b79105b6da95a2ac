"""bench/peak_rss.py: a command's peak RSS, not the size of the process that measures it."""

import subprocess
import sys

from tests.conftest import ROOT

MEASURE = ROOT / "bench" / "peak_rss.py"


def test_a_small_command_is_not_charged_the_size_of_a_large_measurer(tmp_path):
    out = tmp_path / "peak.kb"
    large = bytearray(200 * 1024 * 1024)          # this test's process: over 200 MB resident
    large[::4096] = b"x" * len(large[::4096])
    done = subprocess.run([sys.executable, str(MEASURE), str(out), "--", sys.executable, "-c", "pass"])
    assert done.returncode == 0
    assert 1_000 < int(out.read_text()) < 100 * 1024     # kB: a bare Python, not the 200 MB above
    del large


def test_the_commands_exit_code_is_passed_on(tmp_path):
    out = tmp_path / "peak.kb"
    done = subprocess.run([sys.executable, str(MEASURE), str(out), "--", sys.executable, "-c", "raise SystemExit(3)"])
    assert done.returncode == 3 and int(out.read_text()) > 0
