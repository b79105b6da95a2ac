"""Cars on the circuit: where each one is, race order, blocking, closing up.

A car's place is its *distance*: spaces travelled since the start, the finish-line
space being 0 (cars on the grid behind it are at -1, -2, ...). Its space on the board
is ``distance % spaces``; a car a full lap behind another shares that space number
only in theory, because no two cars ever stand on the same board space.
"""

from __future__ import annotations

from typing import Sequence


def race_order(distances: Sequence[int]) -> tuple[int, ...]:
    """Car indices, leader first."""
    return tuple(sorted(range(len(distances)), key=lambda i: -distances[i]))


def board_space(distance: int, spaces: int) -> int:
    return distance % spaces


def laps_down(distance: int, leader: int, spaces: int) -> int:
    """Whole laps a car at ``distance`` is behind the leader at ``leader``."""
    return (leader - distance) // spaces


def move(distances: Sequence[int], car: int, amount: int, spaces: int, no_overtaking: bool = False) -> int:
    """The new distance of ``car`` after moving ``amount`` spaces (negative: backwards).

    A car that lands on an occupied space goes in the space behind it (and behind that
    one, and so on). With ``no_overtaking`` (two Yellow Flags) a car moving forward stops
    behind the first car in its way.
    """
    start = distances[car]
    taken = {d % spaces for i, d in enumerate(distances) if i != car}
    target = start + amount
    if amount > 0 and no_overtaking:
        for d in range(start + 1, target + 1):
            if d % spaces in taken:
                target = d - 1
                break
    while target % spaces in taken:
        target -= 1
    return target


def close_up(distances: Sequence[int], spaces: int) -> tuple[int, ...]:
    """The cars after closing up behind the Safety Car: in race order, each car but the
    leader moves forward to the space just behind the car in front of it (a lapped car
    stays lapped)."""
    out = list(distances)
    order = race_order(distances)
    for ahead, car in zip(order, order[1:]):
        gap = out[ahead] - 1 - out[car]
        out[car] += gap % spaces
    return tuple(out)


def lines_crossed(distance: int, spaces: int) -> int:
    """How many times a car at ``distance`` has crossed the finish line going forward
    (net of going back over it)."""
    return distance // spaces
