"""The club's screens, reached with OK from the championship (``flow.Results``): start a new
season, read and print past seasons, each driver's record, and merge two spellings of a
driver. They ask everything of ``app.club()`` (``companion.league.club.Club``)."""

from __future__ import annotations

from typing import Callable

from companion.ui import screens as ui
from companion.ui.nav import BACK, GO, OK, Screen, Scroll, paging, pressed, step as _step
from companion.ui.view import View

SEASON_KEY = "season"       # the name entry's key for a season's name
RACE_CHOICES = (None, *range(1, 21))
DROP_CHOICES = tuple(range(0, 4))


def _menu(title: str, items: list[str], selected: int, footer: str) -> View:
    from dataclasses import replace
    return replace(ui.main_menu(items, selected, title=title), footer=footer)


class ClubMenu(Screen):
    """Plain classes, not dataclasses, here: this module is loaded on a press (OK on the
    championship), and making a dataclass costs more than that press's whole budget."""
    chooses = True
    ITEMS = ("New season", "Seasons", "Drivers", "Merge names", "Undo a merge", "Import races")

    def __init__(self, selected: int = 0):
        self.selected = selected

    def view(self, app) -> View:
        return _menu("Club", list(self.ITEMS), self.selected, "OK: choose")

    def handle(self, app, gesture) -> None:
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(self.ITEMS)
        elif pressed(gesture, BACK):
            app.pop()
        elif pressed(gesture, OK):
            club = app.club()
            if self.selected == 0:
                app.push(NewSeason(names={SEASON_KEY: club.default_season_name()}))
            elif self.selected == 1:
                app.push(Pick("Seasons", club.season_names(), lambda app, name: app.push(
                    Lines(name, lambda: app.club().season_lines(name), lambda: app.club().print_season(name)))))
            elif self.selected == 2:
                app.push(Pick("Drivers", club.driver_names(), lambda app, name: app.push(
                    Lines(name, lambda: app.club().driver_lines(name), lambda: app.club().print_driver(name)))))
            elif self.selected == 3:
                app.push(Pick("Merge whom", club.driver_names(), _merge_into))
            elif self.selected == 4:
                app.push(Pick("Undo a merge", club.merged_names(), _unmerge))
            else:
                _import_from(app, club.import_files())


def _import_from(app, files: list) -> None:
    """The export files on a USB stick or in STATE/import; one chosen is checked and
    planned, and written only once its question ("2 races into season Cup?") is answered OK."""
    if not files:
        app.toast = "No export file: put one on a USB stick, or in the import folder of the state folder"
        return
    shown = {_file_line(p, k): p for k, p in enumerate(files)}

    def chosen(app, line: str) -> None:
        from companion.ui.dialog import Confirm
        plan, said = app.club().plan_import(shown[line])
        if plan is None:
            app.toast = said
            return

        def yes() -> None:
            app.pop()                  # the list of files
            app.toast = app.club().import_races(plan)
        app.push(Confirm(said, yes))
    app.push(Pick("Import from", list(shown), chosen))


def _file_line(path, k: int) -> str:
    """A file's line in the list: its name, cut to the line (a number keeps two apart)."""
    from companion.profile import MENU_CHARS
    name = path.stem
    return name if len(name) <= MENU_CHARS else f"{k + 1} {name[:MENU_CHARS - 4]}~"


def _merge_into(app, name: str) -> None:
    others = [n for n in app.club().driver_names() if n != name]

    def confirm(app, into: str) -> None:
        from companion.ui.dialog import Confirm

        def yes() -> None:
            app.pop()                  # the "into whom" list
            app.toast = app.club().merge(name, into)
        app.push(Confirm(f"Count {name} as {into}?", yes))
    app.push(Pick(f"{name} is", others, confirm))


def _unmerge(app, name: str) -> None:
    from companion.ui.dialog import Confirm

    def yes() -> None:
        app.pop()                      # the list of merged names
        app.toast = app.club().unmerge(name)
    app.push(Confirm(f"{name} on their own?", yes))


class NewSeason(Screen):
    """A new season of the shown game: its name (entered like a player's), a set number
    of races or open, how many worst results each driver drops. OK on "Start season" starts it."""
    chooses = True

    def __init__(self, names: dict[str, str], races: int | None = None, drop: int = 0):
        self.names, self.races, self.drop, self.selected = names, races, drop, 0

    def rows(self) -> list[str]:
        return [f"Name {self.names.get(SEASON_KEY, '')}", f"Races {self.races or 'open'}",
                f"Drop worst {self.drop}", "Start season"]

    def view(self, app) -> View:
        return _menu("New season", self.rows(), self.selected, "OK: choose")

    def handle(self, app, gesture) -> None:
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(self.rows())
        elif pressed(gesture, BACK):
            app.pop()
        elif pressed(gesture, OK) and self.selected == 3:
            name = self.names.get(SEASON_KEY) or app.club().default_season_name()
            said = app.club().start_season(name, self.races, self.drop)
            if said.startswith("Season "):
                app.pop()
                app.pop()              # back on the championship, now the new season's
            app.toast = said
        elif pressed(gesture, OK) and self.selected == 0:
            from companion.ui.players import NameEntry
            app.push(NameEntry(SEASON_KEY, self.names, (SEASON_KEY,)))
        elif pressed(gesture, OK) and self.selected == 1:
            self.races = RACE_CHOICES[(RACE_CHOICES.index(self.races) + 1) % len(RACE_CHOICES)]
        elif pressed(gesture, OK) and self.selected == 2:
            self.drop = DROP_CHOICES[(DROP_CHOICES.index(self.drop) + 1) % len(DROP_CHOICES)]


class Pick(Screen):
    """A list of names: OK does ``then(app, name)``."""
    chooses = True

    def __init__(self, title: str, items: list[str], then: Callable):
        self.title, self.items, self.then, self.selected = title, items, then, 0

    def view(self, app) -> View:
        if not self.items:
            from dataclasses import replace
            return replace(ui.message(self.title, "Nobody yet."), footer="BACK: back")
        return _menu(self.title, self.items, self.selected, "OK: choose")

    def handle(self, app, gesture) -> None:
        if self.items and _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(self.items)
        elif pressed(gesture, BACK) or (not self.items and pressed(gesture, OK)):
            app.pop()
        elif pressed(gesture, OK):
            self.then(app, self.items[self.selected])


class Lines(Screen):
    """Lines to read (a season's table, a driver's record): GO prints them."""

    def __init__(self, title: str, lines: Callable[[], list[str]], printing: Callable[[], str]):
        self.title, self.lines, self.printing, self.scroll = title, lines, printing, Scroll()

    def view(self, app) -> View:
        from dataclasses import replace
        return self.scroll.show(replace(ui.main_menu(self.lines(), -1, title=self.title),
                                        footer="GO: print  BACK: back"))

    def handle(self, app, gesture) -> None:
        if paging(gesture):
            self.scroll.page()
        elif _step(gesture):
            self.scroll.line(_step(gesture))
        elif pressed(gesture, GO):
            app.toast = self.printing() or app.toast
        elif pressed(gesture, BACK, OK):
            app.pop()
