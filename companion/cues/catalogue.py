"""Every cue the box plays, and its tune: a few notes, 300 ms at most, the same in every game.

A tune is a tuple of ``(frequency in Hz, milliseconds)``; a frequency of 0 is a rest. No
two cues share a tune, and none plays for a press: a cue marks what the table would
otherwise miss (docs/sound.md).
"""

from __future__ import annotations

from dataclasses import dataclass

# the notes used, equal temperament (A4 = 440 Hz), rounded to whole Hz
C5, D5, E5, F5, G5, A5, B5 = 523, 587, 659, 698, 784, 880, 988
C6, E6, G6 = 1047, 1319, 1568
G4, A4 = 392, 440
REST = 0

MAX_MS = 300
"""The longest a tune may last, rests included."""


@dataclass(frozen=True)
class Cue:
    name: str
    words: str                               # what it marks, for docs and the pause menu's test tune
    tune: tuple[tuple[int, int], ...]

    @property
    def ms(self) -> int:
        return sum(ms for _, ms in self.tune)


CUES: dict[str, Cue] = {cue.name: cue for cue in (
    Cue("turn", "the turn passes to a human player", ((E5, 60), (REST, 20), (A5, 90))),
    Cue("your-choice", "a player answers face down", ((A5, 50), (REST, 30), (A5, 50), (REST, 30), (E6, 80))),
    Cue("car-out", "a car busts, crashes or is out", ((G5, 80), (E5, 80), (C5, 130))),
    Cue("line", "the leader crosses the line", ((C6, 70),)),
    Cue("last-lap", "the last lap begins", ((C5, 60), (E5, 60), (G5, 60), (C6, 110))),
    Cue("flag", "the chequered flag", ((C6, 50), (G5, 50), (C6, 50), (G5, 50), (C6, 100))),
    Cue("sc-out", "Safety Car or caution out", ((A5, 120), (REST, 20), (A4, 150))),
    Cue("sc-in", "Safety Car or caution in: racing again", ((A4, 120), (REST, 20), (A5, 150))),
    Cue("challenge", "a Lacorsa challenge", ((D5, 50), (F5, 50), (D5, 50), (F5, 50), (B5, 90))),
    Cue("timer-warning", "10 seconds left on the turn timer", ((G5, 40),)),
    Cue("timer-out", "the turn timer ran out", ((E6, 100), (REST, 30), (E6, 100))),
    Cue("paper", "the printer needs paper", ((G4, 100), (REST, 40), (G4, 100), (REST, 40))),
)}

NAMES = tuple(CUES)
