"""The table screen in a real browser: headless Chromium (Debian's ``chromium``) loads the
page for a race of each game, shows what the race holds, sees a press on the box arrive
without a reload, logs no error, and is legible on a 360-px phone and a landscape tablet,
light and dark. Screenshots go to the test's folder, or to $TABLE_SCREENSHOTS (the ones
docs/table-screen.md shows are made so)."""

import json
import os
from pathlib import Path

import pytest

from companion.games import registry
from companion.table.public import public_view

from tests.browser import Browser, chromium
from tests.tablescreen.conftest import last_action, play, race
from tests.tablescreen.test_server import get

pytestmark = pytest.mark.skipif(chromium() is None, reason="chromium is not installed (apt-get install chromium; "
                                                           ".ci/run installs it when run as root)")

GAMES = {"formula-de": 60, "3-wide": 120, "top-speed": 200, "street-illegal": 60, "lacorsa": 30}


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


def shots(tmp_path) -> Path:
    folder = os.environ.get("TABLE_SCREENSHOTS")
    return Path(folder) if folder else tmp_path


def shown(page) -> dict:
    return page.eval("""JSON.stringify({
        title: document.getElementById('title').textContent,
        laps: document.getElementById('laps').textContent,
        turn: document.getElementById('turn').textContent,
        cars: [...document.querySelectorAll('#cars .car h3')].map(h => h.lastChild.textContent),
        order: [...document.querySelectorAll('#standings tr')].slice(1).map(r => r.cells[1].textContent),
        history: [...document.querySelectorAll('#history li')].map(li => li.textContent),
        bars: document.querySelectorAll('#cars .gauge').length,
        chart: document.querySelectorAll('#chart polyline').length,
        width: document.documentElement.scrollWidth})""")


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_page_shows_the_race_and_a_press_arrives(browser, state_dir, serving, tmp_path, slug):
    app = race(state_dir, slug, GAMES[slug])
    srv = serving(state_dir)
    page = browser.page()
    try:
        page.viewport(360, 740, mobile=True)
        page.goto(srv.url)
        page.wait("document.getElementById('live').className === 'on'")
        seen = json.loads(shown(page))
        act = registry.activity(slug)
        view = public_view(act, app.runner.state)
        assert seen["title"] == json.loads(get(srv.port, "/state.json")[2])["title"]   # as served
        assert seen["laps"] == view["laps"] and seen["turn"] == view["waiting"]
        assert sorted(seen["cars"]) == sorted(c["name"] for c in view["cars"])
        assert seen["order"] == [r["name"] for r in view["standings"]]
        assert seen["history"][0] == last_action(state_dir)
        assert seen["bars"] == sum(w["kind"] == "bar" for c in view["cars"] for w in c["widgets"])
        assert seen["width"] <= 360, "nothing wider than a phone"
        page.screenshot(shots(tmp_path) / f"{slug}-phone.png")

        page.eval("window.stillHere = true")             # a reload would lose it
        play(app, slug, 1)
        label = last_action(state_dir)
        # without a reload; how soon is counted in polls in test_server.py, not in a browser's seconds
        page.wait(f"document.querySelector('#history li').textContent === {json.dumps(label)}")
        assert page.eval("window.stillHere === true")
        assert page.errors() == []
    finally:
        page.close()


def test_a_tablet_in_landscape_in_the_dark(browser, state_dir, serving, tmp_path):
    app = race(state_dir, "3-wide", 400)
    srv = serving(state_dir)
    page = browser.page()
    try:
        page.viewport(1280, 800, dark=True)
        page.goto(srv.url)
        page.wait("document.getElementById('live').className === 'on'")
        seen = json.loads(shown(page))
        assert seen["chart"] == len(app.runner.state.cars), "a line a car in the lap chart"
        assert seen["width"] <= 1280
        colours = page.eval("[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]")
        assert colours == ["rgb(14, 15, 18)", "rgb(242, 242, 242)"]
        page.screenshot(shots(tmp_path) / "3-wide-tablet-dark.png")
        assert page.errors() == []
    finally:
        page.close()
