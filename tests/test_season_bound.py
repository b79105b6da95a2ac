"""A season holds at most ``seasons.MAX_RACES`` races, its own races as imported ones: the
race that fills an open-ended season completes it (its final standings printed), the box
says so on its screen, and the next race starts the next season of that game; nothing is
refused at the table."""

from companion.league import exchange, seasons
from tests.table import press
from tests.test_seasons import GAME, app_on, race, texts


def test_a_full_season_passes_the_next_race_to_a_new_one(state_dir, monkeypatch):
    monkeypatch.setattr(seasons, "MAX_RACES", 3)
    app, tray = app_on(state_dir)
    seasons.start(app.journal, GAME, "Long")                 # open-ended
    race(app, ["Anne", "Bob"])
    race(app, ["Bob", "Anne"])
    assert app.toast == "" and seasons.current(app.journal, GAME).name == "Long"
    race(app, ["Anne", "Bob"])                               # the third: Long is full
    assert tray.receipts[-1].title == "Final standings" and "Season Long" in texts(tray.receipts[-1])
    nxt = seasons.current(app.journal, GAME)
    assert nxt.name != "Long" and nxt.races is None and nxt.race_list() == []
    assert app.toast == f"Season Long is full (3 races, the most a season holds): the next race starts season {nxt.name}"
    assert app.frame().alert.startswith("Season Long is full (3 races")    # its first page
    press(app, "OK BACK")                                   # read: the race's results again
    assert not app.frame().alert
    race(app, ["Cy", "Bob"])                                 # counted in the next season, not refused
    long = seasons.find(app.journal, GAME, "Long")
    assert len(long.race_list()) == 3 and long.complete()
    assert [r["name"] for r in seasons.standings(long)] == ["Anne", "Bob"]
    assert seasons.current(app.journal, GAME).race_list()[0][0]["name"] == "Cy"


def test_a_race_put_aside_and_finished_after_the_season_filled_counts_in_the_next(state_dir, monkeypatch):
    monkeypatch.setattr(seasons, "MAX_RACES", 2)
    app, _ = app_on(state_dir)
    seasons.start(app.journal, GAME, "Long")
    app.start_session("laps", {"game": "formula-de", "length": 2, "count": "up", "timing": "off",
                               "players": [{"name": "Dee", "colour": "Red"}, {"name": "Eve", "colour": "Blue"}]})
    app.journal.put_aside()
    aside = app.journal.aside_sessions()[0].id
    race(app, ["Anne", "Bob"])
    race(app, ["Bob", "Anne"])                               # Long is full
    app.journal.take_up(aside)
    assert seasons.season_of(app.journal, app.journal.session(aside)).name != "Long"


def test_the_bound_is_the_same_for_an_import():
    assert exchange.MAX_SEASON_RACES == seasons.MAX_RACES == 200
