"""The ledger: the finished races read from the journal, and the championship each counts in.

Every finished session stores its results (the ``results.json`` shape) in the journal;
a championship is the sum of the finished sessions that share a championship key (the
game's slug; a tool's own, "laps:formula-de" for the lap counter scoring with Formula Dé's
points: ``key_of``). A session put aside is unfinished: it counts nowhere. A session is
one race of it, or the races of a season it played itself (Lacorsa's championship:
``core.scoring.session_races``). The seasons (``league.seasons``) are read from this.
"""

from __future__ import annotations

import time
from typing import Any

from companion.core import scoring
from companion.core.journal import Journal, Session
from companion.games import registry
from companion.games.data import title as title_of


def finished(journal: Journal, championship: str | None = None) -> list[Session]:
    """The finished sessions with standings (of ``championship``), in the order they
    finished (a race put aside and finished later counts after the races finished
    meanwhile), without their data snapshot (``Journal.finished_sessions``)."""
    every = journal.cached("countable", lambda: sorted(
        [s for s in journal.finished_sessions()
         if not s.unreadable and s.results and s.results.get("standings") and countable(s)], key=finish_order),
        depends=("finished",))
    if championship is None:
        return list(every)
    return journal.cached(f"countable {championship}", lambda: [s for s in every if key_of(s) == championship],
                          depends=("finished",))


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entry_countable(e) -> bool:
    season = e.get("season") if isinstance(e, dict) else None
    return isinstance(e, dict) and isinstance(e.get("name"), str) and bool(e["name"].strip()) \
        and ("position" not in e or _whole(e["position"])) and (e.get("points") is None or _whole(e["points"])) \
        and (season is None or isinstance(season, list) and all(
            x is None or isinstance(x, dict) and _whole(x.get("position")) and (x.get("points") is None or _whole(x["points"]))
            for x in season))


def countable(session: Session) -> bool:
    """Whether a finished session's stored results can be counted and shown: a list of
    standings entries, each a name and whole numbers where given. One that cannot (a value
    damaged, or from a file imported before the checks) counts nowhere and is said as such
    (:func:`unshown`)."""
    standings = session.results.get("standings") if isinstance(session.results, dict) else None
    return isinstance(standings, list) and all(map(_entry_countable, standings))


def unshown(journal: Journal) -> list[Session]:
    """The finished sessions whose stored results cannot be shown (:func:`countable`), or
    whose stored values cannot be read at all (``Session.unreadable``: nested too deeply)."""
    return journal.cached("unshown", lambda: [s for s in journal.finished_sessions() if s.unreadable or isinstance(
        s.results, dict) and s.results.get("standings") and not countable(s)], depends=("finished",))


def unshown_note(journal: Journal) -> str | None:
    """What the views say of the races that cannot be shown, or None."""
    bad = unshown(journal)
    damaged = [s for s in bad if not s.unreadable]
    notes = [unreadable_note(s) for s in bad if s.unreadable][:3]
    if damaged:
        notes.append(f"{len(damaged)} stored race{'' if len(damaged) == 1 else 's'} cannot be shown (damaged "
                     f"results, counted nowhere): started {', '.join(when(s.started) for s in damaged[:3])}"
                     f"{' ...' if len(damaged) > 3 else ''}")
    return "; ".join(notes) or None


def unreadable_note(session: Session) -> str:
    """What the views say of a race whose stored values cannot be read (``Session.unreadable``)."""
    return f"race {session.id} (started {when(session.started)}) cannot be read: its stored " \
           f"{' and '.join(session.unreadable)} nest too deeply or are not JSON, so it counts nowhere; " \
           "restore a backup from before it to count it"


def not_finished(session_results: dict[str, Any]) -> set[str]:
    """The names (casefolded) that did not finish a race: out of it (``out`` of the
    results or of their lap chart, where every game names the cars that crashed or were
    demolished; an entry ``out: ...`` or with an ``out_lap``). Of a session that held
    several races (Lacorsa's championship), its last race's."""
    chart = session_results.get("lap_chart") if isinstance(session_results.get("lap_chart"), dict) else {}
    gone = [*(session_results.get("out") or []), *(chart.get("out") or [])]
    out = {str(o[0]).casefold() for o in gone if isinstance(o, (list, tuple)) and o}
    for e in session_results.get("standings") or []:
        if str(e.get("status", "")).startswith("out") or e.get("out_lap") is not None:
            out.add(str(e.get("name", "")).casefold())
    return out


def finish_order(session: Session) -> tuple[float, int]:
    """Where a session stands in the order races finished (one still running: last)."""
    return (session.finished if session.finished is not None else float("inf"), session.id)


def key_of(session: Session) -> str | None:
    """The championship ``session`` counts in: a game's as the journal keeps it; a tool's
    from its activity and options (``registry.championship_of``), so a lap-counter race
    kept under a game's key by an older version counts in the lap counter's own."""
    if session.activity in registry.GAMES or not isinstance(session.options, dict):
        return session.championship
    return registry.championship_of(session.activity, session.options)


def race_id(session: Session, ids: dict[int, tuple[str, str | None]]) -> str:
    """A race's identity: the UUID made when it started, or for a race older than race ids
    one derived from when and what it was (the same on every box that holds it)."""
    kept = ids.get(session.id)
    if kept is not None:
        return kept[0]
    import uuid
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"race-companion:{session.started!r}:{session.activity}"))



def last_finished(journal: Journal) -> Session | None:
    """The newest race finished on this box (a race imported from another is not)."""
    def newest() -> int | None:
        imported = {sid for sid, (_, season) in journal.race_ids().items() if season is not None}
        races = [s for s in finished(journal) if s.id not in imported]
        return races[-1].id if races else None
    sid = journal.cached("last finished", newest, depends=("finished", "races"))
    return journal.session(sid) if sid is not None else None


def championship_key(journal: Journal, championship: str | None = None) -> str | None:
    """The championship asked, else the last race's of this box, else (a box whose races
    were all imported) the newest imported race's."""
    if championship is not None:
        return championship

    def newest() -> str | None:
        last = last_finished(journal)
        if last is None:
            every = finished(journal)
            last = every[-1] if every else None
        return key_of(last) if last else None
    return journal.cached("championship key", newest, depends=("finished", "races"))


def session_races(session: Session) -> list[list[dict[str, Any]]]:
    """A finished session as the championship's races: one, or a season's."""
    return scoring.session_races(championship_entries(session))


def rows_are(journal: Journal, key: str) -> str:
    """What championship ``key``'s rows are, as its newest race's game says: "cars" or
    "players"."""
    races = finished(journal, key)
    try:
        return registry.activity(races[-1].activity).championship_of if races else "cars"
    except LookupError:
        return "cars"


def championship_entries(session: Session) -> list[dict[str, Any]]:
    """A finished race as championship entries: its standings, or what the game says
    counts (Street Illegal's Old Pros score as one team)."""
    try:
        act = registry.activity(session.activity)
    except LookupError:  # an activity this version does not play: its standings as they are
        return list(session.results["standings"])
    return list(act.championship_entries(session.results))


def title(key: str) -> str:
    """A championship's name: its game's (or tool's) title; a tool scoring with a game's
    points: "Lap counter, Formula Dé points"."""
    tool, _, game = key.partition(":")
    return f"{title_of(tool)}, {title_of(game)} points" if game else title_of(key)


def when(ts: float) -> str:
    """A race's date and time in words, as the receipts print it and the messages say it:
    ``Mon 23 Nov 2026 14:05``."""
    return time.strftime("%a %d %b %Y %H:%M", time.localtime(ts))
