"""Dice roller: roll the dice of any game (and plain dN), one die or a set at once.

A move per die and per dice set (3-Wide's four tire dice; the plain dice also have
2d6). A set whose dice may differ (tires wear from black to red) also has a move per
die of the set, "Die 1 > Green", that changes it to the next die of its ``swap`` list,
and "Reset to BBBB" once any has changed. GO rolls whatever was rolled last.

Events: {"kind": "roll", "die", "faces": [f]}, {"kind": "roll-set", "set", "dice",
"faces"}, {"kind": "swap", "set", "slot", "die"}, {"kind": "reset", "set", "dice"}.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.core import gamedata

from companion.games import data as game_data
from companion.core.dice import Die, lookup, roll
from companion.core.rng import Rng
from companion.games.api import Move, Option, make_move
from companion.kit.events import dispatch
from companion.kit.text import label as fit

HISTORY = 20
ANY_DICE = ("d6", "d20", "d4", "d8", "d10", "d12", "d100")
ANY_SETS = (("2d6", "2d6", ("d6", "d6")), ("3d6", "3d6", ("d6", "d6", "d6")))
EXTRA_DICE = ("d6", "d20")
"""Plain dice every game's roller offers too, unless the game has a die with the same faces."""

OPTIONS = (
    Option("game", "Dice of", choices=((gamedata.ANY, "Plain dice d4-d100"), *game_data.game_choices()),
           default=gamedata.ANY),
)


@dataclass(frozen=True)
class DiceSet:
    id: str
    label: str
    dice: tuple[str, ...]
    swap: tuple[str, ...] = ()
    start: tuple[str, ...] = ()      # the dice it starts with (what "Reset" brings back)


@dataclass(frozen=True)
class Roll:
    key: str                 # "die:<id>" or "set:<id>": what was rolled
    caption: str             # what the screen says was rolled
    faces: tuple[Any, ...]


@dataclass(frozen=True)
class State:
    game: str
    name: str
    dice: tuple[Die, ...]
    sets: tuple[DiceSet, ...] = ()
    last: str | None = None          # key of the last roll: GO rolls it again
    history: tuple[Roll, ...] = ()   # the last HISTORY rolls, oldest first
    count: int = 0                   # rolls so far
    changed: tuple[str, int] | None = None   # (set id, slot) changed since the last roll

    def die(self, die_id: str) -> Die:
        return lookup({d.id: d for d in self.dice}, die_id, self.name)

    def dice_set(self, set_id: str) -> DiceSet:
        for s in self.sets:
            if s.id == set_id:
                return s
        raise ValueError(f"unknown dice set '{set_id}'")


def setup(options: dict, data: dict) -> State:
    game = options.get("game", gamedata.ANY)
    dice = gamedata.dice_of(data)
    extra = ANY_DICE if game == gamedata.ANY else EXTRA_DICE
    faces = {d.faces for d in dice.values()}
    for die_id in extra:
        plain = lookup({}, die_id)
        if die_id not in dice and plain.faces not in faces:   # Formula Dé's black die is its d20
            dice[die_id] = plain
    sets = [DiceSet(i, s["label"], tuple(s["dice"]), tuple(s["swap"]), tuple(s["dice"]))
            for i, s in gamedata.dice_sets_of(data).items()]
    if game == gamedata.ANY:
        sets += [DiceSet(i, label, ids, start=ids) for i, label, ids in ANY_SETS]
    return State(game, gamedata.game_name(data, game), tuple(dice.values()), tuple(sets))


def moves(state: State) -> list[Move]:
    """The game's sets (with their swaps) first, then each die; the plain sets after d6."""
    game_sets = [s for s in state.sets if s.swap or state.game != gamedata.ANY]
    out: list[Move] = []
    for s in game_sets:
        out.append(make_move("roll-set", fit(s.label), set=s.id))
        out.extend(_change_moves(state, s))
    for d in state.dice:
        out.append(make_move("roll", fit(d.label), die=d.id))
        if d.id == "d6":
            out.extend(make_move("roll-set", fit(s.label), set=s.id) for s in state.sets if s not in game_sets)
    rolls = [i for i, m in enumerate(out) if _key(m) is not None]
    primary = next((i for i in rolls if _key(out[i]) == state.last), rolls[0])
    out[primary] = replace(out[primary], primary=True)
    return out


def _change_moves(state: State, s: DiceSet) -> list[Move]:
    """"Die 2 > Green": change one die of the set to the next of its swap list; and
    "Reset to BBBB" once any die differs from the start."""
    if not s.swap:
        return []
    out = [make_move("swap", fit(f"Die {slot + 1} > {state.die(_next(s, slot)).label}"), set=s.id, slot=slot,
                     history=f"{s.label}: die {slot + 1} to {state.die(_next(s, slot)).label}")
           for slot in range(len(s.dice))]
    if s.dice != s.start:
        start = _initials(state, s.start)
        out.append(make_move("reset", fit(f"Reset to {start}"), set=s.id, history=f"{s.label}: reset to {start}"))
    return out


def _next(s: DiceSet, slot: int) -> str:
    current = s.swap.index(s.dice[slot]) if s.dice[slot] in s.swap else -1
    return s.swap[(current + 1) % len(s.swap)]


def _initials(state: State, dice: tuple[str, ...]) -> str:
    return "".join(state.die(d).label[:1].upper() for d in dice)


def _key(move: Move) -> str | None:
    if move.kind == "roll":
        return f"die:{move.arg('die')}"
    if move.kind == "roll-set":
        return f"set:{move.arg('set')}"
    return None


def resolve(state: State, move: Move, rng: Rng) -> dict:
    if move.kind == "roll":
        return {"kind": "roll", "die": move.arg("die"), "faces": [roll(state.die(move.arg("die")), rng)]}
    if move.kind == "roll-set":
        s = state.dice_set(move.arg("set"))
        return {"kind": "roll-set", "set": s.id, "dice": list(s.dice),
                "faces": [roll(state.die(d), rng) for d in s.dice]}
    if move.kind == "swap":
        s = state.dice_set(move.arg("set"))
        return {"kind": "swap", "set": s.id, "slot": move.arg("slot"), "die": _next(s, move.arg("slot"))}
    if move.kind == "reset":
        s = state.dice_set(move.arg("set"))
        return {"kind": "reset", "set": s.id, "dice": list(s.start)}
    raise ValueError(f"the dice roller has no move '{move.kind}'")


def apply(state: State, event: dict) -> State:
    return dispatch(_HANDLERS, state, event, "dice roller")


def _apply_roll(state: State, event: dict) -> State:
    die = state.die(event["die"])
    return _rolled(state, f"die:{die.id}", die.label, [die], event["faces"])


def _apply_roll_set(state: State, event: dict) -> State:
    s = state.dice_set(event["set"])
    dice = [state.die(d) for d in event["dice"]]
    return _rolled(state, f"set:{s.id}", _set_caption(state, s, tuple(event["dice"])), dice, event["faces"])


def _apply_swap(state: State, event: dict) -> State:
    s = state.dice_set(event["set"])
    slot, die = event["slot"], state.die(event["die"]).id
    if not isinstance(slot, int) or not 0 <= slot < len(s.dice):
        raise ValueError(f"dice set '{s.id}' has no die {slot}")
    return _set_dice(state, s, s.dice[:slot] + (die,) + s.dice[slot + 1:], slot)


def _apply_reset(state: State, event: dict) -> State:
    s = state.dice_set(event["set"])
    dice = tuple(state.die(d).id for d in event["dice"])
    if len(dice) != len(s.dice):
        raise ValueError(f"dice set '{s.id}' has {len(s.dice)} dice, not {len(dice)}")
    return _set_dice(state, s, dice, -1)


_HANDLERS = {"roll": _apply_roll, "roll-set": _apply_roll_set, "swap": _apply_swap, "reset": _apply_reset}


def _set_dice(state: State, s: DiceSet, dice: tuple[str, ...], slot: int) -> State:
    changed = replace(s, dice=dice)
    return replace(state, sets=tuple(changed if x.id == s.id else x for x in state.sets), changed=(s.id, slot))


def _rolled(state: State, key: str, caption: str, dice: list[Die], faces: list) -> State:
    if len(faces) != len(dice) or any(f not in d.faces for d, f in zip(dice, faces)):
        raise ValueError(f"recorded faces {faces!r} are not faces of {caption}")
    history = (*state.history, Roll(key, caption, tuple(faces)))[-HISTORY:]
    return replace(state, last=key, history=history, count=state.count + 1, changed=None)


def _set_caption(state: State, s: DiceSet, dice: tuple[str, ...]) -> str:
    """The set's label, plus the initials of its dice when they can differ ("Tire dice BBGY")."""
    return f"{s.label} {_initials(state, dice)}" if s.swap else s.label


def finished(state: State) -> bool:
    return False


def standings(state: State) -> list[dict]:
    return []


def summary(state: State) -> dict:
    return {"rolls": state.count, "last": [list(r.faces) for r in state.history]}


def describe(event: dict) -> str:
    """The outcome for the history list: the faces rolled (a swap's label says it all)."""
    if event.get("kind") in ("roll", "roll-set"):
        return " ".join(str(f) for f in event.get("faces", ()))
    return ""
