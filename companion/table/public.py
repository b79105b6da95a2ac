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
    turn_cars  [str ...]: the names of the cars whose turn it is, the tower's rows marked
               (by default the car named ``turn``; 3-Wide's turn is a player's, of many cars)
    waiting    str: what the box waits for
    cars       [kit.dashboard.car ...]: each with its dashboard's widgets and, for the
               timing tower, its "row" (up to 3 short numbers) and its "state"
    notes      [str ...]: facts of the moment (the gear advisor's odds, the weather)
    screen     [str ...]: the OLED view's words (the default for a pack without a hook)
    standings  [{"position", "name", "points", "colour"}]: a standings row's other fields
               (Lacorsa's cards left) are left out: they may move with a card entered face down
    order_note str: what orders the standings when it is not the points ("" when it is)
    clock      {"on", "left", "limit", "mode", "warning"}: the turn timer of the driver on turn
               (added by ``table.source``, only while a race's timer times someone;
               ``core.turnclock.Reading.to_json``): the page counts "left" down itself

A pack's ``public`` may also give ``order`` (the race order, names, front first) and
``race_no`` (which race of a championship session): the lap chart's own (source.chart_point),
for a pack whose standings are a championship's; they are not sent.

``history_line`` (below) gives the words of each journal row the page lists: the table
never shows a journal entry's label unless the activity says its history hides nothing.
"""

from __future__ import annotations

import logging
from typing import Any, Mapping

from companion.games.api import Activity
from companion.kit.dashboard import waiting

log = logging.getLogger(__name__)

KEYS = ("finished", "laps", "lap", "axis", "turn", "turn_cars", "waiting", "cars", "notes", "screen", "standings",
        "order_note")


def public_view(activity: Activity, state: Any) -> dict[str, Any]:
    """The public view of ``state`` (see the module's keys)."""
    finished = bool(activity.finished(state))
    out: dict[str, Any] = {"finished": finished, "laps": "", "lap": 0, "axis": "lap", "turn": "",
                           "waiting": "", "cars": [], "notes": [], "screen": [],
                           "standings": [public_standing(r) for r in activity.standings(state)], "order_note": ""}
    if activity.public is not None:
        out.update({k: v for k, v in activity.public(state).items() if k in KEYS})
    else:
        out.update(_from_view(activity, state))
    if "turn_cars" not in out:
        out["turn_cars"] = [c["name"] for c in out["cars"] if out["turn"] and c["name"] == out["turn"]]
    if finished:
        out["turn"], out["waiting"], out["turn_cars"] = "", "The race is over", []
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


# -- what the table says of the journal ---------------------------------------------------

STANDING_KEYS = ("position", "name", "points", "colour")
"""The fields of a standings row the page is sent (the order table and the lap chart's colours)."""

UNREADABLE = "(an entry the journal could not read)"
"""The history's words for a damaged journal row: its label may name what it hid."""
NOT_APPLIED = "(an action that does not fit the race)"
"""The history's words for an event the rules refused."""
UNSAID = "(an action)"
"""The history's words for an event whose public words could not be made."""


def public_standing(row: Mapping[str, Any]) -> dict[str, Any]:
    """A standings row as the page is sent it (:data:`STANDING_KEYS`)."""
    return {k: row[k] for k in STANDING_KEYS if k in row}


ACKNOWLEDGEMENTS = ("Outcome seen", "Result seen")
"""The box's history words of a press that only says "seen" (Formula Dé's Go on after a
turn's outcome, Street Illegal's Next after a result): not an action, so not one of the
table screen's last actions (the box's own history keeps them, to undo them)."""


def history_line(activity: Activity, label: str, before: Any, event: Mapping[str, Any], after: Any) -> str:
    """The table's words for one journal row: the event applied to ``before`` gave
    ``after``; ``label`` is the box's history entry. An activity without face-down
    choices (no ``public_words``) has a history that hides nothing: its label is shown.
    Otherwise the pack says the words of a face-down choice and of its reveal, and ""
    (nothing listed) for a step of a face-down entry."""
    if label in ACKNOWLEDGEMENTS:
        return ""
    if activity.public_words is None:
        return label
    try:
        words = activity.public_words(before, event, after)
    except Exception as exc:   # a pack's words that fail: nothing of the row, never its label
        log.warning("no public words for a %s event: %s", event.get("kind"), exc)
        return UNSAID
    return label if words is None else str(words)


def undo_line(undone: str | None) -> str:
    """The words of an undo: the undone row's own public words (computed from the state
    before it, so an undone face-down choice is never named); nothing when those were
    nothing."""
    if undone is None:
        return "Undo"
    return f"Undo: {undone}" if undone else ""


def no_journal() -> str:
    return "no journal yet: the box has not started (or the table screen reads another --state)"


def cannot_show(slug: str) -> str:
    return f"cannot show this session ({slug}): this companion cannot set it up (is it the box's version?)"


def unreadable(seq: int) -> str:
    return f"journal entry {seq} could not be read and was skipped"


def not_applied(seq: int) -> str:
    return f"journal entry {seq} does not fit the race and was skipped"
