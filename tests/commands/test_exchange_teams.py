"""A season's teams travel with its export: the box that imports the file shows the same
team table; a file whose teams were edited, or are not teams ``--teams`` could declare, is
refused whole and nothing is written; importing the file again declares nothing again."""

import json

import pytest

from companion.cli import main
from companion.league import exchange, seasons, teams
from tests.commands.test_exchange_cli import boxes, journal_rows, sealed  # noqa: F401 (the fixture)
from tests.test_seasons import GAME


def teamed_export(boxes, tmp_path, capsys):
    """Box a's season Cup with teams declared, exported: (the file, its content)."""
    (a, _), _ = boxes
    assert main(["results", "--state", str(a), "--season", "Cup", "--teams", "Lions=Anne+Bob", "Cy+Dee"]) == 0
    out = tmp_path / "cup.json"
    assert main(["export", "--state", str(a), "--season", "Cup", str(out)]) == 0
    capsys.readouterr()
    return out, json.loads(out.read_text(encoding="utf-8"))


def test_teams_declared_on_one_box_show_on_the_box_that_imports_the_season(boxes, tmp_path, capsys):
    (a, box_a), (b, box_b) = boxes
    out, data = teamed_export(boxes, tmp_path, capsys)
    assert data["schema"] == exchange.TEAMS_SCHEMA == 3
    assert data["teams"] == [{"name": "Lions", "drivers": ["Anne", "Bob"]}, {"name": "Cy+Dee", "drivers": ["Cy", "Dee"]}]
    assert main(["import", "--state", str(b), str(out)]) == 0
    assert "the season's 2 teams" in capsys.readouterr().out
    cup_a, cup_b = seasons.current(box_a.journal, GAME), seasons.current(box_b.journal, GAME)
    assert len(cup_b.race_list()) == 4 and teams.declared(box_b.journal, cup_b) == data["teams"]
    table = teams.table(box_b.journal, cup_b)
    assert [(t["name"], t["points"]) for t in table] == [("Lions", 44), ("Cy+Dee", 28)]

    before = journal_rows(box_b)                                       # twice: nothing more written
    assert main(["import", "--state", str(b), str(out)]) == 0
    assert journal_rows(box_b) == before
    assert sum(e.get("kind") == "teams" for e in box_b.journal.club_events()) == 1

    back = tmp_path / "back.json"                   # b's season back to a: the same teams, no event on a
    assert main(["export", "--state", str(b), "--season", "Cup", str(back)]) == 0
    events = len(box_a.journal.club_events())
    assert main(["import", "--state", str(a), str(back)]) == 0
    assert len(box_a.journal.club_events()) == events
    assert teams.table(box_a.journal, seasons.current(box_a.journal, GAME)) == table


def test_a_season_without_teams_is_exported_as_before(boxes, tmp_path, capsys):
    (a, _), _ = boxes
    out = tmp_path / "cup.json"
    assert main(["export", "--state", str(a), "--season", "Cup", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert "teams" not in data and data["schema"] == exchange.SCHEMA
    assert data["sha256"] == exchange._check({k: data[k] for k in ("game", "season", "races")})


def deep(data):
    return {**data, "teams": [{"name": "Lions", "drivers": [["Anne"], "Bob"]}]}


@pytest.mark.parametrize("spoil, said", [
    (lambda d: {**d, "teams": [{**d["teams"][0], "name": "Tigers"}, d["teams"][1]]},
     "damaged: its season or races do not match its checksum"),
    (lambda d: sealed({**d, "teams": "Anne+Bob"}), "its teams are not a list of at most 20"),
    (lambda d: sealed({**d, "teams": [{"name": f"T{k}", "drivers": [f"A{k}", f"B{k}"]} for k in range(21)]}),
     "its teams are not a list of at most 20"),
    (lambda d: sealed({**d, "teams": [{"name": "L" * 25, "drivers": ["Anne", "Bob"]}]}),
     "team 1 is not a name of at most 24 characters"),
    (lambda d: sealed({**d, "teams": [{"name": "Lions", "drivers": ["A" * 41, "Bob"]}]}),
     "team 1 is not a name of at most 24 characters and two drivers or more of at most 40"),
    (lambda d: sealed(deep(d)), "its teams nest deeper than a team's list of drivers"),
    (lambda d: sealed({**d, "teams": [{"name": "Lions", "drivers": ["Anne"]}]}), "team 1 is not a name"),
    (lambda d: sealed({**d, "teams": [{"name": "Lions", "drivers": ["Anne", "Bob"], "car": 1}]}), "team 1 is not a name"),
    (lambda d: sealed({**d, "teams": [{"name": "A", "drivers": ["Anne", "Bob"]},
                                      {"name": "B", "drivers": ["Bob", "Cy"]}]}), "Bob is in two teams: A and B"),
])
def test_a_files_teams_are_checked_whole_and_a_refusal_writes_nothing(boxes, tmp_path, capsys, spoil, said):
    _, (b, box_b) = boxes
    out, data = teamed_export(boxes, tmp_path, capsys)
    out.write_text(json.dumps(spoil(data)), encoding="utf-8")
    before = journal_rows(box_b)
    assert main(["import", "--state", str(b), str(out)]) == 2
    err = capsys.readouterr().err
    assert "refused, nothing was changed" in err and said in err, err
    assert journal_rows(box_b) == before
