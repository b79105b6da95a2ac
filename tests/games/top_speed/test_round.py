"""The draw phase and the movement phase, from the rulebook, with stacked decks."""

import pytest

from companion.kit.update import evolve
from companion.core.rng import make_rng
from companion.games.top_speed import rules as R
from companion.games.top_speed import screens as S
from companion.ui.view import Row
from tests.games.top_speed.helpers import act, draws, kinds, new_race, next_round, stacked_start

RED, BLUE, YELLOW = 0, 1, 2


def test_round_starts_by_taking_a_lap_off_and_the_leader_draws_first():
    state = stacked_start(new_race(3), grid=[BLUE, RED, YELLOW])
    assert state.laps_left == 65
    assert state.order == (BLUE, RED, YELLOW)
    assert state.turn == BLUE
    assert [c.distance for c in state.cars] == [-1, 0, -2]     # the grid behind the line


def test_pass_only_after_a_card_and_pit_only_before_one():
    state = stacked_start(new_race(2), grid=[RED, BLUE], tops={RED: ["2"]})
    assert "pass" not in kinds(state) and "pit" in kinds(state) and "draw" in kinds(state)
    state = act(act(state, "draw"), "draw")          # Red, then Blue
    assert state.turn == RED
    assert "pass" in kinds(state) and "pit" not in kinds(state)


def test_turns_follow_race_order_one_card_each():
    state = stacked_start(new_race(3), grid=[YELLOW, RED, BLUE])
    seen = []
    for _ in range(6):
        seen.append(state.turn)
        state = act(state, "draw")
    assert seen == [YELLOW, RED, BLUE, YELLOW, RED, BLUE]


def test_a_second_identical_trouble_card_ends_the_round_with_no_movement():
    state = stacked_start(new_race(2), grid=[RED, BLUE],
                          tops={RED: ["Tire Trouble", "2", "Tire Trouble"], BLUE: ["2", "2"]})
    state = act(state, "draw")                   # Red: Tire Trouble
    state = act(state, "draw")                   # Blue: 2
    state = act(state, "draw")                   # Red: 2
    state = act(state, "draw")                   # Blue: 2
    assert R.bust_chance(state.cars[RED]) == pytest.approx(5 / 70)
    state = act(state, "draw")                   # Red: Tire Trouble again: bust
    assert state.cars[RED].status == R.BUST
    assert state.turn == BLUE                    # Red cannot draw any more
    state = act(state, "pass")
    assert state.phase == R.STEPS
    assert [(s.kind, s.car, s.amount) for s in state.steps] == [(R.MOVE, BLUE, 4)]
    red = state.cars[RED]
    assert red.distance == 0                      # no movement
    assert [c.name for c in red.damage] == ["Tire Trouble"]      # a pair: one to the damage row
    assert sorted(c.name for c in red.pile.discard) == ["2", "Tire Trouble"]


def test_a_pair_of_other_trouble_cards_leaves_no_damage():
    state = stacked_start(new_race(2), grid=[RED, BLUE], tops={RED: ["Off Track", "Off Track"]})
    state = act(act(act(state, "draw"), "draw"), "draw")       # Red, Blue, Red: bust
    assert state.cars[RED].status == R.BUST
    state = act(state, "pass")
    assert state.cars[RED].damage == ()


def test_movement_is_green_points_minus_damage_and_the_screen_says_how_far():
    state = stacked_start(new_race(2), grid=[RED, BLUE],
                          tops={RED: ["Engine Trouble", "Engine Trouble"], BLUE: ["2", "2", "2", "2"]})
    state = act(act(act(state, "draw"), "draw"), "draw")       # Red busts on the engine pair
    state = draws(state, 3)                                     # Blue alone: 2 2 2 2
    state = act(state, "pass")
    step = state.steps[0]
    assert S.step_text(state, step)[0] == "BLUE: move 8"
    state = next_round(state)
    assert len(state.cars[RED].damage) == 1
    assert state.order == (BLUE, RED)
    state = act(state, "draw")                    # Blue: 1 (the rest of the deck is in data order)
    for _ in range(4):                            # Red: 1 1 1 1 = 4 points, minus one damage card
        state = act(state, "draw")
        if state.turn == BLUE:
            state = act(state, "pass")
    state = act(state, "pass")
    assert [(s.car, s.amount) for s in state.steps if s.kind == R.MOVE] == [(BLUE, 1), (RED, 3)]
    red_step = next(s for s in state.steps if s.car == RED)
    assert S.step_text(state, red_step) == ("RED: move 3", "+3", "4 green -1 damage")


def test_movement_points_never_go_below_zero():
    state = stacked_start(new_race(2), grid=[RED, BLUE],
                          tops={RED: ["Tire Trouble", "Tire Trouble", "Engine Trouble", "Engine Trouble", "1"],
                                BLUE: ["2", "2"]})
    state = act(act(act(state, "draw"), "draw"), "draw")     # Red Tire, Blue 2, Red Tire: bust
    state = next_round(act(state, "pass"))                   # Blue -1 -> 1
    assert state.order == (BLUE, RED)
    state = act(act(state, "draw"), "draw")                  # Blue 2, Red Engine
    state = act(act(state, "pass"), "draw")                  # Red Engine: bust
    state = next_round(state)
    assert len(state.cars[RED].damage) == 2
    state = act(act(state, "draw"), "draw")                  # Blue 1, Red 1: 1 point - 2 damage
    assert R.planned_move(state, state.cars[RED]) == 0
    state = act(act(state, "pass"), "pass")
    assert state.cars[RED].distance == 0
    assert [s.car for s in state.steps] == [BLUE]


def test_landing_on_an_occupied_space_puts_the_car_behind_it():
    state = stacked_start(new_race(2), grid=[RED, BLUE], tops={RED: ["2"], BLUE: ["2", "1"]})
    state = act(state, "draw")            # Red 2
    state = act(state, "draw")            # Blue 2
    state = act(state, "pass")            # Red moves 0 -> 2
    state = act(state, "draw")            # Blue 1: 3 points, from -1 lands on 2: behind Red
    state = act(state, "pass")
    assert [c.distance for c in state.cars] == [2, 1]
    assert [(s.car, s.amount) for s in state.steps] == [(RED, 2), (BLUE, 2)]


def test_two_yellow_flags_forbid_overtaking():
    state = stacked_start(new_race(2), grid=[RED, BLUE],
                          tops={RED: ["Yellow Flag", "1"], BLUE: ["Yellow Flag", "2", "2", "2"]})
    state = act(state, "draw")            # Red YF
    state = act(state, "draw")            # Blue YF
    state = act(state, "draw")            # Red 1
    state = act(state, "draw")            # Blue 2
    state = act(state, "pass")            # Red: 1 point
    state = draws(state, 2)               # Blue: 6 points, would pass Red
    state = act(state, "pass")
    assert state.yellow
    assert [c.distance for c in state.cars] == [1, 0]        # Blue stops behind Red
    assert S.step_text(state, state.steps[1]) == ("BLUE: move 1", "+1", "6 due: yellow flags")


def test_a_car_boxed_in_under_yellow_flags_is_told_it_stays():
    state = stacked_start(new_race(2), grid=[RED, BLUE],
                          tops={RED: ["Yellow Flag", "Off Track", "Off Track"], BLUE: ["Yellow Flag", "2"]})
    state = act(act(act(act(state, "draw"), "draw"), "draw"), "draw")     # YF, YF, OFF, 2
    state = act(state, "draw")                                # Red: Off Track again, out
    state = act(state, "pass")                                # Blue: 2, right behind Red
    assert [(s.kind, s.car, s.amount, s.want) for s in state.steps] == [(R.MOVE, BLUE, 0, 2)]
    assert S.step_text(state, state.steps[0]) == ("BLUE: stays", "0", "2 due: yellow flags")


def test_one_yellow_flag_does_not_stop_overtaking():
    state = stacked_start(new_race(2), grid=[RED, BLUE], tops={RED: ["Yellow Flag", "1"], BLUE: ["2", "2"]})
    state = act(act(act(act(state, "draw"), "draw"), "draw"), "draw")
    state = act(act(state, "pass"), "pass")
    assert not state.yellow
    assert [c.distance for c in state.cars] == [1, 3]
    assert state.order == (RED, BLUE)                 # the round's order; the new one next round
    assert next_round(state).order == (BLUE, RED)


def test_drive_through_moves_the_car_six_back_whatever_its_damage():
    state = stacked_start(new_race(2), grid=[RED, BLUE],
                          tops={RED: ["Tire Trouble", "Tire Trouble", "2", "Drive Through", "2"]})
    state = act(act(act(state, "draw"), "draw"), "draw")       # Red busts: one damage card
    state = next_round(act(state, "pass"))
    state = act(state, "draw")                                  # Red 2 (Red leads)
    state = act(state, "draw")                                  # Blue
    state = act(state, "draw")                                  # Red Drive Through
    state = act(state, "pass")                                  # Blue passes
    state = act(state, "draw")                                  # Red 2
    state = act(state, "pass")
    red_step = next(s for s in state.steps if s.car == RED)
    assert (red_step.kind, red_step.amount) == (R.BACK, -6)
    assert S.step_text(state, red_step)[0] == "RED: back 6"
    assert state.cars[RED].distance == -6


def test_pit_stop_goes_back_8_plus_2_per_engine_trouble_and_reshuffles_every_card():
    state = stacked_start(new_race(2), grid=[RED, BLUE],
                          tops={RED: ["Engine Trouble", "Engine Trouble", "Tire Trouble", "Tire Trouble"]})
    for _ in range(2):                        # two busts: Engine, then Tire, in the damage row
        state = act(act(act(state, "draw"), "draw"), "draw")
        state = next_round(act(state, "pass"))
    red = state.cars[RED]
    assert [c.name for c in red.damage] == ["Engine Trouble", "Tire Trouble"]
    assert len(red.pile.discard) == 2 and red.pile.left == 68
    assert state.turn == RED
    state = act(state, "pit")
    red = state.cars[RED]
    assert red.status == R.PIT and red.pits == 1
    assert red.damage == () and red.pile.discard == () and red.pile.left == 72
    assert state.turn == BLUE
    state = act(act(state, "draw"), "pass")
    assert [(s.kind, s.car, s.amount) for s in state.steps][0] == (R.PIT_BACK, RED, -10)
    assert S.step_text(state, state.steps[0])[0] == "RED: back 10"
    assert state.cars[RED].distance == 0 - 10
    state = next_round(state)
    assert "draw" in kinds(state) or state.turn == BLUE                 # plays normally again


def test_exact_bust_chance_counts_the_cards_left():
    state = stacked_start(new_race(2), grid=[RED, BLUE], tops={RED: ["Tire Trouble", "Off Track"]})
    state = act(act(act(state, "draw"), "draw"), "draw")
    red = state.cars[RED]
    assert [c.name for c in red.row] == ["Tire Trouble", "Off Track"]
    assert R.bust_cards(red) == 5 + 2
    assert R.bust_chance(red) == pytest.approx(7 / 70)


def test_bust_chance_is_always_on_the_turn_screen_and_the_cards_page_closes_on_the_next_action():
    state = stacked_start(new_race(2), grid=[RED, BLUE], tops={RED: ["Tire Trouble"]})
    state = act(act(state, "draw"), "draw")
    assert "show" not in kinds(state)                          # no extra move to see the odds
    assert S.view(state).body[1] == Row("TIRE", "bust 7%")   # 5 Tire Troubles in 71 cards
    state = act(state, "cards")
    assert state.show
    assert S.view(state).body[0] == Row("Deck 71", "Discard 0")
    state = act(state, "draw")
    assert not state.show


def test_deck_running_out_leaves_pass_or_pit():
    state = new_race(2)
    state = stacked_start(state, grid=[RED, BLUE])
    red = state.cars[RED]
    from companion.core.deck import Pile
    state = evolve(state, cars=(evolve(red, pile=Pile(red.pile.draw[:1], red.pile.draw[1:])),) + state.cars[1:])
    state = act(act(state, "draw"), "draw")
    assert state.turn == RED and kinds(state)[:1] == ["pass"] and "draw" not in kinds(state)
    state = next_round(act(act(state, "pass"), "pass"))
    assert state.turn == RED or state.order[0] == RED
    assert "draw" not in kinds(state) and "pit" in kinds(state)


def test_history_lines_name_the_card_drawn():
    state = stacked_start(new_race(2), grid=[RED, BLUE], tops={RED: ["Tire Trouble"]})
    moves = {m.kind: m for m in R.moves(state)}
    assert R.describe(R.resolve(state, moves["draw"], make_rng(0))) == "Tire Trouble"
    assert R.describe(R.resolve(state, moves["pit"], make_rng(0))) == "72 cards shuffled"
    assert R.describe(R.resolve(state, moves["cards"], make_rng(0))) == ""
