"""One session at a time, never lost: choosing another activity while a race is open asks
what becomes of it (continue, end it as it stands, put it aside); races put aside are
resumable from the menu and count nowhere until they are finished; a dice or deck
session ends when it is left; a lap-counter race ended early is confirmed and says so;
a lap-counter race counts in the lap counter's own championship, in new journals and in
those written before."""

import gzip
import random
import sqlite3
from pathlib import Path

from companion.league import ledger, paper, seasons
from companion.app import App
from companion.core.journal import Journal
from companion.devices.emulated import HeadlessDisplay
from companion.ui import dialog, flow
from companion.ui.render import cut_texts
from companion.ui.wizard import Wizard
from tests.test_end_race import play_a_little as play   # the demo's answers, a few moves
from tests.table import PaperTray, press

FIXTURE = Path(__file__).parent / "reference" / "journal-before-aside.sql.gz"


def make_app(state_dir, seed=4):
    tray = PaperTray()
    return App(journal=Journal(state_dir), display=HeadlessDisplay(), printer=tray,
               rng=random.Random(seed)), tray


def play_to_the_end(app):
    act = app.runner.activity
    while not app.runner.finished():
        app.perform(act.demo.script(app.runner.state))


def to_main_menu(app):
    """BACK, then the pause menu's last item: Main menu (the race stays open)."""
    press(app, "BACK UP OK")
    assert isinstance(app.screen, flow.Home)


def choose(app, key):
    """Highlight the home menu's entry ``key`` and press OK."""
    keys = [k for k, _ in app.screen.items(app)]
    press(app, "DOWN " * keys.index(key) + "OK")


def answer(app, key):
    keys = [k for k, _ in flow.OpenRace.ANSWERS]
    press(app, "DOWN " * keys.index(key) + "OK")


def three_wide_dealt(state_dir):
    """The first-time player's evening: 3-Wide dealt, then BACK to the main menu, then
    Lacorsa chosen: the question is asked."""
    app, tray = make_app(state_dir)
    play(app, "3-wide", 3)
    state = app.runner.state
    to_main_menu(app)
    assert app.screen.items(app)[0] == ("continue", "Continue race")
    choose(app, "lacorsa")
    return app, tray, state


def test_choosing_another_game_while_a_race_is_open_asks_what_becomes_of_it(state_dir):
    app, _, _ = three_wide_dealt(state_dir)
    assert isinstance(app.screen, flow.OpenRace)
    frame = app.frame()
    assert frame.title == "3-Wide race open"
    assert frame.body[0].items == ("Continue it", "End it as it stands", "Put it aside")
    assert not cut_texts(frame, footer=True)
    # nothing has changed yet: BACK leaves the question, the race still open
    press(app, "BACK")
    assert isinstance(app.screen, flow.Home) and app.journal.open_session().activity == "3-wide"


def test_continue_goes_back_to_the_race_as_it_was(state_dir):
    app, _, state = three_wide_dealt(state_dir)
    answer(app, "continue")
    assert isinstance(app.screen, flow.Race) and app.runner.state == state
    assert app.runner.session.activity == "3-wide" and app.journal.setup_in_progress() is None


def test_put_aside_then_the_chosen_game_and_the_race_resumes_from_the_menu(state_dir):
    app, _, state = three_wide_dealt(state_dir)
    three_wide = app.journal.open_session().id
    answer(app, "aside")
    assert isinstance(app.screen, Wizard) and app.screen.slug == "lacorsa"
    assert app.journal.open_session() is None
    assert [s.id for s in app.journal.aside_sessions()] == [three_wide]
    assert ledger.finished(app.journal) == [] and app.championship_lines() == []     # counted nowhere

    press(app, "BACK")                                   # leave the wizard: the main menu lists it
    assert isinstance(app.screen, flow.Home)
    items = app.screen.items(app)
    assert items[0] == ("aside", "Races aside (1)")      # no race open: nothing to "Continue"
    choose(app, "aside")
    frame = app.frame()
    assert frame.title == "Races aside" and frame.body[0].items[0].startswith("3-Wide ")
    assert not cut_texts(frame, footer=True)
    press(app, "OK")
    assert isinstance(app.screen, flow.Race) and app.runner.session.id == three_wide
    assert app.runner.state == state and app.journal.aside_sessions() == []


def test_end_it_keeps_the_results_then_goes_on_to_the_chosen_game(state_dir):
    app, tray, _ = three_wide_dealt(state_dir)
    answer(app, "end")
    assert isinstance(app.screen, flow.Final) and app.frame().footer in ("OK: go on", "OK: go on  hold: more")
    [session] = ledger.finished(app.journal)
    assert session.activity == "3-wide" and session.results["ended_early"] is True
    assert app.championship_lines()[0] == "3-Wide: 1 race"
    printed = [r for r in tray.receipts if r.kind == "results"]
    assert len(printed) == 1 and "Ended early, as it stood" in printed[0].text_lines()
    press(app, "OK")
    assert isinstance(app.screen, Wizard) and app.screen.slug == "lacorsa"
    assert app.journal.open_session() is None and app.journal.aside_sessions() == []


def test_several_races_aside_are_listed_newest_first_and_taking_one_up_asks_about_the_open_one(state_dir):
    app, _ = make_app(state_dir)
    play(app, "3-wide", 3)
    first = app.runner.session.id
    app.journal.put_aside()
    play(app, "street-illegal", 4)
    second = app.runner.session.id
    app.journal.put_aside()
    play(app, "top-speed", 2)
    open_now = app.runner.session.id
    to_main_menu(app)
    assert [k for k, _ in app.screen.items(app)[:2]] == ["continue", "aside"]
    choose(app, "aside")
    lines = app.frame().body[0].items
    assert [line.split()[0] for line in lines] == ["Street", "3-Wide"]   # newest first, by game and when
    press(app, "DOWN OK")                                # the 3-Wide race, while Top Speed is open
    assert isinstance(app.screen, flow.OpenRace) and app.screen.target == ("resume", first)
    answer(app, "aside")
    assert isinstance(app.screen, flow.Race) and app.runner.session.id == first
    assert [s.id for s in app.journal.aside_sessions()] == [open_now, second]


def test_a_race_aside_counts_once_finished_after_the_races_finished_meanwhile(state_dir):
    app, tray = make_app(state_dir)
    play(app, "laps", 3)                                 # A: put aside half way
    aside = app.runner.session.id
    app.journal.put_aside()
    play(app, "laps", 0)                                 # B: finished while A is aside
    play_to_the_end(app)
    assert seasons.race_count(app.journal, "laps") == 1
    app.go_home()
    app.switch(("resume", aside))                        # no race open: taken up at once
    assert app.runner.session.id == aside
    play_to_the_end(app)
    assert seasons.race_count(app.journal, "laps") == 2
    assert ledger.last_finished(app.journal).id == aside    # the race finished last is the last
    stamped = [r.text_lines()[2] for r in tray.receipts if r.kind == "results"]
    assert stamped[-1] == f"Lap counter {seasons.current(app.journal, 'laps').name}, race 2"


def test_a_deck_session_ends_when_left_and_go_never_lands_in_it_again(state_dir):
    app, _ = make_app(state_dir)
    play(app, "deck", 3)
    deck = app.runner.session.id
    to_main_menu(app)
    assert app.journal.session(deck).finished is not None
    assert app.journal.open_session() is None and app.journal.aside_sessions() == []
    play(app, "laps", 0)
    play_to_the_end(app)
    press(app, "GO " * 5)                                # the race is over: GO does nothing
    assert isinstance(app.screen, flow.Race) and app.runner.finished()
    press(app, "OK")                                     # OK leaves it for the menu
    assert isinstance(app.screen, flow.Home) and app.screen.items(app)[0][0] == "dice"
    assert len(list(app.journal.rows(deck))) == 3        # no card drawn in the old deck session


def test_choosing_another_activity_over_an_open_dice_session_ends_it(state_dir):
    """A dice session open at the main menu (left open by an older version) is ended, not asked about."""
    app, _ = make_app(state_dir)
    play(app, "dice", 2)
    dice = app.runner.session.id
    app.stack = [flow.Home()]
    app.runner = None
    choose(app, "laps")
    assert isinstance(app.screen, Wizard) and app.journal.session(dice).finished is not None


# -- the lap counter's "End race early" ------------------------------------------------

def lap_race(app):
    players = [{"name": c, "colour": c} for c in ("Red", "Blue", "Yellow")]
    app.start_session("laps", {"game": "formula-de", "players": players, "length": 3, "count": "up",
                               "timing": "off"})
    press(app, "GO GO GO")                               # start; two cars cross


def test_ending_a_lap_counter_race_early_asks_first(state_dir):
    app, tray = make_app(state_dir)
    lap_race(app)
    events = len(list(app.journal.rows(app.runner.session.id)))
    press(app, "UP")                                     # one UP from the default: the slip
    assert app.frame().footer == "< End race early >"
    press(app, "GO")
    assert isinstance(app.screen, dialog.Confirm) and app.frame().body
    press(app, "BACK")                                   # no: the race goes on, nothing written
    assert isinstance(app.screen, flow.Race) and not app.runner.finished()
    assert len(list(app.journal.rows(app.runner.session.id))) == events
    assert app.frame().footer == "< End race early >"

    press(app, "GO OK")                                  # yes
    assert app.runner.finished()
    session = ledger.last_finished(app.journal)
    assert session.results["ended_early"] is True
    [printed] = [r for r in tray.receipts if r.kind == "results"]
    assert "Ended early, as it stood" in printed.text_lines()[1:4]


def test_a_lap_counter_race_run_to_the_flag_does_not_say_it_ended_early(state_dir):
    app, tray = make_app(state_dir)
    lap_race(app)
    while not app.runner.finished():
        press(app, "GO")
    assert "ended_early" not in ledger.last_finished(app.journal).results
    [printed] = [r for r in tray.receipts if r.kind == "results"]
    assert "Ended early, as it stood" not in printed.text_lines()


# -- the lap counter's own championship ------------------------------------------------

def test_a_lap_counter_race_with_formula_de_points_is_no_formula_de_race(state_dir):
    app, tray = make_app(state_dir)
    play(app, "formula-de", 10_000)
    lap_race(app)
    while not app.runner.finished():
        press(app, "GO")
    play(app, "formula-de", 10_000)
    assert seasons.race_count(app.journal, "formula-de") == 2
    assert seasons.race_count(app.journal, "laps:formula-de") == 1
    results = [r for r in tray.receipts if r.kind == "results"]
    assert not any("championship" in line for line in results[1].text_lines()[1:4])   # its first
    assert results[2].text_lines()[2] == f"Formula Dé {seasons.current(app.journal, 'formula-de').name}, race 2"
    assert ledger.title("laps:formula-de") == "Lap counter, Formula Dé points"
    text = " ".join(paper.championship_receipt(app.journal, "laps:formula-de").text_lines())
    assert "Lap counter, Formula Dé points" in " ".join(text.split())


def journal_before_aside(state_dir):
    """The journal the companion wrote before races could be put aside (see
    tests/reference/journal_before_aside.py)."""
    db = sqlite3.connect(state_dir / Journal.FILENAME)
    db.executescript(gzip.open(FIXTURE, "rt", encoding="utf-8").read())
    db.close()


def test_a_journal_written_before_is_read_right(state_dir):
    journal_before_aside(state_dir)
    app, tray = make_app(state_dir)
    app.boot()
    # the lap-counter race moved to the lap counter's championship; the real races keep theirs
    assert seasons.race_count(app.journal, "formula-de") == 2
    assert seasons.race_count(app.journal, "laps:formula-de") == 1
    sessions = {s.id: s for s in app.journal.sessions()}
    assert ledger.key_of(sessions[2]) == "laps:formula-de"
    assert seasons.race_number(app.journal, sessions[1]) == 1 and seasons.race_number(app.journal, sessions[6]) == 2
    season = seasons.current(app.journal, "formula-de").name
    assert f"Formula Dé {season}, race 2" in paper.stamp_lines(app.journal, sessions[6])
    assert app.championship_lines()[0] == "Formula Dé: 2 races"   # the newest finished race's
    # the races left behind by a newer one are aside, none is "open": the menu lists them
    assert app.journal.open_session() is None
    assert [s.id for s in app.journal.aside_sessions()] == [5, 3]
    assert isinstance(app.screen, flow.Home)
    assert app.screen.items(app)[0] == ("aside", "Races aside (2)")
    # the 3-Wide race dealt that evening is taken up where it was
    choose(app, "aside")
    press(app, "DOWN OK")
    assert isinstance(app.screen, flow.Race) and app.runner.session.id == 3
    assert len(app.runner.journal.replay(3).effective) == 3


def test_a_journal_written_before_reads_right_read_only(state_dir):
    """The table screen and ``companion results`` read the journal read-only: an older one,
    never opened by this version, gives the same answers."""
    journal_before_aside(state_dir)
    with Journal(state_dir, read_only=True) as journal:
        assert journal.open_session() is None
        assert [s.id for s in journal.aside_sessions()] == [5, 3]
        assert seasons.race_count(journal, "formula-de") == 2 and seasons.race_count(journal, "laps:formula-de") == 1


def test_the_table_screen_follows_the_race_being_played_never_one_aside(state_dir):
    """The phones show the race being played; at the main menu (a race put aside, the next
    being set up) the race that finished last; a race taken up again is followed again."""
    from companion.table.source import Follower

    app, _ = make_app(state_dir)
    play(app, "laps", 0)
    play_to_the_end(app)
    done = app.runner.session.id
    play(app, "3-wide", 3)
    three_wide = app.runner.session.id
    follower = Follower(state_dir)
    try:
        assert follower.session.id == three_wide
        app.go_home()
        app.switch(("new", "lacorsa"))
        answer(app, "aside")
        follower.poll()
        assert follower.session.id == done          # not the 3-Wide race put aside
        app.go_home()
        app.switch(("resume", three_wide))
        follower.poll()
        assert follower.session.id == three_wide
    finally:
        follower.close()
