"""Reference data built once per test run, whatever the number of xdist workers.

``once_per_run(tmp_path_factory, "name", build)`` returns ``build()``'s result (anything
pickle keeps). The first worker to ask builds it while the others wait on a lock, then
each reads the copy it left in the run's temporary folder (shared by the workers; with
no workers the folder is the run's own). For reference races and other setups that take
seconds and come out the same for every worker.

``demo_of(tmp_path_factory, slug)``: ``companion demo --game SLUG`` run once per test
run, for every test that reads what a demo wrote."""

from __future__ import annotations

import fcntl
import os
import pickle
from pathlib import Path


def run_folder(tmp_path_factory) -> Path:
    """The run's temporary folder: shared by its xdist workers."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once_per_run(tmp_path_factory, name: str, build):
    root = run_folder(tmp_path_factory)
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


def demo_of(tmp_path_factory, slug: str) -> tuple[int, Path, list[str]]:
    """``companion demo --game SLUG --out DIR`` as a user runs it, once per test run:
    its exit code, DIR (frames, receipts, results.json, cues.jsonl: to read, not to
    change) and the texts the display cut on any frame the app showed (titles, bodies,
    footers and moves)."""
    out = run_folder(tmp_path_factory) / f"demo-{slug}"

    def build() -> tuple[int, list[str]]:
        import pytest

        from companion.app import App
        from companion.cli import main
        from companion.ui.render import cut_texts

        cut: set[str] = set()
        frame = App.frame

        def recorded(app):
            view = frame(app)
            cut.update(cut_texts(view, footer=True))
            return view

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(App, "frame", recorded)
            code = main(["demo", "--game", slug, "--out", str(out)])
        return code, sorted(cut)

    code, cut = once_per_run(tmp_path_factory, f"demo-{slug}", build)
    return code, out, cut
