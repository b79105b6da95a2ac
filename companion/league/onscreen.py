"""Lines of the box's screen from the club's record: a championship's name and race
count, the season shown and its table (``championship_lines``), a season won."""

from __future__ import annotations

from companion.core.journal import Journal
from companion.core.names import counted
from companion.kit.text import LINE_CHARS, first_fitting
from companion.league import ledger, seasons


def screen_count(key: str, n: int) -> str:
    """``Formula Dé: 3 races`` for a line of the box's screen: the championship's whole
    name where it fits, else the bare count, else the tool's name for a tool scoring with a
    game's points ("Lap counter: 3 races")."""
    tool = ledger.title(key.partition(":")[0])
    return first_fitting(f"{ledger.title(key)}: {counted(n, 'race')}", f"{ledger.title(key)}: {n}",
                         f"{tool}: {counted(n, 'race')}", f"{tool}: {n}")


def screen_season(key: str, season: str) -> str:
    """A season won on a line of the box's screen: ``Won Formula Dé 2026-1``, shorter
    where it does not fit."""
    return first_fitting(f"Won {ledger.title(key)} {season}", f"Won {ledger.title(key.partition(':')[0])} {season}",
                         f"Won {season}")


def championship_lines(journal: Journal) -> list[str]:
    """Short lines for the screen: ``Formula Dé: 3 races``, ``Season 2026-2``, ``1 Red 36``
    (a long name alone, its count on the season's line)."""
    key = ledger.championship_key(journal)
    if key is None:
        return []
    season = seasons.shown(journal, key)
    rows = seasons.table(journal, season)
    count = len(season.race_list())
    of = f" ({count}/{season.races})" if season.races else ""
    head = f"{ledger.title(key)}: {counted(count, 'race')}"
    if len(head) <= LINE_CHARS:
        lines = [head, first_fitting(f"Season {season.name}{of}", f"{season.name}{of}", season.name)]
    else:      # a long name alone, its count on the season's line: "Street Illegal", "Season 2026-1, 1 race"
        said = f"{count} of {season.races} races" if season.races else counted(count, "race")
        lines = [first_fitting(ledger.title(key), ledger.title(key.partition(":")[0])),
                 first_fitting(f"Season {season.name}, {said}", f"{season.name}, {said}", f"{season.name}{of}")]
    return [*lines, *(f"{r['position']} {r['name']} {r['points']}" for r in rows), *unshown_lines(journal)]


def season_over(journal: Journal, season: seasons.Season) -> str:
    """What the box says when a race completes ``season`` (``seasons.completed_by`` has
    started the next): an open-ended season is full at ``seasons.MAX_RACES`` races."""
    why = "complete" if season.races else f"full ({season.bound} races, the most a season holds)"
    return f"Season {season.name} is {why}: the next race starts season {seasons.current(journal, season.game).name}"


def finish_lines(rows: list[dict]) -> list[str]:
    """How the drivers of a season's table who did not finish every race ended them, a
    line each: ``Bob: 1 out, 1 DNS`` (out: did not finish; DNS: did not start)."""
    lines = []
    for r in rows:
        said = ", ".join(f"{n} {what}" for n, what in ((r["out"], "out"), (r["did_not_start"], "DNS")) if n)
        if said:
            lines.append(first_fitting(f"{r['name']}: {said}", f"{r['position']}: {said}"))
    return lines


def unshown_lines(journal: Journal) -> list[str]:
    """``Race 7 unreadable`` for each stored race the views cannot show (``ledger.unshown``),
    then what to do: the command that says more."""
    bad = ledger.unshown(journal)
    if not bad:
        return []
    return [*(first_fitting(f"Race {s.id} unreadable", f"Race {s.id} bad") for s in bad[:3]),
            *(["and more"] if len(bad) > 3 else []), "companion results", "says more"]
