"""Seasons: a journal from before seasons keeps its races as each game's first season; a
season started on the box takes the races after it; a season of a set number of races
prints its final standings by itself and starts the next; worst results dropped."""

import random
import shutil
import time
from pathlib import Path

import pytest

from companion.league import onscreen, record, seasons
from companion.app import App
from companion.core.journal import Journal, JournalDamaged
from companion.devices.emulated import HeadlessDisplay
from companion.games import registry
from companion.receipts.model import Line
from tests.table import PaperTray

FIXTURE = Path(__file__).parent / "fixtures" / "journal-before-seasons.sqlite3"
# The races below are run on the lap counter with a game's points, which count in the lap
# counter's own championship of that game (``ledger.key_of``): their seasons are its seasons.
GAME, TOP_SPEED = "laps:formula-de", "laps:top-speed"


def app_on(state_dir):
    tray = PaperTray()
    return App(journal=Journal(state_dir), display=HeadlessDisplay(), printer=tray,
               rng=random.Random(1)), tray


def race(app, order, game="formula-de"):
    """A two-lap race on the lap counter that finishes in ``order`` (the first car leads)."""
    colours = ("Red", "Blue", "Green", "Black")
    players = [{"name": n, "colour": c} for n, c in zip(order, colours)]
    app.start_session("laps", {"game": game, "players": players, "length": 2, "count": "up", "timing": "off"})
    app.perform(app.moves()[0])
    while not app.runner.finished():
        app.perform(app.moves()[0])
    return app.runner.session



def season_on(state_dir, orders, name="Cup"):
    """A box in ``state_dir`` (made here) with a Formula Dé season ``name`` of a race for
    each of ``orders`` (how it finished): its app."""
    state_dir.mkdir()
    app, _ = app_on(state_dir)
    seasons.start(app.journal, GAME, name)
    for order in orders:
        race(app, order)
    return app

def texts(receipt):
    return [i.text for i in receipt.items if isinstance(i, Line)]


def test_a_journal_from_before_seasons_is_the_games_first_season(state_dir):
    shutil.copy(FIXTURE, state_dir / Journal.FILENAME)
    app, tray = app_on(state_dir)
    first = seasons.seasons(app.journal, GAME)
    assert [s.name for s in first] == [f"{time.localtime(first[0].sessions[0].started).tm_year}-1"]
    assert len(first[0].race_list()) == 3
    key, rows = seasons.shown_table(app.journal)
    assert key == GAME
    assert [(r["name"], r["points"]) for r in rows] == [("Anne", 26), ("Bob", 24), ("Cy", 22)]

    new = seasons.start(app.journal, GAME, "Spring")
    assert new.name == "Spring" and new.race_list() == []
    race(app, ["Bob", "Anne"])
    assert onscreen.championship_lines(app.journal)[:2] == ["Lap counter", "Season Spring, 1 race"]   # the whole name too long for the screen
    assert [(r["name"], r["points"]) for r in seasons.shown_table(app.journal)[1]] == [("Bob", 10), ("Anne", 8)]
    old = seasons.find(app.journal, GAME, first[0].name)
    assert len(old.race_list()) == 3          # the first season kept whole
    assert "Spring, race 1" not in " ".join(texts(tray.receipts[-1]))   # race 1 is not numbered
    race(app, ["Anne", "Bob"])
    assert "Lap counter Spring, race 2" in texts(tray.receipts[-1])


REFERENCE = Path(__file__).parent / "reference" / "journal-before-seasons"


def test_a_journal_written_just_before_seasons_keeps_every_championship_as_its_first_season(state_dir):
    """Real races of three games, a lap-counter race and a race put aside, written by the
    companion just before seasons (tests/reference/journal_before_seasons.py): each
    championship becomes its game's first season, with the standings that companion gave."""
    import gzip
    import json
    import sqlite3

    db = sqlite3.connect(state_dir / Journal.FILENAME)
    db.executescript(gzip.open(REFERENCE.with_suffix(".sql.gz"), "rt", encoding="utf-8").read())
    db.close()
    said_then = json.loads(REFERENCE.with_suffix(".json").read_text(encoding="utf-8"))
    app, _ = app_on(state_dir)
    app.boot()
    for key, then in said_then.items():
        [first] = seasons.seasons(app.journal, key)
        assert first.name == f"{time.localtime(first.sessions[0].started).tm_year}-1"
        assert len(first.race_list()) == then["races"]
        fields = ("position", "name", "points")
        assert [tuple(r[f] for f in fields) for r in seasons.table(app.journal, first)] == \
            [tuple(r[f] for f in fields) for r in then["standings"]], key
    assert [s.id for s in app.journal.aside_sessions()] == [6]     # the Top Speed race put aside
    app.switch(("resume", 6))
    while not app.runner.finished():
        app.perform(registry.activity("top-speed").demo.script(app.runner.state))
    assert len(seasons.current(app.journal, "top-speed").race_list()) == 2   # finished: in the first season
    assert seasons.race_number(app.journal, app.journal.session(6)) == 2


def test_starting_a_season_is_kept_in_the_journal(state_dir):
    app, _ = app_on(state_dir)
    race(app, ["Anne", "Bob"])
    seasons.start(app.journal, GAME, "Autumn", races=4, drop=1)
    app.journal.close()
    with Journal(state_dir) as journal:          # a power cut later
        season = seasons.current(journal, GAME)
        assert (season.name, season.races, season.drop) == ("Autumn", 4, 1)


@pytest.mark.parametrize("name, races, drop, said", [
    ("", None, 0, "a season needs a name"),
    ("2026-1", None, 0, "has a season called '2026-1' already"),
    ("X", 0, 0, "1 to 200 races"),
    ("X", 3, 3, "cannot drop 3 results"),
])
def test_a_season_that_cannot_be_started_says_why_and_changes_nothing(state_dir, name, races, drop, said, monkeypatch):
    app, _ = app_on(state_dir)
    race(app, ["Anne", "Bob"])
    name = name.replace("2026", str(time.localtime(app.journal.sessions()[0].started).tm_year))
    said = said.replace("2026", str(time.localtime(app.journal.sessions()[0].started).tm_year))
    with pytest.raises(seasons.SeasonError, match=said):
        seasons.start(app.journal, GAME, name, races=races, drop=drop)
    assert app.journal.club_events() == []


def test_a_season_of_three_races_prints_its_final_standings_and_starts_the_next(state_dir):
    app, tray = app_on(state_dir)
    seasons.start(app.journal, GAME, "Cup", races=3, drop=1)
    race(app, ["Anne", "Bob", "Cy"])
    race(app, ["Bob", "Cy", "Anne"])
    assert [r.kind for r in tray.receipts] == ["program", "results"] * 2    # no final yet
    race(app, ["Anne", "Bob"])               # Cy misses the last race
    final = tray.receipts[-1]
    lines = texts(final)
    assert lines[1:4] == ["After 3 races", "Lap counter, Formula Dé points", "Season Cup, 3 of 3 races"]
    assert final.title == "Final standings"   # the title too long for its line: under it
    # each driver's worst result left out: Cy's missed race, Anne's 3rd, Bob's first 2nd place
    assert "Results dropped" in lines
    assert "Anne: race 2 (6 pts)" in lines and "Cy: race 3 (0 pts)" in lines and "Bob: race 1 (8 pts)" in lines
    rows = seasons.standings(seasons.find(app.journal, GAME, "Cup"))
    assert [(r["name"], r["points"], r["dropped"]) for r in rows] == [
        ("Anne", 20, [2]), ("Bob", 18, [1]), ("Cy", 14, [3])]
    nxt = seasons.current(app.journal, GAME)
    assert nxt.name != "Cup" and (nxt.races, nxt.drop) == (3, 1) and nxt.race_list() == []
    race(app, ["Cy", "Bob"])
    assert len(seasons.find(app.journal, GAME, "Cup").race_list()) == 3
    assert seasons.current(app.journal, GAME).race_list()[0][0]["name"] == "Cy"


def test_a_new_season_named_on_the_box(state_dir):
    from companion.ui import flow
    from companion.ui.club import NewSeason
    from companion.ui.players import NameEntry
    from tests.table import press

    app, tray = app_on(state_dir)
    race(app, ["Anne", "Bob"])
    app.go_home()
    app.push(flow.Results())
    assert app.frame().footer == "GO: print  OK: club"
    press(app, "OK OK")                        # the club menu, "New season"
    assert isinstance(app.screen, NewSeason)
    year = time.localtime(app.journal.sessions()[0].started).tm_year
    assert app.frame().body[0].items[0] == f"Name {year}-2"
    press(app, "OK")                           # the name, entered as a player's is
    assert isinstance(app.screen, NameEntry) and app.frame().title == "Name of season"
    from companion.ui.players import LATER
    blank = {ch: len(LATER) - LATER.index(ch) for ch in "6-2"}    # UP presses round the wheel to a blank
    press(app, "DOWN " * 52 + "OK " + "DOWN " * 32 + "OK " + "DOWN " * 39 + "OK "
          + "UP " * blank["6"] + "OK " + "UP " * blank["-"] + "OK " + "UP " * blank["2"] + "GO")
    assert app.frame().body[0].items[0] == "Name Cup"
    press(app, "DOWN OK OK DOWN OK")           # 2 races, each driver's worst dropped
    assert app.frame().body[0].items[1:3] == ("Races 2", "Drop worst 1")
    press(app, "GO " * 3)                      # GO starts no season: only OK on "Start season"
    assert app.frame().title == "New season" and app.toast == ""
    press(app, "DOWN OK")
    assert isinstance(app.screen, flow.Results) and app.toast == "Season Cup started"
    season = seasons.current(app.journal, GAME)
    assert (season.name, season.races, season.drop) == ("Cup", 2, 1)
    assert app.championship_lines() == ["Lap counter", "Cup, 0 of 2 races"]   # "Season" where there is room
    press(app, "OK DOWN OK")                   # past seasons: the first kept whole
    assert app.frame().body[0].items == ("Cup", f"{year}-1")
    press(app, "DOWN OK")
    assert app.frame().body[0].items[:3] == (f"{year}-1, 1 race", "1 Anne 10", "2 Bob 8")
    press(app, "GO")
    assert tray.receipts[-1].title == "Championship"
    assert f"Season {year}-1" in texts(tray.receipts[-1])


def test_a_reader_sees_the_box_finish_a_race_and_start_a_season(state_dir):
    """The table screen reads the journal from a connection of its own: what it counted is
    kept only until the box writes a finished race or a club event."""
    app, _ = app_on(state_dir)
    race(app, ["Anne", "Bob"])
    reader = Journal(state_dir, read_only=True)
    assert seasons.race_count(reader, GAME) == 1
    app.start_session("laps", {"game": "formula-de", "players": [{"name": "Cy", "colour": "Red"}, {"name": "Dee",
                      "colour": "Blue"}], "length": 2, "count": "up", "timing": "off"})
    app.perform(app.moves()[0])
    assert seasons.race_count(reader, GAME) == 1          # a race in progress counts nothing yet
    while not app.runner.finished():
        app.perform(app.moves()[0])
    assert seasons.race_count(reader, GAME) == 2
    assert [r["name"] for r in seasons.shown_table(reader)[1]] == ["Cy", "Anne", "Dee", "Bob"]   # the latest race breaks ties
    seasons.start(app.journal, GAME, "Cup")
    assert seasons.current(reader, GAME).name == "Cup" and seasons.race_count(reader, GAME) == 0
    reader.close()


def test_a_damaged_club_row_is_refused_with_its_place(state_dir):
    import sqlite3

    app, _ = app_on(state_dir)
    race(app, ["Anne", "Bob"])
    seasons.start(app.journal, GAME, "Cup")
    seasons.start(app.journal, GAME, "Next")
    app.journal.close()
    with sqlite3.connect(state_dir / Journal.FILENAME) as db:    # a bit flipped on the card
        db.execute("UPDATE club SET body = replace(body, 'Next', 'Nexu') WHERE id = 2")
    with pytest.raises(JournalDamaged, match=r"club event 2 \(table club\)"):   # refused, not passed over
        Journal(state_dir)
    with pytest.raises(JournalDamaged):
        Journal(state_dir, read_only=True)


def test_a_season_left_without_a_race_is_not_listed(state_dir):
    """A season of 1 race completes and starts the next by itself; a season named on the
    box then takes over, and the empty one between is left out of the lists."""
    from companion.league.club import Club

    app, tray = app_on(state_dir)
    seasons.start(app.journal, GAME, "Sprint", races=1)
    race(app, ["Anne", "Bob"])
    assert tray.receipts[-1].title == "Final standings"
    auto = seasons.current(app.journal, GAME).name
    assert auto != "Sprint" and onscreen.championship_lines(app.journal)[1].startswith("Sprint")   # still shown
    seasons.start(app.journal, GAME, "Cup")
    assert [s.name for s in seasons.seasons(app.journal, GAME)] == ["Sprint", auto, "Cup"]
    assert Club(app.journal, submit=lambda receipt: None).season_names() == ["Cup", "Sprint"]
    assert auto in [s.name for s in seasons.seasons(app.journal, GAME)]      # kept in the journal


def test_a_race_finished_after_its_season_was_complete_counts_in_the_next(state_dir):
    """A race put aside in a season of 2 races, finished after two others completed it:
    it is the next season's race, not a third race cut from the first."""
    app, tray = app_on(state_dir)
    seasons.start(app.journal, GAME, "Duo", races=2)
    players = [{"name": n, "colour": c} for n, c in (("Ann", "Red"), ("Bob", "Blue"))]
    app.start_session("laps", {"game": "formula-de", "players": players, "length": 2, "count": "up", "timing": "off"})
    app.perform(app.moves()[0])
    aside = app.runner.session.id
    app.journal.put_aside()
    race(app, ["Cy", "Dee"])
    race(app, ["Dee", "Cy"])                                   # Duo complete: its final printed
    finals = [r for r in tray.receipts if r.title == "Final standings"]
    assert len(finals) == 1
    app.go_home()
    app.switch(("resume", aside))
    while not app.runner.finished():
        app.perform(app.moves()[0])
    duo = seasons.find(app.journal, GAME, "Duo")
    assert [s.id for s in duo.sessions] != [] and aside not in [s.id for s in duo.sessions]
    nxt = seasons.current(app.journal, GAME)
    assert [s.id for s in nxt.sessions] == [aside]
    assert seasons.race_number(app.journal, app.journal.session(aside)) == 1
    assert len([r for r in tray.receipts if r.title == "Final standings"]) == 1      # not printed again
    assert record.find(app.journal, "Ann").races == 1 == len(nxt.race_list())
