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

from companion.receipts.escpos import END_FEED, LINE_DOTS, PrintLine, layout
from companion.receipts.model import Receipt

WIDTH = 384
CELL_W, CELL_H = 6, 12          # the bitmap font's cell; scaled x2 it is font A's 12x24
SCALE = 2
TOP_MARGIN = 8
_BARS = "─━═"                   # CP437 box-drawing rules: drawn as a solid bar


@lru_cache(maxsize=1)
def _font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


def _drawable(ch: str) -> str:
    """A character the Latin-1 bitmap font has, for one CP437 character."""
    if ch in _BARS or ord(ch) < 256:
        return ch
    plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if ord(c) < 128 and not unicodedata.combining(c))
    return plain[:1] or "?"


def _line_image(line: PrintLine) -> Image.Image:
    """The line's text at printer size (white on black: set bits are ink)."""
    small = Image.new("1", (max(1, len(line.text)) * CELL_W, CELL_H), 0)
    draw = ImageDraw.Draw(small)
    for i, ch in enumerate(line.text):
        ch = _drawable(ch)
        x = i * CELL_W
        if ch in _BARS:
            draw.rectangle((x, 5, x + CELL_W - 1, 6 if ch == "─" else 7), fill=255)
        else:
            draw.text((x, 0), ch, font=_font(), fill=255)
    size = (small.width * SCALE * line.width, CELL_H * SCALE * line.height)
    big = small.resize(size, Image.NEAREST)
    if line.bold:
        shifted = Image.new("1", big.size, 0)   # one dot right; nothing wraps round
        shifted.paste(big.crop((0, 0, big.width - 1, big.height)), (1, 0))
        big = ImageChops.logical_or(big, shifted)
    return big


def render(receipt: Receipt) -> Image.Image:
    """``receipt`` as a mode "1" image 384 dots wide (white paper, black ink)."""
    lines = layout(receipt, WIDTH // (CELL_W * SCALE))
    height = TOP_MARGIN + sum(line.dots for line in lines) + END_FEED * LINE_DOTS
    ink = Image.new("1", (WIDTH, height), 0)
    y = TOP_MARGIN
    for line in lines:
        if line.text:
            img = _line_image(line)
            x = {"left": 0, "center": (WIDTH - img.width) // 2, "right": WIDTH - img.width}[line.align]
            ink.paste(img, (max(0, x), y + line.dots - img.height))
        y += line.dots
    return ImageChops.invert(ink)
