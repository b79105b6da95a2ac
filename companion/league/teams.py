"""Teams across a season: their standings beside the drivers'.

A season's teams are of two kinds:

- the club's own, for any game: drivers paired (or grouped) for a season, declared by a
  club event in the journal (``companion results --season NAME --teams "Ann+Bob" ...``)::

      {"kind": "teams", "game": "formula-de", "season": "2026-2",
       "teams": [{"name": "Ann+Bob", "drivers": ["Ann", "Bob"]}, ...]}

  The newest such event of a season holds (an empty list takes the teams back); the
  races are never rewritten. A team scores its drivers' season points (after the results
  each driver drops), under the names the journal's merges give.
- the game's own, where its championship counts players who each run a team of cars
  (3-Wide): each player's row of the season table is a team, its drivers the team cars
  they ran. A season with teams of the club's keeps those.
"""

from __future__ import annotations

from typing import Any

from companion.core.journal import Journal
from companion.league import corrections, ledger, seasons

MAX_TEAMS = 20
MAX_TEAM_NAME = 24
MAX_DRIVER_NAME = 40


class TeamsError(ValueError):
    """Teams that cannot be declared; ``str()`` says why in one line."""


def parse(specs: list[str]) -> list[dict[str, Any]]:
    """Teams as typed: ``Ann+Bob`` (the team called by its drivers) or ``Lions=Ann+Bob``;
    a single ``none`` (or nothing) is no teams. Raises TeamsError saying what is wrong."""
    if [s.strip().casefold() for s in specs] in ([], ["none"]):
        return []
    if len(specs) > MAX_TEAMS:
        raise TeamsError(f"a season has at most {MAX_TEAMS} teams, not {len(specs)}")
    out, taken, names = [], {}, set()
    for spec in specs:
        label, _, members = spec.rpartition("=")
        drivers = [" ".join(d.split()) for d in members.split("+")]
        if len(drivers) < 2 or not all(drivers):
            raise TeamsError(f"'{spec}' is not a team: name two drivers or more, joined by + (\"Ann+Bob\")")
        name = " ".join(label.split()) or "+".join(drivers)
        if len(name) > MAX_TEAM_NAME:
            raise TeamsError(f"a team's name has at most {MAX_TEAM_NAME} characters: '{name}' (name it: "
                             f"\"Lions={members.strip()}\")")
        if name.casefold() in names:
            raise TeamsError(f"two teams are called '{name}'")
        names.add(name.casefold())
        for d in drivers:
            if len(d) > MAX_DRIVER_NAME:
                raise TeamsError(f"a driver's name has at most {MAX_DRIVER_NAME} characters: '{d}'")
            if d.casefold() in taken:
                raise TeamsError(f"{d} is in two teams: {taken[d.casefold()]} and {name}")
            taken[d.casefold()] = name
        out.append({"name": name, "drivers": drivers})
    return out


def declare(journal: Journal, season: seasons.Season, teams: list[dict[str, Any]]) -> None:
    """Write the club event that gives ``season`` these teams (``parse``'s), [] for none."""
    journal.add_club_event({"kind": "teams", "game": season.game, "season": season.name, "teams": teams})


def declared(journal: Journal, season: seasons.Season) -> list[dict[str, Any]]:
    """The club's teams of ``season`` (the newest event's), [] when it has none."""
    found: list[dict[str, Any]] = []
    events = journal.club_events()
    names = _names_had(journal, season, events)
    for e in events:
        if e.get("kind") == "teams" and e.get("game") == season.game \
                and str(e.get("season", "")).casefold() in names and isinstance(e.get("teams"), list):
            found = [{"name": str(t["name"]), "drivers": [str(d) for d in t["drivers"]]}
                     for t in e["teams"] if isinstance(t, dict) and t.get("name") and isinstance(t.get("drivers"), list)]
    return found


def _names_had(journal: Journal, season: seasons.Season, events: list[dict[str, Any]]) -> set[str]:
    """Every name ``season`` has had (a renamed season keeps the teams declared before)."""
    names = {season.name.casefold()}
    for e in reversed(corrections.season_changes(journal, season.game, events)):
        if e["kind"] == "season-rename" and str(e.get("to", "")).casefold() in names:
            names.add(str(e.get("from", "")).casefold())
    return names


def table(journal: Journal, season: seasons.Season) -> list[dict[str, Any]]:
    """The team standings of ``season``, best first: ``position`` (a tie shares it),
    ``name``, ``drivers``, ``points``, ``wins`` (its drivers' race wins); [] for a season
    without teams."""
    return journal.cached(f"teams {season.game} {season.name}", lambda: _table(journal, season))


def _table(journal: Journal, season: seasons.Season) -> list[dict[str, Any]]:
    rows = seasons.table(journal, season)
    own = declared(journal, season)
    if own:
        merged = seasons.merges(journal)
        by_driver = {r["name"].casefold(): r for r in rows}
        made = []
        for team in own:
            members = [by_driver.get(merged.get(d.casefold(), d).casefold()) for d in team["drivers"]]
            made.append({"name": team["name"], "drivers": list(team["drivers"]),
                         "points": sum(m["points"] for m in members if m),
                         "wins": sum(m["wins"] for m in members if m)})
    elif rows and ledger.rows_are(journal, season.game) == "players":
        cars = _team_cars(season)
        made = [{"name": r["name"], "drivers": cars.get(r["name"], []), "points": r["points"], "wins": r["wins"]}
                for r in rows]
    else:
        return []
    made.sort(key=lambda t: (-t["points"], -t["wins"], t["name"].casefold()))
    for k, t in enumerate(made):
        same = k and (t["points"], t["wins"]) == (made[k - 1]["points"], made[k - 1]["wins"])
        t["position"] = made[k - 1]["position"] if same else k + 1
    return [{"position": t["position"], **{f: t[f] for f in ("name", "drivers", "points", "wins")}} for t in made]


def _team_cars(season: seasons.Season) -> dict[str, list[str]]:
    """Each player's team cars in the season's races (3-Wide: ``player`` and ``team`` of
    a car's standings entry), in the order first met."""
    out: dict[str, dict[str, None]] = {}
    for s in season.sessions:
        for e in (s.results or {}).get("standings") or []:
            if isinstance(e, dict) and e.get("player") and e.get("team") and e.get("name"):
                out.setdefault(str(e["player"]), {})[str(e["name"])] = None
    return {k: list(v) for k, v in out.items()}


def lines(rows: list[dict[str, Any]]) -> list[str]:
    """The team standings in lines of the box's screen: ``Teams``, then ``1 Ann+Bob 40``
    (a long name cut, the points kept)."""
    from companion.kit.text import ELLIPSIS, LINE_CHARS

    out = []
    for t in rows:
        head, tail = f"{t['position']} ", f" {t['points']}"
        room = LINE_CHARS - len(head) - len(tail)
        name = t["name"] if len(t["name"]) <= room else t["name"][:room - 1].rstrip() + ELLIPSIS
        out.append(head + name + tail)
    return ["Teams", *out] if out else []
