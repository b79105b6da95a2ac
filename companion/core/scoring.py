"""Points: a race's standings from a points table, and a championship over several races.

A points table is a ``[points.<id>]`` table of a game's data file, as a dict::

    {"label": "Race points", "positions": [12, 11, 10, ...],
     "bonus": {"win": 3, "laps_led": 1, "most_laps_led": 1}}

``positions[0]`` is the winner's points; positions past the end of the list score 0.
``bonus`` is optional; its names are the keys of :data:`BONUSES`.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

BONUSES: dict[str, str] = {
    "win": "won the race",
    "laps_led": "led a lap",
    "most_laps_led": "most laps led",
    "fastest_lap": "fastest lap",
}
"""Bonus name -> what earns it (the words a receipt prints):

- ``win``: the winner.
- ``laps_led``: every car that led at least one lap (entry key ``laps_led`` > 0).
- ``most_laps_led``: every car with the most laps led, all of them on a tie (none if
  nobody led a lap).
- ``fastest_lap``: every entry with ``fastest_lap`` true.
"""


class ScoringError(ValueError):
    """A points table or a race entry that cannot be scored; ``str()`` is one line."""


def check_table(table: Mapping[str, Any], where: str = "points") -> None:
    """Raise ScoringError (naming ``where``) unless ``table`` follows the points schema."""
    positions = table.get("positions")
    if not isinstance(positions, list) or not all(_is_points(p) for p in positions):
        raise ScoringError(f"{where}.positions must be a list of whole points, "
                           f"like [10, 8, 6], not {positions!r}")
    bonus = table.get("bonus", {})
    if not isinstance(bonus, Mapping):
        raise ScoringError(f"{where}.bonus must be a table like {{ laps_led = 1 }}, not {bonus!r}")
    for name, points in bonus.items():
        if name not in BONUSES:
            raise ScoringError(f"{where}.bonus: unknown bonus '{name}'; known: {', '.join(BONUSES)}")
        if not _is_points(points):
            raise ScoringError(f"{where}.bonus.{name} must be whole points, not {points!r}")


def _is_points(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def position_points(table: Mapping[str, Any], position: int) -> int:
    """Points for finishing ``position`` (1 = winner); 0 past the end of the table."""
    positions = table["positions"]
    return positions[position - 1] if 1 <= position <= len(positions) else 0


def bonuses(table: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> list[dict[str, int]]:
    """For each entry (in finishing order), the bonuses it earns: {bonus name: points}."""
    bonus = table.get("bonus", {})
    most = max((e.get("laps_led", 0) for e in entries), default=0)
    earned = {
        "win": lambda pos, e: pos == 1,
        "laps_led": lambda pos, e: e.get("laps_led", 0) > 0,
        "most_laps_led": lambda pos, e: most > 0 and e.get("laps_led", 0) == most,
        "fastest_lap": lambda pos, e: bool(e.get("fastest_lap")),
    }
    return [{name: pts for name, pts in bonus.items() if pts and earned[name](pos, e)}
            for pos, e in enumerate(entries, start=1)]


def standings(entries: Sequence[Mapping[str, Any]], table: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Score one race.

    ``entries`` are in finishing order (winner first); each needs ``name`` and may carry
    ``laps_led`` and ``fastest_lap`` for the bonuses, and any other keys (colour, laps, ...),
    which are passed through. Returns one dict per entry with the entry's keys plus
    ``position`` (1-based), ``position_points``, ``bonus`` ({name: points}) and ``points``
    (their sum). Without a ``table`` every car scores 0.
    """
    if table is not None:
        check_table(table)
    earned = bonuses(table, entries) if table is not None else [{} for _ in entries]
    out = []
    for pos, (entry, bonus) in enumerate(zip(entries, earned), start=1):
        if not entry.get("name"):
            raise ScoringError(f"race entry {pos} has no name")
        base = position_points(table, pos) if table is not None else 0
        out.append({**entry, "position": pos, "position_points": base, "bonus": bonus,
                    "points": base + sum(bonus.values())})
    return out


def championship(races: Iterable[Sequence[Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """Cumulative standings over ``races`` (each a list from :func:`standings`, oldest first;
    an entry without ``position`` takes its place in its list).

    Order: most points; ties are broken by best finishes (more wins, then more second
    places, and so on); a tie that remains goes to the better result in the latest race,
    then the race before it; names first seen earlier come first only when all of that is
    equal. Returns one dict per name: ``position``, ``name``, ``points``, ``races`` (races
    entered), ``wins``, ``best`` (best position) and ``results`` (position in each race,
    None where the car did not start), plus ``colour`` and ``player`` (who drives the car)
    when the entries carried them.
    """
    races = [list(r) for r in races]
    table: dict[str, dict[str, Any]] = {}
    for k, race in enumerate(races):
        for place, entry in enumerate(race, start=1):
            row = table.setdefault(entry["name"], {"name": entry["name"], "points": 0,
                                                   "results": [None] * len(races)})
            for key in ("colour", "player"):
                if key in entry:
                    row.setdefault(key, entry[key])
            row["points"] += entry.get("points", 0)
            row["results"][k] = entry.get("position", place)
    deepest = max((p for row in table.values() for p in row["results"] if p), default=0)
    never = deepest + 1

    def key(row: dict[str, Any]) -> tuple:
        finishes = [p for p in row["results"] if p]
        countback = tuple(-finishes.count(p) for p in range(1, deepest + 1))
        latest = tuple(p or never for p in reversed(row["results"]))
        return (-row["points"], countback, latest)

    ordered = sorted(table.values(), key=key)   # stable: first seen wins a full tie
    out = []
    for pos, row in enumerate(ordered, start=1):
        finishes = [p for p in row["results"] if p]
        out.append({**row, "position": pos, "results": tuple(row["results"]),
                    "races": len(finishes), "wins": finishes.count(1),
                    "best": min(finishes) if finishes else None})
    return out


def session_races(entries: Sequence[Mapping[str, Any]]) -> list[list[dict[str, Any]]]:
    """A finished session's championship entries as the races it held, oldest first.

    A session is one race, unless it played a season of its own (Lacorsa's championship,
    several races in one session): then every entry carries ``season``, one item per race
    of that season, ``{"position": p, "points": n}`` (None where the car did not start),
    the same number of items for every entry, their points adding up to the entry's
    ``points``. Each race is then its entries in finishing order (``name``, ``position``,
    ``points``, and ``colour`` and ``player`` when the entry has them), so that :func:`championship`
    counts, charts and breaks ties over the season's races rather than its totals. Entries
    whose ``season`` does not add up are kept as one race.
    """
    entries = [dict(e) for e in entries]
    seasons = [e.get("season") for e in entries]
    if not entries or not all(isinstance(s, (list, tuple)) and s for s in seasons) \
            or len({len(s) for s in seasons}) != 1 or not all(_adds_up(e, s) for e, s in zip(entries, seasons)):
        return [entries]
    races: list[list[dict[str, Any]]] = []
    for k in range(len(seasons[0])):
        race = [{"name": e["name"], "position": s[k]["position"], "points": s[k].get("points", 0),
                 **{key: e[key] for key in ("colour", "player") if key in e}}
                for e, s in zip(entries, seasons) if s[k] is not None]
        races.append(sorted(race, key=lambda r: r["position"]))
    return races


def _adds_up(entry: Mapping[str, Any], season: Sequence[Any]) -> bool:
    races = [r for r in season if r is not None]
    return all(isinstance(r, Mapping) and isinstance(r.get("position"), int) and _is_points(r.get("points", 0))
               for r in races) and sum(r.get("points", 0) for r in races) == entry.get("points", 0)


def ranked(rows: Iterable[Mapping[str, Any]], key: str = "points") -> list[dict[str, Any]]:
    """``rows`` best first by ``key`` (most first; a tie keeps the rows' order), each with
    its ``position``: tied rows share one (1, 2, 2, 4)."""
    out = sorted((dict(r) for r in rows), key=lambda r: -r[key])
    for i, r in enumerate(out):
        r["position"] = out[i - 1]["position"] if i and r[key] == out[i - 1][key] else i + 1
    return out


def player_totals(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each player's points over the cars they run (a row's ``player``, else its name),
    best first (``position``, ``name``, ``points``); empty when every player runs one car
    (the cars' rows say it all)."""
    rows = list(rows)
    totals: dict[str, int] = {}
    for r in rows:
        who = str(r.get("player") or r["name"])
        totals[who] = totals.get(who, 0) + int(r["points"])
    if len(totals) == len(rows):
        return []
    return ranked({"name": name, "points": pts} for name, pts in totals.items())
