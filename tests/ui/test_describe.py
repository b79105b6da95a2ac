"""Choices read from the game's data, and describing a new entry on the box: Formula Dé's
circuit question offers every circuit of the data and the owner's files, and "Describe
a circuit" asks the board's numbers with the wizard, saves them in the owner's data and
chooses the new circuit."""

import random
import tomllib

from companion.app import App
from companion.core.journal import Journal
from companion.devices.display import HeadlessDisplay
from companion.games import data as game_data
from companion.ui.wizard import Describing, Wizard

from tests.table import press

CIRCUITS = "games/formula-de/circuits"


def make_app(state_dir):
    return App(journal=Journal(state_dir), display=HeadlessDisplay(), rng=random.Random(1), data_dir=state_dir)


def on_circuit(app):
    wizard = Wizard("formula-de")
    app.push(wizard)
    wizard.step = next(i for i, q in enumerate(wizard.questions(app)) if q.option.key == "circuit")
    return wizard


def menu(frame):
    return next(w for w in frame.body if hasattr(w, "items"))


def test_the_circuit_question_offers_the_data_and_the_owners_files(state_dir):
    (state_dir / CIRCUITS).mkdir(parents=True)
    (state_dir / CIRCUITS / "monaco.toml").write_text(
        'label = "Monaco"\nlength = 90\ncorners = [{ at = 12, length = 3, stops = 2 }]\npit = 60\n'
        'weather = { rain = [1, 6], changeable = [7, 12], good = [13, 20] }\n')
    (state_dir / "games" / "formula-de.toml").write_text(
        '[circuits.club]\nlabel = "Club track"\nlength = 70\ncorners = [{ at = 20, length = 4, stops = 1 }]\n'
        'pit = 40\nweather = { rain = [1, 8], changeable = [9, 14], good = [15, 20] }\n')
    app = make_app(state_dir)
    on_circuit(app)
    assert menu(app.frame()).items == ("Example circuit", "Club track", "Monaco", "Describe a circuit")
    wizard = app.screen
    wizard.values["race"] = "road"                       # a road race: the road courses only
    assert menu(app.frame()).items == ("Example road",)
    wizard.values["race"] = "circuit"
    press(app, "DOWN DOWN")
    assert wizard.value(wizard.current(app).option) == "monaco"
    wizard.values["race"] = "road"                       # changed after: what is offered is what is chosen
    assert wizard.value(wizard.current(app).option) == "road"
    press(app, "OK")
    assert wizard.values["circuit"] == "road"


def test_describing_a_circuit_saves_it_chooses_it_and_the_race_follows_it(state_dir):
    app = make_app(state_dir)
    wizard = on_circuit(app)
    press(app, "UP OK")                                   # "Describe a circuit"
    assert isinstance(app.screen, Describing)
    assert (app.frame().title, app.frame().status) == ("Spaces a lap", "1/20")
    press(app, "DOWN DOWN DOWN DOWN OK")                  # 80 spaces a lap
    press(app, "DOWN DOWN DOWN OK")                       # 2 corners
    assert app.frame().title == "C1: starts at"
    press(app, "UP UP OK OK UP OK")                       # C1: space 12, 3 long, 2 stops
    assert app.frame().title == "C2: starts at"
    assert app.screen.value(app.screen.current(app).option, ("corners", 1)) == 23   # suggested after C1
    press(app, "OK UP OK OK")                             # C2: space 23, 4 long, 1 stop
    assert app.frame().title == "Pit entry"
    press(app, "OK OK OK")                                # pit 29, rain 1-8, changeable 9-14
    assert app.screen is wizard and app.toast == "Saved: My circuit 1"
    saved = tomllib.loads((state_dir / CIRCUITS / "my-circuit-1.toml").read_text())
    assert saved["corners"] == [{"at": 12, "length": 3, "stops": 2}, {"at": 23, "length": 4, "stops": 1}]
    assert (saved["length"], saved["pit"], saved["label"]) == (80, 29, "My circuit 1")
    assert wizard.value(wizard.current(app).option) == "my-circuit-1"
    assert "My circuit 1" in menu(app.frame()).items
    while app.screen is wizard:                           # every per-car question: the defaults
        press(app, "OK")
    circuit = app.runner.state.settings.circuit
    assert (circuit.label, circuit.length, [c.at for c in circuit.corners]) == ("My circuit 1", 80, [12, 23])
    decided = [line for w in app.decisions_view().body for line in w.items]
    assert decided[:5] == ["My circuit 1", "80 sp a lap, pit 29", "rain 1-8 chg 9-14", "C1 sp 12-14: 2 stops",
                           "C2 sp 23-26: 1 stop"]
    assert "My circuit 1" in [o[1] for o in Wizard("formula-de").options(app)[-1].choices]   # offered from now on


def test_a_described_circuit_the_game_refuses_says_why_and_keeps_every_answer(state_dir):
    app = make_app(state_dir)
    on_circuit(app)
    press(app, "UP OK OK")                                # 84 spaces a lap
    press(app, "DOWN DOWN DOWN OK")                       # 2 corners
    press(app, "OK OK OK")                                # C1: 10, 3 long, 1 stop
    press(app, "DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN OK OK OK")  # C2 at 7
    press(app, "OK OK OK")
    describing = app.screen
    assert isinstance(describing, Describing) and "inside or before the corner before it" in app.toast
    assert not (state_dir / CIRCUITS).exists()
    assert describing.items[("corners", 1)]["at"] == 7 and app.frame().title == "Changeable to"
    press(app, "HOLD:DOWN")
    assert game_data.pieces("formula-de", state_dir) == {}


def test_an_entry_file_with_a_mistake_is_named_in_the_message(state_dir):
    import pytest

    from companion.core.config import ConfigError
    (state_dir / CIRCUITS).mkdir(parents=True)
    bad = state_dir / CIRCUITS / "broken.toml"
    bad.write_text('label = "Broken"\nlength = 90\ncorners = []\npit = 60\n'
                   'weather = { rain = [1, 6], changeable = [7, 12], good = [13, 20] }\n')
    with pytest.raises(ConfigError) as err:
        game_data.load("formula-de", state_dir)
    assert str(bad) in str(err.value) and "corners" in str(err.value)


def on(app, slug, key):
    wizard = Wizard(slug)
    app.push(wizard)
    wizard.step = next(i for i, q in enumerate(wizard.questions(app)) if q.option.key == key)
    return wizard


def test_3_wide_offers_its_tracks_and_a_described_track_runs_the_race(state_dir):
    app = make_app(state_dir)
    wizard = on(app, "3-wide", "track")
    assert menu(app.frame()).items == ("As the race card", "Classic Oval", "Tri-Oval", "Describe a track")
    press(app, "UP OK")
    assert (app.frame().title, app.frame().status) == ("Track spaces", "1/6")
    press(app, "UP UP OK")                                # 66 spaces: 22 rows
    press(app, "DOWN OK")                                 # 1 corner
    assert app.frame().title == "Corner 1: from sp"
    press(app, "OK OK")                                   # spaces 16 to 30 (suggested)
    assert app.screen is wizard and app.toast == "Saved: My track 1"
    saved = tomllib.loads((state_dir / "games/3-wide/tracks/my-track-1.toml").read_text())
    assert (saved["rows"], saved["corners"]) == (22, [[5, 9]])
    press(app, "OK")
    while app.runner is None:                             # each team's skills: the defaults
        press(app, "OK" if app.screen is wizard else "GO")
    s = app.runner.state.settings
    assert (s.track_label, s.rows, sorted(s.corners)) == ("My track 1", 22, [5, 6, 7, 8, 9])
    decided = [line for w in app.decisions_view().body for line in w.items]
    assert "My track 1: 66 sp" in decided and "corner sp 16-30" in decided


def test_3_wide_a_described_race_card_is_offered_and_set_up(state_dir):
    app = make_app(state_dir)
    wizard = on(app, "3-wide", "race")
    assert menu(app.frame()).items[-1] == "Describe a race"
    press(app, "UP OK")
    assert app.frame().title == "Track"
    press(app, "DOWN OK OK")                              # the Tri-Oval, an intermediate race
    press(app, "OK OK")                                   # 40 / 80 laps
    press(app, "UP OK")                                   # one brake zone
    assert app.frame().title == "Zone 1: space"
    press(app, "OK OK")                                   # space 16, limit 7
    assert app.frame().title == "Pace 1: fuel"
    press(app, " ".join(["OK"] * 18))
    assert app.toast == "Saved: My race 1" and wizard.value(wizard.current(app).option) == "my-race-1"
    saved = tomllib.loads((state_dir / "games/3-wide/races/my-race-1.toml").read_text())
    assert saved["track"] == "tri-oval" and saved["brake_zones"] == [{"space": 16, "limit": 7}]
    assert saved["pace"] == [[1, 1, 3]] * 6
    from companion.games.three_wide import rules
    state = rules.setup({"players": 3, "race": "my-race-1"}, app.game_data("3-wide"))
    assert (state.settings.race_label, state.settings.track_label, state.settings.laps) == ("My race 1", "Tri-Oval", 40)


def test_a_broken_entry_file_is_named_on_the_question_that_reads_the_data(state_dir):
    (state_dir / CIRCUITS).mkdir(parents=True)
    (state_dir / CIRCUITS / "oops.toml").write_text("length = \n")
    app = make_app(state_dir)
    on_circuit(app)
    frame = app.frame()
    assert "oops.toml" in frame.alert and "not valid TOML" in frame.alert
