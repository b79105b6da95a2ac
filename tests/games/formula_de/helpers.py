"""Races set up by hand for the Formula Dé tests, through the real rules (resolve + apply)."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

from companion.games.formula_de import rules as R
from companion.kit.update import evolve, replace_at

DATA_FILE = Path(R.__file__).with_name("data.toml")
with DATA_FILE.open("rb") as _f:
    BUILT_IN = tomllib.load(_f)


def data(**tables) -> dict:
    """The built-in data with whole top-level tables replaced."""
    out = copy.deepcopy(BUILT_IN)
    out.update(tables)
    return out


class Dice:
    """An rng whose rolls are told in advance: each value is found on the die rolled
    (``faces[randrange(n)]``), so ``Dice(20, 1)`` rolls a 20 then a 1 on any die that
    has those faces."""

    def __init__(self, *values: int, faces=None):
        self.values = list(values)
        self.faces = faces

    def randrange(self, n: int) -> int:
        value = self.values.pop(0)
        faces = self.faces or list(range(1, 21))
        if n != len(faces):
            # a gear die: look the value up on the real faces of that die
            for die in R.build({}, BUILT_IN).faces:
                if len(die) == n and value in die:
                    return die.index(value)
        return faces.index(value)


def started(players: int = 4, *, weather: int = 15, starts=None, **options) -> R.State:
    """A race after the start and the grid screen: pole = car 0, then 1, 2, ...
    (``weather``: the chart roll; 15-20 good on the built-in chart)."""
    state = R.setup({"players": players, **options}, data())
    grid = [[20 - i] for i in range(players)]
    state = R.apply(state, {"kind": "start", "weather": weather, "grid": grid,
                            "starts": list(starts or [10] * players)})
    return R.apply(state, {"kind": "ok"})


def put(state: R.State, c: int, **fields) -> R.State:
    """Car ``c`` changed (``wp`` may be a dict of zones to set)."""
    car = state.cars[c]
    if isinstance(fields.get("wp"), dict):
        from companion.games.formula_de.tables import ZONES
        fields["wp"] = tuple(fields["wp"].get(z, v) for z, v in zip(ZONES, car.wp))
    return evolve(state, cars=replace_at(state.cars, c, evolve(car, **fields)))


def on_turn(state: R.State, c: int) -> R.State:
    """Car ``c`` to pick its gear now (the others after it)."""
    order = (c,) + tuple(i for i in range(len(state.cars)) if i != c)
    return evolve(state, order=order, turn=0, phase=R.GEAR, report=None)


def gear(state: R.State, c: int, g: int, roll: int) -> R.State:
    return R.apply(state, {"kind": "gear", "car": c, "gear": g, "roll": roll})


def adjust(state: R.State, what: str, times: int = 1, value=None) -> R.State:
    for _ in range(times):
        event = {"kind": "adjust", "car": state.car_on, "what": what}
        if value is not None:
            event["value"] = value
        state = R.apply(state, event)
    return state


def done(state: R.State, **rolls) -> R.State:
    return R.apply(state, {"kind": "done", "car": state.car_on, "rolls": rolls})


def corner(n: int):
    return R.build({}, BUILT_IN).circuit.corners[n - 1]
