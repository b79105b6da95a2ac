"""A list longer than the screen is read to its end the same way on every screen: OK
held shows its next page; where UP/DOWN choose nothing else they scroll it a line."""

from companion.games import registry
from companion.ui import flow
from companion.ui.render import list_window
from companion.ui.view import Menu
from tests.table import make_app, press
from tests.test_conformance import setup_of


def lines_on_screen(frame):
    first, shown, _ = list_window(frame)
    return next(w for w in frame.body if isinstance(w, Menu)).items[first:first + shown]


def all_lines(frame):
    return next(w for w in frame.body if isinstance(w, Menu)).items


def formula_de_grid(state_dir):
    app = make_app(state_dir)
    options = setup_of(registry.activity("formula-de"))[0]
    # every car automated: they fit their own tires, so OK (start the race) is the one move
    options = {**options, "players": [{**car, "driver": "auto"} for car in options["players"]]}
    app.start_session("formula-de", options)
    press(app, "GO")                                  # START: weather and grid
    frame = app.frame()
    assert frame.title == "Grid" and len(app.moves()) == 1
    return app


def test_a_screen_with_one_move_scrolls_its_list_with_up_and_down(state_dir):
    app = formula_de_grid(state_dir)
    lines = all_lines(app.frame())
    first, shown, n = list_window(app.frame())
    assert first == 0 and shown < n == len(lines)
    press(app, "DOWN " * len(lines))
    first, shown, n = list_window(app.frame())
    assert first + shown == n                         # the last line is on the screen
    press(app, "UP " * len(lines))
    assert list_window(app.frame())[0] == 0
    assert app.frame().title == "Grid"                # scrolling played nothing


def test_ok_held_pages_through_the_list_and_back_to_the_top(state_dir):
    app = formula_de_grid(state_dir)
    lines = all_lines(app.frame())
    first, shown, n = list_window(app.frame())
    seen = set(range(first, first + shown))
    pages = 1
    while first + shown < n:
        press(app, "HOLD:OK")
        first, shown, n = list_window(app.frame())
        seen |= set(range(first, first + shown))
        pages += 1
    assert seen == set(range(len(lines))) and pages == -(-len(lines) // shown)
    press(app, "HOLD:OK")
    assert lines_on_screen(app.frame())[0] == lines[0]


def test_the_list_starts_at_the_top_again_after_a_move(state_dir):
    app = formula_de_grid(state_dir)
    press(app, "DOWN DOWN DOWN")
    assert lines_on_screen(app.frame())[0] != all_lines(app.frame())[0]
    press(app, "GO")
    frame = app.frame()
    if list_window(frame) is not None:
        assert list_window(frame)[0] == 0


def test_on_a_screen_with_several_moves_up_down_choose_and_ok_held_pages(state_dir):
    app = make_app(state_dir)
    app.start_session("lacorsa", setup_of(registry.activity("lacorsa"))[0])
    for _ in range(200):                              # on to a screen with a long list and moves
        frame = app.frame()
        window = list_window(frame)
        if window and window[1] < window[2] and len(app.moves()) > 1:
            break
        press(app, "GO")
    else:
        raise AssertionError("no long list with several moves in a race")
    footer = frame.footer
    press(app, "DOWN")
    assert app.frame().footer != footer               # UP/DOWN chose another move
    lines = all_lines(app.frame())
    press(app, "HOLD:OK " * len(lines))
    assert isinstance(app.screen, flow.Race)
