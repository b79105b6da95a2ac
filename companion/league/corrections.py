"""A club's mistakes put right: a race voided, moved to another season, a place or a
name corrected, a penalty; a season renamed or its race count and drop set. Each is a club
event in the journal (``Journal.add_club_event``), never a rewrite of the race::

    {"kind": "void", "race": "<race id>", "reason": "test race", "ref": "<uuid>"}
    {"kind": "unvoid", "race": "<race id>", "ref": "<uuid>"}
    {"kind": "move", "race": "<race id>", "season": "Cup", "ref": "<uuid>"}
    {"kind": "correct", "race": "<race id>", "place": ["Ann", 2], "reason": "steward", "ref": "<uuid>"}
    {"kind": "correct", "race": "<race id>", "rename": ["Jon", "John"], "reason": "", "ref": "<uuid>"}
    {"kind": "penalty", "race": "<race id>", "name": "Bob", "points": 3, "reason": "...", "ref": "<uuid>"}
    {"kind": "season-rename", "game": "formula-de", "from": "2026-1", "to": "Spring", "ref": "<uuid>"}
    {"kind": "season-set", "game": "formula-de", "name": "Spring", "races": 10, "drop": 1, "ref": "<uuid>"}
    {"kind": "undo", "of": "<ref>", "ref": "<uuid>"}

``ref`` names a change on every box that holds it (an export carries a race's changes with
it, ``league.exchange``); ``undo`` takes one back. The seasons (``league.seasons``) read the
races through :func:`apply`: a voided race counts nowhere, a corrected one counts as
corrected. A place corrected re-sorts the race and scores it again from the game's points
table (its ``[points.race]``); a penalty takes points from one driver of one race.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from companion.core.journal import Journal, Session
from companion.core.names import ordinal
from companion.league import ledger

RACE_KINDS = ("void", "unvoid", "move", "correct", "penalty")
SEASON_KINDS = ("season-rename", "season-set")
KINDS = (*RACE_KINDS, *SEASON_KINDS, "season", "undo")
"""Every kind of change (``season``: a season started by hand, with a ``ref``)."""
CARRIED = ("void", "unvoid", "correct", "penalty", "undo")
"""The changes an export file carries with its races (a move is where the file puts them)."""
MAX_REASON = 80
MAX_PENALTY = 1000


class CorrectionError(ValueError):
    """A change that cannot be made; ``str()`` says why in one line, nothing was written."""


# -- which race -----------------------------------------------------------------------

def finished(journal: Journal) -> list[Session]:
    """Every finished race that has standings, voided ones too, in the order they finished."""
    return sorted((s for s in journal.finished_sessions() if s.results and s.results.get("standings")
                   and ledger.countable(s)), key=ledger.finish_order)


def find_race(journal: Journal, given: str) -> Session:
    """The finished race whose id is ``given`` or starts with it (any letter case)."""
    want = given.strip().casefold()
    if len(want) < 4:
        raise CorrectionError(f"a race is named by at least 4 characters of its id, not '{given}' "
                              f"(see `companion race list`)")
    ids = journal.race_ids()
    found = [s for s in finished(journal) if ledger.race_id(s, ids).casefold().startswith(want)]
    if not found:
        raise CorrectionError(f"no finished race with the id '{given}' (see `companion race list`)")
    if len(found) > 1:
        raise CorrectionError(f"'{given}' names {len(found)} races: "
                              f"{', '.join(ledger.race_id(s, ids)[:12] for s in found[:4])}; give more of its id")
    return found[0]


def short_ids(journal: Journal, sessions: list[Session]) -> dict[int, str]:
    """session id -> the shortest prefix (8 characters at least) of its race id that
    names it alone among every finished race."""
    ids = journal.race_ids()
    every = [ledger.race_id(s, ids).casefold() for s in finished(journal)]
    out = {}
    for s in sessions:
        rid = ledger.race_id(s, ids)
        n = 8
        while n < len(rid) and sum(r.startswith(rid[:n].casefold()) for r in every) > 1:
            n += 1
        out[s.id] = rid[:n]
    return out


# -- the changes as they stand ---------------------------------------------------------

class RaceChanges:
    """What stands of the changes to one race: ``void`` (its reason, or None), ``season``
    (moved there, or None), ``steps`` (each change to its results, oldest first)."""

    __slots__ = ("void", "season", "steps")

    def __init__(self):
        self.void: str | None = None
        self.season: str | None = None
        self.steps: list[dict[str, Any]] = []


def live(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The changes among the club's ``events`` that stand (not taken back), oldest first."""
    undone = {e.get("of") for e in events if e.get("kind") == "undo"}
    return [e for e in events if e.get("kind") in KINDS and e.get("kind") != "undo"
            and e.get("ref") is not None and e.get("ref") not in undone]


def changes(journal: Journal) -> dict[str, RaceChanges]:
    """race id -> what stands of its changes (a race never changed is not here); worked out
    once until the journal changes."""
    return journal.cached("corrections", lambda: _changes(journal.club_events()), ("club",))


def _changes(events: list[dict[str, Any]]) -> dict[str, RaceChanges]:
    out: dict[str, RaceChanges] = {}
    for e in live(events):
        if e["kind"] not in RACE_KINDS or not isinstance(e.get("race"), str):
            continue
        c = out.setdefault(e["race"], RaceChanges())
        if e["kind"] == "void":
            c.void = str(e.get("reason") or "")
        elif e["kind"] == "unvoid":
            c.void = None
        elif e["kind"] == "move":
            c.season = str(e.get("season") or "") or None
        else:
            c.steps.append(e)
    return out


def voided_by(events: list[dict[str, Any]]) -> set[str]:
    """The race ids ``events`` leave voided."""
    return {rid for rid, c in _changes(events).items() if c.void is not None}


def season_changes(journal: Journal, game: str, events: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The renames and settings of ``game``'s seasons that stand, oldest first."""
    events = journal.club_events() if events is None else events
    return [e for e in live(events) if e["kind"] in SEASON_KINDS and e.get("game") == game]


def of(journal: Journal, session: Session) -> RaceChanges | None:
    return changes(journal).get(ledger.race_id(session, journal.race_ids()))


# -- a race as it counts ---------------------------------------------------------------

def apply(journal: Journal, sessions: list[Session],
          events: list[dict[str, Any]] | None = None) -> tuple[list[Session], list[Session], dict[int, str]]:
    """``sessions`` as they count: (the counted ones, each corrected where it was; the
    voided ones; session id -> the season a race was moved to). ``events``: the club's
    events to count them with (default: the journal's)."""
    every = changes(journal) if events is None else _changes(events)
    if not every:
        return sessions, [], {}
    ids = journal.race_ids()
    counted, voided, moved = [], [], {}
    for s in sessions:
        c = every.get(ledger.race_id(s, ids))
        if c is None:
            counted.append(s)
            continue
        if c.season:
            moved[s.id] = c.season
        (voided if c.void is not None else counted).append(corrected(s, c))
    return counted, voided, moved


def corrected(session: Session, c: RaceChanges | None) -> Session:
    """``session`` with its results as its changes make them (the stored row is untouched)."""
    if c is None or not c.steps:
        return session
    results = copy.deepcopy(session.results)
    table = points_table(ledger.key_of(session) or session.activity)
    for step in c.steps:
        _step(results, step, table)
    return replace(session, results=results)


def points_table(key: str) -> dict[str, Any] | None:
    """The game's ``[points.race]`` table that scores a race of championship ``key`` (a
    tool's "laps:formula-de": Formula Dé's), or None."""
    from companion.games.data import points_tables
    game = key.partition(":")[2] or key
    try:
        return points_tables(game).get("race")
    except Exception:       # an activity this version does not know, a data file it cannot read
        return None


def _step(results: dict[str, Any], step: dict[str, Any], table: dict[str, Any] | None) -> None:
    rows = results["standings"]
    if step["kind"] == "penalty":
        row = row_of(rows, step.get("name"))
        if row is not None:
            row["points"] = int(row.get("points") or 0) - int(step.get("points") or 0)
            row["penalty"] = int(row.get("penalty") or 0) + int(step.get("points") or 0)
        return
    if isinstance(step.get("rename"), list) and len(step["rename"]) == 2:
        old, new = map(str, step["rename"])
        for row in rows:
            if str(row.get("name", "")).casefold() == old.casefold():
                row["name"] = new
        for gone in results.get("out") or []:
            if isinstance(gone, list) and gone and str(gone[0]).casefold() == old.casefold():
                gone[0] = new
        return
    if isinstance(step.get("place"), list) and len(step["place"]) == 2:
        name, place = str(step["place"][0]), int(step["place"][1])
        row = row_of(rows, name)
        if row is None or not 1 <= place <= len(rows):
            return
        earned = [int(r.get("points") or 0) for r in rows]
        rows.remove(row)
        rows.insert(place - 1, row)
        _rescore(rows, table, earned)


def row_of(rows: list[dict[str, Any]], name: Any) -> dict[str, Any] | None:
    want = str(name or "").casefold()
    return next((r for r in rows if str(r.get("name", "")).casefold() == want), None)


def _rescore(rows: list[dict[str, Any]], table: dict[str, Any] | None, earned: list[int]) -> None:
    """Number ``rows`` in their order and score each place from ``table``: the place's
    points, the bonuses a car earns whatever its place (laps led, fastest lap) kept and the
    winner's taken by the new winner; a penalty stays with its driver. Without a table
    the points of each place go to whoever holds it now."""
    for pos, row in enumerate(rows, start=1):
        if "position" in row:
            row["position"] = pos
        penalty = int(row.get("penalty") or 0)
        if table is None:
            row["points"] = earned[pos - 1]
            continue
        from companion.core.scoring import position_points
        bonus = {k: v for k, v in (row.get("bonus") or {}).items() if k != "win"} \
            if isinstance(row.get("bonus"), dict) else {}
        win = (table.get("bonus") or {}).get("win")
        if pos == 1 and win:
            bonus["win"] = win
        base = position_points(table, pos)
        if "position_points" in row:
            row["position_points"] = base
        if "bonus" in row:
            row["bonus"] = bonus
        row["points"] = base + sum(v for v in bonus.values() if isinstance(v, int)) - penalty


# -- what is said of a change ----------------------------------------------------------

def noted(session: Session, c: RaceChanges | None) -> list[dict[str, Any]]:
    """Each change of a race that stands, as plain data: ``{"kind": "void" | "moved" |
    "place" | "name" | "penalty", "name", "from", "to", "points", "reason"}`` (the fields
    that kind has), in the order they were made."""
    if c is None:
        return []
    out: list[dict[str, Any]] = [{"kind": "void", "reason": c.void}] if c.void is not None else []
    if c.season:
        out.append({"kind": "moved", "to": c.season})
    rows = copy.deepcopy(session.results["standings"])
    for step in c.steps:
        why = str(step.get("reason") or "")
        if step["kind"] == "penalty":
            out.append({"kind": "penalty", "name": step.get("name"), "points": int(step.get("points") or 0),
                        "reason": why})
        elif isinstance(step.get("rename"), list):
            out.append({"kind": "name", "name": step["rename"][0], "from": step["rename"][0],
                        "to": step["rename"][1], "reason": why})
        elif isinstance(step.get("place"), list):
            name, place = step["place"]
            was = row_of(rows, name)
            out.append({"kind": "place", "name": name, "from": rows.index(was) + 1 if was is not None else None,
                        "to": int(place), "reason": why})
        _step({"standings": rows}, step, None)
    return out


def words(change: dict[str, Any], arrow: str = "→") -> str:
    """One of :func:`noted` in words: ``voided (test race)``, ``corrected: Ann 3rd → 2nd
    (steward)``, ``penalty: Bob -3 pts (jump start)``."""
    why = f" ({change['reason']})" if change.get("reason") else ""
    kind = change["kind"]
    if kind == "void":
        return f"voided{why}"
    if kind == "moved":
        return f"moved to season {change['to']}"
    if kind == "penalty":
        p = change["points"]
        return f"penalty: {change['name']} {'-' if p >= 0 else '+'}{abs(p)} pts{why}"
    if kind == "name":
        return f"corrected: {change['from']} {arrow} {change['to']}{why}"
    was = ordinal(change["from"]) if change.get("from") else "?"
    return f"corrected: {change['name']} {was} {arrow} {ordinal(change['to'])}{why}"


def notes(session: Session, c: RaceChanges | None, arrow: str = "→") -> list[str]:
    """What a race's changes say (its receipt, ``companion results``), :func:`words` of each."""
    return [words(n, arrow) for n in noted(session, c)]


def said(journal: Journal, session: Session, arrow: str = "→") -> list[str]:
    """:func:`notes` of ``session`` as the journal's changes stand."""
    return notes(session, of(journal, session), arrow)
