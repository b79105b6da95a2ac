"""A cue's tune as a WAV file (the stdlib ``wave`` module), for the sound card.

Square-ish tones (a sine clipped a little, as a buzzer sounds), 5 ms fades at each note's
ends so nothing clicks, 16-bit mono at 22 050 Hz: a 300 ms cue is 13 KB.
"""

from __future__ import annotations

import io
import math
import wave
from array import array

RATE = 22_050
FADE_MS = 5


def samples(tune, loudness: float) -> array:
    out = array("h")
    peak = int(32767 * 0.8 * max(0.0, min(1.0, loudness)))
    fade = RATE * FADE_MS // 1000
    for hz, ms in tune:
        n = RATE * ms // 1000
        if hz <= 0 or peak == 0:
            out.extend([0] * n)
            continue
        step = 2 * math.pi * hz / RATE
        for i in range(n):
            edge = min(1.0, i / fade, (n - 1 - i) / fade) if fade else 1.0
            value = max(-0.7, min(0.7, math.sin(i * step))) / 0.7
            out.append(int(peak * edge * value))
    return out


def wav_bytes(tune, loudness: float) -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(samples(tune, loudness).tobytes())
    return buffer.getvalue()
