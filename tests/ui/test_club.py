"""The club's screens (OK on the championship) read whole at 128x64: every frame of the
championship, the club menu, a new season's rules, the seasons and a season's table, the
drivers and a driver's record, and the merge lists, with nothing cut."""

from companion.league import seasons
from companion.ui import flow
from companion.ui.render import cut_texts
from tests.table import press
from tests.test_record import club
from tests.test_seasons import GAME, race


def frames(app, keys: str) -> list:
    """The view after each press of ``keys``."""
    seen = []
    for key in keys.split():
        press(app, key)
        seen.append(app.frame())
    return seen


def test_every_club_screen_reads_whole(state_dir):
    app, _ = club(state_dir)
    seasons.start(app.journal, GAME, "Autumn Cup", races=8, drop=2)
    race(app, ["Maximilian", "Anne"])
    app.go_home()
    app.push(flow.Results())
    shown = [app.frame()]
    shown += frames(app, "OK")                                   # the club menu
    shown += frames(app, "OK DOWN DOWN DOWN BACK")               # a new season's rules
    shown += frames(app, "DOWN OK DOWN OK DOWN DOWN BACK BACK")  # the seasons, one of them
    shown += frames(app, "DOWN OK OK DOWN DOWN DOWN DOWN DOWN DOWN DOWN BACK BACK")   # a driver's record
    shown += frames(app, "DOWN OK DOWN OK")                      # merge: whom, into whom
    titles = [v.title for v in shown]
    assert {"Championship", "Club", "New season", "Seasons", "Drivers", "Merge whom"} <= set(titles), titles
    cut = [(v.title, t) for v in shown for t in cut_texts(v, footer=True)]
    assert cut == [], sorted(set(cut))

