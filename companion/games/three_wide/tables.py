"""3-Wide's data as the rules read it: the race, the track, the tactic deck, the marker
pool, the car, the pit stops. ``settings(options, data)`` checks everything it reads and
raises :class:`~companion.kit.errors.DataError` (naming the key) for anything unusable, so
setup never trips over an owner's override."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from companion.kit.errors import DataError, RuleError

TIRES = ("black", "green", "yellow", "red")
"""Tire chips from new to worn out; a chip's wear is its index."""
MARKERS = ("Brake", "Engine", "Slingshot", "Incident", "Bump", "Tire", "3-Str", "3-Crn")
FLAGS = ("green", "yellow")
DECK_KINDS = ("short-track", "intermediate", "superspeedway")
EFFECTS = ("move", "move-now", "push", "bump-draft", "draft-front", "draft-behind", "block", "bump-and-run",
           "slingshot", "debris")
SHORT_CHARS = 8
SKILLS = ("experience", "fast-pit", "great-save", "major-repair", "quick-fix")
SKILL_NAMES = {"experience": "Experience", "fast-pit": "Fast Pit Stop", "great-save": "Great Save",
               "major-repair": "Major Repair", "quick-fix": "Quick Fix"}
HAND = 5          # cards in a hand on the first turn and on restarts (2.2)


@dataclass(frozen=True)
class Card:
    """One tactic card: its name and tactic number, the yellow trigger box (markers it
    triggers) and the red resolution box (flag, cars involved, damage each)."""
    name: str
    number: int
    move: int
    trigger: tuple[str, ...]
    flag: str
    cars: int
    damage: int
    effect: str = ""
    short: str = ""


@dataclass(frozen=True)
class Stop:
    id: str
    label: str
    tires: int
    fuel: int
    adjust: int
    time: int


@dataclass(frozen=True)
class Settings:
    race: str
    race_label: str
    track_label: str
    laps: int
    rows: int
    corners: frozenset[int]              # corner rows
    brakes: tuple[tuple[int, int], ...]  # (space, speed limit)
    pace: tuple[tuple[int, int, int], ...]   # d6 row -> (fuel, tires, laps)
    deck: tuple[Card, ...]               # the race's 63 cards, in data order
    pool: tuple[tuple[str, int], ...]    # marker -> how many exist
    tank: int
    stops: tuple[Stop, ...]
    extra_time: int
    stuck_attempts: int
    dice: tuple[tuple[str, ...], ...]    # faces of the black, green, yellow, red tire die
    costs: tuple[tuple[str, int], ...] = ()   # skill -> points
    fast_pit: int = 2
    major_time: int = 16

    @property
    def spaces(self) -> int:
        return self.rows * 3

    def limit(self, marker: str) -> int:
        return dict(self.pool).get(marker, 0)

    def stop(self, stop_id: str) -> Stop:
        for s in self.stops:
            if s.id == stop_id:
                return s
        raise RuleError(f"no pit stop '{stop_id}'")


def _int(value: Any, keys: tuple, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DataError(keys, f"must be a whole number from {low} to {high}, not {value!r}", what)
    return value


def _table(data: Mapping[str, Any], keys: tuple) -> Mapping[str, Any]:
    node: Any = data
    for k in keys:
        if not isinstance(node, Mapping) or k not in node:
            raise DataError(keys, "is missing", "restore it from the built-in data.toml")
        node = node[k]
    if not isinstance(node, Mapping):
        raise DataError(keys, f"must be a table, not {node!r}")
    return node


def races(data: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """(id, label) of every race the data describes."""
    table = data.get("races")
    if not isinstance(table, Mapping):
        return ()
    return tuple((k, str(v.get("label", k)) if isinstance(v, Mapping) else k) for k, v in table.items())


def track_of(data: Mapping[str, Any], track_id: str) -> tuple[int, frozenset[int], str]:
    keys = ("tracks", track_id)
    track = _table(data, keys)
    rows = _int(track.get("rows"), keys + ("rows",), 6, 60, "rows of three spaces")
    corners = track.get("corners", [])
    if not isinstance(corners, list):
        raise DataError(keys + ("corners",), "must be a list of [first, last] rows")
    out: set[int] = set()
    for i, pair in enumerate(corners):
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < rows for x in pair)
                or pair[0] > pair[1]):
            raise DataError(keys + ("corners", str(i)), f"must be [first, last] rows from 0 to {rows - 1}, not {pair!r}")
        out.update(range(pair[0], pair[1] + 1))
    return rows, frozenset(out), str(track.get("label", track_id))


def _boxes(data: Mapping[str, Any]) -> tuple[list, list]:
    keys = ("tactic_boxes",)
    boxes = _table(data, keys)
    triggers, resolutions = boxes.get("triggers"), boxes.get("resolutions")
    if not isinstance(triggers, list) or not triggers:
        raise DataError(keys + ("triggers",), "must be a non-empty list of marker lists")
    for i, t in enumerate(triggers):
        if not isinstance(t, list) or any(m not in MARKERS for m in t):
            raise DataError(keys + ("triggers", str(i)), f"must list markers among {', '.join(MARKERS)}, not {t!r}")
    if not isinstance(resolutions, list) or not resolutions:
        raise DataError(keys + ("resolutions",), "must be a non-empty list of {flag, cars, damage}")
    for i, r in enumerate(resolutions):
        _resolution(r, keys + ("resolutions", str(i)))
    return triggers, resolutions


def _resolution(r: Any, keys: tuple) -> tuple[str, int, int]:
    if not isinstance(r, Mapping):
        raise DataError(keys, "must be a table { flag, cars, damage }")
    if r.get("flag") not in FLAGS:
        raise DataError(keys + ("flag",), f"must be green or yellow, not {r.get('flag')!r}")
    return (r["flag"], _int(r.get("cars"), keys + ("cars",), 1, 12, "cars in the wreck"),
            _int(r.get("damage"), keys + ("damage",), 0, 5, "damage markers each"))


def deck_cards(data: Mapping[str, Any], deck_id: str) -> tuple[Card, ...]:
    """The cards of one tactic deck, each with its boxes."""
    triggers, resolutions = _boxes(data)
    keys = ("decks", deck_id)
    deck = _table(data, keys)
    cards = deck.get("cards")
    if not isinstance(cards, list):
        raise DataError(keys + ("cards",), "must be a list of cards")
    out = []
    for i, entry in enumerate(cards):
        ck = keys + ("cards", str(i))
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            raise DataError(ck, "must be a card table with a name")
        number = _int(entry.get("number"), ck + ("number",), 0, 99, "the tactic number at the top right")
        move = _int(entry.get("move", 0), ck + ("move",), 0, 9, "spaces the tactic moves")
        count = _int(entry.get("count", 1), ck + ("count",), 1, 99, "copies")
        short = entry.get("short", entry["name"])
        effect = entry.get("effect", "")
        if not isinstance(short, str) or not 0 < len(short) <= SHORT_CHARS:
            raise DataError(ck + ("short",), f"must be 1 to {SHORT_CHARS} characters, not {short!r}",
                            "the footer shows it beside the car number")
        if not isinstance(effect, str):
            raise DataError(ck + ("effect",), f"must be one of {', '.join(EFFECTS)} (or any text: the table applies it)")
        if "trigger" in entry and (not isinstance(entry["trigger"], list)
                                   or any(m not in MARKERS for m in entry["trigger"])):
            raise DataError(ck + ("trigger",), f"must list markers among {', '.join(MARKERS)}")
        for _ in range(count):
            k = len(out)
            trigger = tuple(entry.get("trigger", triggers[k % len(triggers)]))
            res = resolutions[k % len(resolutions)]
            flag, n, dmg = _resolution({**res, **{f: entry[f] for f in ("flag", "cars", "damage") if f in entry}}, ck)
            out.append(Card(entry["name"], number, move, trigger, flag, n, dmg, effect, short))
    return tuple(out)


def _faces(data: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    from companion.games.three_wide.dice import parse
    out = []
    for colour in TIRES:
        keys = ("dice", f"tire-{colour}", "faces")
        faces = data.get("dice", {}).get(f"tire-{colour}", {}).get("faces")
        if not isinstance(faces, list) or len(faces) < 1:
            raise DataError(keys, "must list the die's faces", 'e.g. ["5x", "5xs", ...]')
        for i, face in enumerate(faces):
            if parse(str(face)) is None:
                raise DataError(keys + (str(i),), f"{face!r} is not a tire face",
                                'a speed then x (wear), s (fuel) or ! (trouble): "5xs", "4!"')
        out.append(tuple(str(f) for f in faces))
    return tuple(out)


def settings(options: Mapping[str, Any], data: Mapping[str, Any]) -> Settings:
    """Everything the rules need for the chosen race, checked."""
    _numbers(data)
    ids = [k for k, _ in races(data)]
    if not ids:
        raise DataError(("races",), "no race is described", "restore [races.*] from the built-in data.toml")
    race_id = options.get("race", ids[0])
    if race_id not in ids:
        raise RuleError(f"3-Wide: no race '{race_id}'; races: {', '.join(ids)}")
    keys = ("races", race_id)
    race = _table(data, keys)
    track_id = race.get("track")
    if not isinstance(track_id, str):
        raise DataError(keys + ("track",), "must name a track", 'e.g. track = "classic-oval"')
    chosen = options.get("track") or track_id          # setup's track question: the race card's own by default
    tracks = data.get("tracks") if isinstance(data.get("tracks"), Mapping) else {}
    if chosen != track_id and chosen not in tracks:
        raise RuleError(f"3-Wide: no track '{chosen}'; tracks: {', '.join(tracks)}")
    rows, corners, track_label = track_of(data, chosen)
    length = options.get("length", "short")
    if length not in ("short", "long"):
        raise RuleError(f"3-Wide: race length must be short or long, not {length!r}")
    laps = _int(race.get(length), keys + (length,), 1, 999, "laps of the race")
    brakes = race.get("brake_zones", [])
    if not isinstance(brakes, list):
        raise DataError(keys + ("brake_zones",), "must be a list of { space, limit }")
    zones = []
    for i, z in enumerate(brakes):
        zk = keys + ("brake_zones", str(i))
        if not isinstance(z, Mapping):
            raise DataError(zk, "must be { space = .., limit = .. }")
        if chosen != track_id and isinstance(z.get("space"), int) and not 1 <= z["space"] <= rows * 3:
            raise RuleError(f"3-Wide: the race's brake zone on space {z['space']} is not on {track_label} "
                            f"({rows * 3} spaces): choose the race card's own track")
        zones.append((_int(z.get("space"), zk + ("space",), 1, rows * 3, "a track space"),
                      _int(z.get("limit"), zk + ("limit",), 1, 20, "the speed limit")))
    pace = race.get("pace")
    if not isinstance(pace, list) or len(pace) != 6:
        raise DataError(keys + ("pace",), "must have six rows, one per face of the d6", "[fuel, tires, laps] each")
    rows_ = []
    for i, p in enumerate(pace):
        if (not isinstance(p, list) or len(p) != 3
                or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 9 for x in p) or p[2] < 1):
            raise DataError(keys + ("pace", str(i)), f"must be [fuel, tires, laps] (laps at least 1), not {p!r}")
        rows_.append(tuple(p))
    kind = race.get("deck")
    if kind not in DECK_KINDS:
        raise DataError(keys + ("deck",), f"must be one of {', '.join(DECK_KINDS)}, not {kind!r}")
    deck = deck_cards(data, "tactic-standard") + deck_cards(data, f"tactic-{kind}")
    pool_table = _table(data, ("markers",))
    pool = tuple((m, _int(pool_table.get(m, 0), ("markers", m), 0, 12, "markers of this kind")) for m in MARKERS)
    car = _table(data, ("car",))
    tank = _int(car.get("tank"), ("car", "tank"), 2, 30, "fuel steps from E to F")
    pit = _table(data, ("pit",))
    stops = pit.get("stops")
    if not isinstance(stops, list) or not stops:
        raise DataError(("pit", "stops"), "must list the pit stop types")
    out_stops = []
    for i, s in enumerate(stops):
        sk = ("pit", "stops", str(i))
        if not isinstance(s, Mapping) or not isinstance(s.get("id"), str) or not isinstance(s.get("label"), str):
            raise DataError(sk, "must be { id, label, tires, fuel, adjust, time }")
        out_stops.append(Stop(s["id"], s["label"], _int(s.get("tires"), sk + ("tires",), 0, 4, "tires replaced"),
                              _int(s.get("fuel"), sk + ("fuel",), 0, 30, "fuel steps"),
                              _int(s.get("adjust"), sk + ("adjust",), 0, 3, "adjustment attempts"),
                              _int(s.get("time"), sk + ("time",), 0, 40, "time value")))
    return Settings(
        race=race_id, race_label=str(race.get("label", race_id)), track_label=track_label, laps=laps,
        rows=rows, corners=corners, brakes=tuple(zones), pace=tuple(rows_), deck=deck, pool=pool, tank=tank,
        stops=tuple(out_stops),
        extra_time=_int(pit.get("extra_adjust_time"), ("pit", "extra_adjust_time"), 0, 20, "time of an Extra Adjust"),
        stuck_attempts=_int(pit.get("stuck_attempts", 3), ("pit", "stuck_attempts"), 1, 6, "attempts"),
        dice=_faces(data),
        **_skills(data),
    )


def _skills(data: Mapping[str, Any]) -> dict[str, Any]:
    table = _table(data, ("skills",))
    costs = table.get("costs")
    if not isinstance(costs, Mapping):
        raise DataError(("skills", "costs"), "must be a table skill = points")
    out = []
    for skill in SKILLS:
        out.append((skill, _int(costs.get(skill), ("skills", "costs", skill), 1, 8, "points a token costs")))
    return {"costs": tuple(out),
            "fast_pit": _int(table.get("fast_pit", 2), ("skills", "fast_pit"), 0, 20, "time taken off"),
            "major_time": _int(table.get("major_repair_time", 16), ("skills", "major_repair_time"), 0, 40, "time")}


def _numbers(data: Mapping[str, Any]) -> None:
    car = _table(data, ("car",))
    for key in ("numbers", "associated"):
        value = car.get(key)
        if value is None:
            continue
        rows = value if key == "numbers" else [value]
        if not isinstance(value, list) or not all(isinstance(r, list) for r in rows):
            raise DataError(("car", key), "must be a list of car numbers" + (" per team" if key == "numbers" else ""),
                            "e.g. numbers = [[11, 12, 13, 14], [21, 22, 23, 24]]")
        for i, r in enumerate(rows):
            for j, n in enumerate(r):
                _int(n, ("car", key, str(i), str(j)) if key == "numbers" else ("car", key, str(j)), 0, 999,
                     "a car number")


def check(data: Mapping[str, Any]) -> None:
    """The pack's own tables, every race of them (``Activity.check_data``)."""
    for race_id, _ in races(data) or [("", "")]:
        for length in ("short", "long"):
            settings({"race": race_id, "length": length} if race_id else {}, data)



# -- choosing and describing at setup --------------------------------------------------------

def race_choices(data: Mapping[str, Any], answers: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """Setup's race question: every race of the data and the owner's files, and "Describe
    a race" (a race description card entered on the box)."""
    from companion.games.api import DESCRIBE
    return races(data) + ((DESCRIBE, "Describe a race"),)


def track_choices(data: Mapping[str, Any], answers: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """Setup's track question: the race card's own track (the default), every track of
    the data and the owner's files, and "Describe a track" (a poster measured on the box)."""
    from companion.games.api import DESCRIBE
    return (("", "As the race card"),) + _tracks(data) + ((DESCRIBE, "Describe a track"),)


def poster_choices(data: Mapping[str, Any], answers: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """A described race's track: one of the tracks of the data."""
    return _tracks(data)


def _tracks(data: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    table = data.get("tracks")
    if not isinstance(table, Mapping):
        return ()
    return tuple((k, str(v.get("label", k)) if isinstance(v, Mapping) else k) for k, v in table.items())


def described_track(answers: Mapping[str, Any], items: Mapping[str, list]) -> dict[str, Any]:
    """The [tracks.<id>] table of a poster described on the box."""
    rows = int(answers["spaces"]) // 3
    corners = []
    for i, c in enumerate(items.get("corners", [])):
        first, last = int(c["first"]), int(c["last"])
        if not 1 <= first <= last <= rows * 3:
            raise DataError(("corners",), f"corner {i + 1}: spaces {first} to {last} must be on the track "
                            f"(1 to {rows * 3}), the first no higher than the last")
        corners.append([(first - 1) // 3, (last - 1) // 3])     # the rows of those spaces (track.row)
    return {"rows": rows, "corners": corners}


def described_race(answers: Mapping[str, Any], items: Mapping[str, list]) -> dict[str, Any]:
    """The [races.<id>] table of a race description card entered on the box."""
    return {"track": str(answers["track"]), "deck": str(answers["deck"]),
            "short": int(answers["short"]), "long": int(answers["long"]),
            "brake_zones": [{"space": int(z["space"]), "limit": int(z["limit"])} for z in items.get("zones", [])],
            "pace": [[int(r["fuel"]), int(r["tires"]), int(r["laps"])] for r in items.get("pace", [])]}


def parsed_track(entry: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, list]]:
    """A saved track's answers, to change it on the box (the inverse of :func:`described_track`)."""
    corners = [{"first": int(a) * 3 + 1, "last": int(b) * 3 + 3} for a, b in entry.get("corners", [])]
    return {"spaces": int(entry["rows"]) * 3, "count": len(corners)}, {"corners": corners}


def parsed_race(entry: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, list]]:
    """A saved race card's answers, to change it on the box (the inverse of :func:`described_race`)."""
    zones = [dict(z) for z in entry.get("brake_zones", [])]
    return ({"track": entry["track"], "deck": entry["deck"], "short": entry["short"], "long": entry["long"],
             "count": len(zones)},
            {"zones": zones, "pace": [{"fuel": f, "tires": t, "laps": n} for f, t, n in entry.get("pace", [])]})


def _suggest_track(asking):
    """A corner's spaces: five rows long, after the corner before it."""
    before, here = asking.item(asking.index - 1), asking.item(asking.index)
    if asking.group == "corners" and asking.key == "first" and "last" in before:
        return int(before["last"]) + 16
    if asking.group == "corners" and asking.key == "last" and "first" in here:
        return int(here["first"]) + 14
    return None


def _track_limits(asking):
    """A corner on the track, after the corner before it, its last space after its first."""
    spaces = int(asking.answers.get("spaces", 60))
    if asking.group != "corners":
        return None
    before, here = asking.item(asking.index - 1), asking.item(asking.index)
    after = int(asking.answers.get("count", 1)) - 1 - asking.index
    low = int(before.get("last", 0)) + 1 if asking.index else 1
    if asking.key == "first":
        return low, spaces - after
    return int(here.get("first", low)), spaces - after


def _track_note(asking):
    return f"track 1-{asking.answers.get('spaces', 60)}" if asking.group == "corners" else "rows of 3 spaces"


def _describes():
    from companion.games.api import Describe, Group, Option
    track = Describe(
        table="tracks", name="My track", noun="track",
        questions=(Group("track", "Track", 1, (
                       Option("spaces", "Track spaces", kind="number", low=18, high=180, step=3, default=60),
                       Option("count", "Corners", kind="number", low=0, high=8, default=2))),
                   Group("corners", "Corner ", "count", (
                       Option("first", "From space", kind="number", low=1, high=180, default=16),
                       Option("last", "To space", kind="number", low=1, high=180, default=30)))),
        build=described_track, suggest=_suggest_track, limits=_track_limits, note=_track_note, parse=parsed_track)
    race = Describe(
        table="races", name="My race", noun="race",
        questions=(Option("track", "Track", source=poster_choices),
                   Option("deck", "Race deck", choices=tuple((k, k.replace("-", " ").capitalize()) for k in DECK_KINDS),
                          default="intermediate"),
                   Group("laps", "Laps, zones", 1, (
                       Option("short", "Short race", kind="number", low=1, high=999, default=40),
                       Option("long", "Long race", kind="number", low=1, high=999, default=80),
                       Option("count", "Brake zones", kind="number", low=0, high=13, default=0))),
                   Group("zones", "Zone ", "count", (
                       Option("space", "Space", kind="number", low=1, high=180, default=16),
                       Option("limit", "Limit", kind="number", low=1, high=20, default=7))),
                   Group("pace", "Pace ", 6, (
                       Option("fuel", "Fuel", kind="number", low=0, high=9, default=1),
                       Option("tires", "Tires", kind="number", low=0, high=9, default=1),
                       Option("laps", "Laps", kind="number", low=1, high=9, default=3)))),
        build=described_race, parse=parsed_race)
    return track, race


DESCRIBE_TRACK, DESCRIBE_RACE = _describes()
"""Setup's "Describe a track" (the poster: its spaces, each corner's first and last space) and
"Describe a race" (a race description card: track, deck, laps, brake zones, pace chart)."""
