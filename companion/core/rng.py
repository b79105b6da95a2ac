"""Randomness: the OS CSPRNG in production, a seeded generator in tests.

Everything random (a roll, a shuffle, a draw) takes an ``rng`` argument with the
``random.Random`` interface, so tests pass ``make_rng(seed)`` and the device
passes ``make_rng()`` (``random.SystemRandom``, backed by ``os.urandom``).
"""

from __future__ import annotations

import random

Rng = random.Random


def make_rng(seed: int | None = None) -> random.Random:
    """The OS generator when ``seed`` is None, otherwise a reproducible one."""
    if seed is None:
        return random.SystemRandom()
    return random.Random(seed)


def shuffled(items, rng: random.Random) -> tuple:
    """A new tuple with ``items`` in a uniformly random order (Fisher-Yates)."""
    out = list(items)
    rng.shuffle(out)
    return tuple(out)
