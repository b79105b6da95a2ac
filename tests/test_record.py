"""A driver's record across games and seasons: on the box, on paper (with the chart of their
places), on the table screen and from ``companion results --driver``; two spellings merged
by an event, the races left as they were run."""

import json
import shutil

import pytest

from companion import charts
from companion.league import ledger, record, seasons
from companion.cli import main
from companion.core.journal import Journal
from companion.receipts.model import Picture
from tests.test_seasons import FIXTURE, GAME, TOP_SPEED, app_on, race, texts


def club(state_dir):
    """The three races of a journal from before seasons (Anne, Bob and Cy win one each),
    then a season "Cup" of Formula Dé races and a Top Speed race."""
    shutil.copy(FIXTURE, state_dir / Journal.FILENAME)
    app, tray = app_on(state_dir)
    seasons.start(app.journal, GAME, "Cup")
    race(app, ["Anne", "Bob", "Cy"])
    race(app, ["anne", "Cy"])                 # any letter case: one driver
    race(app, ["Bob", "Anne"], game="top-speed")
    return app, tray


def test_a_record_counts_every_game_and_season(state_dir):
    app, _ = club(state_dir)
    anne = record.find(app.journal, "ANNE")
    assert (anne.name, anne.races, anne.wins, anne.podiums, anne.best) == ("Anne", 6, 3, 6, 1)
    assert anne.games == {GAME: 5, TOP_SPEED: 1}
    assert anne.seasons_won == [f"Lap counter, Formula Dé points {seasons.seasons(app.journal, GAME)[0].name}"]
    assert [p["position"] for p in anne.places] == [1, 2, 2, 1, 1, 2]
    assert [p["cars"] for p in anne.places] == [3, 3, 3, 3, 2, 2]
    assert anne.points == 10 + 8 + 8 + 10 + 10 + top_speed_second(app.journal)
    bob = record.find(app.journal, "bob")
    assert (bob.races, bob.wins, bob.seasons_won) == (5, 2, [])
    with pytest.raises(LookupError, match="no driver 'Dan' in the journal; drivers: Anne, Bob, Cy"):
        record.find(app.journal, "Dan")


def top_speed_second(journal):
    last = [s for s in journal.sessions(finished=True) if ledger.key_of(s) == TOP_SPEED][-1]
    return last.results["standings"][1]["points"]


def test_merging_two_spellings_is_an_event_and_counts_them_as_one(state_dir, capsys):
    app, _ = club(state_dir)
    race(app, ["Ann", "Bob"])
    before = [(s.id, s.results) for s in app.journal.sessions()]
    assert record.find(app.journal, "Ann").races == 1
    assert main(["results", "--state", str(state_dir), "--merge", "Ann", "Anne"]) == 0
    assert "Ann counts as Anne from now on" in capsys.readouterr().out
    assert [(s.id, s.results) for s in app.journal.sessions()] == before     # no race rewritten
    assert app.journal.club_events()[-1]["kind"] == "merge"
    anne = record.find(app.journal, "ann")
    assert (anne.name, anne.races, anne.wins) == ("Anne", 7, 4)
    rows = seasons.standings(seasons.current(app.journal, GAME), seasons.merges(app.journal))
    assert [r["name"] for r in rows] == ["Anne", "Bob", "Cy"] and rows[0]["races"] == 3
    assert main(["results", "--state", str(state_dir), "--merge", "Ann", "Anne"]) == 2
    assert "'Ann' and 'Anne' are one driver already" in capsys.readouterr().err
    assert main(["results", "--state", str(state_dir), "--merge", "Zed", "Anne"]) == 2
    assert "no driver 'Zed'" in capsys.readouterr().err
    assert len([e for e in app.journal.club_events() if e["kind"] == "merge"]) == 1


def test_the_record_on_the_command_line(state_dir, capsys):
    club(state_dir)
    assert main(["results", "--state", str(state_dir), "--driver", "bob"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Bob: Races 5, Wins 2, Podiums 5, Best 1, Not finished 0,")
    assert "Lap counter, Top Speed points: 1 race" in out
    assert main(["results", "--state", str(state_dir), "--driver", "anne", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == 1 and data["driver"]["name"] == "Anne" and data["driver"]["wins"] == 3
    assert len(data["driver"]["places"]) == 6 and data["driver"]["seasons_won"]


def test_the_record_on_paper_draws_the_places_at_the_papers_width(state_dir):
    app, _ = club(state_dir)
    receipt = record.receipt(record.find(app.journal, "Anne"))
    assert receipt.title == "Driver's record" and texts(receipt)[1] == "Anne" and "Wins 3" in texts(receipt)
    pic = next(i for i in receipt.items if isinstance(i, Picture))
    spec = pic.chart()
    assert spec["chart"] == "places" and spec["places"] == [1, 2, 2, 1, 1, 2]
    image = charts.draw(spec)
    assert image.width == charts.WIDTH and image.mode == "1"
    assert 0 < image.histogram()[0] < image.width * image.height // 2     # ink, not a black box


def test_the_box_shows_and_prints_a_drivers_record(state_dir):
    from companion.ui import flow
    from tests.table import press

    app, tray = club(state_dir)
    app.go_home()
    app.push(flow.Results())
    press(app, "OK DOWN DOWN OK")               # the club menu: Drivers
    assert app.frame().title == "Drivers" and app.frame().body[0].items[0] == "Anne"
    press(app, "OK")
    assert app.frame().title == "Anne" and app.frame().body[0].items[:2] == ("Races 6", "Wins 3")
    press(app, "GO")
    assert tray.receipts[-1].title == "Driver's record"


def test_a_car_out_of_the_race_did_not_finish(state_dir):
    """Formula Dé's results name a car out (crashed) under ``out`` and in its row."""
    journal = Journal(state_dir)
    sid = journal.start_session("formula-de", {}, {}, "formula-de")
    journal.finish_session(sid, {"game": "formula-de", "out": [["Bob", 3]], "standings": [
        {"position": 1, "name": "Anne", "points": 10, "status": "finished"},
        {"position": 2, "name": "Bob", "points": 0, "status": "out: crash", "out_lap": 3}]})
    assert record.find(journal, "bob").not_finished == 1 and record.find(journal, "Anne").not_finished == 0



def test_a_car_the_lap_chart_names_out_did_not_finish(state_dir):
    """3-Wide, Lacorsa and Top Speed name the cars that crashed in their lap chart's
    ``out``; of a session of several races (Lacorsa's championship) the last race's."""
    journal = Journal(state_dir)
    sid = journal.start_session("lacorsa", {}, {}, "lacorsa")
    journal.finish_session(sid, {"game": "lacorsa", "lap_chart": {"laps": [["Anne", "Bob"]], "out": [["Bob", 2]]},
                                 "standings": [{"position": 1, "name": "Anne", "points": 10},
                                               {"position": 2, "name": "Bob", "points": 6}]})
    assert record.find(journal, "Bob").not_finished == 1 and record.find(journal, "Anne").not_finished == 0


def test_the_places_run_in_time_order_across_games(state_dir):
    app, _ = app_on(state_dir)
    race(app, ["Ann", "Bob"])
    race(app, ["Bob", "Ann"], game="top-speed")
    race(app, ["Ann", "Bob"])
    ann = record.find(app.journal, "Ann")
    assert [(p["game"], p["position"]) for p in ann.places] == [(GAME, 1), (TOP_SPEED, 2), (GAME, 1)]


def test_two_drivers_who_raced_each_other_are_not_merged(state_dir, capsys):
    app, _ = club(state_dir)
    before = app.journal.club_events()
    assert main(["results", "--state", str(state_dir), "--merge", "Bob", "Cy"]) == 2
    assert "'Bob' and 'Cy' raced each other" in capsys.readouterr().err
    assert app.journal.club_events() == before


def test_the_box_will_not_merge_two_drivers_who_raced_each_other(state_dir):
    from companion.ui import flow
    from tests.table import press

    app, _ = club(state_dir)
    app.go_home()
    app.push(flow.Results())
    press(app, "OK DOWN DOWN DOWN OK")          # Merge names: Anne, Bob, Cy
    press(app, "DOWN OK")                       # Bob is ...
    assert app.frame().title == "Bob is"
    press(app, "DOWN OK")                       # ... Cy? (Anne, Cy)
    press(app, "OK")                            # the confirm: yes
    assert app.toast == "They raced each other"
    assert [e for e in app.journal.club_events() if e.get("kind") == "merge"] == []


def test_a_merge_taken_back_leaves_two_drivers_again(state_dir, capsys):
    app, _ = club(state_dir)
    race(app, ["Ann", "Bob"])
    assert main(["results", "--state", str(state_dir), "--merge", "Ann", "Anne"]) == 0
    assert record.find(app.journal, "Anne").races == 7
    assert main(["results", "--state", str(state_dir), "--unmerge", "ann"]) == 0
    assert "ann is a driver of their own again, no longer counted as Anne" in capsys.readouterr().out
    assert record.find(app.journal, "Anne").races == 6 and record.find(app.journal, "Ann").races == 1
    assert main(["results", "--state", str(state_dir), "--unmerge", "Ann"]) == 2
    assert "'Ann' is not counted as anyone else; merged: nobody" in capsys.readouterr().err


def test_the_box_takes_a_merge_back(state_dir):
    from companion.ui import flow
    from tests.table import press

    app, _ = club(state_dir)
    race(app, ["Ann", "Bob"])
    record.merge(app.journal, "Ann", "Anne")
    app.go_home()
    app.push(flow.Results())
    press(app, "OK DOWN DOWN DOWN DOWN OK")     # the club menu: Undo a merge
    assert app.frame().title == "Undo a merge" and app.frame().body[0].items == ("Ann",)
    press(app, "OK OK")                         # Ann, and the confirm
    assert app.toast == "Ann on their own again"
    assert record.find(app.journal, "Ann").races == 1 and record.find(app.journal, "Anne").races == 6
    press(app, "OK")                            # the list again: nobody merged
    assert app.frame().title == "Undo a merge" and "Nobody yet." in str(app.frame().body)


def test_an_unnamed_car_is_no_driver(state_dir, capsys):
    """A car called by its colour ("Blue") stays in its race's results, but is not among
    the drivers and has no record; its winning a season is no driver's."""
    from companion.cli import main
    from companion.league import record
    from tests.test_seasons import app_on, race

    app, _ = app_on(state_dir)
    race(app, ["Anne", "Blue"])                  # the second car (blue) was never named
    race(app, ["Cy", "Anne", "Green"])           # nor the third (green)
    race(app, ["Anne", "Blue"], game="top-speed")
    assert set(record.records(app.journal)) == {"anne", "cy"}
    assert [d["name"] for d in record.summaries(app.journal)] == ["Anne", "Cy"]
    assert record.find(app.journal, "Anne").races == 3
    assert any(e["name"] == "Blue" for e in app.journal.finished_sessions()[0].results["standings"])
    app.journal.close()
    assert main(["results", "--state", str(state_dir), "--driver", "Blue"]) == 2
    assert "no driver 'Blue' in the journal; drivers: Anne, Cy" in capsys.readouterr().err


@pytest.mark.parametrize("given", [["--driver", "-x"], ["--driver=-x"]])
def test_a_name_beginning_with_a_dash_is_a_name_on_the_command_line(state_dir, capsys, given):
    app, _ = app_on(state_dir)
    race(app, ["-x", "Anne"])
    race(app, ["Bob", "--y"])
    app.journal.close()
    assert main(["results", "--state", str(state_dir), *given]) == 0
    assert capsys.readouterr().out.startswith("-x: Races 1, Wins 1")
    assert main(["results", "--state", str(state_dir), "--merge", "--y", "-x"]) == 0
    assert capsys.readouterr().out.strip() == "--y counts as -x from now on (the races stay as they were run)"
    assert main(["results", "--state", str(state_dir), "--driver", "-X", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["driver"]["races"] == 2
    assert main(["results", "--state", str(state_dir), "--unmerge", "--y"]) == 0
    assert capsys.readouterr().out.startswith("--y is a driver of their own again")
