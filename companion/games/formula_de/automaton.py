"""Automated drivers, for solo play or to fill a grid. The written policy:

1. After the roll, a driver brakes the number of spaces that costs it least, counting a
   brake WP as 1, a tire WP as 2 (3 for the careful driver), an elimination as 1000:
   so it brakes to stop in a corner it would overshoot whenever its brakes allow.
2. Before the roll, for each gear it may pick (up one at most; the gearing-down costs
   counted as above) it works out every true face of the die with that braking rule:
   the expected spaces moved and the expected cost. It never takes a gear with any
   chance of elimination when one without exists, and picks the gear with the most
   expected spaces less ``WEIGHT`` x the expected cost (Steady: 6, Racer: 2). The cost
   counts half the next move's too: from where this move ends, the cheapest gear it
   could pick next, every face of that die held by the brakes it will have left.
3. Once the weather is known (before the race, before the qualifying laps) it fits rain
   tires in rain, hard tires in the dry (``tires_for``). It stops in the pit at the end
   of a lap when its tires are down to half, fitting the same. It never slipstreams and steers round
   damage markers (the table puts it in a free lane); a car beside or ahead is taken as
   the companion sees it.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import lcm

from companion.games.formula_de import driving
from companion.games.formula_de import tables as T
from companion.games.formula_de.moving import can_pit, gear_choices, in_gear
from companion.games.formula_de.state import Car, State, driving_car
from companion.kit import cars as kitcars
from companion.kit.update import evolve

WEIGHT = {1: 6, 2: 2}
TIRE_COST = {1: 3, 2: 2}
OUT_COST = 1000
LOOKAHEAD = Fraction(1, 2)
"""How much the next move's expected cost weighs against this one's."""


def _cost(plan: driving.Plan, level: int) -> int:
    if plan.out:
        return OUT_COST
    return sum(n * (TIRE_COST[level] if z == T.TIRES else 1) for z, n, _ in plan.losses)


def best_brake(state: State, c: int, car: Car, gear: int, face: int, level: int,
               others: list[int] | None = None) -> tuple[int, driving.Plan]:
    """The braking (spaces) that costs the driver least after rolling ``face``
    (``others``: the other cars' distances, when the caller has them)."""
    if others is None:
        others = [o.dist for i, o in enumerate(state.cars) if i != c and o.racing and not o.pit_wait]

    def plan(b: int) -> driving.Plan:
        return driving.plan(state.settings.circuit, driving_car(car), driving.Report(gear, face, brake=b),
                            state.rain, laps=state.settings.laps, others=others, markers=state.markers)

    best = plan(0)
    best_b, best_cost = 0, _cost(best, level)
    if best_cost == 0:
        return 0, best
    for b in range(1, min(car.zone_wp(T.BRAKES), best.moved - 1) + 1):
        p = plan(b)
        cost = _cost(p, level)
        if cost < best_cost:
            best_b, best_cost, best = b, cost, p
    return best_b, best


@lru_cache(maxsize=16)
def _grouped(faces: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(face, how many times the die has it), in the die's order: 2nd gear's 2,3,3,4,4,4
    is (2, 1), (3, 2), (4, 3)."""
    counts: dict[int, int] = {}
    for f in faces:
        counts[f] = counts.get(f, 0) + 1
    return tuple(counts.items())


def _approach(state: State, car: Car, gear: int, p: driving.Plan, level: int = 2) -> tuple[int, int]:
    """What ending this move costs on the next one, looked at one move ahead: for each
    gear the car could pick next (gearing-down costs paid from what it has left then),
    every face of its die with the brakes it has left; the cheapest of those gears. A
    roll its brakes cannot hold inside a corner it owes 2 or more stops in costs an
    elimination (``OUT_COST``), one it owes 1 stop in the tire WP per space. As
    (numerator, denominator): the caller sums them exactly without a Fraction each."""
    if p.out or p.finish or p.pit:
        return 0, 1
    circuit = state.settings.circuit
    here = circuit.corner_at(p.final)
    if here and p.corner == here[0].number and p.stops < here[0].stops:
        corner, first, last = here
        owed = corner.stops - p.stops
    else:
        corner, first, last = circuit.next_corner(here[2] + 1 if here else p.final)
        owed = corner.stops
    room = last - p.final
    wp = dict(zip(T.ZONES, car.wp))
    for zone, n, _ in p.losses:
        wp[zone] -= n
    best: tuple[int, int] | None = None   # (total, n): total / n WP, compared without Fractions
    for g2 in T.GEARS:
        cost = T.gear_down_cost(gear, g2)
        if cost is None or any(wp[z] < n for z, n in cost.items()):
            continue
        brakes = wp[T.BRAKES] - cost.get(T.BRAKES, 0)
        faces = state.settings.faces[g2 - 1]
        n = len(faces)
        total = sum(cost.values()) * n   # in n-ths of a WP: one Fraction per gear, not per face
        for f, k in _grouped(tuple(faces)):
            past = f - room
            if past <= 0:
                continue
            held = min(brakes, past, f - 1)
            total += k * held
            over = past - held
            if over > 0:
                tire = over * TIRE_COST[level]
                out = owed >= 2 or over > wp[T.TIRES]
                total += k * (OUT_COST if out else tire)
        if best is None or total * best[1] < best[0] * n:
            best = (total, n)
    return best if best is not None else (OUT_COST, 1)


def choose_gear(state: State, c: int) -> tuple[int, str]:
    """The gear the automated car ``c`` picks, and why in a few words."""
    car = state.cars[c]
    level = car.level if car.level in WEIGHT else 2
    scored = []
    others = [o.dist for i, o in enumerate(state.cars) if i != c and o.racing and not o.pit_wait]
    for gear, cost in gear_choices(state, c):
        geared = in_gear(car, gear, cost)
        faces = state.settings.faces[gear - 1]
        moved = outs = wear = 0
        ahead, below = 0, 1   # the look-ahead costs summed: ahead / below
        for face, k in _grouped(tuple(faces)):   # a face the die has k times: worked out once
            _, p = best_brake(state, c, geared, gear, face, level, others)
            moved += k * p.moved
            outs += k if p.out else 0
            wear += k * _cost(p, level)
            total, n = _approach(state, geared, gear, p, level)
            common = lcm(below, n)
            ahead, below = ahead * (common // below) + k * total * (common // n), common
        n = len(faces)   # each face as likely: sums divided once
        spaces, out = Fraction(moved, n), Fraction(outs, n)
        risk = (wear + LOOKAHEAD * Fraction(ahead, below)) / n + sum(cost.values())
        scored.append((gear, spaces, risk, out))
    safe = [s for s in scored if s[3] == 0] or [min(scored, key=lambda s: s[3])]
    gear, spaces, risk, out = max(safe, key=lambda s: (s[1] - WEIGHT[level] * s[2], -s[0]))
    if out:
        why = f"safest: {round(100 * out)}% out"
    elif risk:
        why = f"~{float(spaces):.0f} sp, risk {float(risk):.1f}"
    else:
        why = f"~{float(spaces):.0f} sp, no wear"
    return gear, why


def tires_for(rain: bool) -> str:
    """The tires an automated car fits (at the start, in a pit stop): rain tires in rain."""
    return T.RAIN if rain else T.HARD


def fit_auto_tires(state: State, cars, rain: bool) -> tuple[Car, ...]:
    """The weather is known: every automated car fits the tires its policy picks (in a
    road race every car keeps its hard tires)."""
    if state.settings.road:
        return tuple(cars)
    fit = tires_for(rain)
    return tuple(evolve(c, tires=fit) if c.driver == kitcars.AUTO else c for c in cars)


def report(state: State, c: int) -> driving.Report:
    """What the automated car does after its roll (the state has the gear engaged)."""
    car = state.cars[c]
    level = car.level if car.level in WEIGHT else 2
    r = state.report
    brake, _ = best_brake(state, c, car, r.gear, r.roll, level)
    report = driving.Report(r.gear, r.roll, brake=brake)
    full = car.full[0]
    if can_pit(state, c, report) and car.zone_wp(T.TIRES) * 2 <= full:
        report = driving.Report(r.gear, r.roll, pit=tires_for(state.rain))
    return report
