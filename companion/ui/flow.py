"""Navigation: the home menu, the setup wizard, the race screen, the pause menu,
history and confirm dialogs. Each screen turns gestures into calls on the host (the
app, through ``companion.ui.host.Host``) and returns a View. Nothing of a particular
game lives here: the race screen shows the game's own view and offers exactly the
moves its rules allow; the wizard asks the questions the activity declares.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable

from companion.profile import BODY_LINES
from companion.ui import fonts, screens as ui
from companion.ui.dialog import Confirm
from companion.ui.nav import BACK, GO, OK, Screen, Scroll, paging, pressed, step as _step
from companion.ui.view import Menu, Text, View

if TYPE_CHECKING:  # the contract, the kit and the wizard's screens are loaded when first
    # used, not for the first frame
    from companion.ui.host import Host


# -- home ---------------------------------------------------------------------------

@dataclass
class Home(Screen):
    chooses = True
    selected: int = 0

    def items(self, app: Host) -> list[tuple[str, str]]:
        items: list[tuple[str, str]] = []
        noun = app.open_session_noun()
        if noun:
            items.append(("continue", f"Continue {noun}"))
        aside = len(app.aside_sessions())
        if aside:
            items.append(("aside", f"Races aside ({aside})"))
        items += [(slug, title) for slug, title in app.catalogue()]
        items += [("results", "Results"), ("printer", "Printer")]
        return items

    def view(self, app: Host) -> View:
        items = self.items(app)
        self.selected = min(self.selected, len(items) - 1)
        return replace(ui.main_menu([label for _, label in items], self.selected), footer="OK: choose")

    def handle(self, app: Host, gesture) -> None:
        items = self.items(app)
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(items)
        elif pressed(gesture, OK):
            key = items[self.selected][0]
            if key == "continue":
                app.resume_open_session()
            elif key == "aside":
                app.push(Aside())
            elif key == "results":
                app.push(Results())
            elif key == "printer":
                app.push(PrinterMenu())
            else:                 # (a race still open is asked about first)
                app.switch(("new", key))


@dataclass
class Aside(Screen):
    """The races put aside, newest first, by game and when: OK takes one up again."""
    chooses = True
    selected: int = 0

    def view(self, app: Host) -> View:
        lines = [line for _, line in app.aside_sessions()]
        if not lines:
            return replace(ui.message("Races aside", "No race is put aside."), footer="BACK: back")
        self.selected = min(self.selected, len(lines) - 1)
        return replace(ui.main_menu(lines, self.selected, title="Races aside"), footer="OK: resume")

    def handle(self, app: Host, gesture) -> None:
        races = app.aside_sessions()
        if _step(gesture) and races:
            self.selected = (self.selected + _step(gesture)) % len(races)
        elif pressed(gesture, BACK):
            app.pop()
        elif pressed(gesture, OK) and races:
            app.switch(("resume", races[min(self.selected, len(races) - 1)][0]))


@dataclass
class OpenRace(Screen):
    """Another activity (or a race put aside) was chosen while a race is open: continue
    it, end it as it stands, or put it aside. Kept in the journal like a setup
    (:meth:`draft`), so a power cut comes back to the question."""
    chooses = True
    session: int
    title: str                    # the open race's game
    target: tuple                 # what was chosen instead: ("new", slug) | ("resume", id)
    selected: int = 0

    ASK = "open-race"
    ANSWERS = (("continue", "Continue it"), ("end", "End it as it stands"), ("aside", "Put it aside"))

    def draft(self) -> dict:
        return {self.ASK: self.session, "title": self.title, "then": list(self.target), "selected": self.selected}

    @classmethod
    def from_draft(cls, draft: dict) -> "OpenRace":
        kind, what = draft["then"]
        if kind not in ("new", "resume"):
            raise ValueError(f"unknown choice {kind!r}")
        return cls(int(draft[cls.ASK]), str(draft["title"]), (kind, what), int(draft.get("selected", 0)))

    def view(self, app: Host) -> View:
        from companion.kit.text import title_fitting
        title = title_fitting("", f"{self.title} race open", f"{self.title} open", "Race open")
        return replace(ui.main_menu([label for _, label in self.ANSWERS], self.selected, title=title),
                       footer="OK: choose")

    def handle(self, app: Host, gesture) -> None:
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(self.ANSWERS)
        elif pressed(gesture, BACK):
            app.pop()
        elif pressed(gesture, OK):
            app.answer_open(self, self.ANSWERS[self.selected][0])


# -- the race -----------------------------------------------------------------------

@dataclass
class Race(Screen):
    highlighted: int = 0
    scroll: Scroll = field(default_factory=Scroll)

    @classmethod
    def on(cls, moves) -> "Race":
        """The race screen with the game's main move highlighted."""
        from companion.kit.turns import primary_index
        return cls(primary_index(moves))

    def reset(self, moves) -> None:
        """After an action: the highlight goes back to the game's main move."""
        from companion.kit.turns import primary_index
        self.highlighted = primary_index(moves)

    def view(self, app: Host) -> View:
        view = app.race_view()
        moves = app.moves()
        if moves:
            self.highlighted %= len(moves)
            move = moves[self.highlighted]
            arrows = len(moves) > 1
            footer = f"< {move.label} >" if arrows else move.label
        else:  # the race is over: one word for it in every pack's title bar
            footer = "OK: main menu"
            view = replace(view, status=ui.END_STATUS)
        return self.scroll.show(replace(view, footer=footer))

    def handle(self, app: Host, gesture) -> None:
        moves = app.moves()
        if gesture.button == BACK and gesture.kind == "long":
            app.undo()
            self.scroll.reset()
            return
        if paging(gesture):
            self.scroll.page()
            return
        if _step(gesture) and len(moves) > 1:
            self.highlighted = (self.highlighted + _step(gesture)) % len(moves)
            return
        if _step(gesture):  # nothing else to choose: UP/DOWN scroll the list
            self.scroll.line(_step(gesture))
            return
        if gesture.kind != "press":
            return
        if gesture.button == BACK and not app.back_to_setup():   # before the first action: the setup
            app.push(Pause())
        elif gesture.button == OK and not moves:     # (GO does nothing then: takes_go)
            app.close_session()
        elif gesture.button in (OK, GO):
            # Both do what the footer shows; after each action the highlight
            # returns to the game's main move, so GO alone always rolls/draws.
            move = moves[self.highlighted % len(moves)]
            if move.confirm:   # (ending a race early) asked first: BACK keeps racing
                app.push(Confirm(move.confirm, lambda: self.make(app, move)))
            else:
                self.make(app, move)

    def takes_go(self, app: Host) -> bool:
        """GO makes the race's move; once the race is over it does nothing (OK leaves it)."""
        return bool(app.moves())

    def make(self, app: Host, move) -> None:
        app.perform(move)
        self.reset(app.moves())
        self.scroll.reset()


PAUSE_LABELS = {"continue": "Continue", "history": "History", "undo": "Undo last",
                "program": "Print program", "grid": "Decisions", "end": "End {}",
                "home": "Main menu", "table": "Table screen", "key": "Key"}
"""The pause menu's words for the items an activity declares (``Activity.pause``)."""


@dataclass
class Pause(Screen):
    chooses = True
    selected: int = 0

    def items(self, app: Host) -> list[tuple[str, str]]:
        act = app.current()
        keys = [k for k in act.pause if k != "grid" or act.decisions is not None]
        if app.key():        # the codes its screens show, in words, before "Main menu"
            keys.insert(len(keys) - (keys[-1:] == ["home"]), "key")
        keys.insert(len(keys) - (keys[-1:] == ["home"]), "sound")   # "Sound: loud", OK: the next
        if app.table_on():   # the table screen's address and QR code, before "Main menu"
            keys.insert(len(keys) - (keys[-1:] == ["home"]), "table")
        return [(k, app.sound_label() if k == "sound" else PAUSE_LABELS[k].format(act.session)) for k in keys]

    def view(self, app: Host) -> View:
        labels = [label for _, label in self.items(app)]
        return replace(ui.main_menu(labels, self.selected, title="Paused"), footer="OK: choose")

    def handle(self, app: Host, gesture) -> None:
        items = self.items(app)
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(items)
            return
        if pressed(gesture, BACK):
            app.pop()
            return
        if not pressed(gesture, OK):
            return
        key, _ = items[self.selected % len(items)]
        if key == "continue":
            app.pop()
        elif key == "history":
            app.push(History())
        elif key == "undo":
            app.pop()
            app.undo()
        elif key == "program":
            app.pop()
            app.print_receipt("program")
        elif key == "grid":
            app.push(Decisions())
        elif key == "key":
            app.push(Key())
        elif key == "end":
            app.push(Confirm(f"End this {app.current().session} now?", lambda: app.end_session()))
        elif key == "sound":
            app.next_sound()
        elif key == "table":
            from companion.ui.tablecode import TableCode
            app.push(TableCode())
        elif key == "home":
            app.go_home()


@dataclass
class Final(Screen):
    """A race ended early: its results as they stood, scrollable; OK goes to the main menu
    (or, when it was ended to play something else, to that: ``then``)."""
    chooses = True
    then: tuple | None = None
    scroll: Scroll = field(default_factory=Scroll)

    def view(self, app: Host) -> View:
        return self.scroll.show(replace(app.final_view(), footer="OK: main menu" if self.then is None else "OK: go on"))

    def handle(self, app: Host, gesture) -> None:
        if paging(gesture):
            self.scroll.page()
        elif _step(gesture):
            self.scroll.line(_step(gesture))
        elif pressed(gesture, OK, BACK):
            app.close_session()
            if self.then is not None:
                app.go_to(self.then)


@dataclass
class Decisions(Screen):
    """What the companion decided (grid, track, cards drawn), scrollable: the table can
    play without the printer."""
    scroll: Scroll = field(default_factory=Scroll)

    def view(self, app: Host) -> View:
        view = app.decisions_view() or ui.message("Decisions", "Nothing decided yet.")
        return self.scroll.show(replace(view, footer="\u2191\u2193: more  BACK: back"))

    def handle(self, app: Host, gesture) -> None:
        if paging(gesture):
            self.scroll.page()
        elif _step(gesture):
            self.scroll.line(_step(gesture))
        elif pressed(gesture, BACK, OK, GO):
            app.pop()


HOLD_OK_KEY = "hold OK = next page"
"""The Key's last line: a list longer than the screen (a race's, whose footer is its move)
pages by holding OK."""


@dataclass
class Key(Decisions):
    """The codes the activity's screens show, in words (``Activity.key``), scrollable, and
    how a long list is read to its end."""

    def view(self, app: Host) -> View:
        view = View("Key", (Menu((*app.key(), HOLD_OK_KEY), -1),))
        return self.scroll.show(replace(view, footer="\u2191\u2193: more  BACK: back"))


@dataclass
class History(Screen):
    selected: int = -1

    def view(self, app: Host) -> View:
        entries = app.history()
        labels = [f"{e.seq} {e.label}" for e in entries] or ["(nothing yet)"]
        undone = {i for i, e in enumerate(entries) if e.undone}
        if self.selected < 0:  # opens on the newest entry
            self.selected = len(labels) - 1
        self.selected = min(self.selected, len(labels) - 1)
        return replace(ui.history(labels, undone, self.selected), footer="BACK: back")

    def handle(self, app: Host, gesture) -> None:
        if paging(gesture):   # a page down: the selection moves a screenful, then to the top
            self.selected = 0 if self.selected >= len(app.history()) - 1 else self.selected + BODY_LINES
        elif _step(gesture):
            self.selected = max(0, self.selected + _step(gesture))
        elif pressed(gesture, BACK, OK):
            app.pop()


@dataclass
class Results(Screen):
    scroll: Scroll = field(default_factory=Scroll)

    def view(self, app: Host) -> View:
        lines = app.championship_lines()
        if not lines:     # the club still: a new box imports its club's races there
            return replace(ui.message("Championship", "No finished races yet."), footer="OK: club  BACK: back")
        return self.scroll.show(replace(ui.main_menu(lines, -1, title="Championship"),
                                        footer="GO: print  OK: club"))

    def handle(self, app: Host, gesture) -> None:
        if paging(gesture):
            self.scroll.page()
        elif _step(gesture):
            self.scroll.line(_step(gesture))
        elif gesture.kind == "press" and gesture.button == GO:
            app.print_championship()
        elif gesture.kind == "press" and gesture.button == OK:
            from companion.ui.club import ClubMenu    # seasons, drivers: loaded when asked for
            app.push(ClubMenu())
        elif gesture.kind == "press" and gesture.button == BACK:
            app.pop()


@dataclass
class PrinterMenu(Screen):
    selected: int = 0
    ITEMS = ("Print waiting", "Print last results", "Print championship")

    def view(self, app: Host) -> View:
        status = app.printer_status() or "Printer ready"
        waiting = app.printer_pending()
        items = [f"{self.ITEMS[0]} ({waiting})", *self.ITEMS[1:]]
        view = ui.main_menu(items, self.selected, title="Printer")
        said = fonts.wrap(status, 1, ui.BODY_WIDTH)
        if len(said) == 1:
            return replace(view, footer=status)
        # a fault longer than the footer is said whole above the items, never cut
        return replace(view, body=(*(Text(line) for line in said), *view.body), footer="OK: choose")

    def handle(self, app: Host, gesture) -> None:
        if _step(gesture):
            self.selected = (self.selected + _step(gesture)) % len(self.ITEMS)
        elif gesture.kind == "press" and gesture.button == BACK:
            app.pop()
        elif gesture.kind == "press" and gesture.button in (OK, GO):
            [app.retry_printing, app.print_last_results, app.print_championship][self.selected]()
