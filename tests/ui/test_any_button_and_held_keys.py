"""Buttons as the docs promise them: any button leaves the QR screen, and a number held
down speeds up from a terminal too, where a held key comes as the terminal's key repeat
(a stream of presses and no release)."""

import os
import time

import pytest

from companion.devices.buttons import KeyRepeat, TerminalKeys
from companion.devices.gestures import Gesture
from companion.ui.tablecode import TableCode
from companion.ui.wizard import Wizard
from tests.table import make_app, press


@pytest.mark.parametrize("button", ["UP", "DOWN", "OK", "BACK", "GO", "HOLD:OK", "REPEAT:DOWN"])
def test_any_button_leaves_the_qr_screen(button, state_dir):
    app = make_app(state_dir)
    app.table = {"enabled": True, "port": 8080}
    app.boot()
    app.start_session("dice", {"game": "3-wide"})
    press(app, "BACK")
    items = [k for k, _ in app.screen.items(app)]
    press(app, "DOWN " * items.index("table") + "OK")
    assert isinstance(app.screen, TableCode)
    press(app, button)
    assert not isinstance(app.screen, TableCode), f"{button} kept the QR screen"
    assert [k for k, _ in app.screen.items(app)] == items          # back in the pause menu


def test_presses_of_one_key_in_quick_succession_are_a_hold():
    repeat = KeyRepeat(interval_ms=100)
    kinds = [repeat.seen(Gesture("UP"), t).kind for t in (0, 40, 80, 120, 400, 430)]
    assert kinds == ["press", "repeat", "repeat", "repeat", "press", "repeat"]
    assert repeat.seen(Gesture("DOWN"), 450).kind == "press"         # another key: a new press
    assert repeat.seen(Gesture("OK"), 460) == Gesture("OK")          # only UP and DOWN repeat


@pytest.fixture
def laps_question(state_dir):
    """The lap counter's setup at its number of laps (10)."""
    app = make_app(state_dir)
    app.boot()
    app.push(Wizard("laps"))
    press(app, "OK OK GO")                       # points, players, the car list
    wizard = app.screen
    question = wizard.current(app)
    assert question.option.key == "length" and wizard.value(question.option, question.car) == 10
    return app, wizard, question


def terminal_feed(app, master, keys, key: bytes, times: int, gap_s: float) -> None:
    """``key`` typed ``times``, ``gap_s`` apart, each read as the app's loop reads it."""
    for _ in range(times):
        os.write(master, key)
        app.handle(keys.get(timeout=1))
        time.sleep(gap_s)


def test_a_number_held_in_a_terminal_speeds_up(laps_question):
    app, wizard, question = laps_question
    master, slave = os.openpty()
    keys = TerminalKeys(fd=slave)
    try:
        terminal_feed(app, master, keys, b"\x1b[A", 30, 0.02)   # key repeat: 30 a second and more
        held = wizard.value(question.option, question.car)
        assert held >= 100, f"30 repeats of UP from 10 gave {held}: no faster than presses"
        terminal_feed(app, master, keys, b"\x1b[B", 3, 0.25)    # taps: one lap each
        assert wizard.value(question.option, question.car) == held - 3
    finally:
        keys.close()
        os.close(master)
        os.close(slave)
