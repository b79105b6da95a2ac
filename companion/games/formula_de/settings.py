"""A race's settings from the data file and the wizard's answers, checked once: the
circuit, the gear dice's true faces, the standard car's wear points, the points table
and the options. An owner's broken data is a DataError naming the key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from companion.games.formula_de import circuit as board
from companion.games.formula_de import tables as T
from companion.games.formula_de.circuit import Circuit, load
from companion.kit.errors import DataError, RuleError


@dataclass(frozen=True)
class Settings:
    circuit: Circuit
    laps: int
    faces: tuple[tuple[int, ...], ...]      # faces[g - 1]: the true faces of gear g's die
    black: tuple[int, ...]
    standard: tuple[int, ...]               # the standard car's WP per zone (tables.ZONES)
    points: tuple[int, ...]
    points_note: str
    weather: str                            # "roll", "good", "changeable" or "rain"
    team: bool
    wear_note: str
    grid: str = "dice"                       # "dice" (black die) or "stopwatch" (qualifying)
    road: bool = False                       # a road race (drivers, nitro, no pits)
    drivers: tuple[tuple[str, tuple[int, ...], str], ...] = ()   # road race: (name, WP, skill)
    drivers_note: str = ""

    def top(self, gear: int) -> int:
        return max(self.faces[gear - 1])


def _faces(data: Mapping[str, Any], die: str, keys: tuple) -> tuple[int, ...]:
    faces = data.get("dice", {}).get(die, {}).get("faces") if isinstance(data.get("dice"), Mapping) else None
    if (not isinstance(faces, list) or not faces
            or not all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 40 for f in faces)):
        raise DataError(keys, f"the {die} die needs numeric faces from 1 to 40, not {faces!r}")
    return tuple(faces)


def gear_faces(data: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
    out = []
    for g in T.GEARS:
        faces = _faces(data, f"gear-{g}", ("dice", f"gear-{g}", "faces"))
        out.append(faces)
    for g in range(1, 6):
        if max(out[g - 1]) >= max(out[g]):
            raise DataError(("dice", f"gear-{g + 1}", "faces"), f"gear {g + 1} must go further than gear {g}")
    return tuple(out)


def standard_wear(data: Mapping[str, Any]) -> tuple[tuple[int, ...], str]:
    car = data.get("cars", {}).get("standard") if isinstance(data.get("cars"), Mapping) else None
    keys = ("cars", "standard", "wear")
    if not isinstance(car, Mapping) or not isinstance(car.get("wear"), Mapping):
        raise DataError(keys, "missing", "e.g. wear = { tires = 6, brakes = 3, gearbox = 3, body = 3, engine = 3, handling = 2 }")
    wear = car["wear"]
    out = []
    for zone in T.ZONES:
        v = wear.get(zone)
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 30:
            raise DataError(keys + (zone,), f"must be a whole number of WP from 1 to 30, not {v!r}")
        out.append(v)
    unknown = set(wear) - set(T.ZONES)
    if unknown:
        raise DataError(keys + (sorted(unknown)[0],), "unknown zone", f"use: {', '.join(T.ZONES)}")
    return tuple(out), str(car.get("assumption", ""))


def road_drivers(data: Mapping[str, Any]) -> tuple[tuple[tuple[str, tuple[int, ...], str], ...], str]:
    """The road-race drivers of the data: (name, WP per zone, skill), in the file's order."""
    drivers = data.get("drivers", {})
    if not isinstance(drivers, Mapping):
        raise DataError(("drivers",), "must be a table of drivers", "e.g. [drivers.julien]")
    out, note = [], ""
    for key, d in drivers.items():
        keys = ("drivers", key)
        if not isinstance(d, Mapping):
            raise DataError(keys, "must be a table with label, wear and skill")
        skill = d.get("skill")
        if skill not in T.SKILLS:
            raise DataError(keys + ("skill",), f"unknown skill {skill!r}", f"use one of: {', '.join(T.SKILLS)}")
        wear = d.get("wear")
        if not isinstance(wear, Mapping) or set(wear) != set(T.ZONES):
            raise DataError(keys + ("wear",), "must give the WP of every zone", f"zones: {', '.join(T.ZONES)}")
        wp = []
        for zone in T.ZONES:
            v = wear[zone]
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 30:
                raise DataError(keys + ("wear", zone), f"must be a whole number of WP from 1 to 30, not {v!r}")
            wp.append(v)
        out.append((str(d.get("label", key)), tuple(wp), str(skill)))
        note = note or str(d.get("assumption", ""))
    return tuple(out), note


def check(data: Mapping[str, Any]) -> None:
    """The whole data file checked (the Activity's ``check_data``): every circuit, the
    dice, the standard car and the road-race drivers."""
    board.check(data)
    gear_faces(data)
    _faces(data, "black", ("dice", "black", "faces"))
    standard_wear(data)
    road_drivers(data)


def build(options: Mapping[str, Any], data: Mapping[str, Any]) -> Settings:
    circuits = data.get("circuits")
    first = next(iter(circuits)) if isinstance(circuits, Mapping) and circuits else "default"
    road = options.get("race") == "road"
    key = str(options.get("circuit") or ("road" if road else first))
    if isinstance(circuits, Mapping) and key not in circuits:
        raise RuleError(f"no circuit {key!r} in the data; circuits: {', '.join(circuits)}")
    circuit = load(data, key)
    laps = options.get("laps", 2)
    if laps not in (2, 3):
        raise RuleError(f"Formula Dé races are 2 or 3 laps, not {laps!r}")
    weather = str(options.get("weather", "roll"))
    if weather not in ("roll", "good", "changeable", "rain"):
        raise RuleError(f"unknown weather {weather!r}")
    points = data.get("points", {}).get("race", {}) if isinstance(data.get("points"), Mapping) else {}
    standard, note = standard_wear(data)
    drivers, drivers_note = road_drivers(data)
    if road and not drivers:
        raise RuleError("a road race needs drivers: add [drivers.<id>] tables to the data")
    return Settings(circuit=circuit, laps=laps, faces=gear_faces(data),
                    black=_faces(data, "black", ("dice", "black", "faces")), standard=standard,
                    points=tuple(points.get("positions", T.TEAM_POINTS)),
                    points_note=str(points.get("assumption", "")), weather=weather,
                    team=bool(options.get("team", False)), wear_note=note,
                    grid="stopwatch" if options.get("grid") == "stopwatch" else "dice",
                    road=road, drivers=drivers, drivers_note=drivers_note)
