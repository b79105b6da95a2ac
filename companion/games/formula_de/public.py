"""Formula Dé on the table screen: every car's six wear zones as gauges with the WP left,
its gear, the corner ahead and its stops; the gear advisor's odds for the car on turn.
Nothing of Formula Dé is hidden: every roll is on the table."""

from __future__ import annotations

from typing import Any

from companion.games.formula_de import advisor
from companion.games.formula_de import rules as R
from companion.games.formula_de import tables as T
from companion.games.formula_de.screens import WEATHER_WORDS, ZONE_WORDS
from companion.core.names import counted
from companion.kit.dashboard import bar, car, stat, waiting
from companion.kit.standings import ordinal

PHASES = {R.START: "before the start", R.GRID: "the grid", R.SHOW: "a turn's outcome",
          R.ROUND: "the round is over", R.OVER: "finished"}


def public(state: R.State) -> dict[str, Any]:
    s = state.settings
    lead = max((min(s.laps, state.lap(i)) for i, c in enumerate(state.cars) if not c.out), default=0)
    on = state.car_on
    laps = f"Lap {max(lead, 1)} of {s.laps}" if state.phase not in (R.START, R.GRID) else PHASES[state.phase]
    if state.qualifying:
        laps = "Qualifying"
    notes = [f"{s.circuit.label}: weather {WEATHER_WORDS[state.weather]}" + (", raining" if state.rain else "")]
    if on >= 0 and state.phase == R.GEAR and not state.qualifying:
        notes += odds(state, on)
    turn, waits = waiting(R.moves(state), state.cars[on].name if on >= 0 else "")
    return {"laps": laps, "lap": lead, "turn": turn, "waiting": waits, "notes": notes,
            "cars": [dashboard(state, i) for i in range(len(state.cars))]}


def dashboard(state: R.State, i: int) -> dict[str, Any]:
    c = state.cars[i]
    widgets = []
    for zone, wp, full in zip(T.ZONES, c.wp, c.full):
        widgets.append(stat(ZONE_WORDS[zone], "free (qualifying)") if wp >= R.FREE_WP[0]
                       else bar(ZONE_WORDS[zone], wp, full))
    widgets.append(stat("gear", ordinal(c.gear) if c.gear else "on the grid"))
    widgets.append(stat("tires", c.tires))
    if c.pits:
        widgets.append(stat("pit stops", c.pits))
    if c.out:
        note = f"out: {c.out}"
    elif c.place:
        note = f"finished {ordinal(c.place)}"
    else:
        note = where(state, i)
    return car(c.name, c.colour, widgets, note=note, out=bool(c.out))


def where(state: R.State, i: int) -> str:
    """The corner ahead and its stops, or the stops made in the corner the car stands in."""
    c = state.cars[i]
    corner, first, last = advisor.coming_corner(state, i)
    stops = counted(corner.stops, "stop")
    if first <= c.dist <= last and c.corner == corner.number:
        return f"in corner {corner.number}: stop {c.stops} of {corner.stops}"
    ahead = first - c.dist
    return f"corner {corner.number} ({stops}) in {counted(ahead, 'space')}"


def odds(state: R.State, i: int) -> list[str]:
    """The gear advisor's odds for the car on turn, one line a gear."""
    pct = advisor.percent
    out = []
    for o in advisor.odds(state, i):
        over = sum(p for _, p in o.over)
        out.append(f"{ordinal(o.gear)} gear: stops in corner {o.corner} {pct(o.stop)}%, overshoots {pct(over)}%, "
                   f"short {pct(o.short)}%, tires -{float(o.tire):.1f} WP, out {pct(o.out)}%")
    return out
