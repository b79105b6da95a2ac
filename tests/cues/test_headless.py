"""``companion run`` headless: each cue goes to ``STATE/cues.jsonl`` with its time, and the
sound setting to ``STATE/sound.json``; nothing is played (no buzzer, no sound card)."""

import json
import time

from companion.cli import main


def test_headless_writes_the_cues_and_keeps_the_setting(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_STATE", str(tmp_path))
    before = time.time()
    assert main(["run", "--hardware", "headless", "--state", str(tmp_path), "--keys", "UP+DOWN BACK UP+DOWN"]) == 0
    (cue,) = [json.loads(line) for line in (tmp_path / "cues.jsonl").read_text().splitlines()]
    assert cue["cue"] == "line" and cue["game"] is None and before <= cue["t"] <= time.time()   # unmuted: a sample
    assert json.loads((tmp_path / "sound.json").read_text()) == {"volume": "loud", "muted": False}
    assert main(["run", "--hardware", "headless", "--state", str(tmp_path), "--keys", "UP+DOWN"]) == 0
    assert json.loads((tmp_path / "sound.json").read_text())["muted"] is True
    assert len((tmp_path / "cues.jsonl").read_text().splitlines()) == 1     # muting plays nothing
