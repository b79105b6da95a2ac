"""Lap counter screens: the race order on the OLED, program/results/lap chart on paper."""

from __future__ import annotations

from companion.core.names import counted
from companion.core import race as racing
from companion.kit.text import row
from companion.profile import MENU_CHARS
from companion.receipts import layouts
from companion.receipts.layouts import BEST, COLOUR, LAPS, LED, POINTS, Col
from companion.receipts.model import Line, Receipt
from companion.tools.lap_counter.rules import GAMES, LapCounter, lap_chart, standings
from companion.ui.view import Menu, Text, View

KEY = ("L3 = 3 laps done", "F = finished")
"""A car's laps in the list (``L3 F``): pause menu > Key."""


def _length_text(race: racing.RaceState) -> str:
    return counted(race.length, "lap") + (", countdown" if race.countdown else "")


def view(state: LapCounter) -> View:
    race = state.race
    if not state.started:
        points = f"{dict(GAMES)[state.game]} points" if state.table is not None else "No points"
        length = f"countdown {race.length}" if race.countdown else _length_text(race)
        return View("Lap counter", (Text(f"{counted(len(race.cars), 'player')}, {length}"), Text(points),
                                    Text(f"Lap times {'on' if state.timing else 'off'}"),
                                    Text("GO starts the race")), status=f"{race.length}L")
    if state.closed:
        return _results_view(state)
    if racing.is_over(race):
        title, status = "All finished", "FLAG"
    elif racing.flag_out(race):
        title, status = "Chequered flag", "FLAG"
    else:
        title = f"{racing.leader(race).name} leads" if race.crossings else "Race started"
        status = f"{racing.laps_to_go(race)} to go"
    return View(title, (_order(race),), status=status)


def _order(race: racing.RaceState):
    """The race order, every car: "2 Blue  L4 F". The car that crossed last (with the time
    of the lap it just completed) is kept in view, on the list's second line; nothing is
    highlighted (the footer says which car crosses). A scroll bar shows when more cars are
    off screen. Before the first crossing: the grid from pole."""
    order = racing.race_order(race)
    last = race.crossings[-1] if race.crossings else None
    lines, shown = [], 0
    for pos, car in enumerate(order, start=1):
        right = f"L{racing.laps_of(race, car)}" + (" F" if racing.is_finished(race, car) else "")
        if last is not None and car.name == last.car:
            shown = pos - 1
            seconds = racing.lap_times(race)[last.car][last.lap - 1]
            right += f" {layouts.format_seconds(seconds)}" if seconds is not None else ""
        lines.append(_line(pos, car.name, right))
    return Menu(tuple(lines), -1, top=max(0, shown - 1) or None)


def _line(pos: int, name: str, right: str) -> str:
    """One race-order line (a menu line of the display profile): position and name at the
    left, ``right`` at the right."""
    return row(f"{pos} {name}", right, MENU_CHARS)


def _results_view(state: LapCounter) -> View:
    rows = standings(state)
    scored = state.table is not None
    lines = tuple(_line(r["position"], r["name"], f"{r['points']} pts" if scored else f"L{r['laps']}")
                  for r in rows)
    return View("Results", (Menu(lines, -1),), status="END")


def _game_line(state: LapCounter) -> list[str]:
    """The receipts' first line: a lap-counter race, scored with a game's points table
    (never read as that game's own race)."""
    return [] if state.game == "none" else [f"Lap counter, {dict(GAMES)[state.game]} points"]


def result_columns(timed: bool, scored: bool) -> tuple[Col, ...]:
    return (LAPS, LED, *([BEST] if timed else []), *([POINTS] if scored else []))


def receipts(state: LapCounter) -> dict[str, Receipt]:
    race = state.race
    head = [*_game_line(state), f"{_length_text(race)}, {counted(len(race.cars), 'car')}"]
    grid = [{"name": c.name, "colour": c.colour} for c in race.cars]
    named = any(c.name != c.colour for c in race.cars)
    out = {"program": layouts.race_program("Race program", head, grid, (COLOUR,) if named else ())}
    chart = layouts.race_lap_chart(race, "Lap chart", head) if race.crossings else None
    if state.started:
        timed = any(x.at is not None for x in race.crossings)
        out["results"] = layouts.results("Results", standings(state), head,
                                         result_columns(timed, state.table is not None),
                                         more=_chart_body(state, chart))
    if chart is not None:
        out["lap-chart"] = chart
    return out


def _chart_body(state: LapCounter, chart: Receipt | None) -> tuple:
    """The lap chart for the foot of the results: drawn (its text version where the
    printer has no raster images), then the fastest laps and gaps of the lap chart's
    receipt."""
    if chart is None:
        return ()
    items = list(chart.items)[:-2]
    rules = [i for i, item in enumerate(items) if type(item).__name__ == "Rule"]
    start = rules[0] + 1
    stop = rules[1] if len(rules) > 1 else len(items)   # the fastest laps and gaps follow a rule
    return (*layouts.lap_chart_picture(standings(state), lap_chart(state), items[start:stop]), *items[stop:])
