"""A race's results as the platform sees them: the classification, standings with the
results.json shape, team points, the summary and the history's words for an event."""

from __future__ import annotations

from typing import Any, Mapping

from companion.games.formula_de import tables as T
from companion.games.formula_de.state import State, race_order
from companion.core.names import counted
from companion.kit.standings import ordinal, standing


def classification(state: State) -> list[int]:
    """Finishers in order, then the cars still racing (leader first), then the eliminated
    (the last out first)."""
    running = [i for i in race_order(state) if i not in state.finish]
    out = sorted((i for i, c in enumerate(state.cars) if c.out),
                 key=lambda i: (-state.cars[i].out_round, -state.cars[i].dist))
    return list(state.finish) + running + out


def standings(state: State) -> list[dict[str, Any]]:
    s = state.settings
    rows = []
    length = s.circuit.length
    for k, i in enumerate(classification(state)):
        car = state.cars[i]
        pts = s.points[k] if not car.out and k < len(s.points) else 0
        status = "finished" if car.place else (f"out: {car.out}" if car.out else "running")
        extra = {"colour": car.colour, "laps": min(s.laps, max(0, car.dist) // length), "status": status,
                 "pit_stops": car.pits, "wp": dict(zip(T.ZONES, car.wp)), "tires": car.tires,
                 "driver": car.driver}
        if car.out:
            extra["out_lap"] = car.out_lap
            extra["cause"] = car.out
        if s.team:
            extra["team"] = car.team + 1
        rows.append(standing(k + 1, car.name, pts, **extra))
    return rows


def team_standings(state: State) -> list[dict[str, Any]]:
    totals: dict[int, int] = {}
    for row in standings(state):
        totals[row["team"]] = totals.get(row["team"], 0) + row["points"]
    ranked = sorted(totals.items(), key=lambda kv: -kv[1])
    return [standing(k + 1, f"Team {t}", p) for k, (t, p) in enumerate(ranked)]


def summary(state: State) -> dict[str, Any]:
    s = state.settings
    out = {
        "circuit": s.circuit.label, "laps": s.laps, "rounds": state.round,
        "weather": [T.WEATHER_LINES[line] for _, _, line in state.weather_log],
        "eliminations": [{"name": c.name, "cause": c.out, "lap": c.out_lap} for c in state.cars if c.out],
        "pit_stops": {c.name: c.pits for c in state.cars},
        "wp_left": {c.name: dict(zip(T.ZONES, c.wp)) for c in state.cars},
        "grid": [state.cars[i].name for i in state.grid],
        "lap_chart": lap_chart(state),
        "wear": wear_chart(state),
    }
    if s.team:
        out["teams"] = team_standings(state)
    return out


def lap_chart(state: State) -> dict[str, Any]:
    """The order after each round (finishers first), the pit stops and the eliminations,
    by car name and round: Formula De's laps are few and long, so its chart runs across
    the rounds (``companion.charts.lap_chart_spec``)."""
    names = [c.name for c in state.cars]
    pits, before = [], tuple(0 for _ in state.cars)
    for rnd, _, count in state.chart:
        pits += [[names[c], rnd] for c, (a, b) in enumerate(zip(before, count)) if b > a]
        before = count
    return {"laps": [[names[c] for c in order] for _, order, _ in state.chart],
            "at": [rnd for rnd, _, _ in state.chart], "across": "rounds", "pits": pits,
            "out": [[c.name, c.out_round] for c in state.cars if c.out]}


def wear_chart(state: State) -> dict[str, Any]:
    """Each car's wear points per zone at the start and every change, by lap (for
    ``companion.charts.wear_spec``)."""
    zones = list(T.ZONES)
    return {"zones": zones, "cars": [
        {"name": c.name, "start": list(c.full),
         "log": [[lap, zones.index(zone), n] for _, lap, zone, n, _ in c.log if zone in zones],
         "out": c.out_lap if c.out else None} for c in state.cars]}


def describe(event: Mapping[str, Any]) -> str:
    """The outcome for the history: the spaces a gear's roll gives (with the gear an
    automated car chose: ``Black drives: 5th gear, 15 spaces``), the black die's checks,
    the weather rolled at the start (the grid's and the starts' rolls, car by car, are
    the Decisions' to show). A human car's gear and a board correction say it all in
    their move."""
    kind = event.get("kind")
    rolls = event.get("rolls") or {}
    black = f"black die {_rolls_text(rolls)}" if rolls else ""
    if kind in ("gear", "auto"):
        spaces = counted(event.get("roll") if isinstance(event.get("roll"), int) else 0, "space")
        gear = f"{ordinal(event.get('gear'))} gear" if kind == "auto" and isinstance(event.get("gear"), int) else ""
        return ", ".join(filter(None, (gear, spaces, black)))
    if kind == "done":
        return black
    if kind == "start":
        return f"weather {event.get('weather')}" if event.get("weather") else ""
    if kind == "adjust" and event.get("what") == "ace":
        return f"rolled again: {event.get('value')}"
    return ""


def _rolls_text(rolls: Mapping[str, Any]) -> str:
    parts = []
    for key, v in rolls.items():
        if isinstance(v, list):
            parts += [str(x[1] if isinstance(x, list) else x) for x in v]
        else:
            parts.append(str(v))
    return " ".join(parts)
