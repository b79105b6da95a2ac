"""A circuit as the companion follows it: one line of spaces round the lap.

The board has three lanes; the companion keeps one number per car, its *distance*:
spaces travelled along a lane since the start line (the grid is behind it at -1, -2,
...). A lap is ``length`` spaces. A corner is a stretch ``at`` .. ``at + length - 1`` of
a lap where a car must stop ``stops`` times; a move that ends inside it is a stop. The
pit lane leaves the track at ``pit`` (spaces from the line, after the last corner) and
the pit boxes are at the line. Moves follow from the rolls; the player corrects what the
companion cannot see (braking, being blocked, slipstream, a marker dodged).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from companion.kit.errors import DataError

MOST_CARS = 10
"""The most cars a race has: a circuit described without knowing the race keeps their grid's room."""


def grid_room(cars: int = MOST_CARS) -> int:
    """Spaces before the line kept free of corners for a grid of ``cars``: the cars stand
    on the line and the spaces behind it, one a space, with a space to spare on each side
    (11 for 10 cars: spaces 79-89 of a 90-space lap)."""
    return max(2, int(cars)) + 1


def last_corner_space(length: int, cars: int = MOST_CARS) -> int:
    """The last space of a ``length``-space lap a corner may reach with ``cars`` on the grid."""
    return length - grid_room(cars) - 1


FEWEST_CARS = 2
GRID_ROOM = grid_room()
"""Spaces behind the line the grid of the most cars takes."""


SHORTEST_LAP = 2 * GRID_ROOM + 2
"""The fewest spaces a lap may have (24)."""


@dataclass(frozen=True)
class Corner:
    number: int          # 1.. in lap order
    at: int              # first space of the corner, from the line
    length: int          # spaces of the corner along a lane
    stops: int           # stops required (the yellow box)

    @property
    def end(self) -> int:
        return self.at + self.length - 1


@dataclass(frozen=True)
class Circuit:
    key: str
    label: str
    length: int
    corners: tuple[Corner, ...]
    pit: int
    weather: tuple[tuple[str, int, int], ...]   # (result, low, high) of the d20 chart
    assumption: str = ""
    noise: tuple[int, ...] = ()                 # road races: the engine-noise area (first, last)
    police: int = -1                            # road races: the police station's line (-1: none)
    danger: tuple[int, ...] = ()                # road races: red spaces (damage markers for good)

    def in_noise(self, distance: int) -> bool:
        return bool(self.noise) and distance >= 0 and self.noise[0] <= distance % self.length <= self.noise[1]

    def weather_result(self, roll: int) -> str:
        for name, low, high in self.weather:
            if low <= roll <= high:
                return name
        return "good"

    def zones(self, start: int, end: int) -> list[tuple[Corner, int, int]]:
        """The corners (corner, first, last absolute distance) a stretch of distances
        ``start``..``end`` touches, in order (start inclusive)."""
        out = []
        if end < 0:
            return out
        for lap in range(max(0, start) // self.length, end // self.length + 1):
            base = lap * self.length
            for c in self.corners:
                first = base + c.at
                last = first + c.length - 1   # c.end, without the property call (a hot loop)
                if last >= start and first <= end:
                    out.append((c, first, last))
        return out

    def corner_at(self, distance: int) -> tuple[Corner, int, int] | None:
        """The corner the space at ``distance`` is in (None on a straight)."""
        found = self.zones(distance, distance)
        return found[0] if found else None

    def next_corner(self, distance: int) -> tuple[Corner, int, int]:
        """The corner the car at ``distance`` is in, else the next one ahead."""
        here = self.corner_at(distance)
        if here:
            return here
        return self.zones(max(0, distance + 1), max(0, distance) + 2 * self.length)[0]

    def pit_entry(self, distance: int) -> int:
        """The absolute distance of the pit entry on the lap of ``distance``."""
        return (max(0, distance) // self.length) * self.length + self.pit


def check_grid(circuit: Circuit, cars: int) -> None:
    """Refuse a race of ``cars`` whose grid would stand in the circuit's last corner."""
    end = circuit.corners[-1].end if circuit.corners else 0
    last = last_corner_space(circuit.length, cars)
    if end > last:
        from companion.kit.errors import RuleError
        raise RuleError(f"{circuit.label} ends its last corner at {end}: {cars} cars need spaces "
                        f"{last + 1}-{circuit.length - 1} for the grid. Race fewer cars or change it.")


WEATHER_RESULTS = ("rain", "changeable", "good")


def _int(table: Mapping[str, Any], keys: tuple, key: str, low: int, high: int, what: str = "") -> int:
    """``table[key]``, a whole number within low..high. ``what`` names an item of a list
    ("corner 2"): the error then names the list's key (the loader finds the file that
    set it by the key path, which stops at a list)."""
    value = table.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        where = keys if what else keys + (key,)
        head = f"{what}: {key} " if what else ""
        raise DataError(where, f"{head}must be a whole number from {low} to {high}, not {value!r}")
    return value


def load(data: Mapping[str, Any], key: str) -> Circuit:
    """The circuit ``key`` of the game data, checked (DataError names the key path)."""
    circuits = data.get("circuits")
    if not isinstance(circuits, Mapping) or not circuits:
        raise DataError(("circuits",), "no circuit", "add a [circuits.<id>] table")
    entry = circuits.get(key)
    if not isinstance(entry, Mapping):
        raise DataError(("circuits", key), "unknown circuit", f"use one of: {', '.join(circuits)}")
    keys = ("circuits", key)
    length = _int(entry, keys, "length", SHORTEST_LAP, 400)
    raw = entry.get("corners")
    if not isinstance(raw, list) or not raw:
        raise DataError(keys + ("corners",), "must be a list of corners",
                        "e.g. corners = [{ at = 8, length = 3, stops = 1 }]")
    corners = []
    last_end = -1
    ck = keys + ("corners",)
    for i, c in enumerate(raw):
        what = f"corner {i + 1}"
        if not isinstance(c, Mapping):
            raise DataError(ck, f"{what} must be a table {{ at, length, stops }}, not {c!r}")
        unknown = set(c) - {"at", "length", "stops", "name"}
        if unknown:
            raise DataError(ck, f"{what}: unknown key {sorted(unknown)[0]!r}", "allowed: at, length, stops")
        at = _int(c, ck, "at", 1, length - 1, what)
        size = _int(c, ck, "length", 1, 12, what)
        stops = _int(c, ck, "stops", 1, 3, what)
        if at <= last_end:
            raise DataError(ck, f"{what} starts at {at}, inside or before the corner before it",
                            "list the corners in lap order, each after the last")
        if stops > size:
            raise DataError(ck, f"{what}: {stops} stops do not fit in {size} spaces")
        corners.append(Corner(i + 1, at, size, stops))
        last_end = at + size - 1
    if last_end > last_corner_space(length, FEWEST_CARS):
        raise DataError(keys + ("corners",), f"the last corner ends at {last_end}, in the grid's room",
                        f"end it by space {last_corner_space(length, FEWEST_CARS)}: the grid needs "
                        f"{grid_room(FEWEST_CARS)} spaces before the line")
    pit = _int(entry, keys, "pit", 1, length - 1)
    if pit <= last_end:
        raise DataError(keys + ("pit",), f"the pit entry ({pit}) must come after the last corner ({last_end})")
    weather = entry.get("weather")
    if not isinstance(weather, Mapping) or set(weather) != set(WEATHER_RESULTS):
        raise DataError(keys + ("weather",), "must give the d20 ranges of rain, changeable and good",
                        "e.g. weather = { rain = [1, 8], changeable = [9, 14], good = [15, 20] }")
    ranges = []
    covered: list[int] = []
    for name in WEATHER_RESULTS:
        r = weather[name]
        if (not isinstance(r, list) or len(r) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in r)
                or not 1 <= r[0] <= r[1] <= 20):
            raise DataError(keys + ("weather", name), f"must be [low, high] within 1..20, not {r!r}")
        ranges.append((name, r[0], r[1]))
        covered += range(r[0], r[1] + 1)
    if sorted(covered) != list(range(1, 21)):
        raise DataError(keys + ("weather",), "the three ranges must cover 1 to 20 once each")
    noise: tuple[int, ...] = ()
    if "noise" in entry:
        n = entry["noise"]
        if (not isinstance(n, list) or len(n) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in n)
                or not 0 <= n[0] <= n[1] < length):
            raise DataError(keys + ("noise",), f"must be [first, last] spaces of the lap, not {n!r}")
        noise = (n[0], n[1])
    police = _int(entry, keys, "police", 0, length - 1) if "police" in entry else -1
    danger = entry.get("danger", [])
    if not isinstance(danger, list) or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < length
                                               for x in danger):
        raise DataError(keys + ("danger",), f"must be a list of spaces of the lap, not {danger!r}")
    unknown = set(entry) - {"label", "length", "corners", "pit", "weather", "assumption", "noise", "police", "danger"}
    if unknown:
        raise DataError(keys + (sorted(unknown)[0],), "unknown key",
                        "allowed: label, length, corners, pit, weather, noise, police, danger, assumption")
    return Circuit(key, str(entry.get("label", key)), length, tuple(corners), pit, tuple(ranges),
                   str(entry.get("assumption", "")), noise, police, tuple(sorted(set(danger))))


def check(data: Mapping[str, Any]) -> None:
    """Every circuit of the data, checked."""
    circuits = data.get("circuits")
    if not isinstance(circuits, Mapping) or not circuits:
        raise DataError(("circuits",), "no circuit", "add a [circuits.<id>] table")
    for key in circuits:
        load(data, key)


# -- choosing and describing a circuit at setup ---------------------------------------------

ROAD_KEYS = ("noise", "police", "danger")


def is_road(entry: Any) -> bool:
    """Whether a circuit of the data is a road course (it has road-race features)."""
    return isinstance(entry, Mapping) and any(k in entry for k in ROAD_KEYS)


def choices(data: Mapping[str, Any], answers: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The setup's circuit question: every circuit of the data and the owner's files that
    suits the race (road courses for a road race), and for a circuit race "Describe a
    circuit" (a new one, with the board in front of you)."""
    from companion.games.api import DESCRIBE
    road = answers.get("race") == "road"
    circuits = data.get("circuits") if isinstance(data.get("circuits"), Mapping) else {}
    out = [(key, str(entry.get("label", key))) for key, entry in circuits.items() if is_road(entry) == road]
    return tuple(out) + (() if road else ((DESCRIBE, "Describe a circuit"),))


def described(answers: Mapping[str, Any], items: Mapping[str, list]) -> dict[str, Any]:
    """The [circuits.<id>] table of a circuit described on the box."""
    rain, changeable = int(answers["rain"]), int(answers["changeable"])
    if not rain < changeable < 20:
        raise DataError(("weather",), f"rain ends at {rain}, changeable at {changeable}: changeable must end "
                        "after rain and before 20", "e.g. rain 1-8, changeable 9-14, good 15-20")
    return {"length": int(answers["length"]),
            "corners": [{"at": int(c["at"]), "length": int(c["length"]), "stops": int(c["stops"])}
                        for c in items.get("corners", [])],
            "pit": int(answers["pit"]),
            "weather": {"rain": [1, rain], "changeable": [rain + 1, changeable], "good": [changeable + 1, 20]}}


def parsed(entry: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, list]]:
    """A saved circuit's answers, to change it on the box (the inverse of :func:`described`)."""
    corners = [dict(c) for c in entry.get("corners", [])]
    weather = entry.get("weather", {})
    answers = {"length": entry["length"], "count": len(corners), "pit": entry["pit"],
               "rain": weather["rain"][1], "changeable": weather["changeable"][1]}
    return answers, {"corners": corners}


TYPICAL_LENGTH = 3
"""A corner's length offered first: the commonest."""


def stops_for(length: int) -> int:
    """The stops a corner of ``length`` spaces usually asks: one for every two spaces,
    1 to 3 (a longer corner holds more stops)."""
    return max(1, min(3, int(length) // 2))


def _room(asking) -> tuple[int, int]:
    """(the last space a corner may reach, the corners to fit) of the lap described."""
    length = int(asking.answers.get("length", 84))
    return last_corner_space(length, asking.cars), int(asking.answers.get("count", 1))


def _before(asking) -> tuple[int, Mapping[str, Any]]:
    """The last space of the corner before this one (0: the line) and its answers."""
    before = asking.item(asking.index - 1) if asking.group == "corners" else {}
    if asking.group != "corners":       # the pit entry: after the last corner
        corners = asking.items.get("corners", [])[:_room(asking)[1]]
        before = corners[-1] if corners else {}
    if "at" not in before:
        return 0, {}
    return int(before["at"]) + int(before.get("length", 1)) - 1, before


def _limits(asking) -> tuple[int, int] | None:
    """Each answer's range from the answers before it: a corner on the lap after the one
    before it, leaving a space for each corner after it and the grid's room before the line."""
    last, count = _room(asking)
    if asking.key == "count":
        return 1, max(1, min(20, last))
    if asking.group == "corners":
        after = count - 1 - asking.index          # corners still to come, a space each at least
        end, _ = _before(asking)
        here = asking.item(asking.index)
        if asking.key == "at":
            return end + 1, last - after
        if asking.key == "length":
            return 1, min(12, last - after - int(here.get("at", end + 1)) + 1)
        if asking.key == "stops":
            return 1, min(3, int(here.get("length", 3)))
    if asking.key == "pit":
        return _before(asking)[0] + 1, int(asking.answers.get("length", 84)) - 1
    if asking.key == "changeable":
        return int(asking.answers.get("rain", 8)) + 1, 19
    return None


def _suggest(asking) -> int | None:
    """Where the next answer probably is: a corner after the one before, the lap's room
    left shared evenly among the corners still to come, 3 spaces long with a stop for
    every two spaces; the pit entry just after the last corner."""
    end, before = _before(asking)
    if asking.group == "corners":
        if asking.key == "length":
            return TYPICAL_LENGTH
        if asking.key == "stops":
            return stops_for(asking.item(asking.index).get("length", TYPICAL_LENGTH))
        if asking.key == "at":
            last, count = _room(asking)
            left = count - asking.index
            gap = max(0, last - end - left * TYPICAL_LENGTH) // (left + 1)
            return end + 1 + gap
    if asking.key == "pit":
        return end + 2
    return None


def _note(asking) -> str:
    """What bounds the answers of the screen: the grid's spaces before the line."""
    if asking.key in ("rain", "changeable"):
        return f"good {int(asking.answers.get('changeable', 14)) + 1}-20"
    length = int(asking.answers.get("length", 84))
    last = last_corner_space(length, asking.cars)
    if asking.group == "lap":
        return f"grid {last + 1}-{length - 1}, {asking.cars} cars"
    if asking.key == "pit":
        return f"corner ends {_before(asking)[0]}"
    return f"grid {last + 1}-{length - 1}"


def _describe():
    from companion.games.api import Describe, Group, Option
    return Describe(
        table="circuits", name="My circuit", noun="circuit",
        questions=(
            Group("lap", "Lap", 1, (
                Option("length", "Spaces a lap", kind="number", low=SHORTEST_LAP, high=400, default=84),
                Option("count", "Corners", kind="number", low=1, high=20, default=5))),
            Group("corners", "Corner ", "count", (
                Option("at", "Starts at", kind="number", low=1, high=399, default=10),
                Option("length", "Length", kind="number", low=1, high=12, default=3),
                Option("stops", "Stops", kind="number", low=1, high=3, default=1))),
            Group("pit", "Pit, weather", 1, (
                Option("pit", "Pit entry", kind="number", low=1, high=399, default=76),
                Option("rain", "Rain: 1 to", kind="number", low=1, high=18, default=8),
                Option("changeable", "Changeable to", kind="number", low=2, high=19, default=14))),
        ),
        build=described, suggest=_suggest, limits=_limits, note=_note, parse=parsed)


DESCRIBE = _describe()
"""Setup's "Describe a circuit": one screen for the lap (its spaces along a lane, its
corners), one for each corner (its first space from the line, its length, its stops), one
for the pit entry and the weather chart; each answer within what the ones before leave."""
