"""Choices read from the game's data, and describing a new entry on the box: Formula Dé's
circuit question offers every circuit of the data and the owner's files, and "Describe
a circuit" asks the board's numbers with the wizard, saves them in the owner's data and
chooses the new circuit."""

import random
import tomllib

from companion.app import App
from companion.core.journal import Journal
from companion.devices.emulated import HeadlessDisplay
from companion.games import data as game_data
from companion.ui.players import EntryName
from companion.ui.render import cut_texts
from companion.ui.view import Row
from companion.ui.wizard import Describing, Wizard

from tests.table import press
from tests.ui.describing import Player

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
    assert menu(app.frame()).items == ("Example circuit", "Club track", "Monaco", "Edit my circuits",
                                       "Describe a circuit")
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


def to_the_circuit(app, cars):
    """From the main menu to Formula Dé's circuit question, with ``cars`` cars."""
    app.boot()
    home = app.screen
    press(app, "DOWN " * [k for k, _ in home.items(app)].index("formula-de") + "OK")
    wizard = app.screen
    while app.frame().title != "Circuit":
        if wizard.current(app).option.key == "players":
            while wizard.value(wizard.current(app).option) != cars:
                press(app, "UP" if wizard.value(wizard.current(app).option) < cars else "DOWN")
            press(app, "OK GO")                          # the cars keep their colours
        else:
            press(app, "OK")
    return wizard


EXAMPLE = [(8, 3, 1), (17, 4, 2), (27, 3, 1), (35, 5, 2), (46, 2, 1), (54, 4, 1), (63, 3, 1), (72, 6, 3)]
"""A 90-space lap's 8 corners (first space, length, stops): the last ends at 77, before
the grid of 10 cars (spaces 79-89)."""


def test_a_90_space_lap_with_8_corners_takes_50_presses_or_fewer(state_dir):
    app = make_app(state_dir)
    wizard = to_the_circuit(app, 10)
    player = Player(app)
    player.do("UP OK")                                    # "Describe a circuit"
    assert isinstance(app.screen, Describing)
    frame = app.frame()
    assert frame.title == "Lap" and "grid 73-83, 10 cars" in [w.text for w in frame.body if hasattr(w, "text")]
    player.fill(90, 8)
    for at, length, stops in EXAMPLE:
        assert app.frame().title == f"Corner {EXAMPLE.index((at, length, stops)) + 1} of 8"
        player.fill(at, length, stops)
    assert app.frame().title == "Pit, weather"
    assert player.shown()[1][0] == 79                     # just after the last corner
    player.fill(79, 6, 12)
    assert isinstance(app.screen, EntryName) and app.frame().body[0].text == "(My circuit 1)"
    player.do("GO")                                       # the name offered
    assert app.screen is wizard and app.toast == "Saved: My circuit 1"
    assert player.presses <= 50, f"{player.presses} presses: {' '.join(player.keys)}"
    saved = tomllib.loads((state_dir / CIRCUITS / "my-circuit-1.toml").read_text())
    assert saved["corners"] == [{"at": a, "length": n, "stops": s} for a, n, s in EXAMPLE]
    assert (saved["length"], saved["pit"], saved["weather"]["changeable"]) == (90, 79, [7, 12])
    assert wizard.value(wizard.current(app).option) == "my-circuit-1"
    press(app, "BACK")                                    # the message closes, nothing else
    assert app.screen is wizard and app.frame().title == "Circuit" and app.toast == ""
    while app.runner is None:                            # every per-car question: the defaults
        press(app, "OK")
    circuit = app.runner.state.settings.circuit
    assert (circuit.label, circuit.length, [c.at for c in circuit.corners]) == ("My circuit 1", 90,
                                                                                [a for a, _, _ in EXAMPLE])


def test_every_answer_stays_within_what_the_answers_before_it_leave(state_dir):
    app = make_app(state_dir)
    to_the_circuit(app, 10)
    player = Player(app)
    player.do("UP OK")
    player.fill(90, 2)
    texts = lambda: [w.text for w in app.frame().body if not isinstance(w, Row)]   # noqa: E731
    assert texts() == ["1-77, grid 79-89"]              # a space kept for corner 2
    player.do("REPEAT:UP " * 30)
    assert player.shown()[1][0] == 77                     # no further
    player.do("OK")
    assert player.shown()[1][1] == 1 and texts() == ["1-1, grid 79-89"]   # one space left before it
    player.do("BACK")
    player.fill(60, 5, 3)                                 # corner 1: 60-64, three stops
    assert player.shown()[1][0] == 65 + (78 - 64 - 3) // 2    # corner 2 after it
    player.do(" ".join(["DOWN"] * 10))
    assert player.shown()[1][0] == 65 and texts() == ["65-78, grid 79-89"]
    player.do("OK " + "UP " * 20)
    assert player.shown()[1][1] == 12 and texts() == ["1-12, grid 79-89"]
    player.do("OK " + "UP " * 5)
    assert player.shown()[1][2] == 3                      # stops: no more than 3
    player.do("GO")
    assert app.frame().title == "Pit, weather"
    player.do("DOWN " * 30)
    assert player.shown()[1][0] == 77 and texts() == ["77-89, corner ends 76"]
    player.do("BACK BACK")                                # corner 2, then corner 1
    player.do("OK " + "UP " * 3 + "GO")                   # corner 1 three spaces longer: 60-67
    assert player.shown()[1][0] == 68                      # corner 2 pushed after it
    for frame in (app.frame(),):
        assert cut_texts(frame, footer=True) == []


def test_the_grid_follows_the_cars_of_the_race(state_dir):
    app = make_app(state_dir)
    to_the_circuit(app, 4)
    press(app, "UP OK")
    frame = app.frame()
    assert [w.text for w in frame.body if not isinstance(w, Row)] == ["24-400", "grid 79-83, 4 cars"]
    player = Player(app)
    player.fill(84, 1)
    assert [w.text for w in app.frame().body if not isinstance(w, Row)] == ["1-78, grid 79-83"]
    player.fill(76, 3, 1)                                  # 76-78: room for 4 cars, not for 10
    player.fill(81, 8, 14)
    player.do("GO")
    assert app.toast == "Saved: My circuit 1"
    from companion.games.formula_de import rules
    data = app.game_data("formula-de")
    rules.setup({"players": 4, "circuit": "my-circuit-1"}, data)
    import pytest
    with pytest.raises(ValueError, match="10 cars need spaces 73-83 for the grid"):
        rules.setup({"players": 10, "circuit": "my-circuit-1"}, data)


def test_a_circuit_is_named_on_the_box_and_a_name_taken_is_refused(state_dir):
    from companion.ui.players import FIRST, LATER
    app = make_app(state_dir)
    wizard = on_circuit(app)

    def describe_and_name(name):
        press(app, "BACK" if app.toast else "")
        while menu(app.frame()).items[menu(app.frame()).selected] != "Describe a circuit":
            press(app, "DOWN")
        press(app, "OK GO GO GO GO GO GO GO")             # every answer as offered
        assert isinstance(app.screen, EntryName) and app.frame().title == "Name the circuit"
        keys = []
        for i, letter in enumerate(name):
            wheel = FIRST if i == 0 else LATER
            keys += ["DOWN"] * (len(wheel) - wheel.index(letter)) if wheel.index(letter) > 30 else \
                ["UP"] * wheel.index(letter)
            keys.append("OK")
        press(app, " ".join(keys[:-1]) + " GO")

    describe_and_name("Monza")
    assert app.screen is wizard and app.toast == "Saved: Monza"
    assert tomllib.loads((state_dir / CIRCUITS / "monza.toml").read_text())["label"] == "Monza"
    assert wizard.value(wizard.current(app).option) == "monza"
    describe_and_name("monza")
    assert isinstance(app.screen, EntryName)              # refused: the name stays to change
    assert app.toast == "monza is the name of another one already: choose another name"
    assert cut_texts(app.frame(), footer=True) == []
    press(app, "BACK")
    assert isinstance(app.screen, EntryName) and app.frame().alert == ""


def test_a_described_circuit_is_changed_renamed_and_deleted_on_the_box(state_dir):
    app = make_app(state_dir)
    wizard = on_circuit(app)
    press(app, "UP OK GO GO GO GO GO GO GO GO")           # My circuit 1, as offered
    assert app.toast == "Saved: My circuit 1"
    assert menu(app.frame()).items[-2:] == ("Edit my circuits", "Describe a circuit")
    press(app, "BACK DOWN OK")                            # the message closed; "Edit my circuits"
    assert (app.frame().title, menu(app.frame()).items) == ("My circuits", ("My circuit 1",))
    press(app, "OK")
    assert (app.frame().title, menu(app.frame()).items) == ("My circuit 1", ("Change it", "Rename it", "Delete it"))
    press(app, "OK")                                      # change it: its answers back
    assert isinstance(app.screen, Describing) and Player(app).shown()[1] == [84, 5]
    press(app, "UP GO GO GO GO GO GO GO")                 # 85 spaces a lap
    assert app.frame().body[0].text == "My circuit 1"     # its name, to keep
    press(app, "GO")
    assert app.screen is wizard and app.toast == "Saved: My circuit 1"
    assert tomllib.loads((state_dir / CIRCUITS / "my-circuit-1.toml").read_text())["length"] == 85
    press(app, "BACK DOWN OK OK DOWN OK")                 # rename it
    assert isinstance(app.screen, EntryName)
    press(app, "UP " * 20 + "GO")                         # its first letter turned
    assert app.screen is wizard and app.toast.startswith("Saved: ")
    label = app.toast[len("Saved: "):]
    assert tomllib.loads((state_dir / CIRCUITS / "my-circuit-1.toml").read_text())["label"] == label
    assert wizard.value(wizard.current(app).option) == "my-circuit-1"
    press(app, "BACK DOWN OK OK UP OK")                   # delete it
    assert app.frame().title == "Confirm"
    press(app, "OK")
    assert app.screen is wizard and app.toast == f"Deleted: {label}"
    assert not (state_dir / CIRCUITS / "my-circuit-1.toml").exists()
    assert menu(app.frame()).items == ("Example circuit", "Describe a circuit")
    assert wizard.value(wizard.current(app).option) == "default"


def test_a_long_alert_is_shown_a_page_at_a_time_and_back_only_closes_it(state_dir):
    app = make_app(state_dir)
    on_circuit(app)
    long = ("My circuit 1 ends its last corner at 82: 10 cars need spaces 79-89 for the grid. "
            "Race fewer cars or change it.")
    app.toast = long
    pages = []
    while True:
        frame = app.frame()
        assert cut_texts(frame, footer=True) == []
        pages.append(frame.alert)
        if frame.footer != "OK: more  BACK: close":
            break
        press(app, "OK")
    assert len(pages) > 1 and " ".join(pages) == long
    title = app.frame().title
    press(app, "BACK")
    assert app.toast == "" and app.frame().title == title and isinstance(app.screen, Wizard)


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
    assert (app.frame().title, app.frame().status) == ("Track", "1/3")
    press(app, "UP UP OK DOWN GO")                        # 66 spaces: 22 rows; 1 corner
    assert app.frame().title == "Corner 1 of 1"
    press(app, "GO GO")                                   # spaces 16 to 30 (suggested); its name
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
    press(app, "OK OK UP GO")                             # 40 / 80 laps, one brake zone
    assert app.frame().title == "Zone 1 of 1"
    press(app, "GO")                                      # space 16, limit 7
    assert app.frame().title == "Pace 1 of 6"
    press(app, " ".join(["GO"] * 7))
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
    app.frame()
    assert "oops.toml" in app.toast and "not valid TOML" in app.toast
    assert app.frame().footer == "OK: more  BACK: close"    # a page at a time
