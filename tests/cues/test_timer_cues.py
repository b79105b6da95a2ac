"""The turn timer's two cues: the soft one at 10 s left and the timer's at zero, each once
a turn, written to cues.jsonl with the race's game (a fake clock; nothing sleeps)."""

import json
import random

import pytest

from companion.app import App
from companion.core.journal import Journal
from companion.cues.player import Cues
from companion.devices.emulated import HeadlessDisplay
from companion.games import registry
from tests.cues.test_games import Heard


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


@pytest.mark.parametrize("slug", ["top-speed", "street-illegal"])
def test_the_timer_cues_at_ten_seconds_and_at_zero_once_a_turn(slug, tmp_path):
    clock, heard = Clock(), Heard()
    cues = Cues(outputs=[heard], logs=[tmp_path / "cues.jsonl"], clock=clock, now=lambda: 0.0)
    app = App(journal=Journal(tmp_path / "state"), display=HeadlessDisplay(), rng=random.Random(2),
              data_dir=tmp_path / "state", cues=cues, clock=clock)
    act = registry.activity(slug)
    app.start_session(slug, {**act.demo.options, "timer": "turn-30"})
    while not app.runner.on_turn():
        app.perform(act.demo.script(app.runner.state))
    app.step(None)
    assert cues.flush(10)
    before = len(cues.written)
    for seconds in (21, 0.5, 9, 5, 5):             # 9 s left, then 0 and on past it
        clock.t += seconds
        app.step(None)
    assert cues.flush(10)
    timer = [c["cue"] for c in cues.written[before:] if c["cue"].startswith("timer")]
    assert timer == ["timer-warning", "timer-out"]
    lines = [json.loads(line) for line in (tmp_path / "cues.jsonl").read_text().splitlines()]
    assert [(line["cue"], line["game"]) for line in lines if line["cue"].startswith("timer")] == \
        [("timer-warning", slug), ("timer-out", slug)]
    assert ("timer-out", 1.0) in heard.played
    app.close()
