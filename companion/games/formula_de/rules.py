"""Formula Dé: every car's dashboard, every die rolled and every table applied.

The board, the cars and the corners stay physical; the companion keeps each car's six
wear-point zones, its gear, and its *distance* along the circuit (see circuit.py), so it
knows which corner a car is in and how many stops it still owes.

A race goes:

- ``start``: the weather is rolled on the circuit's chart (or set in the options), the
  grid by the black die (highest on pole, ties re-rolled), then every car's start roll
  (1: misses the first turn; 20: 4 spaces at once and may take 2nd gear next round).
- ``grid``: the weather known, the tires are fitted (``tires``, one press a change for a
  human car; an automated car fits its own), then ``ok``.
- each round, in race order (leader first; level cars: the higher gear, then the one
  that was ahead before, as the companion cannot see lanes): the player picks a gear
  (``gear``, up one at most, down with the gearing-down costs; skipping 4 is refused) and
  the companion rolls its die at once. The move is shown; the player reports in as few
  presses as needed what the companion cannot see (``adjust``: braked, blocked,
  slipstream, soft-tire space, no car near, a damage marker run over, a pit stop) and
  confirms (``done``); where the board disagrees with the companion's count it corrects
  the move (``correct``: ``Board: 8 sp``, ``Ends in C2``, ``Stops in C3``, the roll kept).
  On ``done`` the companion works out corners, overshoots and WP, rolls the
  black-die checks (collision, handling, motor damage, weather, pit stop) and applies
  them. An automated car's turn is one press (``auto``).
- the round summary, then the next round; the race ends when every car has finished
  or is out.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Mapping

from companion.core.names import counted
from companion.games.api import CarOption, Move, Option, make_move
from companion.games.formula_de import automaton, qualifying, road
from companion.games.formula_de import circuit as board
from companion.games.formula_de import driving
from companion.games.formula_de import tables as T
from companion.games.formula_de.driving import Plan, Report
from companion.games.formula_de.moving import can_pit, gear_choices, plan
from companion.games.formula_de.results import classification, describe, standings, summary, team_standings
from companion.games.formula_de.settings import build
from companion.games.formula_de.state import (  # noqa: F401 (the screens and the tests find them here too)
    FREE_WP, GEAR, GRID, OVER, QDONE, REPORT, ROUND, SHOW, START, Car, State, Turn, eliminate, lose, race_order,
    set_car)
from companion.kit import cars as kitcars
from companion.kit.errors import RuleError
from companion.kit.events import dispatch
from companion.kit.text import label
from companion.kit.update import evolve, replace_at

OPTIONS = (
    Option("players", "Players", kind="players", low=2, high=10, default=4),
    Option("laps", "Laps", choices=((2, "2 laps"), (3, "3 laps")), default=2),
    Option("weather", "Weather", choices=(("roll", "Roll the chart"), ("good", "Good"),
                                          ("changeable", "Changeable"), ("rain", "Rain")), default="roll"),
    Option("team", "Team race", choices=((False, "Off"), (True, "On")), default=False),
    Option("grid", "Grid", choices=(("dice", "Black die"), ("stopwatch", "Stopwatch lap")), default="dice"),
    Option("race", "Race", choices=(("circuit", "Circuit race"), ("road", "Road race")), default="circuit"),
    Option("circuit", "Circuit", source=board.choices, describe=board.DESCRIBE),
)

LEVELS = ((1, "Steady"), (2, "Racer"))
CAR_OPTIONS = (
    CarOption("driver", "Driver", choices=((kitcars.HUMAN, "Human"), (kitcars.AUTO, "Automated"))),
    CarOption("level", "Level", choices=LEVELS, default=2, only_if=("driver", kitcars.AUTO)),
    CarOption("build", "Car", choices=(("standard", "Standard car"), ("constructed", "Constructed")),
              race_if=("race", "circuit")),
    CarOption("wear", "Wear points", kind="split", total=T.CONSTRUCTED_TOTAL,
              parts=tuple((z, z.capitalize(), lo, hi) for z, (lo, hi) in T.LIMITS.items()),
              default={T.TIRES: 6, T.BRAKES: 3, T.GEARBOX: 3, T.BODY: 3, T.ENGINE: 3, T.HANDLING: 2},
              only_if=("build", "constructed"), race_if=("race", "circuit")),
)
"""Tires are not asked here: they are fitted once the weather is known (``tire_moves``).
A road race asks no build either: every car has its driver's card and hard tires."""

NAME_CHARS = 8
R_NAME = 6          # a car's name in a tire-change label ("Yellow to rain")


# -- setup ------------------------------------------------------------------------------

def setup(options: Mapping[str, Any], data: Mapping[str, Any]) -> State:
    settings = build(options, data)
    per_car = options.get("cars") if isinstance(options.get("cars"), list) else []
    defaults = {o.key: o.initial() for o in CAR_OPTIONS}
    entries = kitcars.entries(options, low=2, high=10, game="Formula Dé", default=4)
    board.check_grid(settings.circuit, len(entries))
    cars = []
    for i, e in enumerate(entries):
        extra = per_car[i] if i < len(per_car) and isinstance(per_car[i], Mapping) else {}
        e = {**defaults, **e, **extra}
        driver = kitcars.AUTO if e.get("driver") == kitcars.AUTO else kitcars.HUMAN
        level = e.get("level") if e.get("level") in (1, 2) else 2
        tires = e.get("tires") if e.get("tires") in T.TIRE_TYPES else T.HARD   # fitted after the weather
        wp = settings.standard
        if e.get("build") == "constructed":
            wp = _constructed(e.get("wear"), e["name"])
        team = i // 2 if settings.team else -1
        skill = card = ""
        if settings.road:
            card, wp, skill = settings.drivers[i % len(settings.drivers)]
            tires = T.HARD                       # every car drives on hard tires
        cars.append(Car(e["name"], e["colour"], driver, level, tires, wp, wp, team=team, dist=-i, skill=skill,
                        card=card))
    if settings.team and len(cars) % 2:
        raise RuleError("the team race needs an even number of cars (teams of two)")
    teams = (T.TEAM_REPAIR,) * (len(cars) // 2) if settings.team else ()
    markers = settings.circuit.danger if settings.road else ()
    return State(settings, tuple(cars), order=tuple(range(len(cars))), team_repair=teams, markers=markers)


def _constructed(wear: Any, name: str) -> tuple[int, ...]:
    if not isinstance(wear, Mapping):
        raise RuleError(f"{name}: a constructed car needs its wear points per zone")
    out = []
    for zone in T.ZONES:
        v = wear.get(zone)
        low, high = T.LIMITS[zone]
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise RuleError(f"{name}: {zone} must be {low} to {high} WP, not {v!r}")
        out.append(v)
    if sum(out) != T.CONSTRUCTED_TOTAL:
        raise RuleError(f"{name}: a constructed car has {T.CONSTRUCTED_TOTAL} WP, not {sum(out)}")
    return tuple(out)


# -- what may be done now ------------------------------------------------------------------

def preview(state: State, report: Report | None = None) -> Plan:
    """The move of the car on turn as reported so far."""
    c = state.car_on
    return plan(state, c, report or state.report)


def moves(state: State) -> list[Move]:
    phase = state.phase
    if phase == START:
        first = state.settings.grid == "stopwatch" and not state.qualified
        return [make_move("start", "Qualify" if first else "Start", primary=True,
                          history="Qualifying" if first else "Grid and starts rolled")]
    if phase == QDONE:
        return [make_move("start", "Race start", primary=True, history="Starts rolled")]
    if phase == GRID:
        return [make_move("ok", "Go on", primary=True, history="Race started"), *tire_moves(state)]
    if phase == SHOW:
        return [make_move("ok", "Go on", primary=True, history="Outcome seen")]
    if phase == ROUND:
        return [make_move("next", "Next round", primary=True, history=f"Round {state.round + 1}")]
    if phase == GEAR:
        c = state.car_on
        car = state.cars[c]
        who = car.name
        fixes = [] if state.qualifying else [make_move("fix", "Board: 1 ahead", player=who, car=c, by=1),
                                              make_move("fix", "Board: 1 back", player=who, car=c, by=-1)]
        advice = make_move("advice", "Odds" if not state.advice else "Dashboard", player=who, car=c,
                           history="looks at the odds" if not state.advice else "looks at the dashboard")
        if car.driver == kitcars.AUTO:
            return [make_move("auto", "Drive", player=who, car=c, primary=True, history=f"{who} drives"), advice, *fixes]
        keep = car.gear if car.gear else 1
        out = [make_move("gear", label(gear_label(g, cost)), player=who, car=c, gear=g, history=gear_label(g, cost, "gear"),
                         primary=g == min(keep, car.cap)) for g, cost in gear_choices(state, c)]
        if not any(m.primary for m in out):
            out[0] = replace(out[0], primary=True)
        out.append(advice)
        return out + fixes
    if phase == REPORT:
        return _report_moves(state)
    return []


def tire_moves(state: State) -> list[Move]:
    """Once the weather is known (the grid screen, before the race and before the
    qualifying laps): one press fits a human car the next tire type (an automated car
    fits its own, ``automaton.tires_for``). None in a road race: hard tires for all."""
    if state.settings.road:
        return []
    out = []
    for i, car in enumerate(state.cars):
        if car.driver == kitcars.AUTO:
            continue
        new = T.TIRE_TYPES[(T.TIRE_TYPES.index(car.tires) + 1) % len(T.TIRE_TYPES)]
        out.append(make_move("tires", label(f"{car.name[:R_NAME]} to {new}"), player=car.name, car=i, tires=new,
                             history=f"{new} tires"))
    return out


def gear_label(g: int, cost: Mapping[str, int], gear: str = "") -> str:
    """A gear and what it costs: ``4th gear``, ``2nd -1 G`` (the footer) or, with ``gear``
    = "gear", ``2nd gear -1 G`` (the history)."""
    from companion.kit.standings import ordinal
    if not cost:
        return f"{ordinal(g)} gear"
    named = f"{ordinal(g)} {gear}".rstrip()
    # WP lost by zone, in the dashboard's letters: "1st -1 G" (gearbox), "1st -1 G,B,E"
    if len(set(cost.values())) == 1:
        return f"{named} -{next(iter(cost.values()))} " + ",".join(z[0].upper() for z in cost)
    return f"{named} " + " ".join(f"-{n} {z[0].upper()}" for z, n in cost.items())


def _report_moves(state: State) -> list[Move]:
    c = state.car_on
    car = state.cars[c]
    r = state.report
    p = preview(state)
    who = car.name

    def add(what: str, text: str, **args: Any) -> None:
        out.append(make_move("adjust", label(text), player=who, car=c, what=what, **args))

    out = [make_move("done", label(f"Move {p.moved}" if not p.pit else "Into the pit"), player=who, car=c,
                     primary=True, history=f"moves {counted(p.moved, 'space')}" if not p.pit else "into the pits")]
    blocked = T.blocked_cost(r.blocked) or (0, 0)
    if p.moved >= 2 and car.zone_wp(T.BRAKES) - r.brake - blocked[0] >= 1:     # after a slipstream too
        add("brake", "Braked 1")
    if r.blocked < T.BLOCKED_OUT and r.blocked < r.roll + p.slide + r.soft and not r.slips:
        add("blocked", "Blocked 1")
    if r.gear >= 4 and not r.brake and not r.blocked and not p.pit and not state.qualifying:   # chained: no limit
        add("slip", "Slipstream +3")
    if T.soft_bonus(car.tires, state.rain) and not r.soft:
        add("soft", "Soft tires +1")
    if r.contact == -1 and not p.pit and not p.finish and not state.qualifying:
        add("contact", "No car near" if p.contact else "Car near", value=0 if p.contact else 1)
    if p.markers - r.over > 0 and not p.pit:
        add("over", "Over a marker")
    if not r.pit and can_pit(state, c, r) and not r.slips:
        for kind, text in ((car.tires, "Pit stop"), *((t, f"Pit: {t} tires") for t in T.TIRE_TYPES if t != car.tires),
                           ("tech", "Pit: repair")):
            if kind == "tech" and _repair_left(state, c) <= 0:
                continue
            add("pit", text, value=kind)
    if state.settings.road and not state.qualifying:
        road.moves(state, c, p, add)
    return out + _corrections(state, c, p)


def _corrections(state: State, c: int, p: Plan) -> list[Move]:
    """The board disagrees after the roll: ``Board: 8 sp``, ``Ends in C2``, ``Stops
    in C3`` (each a correction event; the roll stays)."""
    out = []
    for what, by, corner in driving.corrections(state.settings.circuit, p, state.report.board):
        if what == "board":
            text = f"Board: {p.moved + by} sp"
        else:
            text = f"{'Ends' if what == 'ends' else 'Stops'} in C{corner}"
        out.append(make_move("correct", label(text), player=state.cars[c].name, car=c, what=what, value=by,
                             history=text if what == "board" else f"Board: {text[0].lower()}{text[1:]}"))
    return out


def _correct(state: State, event) -> State:
    """A correction from the board after the roll: the move ends ``value`` spaces further
    (or short); the roll and everything reported stay."""
    c = _on_turn(state, event, REPORT)
    legal = {(m.arg("what"), m.arg("value")) for m in _report_moves(state) if m.kind == "correct"}
    if (event.get("what"), event.get("value")) not in legal:
        raise RuleError(f"the board cannot correct this move by {event.get('value')!r} now")
    return evolve(state, report=evolve(state.report, board=state.report.board + int(event["value"])))


def _repair_left(state: State, c: int) -> int:
    car = state.cars[c]
    return state.team_repair[car.team] if state.settings.team else car.repair


# -- resolve: the only place dice are rolled ---------------------------------------------

def roll(rng, faces) -> int:
    return faces[rng.randrange(len(faces))]


def resolve(state: State, move: Move, rng) -> dict:
    kind = move.kind
    s = state.settings
    if kind == "start":
        return _resolve_start(state, rng)
    if kind == "gear":
        g = move.arg("gear")
        event = {"kind": "gear", "car": move.arg("car"), "gear": g, "roll": roll(rng, s.faces[g - 1])}
        if state.qualifying:
            event["clock"] = time.monotonic()      # the stopwatch
        return event
    if kind == "done":
        c = move.arg("car")
        if state.qualifying:
            return {"kind": "done", "car": c, "rolls": {}, "clock": time.monotonic()}
        return {"kind": "done", "car": c, "rolls": _check_rolls(state, c, state.report, rng)}
    if kind == "auto":
        c = move.arg("car")
        gear, why = automaton.choose_gear(state, c)
        face = roll(rng, s.faces[gear - 1])
        geared = _apply_gear(state, c, gear, face)
        if geared.phase != REPORT:
            return {"kind": "auto", "car": c, "gear": gear, "roll": face, "report": None, "rolls": {}, "why": why}
        report = automaton.report(geared, c)
        if state.qualifying:
            return {"kind": "auto", "car": c, "gear": gear, "roll": face, "report": report.to_json(),
                    "rolls": {}, "why": why, "clock": time.monotonic()}
        return {"kind": "auto", "car": c, "gear": gear, "roll": face, "report": report.to_json(),
                "rolls": _check_rolls(geared, c, report, rng), "why": why}
    if kind == "adjust" and move.arg("what") == "ace":
        g = state.report.gear
        return {"kind": "adjust", "car": move.arg("car"), "what": "ace", "value": roll(rng, s.faces[g - 1])}
    event = {"kind": kind}
    for k, v in move.args:
        event[k] = v
    return event


def _resolve_start(state: State, rng) -> dict:
    s = state.settings
    weather = roll(rng, s.black) if s.weather == "roll" else 0
    if s.grid == "stopwatch" and not state.qualified:
        return {"kind": "start", "qualifying": True, "weather": weather}
    if state.qualified:
        event = {"kind": "start", "weather": weather, "grid": None, "starts": [roll(rng, s.black) for _ in state.cars]}
        if road.frog(state) and s.weather == "roll" and s.circuit.weather_result(weather) != "rain":
            event["frog"] = roll(rng, s.black)
        return event
    rolls: list[list[int]] = [[roll(rng, s.black)] for _ in state.cars]
    while True:
        seen: dict[tuple, list[int]] = {}
        for i, r in enumerate(rolls):
            seen.setdefault(tuple(r), []).append(i)
        tied = [group for group in seen.values() if len(group) > 1]
        if not tied:
            break
        for group in tied:
            for i in group:
                rolls[i].append(roll(rng, s.black))
    starts = [roll(rng, s.black) for _ in state.cars]
    event = {"kind": "start", "weather": weather, "grid": rolls, "starts": starts}
    if road.frog(state) and s.weather == "roll" and s.circuit.weather_result(weather) != "rain":
        event["frog"] = roll(rng, s.black)       # the Weather Frog rolls again: the second counts
    return event


def _check_rolls(state: State, c: int, report: Report, rng) -> dict:
    """Every black die the confirmed move calls for, rolled now."""
    s = state.settings
    p = plan(state, c, report)
    rolls: dict[str, Any] = {}
    if p.out:
        return rolls
    contact = p.contact if report.contact == -1 else bool(report.contact)
    if contact:
        rolls["collision"] = roll(rng, s.black)
        if road.aggressive_near(state, c, p):
            rolls["collision-2"] = roll(rng, s.black)
        victim = road.radio_target(state, c, p)
        if s.road and state.cars[c].skill == "aggressive" and victim >= 0:
            rolls["victim"] = [victim, roll(rng, s.black), roll(rng, s.black)]
    if report.over:
        rolls["handling"] = [roll(rng, s.black) for _ in range(min(report.over, p.markers))]
    if report.gear in T.MOTOR_GEARS and report.roll == s.top(report.gear):
        rolls["motor"] = [[i, roll(rng, s.black)] for i in _motor_cars(state, c, report.gear)]
        if T.changeable(state.weather):
            rolls["weather"] = roll(rng, s.black)
            if road.frog(state) and s.circuit.weather_result(rolls["weather"]) != "rain":
                rolls["frog"] = roll(rng, s.black)       # the Weather Frog rolls again
    if p.pit:
        rolls["pit"] = roll(rng, s.black)
    if s.road and s.circuit.in_noise(p.final) and not p.finish:
        rolls["noise"] = roll(rng, s.black)
    if s.road and report.radio:
        rolls["radio"] = roll(rng, s.black)
    return rolls


def _motor_cars(state: State, c: int, gear: int) -> list[int]:
    return [i for i, car in enumerate(state.cars)
            if car.racing and not car.pit_wait and (gear if i == c else car.gear) in T.MOTOR_GEARS]


# -- apply --------------------------------------------------------------------------------

def apply(state: State, event: Mapping[str, Any]) -> State:
    return dispatch(_HANDLERS, state, event, "Formula Dé")


def _need(state: State, *phases: str) -> None:
    if state.phase not in phases:
        raise RuleError(f"this event does not fit the race now ({state.phase})")


def _on_turn(state: State, event, *phases: str) -> int:
    _need(state, *phases)
    c = event["car"]
    if c != state.car_on:
        raise RuleError(f"it is not car {c}'s turn")
    return c


def _start(state: State, event) -> State:
    _need(state, START, QDONE)
    s = state.settings
    if event.get("qualifying"):
        if s.grid != "stopwatch" or state.qualified:
            raise RuleError("no qualifying lap in this race")
        return qualifying.start(state, event)
    starts = [int(x) for x in event["starts"]]
    if state.qualified:
        grid = qualifying.order(state)
        grid_rolls = [()] * len(state.cars)
    else:
        grid_rolls = [tuple(int(x) for x in r) for r in event["grid"]]
        if len(grid_rolls) != len(state.cars):
            raise RuleError("the grid rolls do not match the cars")
        if len(set(grid_rolls)) != len(grid_rolls):
            raise RuleError("a tie on the grid was not rolled again")
        quick = [state.settings.road and c.skill == "quick-off-the-mark" for c in state.cars]
        grid = tuple(sorted(range(len(state.cars)), key=lambda i: (grid_rolls[i][:1], quick[i], grid_rolls[i][1:]),
                            reverse=True))
    if len(starts) != len(state.cars):
        raise RuleError("the start rolls do not match the cars")
    if s.weather == "roll":
        w = int(event["frog"]) if "frog" in event and road.frog(state) else int(event["weather"])
        line = T.FIRST_LINE[s.circuit.weather_result(w)]
    else:
        w, line = 0, T.FIRST_LINE[s.weather]
    cars = list(automaton.fit_auto_tires(state, state.cars, T.raining(line)))
    for k, c in enumerate(grid):
        effect = T.start_effect(starts[c])
        car = evolve(cars[c], dist=-k, gear=0, corner=0, stops=0, grid_rolls=grid_rolls[c], start_roll=starts[c])
        if effect == "poor":
            car = evolve(car, skip=True)
        elif effect == "great":
            car = evolve(car, dist=-k + T.GREAT_START_SPACES, gear=1)
        cars[c] = car
    return evolve(state, cars=tuple(cars), grid=grid, weather=line, weather_roll=w,
                  weather_log=((0, w, line),), phase=GRID, qualifying=False, order=tuple(range(len(cars))))


def _ok(state: State, event) -> State:
    _need(state, GRID, SHOW)
    if state.phase == GRID and state.qualifying:          # tires fitted: the first car drives
        return evolve(state, phase=GEAR)
    if state.phase == GRID:
        return _new_round(state)
    return _next_turn(state)


def _next(state: State, event) -> State:
    _need(state, ROUND)
    return _new_round(state)


def _new_round(state: State) -> State:
    if state.round:
        standing = tuple(state.finish) + tuple(i for i in race_order(state) if i not in state.finish)
        state = evolve(state, chart=state.chart + ((state.round, standing, tuple(c.pits for c in state.cars)),))
    order = tuple(i for i in race_order(state) if not state.cars[i].skip)
    cars = tuple(evolve(c, skip=False, pit_wait=False) if (c.skip or c.pit_wait) else c for c in state.cars)
    state = evolve(state, cars=cars, round=state.round + 1, order=order, turn=0, report=None, advice=False)
    if not any(c.racing for c in state.cars):
        return evolve(state, phase=OVER, order=())
    if not order:
        return evolve(state, phase=ROUND)
    return evolve(state, phase=GEAR)


def _next_turn(state: State) -> State:
    state = evolve(state, report=None, advice=False)
    if not any(c.racing for c in state.cars):
        return evolve(state, phase=OVER)
    for k in range(state.turn + 1, len(state.order)):
        car = state.cars[state.order[k]]
        if car.racing and not car.pit_wait:
            return evolve(state, turn=k, phase=GEAR)
    return evolve(state, phase=ROUND)


def _advice(state: State, event) -> State:
    _on_turn(state, event, GEAR)
    return evolve(state, advice=not state.advice)


def _fix(state: State, event) -> State:
    """The board says otherwise: the car on turn is one space further or further back
    than the companion thought. Its corner follows its new space (stops made there kept
    when it stays in the same corner)."""
    c = _on_turn(state, event, GEAR)
    by = event["by"]
    if by not in (1, -1) or state.qualifying:
        raise RuleError(f"a correction moves a car one space, not {by!r}")
    car = state.cars[c]
    dist = car.dist + by
    here = state.settings.circuit.corner_at(dist)
    number = here[0].number if here else 0
    stops = car.stops if number and number == car.corner else 0
    return set_car(state, c, evolve(car, dist=dist, corner=number, stops=stops))


def _tires(state: State, event) -> State:
    """The weather is known: a human car fits other tires (``tire_moves``; after the
    qualifying laps too, where races journaled before offered them)."""
    _need(state, GRID, QDONE)
    c, tires = event["car"], event["tires"]
    legal = {(m.arg("car"), m.arg("tires")) for m in tire_moves(state)}
    if (c, tires) not in legal:
        raise RuleError(f"no {tires!r} tires to fit on car {c!r} now")
    return set_car(state, c, evolve(state.cars[c], tires=tires))


def _apply_gear(state: State, c: int, gear: int, face: int) -> State:
    car = state.cars[c]
    costs = dict(gear_choices(state, c)).get(gear)
    if costs is None:
        raise RuleError(f"{car.name} cannot change from gear {car.gear} to {gear}")
    if face not in state.settings.faces[gear - 1]:
        raise RuleError(f"{face} is not a face of gear {gear}'s die")
    lap = state.lap(c)
    if state.qualifying:
        return evolve(set_car(state, c, evolve(car, gear=gear, cap=6)), phase=REPORT, report=Report(gear, face),
                      qthrows=state.qthrows + 1)
    for zone, n in costs.items():
        car = lose(car, zone, n, "gearing down", state.round, lap)
    car = evolve(car, gear=gear, cap=6)
    if car.zone_wp(T.ENGINE) <= 0:
        car = eliminate(car, T.ENGINE, state.round, lap)
        state = set_car(state, c, car)
        state = evolve(state, markers=_marker(state, car.dist))
        last = Turn(c, gear, face, car.dist, car.dist, losses=tuple((z, n, "gearing down") for z, n in costs.items()),
                    out=((c, T.ENGINE),), markers=(car.dist % state.settings.circuit.length,))
        return evolve(state, last=last, phase=SHOW)
    return evolve(set_car(state, c, car), phase=REPORT, report=Report(gear, face))


def _marker(state: State, dist: int) -> tuple[int, ...]:
    spot = max(0, dist) % state.settings.circuit.length
    return state.markers if spot in state.markers else tuple(sorted(state.markers + (spot,)))


def _gear(state: State, event) -> State:
    c = _on_turn(state, event, GEAR)
    if state.qualifying and not state.qthrows:
        state = evolve(state, qclock=float(event["clock"]))     # the stopwatch starts
    return _apply_gear(state, c, int(event["gear"]), int(event["roll"]))


def _adjust(state: State, event) -> State:
    c = _on_turn(state, event, REPORT)
    what = event["what"]
    legal = {(m.arg("what"), m.arg("value")) for m in _report_moves(state) if m.kind == "adjust"}
    value = event.get("value")
    if (what, None if what == "ace" else value) not in legal:
        raise RuleError(f"'{what}' cannot be reported now")
    r = state.report
    if what == "ace":                      # Ace At The Wheel: the second roll counts
        if value not in state.settings.faces[r.gear - 1]:
            raise RuleError(f"{value} is not a face of gear {r.gear}'s die")
        car = evolve(state.cars[c], ace_lap=state.lap(c))
        return evolve(set_car(state, c, car), report=Report(r.gear, int(value)))
    if what == "nitro":
        r = evolve(r, nitro=T.nitro_spaces(r.gear, state.cars[c].skill))
    elif what == "skid":
        r = evolve(r, skid=int(value))
    elif what == "radio":
        r = evolve(r, radio=int(value))
    elif what == "scrap":
        r = evolve(r, scrap=1)
    elif what == "brake":
        r = evolve(r, brake=r.brake + 1)
    elif what == "blocked":
        r = evolve(r, blocked=r.blocked + 1)
    elif what == "slip":
        r = evolve(r, slips=r.slips + 1)
    elif what == "soft":
        r = evolve(r, soft=1)
    elif what == "contact":
        r = evolve(r, contact=int(value))
    elif what == "over":
        r = evolve(r, over=r.over + 1)
    elif what == "pit":
        r = evolve(r, pit=str(value))
    return evolve(state, report=r)


def _done(state: State, event) -> State:
    c = _on_turn(state, event, REPORT)
    if state.qualifying:
        return qualifying.move(state, c, state.report, float(event["clock"]))
    return _finish_move(state, c, state.report, event["rolls"], auto=False, why="")


def _auto(state: State, event) -> State:
    c = _on_turn(state, event, GEAR)
    if state.cars[c].driver != kitcars.AUTO:
        raise RuleError(f"{state.cars[c].name} is driven by a player")
    if state.qualifying and not state.qthrows:
        state = evolve(state, qclock=float(event["clock"]))
    state = _apply_gear(state, c, int(event["gear"]), int(event["roll"]))
    if state.phase != REPORT:
        return evolve(state, last=evolve(state.last, auto=True, why=str(event.get("why", ""))))
    r = event["report"]
    report = Report(**{k: r[k] for k in Report.__dataclass_fields__ if k in r})
    if report.gear != state.report.gear or report.roll != state.report.roll:
        raise RuleError("the automated driver's report does not match its roll")
    if state.qualifying:
        return qualifying.move(state, c, report, float(event["clock"]))
    return _finish_move(state, c, report, event["rolls"], auto=True, why=str(event.get("why", "")))


def _finish_move(state: State, c: int, report: Report, rolls: Mapping[str, Any], *, auto: bool, why: str) -> State:
    s = state.settings
    length = s.circuit.length
    p = plan(state, c, report)
    car = state.cars[c]
    lap = state.lap(c)
    rnd = state.round
    for zone, n, cause in p.losses:
        car = lose(car, zone, n, cause, rnd, lap)
    car = evolve(car, dist=p.final, corner=p.corner, stops=p.stops, cap=1 if p.spin else 6)
    markers = state.markers
    out: list[tuple[int, str]] = []
    placed: list[int] = []
    checks: list[tuple[str, int, int, bool]] = []

    def mark(dist: int) -> None:
        nonlocal markers
        spot = max(0, dist) % length
        if spot not in markers:
            markers = tuple(sorted(markers + (spot,)))
        placed.append(spot)

    if p.out:
        car = eliminate(car, p.out, rnd, lap)
        out.append((c, p.out))
        mark(p.final)
    cars = list(state.cars)
    if report.nitro:
        car = evolve(car, nitro_lap=lap)
    for key in ("collision", "collision-2"):
        if car.out or key not in rolls:
            continue
        r = int(rolls[key])
        hit = T.collision_hit(r, state.rain)
        checks.append(("collision", c, r, hit))
        if hit:
            car = lose(car, T.BODY, 1, "collision", rnd, lap)
            mark(car.dist)
            if car.zone_wp(T.BODY) <= 0:
                car = eliminate(car, "collision", rnd, lap)
                out.append((c, "collision"))
    for r in rolls.get("handling", ()):
        if car.out:
            break
        r = int(r)
        hit = r <= T.SCRAP_HANDLING if car.skill == "pile-of-scrap" else T.handling_hit(r, state.rain)
        checks.append(("handling", c, r, hit))
        if hit:
            car = lose(car, T.HANDLING, 1, "damage marker", rnd, lap)
            if car.zone_wp(T.HANDLING) <= 0:
                car = eliminate(car, T.HANDLING, rnd, lap)
                out.append((c, T.HANDLING))
                mark(car.dist)
    cars[c] = car
    if "motor" in rolls:
        wanted = _motor_cars(state, c, report.gear)
        got = [int(i) for i, _ in rolls["motor"]]
        if got != wanted:
            raise RuleError("the motor-damage rolls do not match the cars in 5th and 6th")
        for i, r in rolls["motor"]:
            other = cars[i]
            if other.out:
                continue
            r = int(r)
            hit = (r <= T.GENIUS_ENGINE[state.rain] if other.skill == "little-genius"
                   else T.engine_hit(r, state.rain))
            checks.append(("engine", i, r, hit))
            if hit:
                other = lose(other, T.ENGINE, 1, "motor damage", rnd, state.lap(i))
                mark(other.dist)
                if other.zone_wp(T.ENGINE) <= 0:
                    other = eliminate(other, T.ENGINE, rnd, state.lap(i))
                    out.append((i, T.ENGINE))
            cars[i] = other
    car = cars[c]
    weather = ()
    line = state.weather
    log = state.weather_log
    if "weather" in rolls:
        w = int(rolls["frog"]) if "frog" in rolls and road.frog(state) else int(rolls["weather"])
        line = T.shift(state.weather, s.circuit.weather_result(w))
        weather = (w, state.weather, line)
        log = log + ((rnd, w, line),)
    pit = ()
    team_repair = state.team_repair
    if p.pit and not car.out:
        r = int(rolls["pit"])
        effect, spaces = T.pit_effect(r)
        line_dist = (max(0, p.start) // length + 1) * length
        full = dict(zip(T.ZONES, car.full))
        tires = car.tires if report.pit == "tech" else report.pit
        if tires not in T.TIRE_TYPES:
            raise RuleError(f"unknown tires {report.pit!r}")
        wp = replace_at(car.wp, 0, full[T.TIRES])
        fitted = full[T.TIRES] - car.wp[0]
        if fitted > 0:                  # the wear log shows the tires' WP given back
            car = evolve(car, log=car.log + ((rnd, state.lap(c), T.TIRES, -fitted, "new tires"),))
        car = evolve(car, wp=wp, tires=tires, changed=car.changed or tires != car.tires, pits=car.pits + 1,
                     zone=T.TIRES, corner=0, stops=0, gear=T.PIT_GEAR, cap=T.PIT_GEAR if report.pit == "tech" else 6)
        if report.pit == "tech":
            allowance = state.team_repair[car.team] if s.team else car.repair
            car, used = _repair(car, allowance, rnd, state.lap(c))
            if s.team:
                team_repair = replace_at(team_repair, car.team, allowance - used)
            else:
                car = evolve(car, repair=allowance - used)
        if effect == "quick":
            car = evolve(car, dist=line_dist + spaces)
        else:
            car = evolve(car, dist=line_dist, pit_wait=True, cap=T.PIT_GEAR)
        pit = (effect, r, spaces)
    cars[c] = car
    if s.road:
        cars, police, paid, road_checks = road.events(state, c, cars, report, p, rolls, mark)
        checks += road_checks
        for i, other in enumerate(cars):
            if other.out and not state.cars[i].out and (i, other.out) not in out:
                out.append((i, other.out))
        state = evolve(state, police=police, police_paid=paid)
    car = cars[c]
    place = 0
    finish = state.finish
    if not car.out and car.dist >= s.laps * length and not car.place:
        place = len(finish) + 1
        car = evolve(car, place=place, corner=0, stops=0)
        finish = finish + (c,)
    cars[c] = car
    back: dict[tuple[int, str, str], int] = {}
    for i, (before, after) in enumerate(zip(state.cars, cars)):
        for _, _, zone, n, cause in after.log[len(before.log):]:
            if n < 0:
                back[(i, zone, cause)] = back.get((i, zone, cause), 0) - n
    gains = [(i, zone, n, cause) for (i, zone, cause), n in back.items()]
    last = Turn(c, report.gear, report.roll, p.start, car.dist if not car.out else p.final, p.slide,
                tuple((z, n, why_) for z, n, why_ in p.losses), tuple(checks), tuple(placed), tuple(out),
                p.corner, p.stops, p.overshoots, p.spin, pit, weather, place, why, auto, tuple(gains))
    state = evolve(state, cars=tuple(cars), markers=markers, weather=line, weather_log=log, last=last,
                   finish=finish, team_repair=team_repair, report=None)
    if show_needed(last):
        return evolve(state, phase=SHOW)
    return _next_turn(state)


def _repair(car: Car, allowance: int, rnd: int, lap: int) -> tuple[Car, int]:
    """A technical stop: up to ``allowance`` (at most 2) WP back in the one or two zones
    (not the tires) that lost most."""
    give = min(allowance, T.TECH_REPAIR)
    lost = sorted(((car.full[i] - car.wp[i], i) for i in range(1, len(T.ZONES))), reverse=True)
    used = 0
    wp = list(car.wp)
    log = car.log
    for missing, i in lost[:2]:
        n = min(missing, give - used)
        if n > 0:
            wp[i] += n
            used += n
            log += ((rnd, lap, T.ZONES[i], -n, "repair"),)
    return evolve(car, wp=tuple(wp), log=log), used


def show_needed(turn: Turn) -> bool:
    """Whether a turn's outcome needs a screen of its own (anything beyond a plain move)."""
    return bool(turn.auto or turn.losses or turn.checks or turn.out or turn.pit or turn.weather
                or turn.finish or turn.spin or turn.overshoots or turn.gains)


_HANDLERS = {"start": _start, "ok": _ok, "next": _next, "gear": _gear, "adjust": _adjust, "done": _done,
             "auto": _auto, "advice": _advice, "fix": _fix, "tires": _tires, "correct": _correct}


# -- the race as the platform sees it -----------------------------------------------------

def finished(state: State) -> bool:
    return state.phase == OVER

