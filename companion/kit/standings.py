"""Results: ordinals, the ``results.json`` standings shape and the lines that show them."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from companion.core.scoring import player_totals, ranked  # noqa: F401  (the packs' way to them)
from companion.kit.text import row
from companion.profile import LINE_CHARS

STANDING_KEYS = ("position", "name", "points")
"""Every standings row has these keys (more may follow: laps, led, colour, team...)."""


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st..."""
    last_two = n % 100
    suffix = "th" if 11 <= last_two <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def standing(position: int, name: str, points: int, **extra: Any) -> dict[str, Any]:
    """One standings row in the results.json shape."""
    return {"position": int(position), "name": str(name), "points": int(points), **extra}


def is_standings(rows: Any) -> bool:
    """Whether ``rows`` has the standings shape: positions 1.. in order (ties may share
    one), each with a name and whole points."""
    if not isinstance(rows, list):
        return False
    last = 0
    for r in rows:
        if not isinstance(r, Mapping) or any(k not in r for k in STANDING_KEYS):
            return False
        if not isinstance(r["position"], int) or not isinstance(r["points"], int) or not r["name"]:
            return False
        if r["position"] < max(1, last) or r["position"] > len(rows):
            return False
        last = r["position"]
    return True


def result_line(position: int | str, name: str, value: Any, limit: int = LINE_CHARS) -> str:
    """``1 Red         36``: position and name at the left, the value at the right."""
    return row(f"{position} {name}", str(value), limit)


def result_lines(rows: Iterable[Mapping[str, Any]], key: str = "points",
                 limit: int = LINE_CHARS) -> list[str]:
    return [result_line(r["position"], r["name"], r.get(key, ""), limit) for r in rows]
