"""Receipt layouts any game can print: race program, results, championship, lap chart.

Every builder returns a :class:`~companion.receipts.model.Receipt` laid out for 32
characters a line (58 mm paper, font A). Tables are :class:`Columns`: a position column,
the name column (as wide as the other columns leave room for) and the extra columns a
caller asks for with :class:`Col`, each right-aligned with at least one space before it.

A game with its own data picks its columns::

    layouts.results("Monaco GP", standings, lines=["Formula De, 3 laps"],
                    columns=(Col("laps", "Laps", 5), Col("points", "Pts", 5)))
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from companion.core import race as racing
from companion.core.scoring import BONUSES
from companion.receipts.model import Columns, Feed, Item, Line, Receipt, Rule, stamped

WIDTH = 32
POS_WIDTH = 3
MIN_NAME = 8


def format_seconds(seconds: float | None) -> str:
    """A lap time: ``42.3``, ``4:05.2`` or ``1:04:05``; ``-`` when unknown."""
    if seconds is None:
        return "-"
    tenths = int(round(seconds * 10))
    minutes, t = divmod(tenths, 600)
    if minutes >= 60:
        hours, minutes = divmod(minutes, 60)
        return f"{hours}:{minutes:02d}:{t // 10:02d}"
    return f"{minutes}:{t // 10:02d}.{t % 10}" if minutes else f"{t // 10}.{t % 10}"


def _plain(value: Any) -> str:
    return "-" if value is None else str(value)


@dataclass(frozen=True)
class Col:
    """An extra table column: ``row[key]`` under ``header``, ``width`` characters including
    the space before it; ``fmt`` turns the value into text (None prints ``-``)."""
    key: str
    header: str
    width: int
    fmt: Callable[[Any], str] = _plain


LAPS = Col("laps", "Laps", 5)
LED = Col("laps_led", "Led", 4)
BEST = Col("best_lap", "Best", 7, format_seconds)
POINTS = Col("points", "Pts", 5)
COLOUR = Col("colour", "Colour", 8)
RESULT_COLUMNS = (LAPS, LED, POINTS)


def table(rows: Sequence[Mapping[str, Any]], columns: Sequence[Col] = (),
          name_header: str = "Car") -> list[Item]:
    """A header row and one row per ``rows`` entry: position (``row["position"]``, else the
    row's place in the list), ``row["name"]`` and the ``columns``."""
    name_width = WIDTH - POS_WIDTH - sum(c.width for c in columns)
    if name_width < MIN_NAME:
        raise ValueError(f"columns take {WIDTH - name_width} of {WIDTH} characters; "
                         f"leave {MIN_NAME + POS_WIDTH} for position and name")
    widths = (POS_WIDTH, name_width, *(c.width for c in columns))

    def cells(first: str, name: str, extras: Iterable[str]) -> tuple[str, ...]:
        fitted = (text[:c.width - 1].rjust(c.width) for text, c in zip(extras, columns))
        return (first, name[:name_width - 1], *fitted)

    right = bool(columns)       # the name column, when last, stays at the left
    out: list[Item] = [Columns(cells(" # ", name_header, (c.header for c in columns)), widths,
                               bold=True, right_last=right)]
    for i, row in enumerate(rows, start=1):
        pos = f"{row.get('position', i):>2} "
        out.append(Columns(cells(pos, str(row["name"]), (c.fmt(row.get(c.key)) for c in columns)),
                           widths, right_last=right))
    return out


def wrapped(text: str) -> list[Line]:
    """``text`` as lines of at most 32 characters, broken between words."""
    return [Line(t) for t in textwrap.wrap(text, WIDTH)] or [Line("")]


def _text(lines: Iterable[str]) -> list[Item]:
    return [line for text in lines for line in wrapped(text)]


def _head(lines: Iterable[str]) -> list[Item]:
    return [*_text(lines), Rule()]


def race_program(title: str, lines: Sequence[str] = (), grid: Sequence[Mapping[str, Any]] = (),
                 columns: Sequence[Col] = ()) -> Receipt:
    """The race program: ``title``, the ``lines`` under it (circuit, laps, date), then the
    starting grid, pole first. Each grid entry is a mapping with ``name`` and any keys the
    ``columns`` show (e.g. ``COLOUR``)."""
    return Receipt("program", title, (*_head(lines), *table(grid, columns, "Grid"), Rule(), Feed(2)))


def bonus_lines(rows: Sequence[Mapping[str, Any]]) -> list[Line]:
    """One line per bonus that was earned: ``+1 led a lap: Red, Blue``."""
    earned: dict[tuple[str, int], list[str]] = {}
    for row in rows:
        for name, points in row.get("bonus", {}).items():
            earned.setdefault((name, points), []).append(str(row["name"]))
    out: list[Line] = []
    for (name, points), names in earned.items():
        out.extend(wrapped(f"+{points} {BONUSES.get(name, name)}: {', '.join(names)}"))
    return out


def results(title: str, rows: Sequence[Mapping[str, Any]], lines: Sequence[str] = (),
            columns: Sequence[Col] = RESULT_COLUMNS, notes: Sequence[str] = ()) -> Receipt:
    """Race results: ``title``, ``lines``, the classification and what earned points.

    ``rows`` are standings dicts (``companion.core.scoring.standings``), winner first: each
    with ``position`` and ``name``, the keys of ``columns``, and optionally ``bonus``
    ({bonus name: points}), ``fastest_lap`` and ``best_lap`` (seconds). Under the table come
    the bonuses earned, the fastest lap, then ``notes`` (free text, wrapped).
    """
    items: list[Item] = [*_head(lines), *table(rows, columns), Rule()]
    items.extend(bonus_lines(rows))
    for row in rows:
        if row.get("fastest_lap") and row.get("best_lap") is not None:
            items.extend(wrapped(f"Fastest lap: {row['name']} {format_seconds(row['best_lap'])}"))
    items.extend(_text(notes))
    return Receipt("results", title, (*items, Feed(2)))


def standings_columns(rows: Sequence[Mapping[str, Any]]) -> tuple[Col, ...]:
    """The ready columns that ``rows`` have values for (laps, laps led, best lap, points)."""
    return tuple(c for c in (LAPS, LED, BEST, POINTS)
                 if any(r.get(c.key) is not None for r in rows))


def standings_results(title: str, rows: Sequence[Mapping[str, Any]], lines: Sequence[str] = (),
                      notes: Sequence[str] = ()) -> Receipt:
    """A results receipt from any activity's standings (the ``results.json`` shape), with
    the columns the rows have: what prints for a race ended early when its game has no
    results receipt of its own yet."""
    return results(title, rows, lines, standings_columns(rows), notes)


MAX_RACE_COLUMNS = 5


def championship(title: str, rows: Sequence[Mapping[str, Any]], lines: Sequence[str] = ()) -> Receipt:
    """Championship standings: ``rows`` from ``companion.core.scoring.championship``.

    Up to five races each get a column with the position scored there (``-`` where the car
    did not start); after more races the table shows wins instead. A line under ``title``
    says how many races count, then come ``lines``.
    """
    count = max((len(r["results"]) for r in rows), default=0)
    if count <= MAX_RACE_COLUMNS:
        cols = [Col(f"r{k}", f"R{k}", 3) for k in range(1, count + 1)]
        shown = [{**r, **{f"r{k}": p for k, p in enumerate(r["results"], start=1)}} for r in rows]
    else:
        cols, shown = [Col("wins", "Won", 4)], list(rows)
    head = [f"After {count} race{'s' if count != 1 else ''}", *lines]
    return Receipt("championship", title,
                   (*_head(head), *table(shown, [*cols, POINTS], "Driver"), Rule(), Feed(2)))


CHART_LAP = 3           # " 12" then the cars
CHART_CAR = 3           # " RE"


def car_codes(names: Sequence[str]) -> dict[str, str]:
    """A distinct code of at most two characters per name: ``Red`` -> ``RE``,
    ``Blue`` -> ``BL``, then ``Black`` -> ``BA`` (first letter + a later one)."""
    taken: set[str] = set()
    out: dict[str, str] = {}
    for k, name in enumerate(names):
        chars = [ch for ch in name.upper() if ch.isalnum()] or ["?"]
        head = chars[0]
        candidates = [head + ch for ch in chars[1:]] + [head] + [head + str(d) for d in range(10)]
        code = next((c for c in candidates if c not in taken), f"{k:02d}")
        taken.add(code)
        out[name] = code
    return out


def _packed(words: Sequence[str], gap: str = "  ") -> list[Line]:
    """``words`` side by side, as many as fit in a line, never broken."""
    out: list[str] = []
    for word in words:
        if out and len(out[-1]) + len(gap) + len(word) <= WIDTH:
            out[-1] += gap + word
        else:
            out.append(word[:WIDTH])
    return [Line(t) for t in out]


def lap_chart(race, title: str = "Lap chart", lines: Sequence[str] = ()) -> Receipt:
    """Who crossed the line in which order, lap by lap, for a
    ``companion.core.race.RaceState``: a key of car codes, then one row per lap with the
    cars in the order they completed it (nine cars a line, the rest on the next)."""
    codes = car_codes([c.name for c in race.cars])
    key = _packed([f"{codes[c.name]} {c.name}" for c in race.cars])
    per_line = (WIDTH - CHART_LAP) // CHART_CAR

    def rows(first: str, cells: Sequence[str], bold: bool = False) -> list[Columns]:
        out = []
        for k in range(0, max(len(cells), 1), per_line):
            chunk = tuple(c.rjust(CHART_CAR) for c in cells[k:k + per_line])
            out.append(Columns((first if k == 0 else "", *chunk),
                               (CHART_LAP, *([CHART_CAR] * len(chunk))), bold=bold))
        return out

    items: list[Item] = [*_text(lines), *key, Rule()]
    items.extend(rows("Lap", [str(p) for p in range(1, len(race.cars) + 1)], bold=True))
    for lap, order in enumerate(racing.lap_orders(race), start=1):
        items.extend(rows(f"{lap:>3}", [codes[name] for name in order]))
    return Receipt("lap-chart", title, (*items, Rule(), Feed(2)))
