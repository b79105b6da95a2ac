"""The tactic deck on the device (2.2 and appendix A): hands, play order, effects."""

import random

from companion.games.three_wide import rules, screens, track
from companion.kit.update import evolve
from tests.games.three_wide.helpers import Scripted, card_index, perform, started, with_car


def dealt(state, hands):
    """Deal ``hands`` (card indices per player): they leave the pile."""
    given = {i for h in hands for i in h}
    state = rules.apply(state, {"kind": "deal", "cards": hands, "pile": [i for i in state.pile if i not in given],
                                "discard": []})
    return state


def test_the_first_deal_fills_hands_to_five_then_one_a_turn(data):
    state = started(3, racing=False)
    state, event = perform(state, "deal", random.Random(1))
    assert [len(h) for h in event["cards"]] == [5, 5, 5]
    assert [len(h) for h in state.hands] == [5, 5, 5] and len(state.pile) == 63 - 15
    state = evolve(state, phase=rules.DEAL)
    state, event = perform(state, "deal", random.Random(1))
    assert [len(h) for h in state.hands] == [6, 6, 6]


def test_a_hand_is_hidden_until_its_player_presses(data):
    state = dealt(started(3, racing=False), [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14]])
    hidden = screens.view(state)
    names = {rules.card(state, i).name for i in state.hands[0]}
    assert not any(n in str(hidden) for n in names)
    assert [m.kind for m in rules.moves(state)] == ["show", "tactics-done"]
    state, _ = perform(state, "show")
    shown = screens.view(state)
    assert all(any(n in item for item in shown.body[0].items) for n in names)


def _play(state, plays):
    """Each player in turn shows the hand and plays ``plays[p]`` ((card, car) pairs)."""
    for p in range(len(state.players)):
        state, _ = perform(state, "show")
        for i, c in plays.get(p, ()):
            state, _ = perform(state, "play", card=i, car=c)
        state, _ = perform(state, "tactics-done")
    return state


def test_tactics_resolve_lowest_number_first(data):
    state = started(3, racing=False)
    move_two = card_index(state, name="Move Two")
    push = card_index(state, name="Push")
    block = card_index(state, name="Block")
    state = dealt(state, [[move_two], [push], [block]])
    state = _play(state, {0: [(move_two, 0)], 1: [(push, 4)], 2: [(block, 8)]})
    assert [rules.card(state, i).number for i, _ in state.played] == [5, 10, 21]
    assert state.phase == rules.TACTIC


def test_move_two_moves_two_less_damage(data):
    state = started(3, racing=False)
    move_two = card_index(state, name="Move Two")
    state = dealt(state, [[move_two], [], []])
    state = with_car(state, 0, damage=1)
    state = _play(state, {0: [(move_two, 0)]})
    state, _ = perform(state, "resolve")
    assert state.phase == rules.PLACE and state.mover == 0 and state.want == 1
    state, _ = perform(state, "land", space=state.proposal)
    assert state.cars[0].face_up            # a tactic move does not flip the lap marker
    assert state.phase == rules.ROLL        # on to the racing phase


def test_push_moves_the_front_car_then_the_pusher_who_gets_an_engine_marker(data):
    state = started(3, racing=False)
    push = card_index(state, name="Push")
    state = dealt(state, [[push], [], []])
    # car 0 at 34 (row 11, inside); car 5 directly in front at 31 (row 10, inside)
    state = with_car(state, 0, space=34)
    state = with_car(state, 5, space=31)
    state = _play(state, {0: [(push, 0)]})
    state, _ = perform(state, "resolve")
    assert state.cars[0].markers == ("Engine",)
    n = rules.card(state, push).move
    assert state.mover == 5 and state.proposal == track.space_at(10 - n, 0)
    state, _ = perform(state, "land", space=state.proposal)
    assert state.mover == 0 and state.want == n
    state, _ = perform(state, "land", space=track.space_at(11 - n, 0))
    assert state.cars[0].space == track.space_at(11 - n, 0) and state.phase == rules.ROLL


def test_block_discards_the_unresolved_tactic_behind_and_bumps_that_car(data):
    state = started(3, racing=False)
    block = card_index(state, name="Block")
    move_one = card_index(state, name="Move One")
    state = with_car(state, 0, space=31)
    state = with_car(state, 4, space=34)           # directly behind car 0
    state = dealt(state, [[block], [move_one], []])
    state = _play(state, {0: [(block, 0)], 1: [(move_one, 4)]})
    state, _ = perform(state, "resolve")
    assert state.played == ((block, 0),)
    assert state.cars[4].markers == ("Bump",)
    assert state.phase == rules.ROLL


def test_block_when_the_car_behind_played_nothing_bumps_the_blocker(data):
    state = started(3, racing=False)
    block = card_index(state, name="Block")
    state = with_car(state, 0, space=31)
    state = with_car(state, 4, space=34)           # behind, with no tactic
    state = dealt(state, [[block], [], []])
    state = _play(state, {0: [(block, 0)]})
    state, _ = perform(state, "resolve")
    assert state.cars[0].markers == ("Bump",)


def test_slingshot_moves_two_when_the_car_in_front_moves(data):
    state = started(3, racing=False)
    sling = card_index(state, name="Slingshot")
    state = with_car(state, 0, space=34)
    state = with_car(state, 4, space=31)           # directly in front of car 0
    state = dealt(state, [[sling], [], []])
    state = _play(state, {0: [(sling, 0)]})
    state, _ = perform(state, "resolve")
    assert state.slings == ((0, 4),)
    assert "Sling" in str(screens.dashboard(state, 0))
    # racing: car 4 rolls and moves on its own: car 0 follows two spaces
    state = evolve(state, rollers=(4,), k=0, mover=4, phase=rules.ROLL, rolled=True)
    state, _ = perform(state, "roll", Scripted(choices=["5x", "6xx", "7xx", "8xxx"]))
    state, _ = perform(state, "die", die=0)
    state, _ = perform(state, "land", space=state.proposal)
    assert state.slings == () and state.mover == 0 and state.want == 2
    state, _ = perform(state, "land", space=state.proposal)
    assert state.cars[0].space == track.space_at(9, 0)


def test_a_yellow_flag_removes_slingshot_markers(data):
    state = evolve(started(3), phase=rules.CHECK, slings=((0, 4),))
    state = with_car(state, 0, markers=("Incident",), damage=2)
    trigger = card_index(state, trigger=())
    state = rules.apply(state, {"kind": "check", "cards": [trigger, card_index(state, flag="yellow")],
                                "pile": [], "discard": []})
    state, _ = perform(state, "wreck")
    assert state.yellow and state.slings == ()


def test_debris_caution_brings_the_yellow_at_the_incident_check(data):
    state = started(3, racing=False)
    debris = card_index(state, name="Debris Caution")
    state = dealt(state, [[debris], [], []])
    state = _play(state, {0: [(debris, 0)]})
    state, _ = perform(state, "resolve")
    assert state.debris
    while state.phase != rules.CHECK:
        state, _ = perform(state, {rules.ROLL: "roll", rules.CHOOSE: "die", rules.PLACE: "land"}[state.phase],
                           **({"die": rules.moves(state)[0].arg("die")} if state.phase == rules.CHOOSE else
                              {"space": state.proposal} if state.phase == rules.PLACE else {}))
    state = rules.apply(state, {"kind": "check", "cards": [card_index(state, trigger=())], "pile": [], "discard": []})
    assert state.yellow and state.phase == rules.CAUTION


def test_move_now_rolls_in_the_tactics_phase_and_flips_the_marker(data):
    state = started(3, racing=False)
    now = card_index(state, name="Move Now")
    state = dealt(state, [[now], [], []])
    state = _play(state, {0: [(now, 0)]})
    state, _ = perform(state, "resolve")
    assert state.phase == rules.ROLL and state.mover == 0 and state.stage == "tactics"
    state, _ = perform(state, "roll", Scripted(choices=["5x", "6xx", "7xx", "8xxx"]))
    state, _ = perform(state, "die", die=0)
    state, _ = perform(state, "land", space=state.proposal)
    assert not state.cars[0].face_up
    # the racing phase: car 0 has moved, so the four rollers are the next four
    assert state.phase == rules.ROLL and 0 not in state.rollers and len(state.rollers) == 4


def test_a_new_hand_replaces_the_whole_hand(data):
    state = dealt(started(3, racing=False), [[0, 1, 2], [], []])
    state, _ = perform(state, "show")
    state, event = perform(state, "redraw", random.Random(4))
    assert len(state.hands[0]) == 5 and not set(state.hands[0]) & {0, 1, 2}
    assert {0, 1, 2} <= set(state.discard)
    assert all(m.kind != "redraw" for m in rules.moves(state))


def test_every_turn_deals_one_card_each_with_no_limit_on_a_hand(data):
    state = started(6, racing=False)
    for _ in range(6):
        state = evolve(state, phase=rules.DEAL)
        state, _ = perform(state, "deal", random.Random(2))
    assert [len(h) for h in state.hands] == [10] * 6        # five, then one a turn
    assert len(state.pile) == 63 - 60


def test_a_deck_run_dry_reshuffles_the_discards_and_the_screen_says_so(data):
    state = started(3, racing=False)
    state = evolve(state, phase=rules.DEAL, fill=False, pile=(0, 1), discard=tuple(range(2, 12)))
    state, event = perform(state, "deal", random.Random(3))
    assert event["reshuffled"] and [len(h) for h in state.hands] == [1, 1, 1]
    assert state.hands[0] == (0,) and state.hands[1] == (1,)     # the pile first, then the shuffled discards
    dealt = {i for h in state.hands for i in h}
    assert sorted(dealt | set(state.pile)) == list(range(12)) and state.discard == ()
    hidden = screens.view(state)
    assert "Discards reshuffled" in [w.text for w in hidden.body]
    state, _ = perform(state, "show")
    assert "Discards reshuffled" in screens.view(state).body[0].items


def test_a_deal_with_no_card_anywhere_says_how_many_it_owes(data):
    state = started(3, racing=False)
    state = evolve(state, phase=rules.DEAL, fill=False, pile=(0,), discard=())
    state, event = perform(state, "deal", random.Random(3))
    assert [len(h) for h in state.hands] == [1, 0, 0] and "reshuffled" not in event
    assert "Deck empty: 2 short" in [w.text for w in screens.view(state).body]


def test_an_incident_check_with_no_card_left_forgives_every_marker(data):
    state = evolve(started(3), phase=rules.CHECK, pile=(), discard=())
    state = with_car(state, 0, markers=("Incident",))
    state, event = perform(state, "check", random.Random(1))
    assert event["cards"] == [] and state.cars[0].markers == () and state.phase == rules.LEADER


def test_a_tactic_is_offered_only_when_its_requirement_holds(data):
    state = started(3, racing=False)
    push = card_index(state, name="Push")
    block = card_index(state, name="Block")
    state = dealt(state, [[push, block], [], []])
    state, _ = perform(state, "show")
    state = with_car(state, 0, space=34)
    state = with_car(state, 5, space=31)           # in front of car 0, nobody behind it
    offered = {(m.arg("card"), m.arg("car")) for m in rules.moves(state) if m.kind == "play"}
    assert (push, 0) in offered and (block, 0) not in offered
    assert (block, 5) not in offered               # not a Red car


def _bump_and_run_ready(state, front_space=31, behind_space=34):
    """Red's car 0 behind Blue's car 5 (same lane, one row apart), Bump and Run in Red's hand."""
    bump = card_index(state, name="Bump and Run")
    state = with_car(state, 0, space=behind_space)
    state = with_car(state, 5, space=front_space)
    return dealt(state, [[bump], [], []]), bump


def test_bump_and_run_moves_the_front_car_one_space_ahead_and_to_the_outside(data):
    state, bump = _bump_and_run_ready(started(3, racing=False))     # 31: row 10, inside lane
    state = _play(state, {0: [(bump, 0)]})
    state, _ = perform(state, "resolve")
    assert state.mover == 5 and state.want == 1
    assert state.proposal == track.space_at(9, 1)                  # row 9, middle lane: 29
    state, _ = perform(state, "land", space=29)
    assert state.mover == 0 and state.want == rules.card(state, bump).move
    state, _ = perform(state, "land", space=state.proposal)
    assert state.cars[5].space == 29 and state.cars[0].space == 31
    assert state.cars[5].markers == ("Bump",) and state.cars[0].markers == ()


def test_bump_and_run_is_not_offered_when_the_front_car_cannot_go_to_the_outside(data):
    # the car in front is in the outside lane already (33: row 10, outside)
    state, bump = _bump_and_run_ready(started(3, racing=False), front_space=33, behind_space=36)
    state, _ = perform(state, "show")
    assert not [m for m in rules.moves(state) if m.kind == "play" and m.arg("card") == bump]
    # the space ahead and to the outside (29) is taken
    state, bump = _bump_and_run_ready(started(3, racing=False))
    state = with_car(state, 6, space=29)
    state, _ = perform(state, "show")
    assert not [m for m in rules.moves(state) if m.kind == "play" and m.arg("card") == bump]


def test_bump_and_run_that_is_not_possible_goes_back_to_the_hand(data):
    state, bump = _bump_and_run_ready(started(3, racing=False))
    state = _play(state, {0: [(bump, 0)]})
    state = with_car(state, 6, space=29)          # by now the space to the outside is taken
    assert [m.kind for m in rules.moves(state) if m.kind in ("resolve", "skip")] == ["skip"]
    state, _ = perform(state, "skip")
    assert bump in state.hands[0] and bump not in state.discard
    assert (state.cars[5].space, state.cars[0].space) == (31, 34) and state.cars[5].markers == ()
    assert "BumpRun: to hand" in " ".join(screens.news_lines(state))


def test_a_trigger_card_from_a_reshuffled_deck_is_said_on_screen(data):
    state = evolve(started(3), phase=rules.CHECK, pile=(), discard=(0, 1, 2))
    state, event = perform(state, "check", random.Random(1))
    assert event["reshuffled"] and state.phase == rules.LEADER
    assert "Discards reshuffled" in [w.text for w in screens.view(state).body]


def test_a_car_that_does_not_move_gets_no_three_wide_marker(data):
    """On the full starting grid every row is three wide: a tactic that leaves its car
    where it stood gives no 3-wide marker (a 3-wide marker follows a move)."""
    state = started(3, racing=False)
    move_two = card_index(state, name="Move Two")
    state = dealt(state, [[move_two], [], []])
    state = with_car(state, 0, damage=2)                 # Move Two less two damage: nowhere
    stood = state.cars[0].space
    state = _play(state, {0: [(move_two, 0)]})
    state, _ = perform(state, "resolve")
    if state.phase == rules.PLACE:
        state, _ = perform(state, "land", space=stood)
    assert state.cars[0].space == stood
    assert not {"3-Str", "3-Crn"} & set(state.cars[0].markers)


def test_a_car_that_moves_into_a_full_row_gets_the_three_wide_marker(data):
    state = started(3, racing=False)
    move_one = card_index(state, name="Move One")
    state = dealt(state, [[move_one], [], []])
    # car 0 alone in row 11; row 10 full but for the inside lane
    state = with_car(state, 0, space=track.space_at(11, 0))
    for c, lane in ((4, 1), (5, 2)):
        state = with_car(state, c, space=track.space_at(10, lane))
    for c in (1, 2, 3):
        state = with_car(state, c, space=track.space_at(2 + c, 0))
    state = _play(state, {0: [(move_one, 0)]})
    state, _ = perform(state, "resolve")
    state, _ = perform(state, "land", space=track.space_at(10, 0))
    assert "3-Str" in state.cars[0].markers or "3-Crn" in state.cars[0].markers
