"""PNG receipts: paper size, ink exactly where the text is, and a reference image.

After an intended change to the drawing, look at the new image, then regenerate with:
    .venv/bin/python -m tests.receipts.test_png
"""

from pathlib import Path

from PIL import Image, ImageChops

from companion.receipts.escpos import END_FEED, LINE_DOTS, layout
from companion.receipts.model import Line, Receipt
from companion.receipts.png import TOP_MARGIN, WIDTH, render
from tests.receipts.samples import results_receipt

REFERENCE = Path(__file__).parent / "reference" / "results.png"


def _ink_rows(img: Image.Image, top: int, bottom: int) -> int:
    band = ImageChops.invert(img.crop((0, top, img.width, bottom)).convert("L"))
    return 0 if band.getbbox() is None else band.getbbox()[3] - band.getbbox()[1]


def _ink_box(img: Image.Image, top: int, bottom: int):
    box = ImageChops.invert(img.crop((0, top, img.width, bottom)).convert("L")).getbbox()
    return box and (box[0], box[2])


def test_size_and_mode():
    receipt = results_receipt()
    img = render(receipt)
    assert img.mode == "1" and img.width == WIDTH == 384
    assert img.height < TOP_MARGIN + sum(line.dots for line in layout(receipt)) + END_FEED * LINE_DOTS


def test_a_preview_has_no_long_blank_tail():
    """The paper feed after a receipt (Feed items, the tear-off feed) is not drawn: the
    preview ends a margin under its last ink."""
    img = render(results_receipt())
    ink_bottom = ImageChops.invert(img).getbbox()[3]
    assert img.height - ink_bottom == TOP_MARGIN


def test_ink_where_the_text_is_and_nowhere_else():
    receipt = results_receipt()
    img = render(receipt)
    y = TOP_MARGIN
    for line in layout(receipt):
        rows = _ink_rows(img, y, y + line.dots)
        if line.text.strip():
            assert rows >= 2, f"no ink for {line.text!r}"
        else:
            assert rows == 0
        y += line.dots
    assert _ink_rows(img, 0, TOP_MARGIN) == 0 and _ink_rows(img, y, img.height) == 0   # margins blank


def test_alignment_bold_and_size():
    receipt = Receipt("x", "", (Line("MMMM"), Line("MMMM", align="right"), Line("MMMM", align="center"),
                                Line("MMMM", bold=True), Line("MMMM", size=2)))
    img = render(receipt)
    top = TOP_MARGIN + 2 * LINE_DOTS                # after the (empty) double-height title
    band = [(top + i * LINE_DOTS, top + (i + 1) * LINE_DOTS) for i in range(5)]
    left, right, centre, bold = (_ink_box(img, a, b) for a, b in band[:4])
    double = _ink_box(img, band[4][0], band[4][0] + 2 * LINE_DOTS)
    assert left[0] == 0 and WIDTH - 12 <= right[1] <= WIDTH
    assert abs((centre[0] + centre[1]) / 2 - WIDTH / 2) <= 6
    assert bold[1] == left[1] + 1                   # struck twice, one dot apart
    assert double[1] - double[0] >= 2 * (left[1] - left[0]) - 2


def test_matches_reference_image():
    img = render(results_receipt())
    ref = Image.open(REFERENCE)
    assert ref.size == img.size
    assert ImageChops.difference(img.convert("L"), ref.convert("L")).getbbox() is None


if __name__ == "__main__":
    REFERENCE.parent.mkdir(exist_ok=True)
    render(results_receipt()).save(REFERENCE, optimize=True)
    print(f"wrote {REFERENCE}")


def test_bold_text_at_the_right_edge_leaves_no_ink_at_the_left():
    """Striking a bold line twice must not wrap its last column round to the margin."""
    receipt = Receipt("x", "", (Line("  " + "W" * 30, bold=True),))   # W fills its whole cell
    top = TOP_MARGIN + 2 * LINE_DOTS
    left, right = _ink_box(render(receipt), top, top + LINE_DOTS)
    assert left >= 24 and right == WIDTH    # the two blank cells stay blank


def test_every_character_of_code_pages_437_and_858_is_drawn_not_a_question_mark():
    """The preview shows what the printer gets: CP437 above U+00FF (box drawing, blocks,
    Greek, maths) used to be drawn as "?" though the printer prints them."""
    from PIL import Image, ImageDraw

    from companion.receipts.png import CELL_H, CELL_W, _draw_char

    def cell(ch):
        image = Image.new("1", (CELL_W, CELL_H), 0)
        _draw_char(ImageDraw.Draw(image), 0, ch)
        return image.tobytes()

    question = cell("?")
    chars = [bytes([b]).decode(page) for page in ("cp437", "cp858") for b in range(0x21, 0x100)
             if b not in (0x7F, 0xFF) and bytes([b]).decode(page) != "\xa0"]
    chars = list(dict.fromkeys(chars))
    drawn_as_question = [ch for ch in chars if ch != "?" and cell(ch) == question]
    assert drawn_as_question == []
    assert len({cell(ch) for ch in chars if ord(ch) > 0xFF}) == len([ch for ch in chars if ord(ch) > 0xFF])
