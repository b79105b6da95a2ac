"""Several tables, one season: ``companion export`` on one box and ``companion import`` on
another put the first box's races into the second's season, each race once; a file from a
newer or damaged box is refused and nothing changes."""

import json

import pytest

from companion.league import record, seasons
from companion.cli import main
from tests.test_seasons import GAME, app_on, race


@pytest.fixture
def boxes(tmp_path):
    """Two boxes' journals: both play a Formula Dé season "Cup", two races each."""
    made = []
    for name, orders in (("a", (["Anne", "Bob"], ["Bob", "Anne"])), ("b", (["Cy", "Dee"], ["Cy", "Anne"]))):
        state = tmp_path / name
        state.mkdir()
        app, _ = app_on(state)
        seasons.start(app.journal, GAME, "Cup")
        for order in orders:
            race(app, order)
        made.append((state, app))
    return made


def journal_rows(app):
    return [(s.id, s.results) for s in app.journal.sessions()], app.journal.club_events(), app.journal.race_ids()


def test_two_boxes_make_one_championship(boxes, tmp_path, capsys):
    (a, box_a), (b, box_b) = boxes
    out = tmp_path / "cup.json"
    assert main(["export", "--state", str(a), "--season", "Cup", str(out)]) == 0
    assert f"Wrote season Cup (2 races) to {out}" in capsys.readouterr().out
    assert main(["import", "--state", str(b), str(out)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "Added 2 races to season Cup of Lap counter, Formula Dé points"
    cup = seasons.current(box_b.journal, GAME)
    assert cup.name == "Cup" and len(cup.race_list()) == 4
    rows = seasons.standings(cup)
    assert [(r["name"], r["points"]) for r in rows] == [("Anne", 26), ("Cy", 20), ("Bob", 18), ("Dee", 8)]
    assert record.find(box_b.journal, "Anne").races == 3
    assert box_b.journal.race_ids().keys() >= {s.id for s in cup.sessions}
    ids_a = {r for r, _ in box_a.journal.race_ids().values()}
    assert ids_a <= {r for r, _ in box_b.journal.race_ids().values()}     # each race keeps its id

    before = journal_rows(box_b)
    assert main(["import", "--state", str(b), str(out)]) == 0             # twice: nothing added
    assert capsys.readouterr().out.strip().splitlines()[-1] == "Added 0 races to season Cup of Lap counter, Formula Dé points; 2 already here"
    assert journal_rows(box_b) == before

    back = tmp_path / "back.json"                                           # b's season to a: a's own races are held
    assert main(["export", "--state", str(b), "--season", "Cup", str(back)]) == 0
    assert main(["import", "--state", str(a), str(back)]) == 0
    assert capsys.readouterr().out.strip().endswith("Added 2 races to season Cup of Lap counter, Formula Dé points; 2 already here")
    assert [(r["name"], r["points"]) for r in seasons.standings(seasons.current(box_a.journal, GAME))] == \
        [("Anne", 26), ("Cy", 20), ("Bob", 18), ("Dee", 8)]
    # the last race of each box is still its own
    assert main(["results", "--state", str(a)]) == 0
    assert "Last race: Lap counter, Formula Dé, race 2 of season Cup" in capsys.readouterr().out


def resealed(data, change):
    """``data`` with its first race changed by ``change`` and its checksum made again."""
    from companion.league import exchange

    races = json.loads(json.dumps(data["races"]))
    change(races[0])
    return sealed({**data, "races": races})


def sealed(data):
    """``data`` with its checksum made again, as a hand that edits a file can."""
    from companion.league import exchange

    return {**data, "sha256": exchange._check(data)}


def nested(depth):
    value = {"name": "Anne"}
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("spoil, said", [
    (lambda d: {**d, "schema": 4}, "made by a newer companion (schema 4; this one reads up to 3): update this box first"),
    (lambda d: {**d, "races": d["races"][:1]}, "damaged: its season or races do not match its checksum"),
    (lambda d: {**d, "races": [{**d["races"][0], "started": "soon"}]}, "damaged: its season or races do not match its checksum"),
    (lambda d: {"format": "something else"}, "not a season exported by `companion export`"),
    (None, "damaged: it is not whole JSON"),
    # edited by hand with the checksum made again: still refused before anything is written
    (lambda d: resealed(d, lambda r: r["results"]["standings"].append(7)), "damaged: race 1 is incomplete"),
    (lambda d: resealed(d, lambda r: r["results"]["standings"].append({"points": 3})), "damaged: race 1 is incomplete"),
    (lambda d: resealed(d, lambda r: r["results"]["standings"][0].update(points="ten")), "damaged: race 1 is incomplete"),
    (lambda d: resealed(d, lambda r: r["results"]["standings"][0].update(position=None)),
     "damaged: race 1 is incomplete"),
    (lambda d: resealed(d, lambda r: r.update(started=1e300)), "damaged: race 1 is incomplete"),
    (lambda d: resealed(d, lambda r: r.update(finished="soon")), "damaged: race 1 is incomplete"),
    (lambda d: {k: v for k, v in d.items() if k != "game"}, "damaged: it does not say its game and season"),
    (lambda d: {**d, "races": "[" * 100_000}, "damaged: its season or races do not match its checksum"),
    # the season's header is checked as the races are
    (lambda d: {**d, "season": {**d["season"], "name": "Other"}}, "damaged: its season or races do not match"),
    (lambda d: {**d, "season": {**d["season"], "races": 3}}, "damaged: its season or races do not match"),
    (lambda d: {**d, "season": {**d["season"], "drop": 1}}, "damaged: its season or races do not match"),
    (lambda d: {**d, "game": "top-speed"}, "damaged: its season or races do not match"),
    # an older companion's checksum, of the races alone, is not taken as covering the header
    (lambda d: {**d, "sha256": __import__("companion.league.exchange", fromlist=["x"])._races_only(d)},
     "covers its races only"),
    # crafted: nested about 985 deep with the checksum made again, long texts, unknown values
    (lambda d: resealed(d, lambda r: r["results"].update(deep=nested(900))), "levels deep; a race's results and options may nest 8"),
    (lambda d: resealed(d, lambda r: r["results"].update(deep=nested(7))), "race 1's results nests deeper than 8 levels"),
    (lambda d: resealed(d, lambda r: r["options"].update(note="x" * 201)), "race 1's options has a text longer than 200"),
    # bounds, each named
    (lambda d: sealed({**d, "races": d["races"] * 101}), "the file has 202 races; a file may have at most 200"),
    (lambda d: resealed(d, lambda r: r["results"]["standings"].extend([{"name": f"C{n}"} for n in range(40)])),
     "race 1 has 42 cars; a race may have at most 40"),
    (lambda d: resealed(d, lambda r: r["results"].update({f"f{n}": n for n in range(64)})),
     "race 1's results has more than 64 fields in one place"),
    (lambda d: resealed(d, lambda r: r["results"].update(laps=list(range(1001)))),
     "race 1's results has more than 1000 items in one place"),
])
def test_a_file_from_a_newer_or_damaged_box_is_refused_and_changes_nothing(boxes, tmp_path, capsys, spoil, said):
    (a, _), (b, box_b) = boxes
    out = tmp_path / "cup.json"
    assert main(["export", "--state", str(a), str(out)]) == 0
    text = out.read_text("utf-8")
    out.write_text(text[: len(text) // 2] if spoil is None else json.dumps(spoil(json.loads(text))), "utf-8")
    before = journal_rows(box_b)
    capsys.readouterr()
    assert main(["import", "--state", str(b), str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{out} refused, nothing was changed" in err and said in err
    assert journal_rows(box_b) == before


def test_importing_into_a_box_that_never_played_the_game_starts_its_season(boxes, tmp_path, capsys):
    (a, _), _ = boxes
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    app, _ = app_on(fresh)
    race(app, ["Eve", "Fay"], game="top-speed")
    out = tmp_path / "cup.json"
    assert main(["export", "--state", str(a), str(out)]) == 0
    assert main(["import", "--state", str(fresh), str(out)]) == 0
    assert seasons.current(app.journal, GAME).name == "Cup"
    assert main(["import", "--state", str(fresh), "--into", "Nope", str(out)]) == 2
    assert "no season 'Nope' of Lap counter, Formula Dé points here; its seasons: Cup" in capsys.readouterr().err


def test_a_deeply_nested_or_oversized_file_is_refused(boxes, tmp_path, capsys):
    (_, _), (b, box_b) = boxes
    before = journal_rows(box_b)
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 200_000 + "]" * 200_000, "utf-8")
    assert main(["import", "--state", str(b), str(nested)]) == 2
    assert "refused, nothing was changed: the file is damaged: it is not whole JSON" in capsys.readouterr().err
    from companion.league import exchange
    big = tmp_path / "big.json"
    big.write_text(" " * (exchange.MAX_FILE + 1), "utf-8")
    assert main(["import", "--state", str(b), str(big)]) == 2
    assert "it is larger than a season's export can be" in capsys.readouterr().err
    assert journal_rows(box_b) == before


def test_a_box_that_never_raced_takes_the_files_season_by_its_name(boxes, tmp_path, capsys):
    """The season a game with no race shows by itself (this year's ``-1``) is no name taken:
    a file whose season has that name is imported into it."""
    import time

    (a, box_a), _ = boxes
    name = f"{time.localtime().tm_year}-1"
    box_a.journal.add_club_event({"kind": "season", "game": GAME, "name": name, "races": None, "drop": 0,
                                  "after": max(s.id for s in box_a.journal.sessions())})
    race(box_a, ["Gil", "Hal"])
    out = tmp_path / "first.json"
    assert main(["export", "--state", str(a), "--season", name, str(out)]) == 0
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    app, _ = app_on(fresh)
    app.journal.close()
    capsys.readouterr()
    assert main(["import", "--state", str(fresh), str(out)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == f"Added 1 race to season {name} of Lap counter, Formula Dé points"


def test_a_season_of_set_races_takes_no_more_than_it_has(tmp_path, capsys):
    made = []
    for box in ("a", "b"):
        state = tmp_path / box
        state.mkdir()
        app, tray = app_on(state)
        seasons.start(app.journal, GAME, "Duo", races=2)
        race(app, ["Anne", "Bob"])
        made.append((state, app, tray))
    (a, box_a, _), (b, box_b, tray_b) = made
    race(box_b, ["Bob", "Anne"])                       # b's Duo is complete, its final printed
    final = seasons.table(box_b.journal, seasons.find(box_b.journal, GAME, "Duo"))
    out = tmp_path / "duo.json"
    assert main(["export", "--state", str(a), "--season", "Duo", str(out)]) == 0
    before = journal_rows(box_b)
    capsys.readouterr()
    assert main(["import", "--state", str(b), str(out)]) == 2
    assert "season Duo has 2 races and holds 2: the file's 1 more would take it past them" in capsys.readouterr().err
    assert journal_rows(box_b) == before
    assert seasons.table(box_b.journal, seasons.find(box_b.journal, GAME, "Duo")) == final


def test_a_box_whose_races_were_all_imported_shows_them(boxes, tmp_path, capsys):
    from companion.league import onscreen

    (a, _), _ = boxes
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    app, _ = app_on(fresh)
    out = tmp_path / "cup.json"
    assert main(["export", "--state", str(a), str(out)]) == 0
    assert main(["import", "--state", str(fresh), str(out)]) == 0
    capsys.readouterr()
    assert main(["results", "--state", str(fresh)]) == 0
    said = capsys.readouterr().out
    assert "No race finished on this box yet: its races were imported." in said
    assert "Championship Lap counter, Formula Dé points, season Cup: 2 races" in said and "Anne" in said
    assert main(["results", "--state", str(fresh), "--seasons"]) == 0
    assert "Cup" in capsys.readouterr().out
    lines = onscreen.championship_lines(app.journal)
    assert lines and "2 races" in " ".join(lines) and any("Anne" in line for line in lines)


def test_an_import_keeps_the_files_season_made_here_by_its_name(boxes, tmp_path, capsys):
    """Box b has its own season League; a's season 2026-x comes in under its own name, and
    b's current season (and its standings) stay as they were; ``--into`` puts them elsewhere."""
    (a, box_a), (b, box_b) = boxes
    seasons.start(box_a.journal, GAME, "Spring")
    race(box_a, ["Anne", "Bob"])
    seasons.start(box_b.journal, GAME, "League")
    race(box_b, ["Cy", "Dee"])
    league = seasons.table(box_b.journal, seasons.current(box_b.journal, GAME))
    out = tmp_path / "spring.json"
    assert main(["export", "--state", str(a), "--season", "Spring", str(out)]) == 0
    capsys.readouterr()
    assert main(["import", "--state", str(b), str(out)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said == ["Into season Spring of Lap counter, Formula Dé points (a new season on this box, by the "
                    "file's name): 1 new race", "Added 1 race to season Spring of Lap counter, Formula Dé points"]
    assert seasons.current(box_b.journal, GAME).name == "League"
    assert seasons.table(box_b.journal, seasons.current(box_b.journal, GAME)) == league
    assert [r["name"] for r in seasons.table(box_b.journal, seasons.find(box_b.journal, GAME, "Spring"))] == ["Anne", "Bob"]
    race(box_b, ["Dee", "Cy"])                                  # b's next race counts in League still
    assert len(seasons.current(box_b.journal, GAME).race_list()) == 2
    assert len(seasons.find(box_b.journal, GAME, "Spring").race_list()) == 1
    race(box_a, ["Bob", "Anne"])
    assert main(["export", "--state", str(a), "--season", "Spring", str(out)]) == 0
    assert main(["import", "--state", str(b), "--into", "League", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-2:] == [
        "Into season League of Lap counter, Formula Dé points: 1 new race",
        "Added 1 race to season League of Lap counter, Formula Dé points; 1 already here"]
    assert len(seasons.current(box_b.journal, GAME).race_list()) == 3


def test_the_spreadsheets_say_each_cars_finish_and_count_cars(tmp_path, capsys):
    """A car out of a race is ``out``, one that did not start a race of a season played in
    one session ``did not start``; ``cars`` counts the race's cars, not its players."""
    import csv

    from companion.core.journal import Session

    state = tmp_path / "box"
    state.mkdir()
    app, _ = app_on(state)
    seasons.start(app.journal, "formula-de", "Cup")
    cars = [{"name": "Anne", "position": 1, "points": 10, "colour": "Red", "status": "finished"},
            {"name": "Bob", "position": 2, "points": 0, "colour": "Blue", "status": "out (crashed)"},
            {"name": "Cy", "position": 3, "points": 0, "colour": "Green", "status": "finished"}]
    one = Session(0, "formula-de", {}, {}, "formula-de", 1_795_000_000.0, 1_795_003_000.0, {"standings": cars})
    two = [{"name": "Anne", "points": 18, "season": [{"position": 1, "points": 10}, {"position": 2, "points": 8}]},
           {"name": "Bob", "points": 8, "season": [None, {"position": 1, "points": 8}]}]
    # a game this version does not play (a championship of its own), a season in one session
    lacorsa = Session(0, "no-such-game", {}, {}, "formula-de", 1_795_100_000.0, 1_795_103_000.0, {"standings": two})
    app.journal.add_finished_sessions([(one, "r1", "Cup"), (lacorsa, "r2", "Cup")])
    app.journal.close()
    out = tmp_path / "sheets"
    assert main(["results", "--state", str(state), "--csv", str(out)]) == 0
    races = list(csv.DictReader(open(out / "races.csv", encoding="utf-8-sig")))
    assert [(r["cars"], r["out"], r["did_not_start"]) for r in races] == [("3", "1", "0"), ("2", "0", "1"), ("2", "0", "0")]
    rows = list(csv.DictReader(open(out / "standings.csv", encoding="utf-8-sig")))
    assert [(r["number"], r["name"], r["status"]) for r in rows] == [
        ("1", "Anne", "finished"), ("1", "Bob", "out"), ("1", "Cy", "finished"),
        ("1", "Anne", "finished"), ("1", "Bob", "did not start"), ("2", "Bob", "finished"), ("2", "Anne", "finished")]


def test_a_season_holds_no_more_races_than_its_bound(boxes, tmp_path, capsys, monkeypatch):
    from companion.league import exchange

    (a, _), (b, box_b) = boxes
    monkeypatch.setattr(exchange, "MAX_SEASON_RACES", 3)
    out = tmp_path / "cup.json"
    assert main(["export", "--state", str(a), str(out)]) == 0
    before = journal_rows(box_b)
    capsys.readouterr()
    assert main(["import", "--state", str(b), str(out)]) == 2
    assert "season Cup holds 2 races: the file's 2 more would take it past 3, the most a season holds" \
        in capsys.readouterr().err
    assert journal_rows(box_b) == before


@pytest.mark.parametrize("depth, said", [
    (3, "1 stored race cannot be shown (damaged results, counted nowhere)"),
])
def test_no_view_crashes_on_a_stored_value(tmp_path, capsys, depth, said):
    """A race stored with results no view can count (a file imported before the checks):
    every view answers, saying what cannot be shown, and the rest stays counted."""
    from companion.core.journal import Session
    from companion.league import onscreen

    state = tmp_path / "box"
    state.mkdir()
    app, _ = app_on(state)
    race(app, ["Anne", "Bob"])
    deep = {"name": "Anne"}
    for _ in range(depth):
        deep = [deep]
    bad = Session(0, "laps", {"game": "formula-de"}, {}, GAME, 1_795_000_000.0, 1_795_003_000.0,
                  {"standings": [{"name": "Cy", "position": 1, "points": 10},
                                 {"name": "Eve", "position": "x", "points": {"a": 1}}], "deep": deep})
    app.journal.add_finished_sessions([(bad, "rX", seasons.current(app.journal, GAME).name)])
    if depth < 100:
        assert any("Anne" in line for line in onscreen.championship_lines(app.journal))
    app.journal.close()
    capsys.readouterr()
    for view in (["--json"], [], ["--seasons"], ["--driver", "Anne", "--json"], ["--csv", str(tmp_path / "csv")]):
        code = main(["results", "--state", str(state), *view])
        got = capsys.readouterr()
        assert said in got.err, view
        assert code == (0 if depth < 100 else 2), view
        if depth < 100 and view[:1] == ["--json"]:
            assert json.loads(got.out)["championship"]["standings"][0]["name"] == "Anne"
