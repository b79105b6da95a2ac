"""One word per thing: no screen of the app (menus, the setup of every game and tool,
the pause menu and what it opens, the results and the printer) has a title, a line, a
footer or a move cut by the display."""

import re
from dataclasses import replace
from pathlib import Path

import pytest

import companion
from companion.games.lacorsa import screens as lacorsa_screens
from companion.games.three_wide import rules as three_wide
from companion.games.top_speed import rules as top_speed
from companion.games import registry
from companion.ui import dialog, flow
from companion.ui.players import Players
from companion.ui.render import cut_texts
from companion.ui.wizard import SplitEntry, Wizard
from tests.table import make_app, press

ACTIVITIES = [e.slug for e in registry.playable()]


def checked(app, seen):
    view = app.frame()          # the history too: a long entry goes on under its words
    cut = cut_texts(view, footer=True)
    assert not cut, f"{view.title!r}: cut by the display: {cut}"
    seen.add(view.title)


@pytest.mark.parametrize("slug", ACTIVITIES)
def test_no_screen_of_a_setup_and_a_race_is_cut(slug, state_dir):
    app = make_app(state_dir)
    app.boot()
    seen = set()
    checked(app, seen)
    keys = [k for k, _ in app.screen.items(app)]
    press(app, "DOWN " * keys.index(slug) + "OK")
    for _ in range(80):                                 # the setup with its defaults
        if app.runner is not None:
            break
        checked(app, seen)
        screen = app.screen
        if isinstance(screen, (Players, SplitEntry)):
            press(app, "OK" if isinstance(screen, SplitEntry) and not screen.editing else "GO")
            checked(app, seen)
            press(app, "BACK" if isinstance(screen, SplitEntry) and screen.editing else "")
            if isinstance(app.screen, SplitEntry):
                press(app, "GO")
        else:
            assert isinstance(screen, Wizard)
            press(app, "OK")
    assert app.runner is not None, f"{slug}: the setup did not start"
    for _ in range(6):
        checked(app, seen)
        if not app.moves():                             # the race is over
            break
        for _ in app.moves()[1:]:
            press(app, "DOWN")
            checked(app, seen)
        press(app, "GO")
        if isinstance(app.screen, flow.Confirm):        # ending early is asked: GO answers nothing
            checked(app, seen)
            press(app, "BACK")
    while app.toast:                                    # a message over the race: BACK closes it
        press(app, "BACK")
    if app.runner is not None and not app.history():    # (before the first action BACK is the setup)
        press(app, "GO")
    press(app, "BACK")                                  # the pause menu and what it opens
    checked(app, seen)
    pause = app.screen
    for key, _ in pause.items(app):
        if key in ("history", "grid", "key"):
            app.push({"history": flow.History, "grid": flow.Decisions, "key": flow.Key}[key]())
            checked(app, seen)
            app.pop()
    app.push(dialog.Confirm(f"End this {app.current().session} now?", lambda: None))
    checked(app, seen)
    app.go_home()
    for screen in (flow.Results(), flow.PrinterMenu()):
        app.push(screen)
        checked(app, seen)
        app.pop()


PLURAL_INLINE = re.compile(r"""['"]s['"]\)? if|else ['"]s['"]|[a-z]\(s\)[^"'\n]*["']""")   # "lap(s)" in a text


def test_no_screen_writes_a_plural_of_its_own():
    """A count says its noun through names.counted (1 lap, 0 laps), never a plural written
    inline that disagrees with another for 0 ("0 stop" beside "0 cars")."""
    root = Path(companion.__file__).parent
    found = [f"{path.relative_to(root)}:{n}" for part in ("games", "kit", "ui", "tools")
             for path in sorted((root / part).rglob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), start=1) if PLURAL_INLINE.search(line)]
    assert not found, found


@pytest.mark.parametrize("said,expected", [
    (lambda: three_wide.describe({"kind": "wreck", "cars": [3]}), "1 car"),
    (lambda: three_wide.describe({"kind": "wreck", "cars": []}), "0 cars"),
    (lambda: three_wide.describe({"kind": "deal", "cars": [], "cards": [[4]]}), "1 card"),
    (lambda: top_speed.describe({"kind": "pit", "order": [2]}), "1 card shuffled"),
    (lambda: lacorsa_screens.cards(1), "1 card"),
    (lambda: lacorsa_screens.cards(0), "0 cards"),
])
def test_a_count_says_its_noun_once(said, expected):
    assert said() == expected


PORT = "/dev/serial0"                                   # hardware/pinout.toml's [printer] port


def printer_faults():
    from companion.devices import printer as p
    from companion.receipts.printers import PROFILES
    faults = [p.fault_not_found(PORT), p.fault_denied(PORT), p.fault_busy(PORT), p.fault_unplugged(PORT),
              p.fault_silent(), p.fault_paper_out(), p.fault_offline(None),
              p.fault_spool(Path.home() / ".local/state/companion/spool", PermissionError(13, "Permission denied"))]
    faults += [p.fault_silent(profile) for profile in PROFILES.values()]
    faults += [p.fault_offline(bit) for bit in (0x04, 0x08, 0x20, 0x40, 0x04 | 0x08 | 0x40)]
    return faults


@pytest.mark.parametrize("fault", printer_faults(), ids=lambda f: f.message)
def test_a_printer_fault_is_said_whole_in_its_alert(fault, state_dir):
    """The alert the app raises when the printer stops: the fault and that the receipts
    wait, never cut after the box's last line."""
    import random
    from companion.app import App
    from companion.core.journal import Journal
    from companion.devices.emulated import HeadlessDisplay
    from tests.ui.test_printer_menu import Faulty

    app = App(journal=Journal(state_dir), display=HeadlessDisplay(None), rng=random.Random(1),
              printer=Faulty(fault))
    app.boot()
    app.step(None)                                      # the loop notices the fault
    view = app.frame()
    assert view.alert.startswith(fault.message)
    assert cut_texts(view, footer=True) == [], f"cut by the display: {view.alert!r}"


def test_a_printer_that_cannot_be_opened_is_said_whole_and_once(state_dir):
    import random
    from companion.app import App
    from companion.core.journal import Journal
    from companion.devices.emulated import HeadlessDisplay
    from companion.devices.printer import fault_not_found

    def no_printer():
        raise fault_not_found(PORT)

    app = App(journal=Journal(state_dir), display=HeadlessDisplay(None), rng=random.Random(1),
              printer_factory=no_printer)
    app.boot()
    app.open_printer()
    app.step(None)
    view = app.frame()
    assert view.alert == f"Printer not found: {PORT}. Receipts wait."
    assert cut_texts(view, footer=True) == []


def test_the_alerts_of_the_app_are_said_whole():
    """Every other alert the app raises, with the longest move label a pack may write."""
    from companion.profile import LABEL_CHARS
    from companion.ui.view import View
    label = "Die 3 > Yellow".ljust(LABEL_CHARS, "x")
    toasts = ["No printer configured", "No finished race yet", "Nothing to undo", f"Undone: {label}",
              "BACK button held down: check it",
              f"journal entry 1234 ({label}) is unreadable and was skipped"]
    for toast in toasts:
        view = View("Race", footer="< Roll >", alert=toast)
        assert cut_texts(view, footer=True) == [], toast


def test_cut_texts_sees_an_alert_cut_after_its_last_line():
    from companion.ui.view import View
    long = "Printer port busy: /dev/serial0. Receipts wait for it and for nothing else at all."
    assert cut_texts(View("Race", footer="< Roll >", alert=long), footer=True) == [f"(alert) {long}"]


def test_a_list_longer_than_the_screen_says_that_ok_held_pages_it(state_dir):
    """The Key of the tire dice is longer than the screen: its footer says OK held pages it,
    and once OK held has shown its last line the footer still fits whole."""
    from companion.devices.gestures import Gesture
    from companion.ui.render import list_window
    app = make_app(state_dir)
    app.boot()
    app.start_session("dice", {"game": "3-wide"})
    press(app, "BACK")
    items = [k for k, _ in app.screen.items(app)]
    press(app, "DOWN " * items.index("key") + "OK")
    view = app.frame()
    first, shown, n = list_window(view)
    assert shown < n and view.footer == "\u2191\u2193, hold OK: more"
    assert cut_texts(view, footer=True) == []
    app.handle(Gesture("OK", "long"))
    assert list_window(app.frame())[0] > 0
    short = make_app(state_dir / "short")
    short.boot()
    short.start_session("laps", {"players": 2, "length": 3})
    if short.frame().alert:              # "No printer configured": BACK closes the alert only
        press(short, "BACK")
    press(short, "BACK")
    keys = [k for k, _ in short.screen.items(short)]
    press(short, "DOWN " * keys.index("key") + "OK")
    assert short.frame().footer == "\u2191\u2193: more  BACK: back"     # it all shows: nothing to page


def test_no_footer_written_in_the_code_is_cut():
    """Every footer the screens write as it stands (``footer="..."``) fits the 128 px line."""
    import ast
    from pathlib import Path

    from companion.ui import fonts
    from companion.ui.render import MARGIN, WIDTH

    written = []
    for path in (Path(__file__).parents[2] / "companion").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        if "footer" not in source:      # no footer= in it: nothing to parse
            continue
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.keyword) and node.arg == "footer" and isinstance(node.value, ast.Constant) \
                    and isinstance(node.value.value, str):
                written.append((str(path), node.value.value))
    assert len(written) > 20
    cut = [(p, t) for p, t in written if fonts.truncate(t, 1, WIDTH - 2 * MARGIN) != t]
    assert cut == []
