"""The names of entries described on the box (a circuit, a track, a race): the id its file
is called by and the label setup shows, as the owner names it or, kept blank, ``<name> <n>``."""

from __future__ import annotations

import re
from typing import Any, Mapping


def stem(text: str) -> str:
    """An id made of ``text``: lowercase letters, digits and dashes ("Spa 2" -> "spa-2")."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "entry"


def labels(table: Mapping[str, Any]) -> dict[str, str]:
    """id -> label of every entry of a data table (an entry without one: its id)."""
    return {k: str(v.get("label", k)) if isinstance(v, Mapping) else str(k) for k, v in table.items()}


def taken_by(table: Mapping[str, Any], label: str, but: str | None = None) -> str | None:
    """The id of the entry other than ``but`` that is called ``label`` (any case), else None."""
    wanted = label.casefold()
    return next((k for k, v in labels(table).items() if k != but and v.casefold() == wanted), None)


def new_name(table: Mapping[str, Any], name: str, label: str = "") -> tuple[str, str]:
    """(id, label) of a new entry of ``table``: ``label`` as the owner typed it (its id
    ``<stem>``, ``<stem>-2``... the first free), or kept blank ``<name> <n>`` with the
    first ``n`` whose id and label are both free."""
    ids = set(table)
    if label:
        base = stem(label)
        n = 1
        while (f"{base}-{n}" if n > 1 else base) in ids:
            n += 1
        return (f"{base}-{n}" if n > 1 else base), label
    n = 1
    while f"{stem(name)}-{n}" in ids or taken_by(table, f"{name} {n}") is not None:
        n += 1
    return f"{stem(name)}-{n}", f"{name} {n}"
