"""Names cut to a width, for any display: a team car keeps its number."""

from __future__ import annotations


def car_name(name: str, width: int) -> str:
    """A car's name in ``width`` characters, keeping a team car's number at its end
    ("Bartholomew 2" -> "Bartho 2")."""
    if len(name) <= width:
        return name
    head, _, tail = name.rpartition(" ")
    if head and tail.isdigit() and len(tail) < width - 2:
        return f"{head[:width - len(tail) - 1].rstrip()} {tail}"
    return name[:width]
