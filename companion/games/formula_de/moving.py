"""What a car may do on its turn and where it goes: the gears it may pick and what they
cost, its move as reported (with the road races' How Sweet!), whether it may reach the pit.
Shared by the rules, the automated drivers, the advisor and the qualifying laps."""

from __future__ import annotations

from companion.games.formula_de import driving
from companion.games.formula_de import road
from companion.games.formula_de import tables as T
from companion.games.formula_de.driving import Plan, Report
from companion.games.formula_de.state import Car, State, as_driven, driving_car
from companion.kit.update import evolve


def gear_choices(state: State, c: int) -> list[tuple[int, dict[str, int]]]:
    """The gears car ``c`` may pick now, with the WP each costs."""
    car = as_driven(state, state.cars[c])
    if car.cap < 6:
        return [(g, {}) for g in range(1, car.cap + 1) if g <= max(car.gear + 1, car.cap)]
    out = []
    for g in T.GEARS:
        cost = T.gear_down_cost(car.gear, g)
        if cost is None:
            continue
        if any(car.zone_wp(z) < n for z, n in cost.items()):
            continue
        out.append((g, cost))
    return out


def in_gear(car: Car, gear: int, cost: dict[str, int]) -> Car:
    """``car`` in ``gear`` with its cost (from ``gear_choices``) paid: what a driver
    weighs before choosing, nothing logged."""
    wp = list(car.wp)
    for zone, n in cost.items():
        wp[T.ZONES.index(zone)] -= n
    return evolve(car, wp=tuple(wp), gear=gear)


def plan(state: State, c: int, report: Report) -> Plan:
    """The move of car ``c`` as ``report`` says."""
    car = as_driven(state, state.cars[c])
    if state.qualifying:         # alone on the track
        return driving.plan(state.settings.circuit, driving_car(car), report, state.rain, laps=1, qualifying=True)
    others = [o.dist for i, o in enumerate(state.cars) if i != c and o.racing and not o.pit_wait]
    p = driving.plan(state.settings.circuit, driving_car(car), report, state.rain,
                     laps=state.settings.laps, others=others, markers=state.markers)
    if state.settings.road and not report.held and road.sweet(state, c, p):
        p = driving.plan(state.settings.circuit, driving_car(car), evolve(report, held=1), state.rain,
                         laps=state.settings.laps, others=others, markers=state.markers)
    return p


def can_pit(state: State, c: int, report: Report) -> bool:
    """Whether car ``c``, having rolled as ``report`` says, may end its move in the pit."""
    if state.qualifying or state.settings.road:       # no pits in road races
        return False
    car = state.cars[c]
    s = state.settings
    reach = report.roll + driving.slide_for(s.circuit, driving_car(car), report.roll, state.rain) + report.soft
    return driving.pit_possible(s.circuit, driving_car(car), reach, s.laps, car.pits)
