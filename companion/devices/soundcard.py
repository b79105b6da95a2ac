"""The desktop's sound card: a cue's tune played by the system's player.

``aplay`` (ALSA, Linux) with a sound card listed in /proc/asound/cards, or ``afplay``
(macOS): each cue is made once per volume as a WAV file (``companion.cues.wav``, the stdlib
``wave`` module: no audio library is loaded) and handed to the player, which runs as its
own process. Without a player or a card the window is silent (``player_command`` is None).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Callable

CARDS = Path("/proc/asound/cards")
WAIT_S = 2.0     # a player that has not finished by then is stopped


def player_command(which: Callable[[str], str | None] = shutil.which, cards: Path = CARDS) -> list[str] | None:
    """The command that plays a WAV file here, or None (no player, no sound card)."""
    aplay = which("aplay")
    if aplay:
        try:
            listed = cards.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        return [aplay, "-q"] if listed.strip() and "no soundcards" not in listed else None
    afplay = which("afplay")
    return [afplay] if afplay else None


class SoundCard:
    def __init__(self, command: list[str], folder: str | Path | None = None):
        self.command = list(command)
        self._own = folder is None
        self.folder = Path(tempfile.mkdtemp(prefix="companion-cues-")) if folder is None else Path(folder)
        self._files: dict[tuple[str, float], Path] = {}

    def file(self, cue, loudness: float) -> Path:
        key = (cue.name, loudness)
        path = self._files.get(key)
        if path is None:
            from companion.cues.wav import wav_bytes
            path = self.folder / f"{cue.name}-{int(loudness * 100)}.wav"
            path.write_bytes(wav_bytes(cue.tune, loudness))
            self._files[key] = path
        return path

    def play(self, cue, loudness: float) -> None:
        """Play ``cue`` and wait for it (on the cues' worker, never on the loop)."""
        proc = subprocess.Popen(self.command + [str(self.file(cue, loudness))], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            proc.wait(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def close(self) -> None:
        if self._own:
            shutil.rmtree(self.folder, ignore_errors=True)
