"""Results kept on the device: the last race and each game's championship.

Every finished session stores its results (the ``results.json`` shape) in the journal;
a championship is the sum of the finished sessions that share a championship key (the
game's slug).
"""

from __future__ import annotations

from typing import Any

from companion.core import scoring
from companion.core.journal import Journal, Session


def finished(journal: Journal, championship: str | None = None) -> list[Session]:
    out = [s for s in journal.sessions(finished=True) if s.results and s.results.get("standings")]
    if championship is not None:
        out = [s for s in out if s.championship == championship]
    return out


def last_finished(journal: Journal) -> Session | None:
    races = finished(journal)
    return races[-1] if races else None


def championship_key(journal: Journal, championship: str | None = None) -> str | None:
    if championship is not None:
        return championship
    last = last_finished(journal)
    return last.championship if last else None


def standings(journal: Journal, championship: str | None = None) -> tuple[str | None, list[dict[str, Any]]]:
    """(key, standings) of ``championship``, by default the one of the newest finished race."""
    key = championship_key(journal, championship)
    if key is None:
        return None, []
    races = [championship_entries(s) for s in finished(journal, key)]
    return key, scoring.championship(races)


def championship_entries(session: Session) -> list[dict[str, Any]]:
    """A finished race as championship entries: its standings, or what the game says
    counts (Street Illegal's Old Pros score as one team)."""
    from companion.games import registry

    try:
        act = registry.activity(session.activity)
    except LookupError:  # an activity this version does not play: its standings as they are
        return list(session.results["standings"])
    return list(act.championship_entries(session.results))


def title(key: str) -> str:
    """A championship's name: its game's (or tool's) title."""
    from companion.games.data import title as activity_title
    return activity_title(key)


def championship_lines(journal: Journal) -> list[str]:
    """Short lines for the screen: ``1 Red 36``."""
    key, rows = standings(journal)
    if not rows:
        return []
    count = len(finished(journal, key))
    return [f"{title(key)}: {count} race{'s' if count != 1 else ''}",
            *(f"{r['position']} {r['name']} {r['points']}" for r in rows)]


def championship_receipt(journal: Journal, championship: str | None = None):
    from companion.receipts import layouts

    key, rows = standings(journal, championship)
    if not rows:
        return None
    return layouts.championship(f"Championship {title(key)}", rows)


def last_results_receipt(journal: Journal):
    """The results receipt of the newest finished race, rebuilt from its journal."""
    from companion.session import SessionRunner

    session = last_finished(journal)
    if session is None:
        return None
    runner = SessionRunner.resume(journal, session)
    return runner.receipts().get("results")
