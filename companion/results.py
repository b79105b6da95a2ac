"""Results kept on the device: the last race and each game's championship.

Every finished session stores its results (the ``results.json`` shape) in the journal;
a championship is the sum of the finished sessions that share a championship key (the
game's slug; a tool's own, "laps:formula-de" for the lap counter scoring with Formula Dé's
points: ``key_of``). A session put aside is unfinished: it counts nowhere. A session is one race of it, or the races of a season it played itself
(Lacorsa's championship: ``core.scoring.session_races``).
"""

from __future__ import annotations

import time
from typing import Any

from companion.core import scoring
from companion.core.journal import Journal, Session
from companion.core.names import counted


def finished(journal: Journal, championship: str | None = None) -> list[Session]:
    """The finished sessions with standings (of ``championship``), in the order they
    finished (a race put aside and finished later counts after the races finished
    meanwhile), without their data snapshot (``Journal.finished_sessions``)."""
    out = [s for s in journal.finished_sessions() if s.results and s.results.get("standings")]
    if championship is not None:
        out = [s for s in out if key_of(s) == championship]
    return sorted(out, key=finish_order)


def finish_order(session: Session) -> tuple[float, int]:
    """Where a session stands in the order races finished (one still running: last)."""
    return (session.finished if session.finished is not None else float("inf"), session.id)


def key_of(session: Session) -> str | None:
    """The championship ``session`` counts in: a game's as the journal keeps it; a tool's
    from its activity and options (``session.championship_of``), so a lap-counter race
    kept under a game's key by an older version counts in the lap counter's own."""
    from companion.games.registry import GAMES
    from companion.session import championship_of

    if session.activity in GAMES or not isinstance(session.options, dict):
        return session.championship
    return championship_of(session.activity, session.options)


def last_finished(journal: Journal) -> Session | None:
    """The newest race finished on this box (a race imported from another is not)."""
    imported = {sid for sid, (_, season) in journal.race_ids().items() if season is not None}
    races = [s for s in finished(journal) if s.id not in imported]
    return journal.session(races[-1].id) if races else None


def championship_key(journal: Journal, championship: str | None = None) -> str | None:
    if championship is not None:
        return championship
    last = last_finished(journal)
    return key_of(last) if last else None


def standings(journal: Journal, championship: str | None = None) -> tuple[str | None, list[dict[str, Any]]]:
    """(key, standings) of ``championship``'s shown season (``seasons.shown``), by
    default the championship of the newest finished race."""
    from companion import seasons

    key = championship_key(journal, championship)
    if key is None:
        return None, []
    return key, seasons.table(journal, seasons.shown(journal, key))


def races(journal: Journal, key: str) -> list[list[dict[str, Any]]]:
    """The races of championship ``key``'s shown season, oldest first, each as its
    championship entries: a finished session is one race, or the races of the season it
    played."""
    from companion import seasons

    return seasons.shown(journal, key).race_list()


def race_count(journal: Journal, key: str | None) -> int:
    """How many races championship ``key`` has counted (0 for None)."""
    return len(races(journal, key)) if key is not None else 0


def session_races(session: Session) -> list[list[dict[str, Any]]]:
    """A finished session as the championship's races: one, or a season's."""
    return scoring.session_races(championship_entries(session))


def rows_are(journal: Journal, key: str) -> str:
    """What championship ``key``'s rows are, as its newest race's game says: "cars" or
    "players"."""
    from companion.games import registry

    races = finished(journal, key)
    try:
        return registry.activity(races[-1].activity).championship_of if races else "cars"
    except LookupError:
        return "cars"


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
    """A championship's name: its game's (or tool's) title; a tool scoring with a game's
    points: "Lap counter, Formula Dé points"."""
    from companion.games.data import title as activity_title
    tool, _, game = key.partition(":")
    return f"{activity_title(tool)}, {activity_title(game)} points" if game else activity_title(key)


def screen_count(key: str, n: int) -> str:
    """``Formula Dé: 3 races`` for a line of the box's screen: the championship's whole
    name where it fits, else the bare count, else the tool's name for a tool scoring with a
    game's points ("Lap counter: 3 races")."""
    from companion.kit.text import first_fitting

    tool = title(key.partition(":")[0])
    return first_fitting(f"{title(key)}: {counted(n, 'race')}", f"{title(key)}: {n}",
                         f"{tool}: {counted(n, 'race')}", f"{tool}: {n}")


def screen_season(key: str, season: str) -> str:
    """A season won on a line of the box's screen: ``Won Formula Dé 2026-1``, shorter
    where it does not fit."""
    from companion.kit.text import first_fitting

    return first_fitting(f"Won {title(key)} {season}", f"Won {title(key.partition(':')[0])} {season}",
                         f"Won {season}")


def championship_lines(journal: Journal) -> list[str]:
    """Short lines for the screen: ``Formula Dé: 3 races``, ``Season 2026-2``, ``1 Red 36``
    (a long name alone, its count on the season's line)."""
    from companion import seasons
    from companion.kit.text import LINE_CHARS, first_fitting

    key = championship_key(journal)
    if key is None:
        return []
    season = seasons.shown(journal, key)
    rows = seasons.table(journal, season)
    count = len(season.race_list())
    of = f" ({count}/{season.races})" if season.races else ""
    head = f"{title(key)}: {counted(count, 'race')}"
    if len(head) <= LINE_CHARS:
        lines = [head, first_fitting(f"Season {season.name}{of}", f"{season.name}{of}", season.name)]
    else:      # a long name alone, its count on the season's line: "Street Illegal", "Season 2026-1, 1 race"
        said = f"{count} of {season.races} races" if season.races else counted(count, "race")
        lines = [first_fitting(title(key), title(key.partition(":")[0])),
                 first_fitting(f"Season {season.name}, {said}", f"{season.name}, {said}", f"{season.name}{of}")]
    return [*lines, *(f"{r['position']} {r['name']} {r['points']}" for r in rows)]


def championship_receipt(journal: Journal, championship: str | None = None, now: float | None = None):
    """The shown season's table of ``championship`` (by default the newest race's)."""
    from companion import seasons

    key = championship_key(journal, championship)
    if key is None:
        return None
    return seasons.season_receipt(journal, seasons.shown(journal, key), now)


def championship_receipt_of(title_line: str, rows, header, counted, notes=(), lines=(), now=None):
    """A championship table on paper: ``rows`` under ``title_line``, the points after each
    race drawn under it (two races or more), ``notes`` (results dropped) at its foot,
    ``lines`` (the season) under "After 7 races"."""
    from companion.receipts import layouts
    from companion.receipts.model import stamped

    heading = next((w for w in ("Final standings", "Championship") if title_line.startswith(f"{w} ")), "")
    if len(title_line) <= PAPER_CHARS or not heading:
        receipt = layouts.championship(title_line, rows, lines, name_header=header)
    else:        # "Lap counter, Formula Dé points": said whole under the title
        receipt = layouts.championship(heading, rows, [title_line[len(heading) + 1:], *lines], name_header=header)
    if len(counted) >= 2:         # the points after each race, drawn under the table
        from dataclasses import replace

        from companion import charts
        from companion.receipts.model import Line, picture
        spec = charts.championship_spec(counted, [r["name"] for r in rows])
        drawn = (Line("Points after each race", bold=True, align="center"), picture(spec))
        receipt = replace(receipt, items=(*receipt.items[:-1], *drawn, receipt.items[-1]))
    if notes:
        from dataclasses import replace

        from companion.receipts.model import Line
        said = (Line("Results dropped", bold=True), *(Line(n[i:i + PAPER_CHARS]) for n in notes
                                                      for i in range(0, len(n), PAPER_CHARS)))
        receipt = replace(receipt, items=(*receipt.items[:-1], *said, receipt.items[-1]))
    return stamped(receipt, [f"Printed {when(now if now is not None else time.time())}"])


def last_results_receipt(journal: Journal):
    """The results receipt of the newest finished race, rebuilt from its journal: the
    activity's own, or (a race ended early before the game had one) its standings as
    they stood when it ended, as the championship counts them."""
    from companion.session import SessionRunner

    session = last_finished(journal)
    if session is None:
        return None
    runner = SessionRunner.resume(journal, session)
    return results_receipt(journal, runner)


def results_receipt(journal: Journal, runner):
    """The running (or just ended) session's results receipt, dated and numbered: the
    activity's own when it has one now, else one built from its standings (a race
    ended early from the pause menu). None when there are no standings (a dice session)."""
    from companion.receipts import layouts

    receipt = runner.receipts().get("results")
    if receipt is None:
        rows = (runner.session.results or {}).get("standings") or runner.results()["standings"]
        if not rows:
            return None
        name = activity_title(runner.session.activity, runner.session.options)
        receipt = layouts.standings_results(f"{name} results", rows)
    return stamp(journal, runner.session, receipt)


def activity_title(slug: str, options: dict) -> str:
    """What a session is called on paper: its game's title (a tool set up for a game: the
    tool's title and the game's)."""
    from companion.games.registry import GAMES
    from companion.games.data import title as activity_title_of

    game = options.get("game") if isinstance(options, dict) else None
    if slug not in GAMES and game in GAMES:
        return f"{activity_title_of(slug)}, {activity_title_of(game)}"
    return activity_title_of(slug)


# -- dates and race numbers on paper ------------------------------------------------------

PAPER_CHARS = 32   # a receipt line (companion.receipts.layouts.WIDTH)

def when(ts: float) -> str:
    """A date and time as the receipts print it: ``Mon 23 Nov 2026 14:05``."""
    return time.strftime("%a %d %b %Y %H:%M", time.localtime(ts))


def race_number(journal: Journal, session: Session) -> int:
    """The race's number in its season (``companion.seasons``): 1 + the races counted by
    the season's finished sessions started before it (a season played in one session
    counts its races)."""
    from companion import seasons

    return seasons.race_number(journal, session)


def stamp_lines(journal: Journal, session: Session) -> list[str]:
    """The lines every receipt of a session starts with: its date, that it was ended
    early (from the pause menu), and its number in the championship from the second
    race on (a one-off race is no championship's race 1). A session that runs its own
    championship (Lacorsa's races) numbers its races itself."""
    lines = [when(session.started)]
    if session.results and session.results.get("ended_early"):
        lines.append("Ended early, as it stood")
    own = isinstance(session.options, dict) and session.options.get("championship") is True
    key = key_of(session)
    if key and not own:
        n = race_number(journal, session)
        if n > 1:
            from companion.kit.text import first_fitting
            from companion import seasons
            name = seasons.season_of(journal, session).name
            lines.append(first_fitting(f"{title(key)} {name}, race {n}",
                                       f"{title(key.partition(':')[0])} {name}, race {n}",
                                       f"Season {name}, race {n}", f"Championship race {n}", limit=PAPER_CHARS))
    return lines


def stamp(journal: Journal, session: Session, receipt):
    """``receipt`` with the session's date and race number at the top."""
    from companion.receipts.model import stamped

    return None if receipt is None else stamped(receipt, stamp_lines(journal, session))
