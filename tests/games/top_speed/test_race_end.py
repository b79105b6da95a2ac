"""Laps Remaining: down each round, down when the leader crosses the line, the finish."""

from companion.kit.update import evolve
from companion.games.top_speed import rules as R
from companion.games.top_speed import screens as S
from tests.games.top_speed.helpers import act, finish_round, new_race, next_round, stacked_start

RED, BLUE = 0, 1
SPACES = 16


def red_round(state, cards: int):
    """Red (leading) draws ``cards`` cards, Blue draws one card and passes."""
    state = act(act(state, "draw"), "draw")              # Red, Blue
    if cards == 1:
        return act(act(state, "pass"), "pass")
    state = act(act(state, "draw"), "pass")              # Red, Blue passes
    for _ in range(cards - 2):
        state = act(state, "draw")
    return act(state, "pass")


def racing(laps: int, red_cards: list[str]):
    return stacked_start(new_race(2, spaces=SPACES, laps=laps), grid=[RED, BLUE], tops={RED: red_cards})


def test_laps_remaining_reach_zero_at_the_start_of_a_round():
    state = racing(3, [])
    assert state.laps_left == 2
    state = next_round(red_round(state, 1))
    assert state.laps_left == 1
    state = next_round(red_round(state, 1))
    assert state.laps_left == 0
    assert state.phase == R.STEPS and state.steps[0].kind == R.FLAG
    assert not R.finished(state)
    state = finish_round(state)
    assert state.phase == R.OVER and R.finished(state)
    assert R.moves(state) == []
    rows = R.standings(state)
    assert [(r["position"], r["name"], r["points"]) for r in rows] == [(1, "Red", 25), (2, "Blue", 18)]
    assert sum(r["laps_led"] for r in rows) == 3


def test_leader_crossing_the_line_takes_a_lap_off():
    state = racing(10, ["2"] * 9)
    state = next_round(red_round(state, 4))              # Red 0 -> 8
    assert state.laps_left == 8
    state = red_round(state, 5)                           # Red 8 -> 18: over the line
    lap = next(s for s in state.steps if s.kind == R.LAP)
    assert (lap.car, lap.amount) == (RED, 7) and state.laps_left == 7
    assert state.lines == 1
    assert S.step_text(state, lap) == ("RED crosses line", "7", "laps to go")
    assert state.cars[RED].led == 3                       # two round starts and the crossing


def test_laps_remaining_reach_zero_when_the_leader_crosses_and_the_race_stops_there():
    state = racing(3, ["2"] * 9)
    state = next_round(red_round(state, 4))              # laps 2 -> 1 at the round start
    assert state.laps_left == 1
    blue = state.cars[BLUE].distance
    state = red_round(state, 5)                           # Red crosses: 0 laps remaining
    assert state.laps_left == 0
    assert [s.kind for s in state.steps][:3] == [R.MOVE, R.LAP, R.FLAG]
    assert state.cars[BLUE].distance == blue             # the race is over before Blue moves
    state = finish_round(state)
    assert R.finished(state)
    assert R.standings(state)[0]["name"] == "Red"


def test_crossing_backwards_gives_no_lap_back_and_recrossing_takes_none_twice():
    state = racing(20, ["2"] * 9 + ["Drive Through"] + ["2"] * 4)
    state = next_round(red_round(state, 4))              # 0 -> 8
    state = red_round(state, 5)                           # 8 -> 18: lap off
    assert state.laps_left == 17
    state = next_round(state)
    state = red_round(state, 1)                           # Drive Through: 18 -> 12, back over the line
    assert state.cars[RED].distance == 12
    assert state.laps_left == 16                          # only the round start
    state = next_round(state)
    state = red_round(state, 4)                           # 12 -> 20, over the line again
    assert state.cars[RED].distance == 20
    assert state.laps_left == 15 and all(s.kind != R.LAP for s in state.steps)


def test_lapped_car_is_shown_laps_down():
    state = racing(30, ["2"] * 8)
    state = evolve(state, cars=(evolve(state.cars[RED], distance=30),) + state.cars[1:])
    rows = R.race_standings(state)
    assert [(r["name"], r["laps_down"]) for r in rows] == [("Red", 0), ("Blue", 1)]
    assert S.order_rows(state, (RED, BLUE))[0].right == "2 Blue -1L"


def test_fastest_lap_bonus_moves_every_car_forward_at_the_end():
    state = stacked_start(new_race(2, spaces=SPACES, laps=3, fastest_lap=True), grid=[RED, BLUE],
                          tops={RED: ["1"], BLUE: ["2", "2", "2"]})
    state = act(act(act(state, "draw"), "draw"), "pass")          # Red 1, Blue 2, Red passes
    state = act(act(act(state, "draw"), "draw"), "pass")          # Blue 2, 2: 6 spaces, -1 -> 5
    assert [c.best for c in state.cars] == [1, 6]
    assert state.fastest == (BLUE, 6, 1)
    state = next_round(state)
    state = act(act(act(act(state, "draw"), "draw"), "pass"), "pass")   # 1 each: Blue 6, Red 2
    state = next_round(state)                                     # laps remaining 0
    bonus = [(s.car, s.amount) for s in state.steps if s.kind == R.BONUS]
    assert bonus == [(BLUE, 6), (RED, 1)]
    assert [c.distance for c in state.cars] == [3, 12]
    state = finish_round(state)
    rows = R.standings(state)
    assert [r["name"] for r in rows] == ["Blue", "Red"]
    assert rows[0]["fastest_lap"] and rows[0]["best"] == 6


def test_without_the_advanced_rule_there_is_no_bonus():
    state = next_round(red_round(racing(2, []), 1))
    assert state.phase == R.STEPS and [s.kind for s in state.steps] == [R.FLAG]
