"""Where cars are on the poster track, and what follows from it.

Spaces are numbered 1.. from the start-finish line against the direction of travel, three
to a row (inside, middle, outside lane): row ``r`` holds spaces ``3r+1 .. 3r+3``. A lower
number is further ahead on the lap, so race position order (2.3) is: highest lap first,
then lowest space. Moving forward ``n`` spaces takes a car ``n`` rows on (lanes may
change); going past space 1 crosses the line and wraps to the last row on the next lap.
"""

from __future__ import annotations

from typing import Iterable, Sequence


def row(space: int) -> int:
    return (space - 1) // 3


def lane(space: int) -> int:
    return (space - 1) % 3


def space_at(r: int, ln: int) -> int:
    return 3 * r + ln + 1


def order(cars: Sequence[tuple[int, int]], among: Iterable[int] | None = None) -> tuple[int, ...]:
    """Indices of ``cars`` ((lap, space) each) in race position order."""
    idx = range(len(cars)) if among is None else among
    return tuple(sorted(idx, key=lambda i: (-cars[i][0], cars[i][1], i)))


def ahead(r: int, n: int, rows: int) -> tuple[int, int]:
    """(row, laps gained) ``n`` rows on from row ``r``."""
    target = r - n
    laps = 0
    while target < 0:
        target += rows
        laps += 1
    return target, laps


def behind(r: int, n: int, rows: int) -> tuple[int, int]:
    """(row, laps lost) ``n`` rows back from row ``r``."""
    target = r + n
    laps = 0
    while target >= rows:
        target -= rows
        laps += 1
    return target, laps


def rows_passed(start: int, n: int, rows: int) -> tuple[int, ...]:
    """The rows a car moves over or into going ``n`` rows on from ``start``."""
    return tuple((start - k) % rows for k in range(1, n + 1))


def landing(space: int, n: int, rows: int, taken: set[int]) -> tuple[int, int, int]:
    """Where a car on ``space`` moving ``n`` lands: (space, laps gained, rows short).
    The same lane if it is free, else the free lane nearest it; if the row is full, the
    row behind it, and so on (the car was held up: ``rows short`` > 0)."""
    r, ln = row(space), lane(space)
    for short in range(n + 1):
        target, laps = ahead(r, n - short, rows)
        if short == n:  # no move at all: stays where it is
            return space, 0, short
        for alt in sorted(range(3), key=lambda x: (abs(x - ln), x)):
            s = space_at(target, alt)
            if s not in taken:
                return s, laps, short
    return space, 0, n


def back(space: int, n: int, rows: int, taken: set[int]) -> tuple[int, int]:
    """A green-flag pit stop: ``n`` rows back from ``space``, same lane, ignoring other cars;
    if that space is taken, the next free space behind it. (space, laps lost)."""
    target, laps = behind(row(space), n, rows)
    s = space_at(target, lane(space))
    for _ in range(rows * 3):
        if s not in taken:
            return s, laps
        s += 1
        if s > rows * 3:
            s, laps = 1, laps + 1
    return s, laps


def distance(a: int, b: int, rows: int) -> int:
    """Spaces between two spaces counted as a king moves (diagonals are adjacent), round
    the track either way."""
    dr = abs(row(a) - row(b))
    dr = min(dr, rows - dr)
    return max(dr, abs(lane(a) - lane(b)))


def wreck(first: int, cars: dict[int, int], count: int, rows: int) -> tuple[int, ...]:
    """The cars in a wreck of ``count`` cars started by car ``first`` (2.4): ``cars`` maps
    car -> space of every car on the track. Each next car is the one closest to the car
    last added; a tie goes to the closest space number, then the largest space number.
    Every car added must be adjacent (diagonals too) to a car already in the wreck: when
    none is, the wreck is smaller."""
    chosen = [first]
    while len(chosen) < count:
        last = cars[chosen[-1]]
        near = [c for c in cars if c not in chosen
                and any(distance(cars[c], cars[w], rows) <= 1 for w in chosen)]
        if not near:
            break
        chosen.append(min(near, key=lambda c: (distance(cars[c], last, rows), abs(cars[c] - last), -cars[c])))
    return tuple(chosen)


def three_wide(space: int, taken: set[int], rows: int, corners: frozenset[int]) -> str | None:
    """The 3-wide marker a car that ends its move on ``space`` earns (2.3), or None.

    On a straight, "3-Str" when all three lanes of its row are filled: the three cars side
    by side. In a corner, "3-Crn" when three cars in corner spaces, one in each lane, block
    the track together with it: the middle-lane car adjacent (diagonals too) to the other
    two, so a car in 45 (outside), 46 (inside) and one ending in 47 (middle) are 3-wide
    in the corner, and so is one ending in 49 beside 47 (the rulebook's examples)."""
    r = row(space)
    if r not in corners:
        return "3-Str" if all(space_at(r, ln) in taken for ln in range(3)) else None
    ln = lane(space)
    middles = [space] if ln == 1 else _beside(space, 1, taken, rows, corners)
    for mid in middles:
        if all(ln == side or _beside(mid, side, taken, rows, corners) for side in (0, 2)):
            return "3-Crn"
    return None


def _beside(space: int, ln: int, taken: set[int], rows: int, corners: frozenset[int]) -> list[int]:
    """The taken corner spaces of lane ``ln`` adjacent to ``space`` (its row and the rows
    either side)."""
    near = ((row(space) + k) % rows for k in (-1, 0, 1))
    return [space_at(r, ln) for r in near if r in corners and space_at(r, ln) in taken]


def front_car(space: int, cars: dict[int, int], rows: int) -> int | None:
    """The car directly in front of ``space``: in the next occupied row ahead (the same
    lane when there is one there), or None."""
    r, ln = row(space), lane(space)
    for k in range(1, rows):
        target, _ = ahead(r, k, rows)
        here = [c for c, s in cars.items() if row(s) == target]
        if here:
            return min(here, key=lambda c: (abs(lane(cars[c]) - ln), cars[c]))
    return None


def directly(space: int, cars: dict[int, int], rows: int, step: int) -> int | None:
    """The car in the same lane one row ahead (``step`` -1) or behind (``step`` +1)."""
    r, _ = (ahead(row(space), 1, rows) if step < 0 else behind(row(space), 1, rows))
    target = space_at(r, lane(space))
    return next((c for c, s in cars.items() if s == target), None)


def bumped(space: int, taken: set[int], rows: int) -> tuple[int, int] | None:
    """Where Bump and Run moves the car in front, on ``space`` (appendix A): one space
    ahead and over to the outside, the next row's space one lane further out (space, laps
    gained); None when it cannot go there: it is in the outside lane already, or that
    space is taken."""
    ln = lane(space)
    if ln == 2:
        return None
    r, laps = ahead(row(space), 1, rows)
    target = space_at(r, ln + 1)
    return None if target in taken else (target, laps)


def in_line(car: int, cars: dict[int, int], rows: int, step: int) -> tuple[int, ...]:
    """The cars directly in line ahead of ``car`` (``step`` -1, nearest first) or behind
    it (+1): same lane, one row after another, until a gap."""
    out: list[int] = []
    here = cars[car]
    for _ in range(rows):
        nxt = directly(here, cars, rows, step)
        if nxt is None or nxt == car or nxt in out:
            break
        out.append(nxt)
        here = cars[nxt]
    return tuple(out)
