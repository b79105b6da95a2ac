"""The race (rulebook steps 11-24 and notes), with fixed cards. The grid is 0, 1, 2, 3
(car 0 on pole, spaces 3, 2, 1, 0); car 3 starts lap 1 by challenging car 2."""

import pytest

from companion.kit.errors import RuleError
from companion.kit.update import evolve
from companion.games.lacorsa import rules as R

from tests.games.lacorsa.helpers import act, challenge, race


def test_the_last_car_challenges_the_car_directly_ahead():
    state = race()
    assert (state.actor, state.ahead(state.actor), state.lap) == (3, 2, 1)
    state = act(state, 3, "challenge")
    assert (state.stage, state.defender) == (R.PLAY, 2)


def test_ties_go_to_the_car_in_front():
    state = challenge(race(), ["9"], ["9"])
    assert state.order == (0, 1, 2, 3)
    assert state.actor == 2                        # car 3's turn is over: car 2 goes next
    assert state.last[-1].kind == "challenge" and not state.last[-1].won


def test_the_higher_card_wins_and_the_cars_swap():
    state = challenge(race(), ["9"], ["8"])
    assert state.order == (0, 1, 3, 2)
    assert state.space[3] == 1 and state.space[2] == 0
    assert state.actor == 3 and state.stage == R.ACT and state.passes == 1   # challenges again


def test_a_redline_with_a_card_adds_two():
    state = challenge(race(), ["R", "8"], ["9"])   # 10 beats 9
    assert state.order == (0, 1, 3, 2)
    assert state.left[3] == 10                     # 13 - qualifying - two cards


def test_a_redline_alone_is_worth_nothing():
    state = challenge(race(), ["R"], ["Extend 1"])
    assert state.order == (0, 1, 2, 3)


def test_two_redlines_count_nothing_and_are_both_discarded():
    state = challenge(race(players=2), ["R", "R"], ["Extend 1"])   # 2 players: 4 cars, shared table deck
    assert state.order == (0, 1, 2, 3)
    assert state.played[3][-2:] == ("R", "R") and state.left[3] == 10
    assert state.last[-1].value == 0


def test_two_cards_need_a_redline():
    state = act(race(), 3, "challenge")
    with pytest.raises(RuleError):
        R.apply(state, {"kind": "plays", "plays": [[3, ["9", "8"]]]})


def test_a_car_that_passes_two_cars_ends_its_turn():
    state = challenge(race(), ["9"], ["8"])
    state = challenge(state, ["10"], ["4"])
    assert state.order == (0, 3, 1, 2)
    assert state.actor == 0                        # the car directly ahead takes its turn
    assert state.passes == 0


def test_a_car_that_loses_ends_its_turn_and_the_car_ahead_goes_next():
    state = challenge(race(), ["9"], ["8"])        # 3 passes 2
    state = challenge(state, ["4"], ["10"])        # 3 loses to 1
    assert state.order == (0, 1, 3, 2)
    assert state.actor == 1                        # car 2, passed, lost its turn this lap


def test_a_car_with_a_car_directly_ahead_must_challenge_it():
    state = race()
    assert {m.kind for m in R.moves(state)} == {"challenge", "table"}    # no Discard, no Extend
    with pytest.raises(RuleError, match="must challenge"):
        act(state, 3, "discard", "4")
    with pytest.raises(RuleError):
        R.apply(state, {"kind": "discard-menu", "car": 3})
    # the winner goes on challenging the next car directly ahead
    state = challenge(state, ["9"], ["8"])
    assert state.actor == 3 and state.passes == 1 and not state.open_ahead(3)
    assert {m.kind for m in R.moves(state)} == {"challenge", "table"}
    with pytest.raises(RuleError, match="must challenge"):
        act(state, 3, "discard", "4")


def test_an_automated_car_challenges_its_team_mate_directly_ahead():
    state = race(players=2, autos={1: "steady"})   # Blue (automated) runs cars 2 and 3
    assert state.actor == 3 and state.team(3) == (2, 3)
    auto = R.moves(state)[0]
    assert auto.kind == "auto"
    event = R.resolve(state, auto, None)
    assert event["action"] == "challenge"
    state = R.apply(state, event)
    assert (state.stage, state.defender) == (R.PLAY, 2)


def _losing_challenges(state, *cars):
    """Each of ``cars`` in turn challenges the car ahead and loses (4 against 11)."""
    for car in cars:
        assert state.actor == car
        state = challenge(state, ["4"], ["11"])
    return state


def test_after_the_leaders_turn_the_next_lap_starts_at_the_back():
    state = _losing_challenges(race(), 3, 2, 1)
    assert state.actor == 0 and state.ahead(0) is None
    state = act(state, 0, "discard", "6")
    assert (state.lap, state.actor) == (2, 3)


def _gap_ahead_of_car_1():
    """Lap 1: every challenge is lost, the leader extends: an open space opens ahead of car 1."""
    state = _losing_challenges(race(), 3, 2, 1)
    state = act(state, 0, "extend", "Extend 1")
    assert state.space[0] == 4 and state.lap == 2
    return state


def test_pass_then_extend_is_allowed():
    state = _gap_ahead_of_car_1()
    state = challenge(state, ["5"], ["10"])        # car 3 loses to car 2
    state = challenge(state, ["9"], ["8"])         # car 2 passes car 1 into space 2
    assert state.actor == 2 and state.open_ahead(2)
    assert "extend" in {m.kind for m in R.moves(state)}
    state = act(state, 2, "extend", "Extend 2")
    assert state.space[2] == 3
    assert state.actor == 0                        # extending ends the turn


def test_extend_then_pass_is_not():
    state = _gap_ahead_of_car_1()
    state = challenge(state, ["5"], ["10"])        # car 3 loses to car 2
    state = challenge(state, ["5"], ["10"])        # car 2 loses to car 1
    assert state.actor == 1 and state.open_ahead(1)
    assert {"extend", "discard-menu", "challenge"} <= {m.kind for m in R.moves(state)}
    state = act(state, 1, "extend", "Extend 2")
    assert state.actor == 0
    with pytest.raises(RuleError):
        act(state, 1, "challenge")


def test_an_extend_needs_an_open_space_and_an_extend_card():
    state = race()
    assert not state.open_ahead(3)
    assert "extend" not in {m.kind for m in R.moves(state)}
    with pytest.raises(RuleError):
        act(state, 3, "extend", "Extend 1")
    state = _gap_ahead_of_car_1()
    state = challenge(challenge(state, ["5"], ["10"]), ["5"], ["10"])
    with pytest.raises(RuleError):
        act(state, 1, "extend", "9")


def test_the_leader_cannot_extend_with_the_drafting_3():
    state = _losing_challenges(race(), 3, 2, 1)
    assert state.actor == 0
    labels = [m.label for m in R.moves(state) if m.kind == "extend"]
    assert labels == ["Extend 1", "Extend 2"]
    with pytest.raises(RuleError):
        act(state, 0, "extend", "Drafting 3")


def test_a_car_behind_a_gap_may_extend_with_the_drafting_3():
    state = _gap_ahead_of_car_1()
    state = challenge(challenge(state, ["5"], ["10"]), ["5"], ["10"])
    state = act(state, 1, "extend", "Drafting 3")
    assert state.space[1] == 3


def test_a_car_that_does_not_extend_discards_to_end_its_turn():
    state = _losing_challenges(race(), 3, 2, 1)
    kinds = {m.kind for m in R.moves(state)}
    assert kinds == {"extend", "discard-menu", "table"}        # every way on costs a card
    state = R.apply(state, {"kind": "discard-menu", "car": 0})
    entry = R.moves(state)
    assert {m.kind for m in entry} == {"act", "redline", "back"}
    state = act(state, 0, "discard", "R", "Extend 1")         # an R discards two cards
    assert state.left[0] == 9 and (state.lap, state.actor) == (2, 3)


def test_a_car_out_of_cards_mid_turn_passes_play_to_the_car_ahead():
    state = race()
    state = evolve(state, left=(5, 5, 5, 3))
    state = challenge(state, ["9"], ["8"])         # car 3 passes car 2: two cards left
    state = challenge(state, ["R", "4"], ["Extend 1"])
    # its last two cards: R + 4 = 6 passes car 1; out of cards, its turn is over
    assert state.left[3] == 0 and state.final
    assert state.actor == 0 and state.order == (0, 3, 1, 2)


def test_the_final_lap_is_completed_up_to_the_leader():
    state = race()
    state = evolve(state, left=(5, 5, 5, 1))
    state = challenge(state, ["4"], ["10"])        # car 3 plays its last card and loses
    assert state.final and state.left[3] == 0
    assert state.actor == 2 and state.step == R.RACE
    assert [o.kind for o in state.last] == ["challenge", "out"]
    from companion.games.lacorsa import screens
    assert "Final lap: Green out" in [w.text for w in screens.view(state).body]
    state = _losing_challenges(state, 2, 1)
    state = act(state, 0, "discard", "5")
    assert state.step == R.DONE
    assert [r["name"] for r in R.standings(state)] == ["Red", "Blue", "Yellow", "Green"]
    assert [r["points"] for r in R.standings(state)] == [10, 8, 6, 4]


def test_a_car_without_cards_is_passed_over_on_the_final_lap():
    state = race()
    state = evolve(state, left=(5, 0, 5, 5), final=True)
    state = challenge(state, ["4"], ["10"])
    state = challenge(state, ["R"], [])            # worth 0 against no card: the tie to car 1
    assert state.actor == 0                        # car 1 has no cards: play passes on
    assert state.last[-1].kind == "skip"


def test_a_defender_without_cards_plays_nothing():
    state = evolve(race(), left=(5, 5, 0, 5), final=True)
    state = challenge(state, ["Extend 1"], [])
    assert state.order == (0, 1, 3, 2)


def test_the_optional_tie_crash_takes_both_cars_out():
    state = challenge(race(tie_crash=True), ["9"], ["9"])
    assert state.order == (0, 1)
    assert state.crashed == ((2, 3),)
    assert state.actor == 1
    assert R.final_order(state) == (0, 1, 2, 3)


def test_a_crash_that_leaves_one_car_ends_the_race():
    state = race(players=5, tie_crash=True)
    state = challenge(state, ["9"], ["9"])         # cars 4 and 3 crash
    state = challenge(state, ["8"], ["8"])         # cars 2 and 1 crash
    assert state.step == R.DONE
    rows = R.standings(state)
    assert [r["name"] for r in rows] == ["Red", "Blue", "Yellow", "Green", "Black"]
    assert [r["crashed"] for r in rows] == [False, True, True, True, True]


def test_team_orders_a_player_plays_for_both_cars():
    from companion.games.lacorsa import screens
    state = race(players=2)                        # Red has cars 0 and 1, Blue 2 and 3
    assert state.team(3) == (2, 3)
    state = act(state, 3, "challenge")             # Blue's two cars meet
    texts = [w.text for w in screens.view(state).body]
    assert any(t.startswith("Team orders") for t in texts)


def test_with_only_redlines_left_the_highlighted_move_plays_one():
    """GO plays what the footer highlights: with only R left in the humans' cards that
    is the R, not the table of cards left."""
    from companion.kit.turns import primary

    state = race(players=2)
    every = [d.name for d in state.settings.suit if d.name != "R"]
    state = evolve(state, played=tuple(tuple(every) for _ in state.cars))   # both suits spent but R
    challenge = primary(R.moves(state))          # the last car must challenge the car ahead
    assert challenge.kind == "challenge"
    state = R.apply(state, R.resolve(state, challenge, None))
    move = primary(R.moves(state))
    assert move.kind == "plays" and dict(move.args)["cards"] == ("R",)
