"""Lap counter: count laps for 2-12 cars of any game, with race order, laps led,
lap times and the chosen game's points.

Flow: GO starts the race (and its clock). Then one move per car still racing,
"<Colour> crossed", the car most likely to cross next first; in a countdown race
"New round: -1" (Top Speed lowers its Laps Remaining at the start of every round);
"End race early" (asked to confirm) classifies the cars where they stand and its results
say it ended early; once every car has taken the chequered flag "Show results" (the GO
move) closes the race.

Events: {"kind": "start", "at": t?}, {"kind": "cross", "car": name, "lap": n, "at": t?},
{"kind": "tick"}, {"kind": "finish"}; ``at`` (wall-clock seconds) is present only with
lap times on; ``lap`` (the lap the crossing completes) is there for the history list.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from companion.core import gamedata

from companion.games import data as game_data
from companion.core import race as racing
from companion.core import scoring
from companion.kit.cars import entries as cars_of
from companion.games.api import Move, Option, make_move
from companion.kit.text import fit
from companion.profile import LABEL_CHARS

GAMES = (("none", "No points"), *game_data.game_choices())
"""Whose points table scores the race (slug, label); "none" scores nothing."""

OPTIONS = (
    Option("game", "Points", "choice", choices=GAMES, default="none"),
    Option("players", "Players", "players", default=4, low=racing.MIN_CARS, high=racing.MAX_CARS),
    Option("length", "Race laps", "number", default=10, low=1, high=200),
    Option("count", "Counter", "choice", choices=(("up", "Laps done"), ("down", "Countdown")), default="up"),
    Option("timing", "Lap times", "choice", choices=(("on", "On"), ("off", "Off")), default="on"),
)


@dataclass(frozen=True)
class LapCounter:
    """``table`` is the points table that scores the race (None: no points); read-only."""
    race: racing.RaceState
    game: str = "none"
    timing: bool = True
    started: bool = False
    closed: bool = False
    table: dict | None = None
    early: bool = False          # closed before every car took the flag ("End race early")


def _option(options: dict[str, Any], key: str) -> Any:
    return options.get(key, next(o.default for o in OPTIONS if o.key == key))


def setup(options: dict[str, Any], data: dict | None = None) -> LapCounter:
    """``data`` is the chosen game's data (with the owner's overrides): its first points
    table scores the race."""
    players = cars_of(options, low=racing.MIN_CARS, high=racing.MAX_CARS, game="the lap counter",
                      default=_option(options, "players"), what="cars")
    cars = [racing.Car(str(p["name"]), str(p["colour"])) for p in players]
    game = _option(options, "game")
    if game not in dict(GAMES):
        raise racing.RaceError(f"unknown game '{game}' for points; choose one of: {', '.join(dict(GAMES))}")
    race = racing.start(cars, _option(options, "length"), countdown=_option(options, "count") == "down")
    return LapCounter(race, game, _option(options, "timing") == "on", table=points_table(game, data))


def moves(state: LapCounter) -> list[Move]:
    if state.closed:
        return []
    if not state.started:
        return [make_move("start", "Start race", primary=True)]
    if racing.is_over(state.race):
        return [make_move("finish", "Show results", primary=True)]
    crossings = [make_move("cross", f"{fit(car.name, LABEL_CHARS - len(' crossed'))} crossed", player=car.name, car=car.name)
                 for car in racing.next_to_cross(state.race)]
    tick = [make_move("tick", "New round: -1", history="New round: one lap fewer to go")] if state.race.countdown else []
    return [*crossings, *tick, make_move("finish", "End race early", confirm="End this race now?")]


def resolve(state: LapCounter, move: Move, rng=None) -> dict[str, Any]:
    """The event for ``move``; with lap times on, it records the wall clock now."""
    event: dict[str, Any] = {"kind": move.kind}
    if move.kind == "cross":
        event["car"] = move.arg("car")
        event["lap"] = racing.laps_of(state.race, move.arg("car")) + 1
    if state.timing and move.kind in ("start", "cross"):
        event["at"] = round(time.time(), 2)
    return event


def apply(state: LapCounter, event: dict[str, Any]) -> LapCounter:
    kind = event.get("kind")
    if state.closed:
        raise racing.RaceError("the race is finished; nothing more can happen in it")
    if kind == "start" and not state.started:
        race = racing.start(state.race.cars, state.race.length, state.race.countdown, event.get("at"))
        return replace(state, race=race, started=True)
    if kind == "cross" and state.started:
        return replace(state, race=racing.cross(state.race, event.get("car", ""), event.get("at")))
    if kind == "tick" and state.started:
        return replace(state, race=racing.tick(state.race))
    if kind == "finish" and state.started:
        return replace(state, race=racing.end(state.race), closed=True, early=not racing.is_over(state.race))
    raise racing.RaceError(f"a '{kind}' event does not fit the lap counter now")


def finished(state: LapCounter) -> bool:
    return state.closed


def points_table(game: str, data: dict | None = None) -> dict | None:
    """The first points table of ``game`` (None for "none" or a game without one), taken
    from its loaded ``data``, or from its built-in data file when ``data`` is empty."""
    if game == "none":
        return None

    tables = gamedata.points_of(data) if data else game_data.points_tables(game)
    table = next(iter(tables.values()), None)
    if table is not None:
        scoring.check_table(table, f"{game} points")
    return table


def ranked(state: LapCounter, table: dict | None) -> list[dict[str, Any]]:
    """Race order scored with ``table``: see ``companion.core.scoring.standings``."""
    return scoring.standings(racing.entries(state.race), table)


def standings(state: LapCounter) -> list[dict[str, Any]]:
    return ranked(state, state.table)


def summary(state: LapCounter) -> dict[str, Any]:
    fast = racing.fastest_lap(state.race)
    return {"game": state.game, "laps": state.race.length, "countdown": state.race.countdown,
            "laps_led": racing.laps_led(state.race),
            "fastest_lap": None if fast is None else {"car": fast.car, "lap": fast.lap, "seconds": fast.seconds},
            "lap_chart": lap_chart(state), **({"ended_early": True} if state.early else {})}


def lap_chart(state: LapCounter) -> dict[str, Any]:
    """The cars in the order they completed each lap (``companion.charts.lap_chart_spec``)."""
    return {"laps": [list(order) for order in racing.lap_orders(state.race)]}


def describe(event: dict[str, Any]) -> str:
    """The outcome for the history list: the lap a crossing completed (``Red crossed: lap 3``)."""
    lap = event.get("lap") if event.get("kind") == "cross" else None
    return f"lap {lap}" if isinstance(lap, int) else ""
