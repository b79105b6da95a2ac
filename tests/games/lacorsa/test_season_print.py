"""A Lacorsa championship (7 races in one session) on the device's championship print:
the season's races, as the companion counts them everywhere, never one race ``R1``."""

import json
import random

from companion import results as res
from companion.app import App
from companion.cli import main
from companion.core.journal import Journal
from companion.devices.display import HeadlessDisplay
from companion.receipts.model import Picture
from tests.table import PaperTray

COLOURS = ("Red", "Blue", "Green", "Yellow")


def play(app, championship=True):
    players = [{"name": c, "colour": c, "driver": "auto", "level": "racer"} for c in COLOURS]
    app.start_session("lacorsa", {"players": players, "championship": championship})
    while not app.runner.finished():
        app.perform(app.moves()[0])


def season(state_dir):
    """A finished 7-race championship in the journal: (app, its standings as results.json keeps them)."""
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), printer=PaperTray(), rng=random.Random(3))
    play(app)
    return app, res.last_finished(app.journal).results["standings"]


def table_rows(lines):
    """The championship table's rows: name -> (places, points)."""
    out = {}
    for line in lines:
        cells = line.split()
        if cells and cells[0].isdigit() and len(cells) == 10:
            out[cells[1]] = ([int(c) for c in cells[2:9]], int(cells[9]))
    return out


def test_the_print_shows_every_race_of_the_season(state_dir):
    app, standings = season(state_dir)
    lines = res.championship_receipt(app.journal, now=0.0).text_lines()
    assert lines[2] == "After 7 races"
    assert " # Car        1 2 3 4 5 6 7  Pts" in lines
    assert "Key: 1-7 = place in each race," in lines
    assert not any("R1" in line for line in lines)
    assert table_rows(lines) == {r["name"]: (r["races"], r["points"]) for r in standings}
    assert all(len(line) <= 32 for line in lines)


def test_the_chart_follows_the_seasons_races(state_dir):
    app, standings = season(state_dir)
    receipt = res.championship_receipt(app.journal, now=0.0)
    (chart,) = [i for i in receipt.items if isinstance(i, Picture)]
    spec = chart.chart()
    points = app.runner.state.settings.points
    after = {r["name"]: [sum(points[p - 1] if p <= len(points) else 0 for p in r["races"][:k]) for k in range(8)]
             for r in standings}
    assert dict(zip(spec["names"], spec["points"])) == after
    assert [p[-1] for p in spec["points"]] == [r["points"] for r in res.standings(app.journal)[1]]


def test_a_race_after_the_season_is_race_8(state_dir):
    app, _ = season(state_dir)
    assert res.championship_lines(app.journal)[0] == "Lacorsa: 7 races"
    play(app, championship=False)
    lines = res.last_results_receipt(app.journal).text_lines()
    assert "Lacorsa championship, race 8" in lines
    print_lines = res.championship_receipt(app.journal, now=0.0).text_lines()
    assert print_lines[2] == "After 8 races"
    assert " # Car      1 2 3 4 5 6 7 8  Pts" in print_lines


def test_a_one_off_race_is_no_championship_race(state_dir):
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), printer=PaperTray(), rng=random.Random(3))
    play(app, championship=False)
    assert not any("championship" in line.lower() or "race 1" in line
                   for line in res.last_results_receipt(app.journal).text_lines())
    assert res.championship_receipt(app.journal, now=0.0).text_lines()[2] == "After 1 race"


def test_results_command_counts_the_seasons_races(state_dir, capsys):
    app, _ = season(state_dir)
    app.journal.close()
    assert main(["results", "--state", str(state_dir), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["championship"]["races"] == 7
    assert main(["results", "--state", str(state_dir)]) == 0
    assert "Championship Lacorsa: 7 races" in capsys.readouterr().out
