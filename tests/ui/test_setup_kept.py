"""A setup in progress is kept like a race: Ctrl-C or a power cut in the middle of the
wizard (18 screens for a 4-car Formula Dé race) comes back to the same question with
every answer given so far."""

from companion.core.journal import Journal
from companion.ui import flow
from companion.ui.wizard import Wizard
from tests.table import make_app, press


def wizard_of(app):
    return next(s for s in app.stack if isinstance(s, Wizard))


def test_a_setup_comes_back_after_a_power_cut_where_it_was(state_dir):
    app = make_app(state_dir)
    app.boot()
    # 3-Wide: 4 players, the second race, the long race; on to the first car's skills
    press(app, "DOWN DOWN DOWN DOWN OK UP OK GO DOWN OK DOWN OK")
    before = wizard_of(app)
    frame = app.frame()
    assert before.step >= 3 and before.values["players"] == 4
    # the power goes: nothing is closed; a new companion starts on the same card
    again = make_app(state_dir)
    again.boot()
    assert isinstance(again.screen, Wizard)
    shown = again.frame()
    after = wizard_of(again)
    assert (after.slug, after.step, after.values, after.cars) == (before.slug, before.step, before.values,
                                                                  before.cars)
    assert shown.title == frame.title and shown.status == frame.status
    press(again, "BACK")                               # and it goes on from there
    assert wizard_of(again).step == before.step - 1


def test_a_started_race_or_a_setup_left_forgets_the_setup(state_dir):
    app = make_app(state_dir)
    app.boot()
    press(app, "DOWN DOWN DOWN DOWN OK")               # 3-Wide's first question
    assert app.journal.setup_in_progress()["slug"] == "3-wide"
    press(app, "BACK")                                 # left for the main menu
    assert app.journal.setup_in_progress() is None
    press(app, "OK OK GO OK OK OK" + " OK GO" * 3)   # again (race, length, track), then started with the defaults
    assert app.runner is not None
    assert app.journal.setup_in_progress() is None
    again = make_app(state_dir)
    again.boot()
    assert isinstance(again.screen, flow.Race)


def test_a_kept_setup_of_a_game_no_longer_there_is_forgotten(state_dir):
    with Journal(state_dir) as journal:
        journal.save_setup({"slug": "no-such-game", "step": 2, "values": {}, "names": None, "cars": {}})
    app = make_app(state_dir)
    app.boot()
    assert isinstance(app.screen, flow.Home) and app.journal.setup_in_progress() is None
