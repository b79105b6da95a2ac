"""``companion results`` for the club: seasons, their JSON (docs/results-schema.md) and the
spreadsheet files, read back as a spreadsheet reads them."""

import csv
import json
from datetime import datetime

from companion.cli import main
from companion.core.journal import Journal
from tests.test_record import club
from tests.test_seasons import GAME, TOP_SPEED


def test_seasons_are_listed_and_a_past_one_shown(state_dir, capsys):
    app, _ = club(state_dir)
    first = app.journal.sessions()[0]
    year = datetime.fromtimestamp(first.started).year
    assert main(["results", "--state", str(state_dir), "--seasons", "--championship", GAME]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Seasons of Lap counter, Formula Dé points:", f"  {year}-1, 3 races  won by Anne (26)", "  Cup, 2 races  led by Anne (20)  (current)"]
    assert main(["results", "--state", str(state_dir), "--season", f"{year}-1", "--championship", GAME]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"Lap counter, Formula Dé points season {year}-1, 3 races" and out[2].split()[:3] == ["1.", "Anne", "26"]
    assert main(["results", "--state", str(state_dir), "--season", "cup"]) == 0    # the one game that has it
    assert capsys.readouterr().out.startswith("Lap counter, Formula Dé points season Cup, 2 races")
    assert main(["results", "--state", str(state_dir), "--season", "Winter", "--championship", GAME]) == 2
    assert f"no season 'Winter' of Lap counter, Formula Dé points; its seasons: {year}-1, Cup" in capsys.readouterr().err


def test_the_json_forms_carry_their_schema(state_dir, capsys):
    club(state_dir)
    assert main(["results", "--state", str(state_dir), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == 1 and data["championship"]["season"] and data["championship"]["key"] == TOP_SPEED
    assert main(["results", "--state", str(state_dir), "--season", "Cup", "--json"]) == 0
    season = json.loads(capsys.readouterr().out)["season"]
    assert (season["name"], season["races"], season["set_races"], season["complete"]) == ("Cup", 2, None, False)
    assert [r["name"] for r in season["standings"]] == ["Anne", "Cy", "Bob"]
    assert [r["number"] for r in season["race_list"]] == [1, 2]
    assert datetime.fromisoformat(season["race_list"][0]["started"]).tzinfo is not None
    assert main(["results", "--state", str(state_dir), "--seasons", "--json", "--championship", GAME]) == 0
    assert [s["name"] for s in json.loads(capsys.readouterr().out)["seasons"]][-1] == "Cup"


def test_the_spreadsheet_files_open_with_no_fixing(state_dir, tmp_path, capsys):
    app, _ = club(state_dir)
    out = tmp_path / "sheets"
    assert main(["results", "--state", str(state_dir), "--csv", str(out)]) == 0
    assert capsys.readouterr().out.startswith("Wrote ")
    raw = (out / "races.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbfrace,game,season,number,date,started,finished") and b"\r\n" in raw
    races = list(csv.DictReader(open(out / "races.csv", encoding="utf-8-sig", newline="")))
    held = [s for s in app.journal.sessions(finished=True)]
    assert len(races) == len(held) == 6 and len({r["race"] for r in races}) == 6
    assert races[0]["game"] == "Lap counter, Formula Dé points" and races[0]["winner"] == "Anne" and races[0]["cars"] == "3"
    for r in races:
        assert datetime.strptime(r["started"], "%Y-%m-%d %H:%M:%S").strftime("%Y-%m-%d") == r["date"]
    standings = list(csv.DictReader(open(out / "standings.csv", encoding="utf-8-sig", newline="")))
    assert len(standings) == sum(len(s.results["standings"]) for s in held)
    assert {r["race"] for r in standings} == {r["race"] for r in races}
    table = list(csv.DictReader(open(out / "seasons.csv", encoding="utf-8-sig", newline="")))
    assert [(r["season"], r["name"], r["points"]) for r in table if r["season"] == "Cup"] == [
        ("Cup", "Anne", "20"), ("Cup", "Cy", "14"), ("Cup", "Bob", "8")]


def test_a_folder_that_cannot_be_written_is_said(state_dir, tmp_path, capsys):
    club(state_dir)
    (tmp_path / "file").write_text("x")
    assert main(["results", "--state", str(state_dir), "--csv", str(tmp_path / "file")]) == 2
    assert "cannot write into" in capsys.readouterr().err
    Journal(state_dir).close()


def test_a_past_season_and_a_record_print_on_demand(state_dir, tmp_path, capsys):
    app, _ = club(state_dir)
    year = datetime.fromtimestamp(app.journal.sessions()[0].started).year
    out = tmp_path / "png"
    assert main(["print", "championship", "--season", f"{year}-1", "--state", str(state_dir),
                 "--to", "png", "--out", str(out)]) == 0
    assert main(["print", "driver", "--name", "cy", "--state", str(state_dir), "--to", "png", "--out", str(out)]) == 0
    assert sorted(p.name.split("-", 2)[-1] for p in out.glob("*.png")) == ["championship.png", "record.png"]
    assert main(["print", "driver", "--state", str(state_dir), "--to", "png", "--out", str(out)]) == 2
    assert "which driver?" in capsys.readouterr().err


def test_a_name_that_reads_as_a_formula_stays_text_in_the_spreadsheet(state_dir, tmp_path):
    import csv

    from tests.test_seasons import app_on, race

    app, _ = app_on(state_dir)
    race(app, ["=HYPERLINK(\"x\")", "Zoë, \"the\" fast"])
    assert main(["results", "--state", str(state_dir), "--csv", str(tmp_path)]) == 0
    with open(tmp_path / "standings.csv", encoding="utf-8-sig", newline="") as fh:
        names = [row["name"] for row in csv.DictReader(fh)]
    assert names == ["'=HYPERLINK(\"x\")", "Zoë, \"the\" fast"]


def test_printing_a_season_with_no_race_says_so(state_dir, capsys):
    from companion.league import seasons
    from tests.test_seasons import app_on, race

    app, _ = app_on(state_dir)
    race(app, ["Anne", "Bob"])
    seasons.start(app.journal, GAME, "Empty")
    assert main(["print", "championship", "--state", str(state_dir), "--season", "Empty", "--to", "png"]) == 2
    assert "season Empty of Lap counter, Formula Dé points has no race yet: nothing to print" in capsys.readouterr().err
