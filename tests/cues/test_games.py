"""Every game's race, played through the app with the cues on a fake clock: the cues come
from the race itself (no pack calls one), each written with its time and game and played,
and a cue never holds up a press."""

import json
import random
import time

import pytest

from companion.app import App
from companion.core.journal import Journal
from companion.cues.catalogue import CUES
from companion.cues.player import TURN_GAP_S, Cues
from companion.devices.emulated import HeadlessDisplay
from companion.games import registry

GAMES = [e.slug for e in registry.GAMES.values() if e.playable]
SECONDS_A_MOVE = 5.0
# what each game's demo race is bound to cue (beside the flag, which every race ends with)
EXPECTED = {"top-speed": {"car-out", "sc-out", "sc-in", "last-lap", "line", "turn"},
            "formula-de": {"car-out", "last-lap", "turn"},
            "3-wide": {"line", "sc-out", "sc-in", "your-choice", "turn"},
            "street-illegal": {"car-out", "line", "last-lap", "your-choice", "turn"},
            "lacorsa": {"challenge", "line", "your-choice"}}


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


class Heard:
    """An output that keeps what it was asked to play (``wait``: a slow output)."""

    def __init__(self, wait=0.0):
        self.played, self.wait = [], wait

    def play(self, cue, loudness):
        time.sleep(self.wait)
        self.played.append((cue.name, loudness))

    def close(self):
        pass


def race(tmp_path, slug, cues, clock=None, moves=None):
    act = registry.activity(slug)
    app = App(journal=Journal(tmp_path / "state"), display=HeadlessDisplay(), rng=random.Random(act.demo.seed),
              data_dir=tmp_path / "state", cues=cues)
    app.start_session(slug, dict(act.demo.options))
    made = 0
    while not app.runner.finished() and (moves is None or made < moves):
        move = act.demo.script(app.runner.state)
        if move is None:
            break
        if clock is not None:
            clock.t += SECONDS_A_MOVE
        app.perform(move)
        app.refresh()                   # as the loop does: the cues are read after the frame
        made += 1
    return app


def test_the_games_are_all_here():
    assert set(GAMES) == set(EXPECTED)


@pytest.mark.parametrize("slug", GAMES)
def test_a_race_cues_what_the_table_would_miss(slug, tmp_path):
    clock, heard = Clock(), Heard()
    cues = Cues(outputs=[heard], logs=[tmp_path / "cues.jsonl"], clock=clock, now=lambda: 0.0)
    app = race(tmp_path, slug, cues, clock)
    assert cues.flush(30)
    lines = [json.loads(line) for line in (tmp_path / "cues.jsonl").read_text().splitlines()]
    names = [line["cue"] for line in lines]
    assert lines and set(names) <= set(CUES)
    assert names[-1] == "flag" and names.count("flag") == 1
    assert EXPECTED[slug] <= set(names), f"{slug}: {sorted(set(names))}"
    assert {line["game"] for line in lines} == {slug}
    times = [line["t"] for line in lines]
    assert times == sorted(times) and all((t - 1000.0) % SECONDS_A_MOVE == 0 for t in times)
    assert times[-1] == clock.t                    # the flag at the time of the last move
    turns = [t for t, n in zip(times, names) if n in ("turn", "your-choice")]
    assert all(t - prev >= TURN_GAP_S for prev, t in zip(times, times[1:]) if t in turns)
    assert heard.played == [(n, 1.0) for n in names]       # every cue played, loud
    app.close()


def test_muted_cues_are_written_not_played_and_undo_is_no_cue(tmp_path):
    clock, heard = Clock(), Heard()
    cues = Cues(outputs=[heard], logs=[tmp_path / "cues.jsonl"], clock=clock, now=lambda: 0.0)
    app = race(tmp_path, "top-speed", cues, clock, moves=60)
    cues.flush()                   # what the race cued so far is played before the mute
    written, played = len(cues.written), len(heard.played)
    assert written and played == written
    app.toggle_mute()
    assert app.toast == "Sound off"
    app.undo()
    cues.flush()
    assert len(cues.written) == written            # an undo is no cue
    race_on = registry.activity("top-speed").demo.script
    for _ in range(60):
        clock.t += SECONDS_A_MOVE
        app.perform(race_on(app.runner.state))
        app.refresh()
    cues.flush()
    assert len(cues.written) > written and len(heard.played) == played
    app.close()


def test_a_cue_never_holds_up_a_press(tmp_path):
    """An output that takes half a second a cue: the presses do not wait for it."""
    heard = Heard(wait=0.5)
    cues = Cues(outputs=[heard], logs=[tmp_path / "cues.jsonl"])
    act = registry.activity("top-speed")
    app = App(journal=Journal(tmp_path / "state"), display=HeadlessDisplay(), rng=random.Random(act.demo.seed),
              data_dir=tmp_path / "state", cues=cues)
    app.start_session("top-speed", dict(act.demo.options))
    slowest = 0.0
    for _ in range(40):
        started = time.perf_counter()
        app.perform(act.demo.script(app.runner.state))
        app.refresh()
        slowest = max(slowest, time.perf_counter() - started)
    cues.flush(60)
    assert len(cues.written) >= 2 and heard.played      # cues were due, and played
    assert slowest < 0.4, slowest
    app.close()


def test_the_turn_timer_cues_through_the_app_with_the_race_s_game(tmp_path):
    clock = Clock()
    cues = Cues(logs=[tmp_path / "cues.jsonl"], clock=clock)
    app = race(tmp_path, "formula-de", cues, clock, moves=1)
    app.cue("timer-warning")
    clock.t += 10
    app.cue("timer-out")
    cues.flush()
    assert cues.written[-2:] == [{"t": clock.t - 10, "cue": "timer-warning", "game": "formula-de"},
                                 {"t": clock.t, "cue": "timer-out", "game": "formula-de"}]
    with pytest.raises(ValueError, match="unknown cue"):
        app.cue("timer")
    app.close()
    silent = App(journal=Journal(tmp_path / "other"), display=HeadlessDisplay())
    silent.cue("timer-out")                 # a box without cues: nothing, no error
    silent.journal.close()
