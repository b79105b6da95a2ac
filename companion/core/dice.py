"""Dice: numeric and custom-face dice, rolled with an injected ``rng``.

A :class:`Die` is plain data (its faces come from a game's ``data.toml``). Plain
``dN`` dice ("d6", "d20", any N from 2 to 1000) need no data file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from companion.core.rng import Rng

Face = int | str

_PLAIN = re.compile(r"d([0-9]{1,4})")
PLAIN_MIN, PLAIN_MAX = 2, 1000


class DiceError(LookupError):
    """An unknown die; ``str()`` is one line naming the dice available."""


@dataclass(frozen=True)
class Die:
    id: str
    label: str
    faces: tuple[Face, ...]
    assumption: str = ""

    def __post_init__(self):
        if not self.faces:
            raise ValueError(f"die '{self.id}' has no faces")


def roll(die: Die, rng: Rng) -> Face:
    """One face of ``die``, each face equally likely."""
    return die.faces[rng.randrange(len(die.faces))]


def plain(die_id: str) -> Die | None:
    """The plain die ``"dN"`` (faces 1..N), or None if ``die_id`` is not of that form."""
    m = _PLAIN.fullmatch(die_id)
    if not m or not PLAIN_MIN <= int(m.group(1)) <= PLAIN_MAX:
        return None
    n = int(m.group(1))
    return Die(die_id, f"d{n}", tuple(range(1, n + 1)))


def lookup(dice: Mapping[str, Die], die_id: str, where: str = "") -> Die:
    """``dice[die_id]``, else the plain ``dN`` die of that name, else a DiceError.

    ``where`` names the collection in the message (e.g. "formula-de")."""
    if die_id in dice:
        return dice[die_id]
    die = plain(die_id)
    if die is not None:
        return die
    known = ", ".join([*dice, f"d{PLAIN_MIN}..d{PLAIN_MAX}"])
    scope = f" for {where}" if where else ""
    raise DiceError(f"unknown die '{die_id}'{scope}; available: {known}")

