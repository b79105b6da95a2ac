"""Lap counting for 2-12 cars: race order, leader, laps led, chequered flag, lap times.

A race is a frozen :class:`RaceState`; every change returns a new one. Nothing here reads
a clock: whoever reports a crossing passes its time as ``at`` (seconds, any epoch), or
leaves it out and the race simply has no lap times.

Rules the model follows:

- **Race order**: more laps first; between cars on the same lap, the one that completed
  that lap first is ahead. Before a car's first crossing it keeps its grid place.
- **Leader and laps led**: a crossing that leaves the crossing car alone in the lead (the
  first car to complete that lap number) counts one lap led for it. Each lap is led by
  exactly one car, so the laps led add up to the leader's laps.
- **Finish (lap race)**: the first car to complete ``length`` laps takes the chequered
  flag; after it, every other car is flagged at its next crossing (lapped cars finish a
  lap or more down). The race is over when every car has been flagged.
- **Finish (countdown race)**, as in Top Speed's Laps Remaining track: the counter starts
  at ``length`` and goes down by one each time the leader completes a lap, and by one for
  each :func:`tick` (Top Speed also moves it at the start of every round). When it reaches
  zero the race is over at once and every car is classified in race order.
- :func:`end` stops a race early: every car still running is classified where it stands.

The classification (:func:`finish_order`, :func:`entries`) is always the race order: a
car flagged later with more laps is ahead of a lapped car flagged before it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

MIN_CARS = 2
MAX_CARS = 12
MAX_LAPS = 999


class RaceError(ValueError):
    """A crossing or a race that cannot be: ``str()`` is one line for a person."""


@dataclass(frozen=True)
class Car:
    name: str
    colour: str


@dataclass(frozen=True)
class Crossing:
    """One pass over the line: ``lap`` is the laps ``car`` has completed with it."""
    car: str
    lap: int
    at: float | None = None
    led: bool = False


@dataclass(frozen=True)
class FastLap:
    car: str
    lap: int
    seconds: float


@dataclass(frozen=True)
class RaceState:
    """A race in progress. Per-car tuples (``laps``, ``last``) follow the order of ``cars``,
    which is the starting grid.

    ``last[i]`` is the index in ``crossings`` of car i's latest crossing (-1: none yet).
    ``flagged`` lists the cars that have taken the chequered flag, in the order they took it.
    ``ticks`` counts :func:`tick` calls (countdown races only).
    """

    cars: tuple[Car, ...]
    length: int
    countdown: bool = False
    laps: tuple[int, ...] = ()
    last: tuple[int, ...] = ()
    crossings: tuple[Crossing, ...] = ()
    flagged: tuple[str, ...] = ()
    started_at: float | None = None
    ticks: int = 0


def start(cars: Iterable[Car], laps: int, countdown: bool = False, at: float | None = None) -> RaceState:
    """A new race of ``laps`` laps (or, with ``countdown``, a Laps Remaining counter that
    starts at ``laps``). ``cars`` is the starting grid, pole first; ``at`` is the start time,
    which gives the first lap a time."""
    grid = tuple(cars)
    if not MIN_CARS <= len(grid) <= MAX_CARS:
        raise RaceError(f"a race needs {MIN_CARS} to {MAX_CARS} cars, not {len(grid)}")
    names = [c.name for c in grid]
    for name in names:
        if not name or names.count(name) > 1:
            raise RaceError(f"every car needs its own name; '{name}' is empty or used twice")
    if isinstance(laps, bool) or not isinstance(laps, int) or not 1 <= laps <= MAX_LAPS:
        raise RaceError(f"race length must be 1 to {MAX_LAPS} laps, not {laps!r}")
    n = len(grid)
    return RaceState(grid, laps, bool(countdown), (0,) * n, (-1,) * n, started_at=at)


def index_of(state: RaceState, car: str | Car) -> int:
    """Grid index of ``car`` (a name or a Car); RaceError when it is not in the race."""
    name = car.name if isinstance(car, Car) else car
    for i, c in enumerate(state.cars):
        if c.name == name:
            return i
    raise RaceError(f"no car '{name}' in this race; cars: {', '.join(c.name for c in state.cars)}")


def cross(state: RaceState, car: str | Car, at: float | None = None) -> RaceState:
    """``car`` crossed the line (completing a lap) at time ``at``."""
    i = index_of(state, car)
    name = state.cars[i].name
    if is_over(state):
        raise RaceError("the race is over; no more crossings count")
    if name in state.flagged:
        raise RaceError(f"{name} has already taken the chequered flag")
    lap = state.laps[i] + 1
    led = all(n < lap for j, n in enumerate(state.laps) if j != i)
    laps = _set(state.laps, i, lap)
    last = _set(state.last, i, len(state.crossings))
    flag = not state.countdown and (bool(state.flagged) or lap >= state.length)
    # built directly, not with replace(): a boot replays every crossing of the race
    new = RaceState(cars=state.cars, length=state.length, countdown=state.countdown, laps=laps, last=last,
                    crossings=state.crossings + (Crossing(name, lap, at, led),),
                    flagged=state.flagged + ((name,) if flag else ()), started_at=state.started_at,
                    ticks=state.ticks)
    return _flag_all_if_done(new) if state.countdown else new


def tick(state: RaceState) -> RaceState:
    """Countdown races: lower the Laps Remaining by one without a crossing (the start of
    a Top Speed round). At zero the race is over."""
    if not state.countdown:
        raise RaceError("only a countdown race has a Laps Remaining counter to move")
    if is_over(state):
        raise RaceError("the race is over; the counter is already at zero")
    return _flag_all_if_done(replace(state, ticks=state.ticks + 1))


def end(state: RaceState) -> RaceState:
    """Stop the race now: every car still running is classified where it stands."""
    order = [c.name for c in race_order(state)]
    return replace(state, flagged=state.flagged + tuple(n for n in order if n not in state.flagged))


def _flag_all_if_done(state: RaceState) -> RaceState:
    return end(state) if laps_to_go(state) == 0 else state


def _set(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    return values[:i] + (value,) + values[i + 1:]


def race_order(state: RaceState) -> tuple[Car, ...]:
    """The cars, first to last: laps completed (more first), then who completed that lap first;
    cars that have not crossed yet keep their grid order."""
    def key(i: int) -> tuple[int, int]:
        return (-state.laps[i], state.last[i] if state.laps[i] else i)
    return tuple(state.cars[i] for i in sorted(range(len(state.cars)), key=key))


def leader(state: RaceState) -> Car:
    return race_order(state)[0]


def laps_of(state: RaceState, car: str | Car) -> int:
    return state.laps[index_of(state, car)]


def laps_to_go(state: RaceState) -> int:
    """Laps the leader has still to complete (countdown races: the Laps Remaining counter)."""
    return max(0, state.length - max(state.laps) - state.ticks)


def laps_led(state: RaceState) -> dict[str, int]:
    """Laps led per car name (every car present, 0 for none)."""
    out = {c.name: 0 for c in state.cars}
    for x in state.crossings:
        if x.led:
            out[x.car] += 1
    return out


def flag_out(state: RaceState) -> bool:
    """Whether the chequered flag is out (a car has finished)."""
    return bool(state.flagged)


def is_finished(state: RaceState, car: str | Car) -> bool:
    return state.cars[index_of(state, car)].name in state.flagged


def is_over(state: RaceState) -> bool:
    """Whether every car has been classified."""
    return len(state.flagged) == len(state.cars)


def running(state: RaceState) -> tuple[Car, ...]:
    """Cars still racing, in race order."""
    return tuple(c for c in race_order(state) if c.name not in state.flagged)


def finish_order(state: RaceState) -> tuple[Car, ...]:
    """The flagged cars, classified (race order, see the module notes)."""
    return tuple(c for c in race_order(state) if c.name in state.flagged)


def next_to_cross(state: RaceState) -> tuple[Car, ...]:
    """Cars still running, the one most likely to cross next first: cars that have not
    crossed yet (grid order), then the car whose last crossing is longest ago. On a track
    where the field keeps its order this is the order in which the line is reached."""
    def key(i: int) -> tuple[int, int]:
        return (state.last[i], i)
    live = [i for i, c in enumerate(state.cars) if c.name not in state.flagged]
    return tuple(state.cars[i] for i in sorted(live, key=key))


def _timed(state: RaceState):
    """Each crossing with the time of the lap it completes (None where unknown)."""
    prev: dict[str, float | None] = {c.name: state.started_at for c in state.cars}
    for x in state.crossings:
        before = prev[x.car]
        yield x, (None if before is None or x.at is None else x.at - before)
        prev[x.car] = x.at


def lap_times(state: RaceState) -> dict[str, tuple[float | None, ...]]:
    """Each car's lap times in seconds, lap 1 first; None where a time is missing at
    either end (lap 1 is timed from ``started_at``)."""
    out: dict[str, tuple[float | None, ...]] = {c.name: () for c in state.cars}
    for x, seconds in _timed(state):
        out[x.car] += (seconds,)
    return out


def fastest_lap(state: RaceState) -> FastLap | None:
    """The quickest timed lap of the race (the one set first on a tie), or None."""
    best: FastLap | None = None
    for x, seconds in _timed(state):
        if seconds is not None and (best is None or seconds < best.seconds):
            best = FastLap(x.car, x.lap, seconds)
    return best


def lap_orders(state: RaceState) -> list[tuple[str, ...]]:
    """For each lap number (lap 1 first), the cars in the order they completed it."""
    rows: list[list[str]] = []
    for x in state.crossings:
        while len(rows) < x.lap:
            rows.append([])
        rows[x.lap - 1].append(x.car)
    return [tuple(r) for r in rows]


def entries(state: RaceState) -> list[dict]:
    """The classification as plain dicts for ``companion.core.scoring.standings``: in race
    order, each with name, colour, laps, laps_led, best_lap (seconds or None), fastest_lap
    (True for the holder of the race's fastest lap) and finished (flagged)."""
    led = laps_led(state)
    times = lap_times(state)
    fast = fastest_lap(state)
    out = []
    for car in race_order(state):
        timed = [t for t in times[car.name] if t is not None]
        out.append({"name": car.name, "colour": car.colour, "laps": laps_of(state, car),
                    "laps_led": led[car.name], "best_lap": min(timed) if timed else None,
                    "fastest_lap": fast is not None and fast.car == car.name,
                    "finished": car.name in state.flagged})
    return out
