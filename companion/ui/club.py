"""The club's screens, reached with OK from the championship (``flow.Results``): start a new
season, read and print past seasons, set a season's rules, put a race right (void, move,
a place, a name, a penalty), each driver's record, merge two spellings of a driver, and
take back the last change. Every change is confirmed with OK (never GO). They ask
everything of ``app.club()`` (``companion.league.club.Club``)."""

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


class _Choices(Screen):
    """A menu of the club's: UP and DOWN move the selection, BACK goes back, OK does
    ``choose(app, row)`` with the row selected. Plain classes, not dataclasses, here: this
    module is loaded on a press (OK on the championship), and making a dataclass costs more
    than that press's whole budget."""
    chooses = True
    selected = 0

    def title(self, app) -> str:
        raise NotImplementedError

    def rows(self, app) -> list[str]:
        raise NotImplementedError

    def choose(self, app, row: int) -> None:
        raise NotImplementedError

    def view(self, app) -> View:
        return _menu(self.title(app), self.rows(app), self.selected, "OK: choose")

    def handle(self, app, gesture) -> None:
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(self.rows(app))
        elif pressed(gesture, BACK):
            app.pop()
        elif pressed(gesture, OK):
            self.choose(app, self.selected)


class ClubMenu(_Choices):
    ITEMS = ("New season", "Seasons", "Drivers", "Merge names", "Undo a merge", "Season rules", "Races",
             "Undo a change", "Import races")

    def __init__(self, selected: int = 0):
        self.selected = selected

    def title(self, app) -> str:
        return "Club"

    def rows(self, app) -> list[str]:
        return list(self.ITEMS)

    def choose(self, app, row: int) -> None:
        club, item = app.club(), self.ITEMS[row]
        if item == "New season":
            app.push(NewSeason(names={SEASON_KEY: club.default_season_name()}))
        elif item == "Seasons":
            app.push(Pick("Seasons", club.season_names(), lambda app, name: app.push(
                Lines(name, lambda: app.club().season_lines(name), lambda: app.club().print_season(name)))))
        elif item == "Season rules":
            app.push(Pick("Season rules", club.season_names(), lambda app, name: app.push(
                SeasonRules(name, {SEASON_KEY: name}, *app.club().season_rules(name)))))
        elif item == "Races":
            races = club.races()
            app.push(Pick("Races", [label for _, label in races], lambda app, rid: app.push(RaceMenu(rid)),
                          values=[rid for rid, _ in races]))
        elif item == "Drivers":
            app.push(Pick("Drivers", club.driver_names(), lambda app, name: app.push(
                Lines(name, lambda: app.club().driver_lines(name), lambda: app.club().print_driver(name)))))
        elif item == "Merge names":
            app.push(Pick("Merge whom", club.driver_names(), _merge_into))
        elif item == "Undo a merge":
            app.push(Pick("Undo a merge", club.merged_names(), _unmerge))
        elif item == "Undo a change":
            _undo_change(app)
        else:
            _import_from(app, club.import_files())


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


class NewSeason(_Choices):
    """A new season of the shown game: its name (entered like a player's), a set number
    of races or open, how many worst results each driver drops. OK on "Start season" starts it."""
    TITLE, LAST = "New season", "Start season"

    def __init__(self, names: dict[str, str], races: int | None = None, drop: int = 0):
        self.names, self.races, self.drop, self.selected = names, races, drop, 0

    def title(self, app) -> str:
        return self.TITLE

    def rows(self, app) -> list[str]:
        return [f"Name {self.names.get(SEASON_KEY, '')}", f"Races {self.races or 'open'}",
                f"Drop worst {self.drop}", self.LAST]

    def choose(self, app, row: int) -> None:
        if row == 3:
            self.save(app)
        elif row == 0:
            from companion.ui.players import NameEntry
            app.push(NameEntry(SEASON_KEY, self.names, (SEASON_KEY,)))
        elif row == 1:
            self.races = _next(RACE_CHOICES, self.races)
        else:
            self.drop = _next(DROP_CHOICES, self.drop)

    def save(self, app) -> None:
        name = self.names.get(SEASON_KEY) or app.club().default_season_name()
        said = app.club().start_season(name, self.races, self.drop)
        if said.startswith("Season "):
            app.pop()
            app.pop()              # back on the championship, now the new season's
        app.toast = said


def _next(choices: tuple, now):
    """The choice after ``now`` (the first when ``now`` is not one: a season set on the
    command line to more races than the box offers)."""
    return choices[(choices.index(now) + 1) % len(choices)] if now in choices else choices[0]


class Pick(Screen):
    """A list of names: OK does ``then(app, name)`` (with ``values``: the chosen one's value)."""
    chooses = True

    def __init__(self, title: str, items: list[str], then: Callable, values: list | None = None):
        self.title, self.items, self.then, self.selected = title, items, then, 0
        self.values = items if values is None else values

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
            self.then(app, self.values[self.selected])


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


# -- mistakes put right -----------------------------------------------------------------

REASONS = ("steward", "test race", "wrong result", "entered twice", "rules")
"""The reasons the box offers for a change (the command line takes any text)."""
PENALTIES = (1, 2, 3, 5, 10, -1, -2, -3, -5, -10)
"""Points a penalty takes (negative: gives back), offered as "-3" and "+3"."""
DRIVER_KEY = "driver"        # the name entry's key for a corrected name


def _confirmed(app, question: str, pops: int, change: Callable[[], str]) -> None:
    """Ask ``question``; on OK make the change (``change`` says what to tell the players)
    and go back ``pops`` screens, to the race or the club menu."""
    from companion.ui.dialog import Confirm

    def yes() -> None:
        for _ in range(pops):
            app.pop()
        app.toast = change()
    app.push(Confirm(question, yes))


def _why(app, then: Callable) -> None:
    """Pick a reason, then ``then(app, reason)``."""
    app.push(Pick("Why", list(REASONS), then))


def _undo_change(app) -> None:
    last = app.club().last_change()
    if last is None:
        app.toast = "No change to undo"
        return
    _confirmed(app, f"Undo {last}?", 0, lambda: app.club().undo_change())


class RaceMenu(_Choices):
    """One finished race: read or print it, void it (or count it again), correct a place
    or a name, give a penalty, move it to another season."""

    def __init__(self, rid: str):
        self.rid, self.selected = rid, 0

    def title(self, app) -> str:
        return f"Race {self.rid[:8]}"

    def rows(self, app) -> list[str]:
        return ["Standings", "Count again" if app.club().is_voided(self.rid) else "Void",
                "Correct a place", "Correct a name", "Penalty", "Move season"]

    def choose(self, app, row: int) -> None:
        club, rid, item = app.club(), self.rid, self.rows(app)[row]
        if item == "Standings":
            app.push(Lines(f"Race {rid[:8]}", lambda: app.club().race_lines(rid),
                           lambda: app.club().print_race(rid)))
        elif item == "Void":
            _why(app, lambda app, why: _confirmed(app, f"Void this race ({why})?", 1,
                                                  lambda: app.club().void(rid, why)))
        elif item == "Count again":
            _confirmed(app, "Count this race again?", 0, lambda: app.club().unvoid(rid))
        elif item == "Correct a place":
            app.push(Pick("Whose place", club.race_names(rid), lambda app, name: _place(app, rid, name)))
        elif item == "Correct a name":
            app.push(Pick("Whose name", club.race_names(rid), lambda app, name: app.push(
                FixName(rid, name, {DRIVER_KEY: name}))))
        elif item == "Penalty":
            app.push(Pick("Penalty to", club.race_names(rid), lambda app, name: _penalty(app, rid, name)))
        else:
            app.push(Pick("Move to", club.other_seasons(rid), lambda app, season: _confirmed(
                app, f"Count it in season {season}?", 1, lambda: app.club().move(rid, season))))


def _place(app, rid: str, name: str) -> None:
    places = app.club().places(rid)          # "1st", "2nd"...
    app.push(Pick(f"{name} was", places, lambda app, n: _why(
        app, lambda app, why: _confirmed(app, f"{name} {places[n - 1]} ({why})?", 3,
                                         lambda: app.club().correct_place(rid, name, n, why))),
                  values=list(range(1, len(places) + 1))))


def _penalty(app, rid: str, name: str) -> None:
    app.push(Pick("Points", [f"{-p:+d}" for p in PENALTIES], lambda app, p: _why(
        app, lambda app, why: _confirmed(app, f"Points for {name}: {-p:+d} ({why})?", 3,
                                         lambda: app.club().penalty(rid, name, p, why))), values=list(PENALTIES)))


class FixName(_Choices):
    """A name mis-typed in one race: the right name typed like a player's, then confirmed."""

    def __init__(self, rid: str, old: str, names: dict[str, str]):
        self.rid, self.old, self.names, self.selected = rid, old, names, 0

    def title(self, app) -> str:
        return "Correct a name"

    def rows(self, app) -> list[str]:
        return [f"Was {self.old}", f"Now {self.names.get(DRIVER_KEY, '')}", "Correct it"]

    def choose(self, app, row: int) -> None:
        if row == 1:
            from companion.ui.players import NameEntry
            app.push(NameEntry(DRIVER_KEY, self.names, (DRIVER_KEY,)))
        elif row == 2:
            new, rid, old = self.names.get(DRIVER_KEY, "").strip(), self.rid, self.old
            if not new or new == old:
                app.toast = "Type the right name"
                return
            _confirmed(app, f"{old} is {new} in this race?", 2, lambda: app.club().correct_name(rid, old, new))


class SeasonRules(NewSeason):
    """A season's name, set number of races and drop, changed and confirmed (never fewer
    races than it holds: the club says so)."""
    TITLE, LAST = "Season rules", "Save"

    def __init__(self, season: str, names: dict[str, str], races: int | None, drop: int):
        super().__init__(names, races, drop)
        self.season = season

    def save(self, app) -> None:
        season, name, races, drop = self.season, self.names.get(SEASON_KEY, ""), self.races, self.drop
        _confirmed(app, f"Save {name or season}: {races or 'open'} races, drop {drop}?", 2,
                   lambda: app.club().set_season(season, name, races, drop))


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
