"""Receipts drawn the way the paper will look: 384 dots wide, 1 bit, font A cells of 12x24.

The text comes from ``escpos.layout()``, the same lines the printer is sent. Glyphs are
Pillow's built-in 6x11 bitmap font doubled with nearest-neighbour scaling (12x22 in a
12x24 cell, so 32 characters fill the width); double size doubles again. Bold is drawn
the way a thermal head does it: the line struck twice, one dot apart.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFont

from companion.receipts.escpos import END_FEED, LINE_DOTS, PrintImage, PrintLine, code_mode, layout, raster_mode
from companion.receipts.model import Receipt

WIDTH = 384
CELL_W, CELL_H = 6, 12          # the bitmap font's cell; scaled x2 it is font A's 12x24
SCALE = 2
TOP_MARGIN = 8
_BARS = "─━═"                   # CP437 box-drawing rules: drawn as a solid bar


@lru_cache(maxsize=1)
def _font() -> ImageFont.ImageFont:
    from companion.charts import font   # one copy of the font for previews and charts
    return font()


# Code pages 437 and 858 above U+00FF, which the Latin-1 bitmap font lacks, drawn here so
# the preview shows every character the printer can be sent (escpos.printable keeps them).
# Box drawing: (up, down, left, right) strokes, 1 single, 2 double.
_BOX = {
    "│": (1, 1, 0, 0), "┤": (1, 1, 1, 0), "╡": (1, 1, 2, 0), "╢": (2, 2, 1, 0), "╖": (0, 2, 1, 0),
    "╕": (0, 1, 2, 0), "╣": (2, 2, 2, 0), "║": (2, 2, 0, 0), "╗": (0, 2, 2, 0), "╝": (2, 0, 2, 0),
    "╜": (2, 0, 1, 0), "╛": (1, 0, 2, 0), "┐": (0, 1, 1, 0), "└": (1, 0, 0, 1), "┴": (1, 0, 1, 1),
    "┬": (0, 1, 1, 1), "├": (1, 1, 0, 1), "┼": (1, 1, 1, 1), "╞": (1, 1, 0, 2), "╟": (2, 2, 0, 1),
    "╚": (2, 0, 0, 2), "╔": (0, 2, 0, 2), "╩": (2, 0, 2, 2), "╦": (0, 2, 2, 2), "╠": (2, 2, 0, 2),
    "╬": (2, 2, 2, 2), "╧": (1, 0, 2, 2), "╨": (2, 0, 1, 1), "╤": (0, 1, 2, 2), "╥": (0, 2, 1, 1),
    "╙": (2, 0, 0, 1), "╘": (1, 0, 0, 2), "╒": (0, 1, 0, 2), "╓": (0, 2, 0, 1), "╫": (2, 2, 1, 1),
    "╪": (1, 1, 2, 2), "┘": (1, 0, 1, 0), "┌": (0, 1, 0, 1),
}
# Blocks and shades: filled rectangles (x0, y0, x1, y1) in the 6x12 cell, or a dot pattern.
_BLOCKS = {"█": (0, 0, 5, 11), "▄": (0, 6, 5, 11), "▀": (0, 0, 5, 5), "▌": (0, 0, 2, 11), "▐": (3, 0, 5, 11),
           "■": (1, 3, 4, 8)}
_SHADES = {"░": lambda x, y: x % 2 == 0 and y % 2 == 0, "▒": lambda x, y: (x + y) % 2 == 0,
           "▓": lambda x, y: not (x % 2 == 0 and y % 2 == 0)}
# The rest as 5x7 bitmaps (rows top to bottom), drawn from the font's cap line (y=2).
_BITMAPS = {
    "₧": "##... #.#.. ##.#. #.### #..#. #..#. #...#", "ƒ": "..##. .#... ###.. .#... .#... .#... #....",
    "⌐": "..... ..... ##### #.... #.... ..... .....", "α": "..... .##.# #..#. #..#. #..#. .##.# .....",
    "Γ": "##### #.... #.... #.... #.... #.... #....", "π": "..... ##### .#.#. .#.#. .#.#. .#.#. .....",
    "Σ": "##### .#... ..#.. ...#. ..#.. .#... #####", "σ": "..... .#### #..#. #..#. #..#. .##.. .....",
    "τ": "..... ##### ..#.. ..#.. ..#.. ...#. .....", "Φ": "..#.. .###. #.#.# #.#.# .###. ..#.. .....",
    "Θ": ".###. #...# #...# ##### #...# #...# .###.", "Ω": ".###. #...# #...# #...# .#.#. .#.#. ##.##",
    "δ": "..##. .#... ..#.. .###. #...# #...# .###.", "∞": "..... ..... .#.#. #.#.# .#.#. ..... .....",
    "φ": "..#.. ..#.. .###. #.#.# .###. ..#.. ..#..", "ε": "..... .###. #.... ###.. #.... .###. .....",
    "∩": "..... .###. #...# #...# #...# #...# .....", "≡": "..... ##### ..... ##### ..... ##### .....",
    "≥": "#.... .##.. ...## .##.. #.... ..... #####", "≤": "....# ..##. ##... ..##. ....# ..... #####",
    "⌠": "...#. ..#.# ..#.. ..#.. ..#.. ..#.. ..#..", "⌡": "..#.. ..#.. ..#.. ..#.. ..#.. #.#.. .#...",
    "≈": "..... .#..# #.##. ..... .#..# #.##. .....", "∙": "..... ..... ..... ..#.. ..... ..... .....",
    "√": "..### ..#.. ..#.. #.#.. .##.. ..#.. .....", "ⁿ": "###.. #..#. #..#. ..... ..... ..... .....",
    "€": "..### .#... ####. .#... ####. .#... ..###", "ı": "..... .##.. ..#.. ..#.. ..#.. .###. .....",
    "‗": "..... ..... ..... ..... ..... ##### #####",
}
_CX, _CY = 2, 5    # where box strokes meet in the cell


def _drawable(ch: str) -> str:
    """A character the Latin-1 bitmap font has, for one CP437 character (those drawn
    here by hand are kept as they are)."""
    if ch in _BARS or ord(ch) < 256 or ch in _BOX or ch in _BLOCKS or ch in _SHADES or ch in _BITMAPS:
        return ch
    plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if ord(c) < 128 and not unicodedata.combining(c))
    return plain[:1] or "?"


def _draw_box(draw: ImageDraw.ImageDraw, x: int, strokes: tuple[int, int, int, int]) -> None:
    up, down, left, right = strokes
    for weight, offsets, is_vertical, span in ((up, None, True, (0, _CY)), (down, None, True, (_CY, CELL_H - 1)),
                                               (left, None, False, (0, _CX)), (right, None, False, (_CX, CELL_W - 1))):
        if not weight:
            continue
        for off in ((0,) if weight == 1 else (-1, 1)):
            if is_vertical:
                draw.line((x + _CX + off, span[0], x + _CX + off, span[1]), fill=255)
            else:
                draw.line((x + span[0], _CY + off, x + span[1], _CY + off), fill=255)


def _draw_char(draw: ImageDraw.ImageDraw, x: int, ch: str) -> None:
    ch = _drawable(ch)
    if ch in _BARS:
        draw.rectangle((x, 5, x + CELL_W - 1, 6 if ch == "─" else 7), fill=255)
    elif ch in _BOX:
        _draw_box(draw, x, _BOX[ch])
    elif ch in _BLOCKS:
        x0, y0, x1, y1 = _BLOCKS[ch]
        draw.rectangle((x + x0, y0, x + x1, y1), fill=255)
    elif ch in _SHADES:
        draw.point([(x + dx, dy) for dx in range(CELL_W) for dy in range(CELL_H) if _SHADES[ch](dx, dy)], fill=255)
    elif ch in _BITMAPS:
        rows = _BITMAPS[ch].split()
        draw.point([(x + dx, 2 + dy) for dy, row in enumerate(rows) for dx, c in enumerate(row) if c == "#"],
                   fill=255)
    else:
        draw.text((x, 0), ch, font=_font(), fill=255)


def _line_image(line: PrintLine) -> Image.Image:
    """The line's text at printer size (white on black: set bits are ink)."""
    small = Image.new("1", (max(1, len(line.text)) * CELL_W, CELL_H), 0)
    draw = ImageDraw.Draw(small)
    for i, ch in enumerate(line.text):
        _draw_char(draw, i * CELL_W, ch)
    size = (small.width * SCALE * line.width, CELL_H * SCALE * line.height)
    big = small.resize(size, Image.NEAREST)
    if line.bold:
        shifted = Image.new("1", big.size, 0)   # one dot right; nothing wraps round
        shifted.paste(big.crop((0, 0, big.width - 1, big.height)), (1, 0))
        big = ImageChops.logical_or(big, shifted)
    return big


def render(receipt: Receipt, printer_config=None) -> Image.Image:
    """``receipt`` as a mode "1" image 384 dots wide (white paper, black ink), as the
    printer of ``printer_config`` (the ``[printer]`` table; default: a printer with
    ``GS v 0``) prints it: a picture is the very raster image it is sent, dot for dot, or
    its text version where the printer has no raster images; a QR code is the image sent,
    or drawn as the printer draws it from ``GS ( k``."""
    config = printer_config if printer_config is not None else {}
    from companion.receipts.printers import of_config
    lines = layout(receipt, WIDTH // (CELL_W * SCALE), raster_mode(config), code_mode(config),
                   of_config(config).encoding)
    height = TOP_MARGIN + sum(line.dots for line in lines) + END_FEED * LINE_DOTS
    ink = Image.new("1", (WIDTH, height), 0)
    y = end = TOP_MARGIN
    for line in lines:
        if isinstance(line, PrintImage):
            ink.paste(ImageChops.invert(line.image.convert("1")), (0, y))
            end = y + line.dots        # a picture is shown whole, white rows at its foot too
        elif line.text:
            img = _line_image(line)
            x = {"left": 0, "center": (WIDTH - img.width) // 2, "right": WIDTH - img.width}[line.align]
            ink.paste(img, (max(0, x), y + line.dots - img.height))
        y += line.dots
    box = ink.getbbox()        # a preview ends under its last ink, not after the paper feed
    if box is not None:
        ink = ink.crop((0, 0, WIDTH, min(height, max(box[3], end) + TOP_MARGIN)))
    return ImageChops.invert(ink)
