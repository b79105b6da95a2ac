"""Naming the cars in the setup wizard, with the buttons, through the app and the journal."""

from companion.kit.cars import COLOURS
from companion.ui import flow
from companion.ui.render import alert_pages
from companion.ui.players import FIRST, LATER, MAX_NAME, NameEntry, Players, clash, clean
from tests.table import make_app, press

# Home: Lap counter is the third entry; its wizard: Points, Cars (4: OK names them), Race laps,
# Counter, Lap times.
TO_CARS = "DOWN DOWN OK OK OK"
AFTER_CARS = "OK OK OK"          # laps, counter, lap times: the defaults; the race starts


def letters(target: str, wheel: str) -> str:
    """UP presses that turn a blank slot to ``target``."""
    return " ".join(["UP"] * wheel.index(target))


def type_name(name: str) -> str:
    keys = [letters(name[0], FIRST)]
    for ch in name[1:]:
        keys += ["OK", letters(ch, LATER)]
    return " ".join(k for k in keys if k) + " GO"


def test_type_a_name_and_the_race_uses_it(state_dir):
    app = make_app(state_dir)
    press(app, TO_CARS)
    assert isinstance(app.screen, Players)
    assert [i for i in app.frame().body[0].items] == ["Red", "Blue", "Yellow", "Green"]
    press(app, "DOWN OK")                       # name Blue
    assert isinstance(app.screen, NameEntry) and app.frame().title == "Name of Blue"
    assert app.frame().body[0].text == "(Blue)"  # a blank name keeps the colour
    press(app, type_name("Ada"))
    assert isinstance(app.screen, Players)
    assert app.frame().body[0].items[1] == "Blue: Ada"
    press(app, "GO " + AFTER_CARS)
    assert isinstance(app.screen, flow.Race)
    players = app.runner.session.options["players"]
    assert players[:2] == [{"name": "Red", "colour": "Red"}, {"name": "Ada", "colour": "Blue"}]
    press(app, "GO")                            # start: the crossing moves carry the name
    assert "Ada crossed" in [m.label for m in app.runner.moves()]


def test_back_at_the_first_letter_leaves_the_name_as_it_was(state_dir):
    app = make_app(state_dir)
    press(app, TO_CARS + " OK " + type_name("Bo"))
    press(app, "OK UP OK UP BACK BACK")        # turn two letters, then leave
    assert isinstance(app.screen, Players)
    assert app.frame().body[0].items[0] == "Red: Bo"


def test_a_name_is_at_most_six_letters_and_blanks_are_trimmed(state_dir):
    app = make_app(state_dir)
    press(app, TO_CARS + " OK " + type_name("Maxi") + " OK")
    entry = app.screen
    assert isinstance(entry, NameEntry) and "".join(entry.chars) == "Maxi"
    press(app, "OK " * 5)                       # blanks appended up to the limit only
    assert len(entry.chars) == MAX_NAME and entry.cursor == MAX_NAME - 1
    press(app, "GO")
    assert app.frame().body[0].items[0] == "Red: Maxi"


def test_ok_on_the_last_letter_keeps_the_name_and_says_so(state_dir):
    """The footer never offers a move that does nothing: on the sixth letter there is no
    next one, so OK keeps the name, as GO does."""
    app = make_app(state_dir)
    press(app, TO_CARS + " OK " + type_name("Maxi") + " OK")
    press(app, "OK " * 4)
    assert isinstance(app.screen, NameEntry) and app.frame().footer == "OK: next  GO: keep"
    press(app, "OK")
    assert app.screen.cursor == MAX_NAME - 1 and app.frame().footer == "OK: keep"
    press(app, "OK")
    assert isinstance(app.screen, Players) and app.frame().body[0].items[0] == "Red: Maxi"


def test_emptying_a_name_gives_the_car_its_colour_back(state_dir):
    app = make_app(state_dir)
    press(app, TO_CARS + " OK " + type_name("Bo"))
    press(app, "OK " + " ".join(["DOWN"] * FIRST.index("B")) + " OK " + " ".join(["DOWN"] * LATER.index("o")))
    assert isinstance(app.screen, NameEntry) and app.frame().body[0].text == "(Red)"
    press(app, "GO")
    assert app.frame().body[0].items[0] == "Red"


def test_a_name_another_car_has_is_refused_with_a_message(state_dir):
    app = make_app(state_dir)
    press(app, TO_CARS + " OK " + type_name("Blue"))   # the Blue car is called Blue
    assert isinstance(app.screen, NameEntry)
    assert app.frame().alert == "Blue is called Blue already"
    press(app, "BACK")                                  # BACK on the message only closes it
    assert isinstance(app.screen, NameEntry) and app.frame().alert == ""
    press(app, "BACK BACK BACK BACK")                   # to the first letter, and out unchanged
    assert app.frame().body[0].items[0] == "Red"


def test_the_last_races_names_are_offered_again(state_dir):
    app = make_app(state_dir)
    press(app, TO_CARS + " DOWN DOWN OK " + type_name("Cy") + " GO " + AFTER_CARS)
    press(app, "BACK" if app.toast else "")            # the printer's message closed
    press(app, "GO")                                    # the race starts (before it, BACK is the setup)
    press(app, "BACK" if app.toast else "")
    press(app, "BACK UP OK")                            # pause menu > Main menu
    assert isinstance(app.screen, flow.Home)
    # the lap counter again (Continue is first); the race still open is put aside; a new setup
    press(app, "DOWN DOWN DOWN OK DOWN DOWN OK DOWN OK OK OK")
    assert isinstance(app.screen, Players)
    assert app.frame().body[0].items[2] == "Yellow: Cy"


def test_clean_and_clash():
    assert clean("  Al   Bo  ") == "Al Bo" and clean("Bartholomew") == "Bartho"
    colours = COLOURS[:3]
    assert clash({"Blue": "Ada"}, colours, "Red", "ada") == "Blue"
    assert clash({}, colours, "Red", "yellow") == "Yellow"      # an unnamed car is its colour
    assert clash({"Blue": "Ada"}, colours, "Blue", "Ada") is None
    assert clash({}, colours, "Red", "Green") is None           # Green is not in this race


def test_a_name_that_becomes_another_cars_colour_is_dropped_when_the_field_grows(state_dir):
    """Red named "Yellow" in a race of two; with three cars Yellow is in the race: Red
    gets its colour back rather than two cars sharing a name."""
    app = make_app(state_dir)
    press(app, "DOWN DOWN OK OK DOWN DOWN OK")            # Points, then 4 cars -> 2
    assert isinstance(app.screen, Players) and len(app.screen.colours) == 2
    press(app, "OK " + type_name("Yellow") + " BACK UP OK")   # back: 2 -> 3 cars
    assert isinstance(app.screen, Players)
    assert app.frame().body[0].items == ("Red", "Blue", "Yellow")
    press(app, "GO " + AFTER_CARS)
    assert isinstance(app.screen, flow.Race)


def test_a_setup_the_game_refuses_is_a_message_and_the_answers_stay(state_dir):
    import random

    from companion.app import App
    from companion.core.journal import Journal
    from companion.devices.emulated import HeadlessDisplay

    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), rng=random.Random(1), data_dir=state_dir)
    (state_dir / "games").mkdir()
    (state_dir / "games" / "formula-de.toml").write_text("[points.race]\npositions = 'many'\n")
    press(app, "DOWN DOWN OK")                             # the lap counter
    wizard = app.screen
    press(app, "DOWN DOWN DOWN OK OK GO OK OK OK")         # Points: Formula Dé (owner's file)
    assert app.screen is wizard and app.runner is None
    assert "formula-de.toml" in app.toast and len(alert_pages(app.toast)) > 1   # said a page at a time
    assert wizard.values["game"] == "formula-de" and wizard.current(app).option.key == "timing"


def test_an_accented_name_is_typed_on_the_wheel_kept_and_drawn(state_dir):
    """Zoë and Chloé: the accented letters close the wheel (DOWN from a blank reaches
    them), the journal keeps the true name, and the OLED has a glyph for every letter."""
    from companion.ui import fonts
    from companion.ui.players import ACCENTED
    from companion.ui.render import render

    def down_to(ch, wheel):
        return " ".join(["DOWN"] * (len(wheel) - wheel.index(ch)))

    assert FIRST.index("É") == len(FIRST) - 1 and LATER.index("é") == len(LATER) - 1   # one DOWN away
    app = make_app(state_dir)
    press(app, TO_CARS + " OK " + letters("Z", FIRST) + " OK " + letters("o", LATER) + " OK "
          + down_to("ë", LATER) + " GO")
    press(app, "DOWN OK " + letters("C", FIRST) + " OK " + letters("h", LATER) + " OK " + letters("l", LATER)
          + " OK " + letters("o", LATER) + " OK " + down_to("é", LATER) + " GO")
    assert list(app.frame().body[0].items[:2]) == ["Red: Zoë", "Blue: Chloé"]
    image = render(app.frame())
    press(app, "GO " + AFTER_CARS)
    players = app.runner.session.options["players"]
    assert [p["name"] for p in players[:2]] == ["Zoë", "Chloé"]
    question = fonts.glyph("?")
    every = set(FIRST + LATER) - {" ", "?"}
    assert [ch for ch in sorted(every) if fonts.glyph(ch) == question] == []
    assert {ch.upper() for ch in ACCENTED} - {"SS"} <= set(FIRST)      # capitals too (but ß)
    assert image.getbbox() is not None


def _lit_rows(a, b) -> list[int]:
    """The pixel rows where two frames differ."""
    from PIL import ImageChops
    diff = ImageChops.logical_xor(a.convert("1"), b.convert("1"))
    return [y for y in range(diff.height) if any(diff.getpixel((x, y)) for x in range(diff.width))]


def test_descenders_of_g_and_j_clear_the_cursor_marks():
    """g, j, p, q and y hang below the line: the marks under the name are drawn lower, so
    at least four blank pixel rows part them, at double size and in small letters alike,
    and the help line under the marks is still whole."""
    from dataclasses import replace
    from companion.ui.render import cut_texts, render
    from companion.ui.view import Text
    for name in ("gjpq", "gjpqy gjpqy gj"):
        entry = NameEntry("Red", {}, COLOURS, chars=list(name), cursor=1)
        view = entry.view(None)
        full = render(view)
        name_rows = _lit_rows(full, render(replace(view, body=(Text("", size=view.body[0].size),) + view.body[1:])))
        mark_rows = _lit_rows(full, render(replace(view, body=(view.body[0], replace(view.body[1], text=""), view.body[2]))))
        assert name_rows and mark_rows and min(mark_rows) - max(name_rows) > 4, (name, name_rows, mark_rows)
        assert not cut_texts(view, footer=True) and "letter" in view.body[2].text
        help_rows = _lit_rows(full, render(replace(view, body=view.body[:2] + (Text(""),))))
        assert help_rows and max(help_rows) < 53          # above the footer's rule
