"""The terminal display in the sizes terminals come in: 80x24 holds the whole screen."""

import io

import pytest

from companion.devices.buttons import TERMINAL_HELP
from companion.devices.emulated import TerminalDisplay, braille_blocks
from companion.ui import screens
from companion.ui.render import render


def frame():
    return render(screens.main_menu(["Dice roller", "Deck shuffler", "Lap counter"], 1))


@pytest.mark.parametrize("columns, lines", [(80, 24), (100, 30), (66, 21)])
def test_the_whole_screen_and_the_keys_fit_a_small_terminal(columns, lines):
    out = TerminalDisplay(stream=io.StringIO(), help_line=TERMINAL_HELP).lines_for(frame(), columns, lines)
    assert len(out) <= lines and all(len(line) <= columns for line in out)
    assert out[0].startswith("\u250c") and any("q quit" in line for line in out)
    assert "130x35 shows full detail" in out[-1]


@pytest.mark.parametrize("columns, lines", [(80, 24), (66, 21), (100, 30)])
def test_the_keys_line_breaks_between_hints_never_inside_one(columns, lines):
    out = TerminalDisplay(stream=io.StringIO(), help_line=TERMINAL_HELP).lines_for(frame(), columns, lines)
    said = [line for line in out if not line.startswith(("\u250c", "\u2502", "\u2514", "("))]
    for hint in TERMINAL_HELP.split("  "):
        assert any(hint in line for line in said), f"{hint!r} broken across lines at {columns}"


def test_full_detail_when_the_terminal_holds_it():
    out = TerminalDisplay(stream=io.StringIO(), help_line=TERMINAL_HELP).lines_for(frame(), 130, 35)
    assert len(out[1]) == 130 and len(out) <= 35 and "full detail" not in out[-1]


def test_a_terminal_too_small_says_the_size_it_needs():
    out = TerminalDisplay(stream=io.StringIO(), help_line=TERMINAL_HELP).lines_for(frame(), 60, 20)
    assert "too small" in out[0] and "66x21" in out[1] and "130x35" in out[1]


@pytest.mark.parametrize("columns, lines", [(40, 12), (24, 10)])
def test_a_narrow_terminal_reads_the_whole_message(columns, lines):
    """A terminal narrower than the message gets it wrapped, not cut: the sizes to make
    it are read whole."""
    out = TerminalDisplay(stream=io.StringIO(), help_line=TERMINAL_HELP).lines_for(frame(), columns, lines)
    assert all(len(line) < columns for line in out) and len(out) <= lines
    said = " ".join(out)
    assert "too small for the screen." in said and "66x21" in said and "(130x35 for full detail)." in said
    assert "q quits" in said


def test_braille_keeps_every_pixel():
    image = frame()
    rows = braille_blocks(image)
    assert len(rows) == 16 and len(rows[0]) == 64
    back = image.copy()
    back.paste(0, (0, 0, 128, 64))
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            bits = ord(ch) - 0x2800
            for dx, dy, bit in ((0, 0, 1), (0, 1, 2), (0, 2, 4), (1, 0, 8), (1, 1, 16), (1, 2, 32),
                                (0, 3, 64), (1, 3, 128)):
                if bits & bit:
                    back.putpixel((2 * c + dx, 4 * r + dy), 1)
    assert back.tobytes() == image.convert("1").tobytes()


def test_a_resized_terminal_is_redrawn_at_once(monkeypatch):
    """"Too small" goes away as soon as the terminal is made larger, not at the next
    change of the screen: the resize signal redraws the last frame."""
    import os
    import shutil
    import signal

    sizes = [os.terminal_size((60, 20))]
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a, **k: sizes[-1])
    stream = io.StringIO()
    display = TerminalDisplay(stream=stream, help_line=TERMINAL_HELP)
    try:
        display.show(frame())
        assert "too small" in stream.getvalue()
        stream.seek(0)
        stream.truncate()
        sizes.append(os.terminal_size((80, 24)))
        os.kill(os.getpid(), signal.SIGWINCH)
        drawn = stream.getvalue()
        assert "too small" not in drawn and "\u250c" in drawn      # the framed screen
    finally:
        display.close()
    assert signal.getsignal(signal.SIGWINCH) != display._on_resize   # closed: handler given back


def test_braille_draws_the_title_bar_and_the_highlighted_row_as_marked_text():
    """At 2x4 pixels a character an inverted field is a solid block with the letters as
    gaps: the 80x24 terminal draws the letters as dots, with a bar at the field's left."""
    from companion.devices.emulated import braille_marked, marked

    image = frame()                                   # title bar, "Deck shuffler" highlighted
    plain, shown = braille_blocks(image), braille_marked(image)
    full = "\u28ff"
    assert plain[0].count(full) > 10 and shown[0].count(full) == 0        # the title bar
    assert max(row.count(full) for row in shown) <= 2                     # no solid fields left
    again = marked(image)
    px = again.load()
    assert all(px[0, y] for y in range(10))           # the marker bar at the left edge
    def lit(im):
        return sum(bin(b).count("1") for b in im.convert("1").tobytes())
    assert lit(again) < lit(image) // 2
    untouched = render(screens.message("Note", "plain"))
    body = (0, 11, 128, 52)
    assert marked(untouched).crop(body).tobytes() == untouched.convert("1").crop(body).tobytes()


@pytest.mark.parametrize("columns, lines", [(130, 35), (80, 24), (66, 21)])
def test_the_table_screens_address_stays_in_sight_after_every_frame(columns, lines):
    """Printed before the terminal display opens, the address would be drawn over: it is
    in the frame's top edge, at every size, and the finest drawing is kept."""
    stream = io.StringIO()
    note = "Table screen: http://192.168.1.20:8080/"
    display = TerminalDisplay(stream=stream, help_line=TERMINAL_HELP, note=note)
    out = display.lines_for(frame(), columns, lines)
    assert note in out[0] and out[0].startswith("\u250c") and len(out) <= lines
    assert all(len(line) <= columns for line in out)
    if columns == 130:
        assert len(out[1]) == 130 and "full detail" not in out[-1]
    display.show(frame())
    display.show(render(screens.main_menu(["Dice roller", "Deck shuffler", "Lap counter"], 2)))
    assert stream.getvalue().count(note) == 2      # redrawn with each frame, never wiped


def test_an_address_wider_than_the_frame_has_a_line_of_its_own():
    note = "Table screen: http://" + "a" * 130 + ":8080/"
    out = TerminalDisplay(stream=io.StringIO(), help_line=TERMINAL_HELP, note=note).lines_for(frame(), 200, 60)
    assert note not in out[0] and note in out


def test_the_board_hands_the_address_to_the_terminal_display(capsys):
    from companion.devices import board
    from companion.table.beside import Beside
    note = Beside(proc=None, port=8081, url="http://10.0.0.2:8081/").note
    display = board._build_display("terminal", {}, None, None, note)
    try:
        assert note == "Table screen: http://10.0.0.2:8081/" and display.note == note
    finally:
        display.close()
