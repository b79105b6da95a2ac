"""The setup wizard: its headers, and numbers that speed up while UP/DOWN is held."""

import random

from companion.app import App
from companion.core.journal import Journal
from companion.devices.emulated import HeadlessDisplay
from companion.devices.gestures import Gesture
from companion.games.api import Option
from companion.ui.wizard import Wizard, adjust, hold_step


def make_app(state_dir):
    return App(journal=Journal(state_dir), display=HeadlessDisplay(), rng=random.Random(1))


def wizard_on(app, slug, key):
    wizard = Wizard(slug)
    app.push(wizard)
    wizard.step = next(i for i, q in enumerate(wizard.questions(app)) if q.option.key == key)
    return wizard


def test_holding_down_takes_66_laps_to_15_in_a_few_repeats(state_dir):
    app = make_app(state_dir)
    wizard = wizard_on(app, "top-speed", "laps")
    laps = lambda: wizard.value(wizard.current(app).option)   # noqa: E731
    assert laps() == 66
    app.step(Gesture("DOWN", "press"))
    seen, repeats = [laps()], 0
    while laps() > 15:
        app.step(Gesture("DOWN", "repeat"))
        seen.append(laps())
        repeats += 1
    assert laps() == 15 and repeats <= 16
    assert seen[:6] == [65, 64, 63, 62, 61, 60] and seen[6:9] == [55, 50, 45]   # then round values
    app.step(Gesture("UP", "press"))            # a press after the hold: one step again
    assert laps() == 16


def test_a_long_hold_goes_by_tens_within_the_limits(state_dir):
    app = make_app(state_dir)
    wizard = wizard_on(app, "laps", "length")
    app.step(Gesture("UP", "press"))
    for _ in range(40):
        app.step(Gesture("UP", "repeat"))
    assert wizard.value(wizard.current(app).option) == 200


def test_hold_steps_and_round_landings():
    option = Option("laps", "Laps", "number", low=2, high=99)
    assert [hold_step(n) for n in (0, 1, 4, 5, 20, 21, 40)] == [1, 1, 1, 5, 5, 10, 10]
    assert adjust(option, 63, +1, 5) == 60 and adjust(option, 60, +1, 5) == 55
    assert adjust(option, 63, -1, 5) == 65 and adjust(option, 97, -1, 10) == 99
    assert adjust(option, 7, +1, 10) == 2


def test_a_single_question_has_no_step_count(state_dir):
    app = make_app(state_dir)
    app.push(Wizard("dice"))
    frame = app.frame()
    assert frame.title == "Dice of" and frame.status == ""


def test_the_car_list_is_the_same_step_as_the_count(state_dir):
    app = make_app(state_dir)
    wizard_on(app, "laps", "players")
    count = app.frame()
    assert (count.title, count.status) == ("Players", "2/5")
    assert any(getattr(w, "caption", "") == "players 2-12" for w in count.body)
    app.step(Gesture("OK", "press"))
    cars = app.frame()
    assert (cars.title, cars.status) == ("Players", "2/5")
    app.step(Gesture("GO", "press"))
    assert isinstance(app.screen, Wizard) and app.frame().status == "3/5"


def test_points_shared_among_parts_show_each_part_by_its_name(state_dir):
    """3-Wide's skills: every skill and its points, readable to the last, no raw data."""
    from companion.ui.render import cut_texts, list_window

    app = make_app(state_dir)
    app.boot()
    from tests.table import press
    press(app, "DOWN DOWN DOWN DOWN OK OK GO OK OK OK OK")   # players, names, race, length, track, timer
    frame = app.frame()
    assert frame.title.endswith("Skills")
    (menu,) = frame.body
    assert not any("{" in t or "'" in t for t in menu.items), menu
    assert menu.items[-1].startswith("Quick fix") and menu.items[-1].endswith("2")
    assert cut_texts(frame) == [] and len(frame.footer) <= 21
    press(app, "DOWN DOWN DOWN")
    first, shown, n = list_window(app.frame())
    assert first + shown == n                      # the last part is on screen


def test_the_skills_step_says_how_to_go_on_and_go_does(state_dir):
    """3-Wide's Skills: the footer names both ways out; one GO a player goes on."""
    app = make_app(state_dir)
    app.boot()
    from tests.table import press
    press(app, "DOWN DOWN DOWN DOWN OK OK GO OK OK OK OK")   # players, names, race, length, track, timer
    wizard = app.screen
    frame = app.frame()
    assert frame.title.endswith("Skills") and frame.footer == "OK: edit  GO: next"
    step = wizard.step
    press(app, "GO")
    assert app.screen is wizard and wizard.step == step + 1   # the next player's skills (or on)
    press(app, "OK")
    assert app.screen is not wizard                            # OK opens the points to change them
