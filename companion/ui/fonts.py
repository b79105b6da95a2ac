"""The pixel font of the 128x64 OLED: a 5x7 bitmap font defined here, scaled by integers.

One glyph is 5 px wide with a 1 px gap (6 px advance) and 9 px tall: capitals and digits
use rows 0-6, lower case letters rows 2-6, descenders (g, j, p, q, y, comma) rows 7-8.
Size 2 and 3 are the same glyphs scaled with nearest neighbour, so every size stays crisp.

Characters per line on 128 px: 21 at size 1, 10 at size 2, 7 at size 3 (see docs/ui.md).

Accented letters (é, Ü, ç...) are composed from the base letter and a mark; a character
followed by U+0336 (combining long stroke) is drawn struck through; anything else the
font lacks is drawn as "?". Metrics and wrapping are pure Python; PIL is imported only
when a line is first drawn, and every drawn line is cached.
"""

from __future__ import annotations

from functools import lru_cache

from companion.profile import ADVANCE, CAP, CELL  # noqa: F401  (the metrics live in the display profile)

ELLIPSIS = "\u2026"
STRIKE = "\u0336"

# Rows top to bottom, "#" = lit. Rows not given are blank. Keep glyphs 5 columns wide.
_GLYPHS: dict[str, str] = {
    " ": "",
    "!": "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..",
    '"': ".#.#. .#.#. .#.#.",
    "#": ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.",
    "$": "..#.. .#### #.#.. .###. ..#.# ####. ..#..",
    "%": "##... ##..# ...#. ..#.. .#... #..## ...##",
    "&": ".##.. #..#. #.#.. .#... #.#.# #..#. .##.#",
    "'": "..#.. ..#.. .#...",
    "(": "...#. ..#.. .#... .#... .#... ..#.. ...#.",
    ")": ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",
    "*": "..... ..#.. #.#.# .###. #.#.# ..#..",
    "+": "..... ..#.. ..#.. ##### ..#.. ..#..",
    ",": "..... ..... ..... ..... ..... .##.. .##.. ..#.. .#...",
    "-": "..... ..... ..... ##### ",
    ".": "..... ..... ..... ..... ..... .##.. .##..",
    "/": "..... ....# ...#. ..#.. .#... #....",
    "0": ".###. #...# #..## #.#.# ##..# #...# .###.",
    "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
    "2": ".###. #...# ....# ...#. ..#.. .#... #####",
    "3": "##### ...#. ..#.. ...#. ....# #...# .###.",
    "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
    "5": "##### #.... ####. ....# ....# #...# .###.",
    "6": "..##. .#... #.... ####. #...# #...# .###.",
    "7": "##### ....# ...#. ..#.. .#... .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# .###.",
    "9": ".###. #...# #...# .#### ....# ...#. .##..",
    ":": "..... .##.. .##.. ..... .##.. .##..",
    ";": "..... .##.. .##.. ..... .##.. .##.. ..#.. .#...",
    "<": "...#. ..#.. .#... #.... .#... ..#.. ...#.",
    "=": "..... ..... ##### ..... #####",
    ">": ".#... ..#.. ...#. ....# ...#. ..#.. .#...",
    "?": ".###. #...# ....# ...#. ..#.. ..... ..#..",
    "@": ".###. #...# ....# .##.# #.#.# #.#.# .###.",
    "A": ".###. #...# #...# ##### #...# #...# #...#",
    "B": "####. #...# #...# ####. #...# #...# ####.",
    "C": ".###. #...# #.... #.... #.... #...# .###.",
    "D": "###.. #..#. #...# #...# #...# #..#. ###..",
    "E": "##### #.... #.... ####. #.... #.... #####",
    "F": "##### #.... #.... ####. #.... #.... #....",
    "G": ".###. #...# #.... #.### #...# #...# .####",
    "H": "#...# #...# #...# ##### #...# #...# #...#",
    "I": ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
    "J": "..### ...#. ...#. ...#. ...#. #..#. .##..",
    "K": "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
    "L": "#.... #.... #.... #.... #.... #.... #####",
    "M": "#...# ##.## #.#.# #.#.# #...# #...# #...#",
    "N": "#...# #...# ##..# #.#.# #..## #...# #...#",
    "O": ".###. #...# #...# #...# #...# #...# .###.",
    "P": "####. #...# #...# ####. #.... #.... #....",
    "Q": ".###. #...# #...# #...# #.#.# #..#. .##.#",
    "R": "####. #...# #...# ####. #.#.. #..#. #...#",
    "S": ".#### #.... #.... .###. ....# ....# ####.",
    "T": "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "U": "#...# #...# #...# #...# #...# #...# .###.",
    "V": "#...# #...# #...# #...# #...# .#.#. ..#..",
    "W": "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
    "X": "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
    "Y": "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
    "Z": "##### ....# ...#. ..#.. .#... #.... #####",
    "[": ".###. .#... .#... .#... .#... .#... .###.",
    "\\": "..... #.... .#... ..#.. ...#. ....#",
    "]": ".###. ...#. ...#. ...#. ...#. ...#. .###.",
    "^": "..#.. .#.#. #...#",
    "_": "..... ..... ..... ..... ..... ..... ..... #####",
    "`": ".#... ..#.. ...#.",
    "a": "..... ..... .###. ....# .#### #...# .####",
    "b": "#.... #.... #.##. ##..# #...# #...# ####.",
    "c": "..... ..... .###. #.... #.... #...# .###.",
    "d": "....# ....# .##.# #..## #...# #...# .####",
    "e": "..... ..... .###. #...# ##### #.... .###.",
    "f": "..##. .#..# .#... ###.. .#... .#... .#...",
    "g": "..... ..... .#### #...# #...# #...# .#### ....# .###.",
    "h": "#.... #.... #.##. ##..# #...# #...# #...#",
    "i": "..#.. ..... .##.. ..#.. ..#.. ..#.. .###.",
    "j": "...#. ..... ..##. ...#. ...#. ...#. ...#. #..#. .##..",
    "k": "#.... #.... #..#. #.#.. ##... #.#.. #..#.",
    "l": ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
    "m": "..... ..... ##.#. #.#.# #.#.# #.#.# #.#.#",
    "n": "..... ..... #.##. ##..# #...# #...# #...#",
    "o": "..... ..... .###. #...# #...# #...# .###.",
    "p": "..... ..... ####. #...# #...# #...# ####. #.... #....",
    "q": "..... ..... .#### #...# #...# #...# .#### ....# ....#",
    "r": "..... ..... #.##. ##..# #.... #.... #....",
    "s": "..... ..... .###. #.... .###. ....# ####.",
    "t": ".#... .#... ###.. .#... .#... .#..# ..##.",
    "u": "..... ..... #...# #...# #...# #..## .##.#",
    "v": "..... ..... #...# #...# #...# .#.#. ..#..",
    "w": "..... ..... #...# #...# #.#.# #.#.# .#.#.",
    "x": "..... ..... #...# .#.#. ..#.. .#.#. #...#",
    "y": "..... ..... #...# #...# #...# #...# .#### ....# .###.",
    "z": "..... ..... ##### ...#. ..#.. .#... #####",
    "{": "...#. ..#.. ..#.. .#... ..#.. ..#.. ...#.",
    "|": "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "}": ".#... ..#.. ..#.. ...#. ..#.. ..#.. .#...",
    "~": "..... ..... .#... #.#.# ...#.",
    "\u00b0": ".##.. #..#. #..#. .##..",                       # degree
    "\u00b7": "..... ..... ..... .##.. .##..",                 # middle dot
    "\u00d7": "..... #...# .#.#. ..#.. .#.#. #...#",           # multiplication sign
    "\u00c6": ".#### #.#.. #.#.. ##### #.#.. #.#.. #.###",     # AE
    "\u00d8": "....# .###. #..## #.#.# ##..# .###. #....",     # O with stroke (0 is not slashed outside)
    "\u00e6": "..... ..... ##.#. ..#.# .#### #.#.. .#.##",     # ae
    "\u00f8": "..... ....# .###. #.### ###.# .###. #....",     # o with stroke
    "\u0152": ".#### #.#.. #.#.. #.### #.#.. #.#.. .####",     # OE
    "\u0153": "..... ..... .#.#. #.#.# #.### #.#.. .#.##",     # oe
    "\u00df": ".##.. #..#. #..#. #.#.. #..#. #..#. #.##. #....",  # sharp s
    "\u2022": "..... ..... .###. .###. .###.",                 # bullet
    "\u2026": "..... ..... ..... ..... ..... ..... #.#.#",     # ellipsis
    "\u2191": "..#.. .###. #.#.# ..#.. ..#.. ..#.. ..#..",     # up arrow
    "\u2193": "..#.. ..#.. ..#.. ..#.. #.#.# .###. ..#..",     # down arrow
    "\u2713": "..... ....# ...#. #.#.. .#...",                 # check mark
    "\u25b2": "..... ..#.. .###. #####",                       # up triangle
    "\u25bc": "..... ##### .###. ..#..",                       # down triangle
    "\u25c0": "...#. ..##. .###. ####. .###. ..##. ...#.",     # left triangle
    "\u25b6": ".#... .##.. .###. .#### .###. .##.. .#...",     # right triangle
}

# Marks placed above (rows 0-1) or below (rows 7-8) a base letter.
_MARKS_ABOVE: dict[str, str] = {
    "\u0300": ".#... ..#..",   # grave
    "\u0301": "...#. ..#..",   # acute
    "\u0302": "..#.. .#.#.",   # circumflex
    "\u0303": ".##.# #.##.",   # tilde
    "\u0308": ".#.#. .....",   # diaeresis
    "\u030a": "..#.. .#.#.",   # ring
    "\u030c": ".#.#. ..#..",   # caron
}
_MARKS_BELOW: dict[str, str] = {
    "\u0327": "..#.. .#...",   # cedilla
    "\u0328": "..#.. ...#.",   # ogonek
}
# Typographic characters drawn as their plain equivalents.
_PLAIN = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-",
          "\u2014": "-", "\u2212": "-", "\u00a0": " ", "\t": " ", "\n": " ", "\u25b8": "\u25b6",
          "\u25c2": "\u25c0", "\u00ab": "<", "\u00bb": ">"}

Glyph = tuple[int, ...]   # CELL rows, each an int of ADVANCE bits (leftmost pixel = high bit)


def _parse(rows: str) -> Glyph:
    bits = [int(r.replace("#", "1").replace(".", "0"), 2) << 1 for r in rows.split()]
    return tuple(bits + [0] * (CELL - len(bits)))


_cache: dict[str, Glyph] = {}


def glyph(cell: str) -> Glyph:
    """The bitmap of one character cell (a character plus any combining marks)."""
    g = _cache.get(cell)
    if g is None:
        g = _cache[cell] = _build(cell)
    return g


def _build(cell: str) -> Glyph:
    if cell in _GLYPHS:
        return _parse(_GLYPHS[cell])
    if STRIKE in cell:
        base = glyph(cell.replace(STRIKE, "") or " ")
        return base[:4] + (base[4] | (1 << ADVANCE) - 1,) + base[5:]
    if cell in _PLAIN:
        return glyph(_PLAIN[cell])
    import unicodedata
    nfc = unicodedata.normalize("NFC", cell)
    if nfc in _GLYPHS:
        return glyph(nfc)
    base, *marks = unicodedata.normalize("NFD", cell)
    if base not in _GLYPHS or base == cell:
        return glyph("?")
    rows = list(glyph(base))
    for mark in marks:
        if mark in _MARKS_ABOVE:
            if base.isupper():    # squeeze the capital into rows 2-6 to make room
                rows = [0, 0, rows[0], rows[2], rows[3], rows[4], rows[6], rows[7], rows[8]]
            rows[0:2] = _parse(_MARKS_ABOVE[mark])[:2]
        elif mark in _MARKS_BELOW:
            rows[7:9] = _parse(_MARKS_BELOW[mark])[:2]
    return tuple(rows)


def cells(text: str) -> list[str]:
    """``text`` split into character cells: each character with the combining marks after it."""
    if text.isascii():
        return list(text)
    import unicodedata
    out: list[str] = []
    for ch in text:
        if out and unicodedata.combining(ch):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def text_width(text: str, size: int = 1) -> int:
    """Width in pixels of ``text`` at ``size`` (without the gap after the last character)."""
    n = len(cells(text))
    return max(0, n * ADVANCE * size - size)


def max_chars(size: int, width: int) -> int:
    """How many characters of ``size`` fit in ``width`` pixels."""
    return max(0, (width + size) // (ADVANCE * size))


def truncate(text: str, size: int, width: int) -> str:
    """``text`` shortened with an ellipsis so that it fits ``width`` pixels."""
    cs = cells(text)
    n = max_chars(size, width)
    if len(cs) <= n:
        return text
    if n <= 0:
        return ""
    return "".join(cs[:n - 1]).rstrip() + ELLIPSIS


def struck(text: str) -> str:
    """``text`` marked to be drawn struck through (U+0336 after every character)."""
    return "".join(c + STRIKE for c in cells(text))


def wrap(text: str, size: int, width: int, max_lines: int | None = None) -> list[str]:
    """``text`` broken into lines that fit ``width`` pixels: at spaces, and at "\\n".
    With ``max_lines``, what is left over is cut and the last line ends with an ellipsis."""
    n = max(1, max_chars(size, width))
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        line: list[str] = []
        for word in paragraph.split():
            wc = cells(word)
            while len(wc) > n:                     # a word longer than a line is cut
                if line:
                    lines.append("".join(line))
                    line = []
                lines.append("".join(wc[:n]))
                wc = wc[n:]
            if line and len(line) + 1 + len(wc) > n:
                lines.append("".join(line))
                line = []
            if line:
                line.append(" ")
            line.extend(wc)
        lines.append("".join(line))
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max(1, max_lines)]
        lines[-1] = truncate(lines[-1] + ELLIPSIS, size, width)
    return lines


def ink_height(text: str, size: int = 1) -> int:
    """Rows of ``text`` that can be lit: CAP (or CELL with descenders) times ``size``."""
    for c in cells(text):
        g = glyph(c)
        if g[7] or g[8]:
            return CELL * size
    return CAP * size


@lru_cache(maxsize=512)
def line_image(text: str, size: int = 1):
    """``text`` drawn as a mode "1" image (lit = 1), ADVANCE*size px per character and
    CELL*size px tall. Use it as a paste mask. Cached: a frame redraws the same lines."""
    from PIL import Image
    cs = cells(text) or [" "]
    n = len(cs)
    glyphs = [glyph(c) for c in cs]
    width = n * ADVANCE
    pad = -width % 8
    rowbytes = (width + pad) // 8
    data = bytearray()
    for r in range(CELL):
        bits = 0
        for g in glyphs:
            bits = (bits << ADVANCE) | g[r]
        data += (bits << pad).to_bytes(rowbytes, "big")
    im = Image.frombytes("1", (width, CELL), bytes(data))
    if size > 1:
        im = im.resize((width * size, CELL * size), Image.NEAREST)
    return im
