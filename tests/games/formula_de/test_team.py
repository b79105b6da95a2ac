"""The team race: teams of two, a shared repair allowance of 4 WP, points by team."""

import pytest

from companion.games.formula_de import rules as R
from companion.games.formula_de import tables as T
from companion.kit.errors import RuleError

from .helpers import Dice, adjust, data, gear, on_turn, put, started


def test_teams_of_two_share_4_repair_wp():
    state = started(4, team=True)
    assert [c.team for c in state.cars] == [0, 0, 1, 1] and state.team_repair == (T.TEAM_REPAIR,) * 2
    entry = state.settings.circuit.pit
    worn = {"tires": 1, "brakes": 1, "gearbox": 1, "body": 1}
    for c in (0, 1):
        state = put(state, c, dist=entry - 5 - 20 * c, wp=worn, gear=4)
    s = adjust(gear(on_turn(state, 0), 0, 4, 9), "pit", value="tech")
    move = next(m for m in R.moves(s) if m.kind == "done")
    after = R.apply(s, R.resolve(s, move, Dice(3)))
    assert after.team_repair == (T.TEAM_REPAIR - T.TECH_REPAIR, T.TEAM_REPAIR)
    assert sum(after.cars[0].wp[1:]) - sum(state.cars[0].wp[1:]) == T.TECH_REPAIR


def test_team_points_add_up_the_cars_points():
    state = started(4, team=True)
    state = R.evolve(state, finish=(2, 0, 3, 1), phase=R.OVER,
                     cars=tuple(R.evolve(c, place=[2, 4, 1, 3][i]) for i, c in enumerate(state.cars)))
    teams = R.team_standings(state)
    points = state.settings.points
    assert teams[0]["name"] == "Team 2" and teams[0]["points"] == points[0] + points[2]
    assert teams[1]["points"] == points[1] + points[3]
    assert R.summary(state)["teams"] == teams


def test_team_race_needs_an_even_field():
    with pytest.raises(RuleError):
        R.setup({"players": 3, "team": True}, data())
