"""The app loop: one thread owns all state.

Gestures arrive on a queue (button callbacks run on gpiozero's threads and only put
gestures there). Each gesture goes to the top screen of the navigation stack; a
player's action goes through the session runner (resolve -> journal commit -> apply)
before the new frame is drawn. Printing runs on the printer's own worker; the loop
only hands it receipts and reads its status.
"""

from __future__ import annotations

import os
import sys
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from companion.core.journal import Journal
from companion.games import registry
from companion.ui import flow
from companion.ui.view import View

if TYPE_CHECKING:  # the session runner is loaded with the first race, not for the first frame
    from companion.games.api import Activity
    from companion.session import SessionRunner


class App:
    def __init__(self, *, journal: Journal, display, printer=None, printer_factory=None,
                 rng: random.Random | None = None,
                 data_dir: str | Path | None = None, watchdog=None,
                 renderer: Callable[[View], Any] | None = None, table: dict | None = None,
                 backup=None, power=None, cues=None, clock: Callable[[], float] | None = None):
        self.journal = journal
        self.clock = clock or time.monotonic   # the turn timer's clock, in seconds (injectable)
        self._timer_shown: tuple[str, str, str] | None = None   # (driver, words, phase) drawn last
        self.display = display
        self.printer = printer
        self._printer_factory = printer_factory
        self._printer_error = ""
        self.rng = rng or random.SystemRandom()
        self.data_dir = Path(data_dir) if data_dir else None
        self.watchdog = watchdog
        self._render = renderer
        self.table = table             # [table] of the pinout (None: no table screen)
        self.backup = backup           # companion.autobackup.AutoBackup (None: no automatic backup)
        self.power = power             # companion.devices.power.PowerWatch (None: not watched)
        self.cues = cues               # companion.cues.player.Cues (None: no cues)
        self._sound_kept = None        # the sound setting when there are no cues (read when asked)
        self.stack: list[flow.Screen] = [flow.Home()]
        self.runner: SessionRunner | None = None
        self._has_program: bool | None = None  # whether the running race's program is out
        self.toast = ""
        self._toast_page = 0           # the page of a long toast shown (OK: the next)
        self._toast_shown = ""
        self.frames = 0
        self.display_error = ""
        self._last_printer_status: str | None = None
        self._service_said = ""
        self._setup_kept: dict | None = None     # the setup in progress as the journal has it

    # -- what exists ------------------------------------------------------------------

    def activity(self, slug: str) -> Activity:
        return registry.activity(slug)

    def catalogue(self) -> list[tuple[str, str]]:
        """Home menu entries: the toolkit tools, then the games the companion plays, by
        their registry titles (no pack is read or imported before it is chosen) and the
        names the owner's own data files give them."""
        from companion.games import data
        entries = registry.playable()
        return list(zip([e.slug for e in entries], data.titles(entries, self.data_dir)))

    def title_of(self, slug: str) -> str:
        from companion.games import data
        return data.title(slug, self.data_dir)

    def game_data(self, slug: str) -> dict:
        from companion.games import data as game_data
        return game_data.load(slug, override_dir=self.data_dir)

    def add_entry(self, slug: str, table: str, name: str, entry: dict, label: str = "",
                  entry_id: str | None = None) -> tuple[str, str]:
        """Save an entry described on the box (a circuit) in the owner's data, or change
        the owner's entry ``entry_id``: (id, label)."""
        if self.data_dir is None:
            raise ValueError("no state directory to save it in (--state)")
        from companion.games import data as game_data
        return game_data.add_entry(slug, self.data_dir, table, name, entry, label, entry_id)

    def entries(self, slug: str, table: str) -> list[tuple[str, str, dict]]:
        """(id, label, entry) of the owner's entry files of a game's table."""
        from companion.games import data as game_data
        return game_data.owned_entries(slug, self.data_dir, table)

    def remove_entry(self, slug: str, table: str, entry_id: str) -> None:
        from companion.games import data as game_data
        game_data.remove_entry(slug, self.data_dir, table, entry_id)

    def recent_names(self) -> dict[str, str]:
        """colour -> name of the named cars of the newest race that had players."""
        for session in reversed(self.journal.sessions()):
            players = session.options.get("players")
            if isinstance(players, list) and players:
                return {str(p["colour"]): str(p["name"]) for p in players
                        if isinstance(p, dict) and p.get("name") and p.get("colour")
                        and p["name"] != p["colour"]}
        return {}

    def session_data(self, slug: str, options: dict) -> dict:
        """The data snapshot a session is set up with (and replayed with): the game's own,
        or for a tool the game chosen in its "game" option."""
        source = self.activity(slug).data
        if source == "own":
            return self.game_data(slug)
        game = options.get("game")
        if source == "game-option" and game in registry.GAMES:
            return self.game_data(game)
        return {}

    # -- navigation -------------------------------------------------------------------

    @property
    def screen(self) -> flow.Screen:
        return self.stack[-1]

    def push(self, screen: flow.Screen) -> None:
        self.stack.append(screen)

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()

    def go_home(self) -> None:
        """The main menu. A session with no end of its own (a dice roller, a deck shuffler)
        ends when it is left: none is left open for "Continue" to land in later."""
        runner = self.runner
        if runner is not None and runner.session.finished is None and self.ends_when_left(runner.session.activity):
            runner.finish()
        self.stack = [flow.Home()]
        self.runner = None

    def boot(self) -> None:
        """Resume the race that was running when the power went, if any (or the question
        of what becomes of it, when another activity had been chosen); else the setup
        that was being answered."""
        if self.resume_question():
            return
        if self.journal.open_session() is not None:
            self.resume_open_session()
        else:
            self.resume_setup()

    def resume_setup(self) -> None:
        """The setup wizard where it was (kept in the journal after every answer)."""
        draft = self.journal.setup_in_progress()
        if not draft or len(self.stack) > 1:   # (a wizard already open is where it was)
            return
        from companion.ui.wizard import Wizard  # loaded only when there is a setup to go on with
        try:
            wizard = Wizard.from_draft(draft)
            self.activity(wizard.slug)
            wizard.step = max(0, min(wizard.step, len(wizard.questions(self)) - 1))
        except (KeyError, LookupError, TypeError, ValueError):   # a game no longer installed
            self.journal.save_setup(None)
            return
        self.stack = [flow.Home(), wizard]
        self._setup_kept = wizard.draft()

    def resume_question(self) -> bool:
        """The question "what becomes of the open race?" where it was asked (kept in the
        journal like a setup), or, when the power went just after it was answered, on to
        what was chosen. False when no question was kept."""
        draft = self.journal.setup_in_progress()
        if not draft or flow.OpenRace.ASK not in draft:
            return False
        try:
            question = flow.OpenRace.from_draft(draft)
        except (KeyError, TypeError, ValueError):
            self.journal.save_setup(None)
            return False
        open_now = self.journal.open_session()
        if open_now is not None and open_now.id == question.session:   # not answered yet
            self.stack = [flow.Home(), question]
            self._setup_kept = draft
            return True
        if open_now is not None:      # the race chosen was taken up already
            self.resume_open_session()
        else:                         # the race is aside or ended: on to what was chosen
            self.go_to(question.target)
        self._setup_kept = draft
        self._keep_setup()
        return True

    def _keep_setup(self) -> None:
        """Journal the setup in progress when an answer changed (none left: forget it): the
        wizard's answers, or the question asked before another activity is set up (an entry
        being described over the wizard is not kept: the wizard is)."""
        loaded = sys.modules.get("companion.ui.wizard")   # not loaded: no setup is on the screens
        kinds = (flow.OpenRace, loaded.Wizard) if loaded else (flow.OpenRace,)
        screen = next((s for s in reversed(self.stack) if isinstance(s, kinds)
                       and not (loaded and isinstance(s, loaded.Describing))), None)
        draft = screen.draft() if screen is not None else None
        if draft != self._setup_kept:
            self.journal.save_setup(draft)
            self._setup_kept = draft

    # -- sessions ---------------------------------------------------------------------

    def start_session(self, slug: str, options: dict, setup: dict | None = None) -> None:
        """Start a race of ``slug``; ``setup``: the wizard's answers it came from, asked
        again (at the last question) by BACK until the race's first action."""
        data = self.session_data(slug, options)
        from companion.session import SessionRunner
        self.runner = SessionRunner.start(self.journal, slug, options, data, clock=self.clock)
        self._setup_of = (self.runner.session.id, setup) if setup is not None else None
        self.stack = [flow.Home(), flow.Race.on(self.runner.moves())]
        self._watch()
        self._has_program = self.print_receipt("program")  # if the game has one already (else: perform)

    def key(self) -> tuple[str, ...]:
        """The codes the running session's screens show, in words (pause menu > Key)."""
        from companion.kit.keys import key_of
        return key_of(self.current(), self.runner.state) if self.runner is not None else ()

    def back_to_setup(self) -> bool:
        """Before the race's first action: the race is taken back and its setup shows at
        its last question, every answer as given and changeable. False once the race has
        started (or when its setup is not known: a race resumed after a restart)."""
        runner, setup = self.runner, getattr(self, "_setup_of", None)
        if runner is None or setup is None or setup[0] != runner.session.id:
            return False
        if not self.journal.forget_session(runner.session.id):
            return False
        from companion.ui.wizard import Wizard
        wizard = Wizard.from_draft(setup[1])
        wizard.step = max(0, len(wizard.questions(self)) - 1)
        self.runner, self._setup_of = None, None
        self.stack = [flow.Home(), wizard]
        return True

    def resume_open_session(self) -> None:
        session = self.journal.open_session()
        if session is None:
            return
        from companion.session import SessionRunner
        self.runner = SessionRunner.resume(self.journal, session, clock=self.clock)
        self._has_program = None
        self.stack = [flow.Home(), flow.Race.on(self.runner.moves())]
        self._watch()
        if self.runner.problems:
            self.toast = self.runner.problems[0]

    def perform(self, move) -> None:
        """Do ``move``; print the race program the moment the game has one (after the
        track is drawn, the grid set...) and the results when the race is over."""
        runner = self.runner
        if self._has_program is None:  # after a resume or an undo: ask the game once
            self._has_program = "program" in runner.receipts()
        runner.perform(move, self.rng)
        if self.cues is not None:        # found and played on the cues' worker
            self.cues.moved(runner.activity, runner.state)
        if not self._has_program:
            self._has_program = self.print_receipt("program")
        if runner.finished():
            runner.finish()
            self.print_results()
            self.back_up()

    def undo(self) -> None:
        if self.runner is None:
            return
        entry = self.runner.undo()
        self._has_program = None  # the program may have gone with the undone action
        from companion.ui.render import undo_toast   # loaded with the screen already
        self.toast = undo_toast(entry.label) if entry else "Nothing to undo"
        self._watch()
        race = self.stack[-1]
        if isinstance(race, flow.Race):
            race.reset(self.runner.moves())

    # -- sound ----------------------------------------------------------------------------

    def _watch(self) -> None:
        """The cues follow the running race from its state now (no cue for this moment)."""
        if self.cues is not None and self.runner is not None:
            from companion.cues.player import automated_names
            session = self.runner.session
            self.cues.watch(self.runner.activity, self.runner.state,
                            game=registry.game_of(session.activity, session.options),
                            automated=automated_names(session.options))

    def cue(self, name: str) -> None:
        """Play cue ``name`` now, off the loop (``companion.cues.catalogue.CUES``): what the
        turn timer calls, ``app.cue("timer-warning")`` at 10 s and ``app.cue("timer-out")``
        at zero. Nothing when the box has no cues; a ValueError for an unknown name."""
        if self.cues is not None:
            self.cues.emit(name)

    def sound_label(self) -> str:
        """The pause menu's "Sound: loud" ... "Sound: off"."""
        return self._sound().label()

    def next_sound(self) -> None:
        """The pause menu's Sound item: the next volume (loud, medium, soft, off), kept
        across boots, and a cue at that volume to hear it by."""
        self._set_sound(self._sound().stepped(), sample=True)

    def toggle_mute(self) -> None:
        """UP and DOWN held together, on any screen: sound off, or back on."""
        sound = self._sound().toggled()
        self._set_sound(sound, sample=not sound.muted)
        self.toast = "Sound off" if sound.muted else f"Sound on: {sound.volume}"

    def _sound(self):
        if self.cues is not None:
            return self.cues.sound
        if self._sound_kept is None:   # no cues: the setting is still kept
            from companion.cues.settings import load
            self._sound_kept = load(self.data_dir)
        return self._sound_kept

    def _set_sound(self, sound, sample: bool) -> None:
        from companion.cues.settings import save
        save(self.data_dir, sound)
        self._sound_kept = sound
        if self.cues is not None:
            self.cues.set_sound(sound)
            if sample:
                self.cue("line")

    # -- one session at a time: the open one, the races aside ---------------------------

    def ends_when_left(self, slug: str) -> bool:
        """Whether a session of ``slug`` has no end of its own (a dice roller, a deck
        shuffler: no "End" in its pause menu), and so ends when it is left."""
        try:
            return "end" not in self.activity(slug).pause
        except LookupError:
            return False

    def aside_sessions(self) -> list[tuple[int, str]]:
        """The races put aside, newest first: (session id, its menu line: game and when)."""
        aside = self.journal.aside_sessions()
        if not aside:            # (the first frame loads nothing more)
            return []
        from companion.kit.text import row
        from companion.profile import MENU_CHARS
        return [(s.id, row(self.title_of(s.activity), _started(s.started), MENU_CHARS)) for s in aside]

    def switch(self, target: tuple[str, Any]) -> None:
        """Go to ``target``: ("new", slug) sets that activity up, ("resume", session id)
        takes up a race put aside. A race still open is asked about first (continue it,
        end it as it stands, or put it aside); a dice or deck session open is ended."""
        session = self.journal.open_session()
        if session is not None and target != ("resume", session.id):
            if not self.ends_when_left(session.activity):
                self.push(flow.OpenRace(session.id, self.title_of(session.activity), target))
                return
            from companion.session import SessionRunner
            SessionRunner.resume(self.journal, session).finish()
        self.go_to(target)

    def go_to(self, target: tuple[str, Any]) -> None:
        """Do ``target`` (see :meth:`switch`), no race being open now."""
        kind, what = target
        if kind == "resume":
            self.journal.take_up(int(what))
            self.resume_open_session()
            return
        from companion.ui.wizard import Repeat, Wizard  # loaded when an activity is chosen
        self.stack = [flow.Home(), Wizard(str(what))]
        last = self.last_options(str(what))
        if last is not None:      # "Same as last race" first: one press to the summary
            self.push(Repeat(str(what), last))

    def last_options(self, slug: str) -> dict | None:
        """The setup of the newest race of ``slug`` (None: never run on this box)."""
        ran = [s for s in self.journal.sessions() if s.activity == slug]
        return dict(ran[-1].options) if ran else None

    def answer_open(self, question: flow.OpenRace, answer: str) -> None:
        """What becomes of the open race, asked by ``question``: "continue" it, "end" it
        as it stands (results kept and printed, then on to the target), or put it
        "aside" (then on to the target). Each is in the journal before the next screen."""
        if answer == "continue":
            self.resume_open_session()
        elif answer == "aside":
            self.journal.put_aside()
            self.runner = None
            self.go_to(question.target)
        elif answer == "end":
            self.resume_open_session()
            self.end_session(then=question.target)

    # -- what the screens ask of the running session (companion.ui.host.Host) ----------

    def open_session_noun(self) -> str | None:
        """What the open session is called ("race", "session"); None when there is none."""
        session = self.journal.open_session()
        if session is None:
            return None
        try:
            return self.activity(session.activity).session
        except LookupError:
            return "race"

    def current(self) -> Activity:
        return self.runner.activity

    def race_view(self) -> View:
        view = self.runner.view()
        if self.runner.timer.on and self.runner.finished():
            from companion.ui.screens import with_thinking
            return with_thinking(view, self.runner.thinking())
        return view

    def decisions_view(self) -> View | None:
        decisions = self.runner.activity.decisions
        return None if decisions is None else decisions(self.runner.state)

    def moves(self) -> list:
        return self.runner.moves() if self.runner is not None else []

    def history(self) -> list:
        return self.runner.history()

    def end_session(self, then: tuple[str, Any] | None = None) -> None:
        """End the race early: the results as they stand are kept (the championship counts
        them), printed, and shown until OK leaves for the main menu (or for ``then``, the
        activity chosen instead: see :meth:`switch`). A session without standings (a dice
        or deck session) just closes."""
        runner = self.runner
        if runner is None:
            return
        if runner.session.finished is None:
            runner.finish(early=True)
            self.print_results()
            self.back_up()
        if runner.session.results and runner.session.results.get("standings"):
            self.stack = [flow.Home(), flow.Final(then)]
        else:
            self.go_home()
            if then is not None:
                self.go_to(then)

    def final_view(self) -> View:
        """The ended session's standings as they stood, for the results screen."""
        from companion.ui import screens as ui
        results = (self.runner.session.results or {}) if self.runner else {}
        view = ui.standings("Results", results.get("standings", []))
        return ui.with_thinking(view, results["thinking"]) if results.get("thinking") else view

    def close_session(self) -> None:
        """Leave a race that is over for the home menu. A session with nothing left to do
        (a deck shuffler with no deck) is closed too, so none is left behind to continue."""
        runner = self.runner
        if runner is not None and runner.session.finished is None and not runner.moves():
            runner.finish()
        self.go_home()

    # -- printing ---------------------------------------------------------------------

    def print_receipt(self, kind: str) -> bool:
        """Print the running game's ``kind`` receipt; False if the game has none now."""
        if self.runner is None:
            return False
        from companion.league import paper
        receipt = self.runner.receipts().get(kind)
        if receipt is not None and kind == "program" and self.table_on():
            receipt = self._with_table_address(receipt)
        if receipt is not None:
            self.submit(paper.stamp(self.journal, self.runner.session, receipt))
        return receipt is not None

    def _with_table_address(self, receipt):
        """The program with the table screen's address at its foot, as a QR code and as
        text (phones follow the race)."""
        from companion.receipts.layouts import with_address
        return with_address(receipt, self.table_address())

    def print_results(self) -> bool:
        """Print the session's results (dated, numbered in its championship): the
        activity's own receipt, else its standings as they stand."""
        from companion.league import paper
        receipt = paper.results_receipt(self.journal, self.runner) if self.runner else None
        if receipt is not None:
            self.submit(receipt)
            final = paper.after_race(self.journal, self.runner.session)
            if final is not None:      # the season's last race: its final standings too, and said
                self.submit(final)
                from companion.league import onscreen, seasons
                self.toast = onscreen.season_over(self.journal, seasons.season_of(self.journal, self.runner.session))
        return receipt is not None

    def back_up(self) -> None:
        """A race has finished: the automatic backup copies the journal, on its own worker."""
        if self.backup is not None:
            self.backup.request()

    def open_printer(self) -> None:
        """Open the printer (the printing stack is loaded only now, after the first frame)."""
        if self.printer is not None or self._printer_factory is None:
            return
        try:
            self.printer = self._printer_factory()
        except Exception as exc:  # the printer is optional: the race goes on without it
            from companion.devices.printer import PrinterFault    # loaded by the factory
            # a fault names the printer itself ("Printer not found: ..."): said once
            self._printer_error = exc.message if isinstance(exc, PrinterFault) else f"Printer: {exc}"
        self._printer_factory = None

    def submit(self, receipt) -> None:
        self.open_printer()
        if self.printer is None:
            self.toast = self._printer_error or "No printer configured"
            return
        self.printer.submit(receipt)

    def finish_printing(self, timeout: float) -> int:
        """Wait up to ``timeout`` seconds for the receipts handed to the printer to print
        (a scripted run's last receipt); the number still waiting in the spool."""
        if self.printer is None:
            return 0
        self.printer.wait_idle(timeout=timeout)
        return self.printer_pending()

    def close(self) -> None:
        if self.cues is not None:
            self.cues.close()
        if self.printer is not None:
            self.printer.close()
        if self.backup is not None:
            self.backup.close()

    def print_last_results(self) -> None:
        from companion.league import paper
        self._submit_kept(paper.last_results_receipt(self.journal))

    def print_championship(self) -> None:
        from companion.league import paper
        self._submit_kept(paper.championship_receipt(self.journal))

    def _submit_kept(self, receipt) -> None:
        """Print a receipt rebuilt from the journal (None: there is no finished race)."""
        if receipt is None:
            self.toast = "No finished race yet"
        else:
            self.submit(receipt)

    def retry_printing(self) -> None:
        if self.printer is not None:
            self.printer.retry()

    def printer_status(self) -> str | None:
        if self.printer is None:
            return self._printer_error or None
        fault = self.printer.fault
        return fault.message if fault is not None else None

    def printer_pending(self) -> int:
        return 0 if self.printer is None else len(self.printer.pending())

    def championship_lines(self) -> list[str]:
        from companion.league import onscreen
        return onscreen.championship_lines(self.journal)

    def club(self):
        from companion.league.club import Club
        return Club(self.journal, self.submit)

    def table_on(self) -> bool:
        return bool(self.table and self.table.get("enabled"))

    def table_address(self) -> str:
        from companion.table.address import address
        return address(int(self.table["port"]))

    # -- the loop ---------------------------------------------------------------------

    def handle(self, gesture) -> None:
        if self.toast and self._on_alert(gesture):
            return
        self.toast = self._toast_shown = ""
        if getattr(gesture, "kind", None) == "both":     # UP and DOWN held together: mute
            self.toggle_mute()
            return
        if getattr(gesture, "kind", None) == "stuck":
            self.toast = f"{gesture.button} button held down: check it"
            return
        if getattr(gesture, "button", None) == "GO" and not self.screen.takes_go(self):
            return          # GO never starts, resumes, ends or chooses a session: only OK does
        self.screen.handle(self, gesture)
        # the setup is journaled when an answer is given (OK, GO, BACK), not while UP/DOWN
        # turn it, as a race journals actions, not the highlighted move
        if gesture.button not in ("UP", "DOWN") and (
                self._setup_kept is not None or not isinstance(self.screen, (flow.Race, flow.Home))):
            self._keep_setup()

    def _on_alert(self, gesture) -> bool:
        """A gesture on the alert: BACK closes it and does nothing else; OK or DOWN show a
        long alert's next page. True when that was all the gesture did."""
        from companion.ui.render import alert_pages
        pressed = getattr(gesture, "kind", None) == "press"
        if pressed and gesture.button == "BACK":
            self.toast = self._toast_shown = ""
            return True
        more = self._toast_page + 1 < len(alert_pages(self.toast))
        if more and getattr(gesture, "kind", None) in ("press", "repeat") and gesture.button in ("OK", "DOWN"):
            self._toast_page += 1
            return True
        return False

    def frame(self) -> View:
        """The top screen's view, with the message of the moment over it and, while the
        printer has a problem, "P!" in the title bar (the Printer menu says what it is)."""
        view = self.screen.view(self)
        if self._timer_shown is not None and isinstance(self.screen, flow.Race):
            from companion.ui.screens import with_timer
            view = with_timer(view, self._timer_shown[1])
        if self.power is not None and self.power.low:
            from companion.devices.power import STATUS
            view = _with(view, status=f"{STATUS} {view.status}".strip())
        if self.printer_status():
            view = _with(view, status=f"P! {view.status}".strip())
        if not self.toast:
            return view
        from companion.ui.render import alert_pages
        if self.toast != self._toast_shown:          # a new message: from its first page
            self._toast_shown, self._toast_page = self.toast, 0
        pages = alert_pages(self.toast)
        page = min(self._toast_page, len(pages) - 1)
        if page + 1 < len(pages):                    # a long message: a page at a time
            return _with(view, alert=pages[page], footer="OK: more  BACK: close")
        return _with(view, alert=pages[page])

    def _power_changed(self) -> bool:
        """The under-voltage flag turned low or back: kept in the journal (with the race
        running then) and in the system log; said once on the screen when it turns low."""
        reading = self.power.news()
        if reading is None:
            return False
        import logging
        from companion.devices.power import ADVICE, STATUS
        running = self.journal.open_session()
        self.journal.add_club_event({"kind": "power", "low": self.power.low,
                                     "race": running.id if running else None})
        if self.power.low:
            logging.getLogger(__name__).warning("%s: under-voltage; %s", STATUS, ADVICE)
            self.toast = f"{STATUS}: check the supply"
        else:
            logging.getLogger(__name__).warning("power: no under-voltage now")
        return True

    def refresh(self) -> None:
        from companion.devices import DeviceError
        from companion.ui.render import render
        image = (self._render or render)(self.frame())
        try:
            self.display.show(image)
        except DeviceError as exc:  # a loose wire: the race goes on; the next frame is sent whole
            self.display_error = str(exc)
            import logging  # loaded only for a display fault, not for the first frame
            logging.getLogger(__name__).warning("display: %s", exc)
            return
        self.display_error = ""
        self.frames += 1
        if self.cues is not None:      # the cues' worker may read the race now
            self.cues.drawn()

    def step(self, gesture) -> None:
        """One turn of the loop: handle ``gesture`` (None: nothing pressed), redraw if
        anything changed, ping the watchdog."""
        changed = False
        if gesture is not None:
            self.handle(gesture)
            changed = True
        if self._timer_changed():
            changed = True
        status = self.printer_status()
        if status != self._last_printer_status:
            self._last_printer_status = status
            if status:  # say it once; the title bar keeps "P!" until it is mended
                self.toast = f"{status}. Receipts wait."   # four lines of the alert box
                if "paper" in status.lower():
                    self.cue("paper")
            changed = True
        if self.power is not None and self._power_changed():
            changed = True
        failed = self.backup.news() if self.backup is not None else None
        if failed:      # said once: the race is kept, the next one is backed up again
            self.toast = failed
            changed = True
        if changed:
            self.refresh()
        if self.watchdog is not None:
            self.watchdog.ping()
            if changed and self.watchdog.enabled:
                self._tell_service()

    # -- the turn timer (docs/turn-timer.md) ---------------------------------------------

    def _timer_changed(self) -> bool:
        """Whether the turn timer's words changed since the last frame (a second went by,
        another driver's turn, the warning, Time!). As the soft warning starts and as the
        time runs out the hooks below are called, once each for a turn."""
        runner = self.runner
        reading = runner.timer_reading() if runner is not None and runner.stopwatch is not None else None
        shown = (reading.on, reading.text(), reading.phase()) if reading is not None else None
        if shown == self._timer_shown:
            return False
        before, self._timer_shown = self._timer_shown, shown
        if reading is not None and (before is None or before[0] != reading.on or before[2] != reading.phase()):
            if reading.phase() == "warning":
                self.on_timer_warning(reading.on)
            elif reading.phase() == "out":
                self.on_timer_out(reading.on)
        return True

    def on_timer_warning(self, driver: str) -> None:
        """``driver`` has 10 s left (the title bar's count ends in "!"): the soft warning,
        and its cue."""
        self.cue("timer-warning")

    def on_timer_out(self, driver: str) -> None:
        """``driver``'s time is out: "Time!" on the screen; the box makes no move for
        them, the table decides; and the timer's cue."""
        self.toast = f"Time! {driver}: the table decides"
        self.cue("timer-out")

    def service_status(self) -> str:
        """The line ``systemctl status companion`` shows: what runs, and a printer fault."""
        doing = f"{self.title_of(self.runner.session.activity)} running" if self.runner else "main menu"
        fault = self.printer_status()
        return f"{doing}; {fault}" if fault else doing

    def _tell_service(self) -> None:
        status = self.service_status()
        if status != self._service_said:
            self._service_said = status
            self.watchdog.status(status)

    def after_first_frame(self) -> None:
        """What the first frame does not wait for, done while the players read it: the
        printer opens (receipts waiting from before a restart print now), and the setup
        wizard's code is loaded (else the first OK on the home menu would load it)."""
        self.open_printer()
        import companion.ui.wizard  # noqa: F401

    def run(self, source, *, idle: float = 0.5) -> None:
        """Serve gestures from ``source`` (``get(timeout) -> Gesture | None``) until it
        raises InputEnded. A source with an ``open()`` is opened after the first frame,
        before systemd is told the companion is ready (a DeviceError if it cannot be)."""
        from companion.devices.buttons import InputEnded

        self.boot()
        self.refresh()
        if os.environ.get("COMPANION_EXIT_AFTER_FIRST_FRAME"):
            return  # the cold start is measured up to here (bench/first_frame.py)
        if hasattr(source, "open"):  # the buttons' pins, opened once the first frame is out
            source.open()            # (GpioButtons: gpiozero is not imported before it)
        if self.watchdog is not None:
            self._service_said = self.service_status() if self.watchdog.enabled else ""
            self.watchdog.ready(self._service_said or None)
        self.after_first_frame()
        while True:
            try:
                gesture = source.get(timeout=idle)
            except InputEnded:
                break
            self.step(gesture)


def _started(ts: float) -> str:
    """When a race put aside was started, short for a menu line: "21:05" today, "Thu 21:05"
    this week, "19 Nov" before."""
    import time
    age = time.time() - ts
    same_day = time.localtime(ts)[:3] == time.localtime()[:3]
    return time.strftime("%H:%M" if same_day else "%a %H:%M" if age < 6 * 86400 else "%d %b", time.localtime(ts))


def _with(view: View, **changes) -> View:
    from dataclasses import replace
    return replace(view, **changes)
