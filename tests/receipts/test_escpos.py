"""ESC/POS encoding: exact bytes for a small receipt, and a round trip through the
printer's interpreter (``companion.devices.printer_sim.decode``) for whole receipts."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.config import ConfigError
from companion.devices.printer_sim import Decoder, decode, paper_text
from companion.receipts.escpos import END_FEED, encode, encode_lines, printable
from companion.receipts.model import Columns, Feed, Line, Receipt, Rule
from tests.receipts.samples import results_receipt

CONFIG = {"heat_dots": 7, "heat_time": 80, "heat_interval": 2, "chars_per_line": 32}


def test_small_receipt_exact_bytes():
    receipt = Receipt("program", "Race", (Line("Go!", bold=True, size=2, align="right"), Feed(), Rule("="),
                                           Columns(("1", "Anna"), (4, 6))))
    assert encode(receipt, CONFIG) == (
        b"\x1b@"                     # initialise
        b"\x1b7\x07\x50\x02"         # heat: 7 dots, 800 us, 20 us
        b"\x1bt\x13"                 # code page 858
        b"\x1b3\x18"                 # line spacing 24 dots
        b"\x1d!\x01\x1ba\x01\x1bE\x01Race\n"        # title: double height, centred, bold
        b"\x1d!\x11\x1ba\x02Go!\n"                   # double size, right, still bold
        b"\x1d!\x00\n"                               # blank line at normal size
        b"\x1ba\x00\x1bE\x00" + b"=" * 32 + b"\n"    # rule
        b"1     Anna\n"                             # columns, last one right-aligned
        b"\x1bd\x04"                 # feed 4 lines to the tear bar
    )


def test_results_round_trip_text_and_styles():
    receipt = results_receipt()
    printed = decode(encode(receipt, CONFIG))
    assert printed.unknown == [] and printed.resets == 1
    text = paper_text(printed.lines)
    assert text[:-END_FEED] == receipt.text_lines()
    assert text[-END_FEED:] == [""] * END_FEED
    title, *_ = printed.lines
    assert (title.bold, title.width, title.height, title.align) == (True, 1, 2, "center")
    winner = next(line for line in printed.lines if line.text == "WINNER")
    assert (winner.bold, winner.width, winner.height) == (True, 2, 2)
    header = next(line for line in printed.lines if line.text.startswith("Pos"))
    assert header.bold and header.width == 1
    assert not next(line for line in printed.lines if line.text.startswith("1 ")).bold


def test_chunks_carry_the_paper_each_line_takes():
    receipt = results_receipt()
    chunks = encode_lines(receipt, CONFIG)
    assert b"".join(data for data, _ in chunks) == encode(receipt, CONFIG)
    printer = Decoder()
    for data, dots in chunks:          # the paper each chunk moves, as the printer counts it
        assert printer.feed(data) == dots
    assert sum(dots for _, dots in chunks) == sum(line.dots for line in printer.lines)


def test_text_outside_code_page_437():
    def to_cp437(text):
        return printable(text, "cp437")
    assert to_cp437("Chloé Ærö ß ñ") == "Chloé Ærö ß ñ"           # all in CP437: printed as is
    assert to_cp437("Łódź Dvořák Søren") == "Lódz Dvorák Soren"   # ó, á are in CP437
    assert to_cp437("€5 – “go”…") == 'EUR5 - "go"...'
    assert to_cp437("a\x1b@b\tc\n") == "a@bc"                      # no control codes reach the printer
    assert to_cp437("漢") == "?"
    assert to_cp437("Ève Ôscar Ãna") == "Eve Oscar Ana"             # capitals CP437 lacks: their plain letter
    data = encode(Receipt("x", "Chloé", (Line("Dvořák"),)), {**CONFIG, "codepage": "cp437"})
    assert data.startswith(b"\x1b@") and b"\x1bt\x00" in data     # ESC t 0 selects CP437
    assert b"Chlo\x82" in data and b"Dvor\xa0k\n" in data   # á is 0xA0 in CP437


def test_every_letter_of_the_name_wheel_prints_as_itself_in_code_page_858():
    """The default code page (CP858, ESC t 19) holds every letter a name can be typed
    with on the box: sent as its own byte, decoded back by the printer as itself."""
    from companion.devices.printer_sim import Decoder
    from companion.ui.players import FIRST, LATER

    lacking = {"œ": "oe", "Œ": "OE", "Ÿ": "Y"}        # not in CP858: their plain letters, on paper only
    letters = "".join(sorted(set(FIRST + LATER) - {" "} - set(lacking)))
    assert printable(letters) == letters
    assert [printable(ch) for ch in lacking] == list(lacking.values())
    assert printable("Søren €5 Œdipe") == "Søren €5 OEdipe"         # € is in CP858, Œ is not
    lines = [letters[i:i + 30] for i in range(0, len(letters), 30)]
    data = encode(Receipt("x", "Chloé Zoë", tuple(Line(t) for t in lines)), CONFIG)
    assert b"\x1bt\x13" in data and b"?" not in data
    printer = Decoder()
    printer.feed(data)
    assert [line.text.strip() for line in printer.lines][:1 + len(lines)] == ["Chloé Zoë", *lines]


@pytest.mark.parametrize("page,sent", [("cp850", b"\x1bt\x02"), ("cp1252", b"\x1bt\x10"), ("cp437", b"\x1bt\x00")])
def test_the_code_page_is_a_printer_setting(page, sent):
    from companion.devices.printer_sim import Decoder
    data = encode(Receipt("x", "Søren", (Line("Ærø Zoë Ève"),)), {**CONFIG, "codepage": page})
    assert sent in data
    printer = Decoder()
    printer.feed(data)
    want = "Soren" if page == "cp437" else "Søren"          # CP437 lacks ø, È: their plain letter on paper
    assert printer.lines[0].text.strip() == want
    assert printer.lines[1].text.strip() == ("Æro Zoë Eve" if page == "cp437" else "Ærø Zoë Ève")


def test_an_unknown_code_page_is_refused_with_the_ones_there_are():
    from companion.core.config import ConfigError
    with pytest.raises(ConfigError, match="printer.codepage.*cp437, cp850, cp1252, cp858"):
        encode(Receipt("x", "y", ()), {**CONFIG, "codepage": "latin9"})


def test_long_text_is_cut_to_the_paper_width():
    receipt = Receipt("x", "T" * 40, (Line("A" * 40), Line("B" * 40, size=2)))
    lines = decode(encode(receipt, CONFIG)).lines
    assert [line.text for line in lines[:3]] == ["T" * 32, "A" * 32, "B" * 16]   # no wrapped extra lines


def test_bad_heat_setting_is_one_clear_line():
    with pytest.raises(ConfigError, match=r"printer\.heat_time: must be 0\.\.255, not 300"):
        encode(results_receipt(), {**CONFIG, "heat_time": 300})
    with pytest.raises(ConfigError, match=r"printer\.heat_dots: missing"):
        encode(results_receipt(), {"heat_time": 80, "heat_interval": 2})


_text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)
_line = st.builds(Line, _text, st.booleans(), st.sampled_from([1, 2]), st.sampled_from(["left", "center", "right"]))
_cols = st.builds(lambda a, b, bold: Columns((a, b), (10, 22), bold), _text, _text, st.booleans())
_item = st.one_of(_line, _cols, st.builds(Rule, st.sampled_from("-=*")), st.builds(Feed, st.integers(0, 3)))


@settings(max_examples=60, deadline=None)
@given(_text, st.lists(_item, max_size=12))
def test_any_receipt_prints_as_its_text(title, items):
    receipt = Receipt("any", title, tuple(items))
    printed = decode(encode(receipt, CONFIG))
    assert printed.unknown == []
    assert paper_text(printed.lines)[:-END_FEED] == receipt.text_lines()
