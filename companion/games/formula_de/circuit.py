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

GRID_ROOM = 10
"""Spaces behind the line the grid takes (10 cars): no corner may reach into them."""


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
    length = _int(entry, keys, "length", 2 * GRID_ROOM + 4, 400)
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
    if last_end >= length - GRID_ROOM - 1:
        raise DataError(keys + ("corners",), f"the last corner ends at {last_end}, in the grid's room",
                        f"end the last corner before space {length - GRID_ROOM - 1} of {length}")
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
    """Every circuit of the data, checked (the Activity's ``check_data``)."""
    circuits = data.get("circuits")
    if not isinstance(circuits, Mapping) or not circuits:
        raise DataError(("circuits",), "no circuit", "add a [circuits.<id>] table")
    for key in circuits:
        load(data, key)
    from companion.games.formula_de import settings
    settings.check_tables(data)


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


def _suggest(answers: Mapping[str, Any], items: Mapping[str, list], group: str | None, index: int,
             key: str) -> int | None:
    """Where the next answer probably is: a corner a few spaces after the one before, the
    pit entry after the last corner."""
    corners = [c for c in items.get("corners", []) if "at" in c and "length" in c]
    if group == "corners" and key == "at" and 0 < index <= len(corners):
        before = corners[index - 1]
        return int(before["at"]) + int(before["length"]) + 8
    if group is None and key == "pit" and corners:
        last = corners[-1]
        return min(int(answers.get("length", 0)) - GRID_ROOM - 1, int(last["at"]) + int(last["length"]) + 2)
    return None


def _describe():
    from companion.games.api import Describe, Group, Option
    return Describe(
        table="circuits", name="My circuit",
        questions=(
            Option("length", "Spaces a lap", kind="number", low=2 * GRID_ROOM + 4, high=400, default=84),
            Option("count", "Corners", kind="number", low=1, high=20, default=5),
            Group("corners", "C", "count", (
                Option("at", "starts at", kind="number", low=1, high=399, default=10),
                Option("length", "length", kind="number", low=1, high=12, default=3),
                Option("stops", "stops", kind="number", low=1, high=3, default=1))),
            Option("pit", "Pit entry", kind="number", low=1, high=399, default=76),
            Option("rain", "Rain: 1 to", kind="number", low=1, high=18, default=8),
            Option("changeable", "Changeable to", kind="number", low=2, high=19, default=14),
        ),
        build=described, suggest=_suggest)


DESCRIBE = _describe()
"""Setup's "Describe a circuit": the lap's length along a lane, then each corner (its first
space from the line, its length, its stops), the pit entry and the weather chart."""
