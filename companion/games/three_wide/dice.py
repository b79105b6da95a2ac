"""Tire dice: the faces, the "!" count, and what each die choice does (2.3).

A face is a speed followed by letters: ``x`` wears one tire chip, ``s`` saves a step of
fuel, ``!`` is trouble. Choosing a die moves the car its speed, plus one for every other
die showing the same number, less one per damage (and handling) marker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

_FACE = re.compile(r"(\d{1,2})([xs!]*)")


@dataclass(frozen=True)
class Face:
    speed: int
    wear: int
    save: bool
    trouble: int


def parse(text: str) -> Face | None:
    m = _FACE.fullmatch(str(text).replace(" ", ""))
    if not m:
        return None
    letters = m.group(2)
    return Face(int(m.group(1)), letters.count("x"), "s" in letters, letters.count("!"))


def face(text: str) -> Face:
    found = parse(text)
    if found is None:
        raise ValueError(f"not a tire face: {text!r}")
    return found


def trouble(faces: Sequence[str]) -> int:
    """How many "!" the roll shows."""
    return sum(face(f).trouble for f in faces)


def trouble_marker(faces: Sequence[str]) -> str | None:
    """The incident marker the roll asks for: two "!" a Tire incident, three or more an
    automatic Incident, else none."""
    n = trouble(faces)
    return "Incident" if n >= 3 else "Tire" if n == 2 else None


def duplicates(faces: Sequence[str], i: int) -> int:
    """Other dice showing the same speed as die ``i``."""
    speed = face(faces[i]).speed
    return sum(1 for j, f in enumerate(faces) if j != i and face(f).speed == speed)


def distance(faces: Sequence[str], i: int, slowdown: int = 0) -> int:
    """Spaces the car moves on die ``i``: speed + duplicates - damage, never below 0."""
    return max(0, face(faces[i]).speed + duplicates(faces, i) - slowdown)


def choices(faces: Sequence[str]) -> list[int]:
    """One die index per distinct face (choosing either of two equal faces is the same)."""
    seen: dict[str, int] = {}
    for i, f in enumerate(faces):
        seen.setdefault(f, i)
    return sorted(seen.values(), key=lambda i: (-face(faces[i]).speed, faces[i]))


def wear(tires: Sequence[int], times: int, worst: int = 3) -> tuple[int, ...]:
    """The tire chips after ``times`` wears: each wear takes the freshest chip one colour
    on (black, green, yellow, red); a red chip wears no further. Wearing the freshest
    chip first keeps the dice as good as they can be for longest (the rulebook lets the
    owner choose; this is the companion's choice)."""
    chips = list(tires)
    for _ in range(times):
        candidates = [i for i, c in enumerate(chips) if c < worst]
        if not candidates:
            break
        i = min(candidates, key=lambda k: (chips[k], k))
        chips[i] += 1
    return tuple(chips)


def save_fuel(fuel: int, tank: int) -> int:
    """One step towards Full; on F the marker goes past it (``tank + 1``), no further."""
    return min(tank + 1, fuel + 1)


def burn(fuel: int, steps: int) -> tuple[int, bool]:
    """The gauge after burning ``steps``: (new fuel, out of gas). Onto E (0) is fine; a
    step more than the tank holds is out of gas (the marker stays on E)."""
    if steps > fuel:
        return 0, True
    return fuel - steps, False
