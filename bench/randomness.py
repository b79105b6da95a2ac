"""Fairness of the device's randomness: chi-square checks on the OS generator.

    .venv/bin/python bench/randomness.py [--rolls N] [--shuffles N]

Rolls every die of every game that has data (and d6, d20) with ``make_rng()``, the OS
CSPRNG the device uses, and shuffles a 13-card suit and a 52-card deck; prints each
chi-square statistic against its limit at the 0.1% level (so a fair source still fails
about one check in a thousand) and how fast it went.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games import data as game_data

from companion.core.dice import plain  # noqa: E402
from companion.core.fairness import die_check, shuffle_checks  # noqa: E402
from companion.core.rng import make_rng  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=100_000, help="rolls per die (default 100000)")
    parser.add_argument("--shuffles", type=int, default=26_000, help="shuffles per deck size (default 26000)")
    args = parser.parse_args()
    rng = make_rng()
    checks = []

    dice = [(slug, die) for slug in game_data.games_with_data() for die in game_data.dice(slug).values()]
    dice += [("any", plain("d6")), ("any", plain("d20"))]
    start = time.perf_counter()
    for slug, die in dice:
        check = die_check(die, rng, args.rolls)
        checks.append(check)
        print(f"{slug:<12} {check}")
    took = time.perf_counter() - start
    print(f"-- {len(dice) * args.rolls:,} rolls in {took:.2f} s ({took / (len(dice) * args.rolls) * 1e6:.2f} us a roll)")

    for size in (13, 52):
        start = time.perf_counter()
        results = shuffle_checks(size, rng, args.shuffles)
        took = time.perf_counter() - start
        checks.extend(results)
        worst = max(results, key=lambda c: c.statistic / c.critical)
        failed = sum(not c.passed for c in results)
        print(f"shuffle {size:>2}   {args.shuffles:,} shuffles in {took:.2f} s; worst {worst}; {failed} of {size} over the limit")

    failed = sum(not c.passed for c in checks)
    print(f"{len(checks) - failed} of {len(checks)} checks within the limit "
          f"(a fair source exceeds it about once in 1000 checks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
