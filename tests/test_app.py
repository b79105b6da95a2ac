"""The app loop with real parts: the journal in SQLite, the renderer, a headless display,
scripted gestures. (The whole stack with gpiozero pins and the luma driver is in
tests/test_demo.py.)"""

import random
import sqlite3

from companion.profile import MENU_CHARS
from companion.app import App
from companion.core import rowsums
from companion.core.journal import Journal
from companion.devices.buttons import ScriptedButtons
from companion.devices.emulated import HeadlessDisplay
from companion.ui import flow
from companion.ui.render import list_window
from tests.table import make_app, press
from companion.ui.nav import PAGING_HINTS

OVER_FOOTERS = ("OK: main menu", PAGING_HINTS["OK: main menu"])
"""The race over: OK goes to the main menu (saying OK held pages a long list)."""


class RecordingDisplay(HeadlessDisplay):
    """A headless display that also notes how many journal rows existed at each frame."""

    def __init__(self, out_dir, journal):
        super().__init__(out_dir)
        self.journal = journal
        self.rows_at_frame = []

    def show(self, image):
        db = sqlite3.connect(self.journal.path)
        self.rows_at_frame.append(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        db.close()
        super().show(image)


# Home: Dice roller is the first entry; its wizard asks "Dice of": DOWN twice = 3-Wide.
TO_3WIDE_DICE = "OK DOWN DOWN OK"


def test_roll_is_committed_before_the_frame_shows_it(state_dir):
    journal = Journal(state_dir)
    display = RecordingDisplay(state_dir / "frames", journal)
    app = App(journal=journal, display=display, rng=random.Random(3))
    app.run(ScriptedButtons.from_keys(f"{TO_3WIDE_DICE} GO GO"))
    # the last two frames are the two rolls: each drawn after its event was committed
    assert display.rows_at_frame[-2:] == [1, 2]
    roll = app.runner.state.history[-1]
    assert len(roll.faces) == 4
    assert all(isinstance(f, str) for f in roll.faces)


def test_undo_keeps_history_and_restores_state(state_dir):
    app = make_app(state_dir)
    app.run(ScriptedButtons.from_keys(f"{TO_3WIDE_DICE} GO GO"))
    first = app.runner.state.history[0]
    app.run(ScriptedButtons.from_keys("HOLD:BACK"))
    assert app.runner.state.history == (first,)
    assert app.toast.startswith("Undone:")
    entries = app.runner.history()
    assert [e.undone for e in entries] == [False, True, False]


def test_restart_resumes_the_race_where_it_was(state_dir):
    app = make_app(state_dir)
    app.run(ScriptedButtons.from_keys(f"{TO_3WIDE_DICE} GO GO GO"))
    before = app.runner.state
    app.journal.close()
    again = make_app(state_dir, seed=99)
    again.run(ScriptedButtons.from_keys(""))
    assert isinstance(again.screen, flow.Race)
    assert again.runner.state == before


def test_corrupt_journal_row_is_shown_and_the_rest_replayed(state_dir):
    app = make_app(state_dir)
    app.run(ScriptedButtons.from_keys(f"{TO_3WIDE_DICE} GO GO GO"))
    app.journal.close()
    db = sqlite3.connect(state_dir / Journal.FILENAME)
    rowsums.seal(db)     # a body garbled as it was written: its row's checksum is of it
    db.execute("UPDATE events SET body = 'garbage' WHERE seq = 2")
    db.commit()
    db.close()
    again = make_app(state_dir)
    again.run(ScriptedButtons.from_keys(""))
    assert "entry 2" in again.toast and "skipped" in again.toast
    assert again.runner.state.count == 2
    assert again.frame().alert == again.toast


def test_back_opens_pause_menu_and_main_menu_leaves_race_open(state_dir):
    app = make_app(state_dir)
    app.run(ScriptedButtons.from_keys(""))
    app.start_session("laps", {"players": 3, "length": 2, "timing": "off"})
    # Pause menu: Continue, History, Undo last, Print program, Decisions, End race, Main menu
    press(app, "GO BACK UP OK")
    assert isinstance(app.screen, flow.Home)
    assert app.journal.open_session() is not None
    assert app.screen.items(app)[0] == ("continue", "Continue race")
    press(app, "OK")
    assert isinstance(app.screen, flow.Race)


def test_a_dice_session_ends_when_left(state_dir):
    app = make_app(state_dir)
    # Pause menu of the dice roller: Continue, History, Undo last, Main menu
    app.run(ScriptedButtons.from_keys(f"{TO_3WIDE_DICE} GO BACK UP OK"))
    assert isinstance(app.screen, flow.Home)
    assert app.journal.open_session() is None and app.journal.aside_sessions() == []
    assert app.screen.items(app)[0] == ("dice", "Dice roller")      # nothing to continue
    [session] = app.journal.sessions(finished=True)
    assert session.activity == "dice" and session.results["standings"] == []


def test_no_printer_says_so(state_dir):
    app = make_app(state_dir)
    app.run(ScriptedButtons.from_keys("DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN"))
    app.print_championship()
    assert app.toast == "No finished race yet"


def test_stuck_button_is_reported_not_acted_on(state_dir):
    app = make_app(state_dir)
    app.run(ScriptedButtons.from_keys("STUCK:GO"))
    assert "GO button held down" in app.frame().alert
    assert isinstance(app.screen, flow.Home)


def test_missing_printer_is_said_once_and_the_receipt_waits(state_dir):
    import time

    from companion.devices.buttons import ScriptedButtons as Keys
    from companion.devices.gestures import Gesture
    from companion.devices.printer import open_printer
    from companion.receipts.model import Line, Receipt

    from companion.devices.board import load_pinout

    config = {**load_pinout(None)["printer"], "port": str(state_dir / "no-such-port")}
    printer = open_printer(config, "serial", state_dir / "spool")
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), printer=printer, rng=random.Random(1))
    try:
        app.run(Keys.from_keys(""))
        app.submit(Receipt("results", "Race", (Line("1 Red"),)))
        deadline = time.monotonic() + 10
        while printer.fault is None and time.monotonic() < deadline:
            time.sleep(0.05)
        app.step(None)
        assert "Printer not found" in app.toast and "wait" in app.toast   # said whole, a page at a time
        assert app.frame().alert.startswith("Printer not found")
        app.step(Gesture("BACK", "press"))          # BACK closes the message ...
        assert app.frame().alert == ""
        assert app.frame().status.startswith("P!")  # ... the title bar keeps the mark
        assert len(printer.pending()) == 1          # and the receipt is kept
    finally:
        printer.close()


# -- the race screen's buttons, the end of a race, undo after the end ------------------

def start_laps(app, game="none", cars=2):
    players = [{"name": c, "colour": c} for c in ("Red", "Blue", "Yellow", "Green")[:cars]]
    app.start_session("laps", {"game": game, "players": players, "length": 1, "count": "up", "timing": "off"})


def finish_laps(app):
    """Start, both cars cross the line once (GO: the highlighted crossing each time), results."""
    press(app, "GO GO GO GO")
    assert app.runner.finished()


def test_go_does_the_move_the_footer_shows_then_the_main_move_again(state_dir):
    app = make_app(state_dir)
    start_laps(app)
    press(app, "GO")  # Start race
    assert app.frame().footer == "< Red crossed >"
    press(app, "DOWN")
    assert app.frame().footer == "< Blue crossed >"
    press(app, "GO")  # Blue, as the footer said
    assert [e.label for e in app.runner.history()][-1].startswith("Blue crossed")
    assert app.frame().footer == "< Red crossed >"             # back on the main move


def start_laps_of(app, names):
    players = [{"name": c, "colour": c} for c in names]
    app.start_session("laps", {"game": "none", "players": players, "length": 1, "count": "up", "timing": "off"})


def shown(frame):
    """The list lines a frame draws."""
    first, lines, _ = list_window(frame)
    menu = next(w for w in frame.body if isinstance(w, flow.Menu))
    return menu.items[first:first + lines]


def test_results_scroll_when_the_race_is_over(state_dir):
    app = make_app(state_dir)
    start_laps_of(app, ("Red", "Blue", "Yellow", "Green", "Black", "White"))
    while not app.runner.finished():
        press(app, "GO")
    assert app.runner.finished() and app.frame().footer in OVER_FOOTERS
    items = next(w for w in app.frame().body if isinstance(w, flow.Menu)).items
    assert items[-1] not in shown(app.frame())
    press(app, "DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN")
    assert shown(app.frame())[-1] == items[-1]
    press(app, "UP")  # no presses lost past the end
    assert shown(app.frame())[-1] == items[-2]
    press(app, "HOLD:OK")  # the same list by pages: OK held
    assert shown(app.frame())[-1] == items[-1]
    press(app, "HOLD:OK")  # after the last page, the first
    assert shown(app.frame())[0] == items[0]


def test_undoing_the_last_move_of_a_race_reopens_it(state_dir):
    app = make_app(state_dir)
    start_laps(app)
    finish_laps(app)
    sid = app.runner.session.id
    assert app.journal.session(sid).finished is not None
    assert app.championship_lines()[0] == "Lap counter: 1 race"
    press(app, "HOLD:BACK")
    assert not app.runner.finished()
    session = app.journal.session(sid)
    assert session.finished is None and session.results is None
    assert app.journal.open_session().id == sid               # a reboot resumes it
    assert app.championship_lines() == []                     # and it no longer counts
    press(app, "GO")
    assert app.journal.session(sid).finished is not None


def test_a_lap_counter_race_with_a_games_points_counts_in_the_lap_counters_own(state_dir):
    app = make_app(state_dir)
    start_laps(app, game="formula-de")
    finish_laps(app)
    session = app.journal.session(app.runner.session.id)
    assert session.championship == "laps:formula-de" and session.results["game"] == "formula-de"
    assert app.championship_lines()[0] == "Lap counter"         # the whole name is too long for the screen
    assert app.championship_lines()[1].endswith(", 1 race")
    from companion.league import ledger
    assert ledger.title(session.championship) == "Lap counter, Formula Dé points"


def test_a_lap_counter_race_without_points_is_the_lap_counters_own(state_dir):
    app = make_app(state_dir)
    start_laps(app)
    finish_laps(app)
    session = app.journal.session(app.runner.session.id)
    assert session.championship == "laps" and session.results["game"] == "laps"


def test_a_long_history_entry_goes_on_under_its_words(state_dir):
    """An entry wider than a menu line is never cut: it goes on on the next line, and the
    selection moves from entry to entry."""
    app = make_app(state_dir)
    press(app, f"{TO_3WIDE_DICE} GO BACK DOWN OK")
    assert isinstance(app.screen, flow.History)
    label = app.runner.history()[-1].label
    shown = f"{app.runner.history()[-1].seq} {label}"
    assert len(shown) > MENU_CHARS  # "1 Tire dice: 5xs 7xx 5x 6xx": four faces
    menu = next(w for w in app.frame().body if isinstance(w, flow.Menu))
    assert all(len(item) <= MENU_CHARS for item in menu.items) and len(menu.items) == 2
    assert " ".join(" ".join(menu.items).split()) == shown and menu.selected == 0
    assert app.frame().footer == "BACK: back"
    press(app, "UP")  # nothing above the first entry: stays put
    press(app, "BACK BACK GO BACK DOWN OK UP")  # a second roll; then the first entry again
    menu = next(w for w in app.frame().body if isinstance(w, flow.Menu))
    assert len(menu.items) == 4 and menu.selected == 0


def test_championship_list_scrolls_without_owing_presses(state_dir):
    app = make_app(state_dir)
    start_laps(app, cars=4)
    press(app, "GO GO GO GO GO GO")               # a finished race: 1 title line + 4 cars
    app.push(flow.Results())
    press(app, "DOWN " * 10)
    menu = next(w for w in app.frame().body if isinstance(w, flow.Menu))
    assert len(menu.items) == 6 and shown(app.frame())[-1] == menu.items[-1]   # and the season
    press(app, "UP")
    assert shown(app.frame())[0] == menu.items[1]


def app_after_one_race(state_dir, activity: str, key: str):
    """The app on a journal holding one finished race of ``activity`` kept under ``key``
    (as an older version, or one with other activities, wrote it)."""
    journal = Journal(state_dir)
    sid = journal.start_session(activity, {}, {}, key)
    journal.finish_session(sid, {"game": key, "standings": [{"position": 1, "name": "Red", "points": 0}]})
    return make_app(state_dir)


def test_a_championship_key_that_is_no_game_is_shown_as_it_is(state_dir):
    """A race of an activity this version does not have keeps its key as its name."""
    app = app_after_one_race(state_dir, "old-rally", "old-rally")
    assert app.championship_lines()[0] == "old-rally: 1 race"


def test_an_older_lap_counter_race_kept_under_none_counts_in_the_lap_counters_own(state_dir):
    app = app_after_one_race(state_dir, "laps", "none")
    assert app.championship_lines()[0] == "Lap counter: 1 race"


def test_the_app_is_the_host_the_screens_declare(state_dir):
    """The screens reach the app only through companion.ui.host.Host: the app has every
    member it declares."""
    from companion.ui.host import Host
    app = make_app(state_dir)
    assert isinstance(app, Host)
    members = [m for m in dir(Host) if not m.startswith("_")]
    assert all(hasattr(app, m) for m in members) and "toast" in Host.__annotations__
