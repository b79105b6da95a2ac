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
from companion.ui import flow
from companion.ui.players import Players
from companion.ui.render import cut_texts
from companion.ui.wizard import SplitEntry, Wizard
from tests.table import make_app, press

ACTIVITIES = [e.slug for e in registry.playable()]


def checked(app, seen):
    view = app.frame()
    if isinstance(app.screen, flow.History):   # long entries: the footer shows their end
        view = replace(view, body=())
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
        for _ in app.moves()[1:]:
            press(app, "DOWN")
            checked(app, seen)
        press(app, "GO")
    press(app, "BACK")                                  # the pause menu and what it opens
    checked(app, seen)
    pause = app.screen
    for key, _ in pause.items(app):
        if key in ("history", "grid"):
            app.push(flow.History() if key == "history" else flow.Decisions())
            checked(app, seen)
            app.pop()
    app.push(flow.Confirm(f"End this {app.current().session} now?", lambda: None))
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
