"""The table screen's words for a car's dashboard: plain, JSON-able dicts that a pack's
``public`` hook returns and the page draws (``companion/table/page.html``). Nothing here
knows a game; a pack picks the widgets that show its cars.

A car is ``car(name, colour, widgets, note=..., out=..., row=..., state=...)``: its full
dashboard (the widgets), and for the timing tower that shows the whole field at a glance
its ``row`` (at most ``ROW_CELLS`` short strings, the numbers that matter in that game:
``5th``, ``WP 14``, ``C3 ahead``) and its ``state`` (a word or two, ``""`` while it races
normally: ``out``, ``in the pits``, ``spun``, ``bust``, ``crashed``, ``finished``). A
widget is one of

- ``bar(label, value, maximum)``: a gauge (wear points, fuel, cards left);
- ``chips(label, [(text, colour), ...])``: coloured chips (tire wear, markers);
- ``stat(label, value)``: a word or number (gear, damage, pit state);
- ``cards(label, [text, ...], current=i)``: a row of cards, one marked (the track cards).

A public view never holds a hand's cards or a deck's order: a count of them is public.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from companion.core.names import names_word
from companion.kit.turns import primary_index


def bar(label: str, value: int, maximum: int) -> dict[str, Any]:
    return {"kind": "bar", "label": str(label), "value": int(value), "max": max(int(maximum), 1)}


def stat(label: str, value: Any) -> dict[str, Any]:
    return {"kind": "stat", "label": str(label), "value": str(value)}


def chips(label: str, items: Iterable[tuple[str, str]]) -> dict[str, Any]:
    return {"kind": "chips", "label": str(label), "items": [{"text": str(t), "colour": str(c)} for t, c in items]}


def cards(label: str, items: Sequence[str], current: int = -1) -> dict[str, Any]:
    return {"kind": "cards", "label": str(label),
            "items": [{"text": str(t), "current": i == current} for i, t in enumerate(items)]}


ROW_CELLS = 3
"""The most numbers a car's row in the tower holds."""
CELL_CHARS = 10
"""The longest a number of the row may be: a longer one is cut, ending in an ellipsis."""
FINISHED = "finished"
"""The state of a car that took the flag (or whose race is over while it still ran)."""


def car(name: str, colour: str, widgets: Iterable[dict[str, Any]], *, note: str = "",
        out: bool = False, row: Sequence[str] = (), state: str = "") -> dict[str, Any]:
    """One car's dashboard: its name, its colour (a colour word, kit.cars.COLOURS), the
    widgets, a short note (where it stands), whether it is out of the race, its row in
    the tower (``ROW_CELLS`` short strings at most) and its state ("" while racing)."""
    cells = [str(x) for x in row if str(x)]
    if len(cells) > ROW_CELLS:
        raise ValueError(f"a car's row holds {ROW_CELLS} numbers at most, not {len(cells)}: {cells}")
    return {"name": str(name), "colour": str(colour), "note": str(note), "out": bool(out),
            "row": [_cell(x) for x in cells], "state": str(state), "widgets": list(widgets)}


def _cell(text: str) -> str:
    return text if len(text) <= CELL_CHARS else text[:CELL_CHARS - 1].rstrip() + "\u2026"


def waiting(moves: Sequence, player: str = "") -> tuple[str, str]:
    """(whose turn, what the box waits for) from the move GO performs: ``player`` (else the
    move's) and its label, "Red: Roll gear 4" (the label alone when it names them: "Red
    crossed"). For moves that name nothing hidden only: a
    list of a hand's cards says only whose turn it is (the pack's words)."""
    if not moves:
        return player, ""
    move = moves[primary_index(moves)]
    who = player or move.player or ""
    return who, (f"{who}: {move.label}" if who and not names_word(move.label, who) else move.label)
