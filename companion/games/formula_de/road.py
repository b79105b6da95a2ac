"""Road races: the drivers' features, nitro, engine noise, the danger zone, the police
station and the checkpoint (the rulebook's road-race rules and skill reference).

The rules call in here where a road race differs from a circuit race: the move screen's
extra reports (nitro, a second roll, a skid, the car radio, a dropped marker), the
black dice a road move calls for, and what happens after it.
"""

from __future__ import annotations

from companion.games.formula_de import tables as T
from companion.games.formula_de.driving import Plan, Report
from companion.games.formula_de.state import Car, State, eliminate, lose
from companion.kit.errors import RuleError
from companion.kit.update import evolve, replace_at


def sweet(state: State, c: int, p: Plan) -> bool:
    """How Sweet!: a car overtaking her on a straight loses a space."""
    circuit = state.settings.circuit
    return any(o.skill == "how-sweet" and o.racing and i != c and p.start < o.dist < p.final
               and circuit.corner_at(o.dist) is None for i, o in enumerate(state.cars))


def moves(state: State, c: int, p: Plan, add) -> None:
    car = state.cars[c]
    r = state.report
    lap = state.lap(c)
    if car.nitro_lap != lap and not r.nitro:
        add("nitro", f"Nitro +{T.nitro_spaces(r.gear, car.skill)}")
    if car.skill == "ace-at-the-wheel" and car.ace_lap != lap:
        add("ace", "Roll again")
    if car.skill == "skidding-pro" and not r.skid and (p.corner or p.overshoots) and not p.out:
        add("skid", "Skid -1", value=-1)
        add("skid", "Skid +1", value=1)
    target = radio_target(state, c, p)
    if car.skill == "car-radio" and not car.radio_used and not r.radio and target >= 0:
        add("radio", "Car radio", value=target + 1)
    if car.skill == "pile-of-scrap" and car.scrap_lap != lap and not r.scrap and car.dist >= 0:
        add("scrap", "Drop a marker")


def radio_target(state: State, c: int, p: Plan) -> int:
    """The car beside or right ahead of car ``c`` at the end of its move (-1: none)."""
    return next((i for i, o in enumerate(state.cars) if i != c and o.racing and not o.pit_wait
                 and o.dist in (p.final, p.final + 1)), -1)


def frog(state: State) -> bool:
    return state.settings.road and any(c.skill == "weather-frog" for c in state.cars)


def aggressive_near(state: State, c: int, p: Plan) -> bool:
    """Aggressive: a car that collides with him rolls twice."""
    return state.settings.road and any(
        o.skill == "aggressive" and o.racing and i != c and o.dist in (p.final, p.final + 1)
        for i, o in enumerate(state.cars))


def restore(car: Car, amount: int, rnd: int, lap: int, cause: str, tires: bool = True) -> Car:
    """Up to ``amount`` WP back in the zones that lost most, never above the start."""
    first = 0 if tires else 1
    wp, log = list(car.wp), car.log
    for _ in range(amount):
        lost = max(range(first, len(T.ZONES)), key=lambda i: (car.full[i] - wp[i], -i))
        if car.full[lost] - wp[lost] <= 0:
            break
        wp[lost] += 1
        log += ((rnd, lap, T.ZONES[lost], -1, cause),)
    return evolve(car, wp=tuple(wp), log=log) if log != car.log else car


def events(state: State, c: int, cars: list, report: Report, p: Plan, rolls, mark):
    """Engine noise, the car radio, the police station and the checkpoint."""
    s = state.settings
    circuit = s.circuit
    rnd, lap = state.round, state.lap(c)
    checks: list[tuple[str, int, int, bool]] = []
    car = cars[c]
    if not car.out and "noise" in rolls:
        r = int(rolls["noise"])
        zone = T.noise_effect(r)
        checks.append(("noise", c, r, zone is not None))
        if zone:
            car = lose(car, zone, 1, "engine noise", rnd, lap)
            if zone != T.TIRES:
                mark(car.dist)
            if zone != T.TIRES and car.zone_wp(zone) <= 0:
                car = eliminate(car, zone, rnd, lap)
    cars[c] = car
    if report.radio and "radio" in rolls and not car.radio_used:
        target = report.radio - 1
        r = int(rolls["radio"])
        zone = T.radio_zone(r)
        checks.append(("radio", target, r, True))
        other = lose(cars[target], zone, 1, "car radio", rnd, state.lap(target))
        if zone in (T.BODY, T.ENGINE, T.HANDLING) and other.zone_wp(zone) <= 0:
            other = eliminate(other, zone, rnd, state.lap(target))
        cars[target] = other
        cars[c] = evolve(cars[c], radio_used=True)
    police, paid = state.police, state.police_paid
    car = cars[c]
    if circuit.police >= 0 and not car.out:
        for k in range(max(0, p.start) // circuit.length, p.final // circuit.length + 1):
            line = k * circuit.length + circuit.police
            if p.start < line <= p.final and not any(x[0] == k and x[1] == c for x in police):
                police += ((k, c, report.roll * T.POLICE_SPEED),)
        for k in sorted({x[0] for x in police}):
            if any(x[0] == k for x in paid):
                continue
            crossed = [x for x in police if x[0] == k and not cars[x[1]].out]
            if len(crossed) >= sum(1 for o in cars if not o.out):
                best = max(crossed, key=lambda x: x[2])        # a tie: the first to pass
                cars[best[1]] = restore(cars[best[1]], T.POLICE_REPAIR, rnd, lap, "police")
                paid += ((k, best[1]),)
    if "victim" in rolls:                  # Aggressive: the car he ran into rolls twice
        target, *twice = (int(x) for x in rolls["victim"])
        if target != radio_target(state, c, p):
            raise RuleError("the aggressive driver's victim does not match the cars beside him")
        other = cars[target]
        for r in twice:
            if other.out:
                break
            hit = T.collision_hit(r, state.rain)
            checks.append(("collision", target, r, hit))
            if hit:
                other = lose(other, T.BODY, 1, "collision", rnd, state.lap(target))
                mark(other.dist)
                if other.zone_wp(T.BODY) <= 0:
                    other = eliminate(other, "collision", rnd, state.lap(target))
        cars[target] = other
    if report.scrap and not cars[c].scrap_lap == lap:      # Pile of Scrap: a marker where it was
        cars[c] = evolve(cars[c], scrap_lap=lap)
        mark(p.start)
    car = cars[c]
    if s.laps > 1 and not car.out:
        for k in range(1, s.laps):
            line = k * circuit.length
            if p.start < line <= p.final:
                give = T.MECHANIC_REPAIR if car.skill == "experienced-mechanic" else T.CHECKPOINT_REPAIR
                tires = T.ZONES.index(T.TIRES)
                car = evolve(car, wp=replace_at(car.wp, tires, car.full[tires]))
                car = restore(car, give, rnd, k + 1, "checkpoint", tires=False)
    cars[c] = car
    return cars, police, paid, checks
