"""The app loop with real parts: the journal in SQLite, the renderer, a headless display,
scripted gestures. (The whole stack with gpiozero pins and the luma driver is in
tests/test_demo.py.)"""

import random
import sqlite3

from companion.app import App
from companion.core.journal import Journal
from companion.devices.buttons import ScriptedButtons
from companion.devices.display import HeadlessDisplay
from companion.ui import flow


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


def make_app(state_dir, seed=1, display=None):
    journal = Journal(state_dir)
    display = display or HeadlessDisplay(state_dir / "frames")
    return App(journal=journal, display=display, rng=random.Random(seed))


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
    # Pause menu: Continue, History, Undo last, Print program, End race, Main menu
    app.run(ScriptedButtons.from_keys(f"{TO_3WIDE_DICE} GO BACK UP OK"))
    assert isinstance(app.screen, flow.Home)
    assert app.journal.open_session() is not None
    assert app.screen.items(app)[0] == ("continue", "Continue race")
    app.run(ScriptedButtons.from_keys("OK"))
    assert isinstance(app.screen, flow.Race)


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
        assert "Printer not found" in app.frame().alert and "wait" in app.frame().alert
        app.step(Gesture("DOWN", "press"))          # the message goes with the next press ...
        assert app.frame().alert == ""
        assert app.frame().status.startswith("P!")  # ... the title bar keeps the mark
        assert len(printer.pending()) == 1          # and the receipt is kept
    finally:
        printer.close()
