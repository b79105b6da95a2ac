"""Move labels for the toolkit: short enough for the footer and the history list."""

from __future__ import annotations

import re

LABEL = 14
"""The longest move label (the activity contract's limit)."""


def fit(text: str, limit: int = LABEL) -> str:
    """``text`` cut to ``limit`` characters, at a word boundary when one is near
    ("Use Tempo cards" -> "Use Tempo"), never in the middle of a short word."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head = text[:limit + 1]
    if " " in head:
        cut = head.rsplit(" ", 1)[0].rstrip(" :>-,")
        if len(cut) >= limit // 2:
            return cut
    return text[:limit].rstrip()


def short_name(label: str) -> str:
    """A label without its parenthesised note: "Suit (1 car)" -> "Suit"."""
    return re.sub(r"\s*\([^)]*\)", "", label).strip() or label
