"""A burst of GO never starts, resumes, ends or chooses a session: only a deliberate OK
does. The issue's sequence through the whole input path (gpiozero buttons on mock pins,
the gesture decoder, the app): a lap-counter race put aside, another race finished, then
GO pressed ten times on each screen on the way home. Nothing is resumed and no event is
written to the race aside; OK then does each step."""

import random

import pytest
from gpiozero.pins.mock import MockFactory

from companion.app import App
from companion.core.journal import Journal
from companion.demo import Driver, FakeClock
from companion.devices.board import load_pinout
from companion.devices.buttons import GpioButtons
from companion.devices.emulated import HeadlessDisplay
from companion.devices.gestures import BUTTONS, Timing
from companion.paths import pinout_path
from companion.ui import flow

LAPS = {"game": "none", "length": 1, "count": "up", "timing": "off",
        "players": [{"name": c, "colour": c} for c in ("Red", "Blue", "Yellow")]}


@pytest.fixture
def driver(state_dir):
    pinout = load_pinout(pinout_path())
    clock = FakeClock()
    buttons = GpioButtons({b: pinout["buttons"][b] for b in BUTTONS}, Timing.from_table(pinout["buttons"]),
                          pin_factory=MockFactory(), clock=clock)
    journal = Journal(state_dir)
    app = App(journal=journal, display=HeadlessDisplay(state_dir / "frames"), rng=random.Random(3))
    app.boot()
    yield Driver(app, buttons, clock)
    buttons.close()
    journal.close()


def events_of(journal: Journal, session: int) -> int:
    return len(list(journal.rows(session)))


def gos(driver: Driver, n: int = 10) -> None:
    for _ in range(n):
        driver.press("GO")


def test_ten_gos_after_a_race_never_enter_the_race_aside(driver):
    app, journal = driver.app, driver.app.journal
    app.start_session("laps", LAPS)
    aside = app.runner.session.id
    driver.press("GO")                       # the race starts
    driver.press("GO")                       # Red crossed
    app.start_session("laps", {**LAPS, "players": LAPS["players"][:2]})   # puts the first aside
    assert [s.id for s in journal.aside_sessions()] == [aside]
    kept = events_of(journal, aside)
    while app.moves():
        driver.press("GO")
    finished = app.runner.session.id
    assert app.runner.finished()

    gos(driver)                              # on the results: GO ends nothing
    assert isinstance(app.screen, flow.Race) and app.runner.session.id == finished
    driver.press("OK")                       # a deliberate OK leaves the race over
    assert isinstance(app.screen, flow.Home)
    assert app.screen.items(app)[0] == ("aside", "Races aside (1)")
    gos(driver)                              # "Races aside (1)" highlighted: GO chooses nothing
    assert isinstance(app.screen, flow.Home) and app.runner is None
    driver.press("OK")
    assert isinstance(app.screen, flow.Aside)
    gos(driver)                              # the race aside highlighted: GO resumes nothing
    assert isinstance(app.screen, flow.Aside) and app.runner is None
    assert events_of(journal, aside) == kept
    assert [s.id for s in journal.aside_sessions()] == [aside] and journal.open_session() is None

    driver.press("OK")                       # only OK takes it up
    assert app.runner.session.id == aside and journal.open_session().id == aside
    driver.press("GO")                       # in the race, GO is its main move again
    assert events_of(journal, aside) == kept + 1


def test_go_answers_no_confirm_and_no_pause_menu_choice(driver):
    app, journal = driver.app, driver.app.journal
    app.start_session("laps", LAPS)
    session = app.runner.session.id
    while app.toast:                         # a message over the race: BACK closes it
        driver.press("BACK")
    driver.press("BACK")                     # the pause menu
    assert isinstance(app.screen, flow.Pause)
    gos(driver, 3)                           # "Continue" highlighted: GO does nothing
    assert isinstance(app.screen, flow.Pause)
    labels = [key for key, _ in app.screen.items(app)]
    for _ in range(labels.index("end")):
        driver.press("DOWN")
    driver.press("OK")                       # End race? asked
    assert isinstance(app.screen, flow.Confirm)
    gos(driver, 3)
    assert isinstance(app.screen, flow.Confirm) and journal.session(session).finished is None


def test_every_screen_that_chooses_a_session_says_ok_in_its_footer(driver):
    app = driver.app
    assert "GO" not in app.frame().footer and "OK" in app.frame().footer
