"""Repeating a setup: every game run before offers "Same as last race" first; one press
starts it with the last race's answers, its summary on the screen."""

import pytest

from companion.games import registry
from companion.ui import flow
from companion.ui.wizard import Repeat, Wizard
from tests.table import make_app, press
from tests.ui.test_setup_back import words

GAMES = ["street-illegal", "3-wide", "formula-de", "lacorsa", "top-speed", "laps"]


@pytest.mark.parametrize("slug", GAMES)
def test_same_as_last_race_is_first_and_one_press_starts_it(state_dir, slug):
    app = make_app(state_dir)
    app.go_to(("new", slug))
    assert isinstance(app.screen, Wizard)                 # never run here: the questions
    options = dict(registry.activity(slug).demo.options)
    app.start_session(slug, options)
    app.go_home()
    app.go_to(("new", slug))
    frame = app.frame()
    assert isinstance(app.screen, Repeat) and frame.body[0].items[0] == "Same as last race"
    press(app, "OK")
    assert isinstance(app.screen, flow.Race) and app.runner.session.options == app.journal.sessions()[0].options


def test_the_lap_counters_summary_reads_the_last_races_answers(state_dir):
    from tests.test_seasons import race
    app = make_app(state_dir)
    race(app, ["Anne", "Bob"])
    app.go_home()
    app.go_to(("new", "laps"))
    press(app, "GO")
    if app.toast:
        press(app, "BACK")
    summary = words(app.frame())
    assert "2 players, 2 laps" in summary and "GO starts the race" in summary


def test_new_setup_asks_the_questions(state_dir):
    app = make_app(state_dir)
    app.start_session("laps", dict(registry.activity("laps").demo.options))
    app.go_home()
    app.go_to(("new", "laps"))
    press(app, "DOWN OK")
    assert isinstance(app.screen, Wizard) and app.screen.step == 0
