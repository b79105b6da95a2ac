"""Names and counts as people read them, for any display or paper: a name cut to a width
keeps a team car's number; a count says its noun in the singular or the plural."""

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


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, the noun plural unless the count is one: "1 race", "2 races"."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
