"""What the box's results screens ask of the club's record (``Host.club()``): the seasons
of the game the championship screen shows, the drivers' records, merging two spellings,
and their receipts. Reads and writes the journal only through ``league.seasons`` and
``league.record``."""

from __future__ import annotations

from typing import Callable

from companion.core.journal import Journal
from companion.league import ledger, seasons
from companion.league.onscreen import finish_lines, screen_count, screen_season, unshown_lines


class Club:
    def __init__(self, journal: Journal, submit: Callable):
        self.journal = journal
        self.submit = submit          # hands a receipt to the printer

    def game(self) -> str | None:
        """The championship the results screen shows: the newest race's."""
        return ledger.championship_key(self.journal)

    # -- seasons -------------------------------------------------------------------------

    def default_season_name(self) -> str:
        game = self.game()
        return seasons.default_name(self.journal, game) if game else ""

    def start_season(self, name: str, races: int | None, drop: int) -> str:
        """Start a season of the shown game; what to tell the players."""
        game = self.game()
        if game is None:
            return "No finished race yet"
        try:
            season = seasons.start(self.journal, game, name, races=races, drop=drop)
        except seasons.SeasonError as exc:
            return str(exc)
        return f"Season {season.name} started"

    def season_names(self) -> list[str]:
        """The shown game's seasons, the current one first."""
        game = self.game()
        return [s.name for s in reversed(seasons.listed(self.journal, game))] if game else []

    def season_lines(self, name: str) -> list[str]:
        season = seasons.find(self.journal, self.game(), name)
        rows = seasons.table(self.journal, season)
        return [season.label(), *(f"{r['position']} {r['name']} {r['points']}" for r in rows),
                *finish_lines(rows), *(f"Drop {line}" for line in seasons.dropped_note(rows)),
                *unshown_lines(self.journal)]

    def print_season(self, name: str) -> str:
        season = seasons.find(self.journal, self.game(), name)
        from companion.league import paper     # its receipts: loaded to print
        receipt = paper.season_receipt(self.journal, season, final=season.complete())
        if receipt is None:
            return "No race in that season yet"
        self.submit(receipt)
        return ""

    # -- drivers -------------------------------------------------------------------------

    def driver_names(self) -> list[str]:
        """Every driver, the most races first."""
        from companion.league import record   # its dataclass is made when the drivers are asked for
        every = record.records(self.journal).values()
        return [r.name for r in sorted(every, key=lambda r: (-r.races, r.name.casefold()))]

    def driver_lines(self, name: str) -> list[str]:
        from companion.league import record
        rec = record.find(self.journal, name)
        return [*rec.lines(), *(screen_count(game, n) for game, n in rec.games.items()),
                *(screen_season(game, season) for game, season in rec.won_in)]

    def print_driver(self, name: str) -> str:
        from companion.league import record
        self.submit(record.receipt(record.find(self.journal, name)))
        return ""

    def merge(self, name: str, into: str) -> str:
        from companion.league import record
        try:
            record.merge(self.journal, name, into)
        except record.RacedEachOther:
            return "They raced each other"
        except LookupError as exc:
            return str(exc)
        return f"{name} is {into} now"

    def merged_names(self) -> list[str]:
        from companion.league import record
        return record.merged_names(self.journal)

    def unmerge(self, name: str) -> str:
        from companion.league import record
        try:
            record.unmerge(self.journal, name)
        except LookupError as exc:
            return str(exc)
        return f"{name} on their own again"
