"""Random nested values for the fuzzers of owners' files (pinout, game data), drawn from one
``random.Random``.

The fuzzers ask hypothesis for the Random only (``randoms()``): it draws the seed,
records it and replays a failure, while the values themselves come from ``random`` at a
hundredth of the cost of drawing each leaf through hypothesis (that drawing was most of a
fuzzer's time: 15 s of the pinout fuzzer's 16). The edge values hypothesis would favour
(nan, infinities, huge integers, empty text, control and astral characters) are drawn on
purpose here.
"""

from __future__ import annotations

import math
import random
import sys
from datetime import date, datetime, time, timedelta

class Seeded(random.Random):
    """A ``random.Random`` that shows its seed (what a failing example prints)."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.seed_drawn = seed

    def __repr__(self) -> str:
        return f"Random({self.seed_drawn!r})"


def randoms():
    """Hypothesis's ``st.randoms(use_true_random=True)`` without its wrapper: the same seed
    drawn (0 to 2**64 - 1) and the same numbers from it, but each call of the fuzzer's
    thousands a plain ``random.Random`` call instead of one through hypothesis's note-taking
    (a third of the game-data and pinout fuzzers' time)."""
    from hypothesis import strategies as st
    return st.integers(0, 2**64 - 1).map(Seeded)


EDGE_INTS = (0, 1, -1, 2**63, -2**63 - 1, 2**70, -2**70, 2**31 - 1, 2**32)
EDGE_FLOATS = (0.0, -0.0, math.nan, math.inf, -math.inf, 1e308, -1e-308, 0.5, 1.5)
CHARACTER_POOLS = (
    (0x20, 0x7E),       # printable ASCII
    (0x00, 0x1F),       # control characters
    (0xA0, 0x2FF),      # accented Latin
    (0x3000, 0x30FF),   # CJK punctuation, kana
    (0x1F300, 0x1F64F), # astral (emoji)
    (0xE000, 0xF8FF),   # private use
)


def text(rnd: random.Random, max_size: int = 12) -> str:
    """Any text but surrogates: mostly ASCII, sometimes control, accented, wide or astral."""
    size = rnd.choice((0, rnd.randint(0, max_size), rnd.randint(0, max_size)))
    out = []
    for _ in range(size):
        low, high = CHARACTER_POOLS[0] if rnd.random() < 0.6 else rnd.choice(CHARACTER_POOLS)
        out.append(chr(rnd.randint(low, high)))
    return "".join(out)


def integer(rnd: random.Random, low: int = -2**70, high: int = 2**70) -> int:
    roll = rnd.random()
    if roll < 0.2:
        return rnd.choice(EDGE_INTS)
    if roll < 0.6:
        return rnd.randint(-3, 100)
    return rnd.randint(low, high)


def floating(rnd: random.Random) -> float:
    if rnd.random() < 0.4:
        return rnd.choice(EDGE_FLOATS)
    return rnd.uniform(-1e6, 1e6) if rnd.random() < 0.8 else rnd.uniform(-sys.float_info.max, sys.float_info.max)


def moment(rnd: random.Random):
    """A datetime, a date or a time (TOML has all three)."""
    when = datetime(1, 1, 1) + timedelta(seconds=rnd.randint(0, 315_000_000_000), microseconds=rnd.randint(0, 999_999))
    return rnd.choice((when, when.date(), when.time()))


def scalar(rnd: random.Random, extra: tuple = ()):
    """One leaf: an integer, a float, a boolean, a text, a moment, or one of ``extra``."""
    kind = rnd.randrange(6 if not extra else 7)
    if kind == 0:
        return integer(rnd)
    if kind == 1:
        return floating(rnd)
    if kind == 2:
        return rnd.random() < 0.5
    if kind == 3:
        return text(rnd)
    if kind == 4:
        return moment(rnd)
    if kind == 5:
        return integer(rnd, -3, 700_000)
    return rnd.choice(extra)


def nested(rnd: random.Random, leaf, max_leaves: int = 6, width: int = 3, keys=text):
    """A leaf, or lists and tables of them, with at most ``max_leaves`` leaves in all."""
    budget = [max_leaves]

    def value(depth: int):
        if budget[0] <= 1 or depth > 4 or rnd.random() < 0.5:
            budget[0] -= 1
            return leaf(rnd)
        items = rnd.randint(0, width)
        if rnd.random() < 0.5:
            return [value(depth + 1) for _ in range(items) if budget[0] > 0]
        return {keys(rnd): value(depth + 1) for _ in range(items) if budget[0] > 0}

    return value(0)
