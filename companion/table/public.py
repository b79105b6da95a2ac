"""What the table screen may show of a race: the contract's public view of a state.

``public_view(activity, state)`` is the one place a display outside the box reads a
race: the activity's ``public`` hook (its cars' dashboards, notes, whose turn and what
the box waits for), or by default the standings and the words of the OLED's view. It
never reads a pack's state itself, and a pack's hook leaves out everything hidden (a
hand's cards, a deck's order).

The payload's keys (every one JSON):
    finished   bool: the race is over
    laps       str: "Lap 3 of 5", the phase
    lap        int: the leader's lap (the lap chart samples the order by it); 0: none
    axis       str: what ``lap`` counts, the lap chart's x-axis in the game's own word,
               singular ("lap", "round", "track card"); "lap" by default
    turn       str: whose turn it is ("" when nobody's)
    waiting    str: what the box waits for
    cars       [kit.dashboard.car ...]: each with its dashboard's widgets and, for the
               timing tower, its "row" (up to 3 short numbers) and its "state"
    notes      [str ...]: facts of the moment (the gear advisor's odds, the weather)
    screen     [str ...]: the OLED view's words (the default for a pack without a hook)
    standings  [{"position", "name", "points", ...}]
    order_note str: what orders the standings when it is not the points ("" when it is)
"""

from __future__ import annotations

from typing import Any

from companion.games.api import Activity
from companion.kit.dashboard import waiting

KEYS = ("finished", "laps", "lap", "axis", "turn", "waiting", "cars", "notes", "screen", "standings",
        "order_note")


def public_view(activity: Activity, state: Any) -> dict[str, Any]:
    """The public view of ``state`` (see the module's keys)."""
    finished = bool(activity.finished(state))
    out: dict[str, Any] = {"finished": finished, "laps": "", "lap": 0, "axis": "lap", "turn": "",
                           "waiting": "", "cars": [], "notes": [], "screen": [],
                           "standings": [dict(r) for r in activity.standings(state)], "order_note": ""}
    if activity.public is not None:
        out.update({k: v for k, v in activity.public(state).items() if k in KEYS})
    else:
        out.update(_from_view(activity, state))
    if finished:
        out["turn"], out["waiting"] = "", "The race is over"
    return out


def _from_view(activity: Activity, state: Any) -> dict[str, Any]:
    """The default: the OLED view's title, status and lines, and the primary move."""
    view = activity.view(state)
    lines = [w for widget in view.body for w in _words(widget)]
    turn, waits = waiting(activity.moves(state))
    return {"laps": view.status, "screen": [view.title, *lines], "turn": turn, "waiting": waits}


def _words(widget: Any) -> list[str]:
    if hasattr(widget, "items"):
        return [str(x) for x in widget.items]
    if hasattr(widget, "left"):
        return [f"{widget.left}  {widget.right}".strip()]
    if hasattr(widget, "maximum"):
        return [f"{widget.label} {widget.value}/{widget.maximum}"]
    if hasattr(widget, "caption"):
        return [x for x in (widget.text, widget.caption) if x]
    return [str(getattr(widget, "text", ""))]
