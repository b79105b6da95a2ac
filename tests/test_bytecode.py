"""``python -m companion.bytecode`` (run by firmware/install.sh) leaves nothing for the
first start to compile: a whole demo race after it writes no bytecode of its own. The
compiler's memory on a first start is what took the peak RSS over its budget
(bench/run.py measures the peak)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_first_start_after_install_compiles_nothing(tmp_path):
    prefix = tmp_path / "pycache"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPYCACHEPREFIX=str(prefix), PYTHONHASHSEED="0")
    done = subprocess.run([sys.executable, "-m", "companion.bytecode"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("bytecode ready for ") and f" in {prefix}" in done.stdout
    compiled = {p.relative_to(prefix) for p in prefix.rglob("*.pyc")}
    assert any(str(p).endswith("companion/app.cpython-%d%d.pyc" % sys.version_info[:2]) for p in compiled)
    demo = subprocess.run([sys.executable, "-m", "companion.cli", "demo", "--game", "top-speed",
                           "--out", str(tmp_path / "demo")], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert demo.returncode == 0, demo.stderr
    written = {p.relative_to(prefix) for p in prefix.rglob("*.pyc")} - compiled
    assert written == set(), sorted(map(str, written))[:20]
