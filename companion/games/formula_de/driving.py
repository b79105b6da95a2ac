"""One car's move worked out from its roll and what the player reported: where it ends,
the corners it stopped in or overshot, the WP it loses and whether it is eliminated.

Pure and shared: the rules apply it, the advisor runs it for every face of every gear,
the automated drivers use it to choose, the screens preview it before it is confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from companion.games.formula_de import tables as T
from companion.games.formula_de.circuit import Circuit


@dataclass(frozen=True)
class Report:
    """What the player tells after the roll (all zero: the car moved the full roll)."""
    gear: int
    roll: int
    brake: int = 0        # spaces not advanced by choice (1 brake WP each)
    blocked: int = 0      # spaces it could not move, blocked by a car (the table)
    slips: int = 0        # slipstreams taken (+3 each)
    soft: int = 0         # the soft tires' extra space in the dry
    contact: int = -1     # -1: as the companion sees it; 0: no car beside/ahead; 1: there was
    over: int = 0         # damage markers the car passed over or landed on
    pit: str = ""         # "": no pit stop; a tire type (a tire stop); "tech" (technical stop)
    nitro: int = 0        # road races: spaces the nitro adds (0: not used)
    skid: int = 0         # road races, Skidding Pro: -1 or +1 space in a corner (1 tire WP)
    held: int = 0         # spaces lost at no cost (How Sweet!: overtaking her on a straight)
    radio: int = 0        # road races, Car Radio: 1 + the car it is thrown at (0: none)
    scrap: int = 0        # road races, Pile of Scrap: 1 when it drops a marker as it leaves
    board: int = 0        # a correction from the board: spaces the move ends further (+) or short (-)
                          # of what the companion counted (lanes, a corner's true length); no WP

    def to_json(self) -> dict:
        return {k: v for k, v in self.__dict__.items()}


@dataclass(frozen=True)
class Car:
    """What a move needs to know of the car."""
    dist: int
    corner: int           # number of the corner it stands in (0: none)
    stops: int            # stops made in it
    wp: tuple[int, ...]
    tires: str
    changed: bool         # tires changed in a pit stop
    rain_slide: int = 3   # what hard tires slide in rain (the Weather Frog: 1)


@dataclass(frozen=True)
class Plan:
    start: int
    final: int
    slide: int                                  # spaces the tires added
    losses: tuple[tuple[str, int, str], ...]    # (zone, WP, cause), in order
    out: str                                    # the cause of an elimination ("" none)
    corner: int                                 # corner the car ends in (0: none)
    stops: int                                  # stops made in it after this move
    overshoots: tuple[tuple[int, int], ...]     # (corner, spaces overshot)
    spin: bool                                  # lost its last tire WP: 1st gear next
    pit: bool                                   # enters the pit lane
    markers: int                                # damage markers on the path (any lane)
    contact: bool                               # ends beside or behind a car
    finish: bool                                # crosses the line of the last lap

    @property
    def moved(self) -> int:
        return self.final - self.start


BOARD_MAX = 6
"""How far the table may correct a move from the board (``Report.board``), either way:
the lanes of a corner differ by a few spaces, never by a gear's worth."""


def corrections(circuit: Circuit, p: Plan, board: int) -> list[tuple[str, int, int]]:
    """What the table may correct after the roll, as (what, spaces added, corner):
    ``board`` one space fewer or more than the companion counted; ``ends`` in the corner
    the move passed (on its last space: the move stops there); ``stops`` in the corner
    just ahead (on its first space). Nothing for a move into the pit lane."""
    if p.pit:
        return []
    out = []
    if p.moved >= 1 and board > -BOARD_MAX:
        out.append(("board", -1, 0))
    if board < BOARD_MAX:
        out.append(("board", 1, 0))
    zones = circuit.zones(p.start + 1, p.final + BOARD_MAX)
    passed = [(c, last) for c, first, last in zones if last < p.final]
    if passed and abs(board + passed[-1][1] - p.final) <= BOARD_MAX:
        c, last = passed[-1]
        out.append(("ends", last - p.final, c.number))
    inside = any(first <= p.final <= last for _, first, last in zones)
    ahead = [(c, first) for c, first, _ in zones if first > p.final]
    if ahead and not inside and abs(board + ahead[0][1] - p.final) <= BOARD_MAX:
        c, first = ahead[0]
        out.append(("stops", first - p.final, c.number))
    return out


def lap_of(dist: int, length: int) -> int:
    """The race lap (1..) a car at ``dist`` is on."""
    return max(0, dist) // length + 1


def pit_possible(circuit: Circuit, car: Car, reach: int, laps: int, pits: int) -> bool:
    """Whether a car that could move ``reach`` spaces may turn into the pit lane: it
    reaches the entry, it is not on its last lap and it has a pit stop left."""
    lap = lap_of(car.dist, circuit.length)
    entry = circuit.pit_entry(car.dist)
    return lap < laps and pits < laps - 1 and car.dist < entry <= car.dist + reach


def skipped_stops(required: int, made: int, qualifying: bool = False) -> bool:
    """Whether leaving a corner that requires ``required`` stops after ``made`` ends the
    car's race (or its qualifying lap): in a race, 2 or more stops still owed (none made
    in a 2-stop corner, none or one in a 3-stop corner); in a stopwatch lap, no stop at
    all in a 2- or 3-stop corner (any other stop owed is an overshoot, a throw a space)."""
    if qualifying:
        return required >= 2 and made == 0
    return required - made >= 2


def slide_for(circuit: Circuit, car: Car, roll: int, rain: bool) -> int:
    lap = lap_of(car.dist, circuit.length)
    touched = bool(circuit.zones(car.dist + 1, car.dist + roll))
    slide = T.tire_slide(car.tires, rain, lap, touched)
    return min(slide, car.rain_slide) if car.tires == T.HARD else slide


def plan(circuit: Circuit, car: Car, report: Report, rain: bool, *, laps: int,
         others: Sequence[int] = (), markers: Sequence[int] = (), qualifying: bool = False) -> Plan:
    """The outcome of ``report`` for ``car`` (``others``: the other cars' distances on
    the track; ``markers``: the damage markers' spaces from the line).

    The finishing line after ``laps`` laps ends the car's race: nothing beyond it (the
    next lap's corners, markers) is judged. ``qualifying``: a stopwatch lap, where only
    a 2- or 3-stop corner left with no stop at all ends the lap (``out``); leaving one
    with a stop made but some still owed is an overshoot like any other."""
    wp = dict(zip(T.ZONES, car.wp))
    losses: list[tuple[str, int, str]] = []
    out = ""

    def lose(zone: str, amount: int, cause: str) -> None:
        if amount > 0:
            losses.append((zone, amount, cause))
            wp[zone] -= amount

    start = car.dist
    lap = lap_of(start, circuit.length)
    slide = slide_for(circuit, car, report.roll, rain)
    natural = start + report.roll + slide
    if report.blocked:
        cost = T.blocked_cost(report.blocked)
        if cost is None or cost[0] > wp[T.BRAKES] or cost[1] > wp[T.TIRES]:
            out = "blocked"
        else:
            lose(T.BRAKES, cost[0], "blocked")
            lose(T.TIRES, cost[1], "blocked")
    lose(T.BRAKES, report.brake, "braking")
    slipped = natural + report.soft
    slipped += report.nitro
    final = slipped + 3 * report.slips - report.brake - report.blocked - report.held + report.skid + report.board
    if report.skid:
        lose(T.TIRES, 1, "skid")
    line = laps * circuit.length
    if report.slips and not circuit.zones(start + 1, slipped) and circuit.zones(slipped + 1, min(final, line - 1)):
        lose(T.BRAKES, min(1, wp[T.BRAKES]), "slipstream")
    final = max(start, final)
    pit = bool(report.pit) and pit_possible(circuit, car, final - start + report.brake + report.blocked, laps, 0)
    path_end = circuit.pit_entry(start) if pit else final
    judged = min(path_end, line - 1)       # the race ends on the line: nothing past it counts

    corner, stops = 0, 0
    overshoots: list[tuple[int, int]] = []
    spin = False
    if not out:
        for c, first, last in circuit.zones(start, judged):
            here = car.corner == c.number and first <= start <= last
            made = car.stops if here else 0
            if path_end > last:
                owed = c.stops - made
                if skipped_stops(c.stops, made, qualifying):
                    out = f"skipped stops C{c.number}"
                    break
                if owed >= 1:
                    spaces = path_end - last
                    overshoots.append((c.number, spaces))
                    cost = spaces * T.overshoot_factor(car.tires, rain, lap, car.changed)
                    if cost > wp[T.TIRES]:
                        lose(T.TIRES, wp[T.TIRES], f"overshoot C{c.number}")
                        out = f"overshoot C{c.number}"
                        break
                    lose(T.TIRES, cost, f"overshoot C{c.number}")
                    if wp[T.TIRES] == 0:
                        if spaces > 1:
                            out = f"spun off C{c.number}"
                            break
                        spin = True
            elif path_end >= first:
                corner = c.number
                stops = made + (0 if overshoots else 1)
    for zone in (T.BODY, T.ENGINE, T.HANDLING):
        if not out and wp[zone] <= 0:
            out = zone
    finish = not pit and final >= line
    crossed = sum(1 for d in range(start + 1, judged + 1) if d >= 0 and d % circuit.length in set(markers))
    contact = (not pit and not finish and not out
               and any(o in (final, final + 1) for o in others))
    return Plan(start, path_end if pit else final, slide, tuple(losses), out, corner if not pit else 0,
                stops if not pit else 0, tuple(overshoots), spin and not out, pit, crossed, contact, finish)
