"""A Lacorsa championship (7 races in one session) on the device's championship print:
the season's races, as the companion counts them everywhere, never one race ``R1``."""

import json
import random
import time

from companion.league import ledger, onscreen, paper, seasons
from companion.app import App
from companion.cli import main
from companion.core.journal import Journal
from companion.devices.emulated import HeadlessDisplay
from companion.receipts.model import Picture
from tests.receipts.test_emupos import interpret, needs_emupos, printed
from tests.table import PaperTray

COLOURS = ("Red", "Blue", "Green", "Yellow")


def play(app, championship=True, names=COLOURS):
    players = [{"name": n, "colour": c, "driver": "auto", "level": "racer"} for n, c in zip(names, COLOURS)]
    app.start_session("lacorsa", {"players": players, "championship": championship})
    while not app.runner.finished():
        app.perform(app.moves()[0])


def season(state_dir):
    """A finished 7-race championship in the journal: (app, its standings as results.json keeps them)."""
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), printer=PaperTray(), rng=random.Random(3))
    play(app)
    return app, ledger.last_finished(app.journal).results["standings"]


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
    lines = paper.championship_receipt(app.journal, now=0.0).text_lines()
    assert lines[2] == "After 7 races"
    assert " # Car        1 2 3 4 5 6 7  Pts" in lines
    assert "Key: 1-7 = place in each race," in lines
    assert not any("R1" in line for line in lines)
    assert table_rows(lines) == {r["name"]: (r["races"], r["points"]) for r in standings}
    assert all(len(line) <= 32 for line in lines)


def test_the_chart_follows_the_seasons_races(state_dir):
    app, standings = season(state_dir)
    receipt = paper.championship_receipt(app.journal, now=0.0)
    (chart,) = [i for i in receipt.items if isinstance(i, Picture)]
    spec = chart.chart()
    points = app.runner.state.settings.points
    after = {r["name"]: [sum(points[p - 1] if p <= len(points) else 0 for p in r["races"][:k]) for k in range(8)]
             for r in standings}
    assert dict(zip(spec["names"], spec["points"])) == after
    assert [p[-1] for p in spec["points"]] == [r["points"] for r in seasons.shown_table(app.journal)[1]]


def test_a_race_after_the_season_is_race_8(state_dir):
    app, _ = season(state_dir)
    assert onscreen.championship_lines(app.journal)[0] == "Lacorsa: 7 races"
    play(app, championship=False)
    lines = paper.last_results_receipt(app.journal).text_lines()
    assert f"Lacorsa {seasons.current(app.journal, 'lacorsa').name}, race 8" in lines
    print_lines = paper.championship_receipt(app.journal, now=0.0).text_lines()
    assert print_lines[2] == "After 8 races"
    assert " # Car      1 2 3 4 5 6 7 8  Pts" in print_lines


def test_a_one_off_race_is_no_championship_race(state_dir):
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), printer=PaperTray(), rng=random.Random(3))
    play(app, championship=False)
    assert not any("championship" in line.lower() or "race 1" in line
                   for line in paper.last_results_receipt(app.journal).text_lines())
    assert paper.championship_receipt(app.journal, now=0.0).text_lines()[2] == "After 1 race"


def test_results_command_counts_the_seasons_races(state_dir, capsys):
    app, _ = season(state_dir)
    app.journal.close()
    assert main(["results", "--state", str(state_dir), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["championship"]["races"] == 7
    assert main(["results", "--state", str(state_dir)]) == 0
    out = capsys.readouterr().out
    assert "Last season: Lacorsa, races 1-7 of its championship" in out
    assert f"Championship Lacorsa, season {time.localtime().tm_year}-1: 7 races" in out


@needs_emupos
def test_the_printed_bytes_carry_the_seasons_races(state_dir, tmp_path, capsys):
    app, standings = season(state_dir)
    app.journal.close()
    out = tmp_path / "paper"
    assert main(["print", "championship", "--state", str(state_dir), "--to", "png", "--out", str(out)]) == 0
    (data,) = out.glob("*-championship.bin")
    result = interpret(data.read_bytes())
    assert result["unknown"][0]["bytes"] == "1b 37"      # the heat settings: unknown to a strict Epson
    (text,) = result["receipts"]
    lines = printed(text)
    assert "After 7 races" in lines and "# Car        1 2 3 4 5 6 7  Pts" in lines
    assert table_rows(lines) == {r["name"]: (r["races"], r["points"]) for r in standings}
    assert any(line.startswith("[image 384x") for line in lines)     # the points after each race


def test_a_season_that_does_not_add_up_counts_as_one_race(state_dir):
    """Results whose races do not add up to their totals are not split into races that
    would change the standings: the session counts as one race, as it did."""
    def row(pos, name, points, season):
        return {"position": pos, "name": name, "points": points, "season": season}

    kept = {"standings": [row(1, "Red", 18, [{"position": 1, "points": 10}, {"position": 2, "points": 8}]),
                          row(2, "Blue", 18, [{"position": 2, "points": 8}, {"position": 1, "points": 10}])]}
    broken = {"standings": [row(1, "Red", 30, [{"position": 1, "points": 10}, {"position": 2, "points": 8}]),
                            row(2, "Blue", 18, [{"position": 2, "points": 8}, {"position": 1, "points": 10}])]}
    with Journal(state_dir) as journal:
        for results in (kept, broken):
            sid = journal.start_session("lacorsa", {"championship": True}, {}, championship="lacorsa")
            journal.finish_session(sid, results)
        lines = paper.championship_receipt(journal, now=0.0).text_lines()
        assert lines[2] == "After 3 races"
        assert [line.split() for line in lines if line[:3].strip().isdigit()] == [
            ["1", "Red", "1", "2", "1", "48"], ["2", "Blue", "2", "1", "2", "36"]]


def test_two_players_with_two_cars_each_get_their_totals_on_the_print(state_dir):
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), printer=PaperTray(), rng=random.Random(5))
    play(app, names=("Bartholomew", "Ann"))
    standings = ledger.last_finished(app.journal).results["standings"]
    lines = paper.championship_receipt(app.journal, now=0.0).text_lines()
    at = lines.index("Players")
    assert lines[at + 1] == " # Player                    Pts"
    totals = {}
    for r in standings:
        totals[r["player"]] = totals.get(r["player"], 0) + r["points"]
    assert {line.split()[1]: int(line.split()[2]) for line in lines[at + 2:at + 4]} == totals
    assert lines[at + 4:at + 6] == ["Key: Pts = points of the", "player's cars"]
    cars = [line.split()[1:3] for line in lines[:at] if line[:3].strip().isdigit()]
    assert sorted(cars) == [["Ann", "1"], ["Ann", "2"], ["Barthol", "1"], ["Barthol", "2"]]   # the numbers kept
