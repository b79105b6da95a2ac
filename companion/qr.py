"""A QR code of a short text (the table screen's address), made by segno, for the OLED and paper.

``matrix(text)`` returns the modules, dark True, without the quiet zone; ``image`` draws them
for paper (the receipt encoder and the printer simulator); ``fits(text)`` says whether a
text gets a code at all. The pause menu's "Table screen" draws the matrix on the OLED.

The size is kept small for the 128x64 screen: the smallest version (1 to 6) that holds the
text at error correction level M, or at L when M would need more than version 6. At that
version segno raises the level as far as it still fits (an address of 32 bytes is a version
3 at Q rather than M): the same size, more of it may be lost. Versions 1 to 3 (21 to 29
modules) are drawn 2 px a module on the OLED, versions 4 to 6 (33 to 41) 1 px
(``ui.render.picture_layout``); a LAN address (``http://192.168.1.23:8080/``, 25 bytes) is a
version 2, 50 px square.

segno is loaded only when a code is made, and only its encoder (``segno.encoder``, with
``segno.consts``): ``import segno`` runs its writers too, whose ``xml.sax.saxutils`` loads
``urllib.request``, ``http.client``, ``email`` and ``ssl``. Whole, segno costs 130 M
instructions and 3.7 MB of resident memory, and the demo race's peak grows by 4.7 MB (it
prints the program with the address); its encoder alone, 0.4 MB (docs/decisions.md).
``fits`` needs no segno.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading

VERSIONS = 6       # the largest version made: 41 modules, the most the OLED shows (1 px a module)
MOST_BYTES = 134   # what version 6 holds at level L in byte mode (ISO/IEC 18004, table 7)


class TooLong(ValueError):
    pass


def fits(text: str) -> bool:
    """Whether ``text`` gets a code (counted in byte mode: a text of digits may hold more,
    but none of what the companion encodes is)."""
    return len(text.encode("utf-8")) <= MOST_BYTES


def matrix(text: str, level: str = "M") -> list[list[bool]]:
    """The smallest QR code of ``text`` at ``level`` or better (L when ``level`` needs more
    than version 6), dark True, no quiet zone; ``TooLong`` when version 6 cannot hold it."""
    encoder = _segno_encoder()
    for lv in dict.fromkeys((level, "L")):
        try:
            code = encoder.encode(text, error=lv.lower(), micro=False)     # what segno.make_qr does
        except encoder.DataOverflowError:
            break
        if code.version <= VERSIONS:
            return [[bool(dark) for dark in row] for row in code.matrix]
    raise TooLong(f"{len(text.encode('utf-8'))} bytes do not fit a version {VERSIONS} QR code")


def image(text: str, level: str = "M", module: int = 1, width: int = 0, x: int | None = None):
    """The code of ``text`` as a Pillow image (mode "1", 0 dark), each module ``module``
    dots square, no quiet zone; on a strip ``width`` dots wide at ``x`` (centred when None)
    when ``width`` is given. For paper: the receipt encoder and the printer simulator."""
    from PIL import Image
    modules = matrix(text, level)
    n, side = len(modules), len(modules) * module
    small = Image.new("1", (n, n), 1)
    small.putdata([0 if dark else 1 for row in modules for dark in row])
    code = small.resize((side, side), Image.NEAREST)
    if width <= side:
        return code
    strip = Image.new("1", (width, side), 1)
    strip.paste(code, ((width - side) // 2 if x is None else max(0, min(x, width - side)), 0))
    return strip


_LOADING = threading.Lock()   # the pause menu (the app's thread) and the printer's worker


def _segno_encoder():
    """``segno.encoder`` without running ``segno/__init__.py`` (which imports the writers):
    the package is put in ``sys.modules`` uninitialised for as long as its encoder is
    imported, then taken out, so a later ``import segno`` still runs it whole (and finds
    this encoder loaded). Written against segno 1.6.6, where ``encoder.encode`` is what
    ``segno.make_qr`` calls (segno's docs call the module internal: tests/test_qr.py checks
    it against ``make_qr``)."""
    with _LOADING:
        encoder = sys.modules.get("segno.encoder")
        if encoder is None:
            sys.modules["segno"] = importlib.util.module_from_spec(importlib.util.find_spec("segno"))
            try:
                encoder = importlib.import_module("segno.encoder")
            finally:
                del sys.modules["segno"]
        return encoder
