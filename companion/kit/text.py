"""Text fitted to the display profile: move labels, body lines, rows with a value at the
right. Every limit defaults to a width of ``companion.ui.profile``; no pack types a count."""

from __future__ import annotations

import re

from companion.core.names import car_name  # noqa: F401  (the packs' way to it)
from companion.core.turnclock import duration  # noqa: F401  (the ui's way to it: a thinking time)
from companion.profile import LABEL_CHARS, LINE_CHARS, MENU_CHARS  # noqa: F401  (MENU_CHARS: a line of a list)

ELLIPSIS = "\u2026"


def fit(text: str, limit: int = LINE_CHARS) -> str:
    """``text`` cut to ``limit`` characters, at a word boundary when one is near
    ("Use Tempo cards" -> "Use Tempo"), never in the middle of a short word."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    head = text[:limit + 1]
    if " " in head:
        cut = head.rsplit(" ", 1)[0].rstrip(" :>-,")
        if len(cut) >= limit // 2:
            return cut
    return text[:limit].rstrip()


def label(text: str) -> str:
    """A move label: whole in the footer and in the history list."""
    return fit(text, LABEL_CHARS)


def first_fitting(*candidates: str, limit: int = LINE_CHARS) -> str:
    """The first of ``candidates`` that fits ``limit`` (the last one fitted when none does):
    the long wording where there is room, the short one where there is not."""
    for text in candidates:
        if len(text) <= limit:
            return text
    return fit(candidates[-1], limit)


def clip(text: str, limit: int = LINE_CHARS) -> str:
    """``text`` ending in an ellipsis when it is longer than ``limit``."""
    if len(text) <= limit:
        return text
    return text[:max(0, limit - 1)].rstrip() + ELLIPSIS if limit > 0 else ""


def row(left: str, right: str, limit: int = LINE_CHARS) -> str:
    """One line of ``limit`` characters: ``left`` at the left (shortened if need be) and
    ``right`` at the right, at least one space between them."""
    right = right[:limit]
    room = max(0, limit - len(right) - 1) if right else limit
    left = left[:room]
    return (left.ljust(limit - len(right)) + right) if right else left


def short_name(text: str) -> str:
    """A label without its parenthesised note: "Suit (1 car)" -> "Suit"."""
    return re.sub(r"\s*\([^)]*\)", "", text).strip() or text


def title_fitting(status: str, *candidates: str) -> str:
    """The first of ``candidates`` the title bar shows whole beside ``status`` (its dark box
    takes the status's width and 4 px; the title keeps a 4 px margin)."""
    from companion.profile import ADVANCE, WIDTH, chars
    box = len(status) * ADVANCE + 4 if status else 0
    return first_fitting(*candidates, limit=chars(WIDTH - box - 8))
