"""The contract every activity follows: a game pack or a toolkit tool.

An activity is one typed object, :class:`Activity`, that declares every hook: the
required ones (setup, moves, resolve, apply, finished, standings, view, receipts, demo)
and the optional ones with their defaults (per-car questions, summary, describe,
championship entries, pause items). A pack builds it in its ``pack.py``; the registry
(``companion.games.registry``) loads it by slug. Nothing is found by probing a module.

The rules are pure:

    setup(options, data) -> State      # ``options``: the wizard's answers (see Option,
        # CarOption); ``data``: the game's data.toml with the owner's overrides.
        # Pure: no randomness here; a first move ("start") shuffles or draws.
    moves(state) -> list[Move]         # exactly what may be done now, by whom
    resolve(state, move, rng) -> dict  # the ONLY place randomness (or the clock) enters;
        # a JSON-serialisable event with a "kind" key recording every outcome
    apply(state, event) -> State       # pure; no I/O, no clock, no rng
    finished(state) -> bool
    standings(state) -> list[dict]     # [{"position", "name", "points", ...}] (kit.standings)

The screens turn a state into words and pictures:

    view(state) -> View                # what the 128x64 screen shows now
    receipts(state) -> dict[str, Receipt]   # "program" prints when it first exists,
        # "results" when the race is over
    public(state) -> dict              # optional: the table screen's public dashboard
        # (companion.table.public): never a hand's cards or a deck's order
    describe(event) -> str             # optional: the event's outcome for the history;
        # the line is history_line(move, outcome): "Black: 5th gear, 15 spaces"
    public_words(before, event, after) -> str | None   # optional: the history's words for
        # an event that holds a face-down choice or its reveal; None: history_line's

States are frozen dataclasses; events are plain dicts so the journal stores them as JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from companion.core.names import names_word
from companion.kit.questions import DESCRIBE, EDIT, TURN_TIMER, Asking, CarOption, Describe, Group, Option  # noqa: F401  (the setup questions a pack declares)


@dataclass(frozen=True)
class Move:
    """Something a player may do now. ``label`` is what the footer shows (``kit.text.label``
    fits it to the display profile) and, unless ``history`` says it in other words, what
    the history says was done.

    ``primary`` marks the move the big GO button performs (roll, draw). ``args`` holds
    the move's parameters as a tuple of (key, value) pairs so a Move stays hashable.
    ``history``: the move in the history's words when the footer has no room for them or
    names a button (footer ``DRIVE``, history ``5th gear``); see :func:`history_line`.
    ``confirm`` is a question the screen asks before the move is made (ending a race
    early: one press too many must not end it); empty: made at once.
    """

    kind: str
    label: str
    player: str | None = None
    args: tuple[tuple[str, Any], ...] = ()
    primary: bool = False
    history: str = ""
    confirm: str = ""

    def arg(self, key: str, default: Any = None) -> Any:
        for k, v in self.args:
            if k == key:
                return v
        return default

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "label": self.label, "player": self.player,
                "args": [list(a) for a in self.args], "primary": self.primary, "history": self.history,
                "confirm": self.confirm}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Move":
        return cls(kind=d["kind"], label=d["label"], player=d.get("player"),
                   args=tuple((k, _freeze(v)) for k, v in d.get("args", ())),
                   primary=bool(d.get("primary", False)), history=str(d.get("history") or ""),
                   confirm=str(d.get("confirm") or ""))


def make_move(kind: str, label: str, *, player: str | None = None, primary: bool = False,
              history: str = "", confirm: str = "", **args: Any) -> Move:
    """A Move with keyword args: ``make_move("roll", "Roll gear 5", die="gear-5", primary=True)``."""
    return Move(kind, label, player, tuple(sorted((k, _freeze(v)) for k, v in args.items())), primary, history,
                confirm)


def history_line(move: Move, outcome: str = "") -> str:
    """The history's line for ``move`` done with ``outcome`` (the activity's ``describe`` of
    its event): who, what, and the outcome, in one grammar.

    ``Black: 5th gear, 15 spaces`` -- the player, a colon, what they did (``move.history``,
    else the label), and the outcome after a comma; the player is not said again when what
    they did names them (``Red crossed``). A move nobody in particular makes has no player:
    what was done, a colon, the outcome (``Trigger card: 1 card``). An outcome that only
    repeats what was done is left out."""
    what = move.history or move.label
    who = move.player if move.player and not names_word(what, move.player) else None
    if outcome.strip().casefold() == what.strip().casefold():
        outcome = ""
    if who:
        return f"{who}: {what}" + (f", {outcome}" if outcome else "")
    return what + (f": {outcome}" if outcome else "")


def _freeze(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    return v


def event_json(event: Mapping[str, Any]) -> str:
    """The canonical JSON text of an event (sorted keys, no spaces)."""
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Demo:
    """How ``companion demo`` plays the activity through the whole stack."""

    options: Mapping[str, Any]                 # the wizard's answers
    script: Callable[[Any], "Move | None"]     # the move the table makes now; None: over
    seed: int = 1


PAUSE_ITEMS = ("continue", "history", "undo", "program", "grid", "end", "home")
"""What a pause menu may offer, in this order: ``grid`` shows what the companion decided
(the activity's ``decisions`` view)."""


def _no_summary(state: Any) -> dict[str, Any]:
    return {}


def _no_check(data: Mapping[str, Any]) -> None:
    return None


def _no_description(event: Mapping[str, Any]) -> str:
    return ""


def _standings_of(results: Mapping[str, Any]) -> list[dict[str, Any]]:
    return list(results["standings"])


@dataclass(frozen=True)
class Activity:
    """One game pack or tool, every hook declared.

    Required: the rules (``setup`` .. ``standings``), the screens (``view``,
    ``receipts``) and a ``demo``. Optional, with the default said beside each.
    """

    slug: str
    kind: str                                            # "game" or "tool"
    options: tuple[Option, ...]
    setup: Callable[[Mapping[str, Any], Mapping[str, Any]], Any]
    moves: Callable[[Any], list[Move]]
    resolve: Callable[[Any, Move, Any], dict[str, Any]]
    apply: Callable[[Any, Mapping[str, Any]], Any]
    finished: Callable[[Any], bool]
    standings: Callable[[Any], list[dict[str, Any]]]
    view: Callable[[Any], Any]
    receipts: Callable[[Any], Mapping[str, Any]]
    demo: Demo
    car_options: tuple[CarOption, ...] = ()             # per-car questions: none
    summary: Callable[[Any], Mapping[str, Any]] = _no_summary   # extra results.json fields
    check_data: Callable[[Mapping[str, Any]], None] = _no_check   # the pack's own tables
    # (circuits, decks, charts) checked: raises kit.errors.DataError naming the key path
    describe: Callable[[Mapping[str, Any]], str] = _no_description  # an event's outcome
    # in a few words for the history ("5xs 7xx", "15 spaces"), never words the move's
    # label or ``history`` already says: the history line is ``history_line(move, outcome)``
    championship_entries: Callable[[Mapping[str, Any]], list[dict[str, Any]]] = _standings_of
    # a finished race's results as championship rows (Street Illegal's Old Pros: one team);
    # rows of a season played in the session carry ``season`` (core.scoring.session_races)
    decisions: Callable[[Any], Any] | None = None        # a View of what the companion
    # decided (grid, track, cards), shown from the pause menu; None: nothing to show
    session: str = "race"                                # what a session is called
    key: tuple[str, ...] | Callable[[Any], tuple[str, ...]] = ()   # the codes its screens
    # show, in words, a line each (``DT = Drive Through``): pause menu > Key (docs/ui.md,
    # Glossary); a function of the state when they depend on the session (kit.keys.key_of)
    championship_of: str = "cars"                        # what championship_entries'
    # rows are: "cars", or "players" (3-Wide: a player wins, by their cars' points)
    pause: tuple[str, ...] = PAUSE_ITEMS                  # the pause menu's items
    public: Callable[[Any], Mapping[str, Any]] | None = None   # the table screen's
    # public view of a state: {"cars": [{"name", "colour", "widgets": [...]}], "notes",
    # "turn", "waiting", "laps"} (companion/table/public.py says each key); nothing
    # hidden (a hand's cards, a deck's order) may be in it. None: the standings and the
    # OLED view's words
    chart: Callable[[Any], Mapping[str, Any]] | None = None   # the lap chart's part of
    # ``public``'s view alone: its "lap", and its "order" and "race_no" where it gives them,
    # the same values, for a pack whose whole view costs more to make (the table screen
    # samples the chart after every event: companion/table/source.py chart_point). None:
    # ``public``'s own view is read
    secret: Callable[[Any], bool] | None = None          # a face-down choice is being
    # made (tactics picked in turn, cards played face down before the reveal); an activity
    # that has one gives ``public_words`` too
    public_words: Callable[[Any, Mapping[str, Any], Any], str | None] | None = None
    # the table screen's words for an event, given the state before it and the state
    # after it (companion/table/public.py): a face-down choice in words ("Ann: a card
    # face down"), the reveal with what it revealed ("Ann played 10, Bob played 7");
    # "" when the table lists nothing for it (a step of a face-down entry); None when the
    # history's own words (the move and its outcome) hide nothing. None (no hook): every
    # history entry is public. Required where ``secret`` is set
    data: str = "own"                                    # whose data.toml it is set up
    # with: "own" (a game), "game-option" (the game chosen in its "game" option), "none"

    def __post_init__(self) -> None:
        if self.kind not in ("game", "tool"):
            raise TypeError(f"activity {self.slug}: kind must be 'game' or 'tool', not {self.kind!r}")
        if self.data not in ("own", "game-option", "none"):
            raise TypeError(f"activity {self.slug}: data must be 'own', 'game-option' or 'none'")
        unknown = [p for p in self.pause if p not in PAUSE_ITEMS]
        if unknown:
            raise TypeError(f"activity {self.slug}: unknown pause items {unknown}")
        for name in ("setup", "moves", "resolve", "apply", "finished", "standings", "view",
                     "receipts", "summary", "check_data", "describe", "championship_entries"):
            if not callable(getattr(self, name)):
                raise TypeError(f"activity {self.slug}: {name} must be callable")
        if self.secret is not None and self.public_words is None:
            raise TypeError(f"activity {self.slug}: a face-down choice (secret) needs public_words, "
                            "the table screen's words for it")
