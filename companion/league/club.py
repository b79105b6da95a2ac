"""What the box's results screens ask of the club's record (``Host.club()``): the seasons
of the game the championship screen shows (their team standings too), the drivers'
records, merging two spellings, and their receipts. Reads and writes the journal only
through ``league.seasons``, ``league.teams`` and ``league.record``."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from companion.core.journal import Journal
from companion.kit.text import MENU_CHARS
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
        from companion.league import steward
        try:
            made = steward.new_season(self.journal, game, name, races=races, drop=drop)
        except steward.CorrectionError as exc:
            return str(exc)
        return f"Season {made['name']} started"

    def season_names(self) -> list[str]:
        """The shown game's seasons, the current one first."""
        game = self.game()
        return [s.name for s in reversed(seasons.listed(self.journal, game))] if game else []

    def season_lines(self, name: str) -> list[str]:
        """A season's page: its table, how drivers' races ended, the results dropped, its
        teams (made again only when the journal's races or seasons change: the page is shown
        every frame)."""
        from companion.league import teams
        game = self.game()

        def lines() -> list[str]:
            season = seasons.find(self.journal, game, name)
            rows = seasons.table(self.journal, season)
            return [season.label(), *(f"{r['position']} {r['name']} {r['points']}" for r in rows),
                    *finish_lines(rows), *(f"Drop {line}" for line in seasons.dropped_note(rows)),
                    *teams.lines(teams.table(self.journal, season)), *unshown_lines(self.journal)]
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

    # -- mistakes put right (``league.steward``) -------------------------------------------

    def races(self) -> list[tuple[str, str]]:
        """(race id, a line naming it: ``29/11 19:05 Anne``, ``x 29/11 Anne`` voided) of every
        finished race of the shown game, the newest first."""
        import time

        from companion.kit.text import fit
        game = self.game()
        if game is None:
            return []
        every = [(s, False) for season in seasons.seasons(self.journal, game) for s in season.sessions]
        every += [(s, True) for season in seasons.seasons(self.journal, game) for s in season.voided]
        every.sort(key=lambda sv: ledger.finish_order(sv[0]), reverse=True)
        ids = self.journal.race_ids()
        out = []
        for s, voided in every:
            winner = str(s.results["standings"][0]["name"])
            when = time.strftime("%d/%m %H:%M", time.localtime(s.started))
            out.append((ledger.race_id(s, ids), fit(f"{'x ' if voided else ''}{when} {winner}", MENU_CHARS)))
        return out

    def race(self, rid: str):
        from companion.league import corrections
        return corrections.find_race(self.journal, rid)

    def race_lines(self, rid: str) -> list[str]:
        """A race on the screen: its season, its standings as they count, its changes."""
        from companion.kit.text import fit
        from companion.league import corrections
        session = self.race(rid)
        changed = corrections.of(self.journal, session)
        counted = corrections.corrected(session, changed)
        head = [fit(f"Season {seasons.season_of(self.journal, counted).name}", MENU_CHARS),
                ledger.when(session.started)[4:]]
        rows = [fit(f"{k} {r['name']} {r.get('points', 0)}", MENU_CHARS)
                for k, r in enumerate(counted.results["standings"], start=1)]
        import textwrap
        said = [line for n in corrections.notes(session, changed, arrow=">")
                for line in textwrap.wrap(n, MENU_CHARS, subsequent_indent=" ")]
        return [*head, *rows, *said]

    def race_names(self, rid: str) -> list[str]:
        from companion.league import corrections
        session = self.race(rid)
        return [str(r["name"]) for r in corrections.corrected(session, corrections.of(self.journal, session))
                .results["standings"]]

    def places(self, rid: str) -> list[str]:
        """The places of a race in words: "1st", "2nd"..."""
        from companion.core.names import ordinal
        return [ordinal(n) for n in range(1, len(self.race_names(rid)) + 1)]

    def is_voided(self, rid: str) -> bool:
        from companion.league import corrections
        c = corrections.of(self.journal, self.race(rid))
        return c is not None and c.void is not None

    def other_seasons(self, rid: str) -> list[str]:
        """The seasons of the race's game it could be moved to, the newest first."""
        session = self.race(rid)
        now = seasons.season_of(self.journal, session).name
        return [n for n in self.season_names() if n != now]

    def change(self, do: Callable[[], str]) -> str:
        """Make a change (``do`` returns what to tell the players); the reason it was not made."""
        from companion.league import steward
        try:
            return do()
        except steward.CorrectionError as exc:
            return str(exc)

    def void(self, rid: str, reason: str) -> str:
        from companion.league import steward
        return self.change(lambda: steward.void(self.journal, self.race(rid), reason) and "Race voided")

    def unvoid(self, rid: str) -> str:
        from companion.league import steward
        return self.change(lambda: steward.unvoid(self.journal, self.race(rid)) and "Race counts again")

    def move(self, rid: str, season: str) -> str:
        from companion.league import steward
        return self.change(lambda: steward.move(self.journal, self.race(rid), season) and f"Moved to {season}")

    def correct_place(self, rid: str, name: str, place: int, reason: str) -> str:
        from companion.league import steward
        return self.change(lambda: steward.correct_place(self.journal, self.race(rid), name, place, reason)
                           and "Place corrected")

    def correct_name(self, rid: str, old: str, new: str) -> str:
        from companion.league import steward
        return self.change(lambda: steward.correct_name(self.journal, self.race(rid), old, new) and "Name corrected")

    def penalty(self, rid: str, name: str, points: int, reason: str) -> str:
        from companion.league import steward
        return self.change(lambda: steward.penalty(self.journal, self.race(rid), name, points, reason)
                           and ("Penalty given" if points > 0 else "Points given back"))

    def season_rules(self, name: str) -> tuple[int | None, int]:
        season = seasons.find(self.journal, self.game(), name)
        return season.races, season.drop

    def set_season(self, name: str, new_name: str, races: int | None, drop: int) -> str:
        """Rename season ``name`` and/or set its races and drop (one change each)."""
        from companion.league import steward
        game, said = self.game(), []
        season = seasons.find(self.journal, game, name)
        if (races, drop) != (season.races, season.drop):
            said.append(self.change(lambda: steward.set_season(self.journal, game, name, races, drop,
                                                               open_ended=races is None) and "Rules set"))
        if new_name.strip() and new_name.strip() != season.name:
            said.append(self.change(lambda: steward.rename_season(self.journal, game, name, new_name) and "Renamed"))
        return ", ".join(said) or "Nothing changed"

    def last_change(self) -> str | None:
        """The newest change that stands, in words (None: nothing to take back)."""
        from companion.league import steward
        last = steward.last_change(self.journal)
        return None if last is None else steward.describe(last)

    def undo_change(self) -> str:
        from companion.league import steward
        return self.change(lambda: f"Undone: {steward.describe(steward.undo(self.journal))}")

    def print_race(self, rid: str) -> str:
        from companion.league import paper     # its receipts: loaded to print
        self.submit(paper.race_receipt(self.journal, self.race(rid)))
        return ""
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
