"""The renderer, the font and the generic screens.

Reference PNGs: tests/ui/reference/<name>.png, one per view in ``make_reference.CASES``.
After a deliberate change to the font or layout run ``python -m tests.ui.make_reference``
and look at every PNG before keeping them.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from companion.games.api import Option
from companion.ui import fonts, screens
from companion.ui.render import BODY_TOP, HEIGHT, LINE_H, WIDTH, render
from companion.ui.view import Bar, Big, Menu, Row, Text, View

from .make_reference import CASES, REFERENCE


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_reference_png(name, tmp_path):
    expected = Image.open(REFERENCE / f"{name}.png").convert("1")
    actual = render(CASES[name])
    if actual.tobytes() != expected.tobytes():
        actual.save(tmp_path / f"{name}.png")
        diff = ImageChops.logical_xor(actual, expected).getbbox()
        pytest.fail(f"{name}: differs from the reference in box {diff}; "
                    f"see {tmp_path / name}.png (python -m tests.ui.make_reference regenerates)")


def test_every_reference_png_has_a_view():
    assert {p.stem for p in REFERENCE.glob("*.png")} == set(CASES)


def _lit(im: Image.Image, box: tuple[int, int, int, int]) -> int:
    return im.crop(box).convert("L").histogram()[255]


# --- font -----------------------------------------------------------------------------

def test_every_printable_ascii_character_has_its_own_glyph():
    question = fonts.glyph("?")
    for ch in string.printable.strip():
        assert any(fonts.glyph(ch)), ch
        assert ch == "?" or fonts.glyph(ch) != question, ch
    assert not any(fonts.glyph(" "))


def test_accented_letters_are_composed_and_unknown_characters_drawn_as_question_mark():
    assert fonts.glyph("\u00e9") != fonts.glyph("e")
    assert fonts.glyph("\u00e9")[2:7] == fonts.glyph("e")[2:7]        # same letter body
    assert fonts.glyph("e\u0301") == fonts.glyph("\u00e9")            # decomposed form too
    assert fonts.glyph("\u00c9") != fonts.glyph("\u00e9")
    assert fonts.glyph("\u4e2d") == fonts.glyph("?")
    assert fonts.cells("Dé\u0336!") == ["D", "é\u0336", "!"]


def test_struck_text_has_a_line_through_every_character():
    for ch in "ab 1":
        assert fonts.glyph(ch + fonts.STRIKE)[4] == (1 << fonts.ADVANCE) - 1


@pytest.mark.parametrize("size,chars", [(1, 21), (2, 10), (3, 7)])
def test_characters_per_line(size, chars):
    width = WIDTH - 2                        # 1 px margin each side
    assert fonts.max_chars(size, width) == chars
    assert fonts.text_width("W" * chars, size) <= width < fonts.text_width("W" * (chars + 1), size)


def test_scaled_text_is_the_small_text_scaled_by_nearest_neighbour():
    small = fonts.line_image("Lap 3", 1)
    big = fonts.line_image("Lap 3", 3)
    assert big.size == (small.width * 3, small.height * 3)
    assert big.tobytes() == small.resize(big.size, Image.NEAREST).tobytes()


@given(st.text(max_size=80), st.integers(1, 3), st.integers(1, 128))
def test_truncate_fits_and_keeps_what_fits(text, size, width):
    out = fonts.truncate(text, size, width)
    assert fonts.text_width(out, size) <= width
    if fonts.text_width(text, size) <= width:
        assert out == text
    else:
        assert out == "" or out.endswith(fonts.ELLIPSIS)


@given(st.text(max_size=200), st.integers(1, 3), st.integers(0, 6))
def test_wrap_lines_fit_and_respect_max_lines(text, size, max_lines):
    lines = fonts.wrap(text, size, 126, max_lines=max_lines or None)
    assert all(fonts.text_width(line, size) <= 126 for line in lines)
    if max_lines:
        assert len(lines) <= max_lines
    if not max_lines:                                       # nothing lost, only spaces moved
        assert "".join("".join(lines).split()) == "".join(text.split())


# --- renderer -------------------------------------------------------------------------

def test_big_takes_the_largest_scale_that_fits():
    view = View("Roll", body=(Big("5"),))            # no footer, no caption: 53 px of body
    im = render(view)
    x0, y0, x1, y1 = im.crop((0, BODY_TOP, WIDTH, HEIGHT)).getbbox()
    scale = (y1 - y0) // fonts.CAP
    assert (y1 - y0) == fonts.CAP * scale
    assert (scale + 1) * fonts.CAP > HEIGHT - BODY_TOP - 1     # one step larger would not fit
    glyph = fonts.line_image("5", 1).crop((0, 0, 5, fonts.CAP))
    expected = glyph.resize((5 * scale, fonts.CAP * scale), Image.NEAREST)
    assert im.crop((x0, BODY_TOP + y0, x1, BODY_TOP + y1)).tobytes() == expected.tobytes()
    assert abs(x0 + x1 - WIDTH) <= 1                            # centred


def test_big_wraps_words_rather_than_shrinking_when_that_is_larger():
    one_line = render(View("Card", body=(Big("Full throttle"),), footer="< DRAW >"))
    lines = one_line.crop((0, BODY_TOP, WIDTH, 52))
    assert lines.getbbox()[3] - lines.getbbox()[1] > 2 * fonts.CAP * 2 - 1   # two lines at x2


def test_long_text_is_truncated_with_an_ellipsis():
    long = "Street Illegal the Old Pro moves first"
    cut = fonts.truncate(long, 1, WIDTH - 2)
    assert cut == "Street Illegal the O" + fonts.ELLIPSIS      # 21 characters
    assert render(View("t", body=(Text(long),))).tobytes() == render(View("t", body=(Text(cut),))).tobytes()


def test_menu_scrolls_so_the_selection_is_visible_and_inverted():
    items = tuple(f"Item {chr(65 + i)}" for i in range(12))
    for selected in range(len(items)):
        im = render(View("Menu", body=(Menu(items, selected),), footer="OK"))
        alone = render(View("Menu", body=(Menu((items[selected],), 0),), footer="OK"))
        bands = [y for y in range(BODY_TOP, 52) if im.getpixel((0, y))]
        assert len(bands) == LINE_H                       # one inverted item
        top = bands[0]
        band = im.crop((0, top, 100, top + LINE_H)).tobytes()
        assert band == alone.crop((0, BODY_TOP, 100, BODY_TOP + LINE_H)).tobytes()
        assert _lit(im, (WIDTH - 3, BODY_TOP, WIDTH, 52)) > 0          # scroll bar


def test_widgets_that_do_not_fit_are_left_out():
    many = tuple(Text(f"line {i}") for i in range(30))
    fitting = many[:4]                                  # 4 lines of 10 px in 41 px
    assert render(View("t", body=many, footer="x")).tobytes() == render(View("t", body=fitting, footer="x")).tobytes()
    assert render(View("t", body=many)).tobytes() == render(View("t", body=many[:5])).tobytes()


def test_alert_hides_the_body_and_frames_its_text():
    busy = View("Race", body=(Big("17", caption="gear 5"),), footer="< Roll >", alert="Paper out")
    empty = View("Race", footer="< Roll >", alert="Paper out")
    assert render(busy).tobytes() == render(empty).tobytes()
    assert render(empty).tobytes() != render(View("Race", footer="< Roll >")).tobytes()


def test_footer_selector_has_arrows_at_the_edges():
    im = render(View("t", footer="< GO >"))
    assert _lit(im, (0, 55, 6, 64)) > 0 and _lit(im, (WIDTH - 6, 55, WIDTH, 64)) > 0
    hint = render(View("t", footer="GO"))
    assert _lit(hint, (0, 55, 6, 64)) == 0


def test_bar_fills_in_proportion():
    def fill(value):                       # the longest lit run through the gauge's middle
        im = render(View("t", body=(Bar("Fuel", value, 10),)))
        row = "".join("#" if im.getpixel((x, BODY_TOP + 4)) else "." for x in range(WIDTH))
        longest = max(len(run) for run in row.split("."))
        return longest if longest > fonts.ADVANCE else 0
    assert fill(0) < fill(5) < fill(10)
    assert fill(-3) == fill(0) and fill(99) == fill(10)


_strings = st.text(max_size=60)
_widgets = st.one_of(
    st.builds(Text, _strings, st.integers(-2, 6), st.sampled_from(["left", "center", "right", "x"]),
              st.booleans()),
    st.builds(Big, _strings, _strings),
    st.builds(Row, _strings, _strings, st.booleans()),
    st.builds(Bar, _strings, st.integers(-10**6, 10**6), st.integers(-5, 10**6)),
    st.builds(Menu, st.lists(_strings, max_size=30).map(tuple), st.integers(-5, 40)),
)


@settings(max_examples=300, deadline=None)
@given(st.builds(View, _strings, st.lists(_widgets, max_size=8).map(tuple), _strings, _strings, _strings))
def test_any_view_renders_128x64(view):
    im = render(view)
    assert im.mode == "1" and im.size == (WIDTH, HEIGHT)
    assert render(view).tobytes() == im.tobytes()            # deterministic


# --- screens --------------------------------------------------------------------------

def test_wizard_choice_selects_the_current_value():
    option = Option("weather", "Weather", choices=(("dry", "Dry"), ("wet", "Wet")))
    view = screens.options_wizard(option, "wet", 0, 3)
    assert view.title == "Weather" and view.status == "1/3"
    assert view.body == (Menu(("Dry", "Wet"), 1),)
    assert view.footer.endswith("next")
    assert screens.options_wizard(option, "hail", 2, 3).footer.endswith("start")


def test_wizard_number_shows_the_value_big_with_the_range():
    option = Option("laps", "Laps", kind="number", low=1, high=9)
    (big,) = screens.options_wizard(option, 3, 1, 2).body
    assert big == Big("3", caption="1-9")


def test_history_strikes_undone_entries_and_selects_the_newest():
    view = screens.history(["Start", "Roll 5", "Roll 7"], undone={1})
    (menu,) = view.body
    assert menu.selected == 2
    assert menu.items[0] == "Start" and fonts.STRIKE in menu.items[1] and fonts.STRIKE not in menu.items[2]
    assert screens.history([]).body                       # says that nothing happened


def test_message_and_confirm_wrap_to_the_body():
    long = "word " * 60
    for view in (screens.message("Note", long), screens.confirm(long)):
        assert 1 < len(view.body) <= screens.BODY_LINES
        assert view.body[-1].text.endswith(fonts.ELLIPSIS)
        render(view)


def test_main_menu_and_players():
    assert screens.main_menu(["A", "B"], 1).body == (Menu(("A", "B"), 1),)
    view = screens.players([{"name": "Ann", "colour": "Red"}, {"name": "Blue", "colour": "Blue"}], 1)
    assert view.body == (Menu(("Red: Ann", "Blue"), 1),)


def test_a_history_entry_wider_than_a_line_goes_on_under_its_words():
    """``28 Red crossed: lap 3`` is one character wider than a menu line: it is not cut
    with an ellipsis but goes on, indented past its number, and the selection is its
    first line."""
    from companion.ui.render import cut_texts
    entries = ["27 Blue crossed: lap 3", "28 Red crossed: lap 3", "29 Yellow crossed: lap 12"]
    view = screens.history(entries, undone={2}, selected=1)
    (menu,) = view.body
    assert menu.items[:4] == ("27 Blue crossed:", "   lap 3", "28 Red crossed:", "   lap 3")
    assert menu.selected == 2 and fonts.STRIKE in menu.items[4] and fonts.STRIKE in menu.items[5]
    assert not cut_texts(view, footer=True)
    assert " ".join(" ".join(menu.items[:4]).split()) == " ".join(entries[:2])
