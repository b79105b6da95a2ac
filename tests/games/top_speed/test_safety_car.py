"""The Safety Car automaton: deployment, one card a round, the counter, withdrawal."""

from companion.games.top_speed import rules as R
from companion.games.top_speed import screens as S
from companion.ui.view import Row
from tests.games.top_speed.helpers import act, draws, finish_round, kinds, new_race, next_round, stacked_start

RED, BLUE, YELLOW = 0, 1, 2


def deployed():
    """Round 1: Red and Blue each draw a Safety Car card; Yellow draws 2 2 2 and gets away."""
    state = stacked_start(new_race(3), grid=[RED, BLUE, YELLOW],
                          tops={RED: ["Safety Car", "2"], BLUE: ["Safety Car", "1"], YELLOW: ["2", "2", "2", "2"]})
    state = act(act(act(state, "draw"), "draw"), "draw")     # Red SC, Blue SC, Yellow 2
    assert S.view(state).body[0] == Row("Safety Car comes out", "")     # two on the table, in words
    state = act(act(act(state, "draw"), "draw"), "draw")     # Red 2, Blue 1, Yellow 2
    state = act(act(state, "pass"), "pass")                  # Red 2 points, Blue 1 point
    state = draws(state, 1)                                  # Yellow 2 2 2
    return act(state, "pass")


def test_two_safety_car_cards_bring_it_out_after_the_movement_phase():
    state = deployed()
    kinds_ = [s.kind for s in state.steps]
    assert kinds_.index(R.SC_OUT) > max(i for i, k in enumerate(kinds_) if k == R.MOVE)
    assert state.sc == 3 and state.sc_periods == 1                 # on space n = 3 players
    out = next(s for s in state.steps if s.kind == R.SC_OUT)
    assert S.step_text(state, out) == ("SAFETY CAR OUT", "3", "counter on space 3")
    distances = sorted((c.distance for c in state.cars), reverse=True)
    assert distances == [distances[0], distances[0] - 1, distances[0] - 2]   # closed up in a row
    closes = [(s.car, s.amount) for s in state.steps if s.kind == R.CLOSE]
    assert closes and all(n > 0 for _, n in closes)


def test_under_the_safety_car_each_player_draws_exactly_one_card_and_nobody_moves():
    state = next_round(deployed())
    before = [c.distance for c in state.cars]
    assert "pass" not in kinds(state) and set(kinds(state)) >= {"draw", "pit"}
    for _ in range(3):
        state = act(state, "draw")
    assert state.phase == R.STEPS                               # one card each, round over
    assert [c.distance for c in state.cars] == before
    greens = 3                                                  # the stacked decks now hold greens
    assert state.sc == max(0, 3 - greens)


def test_safety_car_stays_until_enough_green_cards_are_drawn():
    state = stacked_start(new_race(3), grid=[RED, BLUE, YELLOW],
                          tops={RED: ["Safety Car", "2", "Off Track", "1"],
                                BLUE: ["Safety Car", "2", "Tire Trouble", "2"],
                                YELLOW: ["2", "2", "Yellow Flag", "1"]})
    state = act(act(act(state, "draw"), "draw"), "draw")     # SC, SC, 2
    state = act(act(act(state, "draw"), "draw"), "draw")     # 2, 2, 2
    state = act(act(act(state, "pass"), "pass"), "pass")
    assert state.sc == 3
    order = next_round(state).order
    state = next_round(state)
    for _ in range(3):                                       # Off Track, Tire Trouble, Yellow Flag
        state = act(state, "draw")
    assert state.sc == 3                                     # no green card: counter stays
    assert state.steps[-1].kind == R.SC_COUNT
    assert S.step_text(state, state.steps[-1]) == ("Safety Car stays", "3", "0 green: counter 3")
    state = next_round(state)
    assert state.order == order
    for _ in range(3):                                       # 1, 2, 1: three green cards
        state = act(state, "draw")
    assert state.sc == 0
    assert state.steps[-1].kind == R.SC_IN
    assert S.step_text(state, state.steps[-1])[0] == "SAFETY CAR IN"
    state = next_round(state)
    for _ in range(3):                                       # racing again: one card each is not all
        state = act(state, "draw")
    assert state.phase == R.DRAW and state.turn == state.order[0] and "pass" in kinds(state)


def test_pit_stop_under_the_safety_car_then_the_cars_close_up_again():
    state = stacked_start(new_race(3), grid=[RED, BLUE, YELLOW],
                          tops={RED: ["Safety Car", "2"], BLUE: ["Safety Car", "2", "1"], YELLOW: ["2", "2", "1"]})
    state = act(act(act(state, "draw"), "draw"), "draw")
    state = act(act(act(state, "draw"), "draw"), "draw")
    state = next_round(act(act(act(state, "pass"), "pass"), "pass"))
    assert state.sc == 3
    leader = state.turn
    state = act(state, "pit")                                # the leader pits under the Safety Car
    state = act(act(state, "draw"), "draw")
    pit = next(s for s in state.steps if s.kind == R.PIT_BACK)
    assert pit.car == leader and pit.amount <= -8
    distances = sorted((c.distance for c in state.cars), reverse=True)
    assert distances == [distances[0], distances[0] - 1, distances[0] - 2]
    assert R.circuit.race_order([c.distance for c in state.cars])[-1] == leader
    assert state.sc == 1                                     # two green cards drawn


def test_safety_car_is_not_called_again_while_it_is_out():
    state = stacked_start(new_race(2), grid=[RED, BLUE],
                          tops={RED: ["Safety Car", "1", "Safety Car"], BLUE: ["Safety Car", "1", "Safety Car"]})
    state = act(act(act(state, "draw"), "draw"), "draw")
    state = act(act(act(state, "draw"), "pass"), "pass")
    assert state.sc == 2 and state.sc_periods == 1
    state = next_round(state)
    state = act(act(state, "draw"), "draw")                  # two more Safety Car cards
    assert state.sc_periods == 1 and state.sc == 2
    assert finish_round(state).phase == R.ROUND_END
