"""``companion results`` and ``companion print results`` after races on the device."""

import os
import random
import subprocess
import sys
import time

from companion.app import App
from companion.cli import main
from companion.core.journal import Journal
from companion.devices.emulated import HeadlessDisplay


def race(state_dir, game="formula-de", end_early=False):
    with Journal(state_dir) as journal:
        app = App(journal=journal, display=HeadlessDisplay(), rng=random.Random(1),
                  printer_factory=lambda: None)
        players = [{"name": c, "colour": c} for c in ("Red", "Blue")]
        app.start_session("laps", {"game": game, "players": players, "length": 2, "count": "up", "timing": "off"})
        app.perform(app.moves()[0])                               # start
        app.perform(next(m for m in app.moves() if m.kind == "cross"))
        if end_early:
            app.end_session()
        else:
            while not app.runner.finished():
                app.perform(app.moves()[0])


def test_results_name_the_game_as_the_screens_do(state_dir, capsys):
    race(state_dir)
    race(state_dir)
    assert main(["results", "--state", str(state_dir)]) == 0
    out = capsys.readouterr().out
    season = f"{time.localtime().tm_year}-1"          # the first season, named by its year
    assert f"Last race: Lap counter, Formula Dé, race 2 of season {season}" in out
    assert f"Championship Lap counter, Formula Dé points, season {season}: 2 races" in out and "formula-de" not in out
    assert "race(s)" not in out


def test_print_results_finds_a_race_ended_early(state_dir, capsys, tmp_path):
    race(state_dir, end_early=True)
    out_dir = tmp_path / "png"
    assert main(["print", "results", "--state", str(state_dir), "--to", "png", "--out", str(out_dir)]) == 0
    assert "Printed 1 receipt to " in capsys.readouterr().out
    assert [p.name.split("-", 2)[-1] for p in out_dir.glob("*.png")] == ["results.png"]


def test_results_read_by_a_reader_that_stops_early_end_quietly(state_dir):
    race(state_dir)
    race(state_dir)
    cmd = [sys.executable, "-m", "companion.cli", "results", "--state", str(state_dir)]
    reader, writer = os.pipe()
    os.close(reader)              # `companion results | head -0`: nobody reads a line
    with os.fdopen(writer, "wb") as out:
        done = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, text=True, timeout=60)
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert done.returncode == 141


def test_results_say_which_races_are_put_aside_and_count_them_nowhere(state_dir, capsys):
    race(state_dir)
    with Journal(state_dir) as journal:
        app = App(journal=journal, display=HeadlessDisplay(), rng=random.Random(1), printer_factory=lambda: None)
        app.start_session("3-wide", {"players": 3})
        journal.put_aside()
    assert main(["results", "--state", str(state_dir)]) == 0
    out = capsys.readouterr().out
    assert "Put aside: 3-Wide (started " in out and "running" not in out
    assert f"Championship Lap counter, Formula Dé points, season {time.localtime().tm_year}-1: 1 race" in out
    assert main(["results", "--state", str(state_dir), "--json"]) == 0
    import json
    said = json.loads(capsys.readouterr().out)
    assert [s["activity"] for s in said["aside"]] == ["3-wide"] and said["running"] is None
