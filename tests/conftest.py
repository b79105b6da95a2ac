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


def _ram_disk() -> str | None:
    """A RAM disk for the tests' temporary files, when the machine has one with room (and
    no folder was asked for): each event the companion writes is an fsync of its journal,
    and on a disk the suite spent more time waiting on those than computing (measured on
    the race-playing tests: 90 s on disk, 57 s on /dev/shm). The files are the same files;
    only a real power cut, which no test can make, would tell the two apart."""
    if os.environ.get("PYTEST_DEBUG_TEMPROOT") or not os.path.isdir("/dev/shm"):
        return None
    try:
        free = os.statvfs("/dev/shm")
    except OSError:
        return None
    if free.f_bavail * free.f_frsize < 4 * 2**30 or not os.access("/dev/shm", os.W_OK):
        return None
    if free.f_flag & getattr(os, "ST_NOEXEC", 0):     # the tests run scripts they write there
        return None
    return "/dev/shm"


if (_fast_temp := _ram_disk()) is not None:
    os.environ["PYTEST_DEBUG_TEMPROOT"] = _fast_temp    # pytest's tmp_path, in every worker
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

# Bytecode is kept while testing, whatever PYTHONDONTWRITEBYTECODE says: every worker
# imports the test modules (pytest rewrites their asserts, 3 s a worker when nothing is
# kept) and the tests start the companion as a process hundreds of times (0.1 s of
# compiling each). Set here, before the test modules are imported, for this process and
# the processes it starts; the files are ignored by git.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)



def pytest_sessionstart(session):
    """On a fresh checkout, the test modules are rewritten once, here, before the workers
    start: pytest rewrites each test module's asserts on import and keeps the result
    beside it, and six workers starting at once each did all 190 of them (33 CPU-s, 17 s
    of a run on 2 cores). Kept bytecode that is up to date is left as it is."""
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    import importlib

    tag = f"{sys.implementation.cache_tag}-pytest-{pytest.__version__}.pyc"
    for source in sorted((ROOT / "tests").rglob("test_*.py")):
        kept = source.parent / "__pycache__" / f"{source.stem}.{tag}"
        if kept.exists() and kept.stat().st_mtime >= source.stat().st_mtime:
            continue
        if not (source.parent / "__init__.py").exists():
            continue
        try:
            importlib.import_module(".".join(source.relative_to(ROOT).with_suffix("").parts))
        except Exception:      # the workers' collection reports it, as it would have anyway
            pass

@pytest.fixture
def state_dir(tmp_path):
    d = tmp_path / "state"
    d.mkdir()
    return d


@pytest.fixture(scope="session")
def emupos_or_skip():
    """Skips the test when emupos (Python 3.13) is not found (``needs_emupos`` of
    tests/receipts/test_emupos.py, used by the receipts' tests in several folders)."""
    from tests.receipts.test_emupos import emupos_python
    if emupos_python() is None:
        pytest.skip("emupos (Python 3.13) not found: set EMUPOS_PYTHON or create "
                    "~/.cache/race-companion/emupos-venv (see tests/receipts/test_emupos.py)")


@pytest.fixture(scope="session")
def starter():
    """The power-cut tests' fork server (tests/forkstart.py): one for the test process, so
    that each file of them does not pay again for its imports (half a second a file)."""
    from tests.forkstart import Forkstart
    with Forkstart() as server:
        yield server


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: three workers per core. Much of the suite waits rather than computes (a
    simulated printer prints at paper speed: 120 s of waiting for 3 s of CPU; the
    power-loss tests wait for the moment to cut), so more workers than cores keep the
    cores busy meanwhile (on 2 cores: 145 s with 4 workers, 141 s with 5, 134 s with 6)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return 3 * cores


# The tests that take longest, with their share of a run (seconds on a loaded 2-core
# machine; only their order matters). Under xdist each worker is first handed an equal
# slice of the collection and the idle ones then take from the others' queues, so a long
# test left at the end of a slice is one the whole run waits for alone. These go to the
# heads of the slices instead, shared out so that each slice starts with about the same
# load (longest first); everything else keeps its order. Matched by the start of the id.
# A test that reads what a longer one builds once per run (tests/shared.py: a demo's folder,
# the events of a conformance play) is left in its order: at the head of a slice it would
# wait for the other one, or build it a second time.
LONG_TESTS = {
    "tests/appliance/test_chroot_install.py::": 80,    # where it runs: as root, with debootstrap
    "tests/test_bytecode.py::test_first_start_after_install_compiles_nothing": 24,
    "tests/test_power_loss.py::test_sigkill_at_random_points[street-illegal-": 18,
    "tests/test_power_loss.py::test_sigkill_at_random_points[dice-": 13,
    "tests/test_conformance.py::test_the_demo_runs_through_the_whole_stack[formula-de]": 16,
    "tests/commands/test_backup_cli.py::test_a_backup_taken_while_races_are_written_is_consistent": 12,
    "tests/test_conformance.py::test_the_demo_runs_through_the_whole_stack[3-wide]": 12,
    "tests/test_conformance.py::test_the_demo_runs_through_the_whole_stack[top-speed]": 11,
    "tests/core/test_gamedata.py::test_malformed_owner_toml_is_always_a_config_error": 8,
    "tests/devices/test_pinout_fuzz.py::test_mangled_shipped_file": 7,
    "tests/core/test_gamedata.py::test_mutated_data_is_checked_or_refused": 7,
}


def long_test_weight(nodeid: str) -> float:
    return next((s for prefix, s in LONG_TESTS.items() if nodeid.startswith(prefix)), 0)


def pytest_collection_modifyitems(config, items):
    workers = getattr(config, "workerinput", {}).get("workercount", 0)
    if workers < 2:     # (a worker's config says "no" for --dist; the suite's own is worksteal)
        return
    long_items = sorted((i for i in items if long_test_weight(i.nodeid)), key=lambda i: -long_test_weight(i.nodeid))
    if not long_items:
        return
    rest = [i for i in items if not long_test_weight(i.nodeid)]
    # the slices xdist's worksteal scheduler cuts first: each idle worker takes an even
    # share of what is left
    sizes, left = [], len(items)
    for k in range(workers):
        sizes.append(left // (workers - k))
        left -= sizes[-1]
    heads: list[list] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for item in long_items:
        open_slices = [k for k in range(workers) if len(heads[k]) < sizes[k]]
        k = min(open_slices, key=lambda k: load[k])
        heads[k].append(item)
        load[k] += long_test_weight(item.nodeid)
    ordered, rest_at = [], 0
    for k in range(workers):
        take = sizes[k] - len(heads[k])
        ordered += heads[k] + rest[rest_at:rest_at + take]
        rest_at += take
    assert len(ordered) == len(items)
    items[:] = ordered
