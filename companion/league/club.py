"""What the box's results screens ask of the club's record (``Host.club()``): the seasons
of the game the championship screen shows, the drivers' records, merging two spellings,
and their receipts. Reads and writes the journal only through ``league.seasons`` and
``league.record``."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from companion.core.journal import Journal
from companion.league import ledger, seasons
from companion.league.onscreen import finish_lines, screen_count, screen_season, unshown_lines


MEDIA = Path("/media")
"""Where a USB stick is mounted (Raspberry Pi OS: ``/media/<user>/<label>``)."""
IMPORT_FOLDER = "import"
"""The folder of the state directory the box imports from as well (``STATE/import``)."""


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
        """A season's page: its table, how drivers' races ended, the results dropped (made
        again only when the journal's races or seasons change: the page is shown every frame)."""
        game = self.game()

        def lines() -> list[str]:
            season = seasons.find(self.journal, game, name)
            rows = seasons.table(self.journal, season)
            return [season.label(), *(f"{r['position']} {r['name']} {r['points']}" for r in rows),
                    *finish_lines(rows), *(f"Drop {line}" for line in seasons.dropped_note(rows)),
                    *unshown_lines(self.journal)]
        return self.journal.cached(f"season lines {game} {name}", lines)

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

    # -- an import from another box ------------------------------------------------------

    def import_files(self) -> list[Path]:
        """The export files the box can import (``*.json``): in ``STATE/import`` and at the
        top (or one folder down) of a USB stick under :data:`MEDIA`."""
        folders = [self.journal.path.parent / IMPORT_FOLDER]
        for pattern in ("*", "*/*"):
            try:
                folders += sorted(p for p in MEDIA.glob(pattern) if p.is_dir())
            except OSError:
                continue
        found: list[Path] = []
        for folder in folders:
            try:
                found += sorted(p for p in folder.glob("*.json") if p.is_file())
            except OSError:
                continue
        return found

    def plan_import(self, path: Path):
        """(the plan, the question to ask before writing: ``2 races into season Cup?``), or
        (None, why it is refused or there is nothing to add). Nothing is written."""
        from companion.league import exchange
        if self.journal.read_only:
            return None, "The journal is read-only here: nothing was imported"
        try:
            plan = exchange.plan_import(self.journal, exchange.read_file(path))
        except exchange.ImportRefused as exc:
            return None, f"{path.name} refused, nothing was changed: {exc}"
        except (OSError, UnicodeDecodeError) as exc:
            return None, f"Cannot read {path.name}: {getattr(exc, 'strerror', None) or exc}"
        if not plan.new:
            return None, f"Nothing new: its {plan.held} race{'' if plan.held == 1 else 's'} are here already"
        return plan, plan.asks()

    def import_races(self, plan) -> str:
        """Write what :meth:`plan_import` planned (asked and answered OK); what to tell."""
        from companion.league import exchange
        exchange.import_season(self.journal, plan)
        return f"Added {len(plan.new)} race{'' if len(plan.new) == 1 else 's'} to season {plan.into}"
