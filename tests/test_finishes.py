"""How each car ended its race (finished, out, did not start) is in every form of the record:
races.csv (``cars`` counts the cars: 8 for an 8-car 3-Wide race of 2 players, with
``players`` and ``out``), standings.csv, seasons.csv, the season's JSON, ``companion results
--season``/``--seasons`` and the box's season screen."""

import csv
import json

import pytest

from companion.cli import main
from companion.core.journal import Session
from companion.league import seasons
from tests.test_seasons import app_on

THREE_WIDE = [{"name": f"Car {n}", "position": n, "points": 10 - n, "player": "Anne" if n % 2 else "Bob"}
              for n in range(1, 9)]
PLAYERS = [{"name": "Anne", "position": 1, "points": 20}, {"name": "Bob", "position": 2, "points": 12}]
CUP = [{"name": "Anne", "position": 1, "points": 10, "status": "finished"},
       {"name": "Bob", "position": 2, "points": 0, "status": "out (crashed)"},
       {"name": "Cy", "position": 3, "points": 0, "status": "finished"}]
# Lacorsa's championship in one session: Bob did not start its first race
SEASON = [{"name": "Anne", "points": 18, "season": [{"position": 1, "points": 10}, {"position": 2, "points": 8}]},
          {"name": "Bob", "points": 8, "season": [None, {"position": 1, "points": 8}]}]


@pytest.fixture
def box(tmp_path):
    state = tmp_path / "box"
    state.mkdir()
    app, _ = app_on(state)
    for game, name in (("3-wide", "Oval"), ("formula-de", "GP"), ("lacorsa", "Cup")):
        seasons.start(app.journal, game, name)
    oval = Session(0, "3-wide", {}, {}, "3-wide", 1_795_000_000.0, 1_795_003_000.0,
                   {"standings": THREE_WIDE, "players": PLAYERS, "lap_chart": {"out": [["Car 5", 12]]}})
    gp = Session(0, "formula-de", {}, {}, "formula-de", 1_795_100_000.0, 1_795_103_000.0, {"standings": CUP})
    cup = Session(0, "lacorsa", {}, {}, "lacorsa", 1_795_200_000.0, 1_795_203_000.0, {"standings": SEASON})
    app.journal.add_finished_sessions([(oval, "r1", "Oval"), (gp, "r2", "GP"), (cup, "r3", "Cup")])
    return state, app


def read(path):
    return list(csv.DictReader(open(path, encoding="utf-8-sig")))


def test_the_spreadsheets_say_how_each_car_ended(box, tmp_path):
    state, app = box
    app.journal.close()
    out = tmp_path / "sheets"
    assert main(["results", "--state", str(state), "--csv", str(out)]) == 0
    races = {(r["season"], r["number"]): r for r in read(out / "races.csv")}
    oval = races[("Oval", "1")]
    assert (oval["cars"], oval["players"], oval["out"], oval["did_not_start"]) == ("8", "2", "1", "0")
    assert [(r["cars"], r["players"], r["out"], r["did_not_start"]) for k, r in races.items() if k[0] != "Oval"] == \
        [("3", "3", "1", "0"), ("2", "1", "0", "1"), ("2", "2", "0", "0")]
    table = {(r["season"], r["name"]): (r["races"], r["finished"], r["out"], r["did_not_start"])
             for r in read(out / "seasons.csv")}
    assert [table[("GP", n)] for n in ("Anne", "Bob", "Cy")] == [("1", "1", "0", "0"), ("1", "0", "1", "0"),
                                                                 ("1", "1", "0", "0")]
    assert [table[("Cup", n)] for n in ("Anne", "Bob")] == [("2", "2", "0", "0"), ("1", "1", "0", "1")]
    assert read(out / "seasons.csv")[0].keys() >= {"finished", "out", "did_not_start"}


def test_the_season_json_and_the_command_line_say_it(box, capsys):
    state, app = box
    app.journal.close()
    assert main(["results", "--state", str(state), "--season", "Cup", "--json"]) == 0
    season = json.loads(capsys.readouterr().out)["season"]
    assert {r["name"]: (r["finished"], r["out"], r["did_not_start"]) for r in season["standings"]} == \
        {"Anne": (2, 0, 0), "Bob": (1, 0, 1)}
    assert (season["out"], season["did_not_start"]) == (0, 1)
    assert main(["results", "--state", str(state), "--season", "GP"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[1].split() == ["pts", "races", "out", "DNS"]
    assert [line.split() for line in text[2:5]] == [["1.", "Anne", "10", "1", "0", "0"],
                                                    ["2.", "Bob", "0", "1", "1", "0"],
                                                    ["3.", "Cy", "0", "1", "0", "0"]]
    assert main(["results", "--state", str(state), "--seasons", "--championship", "lacorsa"]) == 0
    assert "(1 did not start)" in capsys.readouterr().out
    assert main(["results", "--state", str(state), "--seasons", "--json", "--championship", "formula-de"]) == 0
    assert json.loads(capsys.readouterr().out)["seasons"][-1]["out"] == 1


def test_the_box_season_screen_says_it(box):
    """The box's club shows the newest race's game (Lacorsa here): Bob missed a race."""
    from companion.kit.text import LINE_CHARS
    _, app = box
    lines = app.club().season_lines("Cup")
    assert "Bob: 1 DNS" in lines and not any(line.startswith("Anne:") for line in lines)
    assert all(len(line) <= LINE_CHARS for line in lines)
