"""The table screen serves the current season: the championship block's title names it, and
says which results the season drops; the drivers' records ride in their own ``drivers`` key."""

import json

from companion import seasons
from tests.tablescreen.test_server import get
from tests.table import make_app
from tests.test_seasons import GAME, race


def test_the_table_screen_names_the_season_and_its_dropped_results(state_dir, serving):
    app = make_app(state_dir)
    race(app, ["Anne", "Bob"])
    seasons.start(app.journal, GAME, "Cup", races=3, drop=1)
    race(app, ["Anne", "Bob", "Cy"])
    race(app, ["Bob", "Anne"])
    srv = serving(state_dir)
    status, _, body = get(srv.port, "/state.json")
    champ = json.loads(body)["championship"]
    assert status == 200
    assert champ["title"] == "Lap counter, Formula Dé points Cup" and champ["season"] == "Cup" and champ["races"] == 2
    assert [(r["name"], r["points"]) for r in champ["standings"]] == [("Bob", 10), ("Anne", 10), ("Cy", 6)]
    assert champ["dropped"] == ["Bob: race 1 (8 pts)", "Anne: race 2 (8 pts)", "Cy: race 2 (0 pts)"]


def test_the_table_screen_serves_the_drivers(state_dir, serving):
    from tests.test_record import club

    club(state_dir)
    srv = serving(state_dir)
    drivers = json.loads(get(srv.port, "/state.json")[2])["drivers"]
    assert [d["name"] for d in drivers] == ["Anne", "Bob", "Cy"]
    assert drivers[0]["races"] == 6 and "places" not in drivers[0]
