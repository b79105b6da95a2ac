"""Names and counts as people read them, for any display or paper: a name cut to a width
keeps a team car's number; a count says its noun in the singular or the plural."""

from __future__ import annotations

import re
from typing import Sequence


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


def ordinal(n: int) -> str:
    """A place in words: "1st", "2nd", "3rd", "11th", "22nd"."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


_CODE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def codes(names: Sequence[str], width: int, given: Sequence[str | None] = ()) -> list[str]:
    """A distinct short code per name (distinct whatever the letter case), at most ``width``
    (2 or more) characters: the code ``given`` for it (a car number), else the name itself
    when it is that short, else its first letters as many as fit (``Black`` -> ``BLA``,
    ``Blue`` -> ``BLU`` in 3; in 2 ``Blue`` -> ``BL``, then ``Black`` -> ``BA``), else its
    first letter and later ones (``Grey`` -> ``GRY`` beside ``Green``'s ``GRE``). A name ending in a number keeps the number ("Ann 1" and "Ann 2":
    ``A1`` and ``A2`` in 2, ``AN1`` and ``AN2`` in 3), so team cars stay told apart.
    Distinct for up to 36 + 36 ** 2 + ... names (1332 in 2); raises ValueError beyond."""
    taken = {str(g).upper() for g in given if g not in (None, "")}
    out: list[str] = []
    for k, name in enumerate(names):
        own = given[k] if k < len(given) and given[k] not in (None, "") else None
        code = str(own) if own is not None else _code(name, width, taken)
        taken.add(code.upper())
        out.append(code)
    return out


def _code(name: str, width: int, taken: set[str]) -> str:
    if 0 < len(name) <= width and name == name.strip() and name.upper() not in taken:
        return name
    chars = "".join(ch for ch in name.upper() if ch.isalnum())
    letters = chars.rstrip("0123456789")
    number = chars[len(letters):]
    for code in _candidates(letters, number, width) if letters else _candidates(chars, "", width) if chars else ():
        if code.upper() not in taken:
            return code
    for size in range(1, width + 1):          # any free code, the shortest first
        for code in _all_codes(size):
            if code not in taken:
                return code
    raise ValueError(f"more than {sum(36 ** n for n in range(1, width + 1))} names for codes of {width} characters")


def _candidates(letters: str, number: str, width: int):
    """The codes a name reads as, best first: letters and the number kept whole when it
    fits; a name without a number its first letter and later ones filling the code; the
    first letter and one later one, then the first letter and a digit."""
    head, rest = letters[0], letters[1:]
    if number and len(number) < width:
        room = width - len(number)
        yield letters[:room] + number
        for later in _later(rest, room - 1):
            yield head + later + number
    elif number and len(number) == width:
        yield number
    if not number:            # the name's own first letters, as many as fit: Black BLA, Blue BLU
        for later in _later(rest, width - 1):
            yield head + later
    for later in _later(rest + number, min(1, width - 1)):
        yield head + later
    yield head
    for digit in "0123456789":
        yield head + digit


def _later(chars: str, n: int):
    """Every pick of ``n`` characters from ``chars``, in their order (all of them for n=0: "")."""
    if n <= 0:
        yield ""
        return
    for i, ch in enumerate(chars):
        for tail in _later(chars[i + 1:], n - 1):
            yield ch + tail


def _all_codes(size: int):
    if size == 0:
        yield ""
        return
    for ch in _CODE_CHARS:
        for tail in _all_codes(size - 1):
            yield ch + tail


def names_word(text: str, name: str) -> bool:
    """Whether ``text`` names ``name`` as a word of its own ("Red crossed", not "Redline")."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None
