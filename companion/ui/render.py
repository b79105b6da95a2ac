"""Draw a :class:`companion.ui.view.View` on a 128x64 1-bit image.

Layout (pixel rows):

     0-9   title bar, inverted: title at the left, status at the right
    11-51  body: widgets stacked top to bottom (11-63 when there is no footer)
    53     footer rule
    55-63  footer: the selected move "< DRAW >" (arrows at the edges, label centred) or a hint

The alert box is drawn last, over the body. Widgets that do not fit are left out; ``Big``
and ``Menu`` share whatever height the other widgets leave. The output depends on the
view alone, so tests compare it pixel for pixel.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from companion.ui import fonts
from companion.ui.view import Bar, Big, Menu, Row, Text, View

from companion.profile import (BODY_TOP, FOOTER_RULE, HEIGHT, LINE_H, MARGIN,  # noqa: E402
                               SCROLLBAR_W, TITLE_H, WIDTH)

FOOTER_TEXT = FOOTER_RULE + 2
BAR_LABEL_W = fonts.text_width("x" * 6)
BAR_NUMBER_W = fonts.text_width("x" * 5)
BIG_MAX_SCALE = 8

BLACK, WHITE = 0, 1


def render(view: View) -> Image.Image:
    """The 128x64 mode "1" image of ``view``."""
    im = Image.new("1", (WIDTH, HEIGHT), BLACK)
    if view.body and type(view.body[0]) not in _DRAW:
        from companion.ui.picture import Picture
        if isinstance(view.body[0], Picture):
            _draw_picture(im, view.body[0])
            return im
    _title_bar(im, str(view.title), str(view.status))
    body_bottom = HEIGHT
    if view.footer:
        body_bottom = FOOTER_RULE - 1
        _footer(im, str(view.footer))
    _body(im, view.body, BODY_TOP, body_bottom)
    if view.alert:
        _alert(im, str(view.alert), BODY_TOP, body_bottom)
    return im


# --- drawing primitives -----------------------------------------------------------------

def _fill(im: Image.Image, x0: int, y0: int, x1: int, y1: int, colour: int) -> None:
    """Fill the box from (x0, y0) to (x1, y1), exclusive."""
    if x1 > x0 and y1 > y0:
        im.paste(colour, (x0, y0, x1, y1))


def _text(im: Image.Image, x: int, y: int, text: str, size: int = 1, colour: int = WHITE) -> None:
    """Draw ``text`` with the top of its glyph cell at ``y``."""
    if text:
        mask = fonts.line_image(text, size)
        im.paste(colour, (x, y, x + mask.width, y + mask.height), mask)


def _frame(im: Image.Image, x0: int, y0: int, x1: int, y1: int) -> None:
    """A 1 px white frame with cut corners around the box (x0, y0)-(x1, y1), exclusive."""
    _fill(im, x0 + 1, y0, x1 - 1, y0 + 1, WHITE)
    _fill(im, x0 + 1, y1 - 1, x1 - 1, y1, WHITE)
    _fill(im, x0, y0 + 1, x0 + 1, y1 - 1, WHITE)
    _fill(im, x1 - 1, y0 + 1, x1, y1 - 1, WHITE)


def _aligned_x(width: int, align: str, left: int = MARGIN, right: int = WIDTH - MARGIN) -> int:
    if align == "center":
        return left + (right - left - width) // 2
    if align == "right":
        return right - width
    return left


# --- title bar and footer ---------------------------------------------------------------

def _title_bar(im: Image.Image, title: str, status: str) -> None:
    im.paste(_title_band(title, status), (0, 0))


def _footer(im: Image.Image, footer: str) -> None:
    im.paste(_footer_band(footer), (0, FOOTER_RULE))


@lru_cache(maxsize=64)
def _title_band(title: str, status: str) -> Image.Image:
    """The title bar drawn on its own (rows 0 to TITLE_H - 1): frames repeat it."""
    band = Image.new("1", (WIDTH, TITLE_H), BLACK)
    _draw_title_bar(band, title, status)
    return band


@lru_cache(maxsize=64)
def _footer_band(footer: str) -> Image.Image:
    """The footer drawn on its own (rows FOOTER_RULE to the bottom): frames repeat it."""
    band = Image.new("1", (WIDTH, HEIGHT - FOOTER_RULE), BLACK)
    _draw_footer(band, footer, 0)
    return band


def _draw_title_bar(im: Image.Image, title: str, status: str) -> None:
    """Inverted bar with the title; the status sits in a dark box at its right end."""
    right = WIDTH
    if status:
        status = fonts.truncate(status, 1, WIDTH // 2)
        right = WIDTH - fonts.text_width(status) - 4
        _text(im, right + 2, 1, status)
    _fill(im, 0, 0, right, TITLE_H, WHITE)
    _text(im, 2, 1, fonts.truncate(title, 1, right - 4), colour=BLACK)


def _draw_footer(im: Image.Image, footer: str, rule: int = FOOTER_RULE) -> None:
    text_y = rule + FOOTER_TEXT - FOOTER_RULE
    _fill(im, 0, rule, WIDTH, rule + 1, WHITE)
    left, right = MARGIN, WIDTH - MARGIN
    if len(footer) > 4 and footer.startswith("< ") and footer.endswith(" >"):
        # a move selector: arrows pinned to the edges, the move centred between them
        _text(im, 1, text_y, "\u25c0")
        _text(im, WIDTH - fonts.ADVANCE, text_y, "\u25b6")
        footer = footer[2:-2].strip()
        left, right = fonts.ADVANCE + 1, WIDTH - fonts.ADVANCE - 1
    footer = fonts.truncate(footer, 1, right - left)
    _text(im, _aligned_x(fonts.text_width(footer), "center", left, right), text_y, footer)


# --- body --------------------------------------------------------------------------------

def _text_height(size: int) -> int:
    return fonts.CELL * size + 1


def _size(size: object) -> int:
    return min(3, max(1, size)) if isinstance(size, int) else 1


def _min_height(w: object) -> int | None:
    """The height a widget needs (``Big`` and ``Menu`` may get more); None = not drawable."""
    if isinstance(w, Text):
        return _text_height(_size(w.size)) + max(0, w.above)
    if isinstance(w, (Row, Bar, Menu)):
        return LINE_H
    if isinstance(w, Big):
        return LINE_H + (LINE_H if w.caption else 0)
    return None


def _body(im: Image.Image, widgets: tuple, top: int, bottom: int) -> None:
    y = top
    for w, h in _place(widgets, top, bottom):
        _DRAW[type(w)](im, w, y, h)
        y += h


def _place(widgets: tuple, top: int, bottom: int) -> list[tuple[object, int]]:
    """The widgets that fit between ``top`` and ``bottom``, each with its height."""
    placed: list[tuple[object, int]] = []
    used = 0
    for w in widgets or ():
        h = _min_height(w)
        if h is None:
            continue
        if used + h > bottom - top:
            break                      # what does not fit is left out
        placed.append((w, h))
        used += h
    flexible = [i for i, (w, _) in enumerate(placed) if isinstance(w, (Big, Menu))]
    spare = bottom - top - used
    for k, i in enumerate(flexible):   # share the spare height, the first ones get the rest
        w, h = placed[i]
        placed[i] = (w, h + spare // len(flexible) + (1 if k < spare % len(flexible) else 0))
    return placed


def _draw_text(im: Image.Image, w: Text, y: int, h: int) -> None:
    size = _size(w.size)
    y, h = y + max(0, w.above), h - max(0, w.above)
    text = fonts.truncate(str(w.text), size, WIDTH - 2 * MARGIN)
    colour = WHITE
    if w.invert:
        _fill(im, 0, y, WIDTH, y + h, WHITE)
        colour = BLACK
    _text(im, _aligned_x(fonts.text_width(text, size), w.align), y + 1, text, size, colour)


def _draw_row(im: Image.Image, w: Row, y: int, h: int) -> None:
    left, right = str(w.left), str(w.right)
    colour = WHITE
    if w.invert:
        _fill(im, 0, y, WIDTH, y + h, WHITE)
        colour = BLACK
    if right:
        right = fonts.truncate(right, 1, WIDTH // 2 if left else WIDTH - 2 * MARGIN)
        rx = WIDTH - MARGIN - fonts.text_width(right)
        _text(im, rx, y + 1, right, colour=colour)
        left_room = rx - fonts.ADVANCE - MARGIN
    else:
        left_room = WIDTH - 2 * MARGIN
    _text(im, MARGIN, y + 1, fonts.truncate(left, 1, left_room), colour=colour)


def _draw_bar(im: Image.Image, w: Bar, y: int, h: int) -> None:
    """Label, gauge, "value/maximum". Labels up to 6 and numbers up to 5 characters keep
    the gauge in the same columns, so the bars of a dashboard line up."""
    maximum = w.maximum if isinstance(w.maximum, int) else 0
    value = min(max(w.value, 0), maximum) if isinstance(w.value, int) and maximum > 0 else 0
    number = fonts.truncate(f"{w.value}/{w.maximum}", 1, 48)
    _text(im, WIDTH - MARGIN - fonts.text_width(number), y + 1, number)
    label = fonts.truncate(str(w.label), 1, 48)
    _text(im, MARGIN, y + 1, label)
    x0 = MARGIN + max(fonts.text_width(label), BAR_LABEL_W) + 4
    x1 = WIDTH - MARGIN - max(fonts.text_width(number), BAR_NUMBER_W) - 4
    if x1 - x0 < 8:
        return
    _frame(im, x0, y + 1, x1, y + 1 + fonts.CAP)
    if maximum > 0:
        _fill(im, x0 + 2, y + 3, x0 + 2 + (x1 - x0 - 4) * value // maximum, y + fonts.CAP - 1, WHITE)


def _draw_menu(im: Image.Image, w: Menu, y: int, h: int) -> None:
    items = [str(i) for i in w.items]
    n = len(items)
    if not n:
        return
    visible = max(1, h // LINE_H)
    selected = min(w.selected, n - 1) if isinstance(w.selected, int) else 0   # < 0: none
    top = _menu_top(w, max(selected, 0), visible, n)
    right = WIDTH
    if n > visible:
        right = WIDTH - SCROLLBAR_W - 1
        _scrollbar(im, y, visible * LINE_H, top, visible, n)
    for row, i in enumerate(range(top, min(n, top + visible))):
        iy = y + row * LINE_H
        text = fonts.truncate(items[i], 1, right - 2 - MARGIN)
        colour = WHITE
        if i == selected:
            _fill(im, 0, iy, right, iy + LINE_H, WHITE)
            colour = BLACK
        _text(im, 2, iy + 1, text, colour=colour)


def _menu_top(w: Menu, selected: int, visible: int, n: int) -> int:
    """The first line a menu shows: its ``top`` if set, else one that keeps the
    selection on the second row while scrolling; never past the last full window."""
    first = w.top if isinstance(w.top, int) else selected - (visible - 1) // 2
    return min(max(0, first), max(0, n - visible))


def list_window(view: View) -> tuple[int, int, int] | None:
    """``(first line shown, lines shown, lines)`` of the view's list (its first ``Menu``)
    as ``render`` draws it; None when the view has no list on screen."""
    bottom = FOOTER_RULE - 1 if view.footer else HEIGHT
    for w, h in _place(view.body, BODY_TOP, bottom):
        if isinstance(w, Menu):
            n = len(w.items)
            visible = max(1, h // LINE_H)
            selected = min(max(w.selected, 0), n - 1) if isinstance(w.selected, int) and n else 0
            return _menu_top(w, selected, visible, n), min(visible, n), n
    return None


def _scrollbar(im: Image.Image, y: int, h: int, top: int, visible: int, n: int) -> None:
    x = WIDTH - SCROLLBAR_W
    im.paste(WHITE, (x + 1, y, x + 2, y + h), _dotted(h))
    thumb = max(4, h * visible // n)
    ty = y + (h - thumb) * top // max(1, n - visible)
    _fill(im, x, ty, WIDTH, ty + thumb, WHITE)


@lru_cache(maxsize=8)
def _dotted(h: int) -> Image.Image:
    """A 1 px wide dotted line ``h`` px tall, as a paste mask: the scroll bar's track."""
    return Image.frombytes("1", (1, h), bytes(0x80 * (1 - i % 2) for i in range(h)))


@lru_cache(maxsize=256)
def _big_layout(text: str, width: int, height: int) -> tuple[int, tuple[str, ...]]:
    """The largest scale (and the lines) at which ``text`` fits width x height."""
    longest = max((len(fonts.cells(word)) for word in text.split()), default=0)
    for scale in range(BIG_MAX_SCALE, 0, -1):
        if longest > fonts.max_chars(scale, width):
            continue                                # never break a word in two
        lines = fonts.wrap(text, scale, width)
        block = sum(fonts.ink_height(line, scale) for line in lines) + (len(lines) - 1) * scale
        if block <= height:
            return scale, tuple(lines)
    return 1, (fonts.truncate(" ".join(text.split()), 1, width),)


def _draw_big(im: Image.Image, w: Big, y: int, h: int) -> None:
    caption = str(w.caption)
    room = h - (LINE_H if caption else 0)
    scale, lines = _big_layout(str(w.text), WIDTH - 2 * MARGIN, room)
    heights = [fonts.ink_height(line, scale) for line in lines]
    gap = scale
    block = sum(heights) + gap * (len(lines) - 1)
    ty = y + max(0, (room - block + 1) // 2)
    for line, lh in zip(lines, heights):
        _text(im, _aligned_x(fonts.text_width(line, scale), "center"), ty, line, scale)
        ty += lh + gap
    if caption:
        caption = fonts.truncate(caption, 1, WIDTH - 2 * MARGIN)
        _text(im, _aligned_x(fonts.text_width(caption), "center"), y + h - LINE_H + 1, caption)


def picture_layout(n: int) -> tuple[int, int, int]:
    """(px a module, quiet zone px, side of the lit square) of an n-module picture."""
    scale = 2 if 2 * n <= HEIGHT - 4 else 1
    quiet = max(1, (HEIGHT - n * scale) // 2)
    return scale, quiet, n * scale + 2 * quiet


def _draw_picture(im: Image.Image, w) -> None:
    """The picture at the left, 2 px a module when it fits, dark on a lit square with a
    quiet zone all round (a QR code's); its lines beside it."""
    scale, quiet, side = picture_layout(len(w.modules))
    _fill(im, 0, 0, side, min(HEIGHT, side), WHITE)
    for y, row in enumerate(w.modules):
        for x, dark in enumerate(row):
            if dark:
                _fill(im, quiet + x * scale, quiet + y * scale, quiet + (x + 1) * scale, quiet + (y + 1) * scale,
                      BLACK)
    left = side + 3
    for i, line in enumerate(w.lines[:HEIGHT // LINE_H]):
        _text(im, left, 1 + i * LINE_H, fonts.truncate(str(line), 1, WIDTH - left))


_DRAW = {Text: _draw_text, Row: _draw_row, Bar: _draw_bar, Menu: _draw_menu, Big: _draw_big}


# --- alert -------------------------------------------------------------------------------

ALERT_PAD = 3


def alert_lines(footer: bool = True) -> int:
    """Lines of text the alert box holds (4 above a footer)."""
    bottom = FOOTER_RULE - 1 if footer else HEIGHT
    return (bottom - BODY_TOP - 2 * ALERT_PAD + 2) // fonts.CELL


def alert_pages(text: str, footer: bool = True) -> list[str]:
    """``text`` as the alert box shows it whole: one page, or pages of as many lines as
    the box holds (the app shows them one after the other)."""
    lines = fonts.wrap(text, 1, WIDTH - 4 - 2 * ALERT_PAD)
    room = alert_lines(footer)
    return [" ".join(lines[i:i + room]) for i in range(0, len(lines), room)] or [""]


def _alert(im: Image.Image, text: str, top: int, bottom: int) -> None:
    x0, x1 = 2, WIDTH - 2
    inner = x1 - x0 - 2 * ALERT_PAD
    lines = fonts.wrap(text, 1, inner, max_lines=(bottom - top - 2 * ALERT_PAD + 2) // fonts.CELL)
    h = len(lines) * fonts.CELL + 2 * ALERT_PAD - 2
    y0 = top + max(0, (bottom - top - h) // 2)
    _fill(im, 0, top, WIDTH, bottom, BLACK)       # the alert is modal: hide the body
    _frame(im, x0, y0, x1, y0 + h)
    ty = y0 + ALERT_PAD
    for line in lines:
        _text(im, _aligned_x(fonts.text_width(line), "center", x0, x1), ty, line)
        ty += fonts.CELL


def undo_toast(label: str) -> str:
    """The toast after an undo: ``Undone:`` and the history line, or where the alert cannot
    hold it whole (a reveal of many cards), the line's head (``Undone: Tactics turned``)."""
    for text in (f"Undone: {label}", f"Undone: {label.split(': ', 1)[0]}"):
        if not cut_texts(View("", footer="< >", alert=text), footer=True):
            return text
    return "Undone"


# --- what a view would lose ---------------------------------------------------------------

def cut_texts(view: View, footer: bool = False) -> list[str]:
    """The texts of ``view`` the renderer would shorten with an ellipsis or leave out for
    want of room; with ``footer``, the footer too (the app sets it: a move between the
    arrows, or a hint). Empty when everything shows whole."""
    cut: list[str] = []

    def check(text: str, size: int, width: int) -> None:
        if fonts.truncate(text, size, width) != text:
            cut.append(text)

    if footer and view.footer:
        text = str(view.footer)
        if len(text) > 4 and text.startswith("< ") and text.endswith(" >"):
            check(text[2:-2].strip(), 1, WIDTH - 2 * fonts.ADVANCE - 2)
        else:
            check(text, 1, WIDTH - 2 * MARGIN)

    right = WIDTH
    if view.status:
        check(view.status, 1, WIDTH // 2)
        right = WIDTH - fonts.text_width(fonts.truncate(view.status, 1, WIDTH // 2)) - 4
    check(view.title, 1, right - 4)
    top, bottom = BODY_TOP, FOOTER_RULE - 1
    used = 0
    for w in view.body:
        h = _min_height(w)
        if h is None:
            continue
        if used + h > bottom - top:
            cut.append(f"(left out) {w}")
            continue
        used += h
        if isinstance(w, Text):
            check(str(w.text), _size(w.size), WIDTH - 2 * MARGIN)
        elif isinstance(w, Row):
            left, rtext = str(w.left), str(w.right)
            room = WIDTH - 2 * MARGIN
            if rtext:
                check(rtext, 1, WIDTH // 2 if left else room)
                room = WIDTH - MARGIN - fonts.text_width(rtext) - fonts.ADVANCE - MARGIN
            check(left, 1, room)
        elif isinstance(w, Menu):
            scroll = len(w.items) * LINE_H > bottom - top - used + h
            edge = WIDTH - SCROLLBAR_W - 1 if scroll else WIDTH
            for item in w.items:
                check(str(item), 1, edge - 2 - MARGIN)
        elif isinstance(w, Bar):
            check(str(w.label), 1, 48)
            check(f"{w.value}/{w.maximum}", 1, 48)
        elif isinstance(w, Big):
            if w.caption:
                check(str(w.caption), 1, WIDTH - 2 * MARGIN)
            scale, lines = _big_layout(str(w.text), WIDTH - 2 * MARGIN, LINE_H)
            if scale == 1 and " ".join(lines) != " ".join(str(w.text).split()):
                cut.append(str(w.text))
    if view.alert:   # a message box wraps its text over the body (above the footer the app sets)
        text = str(view.alert)
        inner = WIDTH - 4 - 2 * ALERT_PAD
        bottom = FOOTER_RULE - 1 if footer or view.footer else HEIGHT
        room = (bottom - BODY_TOP - 2 * ALERT_PAD + 2) // fonts.CELL
        if len(fonts.wrap(text, 1, inner)) > room:
            cut.append(f"(alert) {text}")
    return cut

