"""The cues' catalogue: every cue the issue names, each tune short and its own."""

import pytest

from companion.cues.catalogue import CUES, MAX_MS
from companion.cues.player import Cues

NAMED = {"turn", "your-choice", "car-out", "line", "last-lap", "flag", "sc-out", "sc-in", "challenge",
         "timer-warning", "timer-out", "paper"}


def test_every_cue_is_there_short_and_distinct():
    assert set(CUES) == NAMED
    for cue in CUES.values():
        assert 0 < cue.ms <= MAX_MS, cue.name
        assert any(hz > 0 for hz, _ in cue.tune) and all(hz == 0 or 200 <= hz <= 4000 for hz, _ in cue.tune)
        assert cue.words
    melodies = [tuple(hz for hz, _ in cue.tune if hz) for cue in CUES.values()]
    assert len({(m, tuple(ms for _, ms in c.tune)) for m, c in zip(melodies, CUES.values())}) == len(CUES)
    assert len(set(melodies)) == len(CUES), "two cues sound alike"


def test_the_timer_emits_its_two_cues_and_an_unknown_one_is_refused(tmp_path):
    clock = iter([10.0, 20.0])
    cues = Cues(logs=[tmp_path / "cues.jsonl"], clock=lambda: next(clock))
    cues.emit("timer-warning", game="top-speed")
    cues.emit("timer-out", game="top-speed")
    with pytest.raises(ValueError, match="unknown cue 'beep'.*timer-out"):
        cues.emit("beep")
    assert cues.flush()
    cues.close()
    assert (tmp_path / "cues.jsonl").read_text().splitlines() == [
        '{"t": 10.0, "cue": "timer-warning", "game": "top-speed"}',
        '{"t": 20.0, "cue": "timer-out", "game": "top-speed"}']
