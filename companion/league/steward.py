"""The steward: the club's changes made (a race voided, moved, corrected, penalised; a season
started, renamed or set) and taken back, each one club event with a ``ref`` of its own
(``league.corrections`` says what they are and how the races count with them). Every
function checks first and writes one event or nothing; ``CorrectionError`` says why not."""

from __future__ import annotations

from typing import Any

from companion.core.journal import Journal, Session, random_uuid
from companion.core.names import ordinal
from companion.league import corrections, ledger, seasons

CorrectionError = corrections.CorrectionError


def _write(journal: Journal, event: dict[str, Any]) -> dict[str, Any]:
    if journal.read_only:
        raise CorrectionError("the journal is read-only here: a change is written to it; nothing was changed")
    made = {**event, "ref": random_uuid()}
    journal.add_club_event(made)
    return made


def _reason(text: str | None, needed: bool) -> str:
    text = " ".join(str(text or "").split())
    if needed and not text:
        raise CorrectionError("say why: --reason TEXT")
    if len(text) > corrections.MAX_REASON:
        raise CorrectionError(f"a reason has at most {corrections.MAX_REASON} characters")
    return text


def _rid(journal: Journal, session: Session) -> str:
    return ledger.race_id(session, journal.race_ids())


def void(journal: Journal, session: Session, reason: str) -> dict[str, Any]:
    c = corrections.of(journal, session)
    if c is not None and c.void is not None:
        raise CorrectionError("that race is voided already")
    return _write(journal, {"kind": "void", "race": _rid(journal, session), "reason": _reason(reason, True)})


def unvoid(journal: Journal, session: Session) -> dict[str, Any]:
    c = corrections.of(journal, session)
    if c is None or c.void is None:
        raise CorrectionError("that race is not voided")
    _room(seasons.season_of(journal, session), session)
    return _write(journal, {"kind": "unvoid", "race": _rid(journal, session)})


def move(journal: Journal, session: Session, season: str) -> dict[str, Any]:
    """Count ``session`` in season ``season`` of its game (which must be there)."""
    game = ledger.key_of(session) or session.activity
    try:
        target = seasons.find(journal, game, season)
    except seasons.SeasonError as exc:
        raise CorrectionError(str(exc)) from None
    if seasons.season_of(journal, session).name == target.name:
        raise CorrectionError(f"that race counts in season {target.name} already")
    _room(target, session)
    return _write(journal, {"kind": "move", "race": _rid(journal, session), "season": target.name})


def _room(season: seasons.Season, session: Session) -> None:
    """Refuse to count ``session`` in ``season`` when a season of a set number of races has no room."""
    if season.races and season.held() + len(ledger.session_races(session)) > season.races:
        raise CorrectionError(f"season {season.name} has {season.races} races and holds {season.held()}: no room "
                              f"(`companion season set {season.name} --races N` first)")


def _now(journal: Journal, session: Session) -> list[dict[str, Any]]:
    return corrections.corrected(session, corrections.of(journal, session)).results["standings"]


def correct_place(journal: Journal, session: Session, name: str, place: int, reason: str = "") -> dict[str, Any]:
    if len(ledger.session_races(session)) > 1:
        raise CorrectionError("that session played several races (a season of its own): its places cannot be "
                              "corrected one by one; void it instead")
    rows = _now(journal, session)
    row = corrections.row_of(rows, name.strip())
    if row is None:
        raise CorrectionError(f"no '{name}' in that race; it has {', '.join(str(r['name']) for r in rows)}")
    if not 1 <= place <= len(rows):
        raise CorrectionError(f"a place of that race is 1 to {len(rows)}, not {place}")
    if rows.index(row) + 1 == place:
        raise CorrectionError(f"{row['name']} is {ordinal(place)} already")
    return _write(journal, {"kind": "correct", "race": _rid(journal, session), "place": [str(row["name"]), place],
                            "reason": _reason(reason, False)})


def correct_name(journal: Journal, session: Session, old: str, new: str, reason: str = "") -> dict[str, Any]:
    rows = _now(journal, session)
    row = corrections.row_of(rows, old.strip())
    new = " ".join(new.split())
    if row is None:
        raise CorrectionError(f"no '{old}' in that race; it has {', '.join(str(r['name']) for r in rows)}")
    if not new or len(new) > 40:
        raise CorrectionError("a driver's name has 1 to 40 characters")
    if corrections.row_of(rows, new) is not None and new.casefold() != old.strip().casefold():
        raise CorrectionError(f"'{new}' is in that race already")
    return _write(journal, {"kind": "correct", "race": _rid(journal, session), "rename": [str(row["name"]), new],
                            "reason": _reason(reason, False)})


def penalty(journal: Journal, session: Session, name: str, points: int, reason: str) -> dict[str, Any]:
    row = corrections.row_of(_now(journal, session), name.strip())
    if row is None:
        raise CorrectionError(f"no '{name}' in that race; it has "
                              f"{', '.join(str(r['name']) for r in _now(journal, session))}")
    if not points or abs(points) > corrections.MAX_PENALTY:
        raise CorrectionError(f"a penalty is 1 to {corrections.MAX_PENALTY} points (negative: given back), not {points}")
    return _write(journal, {"kind": "penalty", "race": _rid(journal, session), "name": str(row["name"]),
                            "points": points, "reason": _reason(reason, True)})


def rename_season(journal: Journal, game: str, old: str, new: str) -> dict[str, Any]:
    try:
        season = seasons.find(journal, game, old)
        new = seasons.check_name(new)
    except seasons.SeasonError as exc:
        raise CorrectionError(str(exc)) from None
    if any(s.name.casefold() == new.casefold() and s is not season for s in seasons.seasons(journal, game)):
        raise CorrectionError(f"{ledger.title(game)} has a season called '{new}' already")
    if season.name == new:
        raise CorrectionError(f"the season is called '{new}' already")
    return _write(journal, {"kind": "season-rename", "game": game, "from": season.name, "to": new})


def set_season(journal: Journal, game: str, name: str, races: int | None = None, drop: int | None = None,
               open_ended: bool = False) -> dict[str, Any]:
    """Set season ``name``'s race count (``open_ended``: none) and drop; never fewer races
    than it holds."""
    try:
        season = seasons.find(journal, game, name)
    except seasons.SeasonError as exc:
        raise CorrectionError(str(exc)) from None
    races = None if open_ended else (season.races if races is None else races)
    drop = season.drop if drop is None else drop
    if races is not None and not 1 <= races <= seasons.MAX_RACES:
        raise CorrectionError(f"a season has 1 to {seasons.MAX_RACES} races (or no set number), not {races}")
    if races is not None and races < season.held():
        raise CorrectionError(f"season {season.name} holds {season.held()} races already: it cannot be set to {races}")
    if not (0 <= drop <= seasons.MAX_DROP) or (races and drop >= races):
        raise CorrectionError(f"cannot drop {drop} results of a season of {races or 'open'} races")
    if (races, drop) == (season.races, season.drop):
        raise CorrectionError(f"season {season.name} has those settings already")
    return _write(journal, {"kind": "season-set", "game": game, "name": season.name, "races": races, "drop": drop})


def new_season(journal: Journal, game: str, name: str, races: int | None = None, drop: int = 0) -> dict[str, Any]:
    """Start season ``name`` of ``game`` by hand (a change that can be taken back)."""
    try:
        event = seasons.season_event(journal, game, name, races=races, drop=drop)
    except seasons.SeasonError as exc:
        raise CorrectionError(str(exc)) from None
    return _write(journal, event)


def last_change(journal: Journal) -> dict[str, Any] | None:
    """The newest change that stands (what :func:`undo` would take back), or None."""
    standing = corrections.live(journal.club_events())
    return standing[-1] if standing else None


def undo(journal: Journal) -> dict[str, Any]:
    """Take back the newest change that stands; returns it."""
    last = last_change(journal)
    if last is None:
        raise CorrectionError("no change to take back")
    undo = {"kind": "undo", "of": last["ref"]}
    full = seasons.overfull(journal, [*journal.club_events(), undo])
    if full is not None:
        raise CorrectionError(f"taking back {describe(last)} would leave season {full.name} holding {full.held()} "
                              f"races of its {full.races}: set it to more first (companion season set)")
    _write(journal, undo)
    return last


def describe(change: dict[str, Any]) -> str:
    """A change in words: ``void of race 3f2a9c1e``, ``season Cup renamed Winter Cup``."""
    kind = change.get("kind")
    if kind == "season":
        return f"season {change.get('name')} started"
    if kind == "season-rename":
        return f"season {change.get('from')} renamed {change.get('to')}"
    if kind == "season-set":
        return f"season {change.get('name')} set to {change.get('races') or 'open'} races, drop {change.get('drop')}"
    race = str(change.get("race", ""))[:8]
    what = {"void": "void", "unvoid": "unvoid", "move": f"move to season {change.get('season')}",
            "penalty": f"penalty {change.get('name')} {change.get('points')}"}.get(str(kind))
    if what is None:
        what = (f"{change['place'][0]} to {ordinal(int(change['place'][1]))}" if change.get("place")
                else f"{change.get('rename', ['?', '?'])[0]} to {change.get('rename', ['?', '?'])[1]}")
    return f"{what} of race {race}"


# -- the page's plain data -------------------------------------------------------------

def season_corrections(journal: Journal, game: str, name: str) -> list[dict[str, Any]]:
    """Every change that stands to the races of season ``name`` of ``game`` (voids,
    corrections, penalties, races moved in), as plain data for a page or a script, in the
    order the races finished; a race never changed is not listed::

        {"race": "<race id>", "number": 3 (in the season; None: voided), "started": 1764...,
         "winner": "Ann" (as corrected), "voided": False,
         "changes": [{"kind": "place", "name": "Ann", "from": 3, "to": 2, "reason": "steward"},
                     {"kind": "penalty", "name": "Bob", "points": 3, "reason": "jump start"}, ...],
         "notes": ["corrected: Ann 3rd → 2nd (steward)", "penalty: Bob -3 pts (jump start)"]}

    ``kind`` is "void" (``reason``), "moved" (``to``: this season), "place" (``name``,
    ``from``, ``to``), "name" (``from``, ``to``) or "penalty" (``name``, ``points``: taken,
    negative given back, ``reason``). SeasonError when there is no such season."""
    season = seasons.find(journal, game, name)
    ids = journal.race_ids()
    raw = {s.id: s for s in journal.finished_sessions()}
    voided = {s.id for s in season.voided}
    number, out = 0, []
    for s in sorted([*season.sessions, *season.voided], key=ledger.finish_order):
        if s.id not in voided:
            number += 1
        c = corrections.changes(journal).get(ledger.race_id(s, ids))
        if c is None:
            continue
        said = corrections.noted(raw.get(s.id, s), c)
        standings = s.results["standings"]
        out.append({"race": ledger.race_id(s, ids), "number": None if s.id in voided else number,
                    "started": s.started, "winner": str(standings[0]["name"]) if standings else None,
                    "voided": s.id in voided, "changes": said, "notes": [corrections.words(n) for n in said]})
    return out
