"""Teams across a season and a season's page: the club's pairs (an event in the journal),
their standings beside the drivers' on the box, in ``companion results``, its JSON and CSV;
``companion results --season NAME --html FILE``, one self-contained page, checked in
headless Chromium on a phone and a desktop; names with accents kept whole everywhere."""

import csv
import json
import re

import pytest

from companion.cli import main
from companion.core.journal import Journal
from companion.league import exchange, ledger, page, seasons, steward, teams
from companion.league.club import Club
from tests.browser import Browser, chromium
from tests.test_seasons import GAME, app_on, race

# a driver's name is anyone's text: markup and quotes in it must reach the page as text
ODD = '<i>"B&'


def league(state_dir):
    """Season "Cup" of three races: Zoë, Chloé, Ann and a driver called ``ODD``."""
    app, tray = app_on(state_dir)
    seasons.start(app.journal, GAME, "Cup")
    race(app, ["Zoë", "Chloé", "Ann", ODD])
    race(app, ["Ann", "Zoë", ODD, "Chloé"])
    race(app, ["Chloé", "Ann", "Zoë"])
    return app, tray


def run(state_dir, *args):
    return main(["results", "--state", str(state_dir), *args])


# -- teams ----------------------------------------------------------------------------

def test_a_clubs_pairs_score_their_drivers_season_points(state_dir, capsys):
    app, _ = league(state_dir)
    season = seasons.find(app.journal, GAME, "Cup")
    drivers = {r["name"]: r["points"] for r in seasons.table(app.journal, season)}
    assert run(state_dir, "--season", "Cup", "--teams", "Zoë+Chloé", f"Odd=Ann+{ODD}") == 0
    out = capsys.readouterr().out
    assert out.startswith("Season Cup: 2 teams") and "(Zoë, Chloé)" in out
    rows = teams.table(app.journal, season)
    assert [(t["name"], t["drivers"], t["points"]) for t in rows] == sorted([
        ("Zoë+Chloé", ["Zoë", "Chloé"], drivers["Zoë"] + drivers["Chloé"]),
        ("Odd", ["Ann", ODD], drivers["Ann"] + drivers[ODD])], key=lambda t: -t[2])
    assert [t["position"] for t in rows] == [1, 2]
    # the season's table on the box and on the command line: the teams under the drivers
    lines = Club(app.journal, lambda r: None).season_lines("Cup")
    assert lines[lines.index("Teams") + 1] == f"1 {rows[0]['name']} {rows[0]['points']}"
    assert run(state_dir, "--season", "Cup") == 0
    shown = capsys.readouterr().out.splitlines()
    assert shown[shown.index("  Teams:") + 1].split()[:2] == ["1.", rows[0]["name"]]
    # a newer declaration replaces it; "none" takes the teams back; nothing else changed
    assert run(state_dir, "--season", "Cup", "--teams", "none") == 0
    assert teams.table(Journal(state_dir, read_only=True), season) == []
    assert {r["name"]: r["points"] for r in seasons.table(Journal(state_dir), season)} == drivers


@pytest.mark.parametrize("specs,said", [
    (["Ann"], "'Ann' is not a team: name two drivers or more"),
    (["Ann+Zoë", "Zoë+Chloé"], "Zoë is in two teams: Ann+Zoë and Zoë+Chloé"),
    (["A=Ann+Zoë", "a=Chloé+Bo"], "two teams are called 'a'"),
    (["Ann+"], "is not a team"),
    ([f"{'x' * 30}=Ann+Bo"], "a team's name has at most 24 characters"),
])
def test_teams_that_cannot_be_are_refused_and_nothing_is_written(state_dir, capsys, specs, said):
    app, _ = league(state_dir)
    before = len(app.journal.club_events())
    assert run(state_dir, "--season", "Cup", "--teams", *specs) == 2
    assert said in capsys.readouterr().err
    assert len(Journal(state_dir).club_events()) == before


def test_teams_need_a_season(state_dir, capsys):
    league(state_dir)
    assert run(state_dir, "--teams", "Ann+Zoë") == 2
    assert "--teams is of a season: add --season NAME" in capsys.readouterr().err


def test_the_teams_are_a_checksummed_club_event_and_go_in_the_json_and_csv(state_dir, tmp_path, capsys):
    app, _ = league(state_dir)
    assert run(state_dir, "--season", "Cup", "--teams", "Zoë+Chloé", "Ann+Bo") == 0
    event = [e for e in Journal(state_dir).club_events() if e.get("kind") == "teams"][-1]
    assert event == {**event, "game": GAME, "season": "Cup",
                     "teams": [{"name": "Zoë+Chloé", "drivers": ["Zoë", "Chloé"]},
                               {"name": "Ann+Bo", "drivers": ["Ann", "Bo"]}]}
    capsys.readouterr()
    assert run(state_dir, "--season", "Cup", "--json") == 0
    data = json.loads(capsys.readouterr().out)["season"]
    assert [t["name"] for t in data["teams"]] and {t["name"] for t in data["teams"]} == {"Zoë+Chloé", "Ann+Bo"}
    assert {r["name"] for r in data["standings"]} >= {"Zoë", "Chloé"}      # the true names, not escaped
    assert run(state_dir, "--csv", str(tmp_path / "out")) == 0
    raw = (tmp_path / "out" / "teams.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbfgame,season,position,team,drivers,points,wins") and "Zoë".encode() in raw
    rows = list(csv.DictReader(open(tmp_path / "out" / "teams.csv", encoding="utf-8-sig", newline="")))
    assert [(r["season"], r["team"], r["drivers"]) for r in rows] == [
        ("Cup", t["name"], "+".join(t["drivers"])) for t in data["teams"]]
    standings = (tmp_path / "out" / "seasons.csv").read_text(encoding="utf-8-sig")
    assert "Chloé" in standings and "Zoë" in standings


def test_three_wide_players_are_its_teams(state_dir):
    """3-Wide counts players, each running a team of cars: the team table lists them with
    the team cars they ran (no pairs declared)."""
    from tests.tablescreen.conftest import play
    from tests.table import make_app

    app = make_app(state_dir)
    play(app, "3-wide", 5000)
    assert app.runner.session.finished is not None
    key = "3-wide"
    season = seasons.current(app.journal, key)
    table = seasons.table(app.journal, season)
    rows = teams.table(app.journal, season)
    assert [(t["name"], t["points"]) for t in rows] == [(r["name"], r["points"]) for r in table]
    owned = {e["player"] for e in app.runner.session.results["standings"] if e.get("team")}
    assert {t["name"] for t in rows} == owned and all(len(t["drivers"]) >= 2 for t in rows)


# -- the page -------------------------------------------------------------------------

def test_the_page_is_one_self_contained_file_with_everything_escaped(state_dir, tmp_path, capsys):
    app, _ = league(state_dir)
    season = seasons.find(app.journal, GAME, "Cup")
    steward.penalty(app.journal, in_finish_order(season)[1], ODD, 2, "<script>alert(1)</script> jumped the start")
    assert run(state_dir, "--season", "Cup", "--teams", f"Zoë+{ODD}") == 0
    out = tmp_path / "cup.html"
    assert run(state_dir, "--season", "Cup", "--html", str(out)) == 0
    assert capsys.readouterr().out.endswith(f"Wrote {out}\n")
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>") and "<meta charset=utf-8>" in text
    assert not re.search(r"<script|<link|<img|<iframe|\bsrc=|@import|url\(", text, re.I)   # nothing to load
    assert ODD not in text and "&lt;i&gt;&quot;B&amp;" in text                           # names escaped
    assert "&lt;script&gt;alert(1)&lt;/script&gt; jumped the start" in text
    assert "Race 2: penalty: &lt;i&gt;&quot;B&amp; -2 pts (&lt;script&gt;" in text
    assert "Zoë" in text and "Chloé" in text
    assert text.count("<svg") == len(seasons.table(app.journal, season))      # a chart per driver
    assert "id=teams" in text
    assert run(state_dir, "--season", "Spring", "--html", str(tmp_path / "x.html")) == 2
    assert "no season 'Spring'" in capsys.readouterr().err and not (tmp_path / "x.html").exists()


def test_the_corrections_are_the_stewards_and_none_before_any(state_dir):
    app, _ = league(state_dir)
    season = seasons.find(app.journal, GAME, "Cup")
    assert page.corrections(app.journal, season) == []
    assert "<h2>Corrections and penalties</h2><p>None.</p>" in page.season_page(app.journal, season)
    third = in_finish_order(season)[2]
    steward.correct_place(app.journal, third, "Zoë", 1, "steward")
    steward.void(app.journal, in_finish_order(season)[0], "test race")
    season = seasons.find(app.journal, GAME, "Cup")
    items = page.corrections(app.journal, season)
    assert [(i["race"], i["kind"]) for i in items] == [(None, "void"), (2, "place")]
    assert items[1]["text"] == "corrected: Zoë 3rd → 1st (steward)"
    assert items[0]["text"].startswith("voided (test race) (the race of ")
    html = page.season_page(app.journal, season)
    assert "Race 2: corrected: Zoë 3rd → 1st (steward)" in html


def in_finish_order(season):
    return sorted([*season.sessions, *season.voided], key=ledger.finish_order)


def test_a_places_chart_breaks_where_a_driver_did_not_race():
    svg = page.places_svg("Ann", [1, None, 3, 2], 4)
    assert svg.count("<polyline") == 1 and svg.count("<circle") == 3     # 3-2 joined; 1 alone
    assert 'aria-label="Ann: places 1, -, 3, 2"' in svg


@pytest.fixture(scope="module")
def browser():
    if chromium() is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    b = Browser()
    yield b
    b.close()


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_the_page_reads_in_chromium_on_a_phone_and_a_desktop(state_dir, tmp_path, browser, size, capsys):
    app, _ = league(state_dir)
    for names in (["Ann", "Zoë"], ["Chloé", "Ann", "Zoë", ODD], ["Bartholomew-Longname", "Ann"]):
        race(app, names)
    assert run(state_dir, "--season", "Cup", "--teams", "Zoë+Chloé", f"Ann+{ODD}") == 0
    out = tmp_path / "cup.html"
    assert run(state_dir, "--season", "Cup", "--html", str(out)) == 0
    tab = browser.page()
    try:
        tab.send("Network.enable")
        tab.viewport(*size, mobile=size[0] < 500)
        tab.goto(out.as_uri())
        tab.wait("document.readyState === 'complete' && document.querySelectorAll('svg').length > 0")
        seen = json.loads(tab.eval("""JSON.stringify({
            wide: document.documentElement.scrollWidth, inner: window.innerWidth,
            loaded: performance.getEntriesByType('resource').length,
            charts: [...document.querySelectorAll('svg')].map(s => {
                const r = s.getBoundingClientRect(); return [r.width, r.height, r.right]; }),
            smallest: Math.min(...[...document.querySelectorAll('body *')].filter(e => e.childNodes.length &&
                [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
                .map(e => e.getBoundingClientRect().height ? parseFloat(getComputedStyle(e).fontSize) : 99)),
            tick: Math.min(...[...document.querySelectorAll('svg text')].map(t => t.getBoundingClientRect().height)),
            standings: [...document.querySelectorAll('#standings tbody tr')].map(r => r.cells[1].textContent),
            teams: [...document.querySelectorAll('#teams tbody tr')].map(r => r.cells[1].textContent),
            races: document.querySelectorAll('#races article').length,
            cut: [...document.querySelectorAll('td, th, h1, h2, h3, figcaption')].filter(e =>
                e.getBoundingClientRect().right > window.innerWidth + 0.5).length})"""))
        tab.screenshot(tmp_path / f"page-{size[0]}.png", full=True)
    finally:
        tab.close()
    assert tab.errors() == []
    assert seen["wide"] <= seen["inner"] and seen["cut"] == 0          # no sideways scrolling, nothing cut
    assert seen["loaded"] == 0                                        # it loads nothing
    assert len(seen["charts"]) == len(seen["standings"]) >= 5
    assert all(w >= 250 and h >= 60 and right <= seen["inner"] for w, h, right in seen["charts"])
    assert seen["smallest"] >= 12 and seen["tick"] >= 9                # text readable, chart numbers too
    assert ODD in seen["standings"] and "Zoë" in seen["standings"] and "Chloé" in seen["standings"]
    assert set(seen["teams"]) == {"Zoë+Chloé", f"Ann+{ODD}"}
    assert seen["races"] == 6


def test_a_long_team_name_keeps_its_points_on_the_box():
    from companion.kit.text import LINE_CHARS
    said = teams.lines([{"position": 1, "name": "The Flying Dutchmen Club", "drivers": ["A", "B"], "points": 120}])
    assert said[0] == "Teams" and len(said[1]) <= LINE_CHARS and said[1].startswith("1 The Flying")
    assert said[1].endswith("\u2026 120")


def test_a_renamed_season_keeps_its_teams(state_dir):
    app, _ = league(state_dir)
    season = seasons.find(app.journal, GAME, "Cup")
    teams.declare(app.journal, season, teams.parse(["Zoë+Ann"]))
    steward.rename_season(app.journal, GAME, "Cup", "Summer Cup")
    renamed = seasons.find(app.journal, GAME, "Summer Cup")
    assert [t["name"] for t in teams.table(app.journal, renamed)] == ["Zoë+Ann"]
    steward.undo(app.journal)
    assert [t["name"] for t in teams.table(app.journal, seasons.find(app.journal, GAME, "Cup"))] == ["Zoë+Ann"]
