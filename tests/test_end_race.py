"""A race ended early from the pause menu, in every activity: its results as they stand
on screen (scrollable, then the main menu), on paper (dated, numbered in the
championship), in the championship, and for ``companion print results``."""

import random

import pytest

from companion.league import ledger, paper
from companion.app import App
from companion.core.journal import Journal
from companion.devices.emulated import HeadlessDisplay
from companion.games import registry
from companion.receipts.model import overflows
from companion.ui import flow
from companion.ui.render import cut_texts, list_window
from companion.ui.view import Menu
from tests.table import PaperTray, press
from companion.ui.nav import PAGING_HINTS

OVER_FOOTERS = ("OK: main menu", PAGING_HINTS["OK: main menu"])
"""The race over: OK goes to the main menu (saying OK held pages a long list)."""


def make_app(state_dir):
    tray = PaperTray()
    return App(journal=Journal(state_dir), display=HeadlessDisplay(), printer=tray,
               rng=random.Random(4)), tray


def play_a_little(app, slug, moves=6):
    act = registry.activity(slug)
    app.start_session(slug, dict(act.demo.options))
    for _ in range(moves):
        move = act.demo.script(app.runner.state)
        if move is None or app.runner.finished():
            break
        app.perform(move)


def end_from_pause(app):
    pause = flow.Pause()
    app.push(pause)
    keys = [k for k, _ in pause.items(app)]
    assert "end" in keys
    press(app, "DOWN " * keys.index("end") + "OK OK")     # End race, then "yes"


RACES = [e.slug for e in registry.playable() if "end" in e.load().pause]


def test_every_pack_that_races_can_be_ended():
    assert {"laps", "street-illegal", "top-speed"} <= set(RACES)


@pytest.mark.parametrize("slug", RACES)
def test_a_race_ended_early_shows_prints_and_counts_its_results(state_dir, slug):
    app, tray = make_app(state_dir)
    play_a_little(app, slug)
    standing = app.runner.results()["standings"]
    before = len(tray.receipts)
    end_from_pause(app)

    # on screen: the results as they stood, scrollable, status END, OK: main menu
    assert isinstance(app.screen, flow.Final)
    frame = app.frame()
    assert frame.title == "Results" and frame.status == "END" and frame.footer in OVER_FOOTERS
    menu = next(w for w in frame.body if isinstance(w, Menu))
    assert len(menu.items) == len(standing) and menu.items[0].startswith("1 ")
    assert menu.selected < 0                 # a list to read: OK goes to the main menu, no row looks chosen
    assert not cut_texts(frame)
    press(app, "DOWN " * 20)
    first, lines, n = list_window(app.frame())
    assert n == len(standing) and first + lines == n       # the last line is on screen

    # on paper: the results receipt, dated and numbered in the championship
    printed = [r for r in tray.receipts[before:] if r.kind == "results"]
    assert len(printed) == 1 and not overflows(printed[0])
    text = "\n".join(printed[0].text_lines())
    top = printed[0].text_lines()[1:4]                       # under the title
    assert "Ended early, as it stood" in top and standing[0]["name"] in text
    assert not any("championship" in line for line in top)            # a one-off: no "race 1"
    assert "Ended early, as it stood" in top

    # the championship counts it, and `print results` finds the same receipt
    session = ledger.last_finished(app.journal)
    assert session.results["standings"] == standing
    assert "1 race" in " ".join(app.championship_lines()[:2])       # on the title's line, or the season's
    again = paper.last_results_receipt(app.journal)
    assert again is not None and again.text_lines() == printed[0].text_lines()

    press(app, "OK")
    assert isinstance(app.screen, flow.Home) and app.journal.open_session() is None
    app.push(flow.Results())                 # the championship: read, then GO prints it all
    (table,) = [w for w in app.frame().body if isinstance(w, Menu)]
    assert "1 race" in " ".join(table.items[:2]) and table.selected < 0


def test_a_dice_session_has_no_end_and_no_program_and_is_a_session(state_dir):
    app, tray = make_app(state_dir)
    for slug in ("dice", "deck"):
        act = registry.activity(slug)
        app.start_session(slug, dict(act.demo.options))
        pause = flow.Pause()
        app.push(pause)
        labels = [label for _, label in pause.items(app)]
        assert labels == ["Continue", "History", "Undo last", *(["Key"] if app.key() else []), "Sound: loud", "Main menu"]
        press(app, "UP OK")                                   # Main menu: the session ends
        assert app.screen.items(app)[0] == ("dice", "Dice roller")     # nothing to continue
        assert app.journal.open_session() is None and app.journal.aside_sessions() == []
    assert [s.activity for s in app.journal.sessions(finished=True)] == ["dice", "deck"]
    assert tray.receipts == []


def test_a_race_has_end_race_and_continue_race(state_dir):
    app, _ = make_app(state_dir)
    app.start_session("laps", dict(registry.activity("laps").demo.options))
    pause = flow.Pause()
    app.push(pause)
    labels = [label for _, label in pause.items(app)]
    assert "End race" in labels and "Print program" in labels
    press(app, "UP OK")
    assert app.screen.items(app)[0] == ("continue", "Continue race")


@pytest.mark.parametrize("slug", RACES)
def test_a_finished_race_says_END_in_every_pack(state_dir, slug):
    app, _ = make_app(state_dir)
    act = registry.activity(slug)
    app.start_session(slug, dict(act.demo.options))
    for _ in range(20000):
        move = act.demo.script(app.runner.state)
        if move is None or app.runner.finished():
            break
        app.perform(move)
    assert app.runner.finished() and not app.moves()
    assert app.frame().status == "END" and app.frame().footer in OVER_FOOTERS
