"""Lap counter screens: the race order on the OLED, program/results/lap chart on paper."""

from __future__ import annotations

from companion.core import race as racing
from companion.receipts import layouts
from companion.receipts.layouts import BEST, COLOUR, LAPS, LED, POINTS, Col
from companion.receipts.model import Receipt
from companion.tools.lap_counter.rules import GAMES, LapCounter, standings
from companion.ui.view import Row, Text, View

ORDER_ROWS = 4          # race-order rows under the last crossing (5 rows fit the body)


def _length_text(race: racing.RaceState) -> str:
    laps = f"{race.length} lap" + ("s" if race.length != 1 else "")
    return laps + (", countdown" if race.countdown else "")


def view(state: LapCounter) -> View:
    race = state.race
    if not state.started:
        return View("Lap counter", (Text(f"{len(race.cars)} cars"), Text(_length_text(race)),
                                    Text("GO starts the race")), status=f"{race.length}L")
    if state.closed:
        return _results_view(state)
    body: list = []
    if race.crossings:
        body.append(_last_crossing(race))
    for pos, car in enumerate(racing.race_order(race)[:ORDER_ROWS], start=1):
        flag = " F" if racing.is_finished(race, car) else ""
        body.append(Row(f"{pos} {car.name}", f"L{racing.laps_of(race, car)}{flag}"))
    if racing.is_over(race):
        title, status = "All finished", "FLAG"
    elif racing.flag_out(race):
        title, status = "Chequered flag", "FLAG"
    else:
        title, status = f"{racing.leader(race).name} leads", f"{racing.laps_to_go(race)} to go"
    return View(title, tuple(body), status=status)


def _last_crossing(race: racing.RaceState) -> Row:
    """The latest crossing, inverted: car and lap, and its lap time (or "led" / "FLAG")."""
    x = race.crossings[-1]
    seconds = racing.lap_times(race)[x.car][x.lap - 1]
    right = ("FLAG" if x.car in race.flagged else
             layouts.format_seconds(seconds) if seconds is not None else "led" if x.led else "")
    return Row(f"{x.car} L{x.lap}", right, invert=True)


def _results_view(state: LapCounter) -> View:
    rows = standings(state)
    scored = state.table is not None
    body = tuple(Row(f"{r['position']} {r['name']}", f"{r['points']} pts" if scored else f"L{r['laps']}")
                 for r in rows)
    return View("Results", body, status="END")


def _game_line(state: LapCounter) -> list[str]:
    return [] if state.game == "none" else [dict(GAMES)[state.game]]


def result_columns(timed: bool, scored: bool) -> tuple[Col, ...]:
    return (LAPS, LED, *([BEST] if timed else []), *([POINTS] if scored else []))


def receipts(state: LapCounter) -> dict[str, Receipt]:
    race = state.race
    head = [*_game_line(state), f"{_length_text(race)}, {len(race.cars)} cars"]
    grid = [{"name": c.name, "colour": c.colour} for c in race.cars]
    named = any(c.name != c.colour for c in race.cars)
    out = {"program": layouts.race_program("Race program", head, grid, (COLOUR,) if named else ())}
    if state.started:
        timed = any(x.at is not None for x in race.crossings)
        out["results"] = layouts.results("Results", standings(state), head,
                                         result_columns(timed, state.table is not None))
    if race.crossings:
        out["lap-chart"] = layouts.lap_chart(race, "Lap chart", head)
    return out
