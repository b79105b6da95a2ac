import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# No property test is judged on the wall clock: an example that a loaded machine (or a
# paused virtual machine) makes slow is not a failing one. Every test's own @settings
# starts from this profile.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

# Bytecode is kept while testing, whatever PYTHONDONTWRITEBYTECODE says: every worker
# imports the test modules (pytest rewrites their asserts, 3 s a worker when nothing is
# kept) and the tests start the companion as a process hundreds of times (0.1 s of
# compiling each). Set here, before the test modules are imported, for this process and
# the processes it starts; the files are ignored by git.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


@pytest.fixture
def state_dir(tmp_path):
    d = tmp_path / "state"
    d.mkdir()
    return d


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: two workers per core. Much of the suite waits rather than computes (a
    simulated printer prints at paper speed, the power-loss tests wait for the moment to
    cut), so a second worker per core keeps the cores busy meanwhile."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return 2 * cores
