"""Reference data built once per test run, whatever the number of xdist workers.

``once_per_run(tmp_path_factory, "name", build)`` returns ``build()``'s result (anything
pickle keeps). The first worker to ask builds it while the others wait on a lock, then
each reads the copy it left in the run's temporary folder (shared by the workers; with
no workers the folder is the run's own). For reference races and other setups that take
seconds and come out the same for every worker."""

from __future__ import annotations

import fcntl
import os
import pickle


def once_per_run(tmp_path_factory, name: str, build):
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    kept = root / f"shared-{name}.pickle"
    with open(root / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            return pickle.loads(kept.read_bytes())
        value = build()
        part = kept.with_suffix(".part")
        part.write_bytes(pickle.dumps(value))
        part.replace(kept)
        return value
