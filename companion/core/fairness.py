"""Is the randomness fair? Pearson's chi-square test of dice rolls and shuffles.

Used by the tests (with a seeded generator, so they never flake) and by
``bench/randomness.py`` (with the OS generator the device uses).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from statistics import NormalDist
from typing import Sequence

from companion.core.deck import shuffle_order
from companion.core.dice import Die, roll
from companion.core.rng import Rng

ALPHA = 0.001  # a fair source fails a check 1 time in 1000


@dataclass(frozen=True)
class Check:
    name: str
    statistic: float
    df: int
    critical: float

    @property
    def passed(self) -> bool:
        return self.statistic <= self.critical

    def __str__(self) -> str:
        verdict = "ok" if self.passed else "BIASED?"
        return f"{self.name:<28} chi2 {self.statistic:9.2f}  df {self.df:3d}  limit {self.critical:8.2f}  {verdict}"


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> float:
    """Pearson's statistic: the sum of (observed - expected)^2 / expected."""
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def critical_value(df: int, alpha: float = ALPHA) -> float:
    """The value a chi-square statistic with ``df`` degrees of freedom exceeds with
    probability ``alpha``: exact for df 1 and 2, else the Wilson-Hilferty approximation
    (within 2% from df 3 on)."""
    if df == 1:
        return NormalDist().inv_cdf(1 - alpha / 2) ** 2
    if df == 2:
        return -2 * math.log(alpha)
    z = NormalDist().inv_cdf(1 - alpha)
    h = 2.0 / (9.0 * df)
    return df * (1.0 - h + z * math.sqrt(h)) ** 3


def die_check(die: Die, rng: Rng, rolls: int) -> Check:
    """Roll ``die`` ``rolls`` times; each distinct face should come up in proportion to
    how many of the die's faces carry it."""
    weights = Counter(die.faces)
    seen = Counter(roll(die, rng) for _ in range(rolls))
    faces = list(weights)
    expected = [rolls * weights[f] / len(die.faces) for f in faces]
    return Check(die.id, chi_square([seen[f] for f in faces], expected), len(faces) - 1,
                 critical_value(len(faces) - 1))


def shuffle_checks(size: int, rng: Rng, shuffles: int) -> list[Check]:
    """Shuffle ``size`` cards ``shuffles`` times; every card should end up in every
    position equally often. One check per card."""
    counts = [[0] * size for _ in range(size)]   # counts[card][position]
    for _ in range(shuffles):
        for position, card in enumerate(shuffle_order(size, rng)):
            counts[card][position] += 1
    expected = [shuffles / size] * size
    return [Check(f"card {card + 1} of {size}", chi_square(row, expected), size - 1, critical_value(size - 1))
            for card, row in enumerate(counts)]
