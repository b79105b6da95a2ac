"""The table screen in a real browser: headless Chromium (Debian's ``chromium``) loads the
page for a race of each game and shows what the race holds; the timing tower holds the whole
field in the first screen of a 390x844 phone and of a 1280x800 tablet, a tap on a row opens
that car's dashboard, no word is under 12 CSS px, the chart tells every car apart, the race
is drawn before the page goes live, a press on the box arrives without a reload, and no
error is logged. Screenshots go to the test's folder, or to $TABLE_SCREENSHOTS (the ones
docs/table-screen.md shows are made so)."""

import contextlib
import json
import os
import re
from pathlib import Path

import pytest

from companion.league import record
from companion.games import registry
from companion.table.public import public_view

from tests.browser import Browser, chromium
from tests.table import make_app
from tests.tablescreen.conftest import last_action, play, race
from tests.tablescreen.test_server import get
from tests.tablescreen.test_tower import FINAL

pytestmark = pytest.mark.skipif(chromium() is None, reason="chromium is not installed (apt-get install chromium; "
                                                           ".ci/run installs it when run as root)")

GAMES = {"formula-de": 60, "3-wide": 120, "top-speed": 200, "street-illegal": 60, "lacorsa": 30}
TABLET_MOVES = {"formula-de": 250}     # into its second lap: the chart has begun
PHONE, TABLET, LANDSCAPE = (390, 844), (820, 1180), (1280, 800)
SMALLEST_PX = 12
BLOCKED = "net::ERR_BLOCKED_BY_CLIENT"


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


def shots(tmp_path) -> Path:
    folder = os.environ.get("TABLE_SCREENSHOTS")
    return Path(folder) if folder else tmp_path


def full_field(state_dir, slug: str, moves: int):
    """The demo race of ``slug`` with as many cars as the game takes: 3-Wide's demo already
    races 12, Formula Dé's six are made ten."""
    act = registry.activity(slug)
    options = dict(act.demo.options)
    if slug == "formula-de":
        options["players"] = 10
        options["cars"] = list(options["cars"]) + [{"driver": "human"}] * (10 - len(options["cars"]))
    app = make_app(state_dir)
    app.start_session(slug, options)
    return play(app, slug, moves)


@contextlib.contextmanager
def opened(browser, url: str, size=PHONE, *, dark=False, live=True, block=()):
    """A tab at ``size`` on ``url``, once the page is live (or, ``live=False``, once it has
    drawn its tower); closed after."""
    page = browser.page()
    try:
        page.viewport(*size, dark=dark, mobile=size[0] < 500)
        if block:
            page.block(*block)
        page.goto(url)
        if live:
            page.wait("document.getElementById('live').className === 'on'")
        else:
            page.wait("document.querySelectorAll('#tower > details').length > 0")
        yield page
    finally:
        page.close()


def shown(page) -> dict:
    return json.loads(page.eval("""JSON.stringify({
        title: document.getElementById('title').textContent,
        laps: document.getElementById('laps').textContent,
        turn: document.getElementById('turn').textContent,
        live: document.getElementById('live').textContent,
        tower: [...document.querySelectorAll('#tower > details')].map(d => d.querySelector('.name').textContent),
        order: [...document.querySelectorAll('#standings tr')].slice(1).map(r => r.cells[1].textContent),
        history: [...document.querySelectorAll('#history li')].map(li => li.textContent),
        bars: document.querySelectorAll('#tower .gauge').length,
        chart: document.querySelectorAll('#chart polyline:not(.halo)').length,
        width: document.documentElement.scrollWidth})"""))


def rows(page) -> list[dict]:
    """Each tower row as drawn: the car's name, its place, what it says, and its box."""
    return json.loads(page.eval("""JSON.stringify([...document.querySelectorAll('#tower > details')].map(d => {
        const r = d.firstElementChild.getBoundingClientRect();
        return {name: d.dataset.name, pos: d.querySelector('.pos').textContent, open: d.open,
                vals: [...d.querySelectorAll('.vals span')].map(s => s.textContent),
                state: (d.querySelector('.state') || {}).textContent || '',
                top: r.top, bottom: r.bottom, left: r.left, right: r.right}}))"""))


def text_sizes(page) -> list[tuple[float, str]]:
    """Every visible text of the page with the size it is drawn at in CSS px: the computed
    font size, times the scale of an SVG drawing (its user units to the screen)."""
    return json.loads(page.eval("""(() => {
        const out = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        while (walk.nextNode()) {
            const t = walk.currentNode, e = t.parentElement;
            if (!t.textContent.trim() || e.closest('script, style')) continue;
            const box = e.getBoundingClientRect();
            if (!box.width || !box.height) continue;            // not drawn (a closed dashboard)
            let px = parseFloat(getComputedStyle(e).fontSize);
            if (e instanceof SVGElement) px *= Math.hypot(e.getScreenCTM().a, e.getScreenCTM().b);
            out.push([px, e.tagName + ': ' + t.textContent.trim().slice(0, 40)]);
        }
        return JSON.stringify(out)})()"""))


def assert_legible(page) -> None:
    sizes = text_sizes(page)
    assert sizes, "no text drawn"
    small = [(round(px, 1), what) for px, what in sizes if px < SMALLEST_PX - 0.01]
    assert not small, f"text under {SMALLEST_PX} CSS px: {small[:8]}"


def assert_whole_field(page, view, size) -> None:
    """Every car has its row, in the standings' order, inside the first screen; the cars on
    turn have theirs marked."""
    drawn = rows(page)
    order = [r["name"] for r in view["standings"]]
    assert [r["name"] for r in drawn] == order + [c["name"] for c in view["cars"] if c["name"] not in order]
    assert all(r["pos"] == str(s["position"]) for r, s in zip(drawn, view["standings"]))
    marked = page.eval("[...document.querySelectorAll('#tower > details.turn')].map(d => d.dataset.name)")
    assert sorted(marked) == sorted(view["turn_cars"]), "the rows of the cars on turn are marked, no other"
    late = [(r["name"], round(r["bottom"])) for r in drawn if r["bottom"] > size[1] or r["right"] > size[0]]
    assert not late, f"rows outside the first {size[0]}x{size[1]} screen: {late}"


def errors(page) -> list[str]:
    """The tab's errors but the one a test asked for: the blocked live stream."""
    return [e for e in page.errors() if BLOCKED not in e]


# -- every game ----------------------------------------------------------------------------

@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_page_shows_the_race_and_a_press_arrives(browser, state_dir, serving, tmp_path, slug):
    app = race(state_dir, slug, GAMES[slug])
    srv = serving(state_dir)
    with opened(browser, srv.url) as page:
        seen = shown(page)
        view = public_view(registry.activity(slug), app.runner.state)
        assert seen["title"] == json.loads(get(srv.port, "/state.json")[2])["title"]   # as served
        assert seen["laps"] == view["laps"] and seen["turn"] == view["waiting"]
        assert seen["order"] == [r["name"] for r in view["standings"]]
        assert seen["history"][0] == last_action(state_dir)
        assert seen["bars"] == sum(w["kind"] == "bar" for c in view["cars"] for w in c["widgets"])
        assert seen["width"] <= PHONE[0], "nothing wider than a phone"
        assert_whole_field(page, view, PHONE)
        for row, car in zip(rows(page), sorted(view["cars"], key=lambda c: seen["tower"].index(c["name"]))):
            # the car's numbers, or its note until its pack gives them
            assert row["vals"] == (car.get("row") or ([car["note"]] if car["note"] else []))
            assert row["state"] == (car.get("state") or ("out" if car["out"] else ""))
        page.screenshot(shots(tmp_path) / f"{slug}-phone.png")

        page.eval("document.getElementById('every').click()")     # every dashboard open
        assert all(r["open"] for r in rows(page))
        assert_legible(page)
        assert shown(page)["width"] <= PHONE[0]

        page.eval("window.stillHere = true")             # a reload would lose it
        play(app, slug, 1)
        label = last_action(state_dir)
        # without a reload; how soon is counted in polls in test_server.py, not in a browser's seconds
        page.wait(f"document.querySelector('#history li').textContent === {json.dumps(label)}")
        assert page.eval("window.stillHere === true")
        assert all(r["open"] for r in rows(page)), "an update closes no dashboard"
        assert page.errors() == []


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_tablet_shows_the_field_and_the_chart(browser, state_dir, serving, tmp_path, slug):
    app = race(state_dir, slug, TABLET_MOVES.get(slug, GAMES[slug] * 2))
    srv = serving(state_dir)
    dark = slug == "3-wide"
    with opened(browser, srv.url, TABLET, dark=dark) as page:
        view = public_view(registry.activity(slug), app.runner.state)
        assert_whole_field(page, view, TABLET)
        assert shown(page)["width"] <= TABLET[0]
        assert_legible(page)
        if dark:
            colours = page.eval("[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]")
            assert colours == ["rgb(14, 15, 18)", "rgb(242, 242, 242)"]
        page.screenshot(shots(tmp_path) / f"{slug}-tablet{'-dark' if dark else ''}.png")
        assert page.errors() == []


# -- the whole field at a glance ---------------------------------------------------------------

@pytest.mark.parametrize("size", [PHONE, LANDSCAPE], ids=["phone", "landscape"])
@pytest.mark.parametrize("slug, cars, moves", [("3-wide", 12, 120), ("formula-de", 10, 90)])
def test_every_car_is_in_the_first_screen(browser, state_dir, serving, tmp_path, slug, cars, moves, size):
    app = full_field(state_dir, slug, moves)
    assert len(app.runner.state.cars) == cars
    srv = serving(state_dir)
    with opened(browser, srv.url, size) as page:
        view = public_view(registry.activity(slug), app.runner.state)
        assert_whole_field(page, view, size)
        assert shown(page)["width"] <= size[0]
        assert_legible(page)
        if size == LANDSCAPE and slug == "3-wide":
            page.screenshot(shots(tmp_path) / "3-wide-landscape.png")
        if size == PHONE and slug == "formula-de":
            page.screenshot(shots(tmp_path) / "formula-de-phone-10-cars.png")
        assert page.errors() == []


@pytest.mark.parametrize("slug", ["formula-de", "3-wide", "lacorsa"])
def test_a_finished_race_reads_finished(browser, state_dir, serving, tmp_path, slug):
    """Once the race is over the header and the line above the tower say so, nobody's row is marked on
    turn, and every row says how its car ended (finished, out, demolished...), its place
    the final one."""
    app = race(state_dir, slug, 20000)
    assert app.runner.session.finished is not None or registry.activity(slug).finished(app.runner.state)
    srv = serving(state_dir)
    with opened(browser, srv.url) as page:
        view = public_view(registry.activity(slug), app.runner.state)
        assert shown(page)["turn"] == "The race is over" and shown(page)["laps"].startswith("finished")
        assert_whole_field(page, view, PHONE)
        drawn = rows(page)
        assert all(r["state"] in FINAL for r in drawn), [(r["name"], r["state"]) for r in drawn]
        assert [r["pos"] for r in drawn] == [str(i + 1) for i in range(len(drawn))]
        page.screenshot(shots(tmp_path) / f"{slug}-phone-finished.png")
        assert page.errors() == []


def test_a_tap_on_a_row_opens_that_cars_dashboard(browser, state_dir, serving, tmp_path):
    app = full_field(state_dir, "formula-de", 90)
    srv = serving(state_dir)
    with opened(browser, srv.url) as page:
        view = public_view(registry.activity("formula-de"), app.runner.state)
        drawn = rows(page)
        assert not any(r["open"] for r in drawn)
        third = drawn[2]
        page.click((third["left"] + third["right"]) / 2, (third["top"] + third["bottom"]) / 2)
        page.wait(f"document.querySelectorAll('#tower > details')[2].open")
        car = next(c for c in view["cars"] if c["name"] == third["name"])
        dash = json.loads(page.eval("""JSON.stringify((d => ({
            height: d.querySelector('.dash').getBoundingClientRect().height,
            labels: [...d.querySelectorAll('.dash .w > span:first-child')].map(s => s.textContent)}))
            (document.querySelectorAll('#tower > details')[2]))"""))
        assert dash["height"] > 100 and dash["labels"] == [w["label"] for w in car["widgets"]]
        assert [r["name"] for r in rows(page) if r["open"]] == [third["name"]], "that car's alone"
        page.screenshot(shots(tmp_path) / "formula-de-phone-dashboard.png")

        # the keyboard: a row is a focusable control, Enter opens it
        page.eval("document.querySelectorAll('#tower > details')[5].firstElementChild.focus()")
        page.key("Enter", 13)
        page.wait("document.querySelectorAll('#tower > details')[5].open")
        sixth = rows(page)[5]["name"]

        play(app, "formula-de", 1)                      # a press on the box: both stay open
        label = last_action(state_dir)
        page.wait(f"document.querySelector('#history li').textContent === {json.dumps(label)}")
        assert {r["name"] for r in rows(page) if r["open"]} == {third["name"], sixth}
        page.click((third["left"] + third["right"]) / 2, (third["top"] + third["bottom"]) / 2)
        page.wait(f"!document.querySelector('#tower > details[data-name=\"{third['name']}\"]').open")
        assert page.errors() == []


# -- the chart ------------------------------------------------------------------------------

def chart(page) -> dict:
    return json.loads(page.eval("""JSON.stringify((() => {
        const svg = document.querySelector('#chart svg'), box = svg.getBoundingClientRect();
        const lines = [...svg.querySelectorAll('polyline:not(.halo)')].map(l => {
            const xs = l.getAttribute('points').trim().split(' ').map(p => +p.split(',')[0]);
            const halo = l.previousElementSibling;
            return {stroke: getComputedStyle(l).stroke, dash: l.getAttribute('stroke-dasharray') || '',
                    halo: getComputedStyle(halo).stroke, end: Math.max(...xs)}});
        return {lines, width: box.width, viewBox: svg.viewBox.baseVal.width,
                ground: getComputedStyle(document.getElementById('chart')).backgroundColor,
                labels: [...svg.querySelectorAll('text.label')].map(t => ({text: t.textContent, x: +t.getAttribute('x')})),
                ticks: [...svg.querySelectorAll('text:not(.label):not(.axis)')].map(t => t.textContent),
                axis: svg.querySelector('text.axis').textContent,
                title: document.getElementById('chart-title').textContent}})())"""))


def luminance(css: str) -> float:
    channels = [int(v) / 255 for v in re.findall(r"\d+", css)[:3]]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    x, y = sorted((luminance(a), luminance(b)), reverse=True)
    return (x + 0.05) / (y + 0.05)


@pytest.mark.parametrize("slug, moves", [("3-wide", 200), ("street-illegal", 120)])
def test_the_chart_tells_every_car_apart_on_a_phone(browser, state_dir, serving, tmp_path, slug, moves):
    app = race(state_dir, slug, moves)
    srv = serving(state_dir)
    with opened(browser, srv.url) as page:
        payload = json.loads(get(srv.port, "/state.json")[2])
        names = {n for _, order in payload["chart"] for n in order}
        seen = chart(page)
        assert len(seen["lines"]) == len(names) >= 7
        styles = {(line["stroke"], line["dash"]) for line in seen["lines"]}
        assert len(styles) == len(names), "each car its colour and dash"
        assert abs(seen["width"] - seen["viewBox"]) < 1, "drawn at the width it is shown at"
        # each line's label at its end, right of where the lines stop
        right = max(line["end"] for line in seen["lines"])
        ends = [label["text"] for label in seen["labels"] if label["x"] > right]
        assert sorted(ends) == sorted(names)
        # the axis in the game's own word, the ticks plain numbers
        axis = payload["race"].get("axis", "lap")
        assert seen["axis"].startswith(axis) and all(t.isdigit() for t in seen["ticks"])
        assert axis in seen["title"].lower()
        assert_legible(page)
        page.screenshot(shots(tmp_path) / f"{slug}-phone-chart.png", element="#chart-box")

        page.viewport(*TABLET)                          # turned, or a wider screen: drawn anew
        page.wait("(s => s && Math.abs(s.getBoundingClientRect().width - s.viewBox.baseVal.width) < 1 && "
                  "s.viewBox.baseVal.width > 600)(document.querySelector('#chart svg'))")
        assert_legible(page)
        assert page.errors() == []


def test_every_colour_stands_out_from_the_page(browser, state_dir, serving):
    """White and yellow on a light page, black and purple on a dark one: a line, a swatch
    keeps a 3:1 contrast (WCAG's for a graphic) by its colour or its outline, and the chart's
    outlines follow when the phone turns dark."""
    app = full_field(state_dir, "formula-de", 400)
    assert len({c.colour for c in app.runner.state.cars}) == 10
    srv = serving(state_dir)
    with opened(browser, srv.url) as page:
        assert page.eval("getComputedStyle(document.getElementById('chart')).backgroundColor") == "rgb(242, 242, 244)"
        stands_out(page)
        page.eval("window.lightChart = document.querySelector('#chart svg')")
        page.viewport(*PHONE, dark=True, mobile=True)
        page.wait("document.querySelector('#chart svg') !== window.lightChart")     # drawn anew
        assert page.eval("getComputedStyle(document.getElementById('chart')).backgroundColor") == "rgb(27, 29, 34)"
        stands_out(page)
        assert page.errors() == []


def stands_out(page) -> None:
    seen = chart(page)
    assert len(seen["lines"]) == 10
    faint = [line["stroke"] for line in seen["lines"]
             if max(contrast(line["stroke"], seen["ground"]), contrast(line["halo"], seen["ground"])) < 3]
    assert not faint, f"lines lost on the chart's background: {faint}"
    swatches = json.loads(page.eval("""JSON.stringify([...document.querySelectorAll('#tower .sw')].map(s =>
        [getComputedStyle(s).backgroundColor, getComputedStyle(s).borderTopColor,
         getComputedStyle(s.closest('details')).backgroundColor]))"""))
    assert len(swatches) == 10
    faint = [fill for fill, border, ground in swatches if max(contrast(fill, ground), contrast(border, ground)) < 3]
    assert not faint, f"swatches lost on their row: {faint}"


# -- the first paint --------------------------------------------------------------------------

def test_the_race_is_drawn_before_the_page_goes_live(browser, state_dir, serving):
    app = race(state_dir, "3-wide", 120)
    srv = serving(state_dir)
    with opened(browser, srv.url, live=False, block=["*/events*"]) as page:
        view = public_view(registry.activity("3-wide"), app.runner.state)
        seen = shown(page)
        assert seen["live"] != "live", "the live stream was blocked"
        assert seen["laps"] == view["laps"] and seen["turn"] == view["waiting"]
        assert seen["history"][0] == last_action(state_dir)
        assert seen["chart"] == len(app.runner.state.cars)
        assert_whole_field(page, view, PHONE)
        assert errors(page) == []


def test_a_payload_cannot_leave_its_data_block(browser, state_dir, serving):
    evil = "</script><script>window.broken = 1</script><!--"
    act = registry.activity("lacorsa")
    app = make_app(state_dir)
    app.start_session("lacorsa", dict(act.demo.options, players=[
        {"name": evil, "colour": "Red"}, {"name": "Blue", "colour": "Blue"},
        {"name": "Yellow", "colour": "Yellow"}, {"name": "Green", "colour": "Green"}]))
    play(app, "lacorsa", 10)
    srv = serving(state_dir)
    status, _, body = get(srv.port, "/")
    assert status == 200 and evil.encode() not in body and body.count(b"</script>") == 2
    with opened(browser, srv.url, live=False, block=["*/events*"]) as page:
        assert evil in shown(page)["tower"]
        assert page.eval("window.broken === undefined")
        assert errors(page) == []


# -- what the packs add: a car's numbers and state, the chart's word, what orders the field ----

RENDER = "render((d => {{ {change}; return d }})(JSON.parse(document.getElementById('first').textContent)))"


def test_the_tower_holds_three_numbers_and_a_state_a_car(browser, state_dir, serving, tmp_path):
    """A pack that gives each car its ``row`` (up to three short strings) and its ``state``:
    twelve cars still fit a phone's first screen, the state under the name, the note in the
    dashboard."""
    app = race(state_dir, "3-wide", 120)
    srv = serving(state_dir)
    with opened(browser, srv.url) as page:
        page.eval(RENDER.format(change="d.race.cars.forEach((c, i) => { c.row = ['lap ' + (20 + i), "
                                       "'fuel ' + i, 'dmg ' + (i % 3)]; c.state = i % 4 ? '' : 'in the pits' })"))
        view = public_view(registry.activity("3-wide"), app.runner.state)
        assert_whole_field(page, view, PHONE)
        drawn = {r["name"]: r for r in rows(page)}
        for i, car in enumerate(view["cars"]):
            assert drawn[car["name"]]["vals"] == [f"lap {20 + i}", f"fuel {i}", f"dmg {i % 3}"]
            assert drawn[car["name"]]["state"] == ("" if i % 4 else "in the pits")
        assert shown(page)["width"] <= PHONE[0]
        assert_legible(page)
        leader = next(c for c in view["cars"] if c["name"] == view["standings"][0]["name"])
        page.eval("document.querySelector('#tower > details').open = true")
        assert page.eval("document.querySelector('#tower .dash .note').textContent") == leader["note"]
        page.screenshot(tmp_path / "3-wide-phone-numbers.png")     # made-up numbers: not for the docs
        assert page.errors() == []


def test_the_chart_and_the_order_say_the_games_words(browser, state_dir, serving):
    race(state_dir, "street-illegal", 120)
    srv = serving(state_dir)
    with opened(browser, srv.url) as page:
        page.eval(RENDER.format(change="d.race.axis = 'track card'; "
                                       "d.race.order_note = 'Ordered by place on the street, not by points'"))
        seen = chart(page)
        assert seen["title"] == "Position after each track card" and seen["axis"] == "track card \u2192"
        assert page.eval("document.getElementById('order-note').textContent") == \
            "Ordered by place on the street, not by points"
        assert page.errors() == []


def test_the_season_its_dropped_results_and_every_drivers_record_are_read_on_a_phone(browser, state_dir, serving,
                                                                                   tmp_path):
    from companion.league import seasons
    from tests.test_record import club
    from tests.test_seasons import GAME, race as lap_race

    app, _ = club(state_dir)
    seasons.start(app.journal, GAME, "Final", races=2, drop=1)
    lap_race(app, ["Cy", "Anne"])
    lap_race(app, ["Anne", "Bob", "Cy"])    # the season's last race: its final standings stay shown
    srv = serving(state_dir)
    with opened(browser, srv.url) as page:
        said = json.loads(page.eval("""JSON.stringify({
            title: document.getElementById('champ-title').textContent,
            dropped: document.getElementById('champ-dropped').textContent,
            heads: [...document.querySelectorAll('#drivers th')].map(t => t.textContent),
            drivers: [...document.querySelectorAll('#drivers tr')].slice(1).map(r => [...r.cells].map(c =>
                c.firstChild ? c.firstChild.textContent : "")),
            won: [...document.querySelectorAll('#won li')].map(s => s.textContent),
            past: [...document.querySelectorAll('#past details.season summary')].map(s => s.textContent),
            wide: document.documentElement.scrollWidth,
            table: document.getElementById('drivers').getBoundingClientRect().right})"""))
        assert said["title"] == "Championship: Lap counter, Formula Dé points, season Final (2 races)"
        assert said["dropped"].startswith("Dropped: ")
        assert said["heads"] == ["Driver", "Races", "Wins", "Pod", "Best", "Out", "Pts", "Won"]
        anne = record.find(app.journal, "Anne")
        assert said["drivers"][0] == ["Anne", str(anne.races), str(anne.wins), str(anne.podiums), str(anne.best),
                                      str(anne.not_finished), str(anne.points), str(len(anne.seasons_won))]
        assert [row[0] for row in said["drivers"]] == [d["name"] for d in record.summaries(app.journal)]
        assert said["won"] == ["Anne: " + ", ".join(anne.seasons_won)]          # each driver's seasons won, named
        first = seasons.seasons(app.journal, GAME)[0].name
        assert said["past"] == ["Cup, 2 races: won by Anne (20)", f"{first}, 3 races: won by Anne (26)"]
        page.eval("document.querySelector('#past details').open = true")
        assert page.eval("document.querySelector('#past details table').getBoundingClientRect().right") <= PHONE[0]
        assert page.eval("document.documentElement.scrollWidth") <= PHONE[0]
        page.eval("document.getElementById('champ-box').scrollIntoView()")
        page.screenshot(shots(tmp_path) / "drivers-phone.png")
        assert said["wide"] <= PHONE[0] and said["table"] <= PHONE[0], "the drivers' table fits the phone's width"
        assert_legible(page)
        assert page.errors() == []


def test_a_folder_with_no_journal_says_so_on_the_page(browser, tmp_path, serving):
    empty = tmp_path / "empty"
    empty.mkdir()
    srv = serving(empty)
    with opened(browser, srv.url) as page:
        page.wait("document.getElementById('turn').textContent.length > 0")
        band = page.eval("document.getElementById('turn').textContent")
        assert band.startswith("No journal yet: the box has not started")
