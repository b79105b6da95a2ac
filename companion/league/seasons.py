"""Seasons: every race of a game belongs to one season of that game.

A season is started by a club event in the journal (``Journal.add_club_event``)::

    {"kind": "season", "game": "formula-de", "name": "2026-2", "races": 8, "drop": 1, "after": 41}

``after`` is the newest session id when it was started: the game's races started after it
belong to it, until the next season of the game. ``races`` (None: open-ended) is the
number of races it has; ``drop`` how many of each driver's worst results it leaves out.
The races of a game played before its first season (a journal written before seasons
existed) are its first season, named by the year of its first race (``2026-1``). A race
brought from another box (``companion import``) is put in a season by name. Nothing here
rewrites a finished race: seasons are read from the sessions and the club's events.
"""

from __future__ import annotations

import time
from typing import Any

from companion.core import scoring
from companion.core.journal import Journal, Session
from companion.core.names import counted
from companion.league import corrections, ledger
from companion.league.ledger import race_id  # noqa: F401  (a race's id, where the seasons' callers ask it)

MAX_RACES = 200
"""The most races a season holds: set ones, open-ended ones played on the box (the race
after its last starts the next season of the game, ``completed_by``), and imported ones."""
MAX_DROP = 9
NAME_CHARS = 16


class SeasonError(ValueError):
    """A season that cannot be started or found; ``str()`` says why in one line."""


class Season:
    """One season of ``game``: ``races`` it has (None: open-ended), ``drop`` (each driver's
    worst results left out), ``after`` (its races are sessions started after this id),
    ``sessions`` (its finished sessions). A plain class: this module is loaded on the
    press that starts a race (its receipt's race number), where a dataclass costs."""

    __slots__ = ("game", "name", "races", "drop", "after", "started", "sessions", "voided", "_races")

    def __init__(self, game: str, name: str, races: int | None = None, drop: int = 0, after: int = 0,
                 started: float | None = None):
        self.game, self.name, self.races, self.drop, self.after, self.started = game, name, races, drop, after, started
        self.sessions: list[Session] = []
        self.voided: list[Session] = []        # its races voided (``league.corrections``): counted nowhere
        self._races: list | None = None

    def __repr__(self) -> str:
        return f"Season({self.game!r}, {self.name!r}, races={self.races}, drop={self.drop}, after={self.after})"

    def race_list(self) -> list[list[dict[str, Any]]]:
        """Its races as championship entries, oldest first (a session may hold several);
        made once (a season is read whole from the journal, ``seasons``)."""
        if self._races is None:
            out = [race for s in self.sessions for race in ledger.session_races(s)]
            self._races = out[:self.bound]
        return self._races

    @property
    def bound(self) -> int:
        """The races it holds at most: its set number, else :data:`MAX_RACES`."""
        return self.races or MAX_RACES

    def finishes(self) -> list[tuple[set[str], set[str]]]:
        """For each race of :meth:`race_list`: (the names out of it, the names its session
        entered), casefolded. A car its session entered that is not in one of its races
        (Lacorsa's championship in one session) did not start that race."""
        out = []
        for s in self.sessions:
            held = ledger.session_races(s)
            dnf = ledger.not_finished(s.results or {})
            entered = {str(e.get("name")).casefold() for e in ledger.championship_entries(s)}
            out += [(dnf if k == len(held) else set(), entered) for k in range(1, len(held) + 1)]
        return out[:self.bound]

    def held(self) -> int:
        """The races its sessions hold, past a set number too (an import is checked by it)."""
        return sum(len(ledger.session_races(s)) for s in self.sessions)

    def complete(self) -> bool:
        """Its set races are run, or an open-ended one holds :data:`MAX_RACES`."""
        return len(self.race_list()) >= self.bound

    def label(self) -> str:
        """``2026-2, 3 of 8 races`` or ``2026-2, 3 races``."""
        n = len(self.race_list())
        return f"{self.name}, {n} of {self.races} races" if self.races else f"{self.name}, {counted(n, 'race')}"


def games(journal: Journal) -> list[str]:
    """The championships that have a finished race, in the order they first had one."""
    return list(dict.fromkeys(k for k in map(ledger.key_of, ledger.finished(journal)) if k))


def seasons(journal: Journal, game: str) -> list[Season]:
    """Every season of ``game``, oldest first, each with its finished sessions (counted
    again once the journal has changed; not to be changed by the caller)."""
    return journal.cached(f"seasons {game}", lambda: _seasons(journal, game))


def _seasons(journal: Journal, game: str, events: list[dict] | None = None) -> list[Season]:
    """The seasons of ``game`` as the club's ``events`` make them (default: the journal's;
    another list: what a change would make of them, ``league.steward``)."""
    events = journal.club_events() if events is None else events
    ids = journal.race_ids()
    counted, voided, moved = corrections.apply(journal, ledger.finished(journal, game), events)
    undone = {e.get("of") for e in events if e.get("kind") == "undo"}
    started = [Season(game, str(e["name"]), e.get("races") or None, int(e.get("drop") or 0),
                      BY_NAME if e.get("by_name") else int(e.get("after") or 0), e.get("created"))
               for e in events if e.get("kind") == "season" and e.get("game") == game
               and (e.get("ref") is None or e["ref"] not in undone)]
    by_name = {s.name: s for s in started}
    started.sort(key=lambda s: s.after != BY_NAME)     # another box's, made by an import: before this box's
    own = [s for s in started if s.after != BY_NAME]
    first_after = own[0].after if own else None
    done = sorted([*counted, *voided], key=ledger.finish_order)
    early = [s for s in done if (ids.get(s.id, ("", None))[1] is None)
             and (first_after is None or s.id <= first_after)]
    out = list(started)
    if early or not own:
        first = Season(game, f"{time.localtime((early[0] if early else done[0]).started).tm_year}-1"
                       if (early or done) else f"{time.localtime().tm_year}-1", after=-1)
        if first.name in by_name:     # a season started by hand already has that name
            first.name = f"{first.name} (first)"
        out.insert(len(started) - len(own), first)
        by_name.setdefault(first.name, first)
    named_as = _settled(out, by_name, corrections.season_changes(journal, game, events))
    void_ids = {s.id for s in voided}
    held: dict[str, int] = {}     # season name -> the races its sessions hold so far
    for s in done:
        put = moved.get(s.id) or ids.get(s.id, ("", None))[1]
        home = named_as(put) if put is not None else None
        home = home or _home(out, s.id, held)
        if s.id in void_ids:
            home.voided.append(s)
        else:
            home.sessions.append(s)
            held[home.name] = held.get(home.name, 0) + len(ledger.session_races(s))
    for season in out:
        season.sessions.sort(key=ledger.finish_order)
    return out


def _settled(every: list[Season], by_name: dict[str, Season], changes: list[dict]):
    """Apply the seasons' renames and settings (``league.corrections``) to ``every``;
    returns the lookup of a season by any name it has had (its name now first)."""
    was: dict[str, Season] = {k.casefold(): v for k, v in by_name.items()}
    for e in changes:
        named = str(e.get("from") if e["kind"] == "season-rename" else e.get("name") or "").casefold()
        season = next((s for s in every if s.name.casefold() == named), None)
        if season is None:
            continue
        if e["kind"] == "season-rename" and e.get("to"):
            season.name = str(e["to"])
        elif e["kind"] == "season-set":
            season.races, season.drop = e.get("races") or None, int(e.get("drop") or 0)

    def named_as(name: str) -> Season | None:
        key = name.casefold()
        return next((s for s in every if s.name.casefold() == key), None) or was.get(key)
    return named_as


BY_NAME = -2
"""``after`` of a season an import made on a box that has seasons of the game already:
it holds the races imported into it by name, and is never this box's current season."""


def overfull(journal: Journal, events: list[dict]) -> Season | None:
    """A season the club's ``events`` would leave holding more races than it is set to, or None."""
    for game in games(journal):
        for season in _seasons(journal, game, events):
            if season.races and season.held() > season.races:
                return season
    return None


def _home(every: list[Season], session_id: int, held: dict[str, int]) -> Season:
    """The season a race of this box started as session ``session_id`` counts in: the
    newest started before it; but a season already full (its set number of races, or
    :data:`MAX_RACES`, ``held`` so far: the race put aside and finished after its last
    race) passes it on to the next."""
    at = next((k for k, season in enumerate(every) if season.after != BY_NAME), 0)
    for k, season in enumerate(every):
        if season.after != BY_NAME and season.after < session_id:
            at = k
    while at + 1 < len(every) and held.get(every[at].name, 0) >= every[at].bound:
        at += 1
    return every[at]


def named(journal: Journal, game: str) -> list[Season]:
    """The seasons that hold a name: all but the first season a game with no race and no
    season started shows (``2026-1``, made up until a race or a season makes it real)."""
    return [s for s in seasons(journal, game) if s.after >= 0 or s.after == BY_NAME or s.sessions]


def listed(journal: Journal, game: str) -> list[Season]:
    """The seasons a list shows, oldest first: every one that has a race, and the current
    one (a season started and left without a race, such as the one a completed season
    starts when another is then named on the box, is not listed)."""
    every = seasons(journal, game)
    return [s for s in every[:-1] if s.race_list()] + every[-1:]


def current(journal: Journal, game: str) -> Season:
    return seasons(journal, game)[-1]


def shown(journal: Journal, game: str) -> Season:
    """The season the championship shows (the box, the table screen, ``companion results``):
    the current one, or while it has no race yet the season just completed before it, so
    the final standings stay in view until the next season's first race."""
    every = seasons(journal, game)
    if len(every) > 1 and not every[-1].race_list() and every[-2].complete():
        return every[-2]
    return every[-1]


def find(journal: Journal, game: str, name: str) -> Season:
    for season in seasons(journal, game):
        if season.name.casefold() == name.strip().casefold():
            return season
    known = ", ".join(s.name for s in seasons(journal, game))
    raise SeasonError(f"no season '{name}' of {ledger.title(game)}; its seasons: {known}")


def default_name(journal: Journal, game: str, now: float | None = None) -> str:
    """The year and the next free number: ``2026-2``."""
    year = time.localtime(time.time() if now is None else now).tm_year
    taken = {s.name.casefold() for s in named(journal, game)}
    n = 1
    while f"{year}-{n}" in taken:
        n += 1
    return f"{year}-{n}"


def check_name(name: str) -> str:
    name = " ".join(str(name).split())
    if not name:
        raise SeasonError("a season needs a name")
    if len(name) > NAME_CHARS:
        raise SeasonError(f"a season's name has at most {NAME_CHARS} characters: '{name}'")
    return name


def start(journal: Journal, game: str, name: str | None = None, *, races: int | None = None,
          drop: int = 0) -> Season:
    """Start a season of ``game`` (an event in the journal). The races started from now
    on are its races."""
    journal.add_club_event(season_event(journal, game, name, races=races, drop=drop))
    return current(journal, game)


def season_event(journal: Journal, game: str, name: str | None = None, *, races: int | None = None,
                 drop: int = 0, by_name: bool = False) -> dict[str, Any]:
    """The club event that starts a season of ``game`` (:func:`start` writes it), checked:
    SeasonError says why it cannot be."""
    name = check_name(name) if name is not None else default_name(journal, game)
    if any(s.name.casefold() == name.casefold() for s in named(journal, game)):
        raise SeasonError(f"{ledger.title(game)} has a season called '{name}' already")
    if races is not None and not (1 <= races <= MAX_RACES):
        raise SeasonError(f"a season has 1 to {MAX_RACES} races (or no set number), not {races}")
    if not (0 <= drop <= MAX_DROP) or (races and drop >= races):
        raise SeasonError(f"cannot drop {drop} results of a season of {races or 'open'} races")
    after = max((s.id for s in journal.sessions()), default=0)
    made = {"kind": "season", "game": game, "name": name, "races": races, "drop": drop, "after": after}
    return {**made, "by_name": True} if by_name else made


def table(journal: Journal, season: Season) -> list[dict[str, Any]]:
    """:func:`standings` of ``season`` with the journal's merged names, worked out once
    until the journal changes (the screen shows it at every frame)."""
    return journal.cached(f"table {season.game} {season.name}", lambda: standings(season, merges(journal)))


def standings(season: Season, merged: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The season's table: :func:`scoring.championship` over its races, with each driver's
    worst results left out (:func:`dropping`; a race not entered is a result of 0 points,
    and goes first). A driver is one row whatever the letter case of their name, and under
    the name ``merged`` (:func:`merges`) gives. Every row carries ``dropped`` (the race
    numbers left out, 1-based) and ``dropped_points``."""
    spelled: dict[str, str] = {}      # one driver whatever the letter case: the first spelling
    races = [[_renamed(e, merged, spelled) for e in race] for race in season.race_list()]
    drop = dropping(season, len(races))
    if not drop:
        rows = [{**r, "dropped": [], "dropped_points": 0} for r in scoring.championship(races)]
        return _with_finishes(rows, season, races, merged, spelled)
    names: dict[str, None] = {}
    for race in races:
        for e in race:
            names.setdefault(e["name"])
    dropped: dict[str, list[int]] = {}
    for name in names:
        scored = [(next((e.get("points", 0) for e in race if e["name"] == name), None), k)
                  for k, race in enumerate(races)]
        worst = sorted(scored, key=lambda pk: (-1 if pk[0] is None else pk[0], pk[1]))[:drop]
        dropped[name] = sorted(k for _, k in worst)
    counted_races = [[{**e, "points": 0} if k in dropped[e["name"]] else e for e in race]
                     for k, race in enumerate(races)]
    rows = scoring.championship(counted_races)
    for r in rows:
        lost = dropped[r["name"]]
        r["dropped"] = [k + 1 for k in lost]
        r["dropped_points"] = sum(next((e.get("points", 0) for e in races[k] if e["name"] == r["name"]), 0)
                                  for k in lost)
    return _with_finishes(rows, season, races, merged, spelled)


def _with_finishes(rows: list[dict[str, Any]], season: Season, races: list[list[dict[str, Any]]],
                   merged: dict[str, str] | None, spelled: dict[str, str]) -> list[dict[str, Any]]:
    """Each row with how its driver's races ended (``Season.finishes``): ``finished``,
    ``out`` (did not finish) and ``did_not_start``."""
    drivers: dict[str, str] = {}      # a name as a race has it -> its driver's, casefolded

    def driver(name: str) -> str:
        if name not in drivers:
            drivers[name] = _renamed({"name": name}, merged, spelled)["name"].casefold()
        return drivers[name]

    out_of: dict[str, int] = {}
    missed: dict[str, int] = {}
    for (out, entered), race in zip(season.finishes(), races):
        ran = {e["name"].casefold() for e in race}
        for who in {driver(n) for n in out} & ran:
            out_of[who] = out_of.get(who, 0) + 1
        for who in {driver(n) for n in entered} - ran:
            missed[who] = missed.get(who, 0) + 1
    for r in rows:
        who = r["name"].casefold()
        r["out"], r["did_not_start"] = out_of.get(who, 0), missed.get(who, 0)
        r["finished"] = r["races"] - r["out"]
    return rows


def dropping(season: Season, run: int) -> int:
    """How many of each driver's results are left out after ``run`` races: a season of a
    set number of races counts each driver's best ``races - drop`` (all of them until more
    races than that have been run, as leagues count "the best 7 of 8"); an open-ended one
    its ``drop`` worst, but never every result."""
    if not season.drop or run < 2:
        return 0
    if season.races:
        return min(season.drop, max(0, run - (season.races - season.drop)))
    return min(season.drop, run - 1)


def _renamed(entry: dict[str, Any], merged: dict[str, str] | None, spelled: dict[str, str]) -> dict[str, Any]:
    """``entry`` under its driver's name: the one it was merged into, else the first
    spelling of it (any letter case) seen in ``spelled``."""
    name = (merged or {}).get(entry["name"].casefold(), entry["name"])
    name = spelled.setdefault(name.casefold(), name)
    return entry if name == entry["name"] else {**entry, "name": name}


def merges(journal: Journal, events: list[dict] | None = None) -> dict[str, str]:
    """casefolded name -> the name it was merged into (followed to the end)."""
    events = journal.club_events() if events is None else events
    into: dict[str, str] = {}
    for e in events:
        if e.get("kind") == "merge" and e.get("from") and e.get("into"):
            into[str(e["from"]).casefold()] = str(e["into"])
        elif e.get("kind") == "unmerge" and e.get("name"):     # a merge taken back
            into.pop(str(e["name"]).casefold(), None)
    out = {}
    for name in into:
        seen, target = {name}, into[name]
        while target.casefold() in into and target.casefold() not in seen:
            seen.add(target.casefold())
            target = into[target.casefold()]
        out[name] = target
    return out


def dropped_note(rows: list[dict[str, Any]]) -> list[str]:
    """``Red: race 3 (2 pts)`` for every row with results left out."""
    out = []
    for r in rows:
        if r.get("dropped"):
            out.append(f"{r['name']}: {'race' if len(r['dropped']) == 1 else 'races'} "
                       f"{', '.join(map(str, r['dropped']))} ({r['dropped_points']} pts)")
    return out


def season_of(journal: Journal, session: Session) -> Season:
    """The season ``session`` belongs to (a race still running: the season it will count in)."""
    all_seasons = seasons(journal, ledger.key_of(session) or session.activity)
    for season in all_seasons:
        if any(s.id == session.id for s in (*season.sessions, *season.voided)):
            return season
    put = journal.race_ids().get(session.id, ("", None))[1]
    named = next((s for s in all_seasons if put is not None and s.name == put), None)
    return named or _home(all_seasons, session.id, {s.name: s.held() for s in all_seasons})


def race_number(journal: Journal, session: Session) -> int:
    """The race's number in its season: 1 + the races of the season's sessions that
    finished before it (a race put aside counts after the races finished meanwhile)."""
    season = season_of(journal, session)
    mine = ledger.finish_order(session)
    return 1 + sum(len(ledger.session_races(s)) for s in season.sessions
                   if s.id != session.id and ledger.finish_order(s) < mine)


def completed_by(journal: Journal, session: Session) -> Season | None:
    """The season a finished race completes, or None: the race that completes a season of
    a set number of races starts the next one (the same rules, the next default name);
    its final standings are printed (``paper.after_race``)."""
    game = ledger.key_of(session)
    if not game:
        return None
    every = seasons(journal, game)
    season = season_of(journal, session)
    if not season.complete() or not season.sessions or season.sessions[-1].id != session.id:
        return None
    if every[-1].name == season.name:
        start(journal, game, races=season.races, drop=season.drop)
    return season


def shown_table(journal: Journal, championship: str | None = None) -> tuple[str | None, list[dict[str, Any]]]:
    """(key, :func:`table`) of ``championship``'s shown season (:func:`shown`), by
    default the championship of the newest finished race."""
    key = ledger.championship_key(journal, championship)
    if key is None:
        return None, []
    return key, table(journal, shown(journal, key))


def races(journal: Journal, key: str) -> list[list[dict[str, Any]]]:
    """The races of championship ``key``'s shown season, oldest first, each as its
    championship entries: a finished session is one race, or the races of the season it
    played."""
    return shown(journal, key).race_list()


def race_count(journal: Journal, key: str | None) -> int:
    """How many races championship ``key`` has counted (0 for None)."""
    return len(races(journal, key)) if key is not None else 0
