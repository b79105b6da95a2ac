"""Pictures of a race drawn from its results: a lap chart, a wear chart, a championship chart.

Every chart is drawn from plain data (the ``results.json`` shape, or a small spec built
from it), never from a game's state, onto a 1-bit Pillow image 384 dots wide: the width
of 58 mm paper at 203 dpi (8 dots a millimetre). The receipts print it as a raster image
and preview it dot for dot; any other display of the race (the table screen) can draw
the same picture. Importing this module needs Pillow only (no printer, no pack).

Building a spec is cheap (plain lists); drawing is not: a receipt keeps the spec and the
picture is drawn when the receipt is printed or previewed (on the printer's worker).

* :func:`lap_chart_spec` (from a results dict with ``standings`` and ``lap_chart``) and
  :func:`lap_chart`: one line per car, told apart by its stroke (solid, dashed or dotted)
  and its marker, a label at both ends, pit stops ringed, an eliminated car's line ending
  in a cross, the winner's line solid and the heaviest, a key drawn with the very marks.
  Laps run across (grouped, a column every k laps, when one column a lap would be too
  narrow); rounds (Formula De: 30 to 60 of them, every car moving in each) run down the
  paper, a numbered row a round.
* :func:`wear_chart`: Formula De's six wear zones of each car, one box per wear point,
  each spent box marked with the lap it went in; two cars side by side across the paper.
* :func:`championship_chart`: each driver's points after every race.
* :func:`places_chart`: one driver's place in every race they ran (their record).

``draw(spec)`` draws any of them (``spec["chart"]`` says which). Images are mode ``"1"``:
0 is ink, 1 is paper. Every number on an axis is at least 14 dots tall (the font's 7-dot
digits stretched: ``NUM``), and each image says where its axis numbers and its key are in
``image.info["axes"]`` and ``image.info["key"]`` (boxes ``(x0, y0, x1, y1)``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Mapping, Sequence, Union

from companion.core.names import codes

if TYPE_CHECKING:       # Pillow is imported when a chart is drawn: building a spec needs none
    from PIL import Image, ImageDraw, ImageFont

WIDTH = 384                 # dots across 58 mm paper at 203 dpi
INK, PAPER = 0, 1
GLYPH_W, GLYPH_H = 6, 11    # Pillow's built-in bitmap font (the receipts' font, before scaling)
DIGIT_TOP, DIGIT_H = 2, 7   # where a digit's ink is in the font's cell: rows 2 to 8
BIG = 2                     # labels and keys at twice the font: 12x22 dots, as the receipt's text
NUM = (1, 2)                # axis numbers: the font two dots high, digits 6 wide and 14 tall
LINE_H = GLYPH_H * BIG + 2  # a line of text at BIG
MIN_STEP = 6                # dots between two lap columns at least; fewer laps a column below
MAX_LABEL = 3               # characters of a car's label at the ends of its line
ROW = 18                    # dots between two rounds of a chart that runs down the paper
Scale = Union[int, tuple[int, int]]

# A car's stroke: (thickness, dash pattern (on, off, ... dots; () is solid), marker), by
# its place in the standings. Three strokes only (solid, dashed, dotted), told apart
# further by a marker: the winner's line solid and three dots thick, a dotted line one
# car in four at most, every dashed or dotted line two dots thick, every thin one marked.
SOLID, DASHED, DOTTED = (), (8, 4), (2, 3)
STYLES: tuple[tuple[int, tuple[int, ...], str | None], ...] = (
    (3, SOLID, None), (2, DASHED, None), (1, SOLID, "square"), (2, DOTTED, None),
    (1, SOLID, "triangle"), (2, DASHED, "box"), (1, SOLID, "diamond"), (2, DOTTED, "square"),
    (1, SOLID, "box"), (2, DASHED, "triangle"), (2, DOTTED, "diamond"), (2, DASHED, "diamond"),
)
# 7x7 marks, drawn on a one-dot margin of paper so that they stand clear of the lines
MARKERS = {
    "square": "####### ####### ####### ####### ####### ####### #######",
    "box": "####### ####### ##...## ##...## ##...## ####### #######",
    "triangle": "...#... ..###.. ..###.. .#####. .#####. ####### #######",
    "diamond": "...#... ..###.. .#####. ####### .#####. ..###.. ...#...",
}
OUT_MARK = "##...## ###.### .#####. ..###.. .#####. ###.### ##...##"
PIT_RING = 13               # a pit stop: a ring this many dots across, two dots thick


def style(car: int) -> tuple[int, tuple[int, ...], str | None]:
    """The stroke of the car ``car``-th in the standings (0: the winner)."""
    return STYLES[car % len(STYLES)]


# -- text -------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def font() -> "ImageFont.ImageFont":
    """Pillow's built-in bitmap font, the receipts' font: loaded once (2.6 MB resident) for
    the charts and the receipt previews alike."""
    from PIL import ImageFont
    return ImageFont.load_default_imagefont()


def _canvas(height: int) -> tuple["Image.Image", "ImageDraw.ImageDraw"]:
    """A blank 1-bit picture ``WIDTH`` dots wide and a pen on it."""
    from PIL import Image, ImageDraw
    img = Image.new("1", (WIDTH, height), PAPER)
    return img, ImageDraw.Draw(img)


def _scales(scale: Scale) -> tuple[int, int]:
    return (scale, scale) if isinstance(scale, int) else scale


def text_size(text: str, scale: Scale = BIG) -> tuple[int, int]:
    sx, sy = _scales(scale)
    return len(text) * GLYPH_W * sx, GLYPH_H * sy


def _text(img: "Image.Image", x: int, y: int, text: str, scale: Scale = BIG, ink: int = INK,
          halo: bool = False) -> int:
    """Draw ``text`` with its top-left at (x, y), on a margin of paper when ``halo`` (a
    label over the lines); returns its width."""
    from PIL import Image, ImageDraw
    if not text:
        return 0
    sx, sy = _scales(scale)
    small = Image.new("1", (len(text) * GLYPH_W, GLYPH_H), 0)
    ImageDraw.Draw(small).text((0, 0), _latin(text), font=font(), fill=1)
    mask = small.resize((small.width * sx, small.height * sy), Image.NEAREST) if (sx, sy) != (1, 1) else small
    if halo:
        img.paste(1 - ink, (x - 2, y + DIGIT_TOP * sy - 2, x + mask.width + 1, y + mask.height))
    img.paste(ink, (x, y), mask)
    return mask.width


def number_width(text: str, scale: Scale = NUM) -> int:
    """Dots across an axis number: a narrow number's digits a dot apart (the font's 1
    fills its cell and would touch the next digit)."""
    sx, _ = _scales(scale)
    return text_size(text, scale)[0] + (len(text) - 1 if sx == 1 else 0)


def _number(img: "Image.Image", x: int, cy: int, text: str, align: str = "right", scale: Scale = NUM,
            ink: int = INK) -> None:
    """An axis number with its digits' middle at ``cy``; ``x`` is its right end, its
    middle (``align="center"``) or its left end (``"left"``)."""
    sx, sy = _scales(scale)
    w = number_width(text, scale)
    left = x - w if align == "right" else x - w // 2 if align == "center" else x
    top = cy - DIGIT_TOP * sy - DIGIT_H * sy // 2
    if sx == 1:
        for k, ch in enumerate(text):
            _text(img, left + k * (GLYPH_W + 1), top, ch, scale, ink)
    else:
        _text(img, left, top, text, scale, ink)


def _latin(text: str) -> str:
    import unicodedata
    out = []
    for ch in text:
        if ord(ch) < 256:
            out.append(ch)
        else:
            plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if ord(c) < 128 and not unicodedata.combining(c))
            out.append(plain[:1] or "?")
    return "".join(out)



# -- marks, strokes and keys ----------------------------------------------------------------

@lru_cache(maxsize=None)
def _mask(rows: str) -> "Image.Image":
    """A mark's dots (``#`` rows apart by spaces) as a paste mask."""
    from PIL import Image
    grid = rows.split()
    img = Image.new("1", (len(grid[0]), len(grid)), 0)
    img.putdata([1 if c == "#" else 0 for row in grid for c in row])
    return img


def stamp(rows: str) -> "Image.Image":
    """A mark as it is printed: ink on paper, the size of its rows."""
    from PIL import Image
    mask = _mask(rows)
    img = Image.new("1", mask.size, PAPER)
    img.paste(INK, (0, 0), mask)
    return img


def _mark(img: "Image.Image", cx: int, cy: int, rows: str) -> None:
    """The mark ``rows`` centred on (cx, cy), on a one-dot margin of paper."""
    mask = _mask(rows)
    x, y = cx - mask.width // 2, cy - mask.height // 2
    img.paste(PAPER, (x - 1, y - 1, x + mask.width + 1, y + mask.height + 1))
    img.paste(INK, (x, y), mask)


@lru_cache(maxsize=1)
def _ring_mask() -> "Image.Image":
    from PIL import Image, ImageDraw
    img = Image.new("1", (PIT_RING, PIT_RING), 0)
    ImageDraw.Draw(img).ellipse((0, 0, PIT_RING - 1, PIT_RING - 1), outline=1, width=2)
    return img


def ring() -> "Image.Image":
    """The pit stop's ring as it is printed (ink on paper)."""
    from PIL import Image
    img = Image.new("1", (PIT_RING, PIT_RING), PAPER)
    img.paste(INK, (0, 0), _ring_mask())
    return img


def _ring(img: "Image.Image", cx: int, cy: int) -> None:
    img.paste(INK, (cx - PIT_RING // 2, cy - PIT_RING // 2), _ring_mask())


def _stroke(draw: "ImageDraw.ImageDraw", points: Sequence[tuple[int, int]],
            car_style: tuple[int, tuple[int, ...], str | None], phase: int = 0) -> int:
    """A car's polyline in its stroke; returns the dash phase reached, so a broken line
    keeps its rhythm."""
    width, pattern, _ = car_style
    if not pattern:
        if len(points) > 1:
            draw.line(list(points), fill=INK, width=width, joint="curve" if width > 2 else None)
        return phase
    period = sum(pattern)
    on = set()
    k = 0
    for i, run in enumerate(pattern):
        if i % 2 == 0:
            on.update(range(k, k + run))
        k += run
    dots = []
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        n = max(abs(x1 - x0), abs(y1 - y0), 1)
        for t in range(n):
            if phase % period in on:
                dots.append((x0 + round((x1 - x0) * t / n), y0 + round((y1 - y0) * t / n)))
            phase += 1
    if width > 1:
        lo = -(width // 2)
        dots = [(x + dx, y + dy) for x, y in dots for dx in range(lo, lo + width) for dy in range(lo, lo + width)]
    draw.point(dots, fill=INK)
    return phase


def _markers(img: "Image.Image", points: Sequence[tuple[int, int] | None],
             car_style: tuple[int, tuple[int, ...], str | None], every: int, offset: int) -> None:
    marker = car_style[2]
    if marker:
        for j, p in enumerate(points):
            if p is not None and (j + offset) % every == 0:
                _mark(img, p[0], p[1], MARKERS[marker])


SAMPLE_W = 36


def sample(car: int) -> "Image.Image":
    """A short piece of the car's line with its marker: its entry in the key."""
    img, draw = _canvas_of(SAMPLE_W, 11)
    _stroke(draw, [(0, 5), (SAMPLE_W - 1, 5)], style(car))
    _markers(img, [(SAMPLE_W // 2, 5)], style(car), 1, 0)
    return img


def _canvas_of(width: int, height: int) -> tuple["Image.Image", "ImageDraw.ImageDraw"]:
    from PIL import Image, ImageDraw
    img = Image.new("1", (width, height), PAPER)
    return img, ImageDraw.Draw(img)


Entry = tuple[Union["Image.Image", None], str]


def _flow(entries: Sequence[Entry]) -> list[tuple[int, int, Entry]]:
    """Where each key entry (a mark and its words) goes: ``(x, line, entry)``, left to
    right, a new line where the next does not fit."""
    out, x, line = [], 0, 0
    for entry in entries:
        mark, words = entry
        w = (mark.width + 6 if mark is not None else 0) + text_size(words)[0]
        if x and x + w > WIDTH:
            x, line = 0, line + 1
        out.append((x, line, entry))
        x += w + 18
    return out


def _key_height(entries: Sequence[Entry]) -> int:
    placed = _flow(entries)
    return (placed[-1][1] + 1) * LINE_H if placed else 0


def _draw_key(img: "Image.Image", y: int, entries: Sequence[Entry]) -> None:
    """The key at ``y``: each mark drawn as the chart draws it, then what it means;
    recorded in ``img.info["key"]``."""
    chars = WIDTH // (GLYPH_W * BIG)
    for x, line, (mark, words) in _flow(entries):
        top = y + line * LINE_H
        if mark is not None:
            img.paste(mark, (x, top + 11 - mark.height // 2))
            x += mark.width + 6
        _text(img, x, top, words[:max(1, chars - x // (GLYPH_W * BIG))])
    img.info["key"] = (0, y, WIDTH, y + _key_height(entries))


def _axis(img: "Image.Image", box: tuple[int, int, int, int]) -> None:
    img.info.setdefault("axes", []).append(box)


# -- lap chart ----------------------------------------------------------------------------

def _label(names: Sequence[str], given: Sequence[str | None] = ()) -> list[str]:
    """A label of at most three characters per car: the one given (a car number), the
    name when it is that short, else a distinct code (``Red`` -> ``RE``, ``Ann 2`` ->
    ``AN2``: ``names.codes``)."""
    return [label[:MAX_LABEL] for label in codes(names, MAX_LABEL, given)]


def _car_entries(names: Sequence[str], labels: Sequence[str], drawn: Sequence[int] | None = None) -> list[Entry]:
    """Each car's line in the key: its sample, its label and its name (of the cars
    ``drawn``, each in the style of its place among them; all by default)."""
    drawn = range(len(names)) if drawn is None else drawn
    return [(sample(k), names[car] if labels[car] in names[car] else f"{labels[car]} {names[car]}")
            for k, car in enumerate(drawn)]


SPLIT_ABOVE = 6
"""A lap chart of more cars is printed as two, the front of the field and the rest, each
car on every place row but only half the lines drawn, in the six clearest styles."""


def lap_chart_parts(spec: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The lap chart as printed: one picture, or for more than ``SPLIT_ABOVE`` cars two,
    each with the heading's words for the cars it draws (``places 1-6``, ``places 7-12``,
    by the classification)."""
    n = len(spec["names"])
    if n <= SPLIT_ABOVE or spec.get("across") == "rounds":
        return [("", dict(spec))]
    half = (n + 1) // 2
    return [(f"places {lo + 1}-{hi}", {**spec, "only": list(range(lo, hi))})
            for lo, hi in ((0, half), (half, n))]


def lap_chart_spec(results: Mapping[str, Any]) -> dict[str, Any] | None:
    """The lap chart's spec from a race's results: ``results["standings"]`` (winner first:
    ``name``, optionally ``number`` as the label) and ``results["lap_chart"]``:
    ``{"laps": [[name, ...] for each lap, in the order the cars ended it], "pits": [[name,
    lap], ...], "out": [[name, lap], ...], "first_lap": the lap of laps[0] (default 1),
    "at": [the lap of each order] (when the orders are not one a lap), "across": "laps" or
    "rounds" (what the numbers count; rounds run down the paper)}``.
    A car out on a lap is left out of the orders from that lap on. None when no lap was
    completed."""
    chart = results.get("lap_chart") or {}
    first_lap = int(chart.get("first_lap", 1))
    gone = {str(n): int(lap) for n, lap in chart.get("out") or ()}
    at = [int(n) for n in chart.get("at") or ()]
    laps = [[str(n) for n in order if lap < gone.get(str(n), lap + 1)]     # a car out is not drawn on
            for order, lap in zip(chart.get("laps") or (), at or range(first_lap, 10 ** 9))]
    if not laps:
        return None
    names = [str(r["name"]) for r in results.get("standings") or ()]
    for order in laps:
        names.extend(n for n in order if n not in names)
    index = {n: i for i, n in enumerate(names)}
    given = [r.get("number") for r in results.get("standings") or ()]
    return {
        "chart": "lap",
        "names": names,
        "labels": _label(names, given),
        "laps": [[index[n] for n in order] for order in laps],
        "pits": sorted({(index[str(n)], int(lap)) for n, lap in chart.get("pits") or () if str(n) in index}),
        "out": sorted({(index[str(n)], int(lap)) for n, lap in chart.get("out") or () if str(n) in index}),
        "first_lap": first_lap,
        "at": [int(n) for n in chart.get("at") or ()][:len(laps)],
        "across": str(chart.get("across", "laps")),
    }


def lap_columns(laps: int, room: int) -> int:
    """Laps a column shows: 1, or more when one a lap would be closer than MIN_STEP dots."""
    return max(1, math.ceil(laps / max(1, room // MIN_STEP + 1)))


def lap_chart(spec: Mapping[str, Any]) -> "Image.Image":
    """The lap chart of :func:`lap_chart_spec`: a 1-bit image ``WIDTH`` dots wide; laps
    across, or rounds down the paper (``spec["across"] == "rounds"``)."""
    return (_rounds_down if spec.get("across") == "rounds" else _laps_across)(spec)


def _positions(orders: Sequence[Sequence[int]], cars: int, cols: Sequence[int]) -> list[list[int | None]]:
    """Each car's place in each shown column (None: it did not end that lap)."""
    where: list[list[int | None]] = [[None] * len(cols) for _ in range(cars)]
    for j, lap in enumerate(cols):
        for pos, car in enumerate(orders[lap], start=1):
            where[car][j] = pos
    return where


def _runs(pts: Sequence[tuple[int, int] | None]) -> list[list[tuple[int, int]]]:
    """A line's unbroken stretches (a None point breaks it)."""
    runs: list[list[tuple[int, int]]] = [[]]
    for p in pts:
        if p is None:
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append(p)
    return [r for r in runs if r]


def _special_entries(spec: Mapping[str, Any]) -> list[Entry]:
    return ([(ring(), "pit stop")] if spec.get("pits") else []) + \
        ([(stamp(OUT_MARK), "out")] if spec.get("out") else [])


def _laps_across(spec: Mapping[str, Any]) -> "Image.Image":
    names, labels = list(spec["names"]), list(spec["labels"])
    orders = [list(o) for o in spec["laps"]]
    first_lap = int(spec.get("first_lap", 1))
    cars, nlaps = len(names), len(orders)
    pitch = 34 if cars <= 3 else 28 if cars <= 6 else 24
    label_w = max(text_size(lab)[0] for lab in labels)
    scale_w = number_width(str(cars))
    x0 = scale_w + 10 + label_w + 6     # the place numbers well apart from the labels
    x1 = WIDTH - 1 - label_w - 8
    numbers = [int(n) for n in spec.get("at") or ()] or [first_lap + k for k in range(nlaps)]
    group = lap_columns(nlaps, x1 - x0)
    cols = list(range(group - 1, nlaps, group))
    if cols[-1] != nlaps - 1:
        cols.append(nlaps - 1)
    shown = [numbers[c] for c in cols]          # the lap number of each column
    span = max(1, shown[-1] - shown[0])
    xs = [round(x0 + (x1 - x0) * (n - shown[0]) / span) if len(cols) > 1 else (x0 + x1) // 2 for n in shown]
    step = (x1 - x0) / max(1, len(cols) - 1)
    top = 8
    height_plot = cars * pitch

    def y_of(pos: int) -> int:      # position 1 is the top row
        return top + (pos - 1) * pitch + pitch // 2

    words = ([f"1 column = {group} {spec.get('across', 'laps')}"] if group > 1 and not spec.get("at") else []) + \
        ([f"{str(spec.get('across')).capitalize()} across"] if spec.get("across", "laps") != "laps" else [])
    drawn = [int(c) for c in spec.get("only") or range(cars)]   # the lines drawn (a split field's part)
    look = {car: k for k, car in enumerate(drawn)}               # each in the style of its place among them
    entries = [(None, w) for w in words] + _special_entries(spec) + _car_entries(names, labels, drawn)
    axis_h = GLYPH_H * BIG + 8
    ybase = top + height_plot + 2
    height = ybase + axis_h + 4 + _key_height(entries) + 6
    img, draw = _canvas(height)

    # place scale and faint guides (a dot every 8)
    for pos in range(1, cars + 1):
        _number(img, scale_w, y_of(pos), str(pos))
        draw.point([(x, y_of(pos)) for x in range(x0, x1 + 1, 8)], fill=INK)
    _axis(img, (0, top, scale_w + 1, top + height_plot))
    # lap axis
    draw.line((x0, ybase, x1, ybase), fill=INK)
    for x in xs:
        draw.line((x, ybase, x, ybase + 2), fill=INK)
    lap_w = text_size(str(shown[-1]))[0]
    for lap in _ticks(shown[0], shown[-1], x1 - x0, lap_w):
        text = str(lap)
        w = text_size(text)[0]
        xt = round(x0 + (x1 - x0) * (lap - shown[0]) / span) if len(cols) > 1 else xs[0]
        draw.line((xt, ybase, xt, ybase + 5), fill=INK)
        _text(img, min(max(0, xt - w // 2), WIDTH - w), ybase + 6, text)
    _axis(img, (0, ybase + 6, WIDTH, ybase + 6 + GLYPH_H * BIG))

    where = _positions(orders, cars, cols)
    out_at = {car: lap for car, lap in spec.get("out") or ()}

    def column(lap: int) -> int:    # the column showing lap ``lap``
        return next((j for j, n in enumerate(shown) if n >= lap), len(cols) - 1)

    marker_every = max(1, math.ceil(14 / max(step, 1)))
    for car in reversed(drawn):            # the winner drawn last, on top
        pts = [(xs[j], y_of(p)) if p is not None else None for j, p in enumerate(where[car])]
        phase = 0
        for run in _runs(pts):
            phase = _stroke(draw, run, style(look[car]), phase)
        _markers(img, pts, style(look[car]), marker_every, car)
        # labels: where the car was in the first column it appears in, and where it is classified
        first = next((p for p in pts if p is not None), None)
        if first is not None:
            w = text_size(labels[car])[0]
            _text(img, x0 - 4 - w, first[1] - GLYPH_H, labels[car])
        _text(img, x1 + 8, y_of(car + 1) - GLYPH_H, labels[car])
    for car, lap in spec.get("pits") or ():     # pit stops and crosses over every line
        if car not in look:
            continue
        j = column(lap)
        pos = where[car][j] if j < len(cols) else None
        if pos is not None:
            _ring(img, xs[j], y_of(pos))
    for car, lap in out_at.items():
        if car not in look:
            continue
        last = next((p for p in reversed(where[car]) if p is not None), None)
        j = min(column(lap), len(xs) - 1)
        if where[car][j] is not None:
            _mark(img, xs[j], y_of(where[car][j]), OUT_MARK)
        elif last is not None:
            k = max(i for i, p in enumerate(where[car]) if p is not None)
            _mark(img, xs[k], y_of(last), OUT_MARK)
    _draw_key(img, ybase + axis_h + 4, entries)
    return img


def _rounds_down(spec: Mapping[str, Any]) -> "Image.Image":
    """Places across (1 at the left), rounds down the paper, a numbered row each: a car's
    label above its line's first point and below its last (under the cross of a car out)."""
    names, labels = list(spec["names"]), list(spec["labels"])
    orders = [list(o) for o in spec["laps"]]
    cars, rows = len(names), len(orders)
    numbers = [int(n) for n in spec.get("at") or ()] or [int(spec.get("first_lap", 1)) + k for k in range(rows)]
    num_w = number_width(str(max(numbers)))
    x0 = num_w + 6
    colw = (WIDTH - x0) / cars
    label_w = max(text_size(lab)[0] for lab in labels)
    tiers = 1 if colw >= label_w + 6 else 2     # labels staggered on two lines where the places are close

    def x_of(pos: int) -> int:
        return round(x0 + (pos - 0.5) * colw)

    top = 18 + tiers * LINE_H + 4

    def y_of(i: int) -> int:
        return top + i * ROW + ROW // 2

    bottom = top + rows * ROW + 6
    entries = [(None, f"{str(spec.get('across', 'laps')).capitalize()} down, places across")] + \
        _special_entries(spec) + _car_entries(names, labels)
    height = bottom + tiers * LINE_H + 10 + _key_height(entries) + 6
    img, draw = _canvas(height)

    for pos in range(1, cars + 1):             # the places along the top
        _number(img, x_of(pos), 9, str(pos), "center")
    _axis(img, (x0, 0, WIDTH, 18))
    for i, n in enumerate(numbers):            # every round down the left, a dot at each place
        _number(img, num_w, y_of(i), str(n))
        draw.point([(x_of(pos), y_of(i)) for pos in range(1, cars + 1)], fill=INK)
    _axis(img, (0, top, num_w + 1, top + rows * ROW))

    where = _positions(orders, cars, range(rows))
    out_at = dict(spec.get("out") or ())

    def row(lap: int) -> int:
        return next((i for i, n in enumerate(numbers) if n >= lap), rows - 1)

    ends = []
    for car in reversed(range(cars)):           # the winner drawn last, on top
        pts = [(x_of(p), y_of(i)) if p is not None else None for i, p in enumerate(where[car])]
        phase = 0
        for run in _runs(pts):
            phase = _stroke(draw, run, style(car), phase)
        _markers(img, pts, style(car), 2, car)
        ends.append((car, pts))
    for car, lap in spec.get("pits") or ():
        i = row(lap)
        if where[car][i] is not None:
            _ring(img, x_of(where[car][i]), y_of(i))
    for car, pts in ends:                       # labels last, over the lines
        w = text_size(labels[car])[0]
        first = next((i for i, p in enumerate(pts) if p is not None), None)
        last = next((i for i in reversed(range(rows)) if pts[i] is not None), None)
        if first is None or last is None:
            continue
        tier = (where[car][first] - 1) % tiers
        y = 18 + tier * LINE_H if first == 0 else pts[first][1] - LINE_H - 4
        _text(img, min(max(0, pts[first][0] - w // 2), WIDTH - w), y, labels[car], halo=True)
        x, y = pts[last]
        if car in out_at or last < rows - 1:
            _mark(img, x, y, OUT_MARK) if car in out_at else None
            _text(img, min(max(0, x - w // 2), WIDTH - w), y + 5, labels[car], halo=True)
        else:
            tier = (where[car][last] - 1) % tiers
            _text(img, min(max(0, x - w // 2), WIDTH - w), bottom + tier * LINE_H, labels[car], halo=True)
    _draw_key(img, bottom + tiers * LINE_H + 10, entries)
    return img


def _ticks(first: int, last: int, room: int, label_w: int) -> list[int]:
    """The numbers written along an axis of ``room`` dots from ``first`` to ``last``
    (labels ``label_w`` dots long): both ends and round numbers between them, as many as
    fit apart."""
    fits = max(1, room // (label_w + 12))
    span = max(1, last - first)
    # no step of 2: from 1 it reads "1 4 6 8 ... 15"; by fives it reads "1 5 10 15"
    step = next(s for s in (1, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10 ** 9) if span / s <= fits)
    gap = (label_w + 12) * span / room           # laps between two labels at least
    out = [first]
    for v in range(first - first % step + step, last, step):
        if v - out[-1] >= gap and last - v >= gap:
            out.append(v)
    if last != first:
        out.append(last)
    return out


# -- wear chart (Formula De) -------------------------------------------------------------

BOX_H = 18                  # a wear point's box: 18 dots tall, room for a 14-dot digit
MAX_BOX = 28                # and at most 28 dots wide
BAR_W = 8                   # new tires: a bar in a cell this wide
ZONE_W = GLYPH_W * BIG + 4  # a zone's letter
GAP = 12                    # between two cars side by side


def wear_spec(cars: Sequence[Mapping[str, Any]], zones: Sequence[str],
              zone_names: Sequence[str] = ()) -> dict[str, Any]:
    """A wear chart's spec: ``zones`` (one letter each, e.g. ``T B G C E H``), what they
    stand for (``zone_names``: ``tires``...; for the key) and per car ``{"name", "start":
    [WP per zone], "log": [[lap, zone index, WP lost (negative: given back, a pit stop's
    new tires)], ...], "out": lap or None}``."""
    return {"chart": "wear", "zones": list(zones), "zone_names": list(zone_names),
            "cars": [{"name": str(c["name"]), "start": [int(v) for v in c["start"]],
                      "log": [[int(lap), int(z), int(n)] for lap, z, n in c.get("log") or ()],
                      "out": c.get("out")} for c in cars]}


def _digit_scale(box: int, digits: str) -> Scale | None:
    """The biggest digits that fit a box ``box`` dots wide: the receipt's (12 dots a
    digit), narrow (6), or none."""
    return BIG if box - 3 >= number_width(digits, BIG) else NUM if box - 3 >= number_width(digits) else None


@lru_cache(maxsize=64)
def spent_box(box: int, lap: int) -> "Image.Image":
    """A wear point spent on ``lap``: a black box with the lap in paper, 14 dots tall."""
    img, draw = _canvas_of(box - 1, BOX_H)
    draw.rectangle((0, 0, box - 2, BOX_H - 1), fill=INK)
    scale = _digit_scale(box, str(lap))
    if scale is not None:
        _number(img, (box - 1) // 2, BOX_H // 2, str(lap), "center", scale, PAPER)
    return img


@lru_cache(maxsize=8)
def left_box(box: int) -> "Image.Image":
    """A wear point left: an empty box."""
    img, draw = _canvas_of(box - 1, BOX_H)
    draw.rectangle((0, 0, box - 2, BOX_H - 1), outline=INK)
    return img


@lru_cache(maxsize=1)
def new_tires() -> "Image.Image":
    """A pit stop's new tires: a bar a little taller than the boxes."""
    img, draw = _canvas_of(BAR_W, BOX_H + 4)
    draw.rectangle((BAR_W // 2 - 2, 0, BAR_W // 2, BOX_H + 3), fill=INK)
    return img


def _wear_cells(car: Mapping[str, Any], zones: int) -> list[list[tuple[str, int]]]:
    """A car's cells per zone in the order the points went: ``("spent", lap)``, ``("pit",
    lap)`` (new tires), then ``("left", 0)`` per point left."""
    left = list(car["start"])
    cells: list[list[tuple[str, int]]] = [[] for _ in range(zones)]
    for lap, z, n in car["log"]:
        if not 0 <= z < zones:
            continue
        if n > 0:
            cells[z].extend(("spent", lap) for _ in range(n))
        elif n < 0:
            cells[z].append(("pit", lap))
        left[z] -= n
    for z in range(zones):
        cells[z].extend(("left", 0) for _ in range(max(0, left[z])))
    return cells


def _box_width(blocks: Sequence[list[list[tuple[str, int]]]], width: int) -> int:
    """The widest box with which every row of every car fits ``width`` dots."""
    room = width - ZONE_W
    fits = [(room - BAR_W * sum(k == "pit" for k, _ in row)) // max(1, sum(k != "pit" for k, _ in row))
            for cells in blocks for row in cells]
    return max(1, min([MAX_BOX, *fits]))


def wear_chart(spec: Mapping[str, Any]) -> "Image.Image":
    """Each car: its name (a cross and the lap when it went out), a row per zone, one box
    per wear point in the order they went: a black box with the lap it was spent on, a bar
    where a pit stop's new tires gave points back, an empty box per point left. Two cars
    side by side where every row fits half the paper with the laps legible, else one; the
    boxes as wide as the longest row allows; a key with the very marks under it."""
    zones, names = list(spec["zones"]), list(spec.get("zone_names") or ())
    cars = list(spec["cars"])
    blocks = [_wear_cells(car, len(zones)) for car in cars]
    laps = [lap for cells in blocks for row in cells for kind, lap in row if kind == "spent"]
    widest = str(max(laps, default=1))
    half = (WIDTH - GAP) // 2
    cols = 2 if len(cars) > 1 and _digit_scale(_box_width(blocks, half), widest) is not None else 1
    block_w = (WIDTH - GAP * (cols - 1)) // cols
    box = _box_width(blocks, block_w)
    row_h = BOX_H + 4
    block_h = LINE_H + len(zones) * row_h + 10
    entries: list[Entry] = []
    if laps:
        entries.append((spent_box(box, min(laps)), f"WP spent on lap {min(laps)}"))
    entries.append((left_box(box), "WP left"))
    if any(kind == "pit" for cells in blocks for row in cells for kind, _ in row):
        entries.append((new_tires(), "new tires"))
    if any(car.get("out") for car in cars):
        entries.append((stamp(OUT_MARK), "out, on that lap"))
    entries += [(None, f"{z[:1]} {n}") for z, n in zip(zones, names)]
    height = 4 + math.ceil(len(cars) / cols) * block_h + _key_height(entries) + 6
    img, _ = _canvas(height)
    chars = block_w // (GLYPH_W * BIG)
    for k, (car, cells) in enumerate(zip(cars, blocks)):
        x0, y = (k % cols) * (block_w + GAP), 4 + (k // cols) * block_h
        out = f"lap {car['out']}" if car.get("out") else ""
        name = str(car["name"])[:chars - (len(out) + 2 if out else 0)].rstrip()
        x = x0 + _text(img, x0, y, name)
        if out:
            _mark(img, x + 12, y + 11, OUT_MARK)
            _text(img, x + 22, y, out)
        y += LINE_H
        for z, row in enumerate(cells):
            _text(img, x0, y - 2, zones[z][:1])
            x = x0 + ZONE_W
            for kind, lap in row:
                mark = spent_box(box, lap) if kind == "spent" else new_tires() if kind == "pit" else left_box(box)
                if x + mark.width > x0 + block_w:
                    break
                img.paste(mark, (x, y - 2 if kind == "pit" else y))
                x += BAR_W if kind == "pit" else box
            y += row_h
    _draw_key(img, 4 + math.ceil(len(cars) / cols) * block_h, entries)
    return img


# -- championship chart -----------------------------------------------------------------

def championship_spec(races: Sequence[Sequence[Mapping[str, Any]]], order: Sequence[str]) -> dict[str, Any]:
    """A championship chart's spec from the races' standings (oldest first, each a list of
    ``{"name", "points"}``) and the championship's order (leader first): each driver's
    points after every race."""
    names = [str(n) for n in order]
    totals = {n: [0] for n in names}
    for race in races:
        scored = {str(e["name"]): int(e.get("points", 0) or 0) for e in race}
        for n in names:
            totals[n].append(totals[n][-1] + scored.get(n, 0))
    return {"chart": "championship", "names": names, "labels": _label(names),
            "points": [totals[n] for n in names]}


def championship_chart(spec: Mapping[str, Any]) -> "Image.Image":
    """Points up, races across (0 before the first race); the leader's line heaviest, a
    label at each line's end, each line in the key."""
    names, labels, points = list(spec["names"]), list(spec["labels"]), [list(p) for p in spec["points"]]
    races = max((len(p) for p in points), default=1) - 1
    most = max((max(p) for p in points if p), default=0) or 1
    label_w = max((text_size(lab)[0] for lab in labels), default=0)
    scale_w = number_width(str(most))
    x0, x1 = scale_w + 6, WIDTH - 1 - label_w - 8
    top, plot_h = GLYPH_H, max(120, min(264, 24 * len(names)))
    entries = _car_entries(names, labels)
    axis_h = GLYPH_H * BIG + 8
    ybase = top + plot_h + 2
    height = ybase + axis_h + 4 + _key_height(entries) + 6
    img, draw = _canvas(height)

    def xy(k: int, v: int) -> tuple[int, int]:
        x = x0 + round((x1 - x0) * k / max(1, races))
        return x, top + plot_h - round(plot_h * v / most)

    for v in _ticks(0, most, plot_h, 18):
        y = xy(0, v)[1]
        _number(img, scale_w, y, str(v))
        draw.point([(x, y) for x in range(x0, x1 + 1, 8)], fill=INK)
    _axis(img, (0, 0, scale_w + 1, ybase))
    draw.line((x0, ybase, x1, ybase), fill=INK)
    race_w = text_size(str(races))[0]
    for k in _ticks(0, races, x1 - x0, race_w):
        x = xy(k, 0)[0]
        draw.line((x, ybase, x, ybase + 5), fill=INK)
        w = text_size(str(k))[0]
        _text(img, min(max(0, x - w // 2), WIDTH - w), ybase + 6, str(k))
    _axis(img, (0, ybase + 6, WIDTH, ybase + 6 + GLYPH_H * BIG))
    ends: list[tuple[int, int]] = []
    for car in reversed(range(len(names))):
        pts = [xy(k, v) for k, v in enumerate(points[car])]
        _stroke(draw, pts, style(car))
        _markers(img, [None, *pts[1:]], style(car), 1, 0)
        ends.append((pts[-1][1], car))
    # labels at the right, spread apart where lines end close together
    ends.sort()
    ys: list[int] = []
    for y, _ in ends:                 # top down, a label's height apart at least
        ys.append(max(y - GLYPH_H, ys[-1] + GLYPH_H * BIG if ys else 0))
    lift = max(0, ys[-1] - (top + plot_h + 2 - GLYPH_H)) if ys else 0
    for k in reversed(range(len(ys))):    # then up from the bottom where they ran past it
        ys[k] = ys[k] - lift if k == len(ys) - 1 else min(ys[k], ys[k + 1] - GLYPH_H * BIG)
    for y, (_, car) in zip(ys, ends):
        _text(img, x1 + 8, max(0, y), labels[car])
    _draw_key(img, ybase + axis_h + 4, entries)
    return img


# -- a driver's places ------------------------------------------------------------------

def places_spec(name: str, places: Sequence[int], cars: Sequence[int]) -> dict[str, Any]:
    """A driver's place in each race (oldest first) and how many cars each race had."""
    return {"chart": "places", "name": str(name), "places": [int(p) for p in places],
            "cars": [int(c) for c in cars]}


def places_chart(spec: Mapping[str, Any]) -> "Image.Image":
    """Place down (1st at the top), races across: one heavy line through the driver's
    places, a mark on each race, and the field's size as a dotted floor."""
    places, cars = list(spec["places"]), list(spec["cars"])
    deepest = max([*places, *cars, 2])
    scale_w = number_width(str(deepest))
    x0, x1 = scale_w + 6, WIDTH - 8
    top, plot_h = GLYPH_H, max(96, min(200, 16 * deepest))
    axis_h = GLYPH_H * BIG + 8
    img, draw = _canvas(top + plot_h + axis_h + GLYPH_H * BIG + 6)
    races = len(places)

    def xy(k: int, place: float) -> tuple[int, int]:
        x = x0 + round((x1 - x0) * k / max(1, races - 1))
        return x, top + round(plot_h * (place - 1) / max(1, deepest - 1))

    for v in _ticks(1, deepest, plot_h, 18):
        y = xy(0, v)[1]
        _number(img, scale_w, y, str(v))
        draw.point([(x, y) for x in range(x0, x1 + 1, 6)], fill=INK)
    _axis(img, (0, 0, scale_w + 1, top + plot_h + 2))
    floor = [xy(k, c) for k, c in enumerate(cars)]
    if len(floor) > 1:
        _stroke(draw, floor, (2, DOTTED, None))
    pts = [xy(k, p) for k, p in enumerate(places)]
    _stroke(draw, pts, style(0))
    for x, y in pts:
        _mark(img, x, y, MARKERS["square"])
    ybase = top + plot_h + 4
    draw.line((x0, ybase, x1, ybase), fill=INK)
    race_w = text_size(str(races))[0]
    for k in _ticks(1, races, x1 - x0, race_w):
        x = xy(k - 1, 1)[0]
        draw.line((x, ybase, x, ybase + 5), fill=INK)
        w = text_size(str(k))[0]
        _text(img, min(max(0, x - w // 2), WIDTH - w), ybase + 6, str(k))
    _axis(img, (0, ybase + 6, WIDTH, ybase + 6 + GLYPH_H * BIG))
    _text(img, 0, ybase + axis_h, "dotted: cars in the race")
    return img


CHARTS = {"lap": lap_chart, "wear": wear_chart, "championship": championship_chart, "places": places_chart}


def draw(spec: Mapping[str, Any]) -> "Image.Image":
    """The picture of any spec above (``spec["chart"]`` names it)."""
    try:
        chart = CHARTS[spec["chart"]]
    except KeyError:
        raise ValueError(f"unknown chart {spec.get('chart')!r}; known: {', '.join(CHARTS)}") from None
    return chart(spec)
