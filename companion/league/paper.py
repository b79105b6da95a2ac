"""Paper: the receipts the club's record builds (a championship, a season, a race's
results), and the date and race number every receipt of a race starts with.

Read from the ledger and the seasons; a driver's record prints its own (``league.record``).
"""

from __future__ import annotations

import time
from dataclasses import replace

from companion import charts
from companion.core.journal import Journal, Session
from companion.games import registry
from companion.games.data import title as title_of
from companion.kit.text import first_fitting
from companion.league import corrections, ledger, seasons
from companion.receipts import layouts
from companion.receipts.model import Line, picture, stamped
from companion.session import SessionRunner

PAPER_CHARS = 32   # a receipt line (companion.receipts.layouts.WIDTH)


def championship_receipt(journal: Journal, championship: str | None = None, now: float | None = None):
    """The shown season's table of ``championship`` (by default the newest race's)."""
    key = ledger.championship_key(journal, championship)
    if key is None:
        return None
    return season_receipt(journal, seasons.shown(journal, key), now)


def championship_receipt_of(title_line: str, rows, header, counted, notes=(), lines=(), now=None):
    """A championship table on paper: ``rows`` under ``title_line``, the points after each
    race drawn under it (two races or more), ``notes`` (results dropped) at its foot,
    ``lines`` (the season) under "After 7 races"."""
    heading = next((w for w in ("Final standings", "Championship") if title_line.startswith(f"{w} ")), "")
    if len(title_line) <= PAPER_CHARS or not heading:
        receipt = layouts.championship(title_line, rows, lines, name_header=header)
    else:        # "Lap counter, Formula Dé points": said whole under the title
        receipt = layouts.championship(heading, rows, [title_line[len(heading) + 1:], *lines], name_header=header)
    if len(counted) >= 2:         # the points after each race, drawn under the table
        spec = charts.championship_spec(counted, [r["name"] for r in rows])
        drawn = (Line("Points after each race", bold=True, align="center"), picture(spec))
        receipt = replace(receipt, items=(*receipt.items[:-1], *drawn, receipt.items[-1]))
    if notes:
        said = (Line("Results dropped", bold=True), *(Line(n[i:i + PAPER_CHARS]) for n in notes
                                                      for i in range(0, len(n), PAPER_CHARS)))
        receipt = replace(receipt, items=(*receipt.items[:-1], *said, receipt.items[-1]))
    return stamped(receipt, [f"Printed {ledger.when(now if now is not None else time.time())}"])


def last_results_receipt(journal: Journal):
    """The results receipt of the newest finished race, rebuilt from its journal: the
    activity's own, or (a race ended early before the game had one) its standings as
    they stood when it ended, as the championship counts them."""
    session = ledger.last_finished(journal)
    return None if session is None else race_receipt(journal, session)


def race_receipt(journal: Journal, session: Session):
    """The results receipt of finished race ``session``, rebuilt from its journal, as the
    club's changes leave it (``results_receipt``)."""
    return results_receipt(journal, SessionRunner.resume(journal, session))


def results_receipt(journal: Journal, runner):
    """The running (or just ended) session's results receipt, dated and numbered: the
    activity's own when it has one now, else one built from its standings (a race
    ended early from the pause menu). None when there are no standings (a dice session)."""
    changed = corrections.of(journal, runner.session) if runner.session.finished is not None else None
    receipt = None if changed is not None and changed.steps else runner.receipts().get("results")
    if receipt is None:
        session = corrections.corrected(runner.session, changed)
        rows = (session.results or {}).get("standings") or runner.results()["standings"]
        if not rows:
            return None
        name = activity_title(runner.session.activity, runner.session.options)
        receipt = layouts.standings_results(f"{name} results", rows)
    if runner.timer.on:
        receipt = layouts.with_thinking(receipt, runner.thinking())
    return stamp(journal, runner.session, receipt)


def activity_title(slug: str, options: dict) -> str:
    """What a session is called on paper: its game's title (a tool set up for a game: the
    tool's title and the game's)."""
    game = options.get("game") if isinstance(options, dict) else None
    if slug not in registry.GAMES and game in registry.GAMES:
        return f"{title_of(slug)}, {title_of(game)}"
    return title_of(slug)


# -- the lines every receipt of a race starts with ------------------------------------

def stamp_lines(journal: Journal, session: Session) -> list[str]:
    """The lines every receipt of a session starts with: its date, that it was ended
    early (from the pause menu), and its number in the championship from the second
    race on (a one-off race is no championship's race 1). A session that runs its own
    championship (Lacorsa's races) numbers its races itself."""
    lines = [ledger.when(session.started)]
    if session.results and session.results.get("ended_early"):
        lines.append("Ended early, as it stood")
    if session.finished is not None:        # a race the club put right says so ("->": paper has no arrow)
        lines += corrections.said(journal, session, arrow="->")
    own = isinstance(session.options, dict) and session.options.get("championship") is True
    key = ledger.key_of(session)
    if key and not own:
        n = seasons.race_number(journal, session)
        if n > 1:
            name = seasons.season_of(journal, session).name
            lines.append(first_fitting(f"{ledger.title(key)} {name}, race {n}",
                                       f"{ledger.title(key.partition(':')[0])} {name}, race {n}",
                                       f"Season {name}, race {n}", f"Championship race {n}", limit=PAPER_CHARS))
    return lines


def stamp(journal: Journal, session: Session, receipt):
    """``receipt`` with the session's date and race number at the top."""
    return None if receipt is None else stamped(receipt, stamp_lines(journal, session))


def season_receipt(journal: Journal, season: seasons.Season, now: float | None = None, *, final: bool = False):
    """A season's table on paper (None when it has no race): its name and how many races,
    the points after each race, and the results it dropped."""
    rows = seasons.table(journal, season)
    if not rows:
        return None
    header = layouts.PLAYER_HEADER if ledger.rows_are(journal, season.game) == "players" else layouts.NAME_HEADER
    heading = f"{'Final standings' if final else 'Championship'} {ledger.title(season.game)}"
    return championship_receipt_of(heading, rows, header, season.race_list(), seasons.dropped_note(rows),
                                   [f"Season {season.name}" + (f", {len(season.race_list())} of {season.races} races"
                                                               if season.races else "")], now)


def after_race(journal: Journal, session: Session):
    """What a finished race prints for its season: the final standings of the season it
    completes (``seasons.completed_by``, which starts the next one), else None."""
    season = seasons.completed_by(journal, session)
    return None if season is None else season_receipt(journal, season, final=True)
