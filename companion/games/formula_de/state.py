"""A Formula Dé race's state: the cars, the last turn and the race, and the changes to
them that every part of the rules makes (a car set in the race, wear points lost, a car
eliminated, the race order, a car as the driving rules see it).

Everything here is data and small functions on it: the rules (rules.py), the road-race
rules (road.py), the qualifying laps (qualifying.py), the automated drivers and the
results build on it, and it calls none of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.formula_de import driving
from companion.games.formula_de import tables as T
from companion.games.formula_de.driving import Report
from companion.games.formula_de.settings import Settings
from companion.kit.update import evolve, replace_at

START, GRID, GEAR, REPORT, SHOW, ROUND, OVER = "start", "grid", "gear", "report", "show", "round", "over"
QDONE = "qualified"
FREE_WP = (99,) * len(T.ZONES)
"""Qualifying laps do not count wear points: a car drives them as if it had plenty."""


@dataclass(frozen=True)
class Car:
    name: str
    colour: str
    driver: str
    level: int
    tires: str
    wp: tuple[int, ...]
    full: tuple[int, ...]          # WP at the start (a pit stop gives the tires back)
    team: int = -1
    dist: int = 0
    gear: int = 0                  # 0: on the grid, no gear engaged yet
    cap: int = 6                   # the highest gear it may pick next (spin: 1; pit: 4)
    corner: int = 0                # the corner it stands in (0: none)
    stops: int = 0                 # stops made in that corner
    out: str = ""                  # why it was eliminated
    out_lap: int = 0
    out_round: int = 0
    place: int = 0                 # finishing position (0: still racing)
    pits: int = 0
    pit_wait: bool = False         # slow stop: stays in the pit until next round
    skip: bool = False             # poor start: misses the first turn
    changed: bool = False          # tires changed in a pit stop
    repair: int = T.TECH_REPAIR    # technical-stop WP left
    zone: str = ""                 # the zone that changed last
    log: tuple[tuple[int, int, str, int, str], ...] = ()   # (round, lap, zone, WP, cause)
    grid_rolls: tuple[int, ...] = ()
    start_roll: int = 0
    skill: str = ""                # road races: the driver's feature
    card: str = ""                 # road races: the driver's card
    nitro_lap: int = 0             # the lap it last used its nitro
    ace_lap: int = 0               # Ace At The Wheel: the lap of its last re-roll
    radio_used: bool = False       # Car Radio: thrown (once a race)
    scrap_lap: int = 0             # Pile of Scrap: the lap it last dropped a marker

    @property
    def racing(self) -> bool:
        return not self.out and not self.place

    def zone_wp(self, zone: str) -> int:
        return self.wp[T.ZONES.index(zone)]


@dataclass(frozen=True)
class Turn:
    """What happened on the last turn, for the screen and the history."""
    car: int
    gear: int
    roll: int
    start: int
    final: int
    slide: int = 0
    losses: tuple[tuple[str, int, str], ...] = ()
    checks: tuple[tuple[str, int, int, bool], ...] = ()   # (kind, car, roll, hit)
    markers: tuple[int, ...] = ()          # damage markers placed (spaces from the line)
    out: tuple[tuple[int, str], ...] = ()  # cars eliminated (car, cause)
    corner: int = 0
    stops: int = 0
    overshoots: tuple[tuple[int, int], ...] = ()
    spin: bool = False
    pit: tuple[str, int, int] = ()         # (quick/slow, roll, spaces)
    weather: tuple[int, int, int] = ()     # (roll, old line, new line)
    finish: int = 0                        # finishing position
    why: str = ""                          # an automated driver's reason
    auto: bool = False
    gains: tuple[tuple[int, str, int, str], ...] = ()   # (car, zone, WP back, why): repairs


@dataclass(frozen=True)
class State:
    settings: Settings
    cars: tuple[Car, ...]
    phase: str = START
    round: int = 0
    order: tuple[int, ...] = ()
    turn: int = 0                          # index into order
    report: Report | None = None
    weather: int = T.GOOD
    weather_log: tuple[tuple[int, int, int], ...] = ()   # (round, roll, line)
    weather_roll: int = 0
    markers: tuple[int, ...] = ()
    grid: tuple[int, ...] = ()
    finish: tuple[int, ...] = ()
    last: Turn | None = None
    advice: bool = False
    team_repair: tuple[int, ...] = ()
    qualifying: bool = False               # a stopwatch qualifying lap is being driven
    qualified: bool = False
    qual: tuple[tuple, ...] = ()           # per car: () or (throws, seconds, to the back)
    qclock: float = 0.0                    # the stopwatch's start (the lap's first throw)
    qthrows: int = 0                       # die throws so far, overshot spaces included
    qweather: int = T.GOOD                 # the weather of the qualifying laps
    police: tuple[tuple[int, int, int], ...] = ()   # road races: (lap, car, speed) at the station
    police_paid: tuple[tuple[int, int], ...] = ()   # (lap, car) that got the 2 WP
    chart: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...] = ()   # after each round: (round,
    # the finishers and the racing cars in order, each car's pit stops so far): the lap chart

    @property
    def car_on(self) -> int:
        return self.order[self.turn] if self.phase in (GEAR, REPORT) else -1

    @property
    def rain(self) -> bool:
        return T.raining(self.qweather if self.qualifying else self.weather)

    def lap(self, c: int) -> int:
        return driving.lap_of(self.cars[c].dist, self.settings.circuit.length)


# -- changes every part of the rules makes ------------------------------------------------

def set_car(state: State, c: int, car: Car) -> State:
    """The race with car ``c`` replaced by ``car``."""
    return evolve(state, cars=replace_at(state.cars, c, car))


def lose(car: Car, zone: str, amount: int, cause: str, rnd: int, lap: int) -> Car:
    """``car`` with ``amount`` WP lost in ``zone`` (never below 0), logged with its cause."""
    if amount <= 0:
        return car
    i = T.ZONES.index(zone)
    amount = min(amount, car.wp[i])
    wp = replace_at(car.wp, i, car.wp[i] - amount)
    return evolve(car, wp=wp, zone=zone, log=car.log + ((rnd, lap, zone, amount, cause),))


def eliminate(car: Car, cause: str, rnd: int, lap: int) -> Car:
    """``car`` out of the race (``cause``: a zone or what put it out)."""
    return evolve(car, out=cause, out_lap=lap, out_round=rnd, corner=0, stops=0)


def race_order(state: State, cars=None) -> tuple[int, ...]:
    """Racing cars, leader first; level cars: the higher gear, then the one ahead before."""
    cars = state.cars if cars is None else cars
    before = {c: k for k, c in enumerate(state.order)}
    racing = [i for i, c in enumerate(cars) if c.racing]
    return tuple(sorted(racing, key=lambda i: (-cars[i].dist, cars[i].skill != "quick-off-the-mark",
                                               -cars[i].gear, before.get(i, i))))


def as_driven(state: State, car: Car) -> Car:
    """``car`` as it drives now: on a qualifying lap with wear points to spare (``FREE_WP``)."""
    return evolve(car, wp=FREE_WP) if state.qualifying else car


def driving_car(car: Car) -> driving.Car:
    """What the driving rules (driving.py) need of a car."""
    return driving.Car(car.dist, car.corner, car.stops, car.wp, car.tires, car.changed,
                       T.FROG_SLIDE if car.skill == "weather-frog" else 3)
