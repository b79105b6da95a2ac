"""The gear advisor: for the car about to move, each legal gear's exact odds over the
true faces of its die (2nd gear is 2,3,3,4,4,4, not a uniform 2-4): the chance to stop
inside the coming corner, to overshoot it by n spaces, the expected tire WP lost and the
chance of elimination, if the car moves its full roll (no braking, no slipstream).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from companion.games.formula_de import driving
from companion.games.formula_de import tables as T
from companion.games.formula_de.moving import gear_choices, in_gear
from companion.games.formula_de.state import Car, State, driving_car


@dataclass(frozen=True)
class Odds:
    gear: int
    cost: tuple[tuple[str, int], ...]            # gearing-down WP
    corner: int                                  # the coming corner's number
    stop: Fraction                               # ends inside it (a stop that counts)
    short: Fraction                              # ends before it
    over: tuple[tuple[int, Fraction], ...]       # (spaces overshot, chance), fewest first
    tire: Fraction                               # expected tire WP lost
    out: Fraction                                # chance of elimination


def coming_corner(state: State, c: int):
    """(corner, first, last) the car must deal with next: the one it stands in while it
    owes stops there, else the next one ahead."""
    circuit = state.settings.circuit
    car = state.cars[c]
    here = circuit.corner_at(car.dist)
    if here and car.corner == here[0].number and car.stops < here[0].stops:
        return here
    if here:
        return circuit.next_corner(here[2] + 1)
    return circuit.next_corner(car.dist)


def odds(state: State, c: int) -> list[Odds]:
    """The odds of every gear car ``c`` may pick now."""
    car = state.cars[c]
    corner, first, last = coming_corner(state, c)
    out = []
    for gear, cost in gear_choices(state, c):
        moved = in_gear(car, gear, cost)
        faces = state.settings.faces[gear - 1]
        share = Fraction(1, len(faces))
        stop = short = tire = elim = Fraction(0)
        over: dict[int, Fraction] = {}
        for face in faces:
            p = outcome(state, c, moved, gear, face)
            if p.out:
                elim += share
            tire += share * sum(n for z, n, _ in p.losses if z == T.TIRES)
            spaces = dict(p.overshoots).get(corner.number)
            if spaces:
                over[spaces] = over.get(spaces, Fraction(0)) + share
            elif p.final < first:
                short += share
            elif p.final <= last and p.corner == corner.number:
                stop += share
        out.append(Odds(gear, tuple(cost.items()), corner.number, stop, short, tuple(sorted(over.items())),
                        tire, elim))
    return out


def outcome(state: State, c: int, car: Car, gear: int, face: int) -> driving.Plan:
    """The plan of ``car`` (car ``c`` after its gear change) rolling ``face`` in ``gear``."""
    others = [o.dist for i, o in enumerate(state.cars) if i != c and o.racing and not o.pit_wait]
    return driving.plan(state.settings.circuit, driving_car(car), driving.Report(gear, face), state.rain,
                        laps=state.settings.laps, others=others, markers=state.markers)


def percent(x: Fraction) -> int:
    return int(round(100 * x))
