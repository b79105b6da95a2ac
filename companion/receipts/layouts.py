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
from companion.core.names import car_name, counted
from companion.core.scoring import BONUSES, player_totals
from companion.receipts.model import Columns, Feed, Item, Line, QRCode, Receipt, Rule

WIDTH = 32
POS_WIDTH = 3
MIN_NAME = 8


def format_seconds(seconds: float | None) -> str:
    """A lap time with its unit: ``42.3s``, ``4:05.2`` or ``1:04:05``; ``-`` when unknown."""
    if seconds is None:
        return "-"
    tenths = int(round(seconds * 10))
    minutes, t = divmod(tenths, 600)
    if minutes >= 60:
        hours, minutes = divmod(minutes, 60)
        return f"{hours}:{minutes:02d}:{t // 10:02d}"
    return f"{minutes}:{t // 10:02d}.{t % 10}" if minutes else f"{t // 10}.{t % 10}s"


def _plain(value: Any) -> str:
    return "-" if value is None else str(value)


@dataclass(frozen=True)
class Col:
    """An extra table column: ``row[key]`` under ``header``, ``width`` characters including
    the space before it; ``fmt`` turns the value into text (None prints ``-``); ``legend``
    says what the header means, in the key under the table (``Pts: points``)."""
    key: str
    header: str
    width: int
    fmt: Callable[[Any], str] = _plain
    legend: str = ""


LAPS = Col("laps", "Laps", 5, legend="laps done")
LED = Col("laps_led", "Led", 4, legend="laps led")
BEST = Col("best_lap", "Best", 7, format_seconds, legend="best lap")
POINTS = Col("points", "Pts", 5, legend="points")
COLOUR = Col("colour", "Colour", 8, legend="the car's colour")
RESULT_COLUMNS = (LAPS, LED, POINTS)
POSITION_HEADER, NAME_HEADER = " # ", "Car"
"""Every results table: ``#`` over the positions, ``Car`` over the names (a car is
called by its player's name or its colour)."""


def legend(columns: Sequence[Col]) -> list[Line]:
    """The key to a table's columns: ``Key: Pts = points, Led = laps led`` (wrapped); every
    column says what it holds, the shared ones and a game's own alike."""
    bound = "\N{NO-BREAK SPACE}"          # a header, its "=" and the first word stay on one line
    parts = [bound.join((c.header.strip(), "=", c.legend)) for c in columns if c.legend and c.header.strip()]
    if not parts:
        return []
    return [Line(line.text.replace(bound, " ")) for line in wrapped("Key: " + ", ".join(parts))]


def shown_columns(rows: Sequence[Mapping[str, Any]], columns: Sequence[Col]) -> list[Col]:
    """``columns`` less a colour column that only repeats the names (cars called by
    their colours)."""
    return [c for c in columns
            if not (c.key == "colour" and all(str(r.get("colour")) == str(r.get("name")) for r in rows))]


def table(rows: Sequence[Mapping[str, Any]], columns: Sequence[Col] = (),
          name_header: str = NAME_HEADER) -> list[Item]:
    """A header row and one row per ``rows`` entry: position (``row["position"]``, else the
    row's place in the list), ``row["name"]`` and the ``columns``."""
    name_width = WIDTH - POS_WIDTH - sum(c.width for c in columns)
    if name_width < MIN_NAME:
        raise ValueError(f"columns take {WIDTH - name_width} of {WIDTH} characters; "
                         f"leave {MIN_NAME + POS_WIDTH} for position and name")
    widths = (POS_WIDTH, name_width, *(c.width for c in columns))

    def cells(first: str, name: str, extras: Iterable[str]) -> tuple[str, ...]:
        fitted = (text[:c.width - 1].rjust(c.width) for text, c in zip(extras, columns))
        return (first, car_name(name, name_width - 1), *fitted)

    right = bool(columns)       # the name column, when last, stays at the left
    out: list[Item] = [Columns(cells(POSITION_HEADER, name_header, (c.header for c in columns)), widths,
                               bold=True, right_last=right)]
    for i, row in enumerate(rows, start=1):
        pos = f"{row.get('position', i):>2} "
        out.append(Columns(cells(pos, str(row["name"]), (_cell(row, c) for c in columns)),
                           widths, right_last=right))
    return out


def _cell(row: Mapping[str, Any], column: Col) -> str:
    """``row``'s value in ``column``; blank for a colour that only repeats the car's name
    (a car called by its colour, beside cars with names)."""
    if column.key == "colour" and str(row.get("colour")) == str(row.get("name")):
        return ""
    return column.fmt(row.get(column.key))


def wrapped(text: str) -> list[Line]:
    """``text`` as lines of at most 32 characters, broken between words."""
    if text and len(text) <= WIDTH and text.isprintable() and not text.endswith(" "):
        return [Line(text)]     # a line that fits, as textwrap gives it back (most lines; a tenth of the time)
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
    columns = shown_columns(grid, columns)
    return Receipt("program", title, (*_head(lines), *table(grid, columns), *legend(columns), Rule(), Feed(2)))


def with_address(program: Receipt, url: str) -> Receipt:
    """``program`` with the table screen's address at its foot, as a QR code a phone at the
    table scans and as text: right under the program's last rule, before its end feed."""
    return at_foot(program, (Line("The race live on a phone:", align="center"), QRCode(url)))


def at_foot(receipt: Receipt, added: Sequence[Item]) -> Receipt:
    """``receipt`` with ``added`` right under its last rule, before its end feed."""
    items = list(receipt.items)
    end = len(items)
    while end and isinstance(items[end - 1], Feed):
        end -= 1
    if not (end and isinstance(items[end - 1], Rule)):
        items.insert(end, Rule())
        end += 1
    return Receipt(receipt.kind, receipt.title, (*items[:end], *added, *items[end:]))


def with_thinking(results: Receipt, rows: Sequence[Mapping[str, Any]]) -> Receipt:
    """A results receipt with each driver's thinking time at its foot (a race run with the
    turn timer): their total and their longest turn."""
    from companion.core.turnclock import duration
    if not rows:
        return results
    table = [Columns(("Thinking", "total", "longest"), (16, 8, 8), bold=True),
             *(Columns((str(r.get("name", "?"))[:15], duration(r.get("total_s", 0)), duration(r.get("longest_s", 0))),
                       (16, 8, 8)) for r in rows)]
    return at_foot(results, (*table, Rule()))


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
            columns: Sequence[Col] = RESULT_COLUMNS, notes: Sequence[str] = (),
            more: Sequence[Item] = ()) -> Receipt:
    """Race results: ``title``, ``lines``, the classification and what earned points.

    ``rows`` are standings dicts (``companion.core.scoring.standings``), winner first: each
    with ``position`` and ``name``, the keys of ``columns``, and optionally ``bonus``
    ({bonus name: points}), ``fastest_lap`` and ``best_lap`` (seconds). Under the table come
    the bonuses earned, the fastest lap, then ``notes`` (free text, wrapped), then
    ``more`` (a lap chart: :func:`lap_chart_items`).
    """
    columns = shown_columns(rows, columns)
    items: list[Item] = [*_head(lines), *table(rows, columns), *legend(columns), Rule()]
    items.extend(bonus_lines(rows))
    for row in rows:
        if row.get("fastest_lap") and row.get("best_lap") is not None:
            items.extend(wrapped(f"Fastest lap: {row['name']} {format_seconds(row['best_lap'])}"))
    items.extend(_text(notes))
    if more:
        if not isinstance(items[-1], Rule):
            items.append(Rule())
        items.extend((*more, Rule()))
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


def race_columns(rows: Sequence[Mapping[str, Any]], room: int) -> tuple[list[Col], list[Col]] | None:
    """One column per race with the place scored there (``row["results"]``, None: did
    not start), headed by the race's number and as narrow as the numbers allow, and the
    key to them (``1-7 = place in each race``); None when they take more than ``room``
    characters."""
    count = max((len(r["results"]) for r in rows), default=0)
    if not count:
        return [], []
    deepest = max((p for r in rows for p in r["results"] if p), default=1)
    cell = max(len(str(count)), len(str(deepest))) + 1
    if count * cell > room:
        return None
    cols = [Col(f"r{k}", str(k), cell) for k in range(1, count + 1)]
    keys = [Col("", "1" if count == 1 else f"1-{count}", 0,
                legend="place in race 1" if count == 1 else "place in each race")]
    if any(p is None for r in rows for p in r["results"]):
        keys.append(Col("", "-", 0, legend="did not start"))
    return cols, keys


def championship_table(rows: Sequence[Mapping[str, Any]], points: Col = POINTS,
                       name_header: str = NAME_HEADER) -> list[Item]:
    """The championship table and its key: ``rows`` from
    ``companion.core.scoring.championship`` (``results``: the place in each race), a
    column per race with the place scored there while they fit the paper (a season of
    up to 8 races), else the races won; then ``points``."""
    room = WIDTH - POS_WIDTH - MIN_NAME - points.width
    fitted = race_columns(rows, room)
    if fitted is not None:
        cols, keys = fitted
        shown = [{**r, **{f"r{k}": p for k, p in enumerate(r["results"], start=1)}} for r in rows]
    else:
        cols = keys = [Col("wins", "Won", 4, legend="races won")]
        shown = list(rows)
    return [*table(shown, [*cols, points], name_header=name_header), *legend([*keys, points])]


def championship(title: str, rows: Sequence[Mapping[str, Any]], lines: Sequence[str] = (),
                 name_header: str = NAME_HEADER) -> Receipt:
    """Championship standings: ``rows`` from ``companion.core.scoring.championship``
    (:func:`championship_table`), their names under ``name_header`` (``Player`` where the
    rows are players). A line under ``title`` says how many races count, then come
    ``lines``. Where players drive several cars each (the rows' ``player``), the players'
    totals follow (:func:`players_table`).
    """
    count = max((len(r["results"]) for r in rows), default=0)
    head = [f"After {counted(count, 'race')}", *lines]
    totals = player_totals(rows)
    players = [Rule(), *players_table(totals, (PLAYER_POINTS,))] if totals else []
    return Receipt("championship", title, (*_head(head), *championship_table(rows, name_header=name_header),
                                           *players, Rule(), Feed(2)))


PLAYER_HEADER = "Player"
PLAYER_POINTS = Col("points", "Pts", 5, legend="points of the player's cars")


def players_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[Col] = (POINTS,),
                  heading: str = "Players") -> list[Item]:
    """Where players drive several cars each: ``heading``, then the players' table in the
    results' layout (position, ``Player``, the ``columns``) and its key. ``rows``: dicts
    with ``name`` (the player), ``position`` (ties share one) and the columns' keys,
    best first."""
    return [Line(heading, bold=True), *table(rows, columns, name_header=PLAYER_HEADER), *legend(columns)]


CHART_NAME = 8          # "Yellow  ": a car's name (7 characters) and a space
CHART_CELL = 3          # " 12": a position; laps from 100 on take 4


def lap_positions(cars: Sequence[str], orders: Sequence[Sequence[str]]) -> list[tuple[str, list[int | None]]]:
    """Each car's position at the end of every lap, from ``orders`` (for each lap, lap 1
    first, the cars in the order they completed it): (name, [position or None where it
    did not complete that lap]), the cars in their order at the end (most laps first,
    then the better last position; a car that never completed a lap keeps its place in
    ``cars``)."""
    out = {name: [None] * len(orders) for name in cars}
    for lap, order in enumerate(orders):
        for position, name in enumerate(order, start=1):
            out.setdefault(str(name), [None] * len(orders))[lap] = position
    grid = {name: i for i, name in enumerate(out)}

    def finish(item):
        name, positions = item
        done = [i for i, p in enumerate(positions) if p is not None]
        return (-(done[-1] + 1), positions[done[-1]], grid[name]) if done else (1, 0, grid[name])

    return sorted(out.items(), key=finish)


def lap_chart_items(cars: Sequence[str], orders: Sequence[Sequence[str]],
                    laps: Sequence[Mapping[str, Any]] = ()) -> list[Item]:
    """The lap chart as receipt lines: one row per car with its position at the end of
    every lap (``-``: it did not complete that lap), the laps wrapped into blocks as wide
    as the paper (8 laps a block; 6 from lap 100 on), for any number of laps and up to
    12 cars (more work too: a row per car). Then, when ``laps`` is given, a table of each
    car's fastest lap and its gap at the end: dicts with ``name``, ``best_lap`` (seconds),
    ``best_lap_no`` and ``gap`` (text such as ``+3.4s`` or ``+1 lap``); the gaps alone
    when no lap was timed, and nothing when it would say nothing (no times, nobody behind)."""
    rows = lap_positions(cars, orders)
    items: list[Item] = [] if orders else [Line("No lap completed yet.")]
    first = 0
    while first < len(orders):
        short = first + (WIDTH - CHART_NAME) // CHART_CELL < 100   # the block's laps have 2 digits
        cell = CHART_CELL if short else CHART_CELL + 1
        block = range(first, min(len(orders), first + (WIDTH - CHART_NAME) // cell))
        widths = (CHART_NAME, *([cell] * len(block)))
        if items:
            items.append(Line(""))
        items.append(Columns(("Lap", *(str(k + 1).rjust(cell) for k in block)), widths, bold=True,
                             right_last=False))
        for name, positions in rows:
            cells = (_plain(positions[k]).rjust(cell) for k in block)
            items.append(Columns((car_name(name, CHART_NAME - 1), *cells), widths, right_last=False))
        first = block.stop
    if any(r.get("best_lap") is not None or r.get("gap") not in (None, "same lap", "leader") for r in laps):
        timed = any(r.get("best_lap") is not None for r in laps)
        items.append(Rule())
        items.append(Line("Fastest laps and gaps" if timed else "Gaps", bold=True))
        gap = Col("gap", "Gap", 9, legend="behind the winner")
        cols = (BEST, Col("best_lap_no", "Lap", 4, legend="the lap it was"), gap) if timed else (gap,)
        items.extend((*table(laps, cols), *legend(cols)))
    return items


def lap_chart(title: str, cars: Sequence[str], orders: Sequence[Sequence[str]],
              lines: Sequence[str] = (), laps: Sequence[Mapping[str, Any]] = ()) -> Receipt:
    """A lap chart any lap-based game can print: ``cars`` (their names), ``orders`` (for
    each lap, lap 1 first, the names in the order they completed it, which is their
    position at the end of that lap), ``lines`` under the title, and optionally the
    fastest laps and gaps (see :func:`lap_chart_items`). Fits 32 columns whatever the
    number of laps."""
    return Receipt("lap-chart", title, (*_head(lines), *lap_chart_items(cars, orders, laps), Rule(), Feed(2)))


def race_lap_chart(race, title: str = "Lap chart", lines: Sequence[str] = ()) -> Receipt:
    """:func:`lap_chart` of a ``companion.core.race.RaceState``."""
    return lap_chart(title, [c.name for c in race.cars], racing.lap_orders(race), lines, lap_facts(race))


def lap_facts(race) -> list[dict[str, Any]]:
    """For a ``companion.core.race.RaceState``: each car's fastest lap (time and lap
    number) and its gap at the end to the leader (time when both crossed that lap with
    a time, else laps behind), in race order; [] when no lap was completed."""
    if not race.crossings:
        return []
    times = racing.lap_times(race)
    order = racing.race_order(race)
    leader = order[0].name
    crossed = {(x.car, x.lap): x.at for x in race.crossings}
    lead_laps = racing.laps_of(race, order[0])
    out = []
    for car in order:
        laps = racing.laps_of(race, car)
        timed = [(t, k) for k, t in enumerate(times[car.name], start=1) if t is not None]
        best, best_no = min(timed, key=lambda tk: (tk[0], tk[1])) if timed else (None, None)
        if car.name == leader:
            gap = "leader"
        elif laps < lead_laps:
            behind = lead_laps - laps
            gap = f"+{counted(behind, 'lap')}"
        else:
            mine, theirs = crossed.get((car.name, laps)), crossed.get((leader, laps))
            gap = "same lap" if mine is None or theirs is None else "+" + format_seconds(max(0.0, mine - theirs))
        out.append({"name": car.name, "best_lap": best, "best_lap_no": best_no, "gap": gap})
    return out


def lap_chart_picture(rows: Sequence[Mapping[str, Any]], chart: Mapping[str, Any],
                      text: Sequence[Item] | None = None, heading: str = "Lap chart") -> list[Item]:
    """The lap chart at the foot of a results receipt: ``heading``, then the chart as a
    picture (``companion.charts``, drawn when printed) whose text version is ``text``
    (default: :func:`lap_chart_items`), printed instead where the printer has no raster
    images (with the heading; nothing at all when ``text`` is empty). ``rows`` are the standings (winner first), ``chart`` what the race's results
    hold under ``lap_chart`` (``{"laps": [[name, ...], ...], "pits": ..., "out": ...}``).
    Nothing when no lap was completed."""
    from companion import charts
    from companion.receipts.model import picture

    spec = charts.lap_chart_spec({"standings": rows, "lap_chart": chart})
    if spec is None:
        return []
    if text is None:
        text = lap_chart_items([str(r["name"]) for r in rows], chart["laps"])
    out = []
    for k, (part, spec) in enumerate(charts.lap_chart_parts(spec)):   # a big field in two
        title = Line(f"{heading}, {part}" if part else heading, bold=True, align="center")
        shown = (title, *text) if text else ()
        out.append(picture(spec, shown if k == 0 else (), (title,)))  # the text version once
    return out
