import compileall
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


@pytest.fixture
def state_dir(tmp_path):
    d = tmp_path / "state"
    d.mkdir()
    return d


def pytest_configure(config):
    """Compile the companion's bytecode once, before the workers start: the tests start
    the companion as a process hundreds of times (the power-loss tests), and with
    PYTHONDONTWRITEBYTECODE set each start would compile every module again."""
    if not hasattr(config, "workerinput"):
        compileall.compile_dir(ROOT / "companion", quiet=2)


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: two workers per core. Much of the suite waits rather than computes (a
    simulated printer prints at paper speed, the power-loss tests wait for the moment to
    cut), so a second worker per core keeps the cores busy meanwhile."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return 2 * cores
