"""Pictures of a race drawn from its results: a lap chart, a wear chart, a championship chart.

Every chart is drawn from plain data (the ``results.json`` shape, or a small spec built
from it), never from a game's state, onto a 1-bit Pillow image 384 dots wide: the width
of 58 mm paper at 203 dpi (8 dots a millimetre). The receipts print it as a raster image
and preview it dot for dot; any other display of the race (the table screen) can draw
the same picture. Importing this module needs Pillow only (no printer, no pack).

Building a spec is cheap (plain lists); drawing is not: a receipt keeps the spec and the
picture is drawn when the receipt is printed or previewed (on the printer's worker).

* :func:`lap_chart_spec` (from a results dict with ``standings`` and ``lap_chart``) and
  :func:`lap_chart`: position down, laps across, one line per car told apart by its dash
  pattern and its marker, a label at both ends, pit stops ringed, an eliminated car's line
  ending in a cross, the winner's line the heaviest. Laps are grouped (a column every k
  laps) when one column a lap would be too narrow.
* :func:`wear_chart`: Formula Dé's six wear zones of each car, one box per wear point,
  each spent box marked with the lap it went in.
* :func:`championship_chart`: each driver's points after every race.
* :func:`places_chart`: one driver's place in every race they ran (their record).

``draw(spec)`` draws any of them (``spec["chart"]`` says which). Images are mode ``"1"``:
0 is ink, 1 is paper.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from companion.core.names import codes

if TYPE_CHECKING:       # Pillow is imported when a chart is drawn: building a spec needs none
    from PIL import Image, ImageDraw, ImageFont

WIDTH = 384                 # dots across 58 mm paper at 203 dpi
INK, PAPER = 0, 1
GLYPH_W, GLYPH_H = 6, 11    # Pillow's built-in bitmap font (the receipts' font, before scaling)
BIG = 2                     # labels drawn at twice the font: 12x22 dots, as the receipt's text
MIN_STEP = 6                # dots between two lap columns at least; fewer laps a column below
MAX_LABEL = 3               # characters of a car's label at the ends of its line

# A dash pattern per car (on, off, on, off... in dots along the line). The winner's line is
# solid and three dots thick; the others are one dot thick and never solid.
PATTERNS: tuple[tuple[int, ...], ...] = (
    (1, 0), (6, 3), (1, 2), (7, 2, 1, 2), (12, 4), (3, 3), (7, 2, 1, 2, 1, 2), (1, 4),
    (3, 2, 3, 6), (10, 2, 2, 2), (2, 5), (5, 2, 5, 2, 1, 2),
)
# A 5x5 marker per car, drawn on its line's points.
MARKERS: tuple[str, ...] = (
    "##### ##### ##### ##### #####", "##### #...# #...# #...# #####", "..#.. .###. ##### .###. ..#..",
    "..#.. .#.#. #...# .#.#. ..#..", "..#.. ..#.. ##### ..#.. ..#..", "#...# .#.#. ..#.. .#.#. #...#",
    "..#.. .###. .###. ##### #####", "..#.. .#.#. .#.#. #...# #####", "##### ##### .###. .###. ..#..",
    "##### #...# .#.#. .#.#. ..#..", ".###. ##### ##### ##### .###.", ".###. #...# #...# #...# .###.",
)
OUT_MARK = "##...## ###.### .#####. ..###.. .#####. ###.### ##...##"


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


def text_size(text: str, scale: int = BIG) -> tuple[int, int]:
    return len(text) * GLYPH_W * scale, GLYPH_H * scale


def _text(img: "Image.Image", x: int, y: int, text: str, scale: int = BIG, ink: int = INK) -> int:
    """Draw ``text`` with its top-left at (x, y); returns its width."""
    from PIL import Image, ImageDraw
    if not text:
        return 0
    small = Image.new("1", (len(text) * GLYPH_W, GLYPH_H), 0)
    ImageDraw.Draw(small).text((0, 0), _latin(text), font=font(), fill=1)
    mask = small.resize((small.width * scale, small.height * scale), Image.NEAREST) if scale != 1 else small
    img.paste(ink, (x, y), mask)
    return mask.width


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


def _wrap(words: Sequence[str], chars: int) -> list[str]:
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 2 + len(word) <= chars:
            lines[-1] += "  " + word
        else:
            lines.append(word[:chars])
    return lines


# -- drawing helpers ----------------------------------------------------------------------

def _bitmap(draw: "ImageDraw.ImageDraw", cx: int, cy: int, rows: str) -> None:
    half = len(rows.split()) // 2
    pts = [(cx - half + dx, cy - half + dy) for dy, row in enumerate(rows.split()) for dx, c in enumerate(row) if c == "#"]
    draw.point(pts, fill=INK)


def _dashed(draw: "ImageDraw.ImageDraw", points: Sequence[tuple[int, int]], pattern: Sequence[int],
            phase: int = 0) -> int:
    """A polyline one dot thick with ``pattern`` (on, off, ... dots); returns the phase
    reached, so a broken line keeps its rhythm."""
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
    if points:
        dots.append(points[-1])
    draw.point(dots, fill=INK)
    return phase


def _label(names: Sequence[str], given: Sequence[str | None] = ()) -> list[str]:
    """A label of at most three characters per car: the one given (a car number), the
    name when it is that short, else a distinct code (``Red`` -> ``RE``, ``Ann 2`` ->
    ``AN2``: ``names.codes``)."""
    return [label[:MAX_LABEL] for label in codes(names, MAX_LABEL, given)]


def _key(names: Sequence[str], labels: Sequence[str]) -> list[str]:
    """``RE Red  BL Blue ...`` wrapped to the paper: what each label stands for (nothing
    when every label is its car's name)."""
    return _wrap([name if lab in name else f"{lab} {name}" for name, lab in zip(names, labels) if lab != name],
                 WIDTH // (GLYPH_W * BIG))


# -- lap chart ----------------------------------------------------------------------------

def lap_chart_spec(results: Mapping[str, Any]) -> dict[str, Any] | None:
    """The lap chart's spec from a race's results: ``results["standings"]`` (winner first:
    ``name``, optionally ``number`` as the label) and ``results["lap_chart"]``:
    ``{"laps": [[name, ...] for each lap, in the order the cars ended it], "pits": [[name,
    lap], ...], "out": [[name, lap], ...], "first_lap": the lap of laps[0] (default 1),
    "at": [the lap of each order] (when the orders are not one a lap), "across": "laps" or
    "rounds" (what the numbers count)}``.
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
    """The lap chart of :func:`lap_chart_spec`: a 1-bit image ``WIDTH`` dots wide."""
    names, labels = list(spec["names"]), list(spec["labels"])
    orders = [list(o) for o in spec["laps"]]
    first_lap = int(spec.get("first_lap", 1))
    cars, nlaps = len(names), len(orders)
    pitch = 34 if cars <= 3 else 28 if cars <= 6 else 24
    label_w = max(text_size(lab)[0] for lab in labels)
    scale_w = text_size(str(cars), 1)[0]
    x0 = scale_w + 4 + label_w + 8
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
    top = 6
    height_plot = cars * pitch

    def y_of(pos: int) -> int:      # position 1 is the top row
        return top + (pos - 1) * pitch + pitch // 2

    key = _key(names, labels)
    legend = _legend(spec, group if not spec.get("at") else 1)
    axis_h = GLYPH_H * BIG + 8
    height = top + height_plot + axis_h + (len(legend) + len(key)) * (GLYPH_H * BIG + 2) + 6
    img, draw = _canvas(height)

    # position scale and guides
    for pos in range(1, cars + 1):
        y = y_of(pos)
        _text(img, scale_w - text_size(str(pos), 1)[0], y - GLYPH_H // 2, str(pos), 1)
        draw.point([(x, y) for x in range(x0, x1 + 1, 4)], fill=INK)
    # lap axis
    ybase = top + height_plot + 2
    draw.line((x0, ybase, x1, ybase), fill=INK)
    for j, x in enumerate(xs):
        draw.line((x, ybase, x, ybase + 2), fill=INK)
    lap_w = text_size(str(shown[-1]))[0]
    for lap in _ticks(shown[0], shown[-1], x1 - x0, lap_w):
        text = str(lap)
        w = text_size(text)[0]
        xt = round(x0 + (x1 - x0) * (lap - shown[0]) / span) if len(cols) > 1 else xs[0]
        draw.line((xt, ybase, xt, ybase + 5), fill=INK)
        _text(img, min(max(0, xt - w // 2), WIDTH - w), ybase + 6, text)

    # each car's position in each column (None: it did not end that lap)
    where: list[list[int | None]] = [[None] * len(cols) for _ in names]
    for j, lap in enumerate(cols):
        for pos, car in enumerate(orders[lap], start=1):
            where[car][j] = pos
    out_at = {car: lap for car, lap in spec.get("out") or ()}

    def column(lap: int) -> int:    # the column showing lap ``lap``
        return next((j for j, n in enumerate(shown) if n >= lap), len(cols) - 1)

    marker_every = max(1, math.ceil(12 / max(step, 1)))
    for car in reversed(range(cars)):      # the winner drawn last, on top
        pts = [(xs[j], y_of(p)) if p is not None else None for j, p in enumerate(where[car])]
        runs: list[list[tuple[int, int]]] = [[]]
        for p in pts:
            if p is None:
                if runs[-1]:
                    runs.append([])
            else:
                runs[-1].append(p)
        phase = 0
        for run in filter(None, runs):
            if car == 0:
                draw.line(run, fill=INK, width=3, joint="curve") if len(run) > 1 else None
                for x, y in run:
                    draw.rectangle((x - 1, y - 1, x + 1, y + 1), fill=INK)
            else:
                phase = _dashed(draw, run, PATTERNS[car % len(PATTERNS)], phase)
        for j, p in enumerate(pts):
            if p is not None and (j + car) % marker_every == 0:
                _bitmap(draw, p[0], p[1], MARKERS[car % len(MARKERS)])
        # labels: where the car was in the first column it appears in, and where it is classified
        first = next((p for p in pts if p is not None), None)
        if first is not None:
            w = text_size(labels[car])[0]
            _text(img, x0 - 6 - w, first[1] - GLYPH_H, labels[car])
        _text(img, x1 + 8, y_of(car + 1) - GLYPH_H, labels[car])
        if car in out_at:
            last = next((p for p in reversed(pts) if p is not None), None)
            j = column(out_at[car])
            if last is not None:
                x = xs[min(j, len(xs) - 1)] if where[car][min(j, len(xs) - 1)] is not None else last[0]
                _bitmap(draw, x, y_of(where[car][j]) if where[car][j] is not None else last[1], OUT_MARK)
    for car, lap in spec.get("pits") or ():
        j = column(lap)
        pos = where[car][j] if j < len(cols) else None
        if pos is not None:
            draw.ellipse((xs[j] - 5, y_of(pos) - 5, xs[j] + 5, y_of(pos) + 5), outline=INK)
    y = ybase + axis_h
    for line in legend + key:
        _text(img, 0, y, line)
        y += GLYPH_H * BIG + 2
    return img


def _ticks(first: int, last: int, room: int, label_w: int) -> list[int]:
    """The numbers written along an axis of ``room`` dots from ``first`` to ``last``
    (labels ``label_w`` dots long): both ends and round numbers between them, as many as
    fit apart."""
    fits = max(1, room // (label_w + 12))
    span = max(1, last - first)
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10 ** 9) if span / s <= fits)
    gap = (label_w + 12) * span / room           # laps between two labels at least
    out = [first]
    for v in range(first - first % step + step, last, step):
        if v - out[-1] >= gap and last - v >= gap:
            out.append(v)
    if last != first:
        out.append(last)
    return out


def _legend(spec: Mapping[str, Any], group: int) -> list[str]:
    words = []
    unit = spec.get("across", "laps")
    if group > 1:
        words.append(f"1 column = {group} {unit}")
    elif unit != "laps":
        words.append(f"{unit.capitalize()} across")
    if spec.get("pits"):
        words.append("O pit stop")
    if spec.get("out"):
        words.append("X out")
    return _wrap(words, WIDTH // (GLYPH_W * BIG))


# -- wear chart (Formula De) -------------------------------------------------------------

def wear_spec(cars: Sequence[Mapping[str, Any]], zones: Sequence[str]) -> dict[str, Any]:
    """A wear chart's spec: ``zones`` (one letter each, e.g. ``T B G C E H``) and per car
    ``{"name", "start": [WP per zone], "log": [[lap, zone index, WP lost (negative:
    given back, a pit stop's new tires)], ...], "out": lap or None}``."""
    return {"chart": "wear", "zones": list(zones),
            "cars": [{"name": str(c["name"]), "start": [int(v) for v in c["start"]],
                      "log": [[int(lap), int(z), int(n)] for lap, z, n in c.get("log") or ()],
                      "out": c.get("out")} for c in cars]}


def wear_chart(spec: Mapping[str, Any]) -> "Image.Image":
    """Each car: a row per zone, one box per wear point in the order they went: a black
    box with the lap it was spent on, a bar where a pit stop gave points back, then an
    empty box per point left."""
    zones = list(spec["zones"])
    cars = list(spec["cars"])
    box, tall = 14, GLYPH_H * BIG - 2
    zone_w = text_size("W")[0] + 4
    room = WIDTH - zone_w
    line_h = GLYPH_H * BIG + 2
    blocks = []                       # per car: the car, then per zone its cells
    for car in cars:
        left = list(car["start"])
        cells: list[list[tuple[str, int]]] = [[] for _ in zones]
        for lap, z, n in car["log"]:
            if not 0 <= z < len(zones):
                continue
            if n > 0:
                cells[z].extend(("spent", lap) for _ in range(n))
                left[z] -= n
            elif n < 0:
                cells[z].append(("pit", lap))
                left[z] -= n
        for z in range(len(zones)):
            cells[z].extend(("left", 0) for _ in range(max(0, left[z])))
        blocks.append((car, cells))
    widest = max((len(c) for _, cells in blocks for c in cells), default=1)
    box = max(8, min(box, room // max(1, widest)))
    height = 4 + sum(line_h + len(zones) * (tall + 2) + 8 for _ in blocks) + 2 * line_h
    img, draw = _canvas(height)
    y = 4
    for car, cells in blocks:
        title = str(car["name"]) + (f"  out lap {car['out']}" if car.get("out") else "")
        _text(img, 0, y, title[:WIDTH // (GLYPH_W * BIG)])
        y += line_h
        for z, row in enumerate(cells):
            _text(img, 0, y, zones[z][:1])
            x = zone_w
            for kind, lap in row:
                if x + box > WIDTH:
                    break
                if kind == "spent":
                    draw.rectangle((x, y, x + box - 2, y + tall - 1), fill=INK)
                    digits = str(lap)
                    if box >= GLYPH_W * len(digits) + 2:
                        _text(img, x + (box - 1 - GLYPH_W * len(digits)) // 2, y + (tall - GLYPH_H) // 2,
                              digits, 1, PAPER)
                elif kind == "pit":
                    draw.rectangle((x + box // 2 - 2, y - 1, x + box // 2, y + tall), fill=INK)
                else:
                    draw.rectangle((x, y, x + box - 2, y + tall - 1), outline=INK)
                x += box
            y += tall + 2
        y += 8
    _text(img, 0, y, "Black box: WP spent")
    _text(img, 0, y + line_h, "on the lap it shows")
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
    label at each line's end."""
    names, labels, points = list(spec["names"]), list(spec["labels"]), [list(p) for p in spec["points"]]
    races = max((len(p) for p in points), default=1) - 1
    most = max((max(p) for p in points if p), default=0) or 1
    label_w = max((text_size(lab)[0] for lab in labels), default=0)
    scale_w = text_size(str(most), 1)[0]
    x0, x1 = scale_w + 6, WIDTH - 1 - label_w - 8
    top, plot_h = GLYPH_H, max(120, min(264, 24 * len(names)))
    key = _key(names, labels)
    axis_h = GLYPH_H * BIG + 8
    height = top + plot_h + axis_h + len(key) * (GLYPH_H * BIG + 2) + 6
    img, draw = _canvas(height)

    def xy(k: int, v: int) -> tuple[int, int]:
        x = x0 + round((x1 - x0) * k / max(1, races))
        return x, top + plot_h - round(plot_h * v / most)

    for v in _ticks(0, most, plot_h, GLYPH_H):
        y = xy(0, v)[1]
        _text(img, scale_w - text_size(str(v), 1)[0], y - GLYPH_H // 2, str(v), 1)
        draw.point([(x, y) for x in range(x0, x1 + 1, 4)], fill=INK)
    ybase = top + plot_h + 2
    draw.line((x0, ybase, x1, ybase), fill=INK)
    race_w = text_size(str(races))[0]
    for k in _ticks(0, races, x1 - x0, race_w):
        x = xy(k, 0)[0]
        draw.line((x, ybase, x, ybase + 5), fill=INK)
        w = text_size(str(k))[0]
        _text(img, min(max(0, x - w // 2), WIDTH - w), ybase + 6, str(k))
    ends: list[tuple[int, int]] = []
    for car in reversed(range(len(names))):
        pts = [xy(k, v) for k, v in enumerate(points[car])]
        if car == 0:
            draw.line(pts, fill=INK, width=3, joint="curve") if len(pts) > 1 else None
        else:
            _dashed(draw, pts, PATTERNS[car % len(PATTERNS)])
        for k, (x, y) in enumerate(pts):
            if k:
                _bitmap(draw, x, y, MARKERS[car % len(MARKERS)])
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
    y = ybase + axis_h
    for line in key:
        _text(img, 0, y, line)
        y += GLYPH_H * BIG + 2
    return img


# -- a driver's places ------------------------------------------------------------------

def places_spec(name: str, places: Sequence[int], cars: Sequence[int]) -> dict[str, Any]:
    """A driver's place in each race (oldest first) and how many cars each race had."""
    return {"chart": "places", "name": str(name), "places": [int(p) for p in places],
            "cars": [int(c) for c in cars]}


def places_chart(spec: Mapping[str, Any]) -> "Image.Image":
    """Place down (1st at the top), races across: one heavy line through the driver's
    places, a tick under each race, and the field's size as a dotted floor."""
    places, cars = list(spec["places"]), list(spec["cars"])
    deepest = max([*places, *cars, 2])
    scale_w = text_size(str(deepest), 1)[0]
    x0, x1 = scale_w + 6, WIDTH - 8
    top, plot_h = GLYPH_H, max(96, min(200, 16 * deepest))
    axis_h = GLYPH_H * BIG + 8
    img, draw = _canvas(top + plot_h + axis_h + GLYPH_H * BIG + 6)
    races = len(places)

    def xy(k: int, place: float) -> tuple[int, int]:
        x = x0 + round((x1 - x0) * k / max(1, races - 1))
        return x, top + round(plot_h * (place - 1) / max(1, deepest - 1))

    for v in _ticks(1, deepest, plot_h, GLYPH_H):
        y = xy(0, v)[1]
        _text(img, scale_w - text_size(str(v), 1)[0], y - GLYPH_H // 2, str(v), 1)
        draw.point([(x, y) for x in range(x0, x1 + 1, 6)], fill=INK)
    floor = [xy(k, c) for k, c in enumerate(cars)]
    if len(floor) > 1:
        _dashed(draw, floor, PATTERNS[2 % len(PATTERNS)])
    pts = [xy(k, p) for k, p in enumerate(places)]
    if len(pts) > 1:
        draw.line(pts, fill=INK, width=3, joint="curve")
    for x, y in pts:
        _bitmap(draw, x, y, MARKERS[0])
    ybase = top + plot_h + 4
    draw.line((x0, ybase, x1, ybase), fill=INK)
    race_w = text_size(str(races))[0]
    for k in _ticks(1, races, x1 - x0, race_w):
        x = xy(k - 1, 1)[0]
        draw.line((x, ybase, x, ybase + 5), fill=INK)
        w = text_size(str(k))[0]
        _text(img, min(max(0, x - w // 2), WIDTH - w), ybase + 6, str(k))
    _text(img, 0, ybase + axis_h, _latin(f"{spec['name']}: place, race 1-{races}")[:WIDTH // (GLYPH_W * BIG)])
    return img


CHARTS = {"lap": lap_chart, "wear": wear_chart, "championship": championship_chart, "places": places_chart}


def draw(spec: Mapping[str, Any]) -> "Image.Image":
    """The picture of any spec above (``spec["chart"]`` names it)."""
    try:
        chart = CHARTS[spec["chart"]]
    except KeyError:
        raise ValueError(f"unknown chart {spec.get('chart')!r}; known: {', '.join(CHARTS)}") from None
    return chart(spec)
