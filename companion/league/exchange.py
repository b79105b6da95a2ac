"""The club's results out of the box and into another: JSON (docs/results-schema.md),
spreadsheet files, and a season's races carried from one box to another.

A race keeps its identity everywhere: the race id made when it started (a random UUID kept
with the session; ``league.seasons.race_id``). ``import_season`` adds the races of an
export file that the box does not hold yet, in one transaction, into a season of the
same game; a file from a newer companion, or one whose checksum does not match, is
refused whole and nothing changes.
"""

from __future__ import annotations

import csv
import hashlib
import json
import time
from pathlib import Path
from typing import Any

from companion.core.journal import Journal, Session, nesting as _depth
from companion.league import corrections, ledger, seasons, steward, teams

SCHEMA = 1
"""The version of every JSON form here (``companion results --json``, export files). It
goes up when a field changes meaning or goes; new fields may appear within a version."""
CHANGES_SCHEMA = 2
"""The version of an export file that carries its races' changes (``corrections``): a
companion that reads only version 1 would count those races uncorrected, so it refuses
the file and says to update."""
TEAMS_SCHEMA = 3
"""The version of an export file that carries its season's teams (``teams``): a companion
that reads only up to version 2 would drop them unsaid, so it refuses the file and says to
update. A file without teams keeps the version it had before."""
FORMAT = "race-companion-season"
MAX_FILE = 50_000_000
"""Characters an export file may have: a 200-race season of 12 cars is about 2 MB."""
LATEST = 4_102_444_800      # 2100-01-01: a race's time after this is a damaged file's
CSV_ENCODING = "utf-8-sig"
"""UTF-8 with a byte-order mark: Excel reads a CSV file without one in the computer's
legacy code page (a "Formula Dé" or a "Zoë" comes out garbled); LibreOffice, Numbers and
Google Sheets read either, and drop the mark."""


class ImportRefused(ValueError):
    """An export file that cannot be imported; ``str()`` says why, nothing was changed."""


def iso(ts: float | None) -> str | None:
    """A moment as ISO 8601 in local time with its offset: ``2026-11-27T19:05:00+01:00``."""
    from datetime import datetime
    return None if ts is None else datetime.fromtimestamp(ts).astimezone().isoformat(timespec="seconds")


def sheet_time(stamp: str | None) -> str:
    """An :func:`iso` moment as a spreadsheet reads it as a date and time with no fixing:
    ISO 8601's date and time with a space between and no offset (the box's local time):
    ``2026-11-27 19:05:00``."""
    from datetime import datetime
    return "" if not stamp else datetime.fromisoformat(stamp).strftime("%Y-%m-%d %H:%M:%S")


def _entry(e: dict[str, Any], place: int) -> dict[str, Any]:
    out = {"position": int(e.get("position", place)), "name": str(e["name"]), "points": int(e.get("points", 0) or 0)}
    for k in ("colour", "player"):
        if k in e:
            out[k] = e[k]
    return out


def race_rows(journal: Journal, season: seasons.Season, ids: dict | None = None) -> list[dict[str, Any]]:
    """The season's races as the JSON and CSV give them, oldest first: one per race (a
    session that held several gives each its own, the id ``<uuid>#2`` from its second)."""
    ids = journal.race_ids() if ids is None else ids
    out, number = [], 0
    finishes = iter(season.finishes())
    for s in season.sessions:
        held = ledger.session_races(s)
        base = seasons.race_id(s, ids)
        entries = ledger.championship_entries(s)
        for k, race in enumerate(held, start=1):
            number += 1
            if season.races and number > season.races:
                return out
            out_of, _ = next(finishes)
            ran = {str(e["name"]).casefold() for e in race}
            standings = [{**_entry(e, p), "status": "out" if str(e["name"]).casefold() in out_of else "finished"}
                         for p, e in enumerate(race, start=1)]
            standings += [{"position": None, "name": str(e["name"]), "points": 0, "status": "did not start",
                           **{f: e[f] for f in ("colour", "player") if f in e}}
                          for e in entries if str(e.get("name")).casefold() not in ran]
            cars = [str(e.get("name")).casefold() for e in (s.results or {}).get("standings") or []] \
                if len(held) == 1 else []
            out_cars = len(set(cars) & out_of) if len(cars) > len(race) else \
                sum(e["status"] == "out" for e in standings)
            out.append({"race": base if k == 1 else f"{base}#{k}", "number": number, "game": season.game,
                        "season": season.name, "activity": s.activity,
                        "started": iso(s.started), "finished": iso(s.finished),
                        "date": time.strftime("%Y-%m-%d", time.localtime(s.started)),
                        "ended_early": bool((s.results or {}).get("ended_early")),
                        "cars": max(len(cars), len(standings)), "players": len(race), "out": out_cars,
                        "standings": standings})
    return out


def season_summary(journal: Journal, season: seasons.Season) -> dict[str, Any]:
    rows = seasons.table(journal, season)
    return {"name": season.name, "game": season.game, "races": len(season.race_list()),
            "set_races": season.races, "drop": season.drop, "complete": season.complete(),
            "leader": rows[0]["name"] if rows else None,
            "out": sum(r["out"] for r in rows), "did_not_start": sum(r["did_not_start"] for r in rows)}


def season_json(journal: Journal, season: seasons.Season) -> dict[str, Any]:
    rows = seasons.table(journal, season)
    return {**season_summary(journal, season),
            "standings": [{"position": r["position"], "name": r["name"], "points": r["points"],
                           "races": r["races"], "wins": r["wins"], "best": r["best"],
                           "finished": r["finished"], "out": r["out"], "did_not_start": r["did_not_start"],
                           "results": list(r["results"]), "dropped": r["dropped"],
                           "dropped_points": r["dropped_points"]} for r in rows],
            "teams": teams.table(journal, season),
            "race_list": race_rows(journal, season),
            "changes": steward.season_corrections(journal, season.game, season.name)}


# -- spreadsheet files --------------------------------------------------------------------

RACES_HEADER = ["race", "game", "season", "number", "date", "started", "finished", "cars", "winner", "ended_early",
                "out", "did_not_start", "players"]
STANDINGS_HEADER = ["race", "game", "season", "number", "position", "name", "points", "colour", "status"]
"""``status``: ``finished``, ``out`` (did not finish: crashed, demolished) or ``did not start``."""
SEASONS_HEADER = ["game", "season", "position", "name", "points", "races", "wins", "best", "dropped", "finished",
                  "out", "did_not_start"]
TEAMS_HEADER = ["game", "season", "position", "team", "drivers", "points", "wins"]
"""``drivers``: the team's drivers joined by ``+``."""


def _cell(value: Any) -> Any:
    """A cell a spreadsheet shows as the text it is: a name such as ``=SUM(A1)`` or
    ``@home`` (from another box's file, say) is written with a leading ``'`` so it is
    never run as a formula."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def write_csv(journal: Journal, folder: str | Path) -> list[Path]:
    """``races.csv`` (one race a row), ``standings.csv`` (one car of a race a row),
    ``seasons.csv`` (each season's table) and ``teams.csv`` (each season's team standings,
    where it has teams) of every game, into ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    ids = journal.race_ids()
    races, standings, tables, team_rows = [], [], [], []
    merged = seasons.merges(journal)
    for game in seasons.games(journal):
        for season in seasons.seasons(journal, game):
            for r in race_rows(journal, season, ids):
                races.append([r["race"], ledger.title(game), season.name, r["number"], r["date"],
                              sheet_time(r["started"]), sheet_time(r["finished"]),
                              r["cars"], r["standings"][0]["name"] if r["standings"] else "",
                              "yes" if r["ended_early"] else "no",
                              r["out"], sum(e["status"] == "did not start" for e in r["standings"]), r["players"]])
                standings += [[r["race"], ledger.title(game), season.name, r["number"], e["position"] or "",
                               e["name"], e["points"], e.get("colour", ""), e["status"]] for e in r["standings"]]
            tables += [[ledger.title(game), season.name, row["position"], row["name"], row["points"], row["races"],
                        row["wins"], row["best"] or "", " ".join(map(str, row["dropped"])), row["finished"],
                        row["out"], row["did_not_start"]]
                       for row in seasons.standings(season, merged)]
            team_rows += [[ledger.title(game), season.name, t["position"], t["name"], "+".join(t["drivers"]),
                           t["points"], t["wins"]] for t in teams.table(journal, season)]
    written = []
    for name, header, rows in (("races.csv", RACES_HEADER, races), ("standings.csv", STANDINGS_HEADER, standings),
                               ("seasons.csv", SEASONS_HEADER, tables), ("teams.csv", TEAMS_HEADER, team_rows)):
        path = folder / name
        with open(path, "w", encoding=CSV_ENCODING, newline="") as fh:
            out = csv.writer(fh)
            out.writerow(header)
            out.writerows([[_cell(c) for c in row] for row in rows])
        written.append(path)
    return written


# -- one box's season into another's --------------------------------------------------

CHECKED = ("game", "season", "races", "corrections", "teams")
"""What an export file's checksum covers: everything an import uses (the game, the season's
name, race count and drop, every race's fields, and the changes to its races and the
season's teams where it has them)."""
OPTIONAL = ("corrections", "teams")
"""The :data:`CHECKED` fields a file has only when it has some: a file without them is
checked as before they were."""
MAX_DEPTH = 8
"""How deeply a race's results and options may nest (a race's standings are 4 deep)."""
MAX_TEXT = 200
"""Characters a text of a race's results or options may have (a driver's name: 40)."""
MAX_FILE_RACES = seasons.MAX_RACES
"""Races an export file may have (a season of a set number has at most as many)."""
MAX_SEASON_RACES = seasons.MAX_RACES
"""Races a season may hold once an import has added to it: its page, its driver's records and
the table screen stay within a press's time on a Pi Zero 2 W."""
MAX_CARS = 40
"""Cars (standings entries) a race of a file may have."""
MAX_NAME = 40
"""Characters a driver's name in a file may have."""
MAX_FIELDS = 64
"""Fields a dictionary of a race's results or options may have, and :data:`MAX_ITEMS` items a list."""
MAX_ITEMS = 1000
RACE_FIELDS = ("race", "activity", "options", "championship", "started", "finished", "results")
"""The fields of a race an import keeps; any other is left out."""


def _check(data: dict[str, Any]) -> str:
    """The checksum of an export file: of its :data:`CHECKED` fields."""
    body = json.dumps({k: data.get(k) for k in CHECKED if k not in OPTIONAL or k in data}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _races_only(data: dict[str, Any]) -> str:
    """The checksum older companions wrote: of the races alone."""
    body = json.dumps(data.get("races"), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _plain(value: Any, where: str) -> None:
    """Refuse a race's results or options that are not plain JSON within the bounds."""
    if _depth(value) > MAX_DEPTH:
        raise ImportRefused(f"the file is damaged: {where} nests deeper than {MAX_DEPTH} levels")
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, (dict, list)) and len(v) > (MAX_FIELDS if isinstance(v, dict) else MAX_ITEMS):
            raise ImportRefused(f"the file is damaged: {where} has more than "
                                f"{f'{MAX_FIELDS} fields' if isinstance(v, dict) else f'{MAX_ITEMS} items'} in one place")
        if isinstance(v, dict):
            if not all(isinstance(k, str) and len(k) <= MAX_TEXT for k in v):
                raise ImportRefused(f"the file is damaged: {where} has a field name that is not text of at most "
                                    f"{MAX_TEXT} characters")
            todo += v.values()
        elif isinstance(v, list):
            todo += v
        elif isinstance(v, str):
            if len(v) > MAX_TEXT:
                raise ImportRefused(f"the file is damaged: {where} has a text longer than {MAX_TEXT} characters")
        elif isinstance(v, float):
            import math
            if not math.isfinite(v):
                raise ImportRefused(f"the file is damaged: {where} has a number that is not finite")
        elif not (v is None or isinstance(v, (bool, int))):
            raise ImportRefused(f"the file is damaged: {where} has a value of an unknown kind")


def export_season(journal: Journal, game: str, name: str) -> dict[str, Any]:
    """The export file's content: season ``name`` of ``game``, its finished races as they
    were run (the voided ones too), the club's changes to them (``corrections``: a void,
    a correction, a penalty, and their undoing) and the season's declared teams (``teams``),
    so the box that imports it counts them as this one does."""
    season = seasons.find(journal, game, name)
    ids = journal.race_ids()
    raw = {s.id: s for s in journal.finished_sessions()}
    held = sorted([raw.get(s.id, s) for s in [*season.sessions, *season.voided]], key=ledger.finish_order)
    races = [{"race": seasons.race_id(s, ids), "activity": s.activity, "options": s.options,
              "championship": ledger.key_of(s), "started": s.started, "finished": s.finished,
              "results": s.results} for s in held]
    changes = carried(journal, {r["race"] for r in races})
    own = teams.declared(journal, season)
    body = {"game": game, "season": {"name": season.name, "races": season.races, "drop": season.drop},
            "races": races, **({"corrections": changes} if changes else {}), **({"teams": own} if own else {})}
    schema = TEAMS_SCHEMA if own else CHANGES_SCHEMA if changes else SCHEMA
    return {"format": FORMAT, "schema": schema, "exported": iso(time.time()), **body, "sha256": _check(body)}


def carried(journal: Journal, race_ids: set[str]) -> list[dict[str, Any]]:
    """The club's changes to ``race_ids`` an export carries, oldest first, as they were
    written (each with its ``ref``; the undoing of one too)."""
    events = [{k: v for k, v in e.items() if k not in ("id", "created")} for e in journal.club_events()
              if e.get("kind") in corrections.CARRIED and e.get("ref")]
    mine = [e for e in events if e["kind"] != "undo" and e.get("race") in race_ids]
    refs = {e["ref"] for e in mine}
    return [e for e in events if e in mine or (e["kind"] == "undo" and e.get("of") in refs)]


def read_file(path: str | Path) -> dict[str, Any]:
    """An export file read and checked whole (:func:`read_export`); ImportRefused says why
    it is refused, OSError or UnicodeDecodeError that it cannot be read. Nothing is written."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read(MAX_FILE + 1)
    if len(text) > MAX_FILE:
        raise ImportRefused(f"it is larger than a season's export can be ({MAX_FILE // 1_000_000} MB)")
    return read_export(text)


def read_export(text: str) -> dict[str, Any]:
    """An export file's content, checked whole; ImportRefused says what is wrong."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ImportRefused(f"the file is damaged: it is not whole JSON ({str(exc)[:80]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused("this is not a season exported by `companion export`")
    schema = data.get("schema")
    if not isinstance(schema, int) or schema < 1:
        raise ImportRefused("the file is damaged: it has no schema version")
    if schema > TEAMS_SCHEMA:
        raise ImportRefused(f"the file was made by a newer companion (schema {schema}; this one reads up to "
                            f"{TEAMS_SCHEMA}): update this box first")
    if _depth(data) > MAX_DEPTH + 4:
        raise ImportRefused(f"the file is damaged: it nests {_depth(data)} levels deep; a race's results and "
                            f"options may nest {MAX_DEPTH}")
    season = data.get("season")
    if not isinstance(data.get("game"), str) or not isinstance(season, dict) \
            or not isinstance(season.get("name", ""), str) or not _count(season.get("races"), none=True) \
            or not _count(season.get("drop") or 0):
        raise ImportRefused("the file is damaged: it does not say its game and season")
    races = data.get("races")
    if not isinstance(races, list) or data.get("sha256") != _check(data):
        if isinstance(races, list) and data.get("sha256") == _races_only(data):
            raise ImportRefused("the file's checksum covers its races only (an older companion's export): its "
                                "season's name, race count and drop are not checked; export it again from its box")
        raise ImportRefused("the file is damaged: its season or races do not match its checksum")
    if len(races) > MAX_FILE_RACES:
        raise ImportRefused(f"the file has {len(races)} races; a file may have at most {MAX_FILE_RACES}")
    for k, r in enumerate(races, start=1):
        if isinstance(r, dict) and isinstance(r.get("results"), dict) \
                and isinstance(r["results"].get("standings"), list) and len(r["results"]["standings"]) > MAX_CARS:
            raise ImportRefused(f"race {k} has {len(r['results']['standings'])} cars; a race may have at most {MAX_CARS}")
        ok = isinstance(r, dict) and isinstance(r.get("race"), str) and 0 < len(r["race"]) <= 80 \
            and _moment(r.get("started")) and (r.get("finished") is None or _moment(r.get("finished"))) \
            and isinstance(r.get("results"), dict) and isinstance(r["results"].get("standings"), list) \
            and all(map(_entry_ok, r["results"]["standings"])) \
            and r.get("championship") == data.get("game") and isinstance(r.get("activity"), str) \
            and isinstance(r.get("options", {}), dict)
        if not ok:
            raise ImportRefused(f"the file is damaged: race {k} is incomplete")
        _plain(r["results"], f"race {k}'s results")
        _plain(r.get("options", {}), f"race {k}'s options")
    data["races"] = [{f: r[f] for f in RACE_FIELDS if f in r} for r in races]
    data["corrections"] = _changes_ok(data.get("corrections", []), {r["race"] for r in races})
    data["teams"] = _teams_ok(data.get("teams", []))
    return data


def _teams_ok(value: Any) -> list[dict[str, Any]]:
    """The season's teams of an export file, checked whole as ``companion results --teams``
    checks them: at most :data:`teams.MAX_TEAMS`, each ``{"name", "drivers"}`` with two
    drivers or more, names within their lengths, no driver in two teams."""
    if not isinstance(value, list) or len(value) > teams.MAX_TEAMS:
        raise ImportRefused(f"the file is damaged: its teams are not a list of at most {teams.MAX_TEAMS}")
    if _depth(value) > 3:
        raise ImportRefused("the file is damaged: its teams nest deeper than a team's list of drivers")
    specs = []
    for k, t in enumerate(value, start=1):
        ok = isinstance(t, dict) and set(t) == {"name", "drivers"} and _text(t["name"], teams.MAX_TEAM_NAME) \
            and isinstance(t["drivers"], list) and 2 <= len(t["drivers"]) <= MAX_CARS \
            and all(_text(d, MAX_NAME) and not set(d) & {"+", "="} for d in t["drivers"])
        if not ok:
            raise ImportRefused(f"the file is damaged: team {k} is not a name of at most {teams.MAX_TEAM_NAME} "
                                f"characters and two drivers or more of at most {MAX_NAME}")
        specs.append(f"{t['name']}={'+'.join(t['drivers'])}")
    try:
        parsed = teams.parse(specs) if specs else []
    except teams.TeamsError as exc:
        raise ImportRefused(f"the file is damaged: its teams cannot be declared: {exc}") from None
    if parsed != value:
        raise ImportRefused("the file is damaged: its teams' names are not written as a declared team's are")
    return parsed


CHANGE_FIELDS = {"void": {"reason"}, "unvoid": set(), "correct": {"place", "rename", "reason"},
                 "penalty": {"name", "points", "reason"}, "undo": {"of"}}
"""The fields of each change a file may carry, besides ``kind``, ``ref`` and ``race``."""


def _changes_ok(changes: Any, race_ids: set[str]) -> list[dict[str, Any]]:
    """The changes of an export file, each checked in type and size: of a race of the file,
    one of :data:`corrections.CARRIED`; an undo of a change before it in the file."""
    if not isinstance(changes, list) or len(changes) > MAX_ITEMS:
        raise ImportRefused(f"the file is damaged: its corrections are not a list of at most {MAX_ITEMS}")
    refs: set[str] = set()
    for k, e in enumerate(changes, start=1):
        kind = e.get("kind") if isinstance(e, dict) else None
        if kind not in CHANGE_FIELDS or not _text(e.get("ref"), 80) \
                or set(e) - CHANGE_FIELDS[kind] - {"kind", "ref", "race"} or not _change_ok(e, race_ids, refs):
            raise ImportRefused(f"the file is damaged: correction {k} is not one this companion knows whole")
        refs.add(e["ref"])
    return changes


def _change_ok(e: dict[str, Any], race_ids: set[str], refs: set[str]) -> bool:
    kind = e["kind"]
    if kind == "undo":
        return e.get("of") in refs and "race" not in e
    if e.get("race") not in race_ids or ("reason" in e and not _text(e["reason"], corrections.MAX_REASON, empty=True)):
        return False
    if kind == "penalty":
        return _text(e.get("name"), 40) and isinstance(e.get("points"), int) and not isinstance(e["points"], bool) \
            and 0 < abs(e["points"]) <= corrections.MAX_PENALTY
    if kind == "correct":
        place, rename = e.get("place"), e.get("rename")
        if (place is None) == (rename is None):
            return False
        if place is not None:
            return isinstance(place, list) and len(place) == 2 and _text(place[0], 40) \
                and isinstance(place[1], int) and not isinstance(place[1], bool) and 1 <= place[1] <= MAX_CARS
        return isinstance(rename, list) and len(rename) == 2 and all(_text(n, 40) for n in rename)
    return True


def _text(value: Any, most: int, empty: bool = False) -> bool:
    return isinstance(value, str) and (empty or bool(value.strip())) and len(value) <= most


def _count(value: Any, none: bool = False) -> bool:
    return (none and value is None) or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 1000)


def _moment(value: Any) -> bool:
    """A race's time as the journal keeps it: seconds since 1970, before 2100."""
    import math
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) \
        and 0 <= value < LATEST


def _entry_ok(e: Any) -> bool:
    """A standings entry the championship can count: a name, and whole numbers where given."""
    return isinstance(e, dict) and isinstance(e.get("name"), str) and 0 < len(e["name"].strip()) <= MAX_NAME \
        and ("position" not in e or _count(e["position"])) \
        and (e.get("points") is None or (_count(abs(e["points"])) if isinstance(e["points"], int) else False))


def _check_room(season: seasons.Season, new: list) -> None:
    """Refuse races that would take a season of a set number of races past it (its final
    standings printed already, or to come from the box's own races)."""
    if not season.races:
        return
    held = season.held()
    adding = sum(len(ledger.session_races(session)) for session, _, _ in new)
    if held + adding > season.races:
        raise ImportRefused(f"season {season.name} has {season.races} races and holds {held}: the file's "
                            f"{adding} more would take it past them (import them into another season with "
                            f"--into NAME)")


class Plan:
    """What an import will do, said before it writes: the season the races go into (made
    here when ``start`` is its event), the races to add and how many are held already."""

    def __init__(self, game: str, into: str, start: dict | None, new: list, held: int, changes: list = (),
                 teams: dict | None = None):
        self.game, self.into, self.start, self.new, self.held = game, into, start, new, held
        self.changes = list(changes)      # the file's changes to its races this box has not
        self.teams = teams                # the club event giving the season the file's teams, when they differ

    def asks(self) -> str:
        """The question the box asks before it writes: ``2 races into season Cup (new here)?``."""
        return f"{len(self.new)} race{'' if len(self.new) == 1 else 's'} into season {self.into}" \
               f"{' (new here)' if self.start else ''}?"

    def says(self) -> str:
        made = " (a new season on this box, by the file's name)" if self.start else ""
        fixes = f", {len(self.changes)} change{'' if len(self.changes) == 1 else 's'} to races (voids, corrections, " \
                f"penalties)" if self.changes else ""
        n = len(self.teams["teams"]) if self.teams else 0
        sides = f", the season's {n} team{'' if n == 1 else 's'}" if n else ""
        return f"Into season {self.into} of {ledger.title(self.game)}{made}: {len(self.new)} new " \
               f"race{'' if len(self.new) == 1 else 's'}{fixes}{sides}"


def _check_size(held: int, new: list, name: str) -> None:
    """Refuse races that would take a season past :data:`MAX_SEASON_RACES`."""
    adding = sum(len(ledger.session_races(session)) for session, _, _ in new)
    if held + adding > MAX_SEASON_RACES:
        raise ImportRefused(f"season {name} holds {held} races: the file's {adding} more would take it past "
                            f"{MAX_SEASON_RACES}, the most a season holds (import them into another season "
                            f"with --into NAME)")


def plan_import(journal: Journal, data: dict[str, Any], into: str | None = None) -> Plan:
    """Where the races of an export file (as :func:`read_export` checked it) go: season
    ``into`` of its game when told (it must be here), else the file's own season, made here
    by its name when the box has none of that name (never this box's current season
    then, unless the game has no other). Nothing is written."""
    game = str(data["game"])
    every = seasons.named(journal, game)
    known = {s.name.casefold(): s.name for s in every}
    wanted = into or str(data["season"].get("name", ""))
    if into is not None and into.casefold() not in known:
        raise ImportRefused(f"no season '{into}' of {ledger.title(game)} here; its seasons: "
                            f"{', '.join(known.values()) or 'none yet'}")
    start = None
    if wanted.casefold() in known:
        name = known[wanted.casefold()]
    else:
        try:
            start = seasons.season_event(journal, game, wanted or None, races=data["season"].get("races"),
                                         drop=int(data["season"].get("drop") or 0), by_name=bool(every))
        except (seasons.SeasonError, TypeError, ValueError) as exc:
            raise ImportRefused(f"the file's season cannot be made here: {exc}") from None
        name = start["name"]
    ids = journal.race_ids()
    held = {seasons.race_id(s, ids) for s in journal.sessions()}
    new = []
    for r in data["races"]:
        if r["race"] in held:
            continue
        held.add(r["race"])
        new.append((Session(0, r["activity"], r.get("options") or {}, {}, game, float(r["started"]),
                            float(r.get("finished") or r["started"]), r["results"]), r["race"], name))
    kept = {e.get("ref") for e in journal.club_events()}
    changes = [e for e in data.get("corrections") or [] if e["ref"] not in kept]
    void = corrections.voided_by(data.get("corrections") or [])
    counting = [n for n in new if n[1] not in void]        # a race the file voids takes no room
    if start is None and counting:
        _check_room(seasons.find(journal, game, name), counting)
    _check_size(seasons.find(journal, game, name).held() if start is None else 0, counting, name)
    side = data.get("teams") or []
    had = [] if start is not None else teams.declared(journal, seasons.find(journal, game, name))
    event = {"kind": "teams", "game": game, "season": name, "teams": side} if side and side != had else None
    return Plan(game, name, start, new, len(data["races"]) - len(new), changes, event)


def import_season(journal: Journal, plan: Plan) -> None:
    """Write what :func:`plan_import` planned, in one transaction: the races, the changes to
    them and the season's teams where the file's differ from this box's."""
    journal.add_finished_sessions(plan.new, club_event=plan.start,
                                  changes=[*plan.changes, *([plan.teams] if plan.teams else [])])
