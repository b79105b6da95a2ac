"""Pull the plug around one session at a time: a race left for the main menu, another
activity chosen (the question asked), the race put aside, another race begun and put
aside in turn, the first taken up again from the menu.

First the same key script runs uninterrupted in this process with every committed journal
write noted (what each session holds, which is open, which are aside, the question or the
setup kept): the journal is never anything else than one of those moments. Then the
companion runs the script as a process and is SIGKILLed at random moments (as
tests/test_power_loss.py does); the journal it leaves must be exactly one of the noted
moments, and the companion booting on it must be where that moment was: the question when
it was being asked, the race when one was open (in the state a clean replay gives), the
chosen activity's setup when the race had just been put aside.

A second test cuts at every gesture of the same script in this process, each a boot of a
new app on the journal as it stood.
"""

import random
import time

import pytest

from companion.app import App
from companion.cli import main
from companion.core.journal import Journal
from companion.devices.buttons import InputEnded, ScriptedButtons
from companion.devices.emulated import HeadlessDisplay
from companion.ui import flow
from companion.ui.wizard import Wizard
from tests.test_power_loss import arguments, journal_appears

CUTS = 24


def _go(n: int) -> str:
    return "GO " * n


KEYS = " ".join([
    "DOWN DOWN DOWN OK OK GO OK OK OK", _go(12),   # Street Illegal (wizard's defaults), 12 main moves
    "BACK UP OK",                                  # pause menu > Main menu: the race stays open
    "DOWN DOWN DOWN OK",                           # the lap counter chosen: the question is asked
    "DOWN DOWN OK",                                # Put it aside: the lap counter's setup
    _go(12),                                       # its defaults; the race begins, cars cross
    "BACK UP OK",                                  # Main menu again
    "DOWN OK",                                     # Races aside (1)
    "OK",                                          # Street Illegal, while the lap race is open: asked
    "DOWN DOWN OK",                                # Put it aside: Street Illegal is taken up
    _go(6),
])


def where(journal: Journal) -> tuple:
    """Everything the journal says about sessions at one moment: each session's events and
    whether it finished, the open one, those aside, and the question or setup kept."""
    sessions = tuple((s.id, len(list(journal.rows(s.id))), s.finished is not None) for s in journal.sessions())
    current = journal.open_session()
    draft = journal.setup_in_progress()
    if draft is None:
        kept = None
    elif flow.OpenRace.ASK in draft:
        kept = ("question", draft[flow.OpenRace.ASK], tuple(draft["then"]))
    else:
        kept = ("setup", draft["slug"])
    return sessions, current.id if current else None, tuple(s.id for s in journal.aside_sessions()), kept


@pytest.fixture(scope="module")
def moments(tmp_path_factory):
    """Each moment of the uninterrupted script: the journal after each committed write."""
    state = tmp_path_factory.mktemp("aside-reference")
    seen = [((), None, (), None)]
    original = Journal._transaction

    def noting(self, statements):
        cur = original(self, statements)
        if not self.read_only:
            seen.append(where(self))
        return cur

    mp = pytest.MonkeyPatch()
    mp.setattr(Journal, "_transaction", noting)
    try:
        assert main(arguments(state, KEYS)) == 0
    finally:
        mp.undo()
    with Journal(state) as journal:
        final = where(journal)
    # the script went where it says: two races, one open, one aside, nothing finished
    assert [(s[0], s[2]) for s in final[0]] == [(1, False), (2, False)]
    assert final[1:] == (1, (2,), None)
    assert any(m[3] and m[3][0] == "question" for m in seen)
    return seen


def booted_where(state) -> App:
    app = App(journal=Journal(state), display=HeadlessDisplay(), rng=random.Random(99))
    app.boot()
    return app


def check_boot(app: App, moment: tuple) -> None:
    """The app booted on the journal of ``moment`` is where that moment was."""
    _, current, _, kept = moment
    screen = app.screen
    if kept and kept[0] == "question" and kept[1] == current:
        assert isinstance(screen, flow.OpenRace) and screen.session == current and screen.target == kept[2]
    elif current is not None:
        assert isinstance(screen, flow.Race) and app.runner.session.id == current
        journal = app.journal
        session = journal.session(current)
        act = app.runner.activity
        clean = act.setup(session.options, session.data)
        for event in journal.replay(current).effective:
            clean = act.apply(clean, event)
        assert app.runner.state == clean and app.runner.problems == []
    elif kept is not None and kept[0] == "question" and kept[2][0] == "resume":
        # the open race was put aside to take up another: that one goes on
        assert isinstance(screen, flow.Race) and app.runner.session.id == int(kept[2][1])
    elif kept is not None:            # the setup of what was chosen (the race just put aside)
        slug = kept[1] if kept[0] == "setup" else kept[2][1]
        assert isinstance(screen, Wizard) and screen.slug == slug
    else:
        assert isinstance(screen, flow.Home)


def test_every_gesture_boots_where_it_was(moments, tmp_path):
    """In this process: after every gesture of the script, a new app boots on the journal
    as it stands, and is where the running one was."""
    state = tmp_path / "state"
    app = App(journal=Journal(state), display=HeadlessDisplay(), rng=random.Random(5))
    app.boot()
    source = ScriptedButtons.from_keys(KEYS)
    asked = aside = 0
    while True:
        try:
            gesture = source.get(timeout=0)
        except InputEnded:
            break
        if gesture is None:
            continue
        app.step(gesture)
        moment = where(app.journal)
        assert moment in moments
        again = booted_where(state)
        check_boot(again, moment)
        if isinstance(app.screen, (flow.OpenRace, flow.Race, Wizard)):   # the same screen
            assert type(again.screen) is type(app.screen)
        asked += isinstance(again.screen, flow.OpenRace)
        aside += bool(moment[2])
        again.journal.close()
    assert asked >= 2 and aside >= 10


def test_sigkill_around_races_aside(moments, starter, tmp_path):
    reference = tmp_path / "reference"
    proc = starter.start(arguments(reference, KEYS))
    opened = journal_appears(reference, proc)
    assert proc.wait() == 0
    during = time.monotonic() - opened
    rng = random.Random("power-cut-aside")
    landed = set()
    for k in range(CUTS):
        state = tmp_path / f"cut-{k}"
        proc = starter.start(arguments(state, KEYS))
        journal_appears(state, proc)
        time.sleep(rng.uniform(0.0, during))
        proc.kill()
        proc.wait()
        if not (state / Journal.FILENAME).exists():
            continue
        with Journal(state) as journal:
            moment = where(journal)
        assert moment in moments, f"cut {k}: the journal is at no moment of the uninterrupted run: {moment}"
        landed.add(moments.index(moment))
        app = booted_where(state)
        check_boot(app, moment)
        app.journal.close()
    assert len(landed) >= CUTS // 3, f"the cuts landed at only {len(landed)} moments"


@pytest.mark.parametrize("target", ["new", "resume"])
def test_the_plug_pulled_between_the_answer_and_the_next_screen(tmp_path, monkeypatch, target):
    """The race is put aside (committed), the power goes before the next screen's setup
    is kept: the boot goes on to what was chosen, never back to a question about a race
    no longer open."""
    state = tmp_path / "state"
    app = App(journal=Journal(state), display=HeadlessDisplay(), rng=random.Random(5))
    app.start_session("laps", {"players": 2, "length": 2, "timing": "off"})
    first = app.runner.session.id
    if target == "resume":
        app.journal.put_aside()
        app.start_session("laps", {"players": 3, "length": 2, "timing": "off"})
    app.go_home()
    app.switch(("new", "top-speed") if target == "new" else ("resume", first))
    app.handle(ScriptedButtons.from_keys("UP").get(timeout=0))         # the last answer: Put it aside
    assert isinstance(app.screen, flow.OpenRace) and app.screen.ANSWERS[app.screen.selected][0] == "aside"
    open_race = app.journal.open_session().id
    app._keep_setup()
    question = app.journal.setup_in_progress()
    assert flow.OpenRace.ASK in question
    monkeypatch.setattr(App, "_keep_setup", lambda self: None)          # the power goes here
    app.step(ScriptedButtons.from_keys("OK").get(timeout=0))           # Put it aside
    assert app.journal.setup_in_progress() == question
    assert app.journal.session(open_race).finished is None
    assert open_race in [s.id for s in app.journal.aside_sessions()]
    monkeypatch.undo()
    again = booted_where(state)
    if target == "new":
        assert isinstance(again.screen, Wizard) and again.screen.slug == "top-speed"
        assert again.journal.open_session() is None
    else:
        assert isinstance(again.screen, flow.Race) and again.runner.session.id == first
    assert again.journal.setup_in_progress() != question               # the question is not asked again
