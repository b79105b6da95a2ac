"""The turn timer (docs/turn-timer.md), driven by a fake clock in every game: the time
left, the soft warning and "Time!", each row's time in the journal (under its row
checksum), the same clock after an undo and after a restart, and the thinking times in
the results, on the screen, on paper and on the table screen. Nothing here sleeps."""

from __future__ import annotations

import random

import pytest

from companion import session as session_module
from companion.core import turnclock
from companion.core.journal import Journal
from companion.games import data as game_data
from companion.games import registry
from companion.kit.cars import human_drivers
from companion.session import SessionRunner

GAMES = ("street-illegal", "3-wide", "formula-de", "lacorsa", "top-speed")


class FakeClock:
    """Seconds that pass only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# -- the pure timer ------------------------------------------------------------------------

def test_setting_reads_every_choice_and_refuses_what_is_not_one():
    assert turnclock.setting(None) == turnclock.setting("off") == turnclock.Setting()
    assert turnclock.setting("turn-90") == turnclock.Setting("turn", 90)
    assert turnclock.setting("chess-1200") == turnclock.Setting("chess", 1200)
    with pytest.raises(ValueError, match="turn-30, turn-60"):
        turnclock.setting("turn-45")
    assert turnclock.of_options({"timer": "sometime"}) == turnclock.Setting()   # a newer box's race: off


def test_ledger_turns_longest_and_reading():
    ledger = turnclock.fold(turnclock.Ledger(), [["Ann", 20_000], ["Ann", 15_000], ["", 1], ["Bob", 5_000],
                                                 ["Ann", 4_000], "damaged", ["Bob", True]])
    assert ledger.totals == {"Ann": 39_000, "Bob": 5_000}
    assert ledger.longest == {"Ann": 35_000, "Bob": 5_000}       # two rows of one turn are one turn
    assert ledger.turns == {"Ann": 2, "Bob": 1}
    per_turn = turnclock.setting("turn-60")
    assert turnclock.reading(per_turn, ledger, "Ann", 6_000).left_ms == 60_000 - 4_000 - 6_000
    assert turnclock.reading(per_turn, ledger, "Bob", 0).left_ms == 60_000        # a new turn
    chess = turnclock.setting("chess-600")
    assert turnclock.reading(chess, ledger, "Ann", 1_000).left_ms == 600_000 - 39_000 - 1_000
    assert turnclock.reading(chess, ledger, "", 0) is None
    assert turnclock.reading(turnclock.Setting(), ledger, "Ann", 0) is None
    assert ledger.thinking(("Bob", "Ann")) == [
        {"name": "Bob", "total_s": 5.0, "longest_s": 5.0, "turns": 1},
        {"name": "Ann", "total_s": 39.0, "longest_s": 35.0, "turns": 2}]


@pytest.mark.parametrize("left, words, phase", [(45_000, "45s", ""), (10_000, "10s!", "warning"),
                                                 (1, "1s!", "warning"), (0, "Time!", "out"), (-5_000, "Time!", "out")])
def test_reading_words(left, words, phase):
    reading = turnclock.Reading("Ann", left, 60, "turn")
    assert (reading.text(), reading.phase()) == (words, phase)


def test_chess_words_and_durations():
    assert turnclock.Reading("Ann", 598_500, 600, "chess").text() == "9:59"
    assert [turnclock.duration(s) for s in (0, 44.6, 60, 245, 3725)] == ["0s", "45s", "1:00", "4:05", "1:02:05"]


# -- every game, through the session runner ------------------------------------------------

def _race(tmp_path, slug, timer="turn-60", clock=None):
    act = registry.activity(slug)
    options = {**act.demo.options, "timer": timer}
    journal = Journal(tmp_path)
    clock = clock or FakeClock()
    runner = SessionRunner.start(journal, slug, options, game_data.load(slug), clock=clock)
    return act, journal, runner, clock


def _play_to_a_timed_turn(act, runner, rng, clock, limit=400):
    """Moves of the demo's script until a person is on turn; each takes 2 s."""
    for _ in range(limit):
        if runner.on_turn():
            return runner.on_turn()
        clock.now += 2
        runner.perform(act.demo.script(runner.state), rng)
    raise AssertionError("nobody timed came on turn")


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_counts_down_warns_and_says_time(tmp_path, slug):
    act, journal, runner, clock = _race(tmp_path, slug)
    assert act.options[-1].key == "timer" and act.options[-1].initial() == "off"
    rng = random.Random(3)
    driver = _play_to_a_timed_turn(act, runner, rng, clock)
    assert driver in human_drivers(runner.session.options)
    start = runner.timer_reading().left_ms
    clock.now += 12.5
    reading = runner.timer_reading()
    assert reading.on == driver and reading.left_ms == start - 12_500
    clock.now += reading.left_ms / 1000 - 9
    assert runner.timer_reading().phase() == "warning"
    clock.now += 10
    assert runner.timer_reading().text() == "Time!"
    moves_before = runner.moves()
    assert runner.moves() == moves_before        # the box takes no move for them: the table decides


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_keeps_the_clock_through_undo_and_restart(tmp_path, slug, monkeypatch):
    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 7)   # resume from a snapshot as well
    act, journal, runner, clock = _race(tmp_path, slug, "chess-600")
    rng = random.Random(5)
    spent = {}
    for step in range(40):
        if runner.finished():
            break
        driver = runner.on_turn()
        think = 1 + step % 4
        clock.now += think
        if driver:
            spent[driver] = spent.get(driver, 0) + think * 1000
        runner.perform(act.demo.script(runner.state), rng)
    assert spent and runner.ledger.totals == spent
    driver = runner.on_turn() or ""
    clock.now += 3
    runner.undo()                                 # the time before the undo counts: never given back
    if driver:
        spent[driver] = spent.get(driver, 0) + 3000
    assert runner.ledger.totals == spent
    rows = journal.replay(runner.session.id)
    assert not rows.problems and len(rows.clocks) == len(rows.rows)   # each row's time, checksummed
    journal.close()

    again = Journal(tmp_path)                     # a power cut: the box starts again
    later = FakeClock()
    later.now = 5.0
    resumed = SessionRunner.resume(again, again.open_session(), clock=later)
    assert resumed.ledger == runner.ledger
    assert resumed.results()["thinking"] == runner.results()["thinking"]
    on = resumed.on_turn()
    if on:
        left = resumed.timer_reading().left_ms
        assert left == 600_000 - spent.get(on, 0)   # counting from the resume, not the cut
    again.close()


def test_timer_off_writes_no_time_and_no_thinking(tmp_path):
    act, journal, runner, clock = _race(tmp_path, "formula-de", "off")
    for _ in range(5):
        clock.now += 3
        runner.perform(act.demo.script(runner.state), random.Random(1))
    assert runner.timer_reading() is None and journal.replay(runner.session.id).clocks == []
    assert "thinking" not in runner.results()


def test_a_timer_that_is_not_one_is_refused_before_anything_is_written(tmp_path):
    journal = Journal(tmp_path)
    with pytest.raises(ValueError, match="not a turn timer"):
        SessionRunner.start(journal, "top-speed", {"timer": "turn-7"}, game_data.load("top-speed"))
    assert journal.sessions() == []


# -- the box: OLED words, the cue hooks, the results -------------------------------------

class Hooked:
    """Records the cue hooks as the app calls them."""

    def __init__(self, app):
        self.calls = []
        app.on_timer_warning = lambda driver: self.calls.append(("warning", driver))
        original = app.on_timer_out
        app.on_timer_out = lambda driver: (self.calls.append(("out", driver)), original(driver))


def test_the_box_shows_the_time_left_calls_the_hooks_once_and_says_time(tmp_path):
    from companion.app import App
    from companion.devices.emulated import HeadlessDisplay
    from companion.ui import flow
    from companion.ui.render import cut_texts

    clock = FakeClock()
    app = App(journal=Journal(tmp_path), display=HeadlessDisplay(), rng=random.Random(2), clock=clock)
    hooks = Hooked(app)
    act = registry.activity("top-speed")
    app.start_session("top-speed", {**act.demo.options, "timer": "turn-30"})
    rng_moves = 0
    while not app.runner.on_turn():
        app.perform(act.demo.script(app.runner.state))
        rng_moves += 1
    driver = app.runner.on_turn()
    app.step(None)
    view = app.frame()
    assert isinstance(app.screen, flow.Race) and view.status.startswith("30s")
    assert not cut_texts(view)                    # the title is never cut for it
    clock.now += 21
    app.step(None)
    assert app.frame().status.startswith("9s!")
    clock.now += 0.4
    app.step(None)
    clock.now += 9
    app.step(None)
    assert app.frame().status.startswith("Time!") and app.toast.startswith("Time!")
    app.step(None)
    assert hooks.calls == [("warning", driver), ("out", driver)]


def test_results_show_thinking_on_screen_on_paper_and_in_json(tmp_path):
    from companion.league import paper
    from companion.ui.screens import THINKING_HEAD, with_thinking
    from companion.ui.render import cut_texts
    from companion.ui import screens as ui

    act, journal, runner, clock = _race(tmp_path, "lacorsa", "turn-90")
    rng = random.Random(4)
    while not runner.finished():
        clock.now += 7
        runner.perform(act.demo.script(runner.state), rng)
    results = runner.finish()
    rows = results["thinking"]
    assert results["timer"] == "turn-90" and rows and all(r["total_s"] >= r["longest_s"] > 0 for r in rows)
    view = with_thinking(ui.standings("Results", results["standings"]), rows)
    items = view.body[0].items
    assert THINKING_HEAD in items and not cut_texts(view)
    receipt = paper.results_receipt(journal, runner)
    lines = receipt.text_lines()
    assert any(line.startswith("Thinking") for line in lines)
    assert all(len(line) <= 32 for line in lines)
    assert any(line.startswith(rows[0]["name"]) and turnclock.duration(rows[0]["total_s"]) in line for line in lines)


# -- the table screen ----------------------------------------------------------------------

def test_table_screen_counts_down_beside_the_driver_on_turn(tmp_path):
    from companion.table.source import CLOCK_EVERY, Follower

    act, journal, runner, clock = _race(tmp_path, "formula-de", "turn-60")
    rng = random.Random(6)
    driver = _play_to_a_timed_turn(act, runner, rng, clock)
    wall = FakeClock()
    last_row = journal.replay(runner.session.id).rows[-1][3]
    wall.now = last_row + 20
    follower = Follower(tmp_path, clock=wall)
    race = follower.payload["race"]
    assert race["turn"] == driver
    assert race["clock"]["on"] == driver and race["clock"]["left"] == pytest.approx(40, abs=0.1)
    assert race["clock"]["warning"] == turnclock.WARNING_S
    assert not follower.poll()                    # nothing new, and sent a moment ago
    wall.now += CLOCK_EVERY
    assert follower.poll() and follower.payload["race"]["clock"]["left"] == pytest.approx(35, abs=0.1)
    follower.close()


# -- the command line ----------------------------------------------------------------------

def test_demo_with_a_timer_thinks_on_its_fake_clock_and_the_results_say_it(tmp_path, capsys):
    import json

    from companion.cli import main

    out = tmp_path / "demo"
    assert main(["demo", "--game", "lacorsa", "--timer", "turn-30", "--out", str(out)]) == 0
    results = json.loads((out / "results.json").read_text())
    assert results["timer"] == "turn-30" and results["thinking"]
    for row in results["thinking"]:        # the scripted table thinks 1 to 13 s a move
        assert 1.0 <= row["longest_s"] <= row["total_s"]
    capsys.readouterr()
    assert main(["results", "--state", str(out / "state")]) == 0
    said = capsys.readouterr().out
    name = results["thinking"][0]["name"]
    assert "Thinking time (longest turn):" in said
    assert any(line.split()[:1] == [name] and turnclock.duration(results["thinking"][0]["total_s"]) in line
               for line in said.splitlines())


def test_demo_refuses_a_timer_that_is_not_one(tmp_path, capsys):
    from companion.cli import main

    assert main(["demo", "--game", "lacorsa", "--timer", "turn-45", "--out", str(tmp_path / "d")]) != 0
    assert "turn-30, turn-60" in capsys.readouterr().err


def test_same_as_last_race_keeps_the_timer(tmp_path):
    from companion.app import App
    from companion.devices.emulated import HeadlessDisplay
    from companion.ui.wizard import Repeat

    app = App(journal=Journal(tmp_path), display=HeadlessDisplay(), rng=random.Random(2), clock=FakeClock())
    app.start_session("street-illegal", {**registry.activity("street-illegal").demo.options, "timer": "chess-1200"})
    app.end_session()
    app.go_home()
    last = app.last_options("street-illegal")
    app.push(Repeat("street-illegal", last))
    from tests.table import press
    press(app, "OK")
    assert app.runner is not None and app.runner.timer == turnclock.Setting("chess", 1200)
