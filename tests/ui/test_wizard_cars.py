"""The wizard asks the per-car questions an activity declares, with no game knowledge:
a choice per car, a number asked only of some cars, points split with a total."""

import random

import pytest

from companion.app import App
from companion.core.journal import Journal
from companion.devices.buttons import ScriptedButtons
from companion.devices.emulated import HeadlessDisplay
from companion.games import registry
from companion.ui import wizard
from companion.ui.render import cut_texts


@pytest.fixture
def app(state_dir, monkeypatch):
    entry = registry.Entry("cartest", "tests.ui.carpack", "tool", "Car test")
    monkeypatch.setitem(registry.TOOLS, "cartest", entry)
    journal = Journal(state_dir)
    yield App(journal=journal, display=HeadlessDisplay(), rng=random.Random(1))
    journal.close()


def press(app, keys):
    app.run(ScriptedButtons.from_keys(keys))


def to_wizard(app):
    keys = [k for k, _ in app.screen.items(app)]
    press(app, "DOWN " * keys.index("cartest") + "OK")
    assert isinstance(app.screen, wizard.Wizard)


def test_each_car_is_asked_its_questions_and_setup_gets_the_answers(app):
    to_wizard(app)
    press(app, "OK GO")                          # 2 cars, named by their colours
    assert app.frame().title == "Red: Driver"
    press(app, "OK")                             # Red: Human
    assert app.frame().title == "Blue: Driver"
    press(app, "DOWN OK")                        # Blue: Automated
    assert app.frame().title == "Blue: Level"    # only the automated car is asked its level
    press(app, "UP OK")                          # level 2
    assert app.frame().title == "Red: Wear points"
    press(app, "OK")                             # the split: keep the default
    assert isinstance(app.screen, wizard.SplitEntry)
    press(app, "GO")
    assert app.frame().title == "Blue: Wear points"
    press(app, "OK OK DOWN OK")                  # edit Tires: DOWN lowers it to 13; OK: done
    press(app, "GO")                             # 19 of 20: refused with a message
    assert isinstance(app.screen, wizard.SplitEntry) and "19 of 20" in app.toast
    press(app, "DOWN OK UP OK GO")               # Brakes +1: 20 again
    players = app.runner.session.options["players"]
    assert [p["driver"] for p in players] == ["human", "auto"]
    assert players[1]["level"] == 2 and players[0]["level"] == 1   # not asked: the default
    assert players[0]["wear"] == {"tires": 14, "brakes": 3, "engine": 3}
    assert players[1]["wear"] == {"tires": 13, "brakes": 4, "engine": 3}


def test_a_split_never_goes_past_its_total_or_a_part_limit(app):
    to_wizard(app)
    press(app, "OK GO OK OK OK")                 # both human; Red's wear points
    split = app.screen
    assert isinstance(split, wizard.SplitEntry)
    press(app, "OK " + "UP " * 5)                # Tires up: already at 14 of 20 in all
    assert split.answer["tires"] == 14 and split.left() == 0
    press(app, "OK DOWN DOWN OK " + "DOWN " * 10)  # Engine down: not below 1
    assert split.answer["engine"] == 1 and split.left() == 2
    assert cut_texts(split.view(app)) == []


def test_back_steps_back_through_the_cars(app):
    to_wizard(app)
    press(app, "OK GO OK")                       # Red answered
    assert app.frame().title == "Blue: Driver"
    press(app, "BACK")
    assert app.frame().title == "Red: Driver"


def test_a_per_car_question_for_one_kind_of_race_is_not_asked_in_another(app):
    road = wizard.Wizard("formula-de", values={"players": 2, "race": "road"})
    assert [(q.option.key, q.car) for q in road.questions(app) if q.car is not None] == [("driver", 0), ("driver", 1)]
    circuit = wizard.Wizard("formula-de", values={"players": 2, "race": "circuit"})
    asked = [(q.option.key, q.car) for q in circuit.questions(app) if q.car is not None]
    assert ("build", 0) in asked and ("build", 1) in asked
    assert not any(key == "tires" for key, _ in asked)        # fitted once the weather is known
