"""Scripted players for the demo race: the table's humans as the demo plays them.

The humans drive like the automated Racer (the same written policy, automaton.py) but
report through the buttons as a table would: the gear, then what happened (braking,
a pit stop) and OK. One human in three drives flat out (it takes one gear more than
the policy when it may: the demo needs an elimination or two). Every human with half
its tires gone pits when it reaches the pit lane, fitting rain tires in rain, and the
first human to reach the pit lane pits while nobody has (every demo shows a pit stop).
"""

from __future__ import annotations

from companion.games.api import Move
from companion.games.formula_de import automaton
from companion.games.formula_de import rules as R
from companion.games.formula_de import tables as T
from companion.kit.turns import play_out

DEMO_OPTIONS = {
    "players": 6, "laps": 2, "weather": "rain", "team": False,
    "cars": [{"driver": "human"}, {"driver": "auto", "level": 2}, {"driver": "human"}, {"driver": "human"},
             {"driver": "auto", "level": 1}, {"driver": "human"}],
}
"""Six cars, two automated, in the rain: hard and soft tires slide in the corners."""
DEMO_TIRES = {0: T.RAIN, 2: T.HARD, 3: T.RAIN, 5: T.SOFT}
"""The tires the humans fit on the grid screen once the rain is known (the automated cars fit rain tires)."""
DEMO_SEED = 1


def demo_script(state: R.State) -> Move | None:
    options = R.moves(state)
    if not options:
        return None
    primary = next((m for m in options if m.primary), options[0])
    if state.phase == R.GRID:
        return next((m for m in options if m.kind == "tires" and m.arg("car") in DEMO_TIRES   # others keep theirs
                     and state.cars[m.arg("car")].tires != DEMO_TIRES[m.arg("car")]), primary)
    if state.phase == R.GEAR and primary.kind == "gear":
        c = state.car_on
        gear, _ = automaton.choose_gear(state, c)
        if c % 3 == 2:
            gear += 1
        gears = {m.arg("gear"): m for m in options if m.kind == "gear"}
        return gears.get(gear) or gears.get(gear - 1) or primary
    if state.phase == R.REPORT:
        c = state.car_on
        want = automaton.report(state, c)
        r = state.report
        for m in options:
            if m.kind != "adjust":
                continue
            what = m.arg("what")
            if what == "brake" and r.brake < want.brake:
                return m
            if what == "pit" and want.pit and m.arg("value") == want.pit:
                return m
            if what == "pit" and m.arg("value") == T.RAIN and not any(car.pits for car in state.cars):
                return m
        return primary
    return primary


def play(state: R.State, rng, script=demo_script, limit: int = 20_000) -> tuple[R.State, list[dict]]:
    """Play on to the end with ``script`` choosing every move, through the pure rules;
    returns the final state and the events."""
    return play_out(state, rng, script, R.resolve, R.apply, limit)
