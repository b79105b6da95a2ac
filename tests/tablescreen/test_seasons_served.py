"""The table screen serves the current season: the championship block's title names it, and
says which results the season drops; the drivers' records ride in their own ``drivers`` key."""

import json

from companion.league import seasons
from tests.tablescreen.test_server import get
from tests.table import make_app
from tests.test_seasons import GAME, race


def test_the_table_screen_names_the_season_and_its_dropped_results(state_dir, serving):
    """A season of 3 races counting each driver's best 2: nothing is dropped after 2 races;
    after the third the final standings stay served, with the results they leave out, until
    the next season's first race."""
    app = make_app(state_dir)
    race(app, ["Anne", "Bob"])
    seasons.start(app.journal, GAME, "Cup", races=3, drop=1)
    race(app, ["Anne", "Bob", "Cy"])
    race(app, ["Bob", "Anne"])
    srv = serving(state_dir)

    def served():
        status, _, body = get(srv.port, "/state.json")
        assert status == 200
        return json.loads(body)["championship"]

    champ = served()
    assert champ["title"] == "Lap counter, Formula Dé points" and champ["season"] == "Cup" and champ["races"] == 2
    assert [(r["name"], r["points"]) for r in champ["standings"]] == [("Bob", 18), ("Anne", 18), ("Cy", 6)]
    assert champ["dropped"] == []
    race(app, ["Cy", "Bob", "Anne"])             # the last race: the season is complete
    assert seasons.current(app.journal, GAME).name != "Cup"
    champ = wait_for(served, lambda c: c["races"] == 3)
    assert champ["season"] == "Cup"
    assert [(r["name"], r["points"]) for r in champ["standings"]] == [("Bob", 18), ("Anne", 18), ("Cy", 16)]
    assert champ["dropped"] == ["Bob: race 1 (8 pts)", "Anne: race 3 (6 pts)", "Cy: race 2 (0 pts)"]
    race(app, ["Anne", "Bob"])                   # the next season's first race
    champ = wait_for(served, lambda c: c["season"] != "Cup")
    assert champ["races"] == 1 and champ["dropped"] == []


def wait_for(read, done, tries=100):
    import time
    for _ in range(tries):
        got = read()
        if done(got):
            return got
        time.sleep(0.05)
    raise AssertionError(f"the table screen still serves {got}")


def test_the_table_screen_serves_the_drivers(state_dir, serving):
    from tests.test_record import club

    club(state_dir)
    srv = serving(state_dir)
    drivers = json.loads(get(srv.port, "/state.json")[2])["drivers"]
    assert [d["name"] for d in drivers] == ["Anne", "Bob", "Cy"]
    assert drivers[0]["races"] == 6 and "places" not in drivers[0]


def test_a_running_race_shows_its_own_championship_and_no_points_before_results(state_dir, serving):
    """A lap-counter race scored with Formula Dé's points, then a Formula Dé race starts
    (qualifying): the page shows Formula Dé's championship, with no race and no points."""
    from companion.games import registry
    app = make_app(state_dir)
    race(app, ["Anne", "Bob"])
    app.start_session("formula-de", dict(registry.activity("formula-de").demo.options))
    srv = serving(state_dir)

    def served():
        status, _, body = get(srv.port, "/state.json")
        assert status == 200
        return json.loads(body)["championship"]

    champ = wait_for(served, lambda c: c["title"] != "Lap counter, Formula Dé points")
    assert champ["title"] == "Formula Dé" and champ["races"] == 0
    assert champ["standings"] == [] and not any(r.get("points") for r in champ["standings"])


def test_a_race_finished_while_the_page_is_made_is_not_half_in_it(state_dir, monkeypatch):
    """The page reads the season's table, its name and its race count one after another
    while the box writes: a race finished between two of those reads shows on the next
    page, never as a new season's count beside the old season's dropped results."""
    from companion.table import source

    app = make_app(state_dir)
    seasons.start(app.journal, GAME, "Cup", races=2, drop=1)
    race(app, ["Anne", "Bob"])
    follower = source.Follower(state_dir)
    assert follower.payload["championship"]["races"] == 1
    counted = seasons.race_count
    finish_between = [True]

    def count_after_a_race_is_finished(journal, key):
        if finish_between:
            finish_between.clear()
            race(app, ["Bob", "Anne"])          # the box finishes the season meanwhile
        return counted(journal, key)

    monkeypatch.setattr(source.seasons, "race_count", count_after_a_race_is_finished)
    race(app, ["Anne", "Bob"])     # something to read: the page is made again
    follower.poll()
    champ = follower.payload["championship"]
    assert (champ["season"], champ["races"]) == ("Cup", 2), champ
    assert [r["name"] for r in champ["standings"]] == ["Anne", "Bob"]
    follower.poll()                # the race finished meanwhile: the next season's first
    champ = follower.payload["championship"]
    assert champ["season"] != "Cup" and champ["races"] == 1 and champ["dropped"] == [], champ
    follower.close()
def test_the_table_screen_lists_the_past_seasons_and_the_teams(state_dir, serving):
    """The seasons before the one shown, newest first, each with its final table (at most
    PAST_ROWS rows of it, PAST_SEASONS seasons); the shown season's teams; a driver's
    seasons won by name."""
    from companion.league import teams
    from companion.table import source

    app = make_app(state_dir)
    race(app, ["Anne", "Bob"])                       # the first season, by the year
    seasons.start(app.journal, GAME, "Cup", races=2)
    race(app, ["Bob", "Anne", "Zoë"])
    race(app, ["Bob", "Zoë"])                        # Cup complete: the next season starts
    race(app, ["Zoë", "Anne"])                       # its first race: Cup is past now
    shown = seasons.shown(app.journal, GAME)
    teams.declare(app.journal, shown, teams.parse(["Zoë+Anne"]))
    srv = serving(state_dir)
    data = wait_for(lambda: json.loads(get(srv.port, "/state.json")[2]),
                    lambda d: d["championship"]["season"] == shown.name and d["championship"]["teams"])
    champ = data["championship"]
    first = seasons.seasons(app.journal, GAME)[0].name
    assert [(s["name"], s["races"], s["of"]) for s in champ["past"]] == [("Cup", 2, 2), (first, 1, None)]
    assert [(r["name"], r["points"]) for r in champ["past"][0]["standings"]] == [("Bob", 20), ("Zoë", 14), ("Anne", 8)]
    assert champ["teams"] == [{"position": 1, "name": "Zoë+Anne", "points": 18, "drivers": ["Zoë", "Anne"]}]
    bob = next(d for d in data["drivers"] if d["name"] == "Bob")
    assert bob["seasons_won"] == ["Lap counter, Formula Dé points Cup"]
    assert source.PAST_SEASONS >= 2 and source.PAST_ROWS >= 3


def test_past_seasons_served_are_bounded(state_dir, monkeypatch):
    from companion.table import source

    app = make_app(state_dir)
    for k in range(4):
        seasons.start(app.journal, GAME, f"S{k}")
        race(app, ["Anne", "Bob", "Cy", "Dee"])
    monkeypatch.setattr(source, "PAST_SEASONS", 2)
    monkeypatch.setattr(source, "PAST_ROWS", 3)
    past = source.past_seasons(app.journal, GAME, seasons.shown(app.journal, GAME))
    assert [s["name"] for s in past] == ["S2", "S1"]
    assert [len(s["standings"]) for s in past] == [3, 3] and past[0]["rows"] == 4
