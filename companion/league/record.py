"""A driver's record: every race a name stood in, across games and seasons.

Read from the finished races in the journal (their championship entries, as the seasons
count them) and the club's events: names are one driver whatever their letter case (as
the box offers a name again), and an owner's merge (``{"kind": "merge", "from": "Ann",
"into": "Anne"}``) makes two spellings one driver. Nothing is rewritten.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from companion.core.journal import Journal
from companion.core.names import counted
from companion.league import ledger, seasons


@dataclass
class Record:
    name: str
    races: int = 0
    wins: int = 0
    podiums: int = 0
    best: int | None = None
    not_finished: int = 0
    points: int = 0
    seasons_won: list[str] = field(default_factory=list)      # "Formula Dé 2026-1"
    won_in: list[tuple[str, str]] = field(default_factory=list)   # (game, season) of each
    games: dict[str, int] = field(default_factory=dict)        # game -> races
    places: list[dict[str, Any]] = field(default_factory=list)  # each race, oldest first

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "races": self.races, "wins": self.wins, "podiums": self.podiums,
                "best": self.best, "not_finished": self.not_finished, "points": self.points,
                "seasons_won": list(self.seasons_won), "games": dict(self.games), "places": list(self.places)}

    def lines(self) -> list[str]:
        """The record in short lines (the box's screen, the receipt)."""
        return [f"Races {self.races}", f"Wins {self.wins}", f"Podiums {self.podiums}",
                f"Best {self.best if self.best is not None else '-'}", f"Not finished {self.not_finished}",
                f"Points {self.points}", f"Seasons won {len(self.seasons_won)}"]


def unnamed(entry: dict[str, Any]) -> bool:
    """A car no one named: called by its colour ("Blue"), its name its colour's, or with no
    colour given a colour's name. Not a driver: it stays in its race's results only."""
    name = str(entry.get("name", "")).strip().casefold()
    colour = entry.get("colour")
    if colour is not None:
        return name == str(colour).strip().casefold()
    return name in _colour_names()


@functools.cache
def _colour_names() -> frozenset[str]:
    from companion.kit.cars import COLOURS
    return frozenset(c.casefold() for c in COLOURS)


def key(name: str, merged: dict[str, str]) -> str:
    """The driver a name is: its merged name's, any letter case."""
    return merged.get(name.casefold(), name).casefold()


def records(journal: Journal) -> dict[str, Record]:
    """Every driver's record (casefolded name -> Record), from every game's seasons;
    counted again once the journal has changed."""
    return journal.cached("records", lambda: _records(journal))


def _records(journal: Journal) -> dict[str, Record]:
    merged = seasons.merges(journal)
    out: dict[str, Record] = {}
    for game in seasons.games(journal):
        every = seasons.seasons(journal, game)
        for number, season in enumerate(every):
            for session in season.sessions:
                dnf = ledger.not_finished(session.results or {})
                held = ledger.session_races(session)
                for k, race in enumerate(held, start=1):
                    for place, entry in enumerate(race, start=1):
                        if unnamed(entry):
                            continue
                        _count(out, merged, game, season.name, session, entry, place, len(race),
                               dnf if k == len(held) else set())
            over = season.complete() or number < len(every) - 1
            table = seasons.standings(season, merged) if over else []
            if table and table[0]["points"] > 0:
                winner = out.get(key(table[0]["name"], merged))      # None: an unnamed car
                if winner is not None:
                    winner.seasons_won.append(f"{ledger.title(game)} {season.name}")
                    winner.won_in.append((game, season.name))
    for rec in out.values():
        rec.places.sort(key=lambda p: p["started"])     # every game's races, in time order
    return out


def _count(out, merged, game, season, session, entry, place, field_size, dnf) -> None:
    name = str(entry["name"])
    who = key(name, merged)
    rec = out.setdefault(who, Record(merged.get(name.casefold(), name)))
    position = int(entry.get("position", place))
    rec.races += 1
    rec.wins += position == 1
    rec.podiums += position <= 3
    rec.best = position if rec.best is None else min(rec.best, position)
    rec.not_finished += name.casefold() in dnf
    rec.points += int(entry.get("points", 0) or 0)
    rec.games[game] = rec.games.get(game, 0) + 1
    rec.places.append({"game": game, "season": season, "started": session.started,
                       "position": position, "cars": field_size})


def find(journal: Journal, name: str) -> Record:
    """The record of ``name`` (any letter case, or a spelling merged into another)."""
    every = records(journal)
    found = every.get(key(name.strip(), seasons.merges(journal)))
    if found is None:
        known = ", ".join(sorted(r.name for r in every.values())) or "none yet"
        raise LookupError(f"no driver '{name}' in the journal; drivers: {known}")
    return found


class RacedEachOther(LookupError):
    """Two names that stood in one race: two drivers, not two spellings of one."""


def merge(journal: Journal, name: str, into: str) -> None:
    """Make ``name`` the same driver as ``into`` from now on (an event; no race changes).
    Both must be drivers of the journal, and different."""
    every = records(journal)
    merged = seasons.merges(journal)
    a, b = key(name.strip(), merged), key(into.strip(), merged)
    for given, k in ((name, a), (into, b)):
        if k not in every:
            raise LookupError(f"no driver '{given}' in the journal; drivers: "
                              f"{', '.join(sorted(r.name for r in every.values())) or 'none yet'}")
    if a == b:
        raise LookupError(f"'{name}' and '{into}' are one driver already")
    met = raced_together(journal, name, into)
    if met is not None:
        raise RacedEachOther(f"'{every[a].name}' and '{every[b].name}' raced each other "
                          f"({ledger.title(ledger.key_of(met) or met.activity)}, "
                          f"{ledger.when(met.started)}): two drivers, not two spellings")
    journal.add_club_event({"kind": "merge", "from": every[a].name, "into": every[b].name})


def unmerge(journal: Journal, name: str) -> str:
    """Take back the merge of ``name`` (an event; the name is a driver of its own again).
    Returns the name it was counted as."""
    was = seasons.merges(journal).get(name.strip().casefold())
    every = merged_names(journal)
    if was is None:
        raise LookupError(f"'{name}' is not counted as anyone else; merged: {', '.join(every) or 'nobody'}")
    spelled = next(n for n in every if n.casefold() == name.strip().casefold())
    journal.add_club_event({"kind": "unmerge", "name": spelled})
    return was


def merged_names(journal: Journal) -> list[str]:
    """The names counted as another driver now, spelled as they were merged."""
    spelled = {str(e["from"]).casefold(): str(e["from"]) for e in journal.club_events()
               if e.get("kind") == "merge" and e.get("from")}
    return sorted((spelled.get(n, n) for n in seasons.merges(journal)), key=str.casefold)


def raced_together(journal: Journal, name: str, other: str):
    """The first finished session in which ``name`` and ``other`` (as the journal's merges
    make them) stood in one race, or None."""
    merged = seasons.merges(journal)
    pair = {key(name.strip(), merged), key(other.strip(), merged)}
    for session in ledger.finished(journal):
        for race in ledger.session_races(session):
            if pair <= {key(str(e["name"]), merged) for e in race}:
                return session
    return None


def receipt(rec: Record, now: float | None = None):
    """A driver's record on paper: the numbers, the seasons won, and their place in every
    race drawn (two races or more)."""
    import time

    from companion import charts     # paper, its receipts and pictures: loaded to print
    from companion.league import paper
    from companion.receipts.model import Feed, Line, Receipt, Rule, picture, stamped

    items: list[Any] = [Line(rec.name, bold=True, size=2, align="center"), Rule()]
    items += [Line(line) for line in rec.lines()]
    items += [Line(f"{ledger.title(game)}: {counted(n, 'race')}"[:paper.PAPER_CHARS]) for game, n in rec.games.items()]
    for won in rec.seasons_won:
        items.append(Line(f"  {won}"[:paper.PAPER_CHARS]))
    if len(rec.places) >= 2:
        items += [Rule(), Line("Place in each race", bold=True, align="center"),
                  picture(charts.places_spec(rec.name, [p["position"] for p in rec.places],
                                             [p["cars"] for p in rec.places]))]
    items += [Rule(), Feed(2)]
    made = Receipt("record", "Driver's record", tuple(items))
    return stamped(made, [f"Printed {ledger.when(now if now is not None else time.time())}"])


def summaries(journal: Journal) -> list[dict[str, Any]]:
    """Every driver's record without the race by race places (the table screen's
    ``drivers``), the most races first."""
    every = sorted(records(journal).values(), key=lambda r: (-r.races, r.name.casefold()))
    return [{k: v for k, v in r.as_json().items() if k != "places"} for r in every]
