"""Dice roller: roll the dice of any game (and plain d6/d20), one die or a set at once.

A move per die and per dice set (3-Wide's four tire dice); a set whose dice may differ
(tires wear from black to red) also has a move per die of the set that changes it to
the next die of its ``swap`` list. GO rolls whatever was rolled last.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.core import gamedata
from companion.core.dice import Die, lookup, roll
from companion.core.rng import Rng
from companion.games.api import Move, Option, make_move

HISTORY = 20
ANY_DICE = ("d6", "d20", "d4", "d8", "d10", "d12", "d100")
EXTRA_DICE = ("d6", "d20")
LABEL = 14

OPTIONS = (
    Option("game", "Dice of", choices=((gamedata.ANY, "Any (d6, d20)"), *gamedata.game_choices()),
           default=gamedata.ANY),
)


@dataclass(frozen=True)
class DiceSet:
    id: str
    label: str
    dice: tuple[str, ...]
    swap: tuple[str, ...] = ()


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
    for die_id in extra:
        dice.setdefault(die_id, lookup({}, die_id))
    sets = tuple(DiceSet(i, s["label"], tuple(s["dice"]), tuple(s["swap"]))
                 for i, s in gamedata.dice_sets_of(data).items())
    return State(game, gamedata.game_name(data, game), tuple(dice.values()), sets)


def moves(state: State) -> list[Move]:
    out: list[Move] = []
    for s in state.sets:
        out.append(make_move("roll-set", s.label[:LABEL], set=s.id))
        if s.swap:
            out.extend(make_move("swap", f"{slot + 1}: {state.die(d).label}"[:LABEL], set=s.id, slot=slot)
                       for slot, d in enumerate(s.dice))
    out.extend(make_move("roll", d.label[:LABEL], die=d.id) for d in state.dice)
    rolls = [i for i, m in enumerate(out) if _key(m) is not None]
    primary = next((i for i in rolls if _key(out[i]) == state.last), rolls[0])
    out[primary] = replace(out[primary], primary=True)
    return out


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
        slot = move.arg("slot")
        current = s.swap.index(s.dice[slot]) if s.dice[slot] in s.swap else -1
        return {"kind": "swap", "set": s.id, "slot": slot, "die": s.swap[(current + 1) % len(s.swap)]}
    raise ValueError(f"the dice roller has no move '{move.kind}'")


def apply(state: State, event: dict) -> State:
    kind = event.get("kind")
    if kind == "roll":
        die = state.die(event["die"])
        return _rolled(state, f"die:{die.id}", die.label, [die], event["faces"])
    if kind == "roll-set":
        s = state.dice_set(event["set"])
        dice = [state.die(d) for d in event["dice"]]
        return _rolled(state, f"set:{s.id}", _set_caption(s, dice), dice, event["faces"])
    if kind == "swap":
        s = state.dice_set(event["set"])
        slot, die = event["slot"], state.die(event["die"]).id
        if not 0 <= slot < len(s.dice):
            raise ValueError(f"dice set '{s.id}' has no die {slot + 1}")
        changed = replace(s, dice=s.dice[:slot] + (die,) + s.dice[slot + 1:])
        return replace(state, sets=tuple(changed if x.id == s.id else x for x in state.sets))
    raise ValueError(f"the dice roller has no event '{kind}'")


def _rolled(state: State, key: str, caption: str, dice: list[Die], faces: list) -> State:
    if len(faces) != len(dice) or any(f not in d.faces for d, f in zip(dice, faces)):
        raise ValueError(f"recorded faces {faces!r} are not faces of {caption}")
    history = (*state.history, Roll(key, caption, tuple(faces)))[-HISTORY:]
    return replace(state, last=key, history=history, count=state.count + 1)


def _set_caption(s: DiceSet, dice: list[Die]) -> str:
    """The set's label, plus the initials of its dice when they can differ ("Tire dice BBGY")."""
    return f"{s.label} {''.join(d.label[:1].upper() for d in dice)}" if s.swap else s.label


def finished(state: State) -> bool:
    return False


def standings(state: State) -> list[dict]:
    return []


def summary(state: State) -> dict:
    return {"rolls": state.count, "last": [list(r.faces) for r in state.history]}


def describe(event: dict) -> str:
    """The outcome for the history list: the faces rolled, or the die swapped in."""
    if event.get("kind") in ("roll", "roll-set"):
        return " ".join(str(f) for f in event.get("faces", ()))
    return str(event.get("die", ""))
