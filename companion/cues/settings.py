"""Mute and volume, kept across boots in ``<state>/sound.json``.

The pause menu's "Sound" item steps through ``LEVELS`` (loud, medium, soft, off); holding
UP and DOWN together mutes or unmutes at any time, keeping the volume. The file is written
whole under another name and renamed over the old one, so a power cut leaves the old
setting or the new one; a file that cannot be read is the default (loud, on), said in the log.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from pathlib import Path

FILE = "sound.json"
LEVELS = ("loud", "medium", "soft")
"""The volumes, loudest first: the buzzer's duty cycle and the sound card's amplitude."""
LOUDNESS = {"loud": 1.0, "medium": 0.45, "soft": 0.15}


@dataclass(frozen=True)
class Sound:
    volume: str = "loud"
    muted: bool = False

    @property
    def loudness(self) -> float:
        """0 when muted, else the volume's share of the loudest."""
        return 0.0 if self.muted else LOUDNESS[self.volume]

    def label(self) -> str:
        """The pause menu's words: "Sound: loud", "Sound: off"."""
        return f"Sound: {'off' if self.muted else self.volume}"

    def stepped(self) -> "Sound":
        """The pause menu's next setting: loud -> medium -> soft -> off -> loud."""
        if self.muted:
            return Sound(LEVELS[0], False)
        i = LEVELS.index(self.volume)
        return replace(self, muted=True) if i + 1 == len(LEVELS) else replace(self, volume=LEVELS[i + 1])

    def toggled(self) -> "Sound":
        """Muted or unmuted (UP and DOWN held together), at the same volume."""
        return replace(self, muted=not self.muted)


def load(state_dir: str | Path | None) -> Sound:
    if state_dir is None:
        return Sound()
    path = Path(state_dir) / FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        sound = Sound(str(raw["volume"]), bool(raw["muted"]))
        if sound.volume not in LEVELS or not isinstance(raw["muted"], bool):
            raise ValueError(f"volume {sound.volume!r}")
        return sound
    except FileNotFoundError:
        return Sound()
    except (OSError, ValueError, KeyError, TypeError) as exc:
        import logging
        logging.getLogger(__name__).warning("%s unreadable (%s): sound loud and on", path, exc)
        return Sound()


def save(state_dir: str | Path | None, sound: Sound) -> None:
    """Keep ``sound`` (nowhere without a state directory); an error goes to the log only."""
    if state_dir is None:
        return
    path = Path(state_dir) / FILE
    tmp = path.with_name(FILE + ".new")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump({"volume": sound.volume, "muted": sound.muted}, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        import logging
        logging.getLogger(__name__).warning("sound setting not kept in %s: %s", path, exc)
