"""Receipts as a small model: a title and a list of lines.

A game's ``screens.receipts(state)`` builds these; ``companion.receipts.escpos`` encodes
them for the thermal printer (32 characters a line in font A on 58 mm paper, 16 at double
width) and ``companion.receipts.png`` draws them 384 dots wide for previews and tests.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    text: str
    bold: bool = False
    size: int = 1            # 1 = normal (32 chars), 2 = double width and height (16 chars)
    align: str = "left"      # "left" | "center" | "right"


@dataclass(frozen=True)
class Columns:
    """A table row: ``cells`` laid out in ``widths`` characters (the last one right-aligned
    when ``right_last``). Widths add up to at most 32."""
    cells: tuple[str, ...]
    widths: tuple[int, ...]
    bold: bool = False
    right_last: bool = True


@dataclass(frozen=True)
class Rule:
    """A horizontal line across the paper."""
    char: str = "-"


@dataclass(frozen=True)
class Feed:
    lines: int = 1


@dataclass(frozen=True)
class Picture:
    """A chart printed as a raster image: ``spec`` is the JSON text of a
    ``companion.charts`` spec, drawn only when the receipt is printed or previewed.
    ``text`` is what prints instead on a printer without raster images (its profile's
    ``raster = None``), and what ``text_lines()`` and JSON readers see; ``head`` prints
    above the image only (a heading that would head nothing in a text version left empty)."""
    spec: str
    text: tuple = ()
    head: tuple = ()

    def chart(self) -> dict:
        import json
        return json.loads(self.spec)


@dataclass(frozen=True)
class QRCode:
    """A QR code of ``text`` (the table screen's address), centred, with ``text`` under it.
    The printer draws it with its own ``GS ( k`` commands or is sent it as a raster image,
    as its profile says (``escpos.code_mode``); a printer with neither prints the text
    alone. The text is printed in every case and is all ``text_lines()`` shows."""
    text: str

    def lines(self, width: int = 32) -> list[Line]:
        return [Line(self.text[i:i + width], align="center") for i in range(0, len(self.text), width)]


Item = Line | Columns | Rule | Feed | Picture | QRCode


def picture(spec: dict, text=(), head=()) -> Picture:
    """A :class:`Picture` of ``spec`` (a ``companion.charts`` spec) with its text version."""
    import json
    return Picture(json.dumps(spec, separators=(",", ":")), tuple(text), tuple(head))


def flat(items, raster: bool = False, code: bool = False) -> list:
    """``items`` with every Picture replaced by its text version (kept when ``raster``)
    and every QRCode by its text (kept before it when ``code``)."""
    out = []
    for item in items:
        if isinstance(item, Picture):
            out.extend([*item.head, item] if raster else flat(item.text))
        elif isinstance(item, QRCode):
            out.extend([item, *item.lines()] if code else item.lines())
        else:
            out.append(item)
    return out


@dataclass(frozen=True)
class Receipt:
    kind: str                 # "program", "results", "championship", "lap-chart", ...
    title: str
    items: tuple[Item, ...] = ()

    def text_lines(self, width: int = 32) -> list[str]:
        """The receipt as plain text lines (what a reader of the paper sees)."""
        out: list[str] = [self.title.center(width)[:width].rstrip()]
        for item in flat(self.items):
            if isinstance(item, Line):
                w = width // item.size
                t = item.text[:w]
                t = t.center(w) if item.align == "center" else t.rjust(w) if item.align == "right" else t
                out.append(t.rstrip())
            elif isinstance(item, Columns):
                out.append(format_columns(item).rstrip())
            elif isinstance(item, Rule):
                out.append(item.char * width)
            elif isinstance(item, Feed):
                out.extend([""] * item.lines)
        return out


def stamped(receipt: Receipt, lines, width: int = 32) -> Receipt:
    """``receipt`` with ``lines`` (its date, its race number) at the top, each wrapped to
    ``width`` characters between words."""
    import textwrap
    from dataclasses import replace

    head = tuple(Line(t) for text in lines for t in (textwrap.wrap(text, width) or [""]))
    return replace(receipt, items=head + tuple(receipt.items))


def format_columns(row: Columns) -> str:
    parts = []
    last = len(row.cells) - 1
    for i, (cell, w) in enumerate(zip(row.cells, row.widths)):
        cell = str(cell)[:w]
        parts.append(cell.rjust(w) if (i == last and row.right_last) else cell.ljust(w))
    return "".join(parts)


def overflows(receipt: Receipt, width: int = 32) -> list[str]:
    """What of ``receipt`` does not fit ``width`` characters and would be cut on paper."""
    out: list[str] = []
    if len(receipt.title) > width:
        out.append(receipt.title)
    for item in flat(receipt.items):
        if isinstance(item, Line) and len(item.text) > width // item.size:
            out.append(item.text)
        elif isinstance(item, Columns):
            if sum(item.widths) > width or any(len(str(c)) > w for c, w in zip(item.cells, item.widths)):
                out.append(" | ".join(str(c) for c in item.cells))
    return out

