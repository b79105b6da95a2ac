"""Scripted 3-Wide team owners for the demo race and the tests.

Each owner plays at most one tactic a turn (a Move card first, else a draft, Push or
Slingshot) and resolves it; plays Quick Fix on a damaged car, Fast Pit Stop under yellow,
Major Repair on two damage or more; takes the die that moves furthest, unless fuel is getting low (then a die
with "s") or the tires are worn (then one with fewer "x"); confirms the landing the
companion proposes; pits under green when fuel is down to two steps, two chips are red
or the car is damaged; under yellow pits when fuel is at half, tires are worn or the car
is damaged; takes a Full Stop on worn tires, an Extra Adjust on damage.
"""

from __future__ import annotations

from companion.games.api import Move
from companion.games.three_wide import dice
from companion.games.three_wide import rules as R
from companion.kit.turns import play_out

DEMO_OPTIONS = {"players": 3, "race": "classic-intermediate", "length": "short"}
DEMO_SEED = 1
"""A seed whose demo race has a caution, pit stops and a restart grid (tests check it)."""


def demo_script(state: R.State) -> Move | None:
    options = R.moves(state)
    if not options:
        return None
    kinds = {m.kind for m in options}
    if state.phase == R.TACTICS and state.show:
        return _tactic_choice(state, options)
    if "die" in kinds:
        return max(options, key=lambda m: _die_value(state, m))
    if state.phase == R.PITS:
        pits = [m for m in options if m.kind == "pit" and _wants_green_stop(state, m.arg("car"))]
        return pits[0] if pits else next(m for m in options if m.primary)
    if state.phase == R.YPIT:
        pits = [m for m in options if m.kind == "pit" and _wants_yellow_stop(state, m.arg("car"))]
        return pits[0] if pits else next(m for m in options if m.kind == "stay")
    if "stop" in kinds:
        car = state.cars[state.car]
        skills = {m.arg("skill"): m for m in options if m.kind == "skill"}
        if car.damage and "quick-fix" in skills:
            return skills["quick-fix"]
        if state.phase == R.YSERVICE and "fast-pit" in skills:
            return skills["fast-pit"]
        major = [m for m in options if m.arg("stop") == R.MAJOR and m.arg("extra") == (car.damage > 2)]
        if car.damage >= 2 and major:
            return major[0]
        worn = sum(car.tires)
        stop = "full" if worn >= 4 or car.damage else "one-side" if worn >= 2 else "splash"
        extra = car.damage > 0
        return next((m for m in options if m.arg("stop") == stop and m.arg("extra") == extra), options[0])
    return next((m for m in options if m.primary), options[0])


PLAYED = ("move", "push", "draft-front", "bump-draft", "slingshot", "draft-behind")


def _tactic_choice(state: R.State, options: list[Move]) -> Move:
    """One tactic a turn at most: a move card first, else a draft, Push or Slingshot."""
    if any(state.cars[c].owner == state.actor for _, c in state.played):
        return next(m for m in options if m.kind == "tactics-done")
    plays = [m for m in options if m.kind == "play" and R.card(state, m.arg("card")).effect in PLAYED]
    if plays:
        return min(plays, key=lambda m: PLAYED.index(R.card(state, m.arg("card")).effect))
    return next(m for m in options if m.kind == "tactics-done")


def _die_value(state: R.State, move: Move) -> float:
    car = state.cars[move.arg("car")]
    i = move.arg("die")
    face = dice.face(state.faces[i])
    go = dice.distance(state.faces, i, car.slowdown)
    low_fuel = car.fuel <= state.settings.tank // 2
    worn = sum(car.tires)
    return go + (2.5 if face.save and low_fuel else 0.5 if face.save else 0) - face.wear * (0.8 if worn >= 6 else 0.3)


def _wants_green_stop(state: R.State, c: int) -> bool:
    car = state.cars[c]
    return car.fuel <= 2 or car.tires.count(3) >= 2 or car.damage >= 2


def _wants_yellow_stop(state: R.State, c: int) -> bool:
    car = state.cars[c]
    return car.fuel <= state.settings.tank // 2 or sum(car.tires) >= 5 or car.damage > 0


def play(state: R.State, rng, script=demo_script, limit: int = 20_000) -> tuple[R.State, list[dict]]:
    """Play on to the end with ``script`` choosing every move, through the pure rules;
    returns the final state and the events."""
    return play_out(state, rng, script, R.resolve, R.apply, limit)


def showcase(state: R.State) -> bool:
    """Whether a finished race showed a caution, a restart and pit stops."""
    return state.cautions > 0 and bool(state.restarts) and sum(c.pits for c in state.cars) > 0
