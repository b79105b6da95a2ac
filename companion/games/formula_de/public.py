"""Formula Dé on the table screen: every car's six wear zones as gauges with the WP left,
its gear, its tires, the corner ahead and its stops; the gear advisor's odds for the car on
turn. In the tower: its gear, the WP it has left and its corner.
Nothing of Formula Dé is hidden: every roll is on the table."""

from __future__ import annotations

from typing import Any

from companion.games.formula_de import advisor
from companion.games.formula_de import rules as R
from companion.games.formula_de import tables as T
from companion.games.formula_de.screens import WEATHER_WORDS, ZONE_WORDS
from companion.core.names import counted
from companion.kit.dashboard import FINISHED, bar, car, stat, waiting
from companion.kit.standings import ordinal

PHASES = {R.START: "before the start", R.GRID: "the grid", R.SHOW: "a turn's outcome",
          R.ROUND: "the round is over", R.OVER: "finished"}


def public(state: R.State) -> dict[str, Any]:
    s = state.settings
    lead = chart(state)["lap"]
    on = state.car_on
    laps = f"Lap {max(lead, 1)} of {s.laps}" if state.phase not in (R.START, R.GRID) else PHASES[state.phase]
    if state.qualifying:
        laps = "Qualifying"
    elif state.phase == R.OVER:
        laps = PHASES[R.OVER]
    notes = [f"{s.circuit.label}: weather {WEATHER_WORDS[state.weather]}" + (", raining" if state.rain else "")]
    if on >= 0 and state.phase == R.GEAR and not state.qualifying:
        notes += odds(state, on)
    turn, waits = waiting(R.moves(state), state.cars[on].name if on >= 0 else "")
    if state.phase == R.SHOW and state.last is not None:   # the box waits for the board to match
        turn = state.cars[state.last.car].name
        waits = f"{turn}: move the car as shown, then Go on"
    return {"laps": laps, "lap": lead, "turn": turn, "waiting": waits, "notes": notes,
            "cars": [dashboard(state, i) for i in range(len(state.cars))]}


def chart(state: R.State) -> dict[str, Any]:
    """The lap chart's part of the view: the leader's lap (of the cars still in)."""
    laps = state.settings.laps
    return {"lap": max((min(laps, state.lap(i)) for i, c in enumerate(state.cars) if not c.out), default=0)}


def dashboard(state: R.State, i: int) -> dict[str, Any]:
    c = state.cars[i]
    free = c.wp[0] >= R.FREE_WP[0]          # a qualifying lap counts no WP
    widgets = []
    for zone, wp, full in zip(T.ZONES, c.wp, c.full):
        widgets.append(stat(ZONE_WORDS[zone], "free (qualifying)") if free else bar(ZONE_WORDS[zone], wp, full))
    gear = ordinal(c.gear) if c.gear else "on the grid"
    widgets.append(stat("gear", gear))
    widgets.append(stat("tire type", c.tires))
    if c.pits:
        widgets.append(stat("pit stops", c.pits))
    row = [f"{ordinal(c.gear)} gear" if c.gear else "grid", "WP free" if free else f"WP {sum(c.wp)}"]
    if c.out:
        note = f"out: {c.out}"
    elif c.place:
        note = f"finished {ordinal(c.place)}"
    else:
        note, cell = where(state, i)
        row.append(cell)
    return car(c.name, c.colour, widgets, note=note, out=bool(c.out), row=row, state=_state(state, c))


def _state(state: R.State, c: R.Car) -> str:
    """Where the car stands, for the tower: out, finished, in the pits, spun ("" racing)."""
    if c.out:
        return "out"
    if c.place or state.phase == R.OVER:
        return FINISHED
    if c.pit_wait:
        return "in the pits"
    if c.cap == 1 and c.gear:
        return "spun"
    if c.skip:
        return "slow start"
    return ""


def where(state: R.State, i: int) -> tuple[str, str]:
    """The corner ahead and its stops, or the stops made in the corner the car stands in:
    (the note's words, the tower's: ``C3 ahead``, ``in C3 1/2``)."""
    c = state.cars[i]
    corner, first, last = advisor.coming_corner(state, i)
    n = corner.number
    if first <= c.dist <= last and c.corner == n:
        return f"in corner {n}: stop {c.stops} of {corner.stops}", f"in C{n} {c.stops}/{corner.stops}"
    stops = counted(corner.stops, "stop")
    return f"corner {n} ({stops}) in {counted(first - c.dist, 'space')}", f"C{n} ahead"


def odds(state: R.State, i: int) -> list[str]:
    """The gear advisor's odds for the car on turn, one line a gear."""
    pct = advisor.percent
    out = []
    for o in advisor.odds(state, i):
        over = sum(p for _, p in o.over)
        out.append(f"{ordinal(o.gear)} gear: stops in corner {o.corner} {pct(o.stop)}%, overshoots {pct(over)}%, "
                   f"short {pct(o.short)}%, {tire_words(o.tire)}, out {pct(o.out)}%")
    return out


def tire_words(wp: float) -> str:
    """The tire WP a gear costs on average, never "-0.0": "tires -0.4 WP", "no tire wear"."""
    shown = round(float(wp), 1)
    return f"tires -{shown:.1f} WP" if shown > 0 else "no tire wear"
