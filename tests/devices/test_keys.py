"""Keys as buttons: --keys scripts, the terminal keyboard (over a real pty), the desktop keyboard."""

import os

import pytest
from hypothesis import given, settings, strategies as st

from companion.devices import DeviceError
from companion.devices.buttons import (KEYS_HELP, InputEnded, ScriptedButtons, TerminalKeys,
                                       decode_terminal, parse_keys)
from companion.devices.gestures import BUTTONS, Gesture


# -- --keys ---------------------------------------------------------------------------

def test_parse_keys_example_from_the_docs():
    assert parse_keys("OK DOWN GO HOLD:BACK REPEAT:UP") == [
        Gesture("OK"), Gesture("DOWN"), Gesture("GO"), Gesture("BACK", "long"), Gesture("UP", "repeat")]


def test_parse_keys_is_case_blind_and_takes_commas():
    assert parse_keys(" ok,down\n hold:go ,, stuck:back") == [
        Gesture("OK"), Gesture("DOWN"), Gesture("GO", "long"), Gesture("BACK", "stuck")]
    assert parse_keys("") == []


@pytest.mark.parametrize("text, bad", [
    ("OK LEFT GO", "'LEFT'"),
    ("HOLD:", "'HOLD:'"),
    ("PRESS:OK", "'PRESS:OK'"),
    ("HOLD:HOLD:OK", "'HOLD:HOLD:OK'"),
    ("REPEAT:GO", "'REPEAT:GO'"),
])
def test_bad_token_is_named_with_the_valid_names(text, bad):
    with pytest.raises(ValueError) as err:
        parse_keys(text)
    message = str(err.value)
    assert bad in message
    assert "UP, DOWN, OK, BACK, GO" in message
    assert "\n" not in message


def test_a_very_long_bad_token_is_shortened():
    with pytest.raises(ValueError) as err:
        parse_keys("X" * 5000)
    assert len(str(err.value)) < 300


@settings(max_examples=3000, deadline=None)
@given(st.text())
def test_any_text_is_gestures_or_one_clear_line(text):
    try:
        gestures = parse_keys(text)
    except ValueError as exc:
        message = str(exc)
        assert message.startswith("bad key ")
        assert "UP, DOWN, OK, BACK, GO" in message
        assert "\n" not in message and len(message) < 300
    else:
        assert all(isinstance(g, Gesture) and g.button in BUTTONS for g in gestures)
        assert len(gestures) == len(text.replace(",", " ").split())


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["UP", "DOWN", "OK", "BACK", "GO", "HOLD:OK", "hold:back", "REPEAT:DOWN",
                                 "repeat:up", "STUCK:GO", "Go"]), max_size=20))
def test_valid_scripts_round_trip(tokens):
    assert len(parse_keys(" ".join(tokens))) == len(tokens)


def test_keys_help_names_every_form():
    for word in ("HOLD:", "REPEAT:UP", "STUCK:"):
        assert word in KEYS_HELP


def test_scripted_buttons_give_the_script_then_end():
    source = ScriptedButtons.from_keys("OK HOLD:BACK")
    assert source.get(timeout=0) == Gesture("OK")
    assert source.get() == Gesture("BACK", "long")
    with pytest.raises(InputEnded):
        source.get(timeout=0)
    source.close()
    source.close()


# -- terminal -----------------------------------------------------------------------------

@pytest.mark.parametrize("data, gestures", [
    (b"\x1b[A\x1b[B", [Gesture("UP"), Gesture("DOWN")]),
    (b"\x1bOA\x1bOB", [Gesture("UP"), Gesture("DOWN")]),
    (b"\r \x7f", [Gesture("OK"), Gesture("GO"), Gesture("BACK")]),
    (b"OBG", [Gesture("OK", "long"), Gesture("BACK", "long"), Gesture("GO", "long")]),
    (b"\x1b[C\x1b[15~x", []),                       # right arrow, F5, unknown letter: ignored
    (b"\x1b\x1b[A", [Gesture("BACK"), Gesture("UP")]),
    (b"oq", [Gesture("OK"), None]),
])
def test_decode_terminal(data, gestures):
    assert decode_terminal(data, final=True) == (gestures, b"")


def test_decode_terminal_waits_for_the_rest_of_an_escape_sequence():
    assert decode_terminal(b"\r\x1b[", final=False) == ([Gesture("OK")], b"\x1b[")
    assert decode_terminal(b"\x1b", final=False) == ([], b"\x1b")
    assert decode_terminal(b"\x1b", final=True) == ([Gesture("BACK")], b"")


@pytest.fixture
def pty_keys():
    master, slave = os.openpty()
    keys = TerminalKeys(fd=slave)
    yield keys, master, slave
    keys.close()
    os.close(master)
    os.close(slave)


def test_terminal_keys_over_a_pty(pty_keys):
    keys, master, _ = pty_keys
    assert keys.get(timeout=0.05) is None
    os.write(master, b"\x1b[Bg")
    assert keys.get(timeout=1) == Gesture("DOWN")
    assert keys.get(timeout=1) == Gesture("GO")
    os.write(master, b"\x1b")                      # Esc alone is BACK once nothing follows
    assert keys.get(timeout=1) == Gesture("BACK")
    os.write(master, b"q")
    with pytest.raises(InputEnded):
        keys.get(timeout=1)


def test_terminal_keys_put_the_terminal_back(pty_keys):
    import termios
    keys, _, slave = pty_keys
    assert not termios.tcgetattr(slave)[3] & termios.ICANON   # cbreak while reading
    keys.close()
    keys.close()
    assert termios.tcgetattr(slave)[3] & termios.ICANON
    with pytest.raises(InputEnded):
        keys.get(timeout=0)


def test_terminal_keys_refuse_a_pipe():
    read, write = os.pipe()
    try:
        with pytest.raises(DeviceError, match="--keys"):
            TerminalKeys(fd=read)
    finally:
        os.close(read)
        os.close(write)


# -- desktop window keyboard ------------------------------------------------------------------

def test_desktop_keys_hold_is_a_long_press(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    from companion.devices.buttons import PygameKeys
    pygame.display.init()
    pygame.display.set_mode((8, 8))
    try:
        now = [0]
        keys = PygameKeys(clock=lambda: now[0])
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))
        assert keys.pump() == []
        now[0] = 800
        assert keys.pump() == [Gesture("BACK", "long")]
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_ESCAPE))
        now[0] = 850
        assert keys.pump() == []
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))
        now[0] = 900
        keys.pump()
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_SPACE))
        now[0] = 950
        assert keys.pump() == [Gesture("GO")]
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        with pytest.raises(InputEnded):
            keys.pump()
    finally:
        pygame.quit()
