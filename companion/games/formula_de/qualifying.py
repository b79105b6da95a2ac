"""Stopwatch qualifying with the companion as referee (the optional rules): each car
drives a lap alone from the line; wear points do not count; every throw counts, plus one
per space overshot and one per full minute; no stop in a 2- or 3-stop corner sends the
car to the back; ties go to the faster time. Tires are fitted once the qualifying
weather is known (the grid screen, before the first car drives) and again once the
race's weather is (rules.tire_moves).
"""

from __future__ import annotations

from companion.games.formula_de import tables as T
from companion.games.formula_de.automaton import fit_auto_tires
from companion.games.formula_de.driving import Report
from companion.games.formula_de.moving import plan
from companion.games.formula_de.state import GEAR, GRID, QDONE, State, Turn, set_car
from companion.kit.update import evolve, replace_at


def start(state: State, event) -> State:
    """Before the qualifying laps: their weather (good and changeable: no effect; rain:
    every lap in rain); tires are fitted, then the first car drives alone from the line."""
    s = state.settings
    if s.weather == "roll":
        w = int(event["weather"])
        line = T.RAINY if s.circuit.weather_result(w) == "rain" else T.GOOD
    else:
        w, line = 0, T.RAINY if s.weather == "rain" else T.GOOD
    cars = fit_auto_tires(state, (evolve(c, dist=0, gear=0, corner=0, stops=0) for c in state.cars),
                            T.raining(line))
    return evolve(state, cars=cars, qualifying=True, qweather=line, weather_roll=w, qual=((),) * len(cars),
                  phase=GRID, order=(0,), turn=0, qthrows=0, qclock=0.0)


def order(state: State) -> tuple[int, ...]:
    """The grid from the qualifying laps: fewest throws first, ties by the faster time;
    a car that did not stop in a 2- or 3-stop corner starts from the back."""
    def key(i: int):
        throws, seconds, back = state.qual[i]
        return (back, throws, seconds, i)
    return tuple(sorted(range(len(state.cars)), key=key))


def move(state: State, c: int, report: Report, clock: float) -> State:
    """A throw of the qualifying lap: each space overshot is one more throw; no stop in a
    2- or 3-stop corner ends the lap (to the back of the grid); crossing the line stops
    the stopwatch (a throw more per full minute)."""
    p = plan(state, c, report)
    car = state.cars[c]
    throws = state.qthrows + sum(n for _, n in p.overshoots)
    seconds = max(0.0, clock - state.qclock)
    last = Turn(c, report.gear, report.roll, p.start, p.final, p.slide, corner=p.corner, stops=p.stops,
                overshoots=p.overshoots, out=((c, p.out),) if p.out else ())
    state = evolve(state, qthrows=throws, last=last, report=None)
    if p.out or p.final >= state.settings.circuit.length:
        result = (throws + int(seconds // 60), round(seconds, 1), bool(p.out))
        state = evolve(state, qual=replace_at(state.qual, c, result))
        state = set_car(state, c, evolve(car, dist=0, gear=0, corner=0, stops=0))
        if c + 1 < len(state.cars):
            return evolve(state, order=(c + 1,), turn=0, phase=GEAR, qthrows=0, qclock=0.0)
        return evolve(state, phase=QDONE, qualifying=False, qualified=True, order=())
    car = evolve(car, dist=p.final, corner=p.corner, stops=p.stops)
    return evolve(set_car(state, c, car), phase=GEAR)
