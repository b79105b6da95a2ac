"""Receipts as ESC/POS bytes for a 58 mm serial thermal printer (font A, 12x24 dots).

Only the small subset the receipts need: initialise, heat settings, the code page, line
spacing, alignment, bold, character size, text, line feeds and a feed at the end; and a
picture (``model.Picture``, a chart) as a raster image: ``GS v 0`` in bands that fit half
the printer's buffer, or ``ESC *`` 24-dot stripes, as the profile says (``raster_mode``);
a printer without either gets the picture's text version. A QR code (``model.QRCode``, the
table screen's address) is drawn by the printer itself (``GS ( k``) where its profile says
it can, else sent as a raster image like a picture, else left out (``code_mode``); its
text prints under it in every case.

``layout()`` turns a receipt into the lines the paper will carry; ``encode_lines()`` turns
those into byte chunks, one per printed line, each with the dot lines it feeds (the driver
paces on that); ``encode()`` is the whole job. ``companion.receipts.png`` draws the same
layout, so a preview shows exactly what the printer gets.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Mapping

from companion import qr
from companion.core.config import ConfigError, require
from companion.receipts.printers import CODE_PAGES, DEFAULT_ENCODING
from companion.receipts.model import Columns, Feed, Line, Picture, QRCode, Receipt, Rule, flat, format_columns

ESC, GS, DLE, EOT, FS, LF = b"\x1b", b"\x1d", b"\x10", b"\x04", b"\x1c", b"\n"

INIT = ESC + b"@"
CANCEL_KANJI = FS + b"."
STATUS_PRINTER = DLE + EOT + b"\x01"   # real-time query: online / offline
STATUS_OFFLINE = DLE + EOT + b"\x02"   # real-time query: why offline (cover, feed button, error)
STATUS_PAPER = DLE + EOT + b"\x04"     # real-time query: paper sensor status
QUERY_GS_R = GS + b"r\x01"             # in-order query: paper sensor (answered when reached)
QUERY_ESC_V = ESC + b"v\x00"           # in-order query: paper sensor (older TTL printers)

WIDTH_DOTS = 384      # 58 mm paper at 203 dpi: 48 bytes a raster row
ROW_BYTES = WIDTH_DOTS // 8
RASTER_HEAD = 8       # GS v 0 m xL xH yL yH
STRIPE_DOTS = 24      # ESC * 33: a stripe of 24-dot columns
LINE_DOTS = 24        # font A is 24 dots tall; line spacing is set to match (ESC 3 24)
END_FEED = 4          # lines fed after a receipt so it clears the tear bar
ALIGN = {"left": 0, "center": 1, "right": 2}
QR_MODULE_DOTS = 5    # a QR code's module: 5 dots square (0.6 mm at 203 dpi)
QR_LEVEL = "M"        # its error correction level (15% of the code may be lost)

# Characters a code page may lack, mapped to what a reader expects; everything else outside
# it loses its accent (NFKD) or becomes "?".
_FALLBACK = {
    "€": "EUR", "–": "-", "—": "-", "‘": "'", "’": "'", "‚": ",", "“": '"', "”": '"',
    "„": '"', "…": "...", "•": "\u2219", "×": "x", "‐": "-", "\u00a0": " ", "\u2009": " ",
    "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "œ": "oe", "Œ": "OE", "þ": "th", "ð": "d",
}


@dataclass(frozen=True)
class PrintLine:
    """One line of paper: its text (already in its code page and cut to fit), style and size."""
    text: str = ""
    bold: bool = False
    width: int = 1      # character width multiplier (1 or 2)
    height: int = 1     # character height multiplier (1 or 2)
    align: str = "left"

    @property
    def dots(self) -> int:
        """Dot lines of paper this line takes."""
        return LINE_DOTS * self.height


def printable(text: str, encoding: str = DEFAULT_ENCODING) -> str:
    """``text`` with every character printable in the code page ``encoding`` (a Python
    codec; controls dropped): a letter the page lacks gets its nearest plain one (on paper
    only: the journal and the exports keep the true name). Decomposed accents (NFD, as
    some keyboards and files give them) are composed first."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if ch < " " or ch == "\x7f":
            continue
        if _encodable(ch, encoding):
            out.append(ch)
        elif ch in _FALLBACK and all(_encodable(c, encoding) for c in _FALLBACK[ch]):
            out.append(_FALLBACK[ch])
        else:
            plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
            out.append(plain if plain and all(_encodable(c, encoding) and c >= " " for c in plain) else "?")
    return "".join(out)


def _encodable(ch: str, encoding: str) -> bool:
    try:
        ch.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


class PrintImage:
    """A picture on paper: its chart, drawn when first asked for (``image``: mode "1",
    0 ink, ``WIDTH_DOTS`` wide; ``ESC *`` stripes pad it with paper to a multiple of 24)."""

    def __init__(self, picture: Picture, mode: str):
        self.picture, self.mode = picture, mode
        self._image = None

    def drawn(self):
        from companion import charts
        return charts.draw(self.picture.chart())

    @property
    def image(self):
        if self._image is None:
            from PIL import Image
            drawn = self.drawn()
            height = drawn.height
            if self.mode == "esc-star":
                height = -(-height // STRIPE_DOTS) * STRIPE_DOTS
            img = Image.new("1", (WIDTH_DOTS, height), 1)
            img.paste(drawn.crop((0, 0, min(WIDTH_DOTS, drawn.width), drawn.height)), (0, 0))
            self._image = without_realtime(img, self.mode) if self.mode in ("gs-v-0", "esc-star") else img
        return self._image

    @property
    def dots(self) -> int:
        return self.image.height


class PrintCode(PrintImage):
    """A QR code on paper (``picture`` is the ``model.QRCode``), centred, its modules
    ``QR_MODULE_DOTS`` square, no quiet zone (the blank lines around it are that). ``mode``
    is ``"gs-k"`` (the printer draws it: ``image`` is then what the preview shows, drawn by
    the companion's encoder at the same size and level) or a raster kind (``image`` is sent)."""

    def drawn(self):
        return qr.image(self.picture.text, QR_LEVEL, QR_MODULE_DOTS, WIDTH_DOTS)


def qr_commands(text: str) -> bytes:
    """``GS ( k`` for a QR code of ``text``: model 2 (function 165), module size (167),
    error correction level (169), store the data (180), print it (181)."""
    def fn(f: int, body: bytes) -> bytes:
        n = len(body) + 2
        return GS + b"(k" + bytes([n & 255, n >> 8, 49, f]) + body
    level = b"LMQH".index(QR_LEVEL.encode()) + 48
    return (fn(65, b"\x32\x00") + fn(67, bytes([QR_MODULE_DOTS])) + fn(69, bytes([level]))
            + fn(80, b"0" + text.encode("utf-8")) + fn(81, b"0"))


# A printer reads DLE EOT n, DLE ENQ n and DLE DC4 as real-time commands wherever they
# come, even inside a picture's data: it answers them and the picture loses three bytes
# (the rest of the job is then misread, and a paced printer overflows).
_REALTIME = re.compile(rb"\x10(?=[\x04\x05\x14])")


def without_realtime(image, mode: str):
    """``image`` with no pair of bytes in its ``mode`` data that a printer would take for a
    real-time command: the DLE byte (0x10, one dot) left blank. The preview shows the
    same image, so it stays the paper dot for dot."""
    from PIL import Image
    if mode == "gs-v-0":
        ink = image.tobytes().translate(_INVERT)
        safe = _REALTIME.sub(b"\x00", ink)
        return image if safe == ink else Image.frombytes("1", image.size, safe.translate(_INVERT))
    out = image.copy()
    for top in range(0, image.height, STRIPE_DOTS):
        strip = image.crop((0, top, WIDTH_DOTS, top + STRIPE_DOTS)).transpose(Image.Transpose.TRANSPOSE)
        ink = strip.tobytes().translate(_INVERT)
        safe = _REALTIME.sub(b"\x00", ink)
        if safe != ink:
            fixed = Image.frombytes("1", strip.size, safe.translate(_INVERT)).transpose(Image.Transpose.TRANSPOSE)
            out.paste(fixed, (0, top))
    return out


def raster_mode(printer_config: Mapping) -> str | None:
    """How pictures print on the ``[printer]`` of ``printer_config``: the profile's raster
    kind when a band of it fits half the buffer (what is sent between two status queries),
    else None (as text)."""
    from companion.receipts.printers import of_config
    mode = of_config(printer_config).raster
    half = printer_config.get("buffer_bytes", 256) // 2 - 3
    if mode == "gs-v-0" and half < RASTER_HEAD + ROW_BYTES:
        return None
    if mode == "esc-star" and half < 5 + WIDTH_DOTS * 3 + 1:
        return None
    return mode


def code_mode(printer_config: Mapping) -> str | None:
    """How a QR code prints on the ``[printer]`` of ``printer_config``: ``"gs-k"`` where
    the printer draws it, else as a picture does (``raster_mode``), else None (its text alone)."""
    from companion.receipts.printers import of_config
    return "gs-k" if of_config(printer_config).qr else raster_mode(printer_config)


def band_rows(printer_config: Mapping) -> int:
    """Dot rows a ``GS v 0`` band holds: the profile's ``raster_rows`` at most, and no more
    than half the printer's buffer takes."""
    from companion.receipts.printers import of_config
    half = printer_config.get("buffer_bytes", 256) // 2 - 3
    return max(1, min(of_config(printer_config).raster_rows, (half - RASTER_HEAD) // ROW_BYTES))


def layout(receipt: Receipt, chars: int = 32, raster: str | None = None, code: str | None = None,
           encoding: str = DEFAULT_ENCODING) -> list:
    """The paper lines of ``receipt``, its text in the code page ``encoding``
    (:func:`printable`): a bold double-height centred title, then its items;
    a picture is a :class:`PrintImage` when ``raster`` names how it prints, else its text;
    a QR code is a :class:`PrintCode` between two blank lines when ``code`` names how it
    prints (``code_mode``), and its text under it in any case."""
    lines: list = [PrintLine(printable(receipt.title, encoding)[:chars], bold=True, height=2, align="center")]
    for item in flat(receipt.items, raster=raster is not None, code=code is not None):
        if isinstance(item, Picture):
            lines.append(PrintImage(item, raster))
        elif isinstance(item, QRCode) and qr.fits(item.text):   # else its text alone
            lines.extend((PrintLine(), PrintCode(item, code), PrintLine()))
        elif isinstance(item, Line):
            size = 2 if item.size == 2 else 1
            align = item.align if item.align in ALIGN else "left"
            lines.append(PrintLine(printable(item.text, encoding)[:chars // size], item.bold, size, size, align))
        elif isinstance(item, Columns):   # cells made printable first: "Œ" -> "OE" is padded, not pushed
            cells = Columns(tuple(printable(str(cell), encoding) for cell in item.cells), item.widths, item.bold,
                            item.right_last)
            lines.append(PrintLine(format_columns(cells).rstrip()[:chars], item.bold))
        elif isinstance(item, Rule):
            lines.append(PrintLine((printable(item.char, encoding)[:1] or "-") * chars))
        elif isinstance(item, Feed):
            lines.extend(PrintLine() for _ in range(max(0, item.lines)))
    return lines


def heat_command(printer_config: Mapping) -> bytes:
    """ESC 7 n1 n2 n3 from the [printer] heat settings (a ConfigError names a bad one)."""
    values = []
    for key in ("heat_dots", "heat_time", "heat_interval"):
        value = require(printer_config, key, int, None, "printer")
        if not 0 <= value <= 255:
            raise ConfigError(None, f"printer.{key}", f"must be 0..255, not {value}")
        values.append(value)
    return ESC + b"7" + bytes(values)


def setup(printer_config: Mapping) -> bytes:
    """What starts every job, as the printer's profile (``[printer] model``) allows:
    reset, Kanji mode off (FS .) and heat settings (ESC 7) only for the models that know
    them, the code page and the line spacing."""
    from companion.receipts.printers import of_config
    profile = of_config(printer_config)
    heat = heat_command(printer_config)     # checked for every model: a typo is said at once
    out = INIT
    if profile.cancel_kanji:
        out += CANCEL_KANJI
    if profile.heat:
        out += heat
    return out + ESC + b"t" + bytes([CODE_PAGES[profile.encoding]]) + ESC + b"3" + bytes([LINE_DOTS])


def encode_lines(receipt: Receipt, printer_config: Mapping) -> list[tuple[bytes, int]]:
    """``receipt`` as chunks ``(bytes, dot lines fed)``: a setup chunk, one chunk per line,
    then the end feed. Style commands are sent only when the style changes."""
    chars = printer_config.get("chars_per_line", 32)
    chunks = [(setup(printer_config), 0)]
    align, bold, size = "left", False, 0          # the state ESC @ leaves
    mode = raster_mode(printer_config)
    from companion.receipts.printers import of_config
    encoding = of_config(printer_config).encoding
    for line in layout(receipt, chars, mode, code_mode(printer_config), encoding):
        if isinstance(line, PrintImage):
            if size:                  # a stripe's line feed would feed a tall line's height
                size = 0
                chunks.append((GS + b"!\x00", 0))
            if line.mode == "gs-k":   # the printer draws it where the alignment says
                centre = b"" if align == "center" else ESC + b"a" + bytes([ALIGN["center"]])
                align = "center"
                chunks.append((centre + qr_commands(line.picture.text), line.dots))
            else:
                chunks.extend(raster_chunks(line.image, line.mode, band_rows(printer_config)))
            continue
        out = b""
        want = (line.width - 1) << 4 | (line.height - 1)
        if want != size:              # also before a blank line: it feeds the current height
            size = want
            out += GS + b"!" + bytes([size])
        if line.text:
            if line.align != align:
                align = line.align
                out += ESC + b"a" + bytes([ALIGN[align]])
            if line.bold != bold:
                bold = line.bold
                out += ESC + b"E" + bytes([bold])
            out += line.text.encode(encoding)
        chunks.append((out + LF, line.dots))
    chunks.append((ESC + b"d" + bytes([END_FEED]), END_FEED * LINE_DOTS))
    return chunks


_INVERT = bytes(255 - b for b in range(256))


def raster_chunks(image, mode: str, rows: int) -> list[tuple[bytes, int]]:
    """``image`` (mode "1", 0 ink, WIDTH_DOTS wide) as chunks ``(bytes, dot rows)``: one
    ``GS v 0`` band of at most ``rows`` rows each, or one ``ESC *`` 24-dot stripe and its
    line feed each (the line spacing is 24 dots)."""
    from PIL import Image
    ink = image.tobytes().translate(_INVERT)      # mode "1" packs 8 dots a byte, MSB left
    height = image.height
    out = []
    if mode == "gs-v-0":
        for top in range(0, height, rows):
            n = min(rows, height - top)
            head = GS + b"v0\x00" + bytes([ROW_BYTES & 255, ROW_BYTES >> 8, n & 255, n >> 8])
            out.append((head + ink[top * ROW_BYTES:(top + n) * ROW_BYTES], n))
        return out
    for top in range(0, height, STRIPE_DOTS):      # esc-star: columns of 3 bytes, MSB on top
        strip = image.crop((0, top, WIDTH_DOTS, top + STRIPE_DOTS)).transpose(Image.Transpose.TRANSPOSE)
        cols = strip.tobytes().translate(_INVERT)    # row x of the transposed strip = column x
        head = ESC + b"*\x21" + bytes([WIDTH_DOTS & 255, WIDTH_DOTS >> 8])
        out.append((head + cols + LF, STRIPE_DOTS))
    return out


def encode(receipt: Receipt, printer_config: Mapping) -> bytes:
    """The whole print job for ``receipt`` (``printer_config`` is the [printer] table)."""
    return b"".join(data for data, _ in encode_lines(receipt, printer_config))
