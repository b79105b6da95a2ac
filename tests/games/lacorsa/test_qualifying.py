"""Qualifying (rulebook steps 5-10): one card, or two with an R; highest in front, lowest at
the back; ties settled by the tie die, rolled on the device, in qualifying only."""

import pytest

from companion.kit.errors import RuleError
from companion.games.lacorsa import rules as R, screens as S

from tests.games.lacorsa.helpers import Dice, deal, new, play, qualify, step


def test_highest_card_in_front_lowest_at_the_back():
    state = qualify(deal(new(4)), {0: ["5"], 1: ["Champion 12"], 2: ["Extend 1"], 3: ["9"]})
    assert state.grid == (1, 3, 0, 2)
    assert state.actor == 2                       # the last car starts the race
    assert state.ahead(2) == 0
    assert [state.space[c] for c in state.grid] == [3, 2, 1, 0]


def test_a_redline_adds_two_in_qualifying():
    state = qualify(deal(new(4)), {0: ["R", "9"], 1: ["10"], 2: ["4"], 3: ["5"]})
    assert state.grid[0] == 0                     # R + 9 = 11 beats 10


def test_played_qualifying_cards_are_gone_from_the_hand():
    state = qualify(deal(new(4)), {0: ["R", "9"], 1: ["10"], 2: ["4"], 3: ["5"]})
    assert state.left == (11, 12, 12, 12)
    assert state.played[0] == ("R", "9")


def test_ties_roll_the_tie_die_highest_roll_in_front():
    state = deal(new(4))
    for car, card in ((0, "7"), (1, "7"), (2, "10"), (3, "4")):
        state = play(state, car, card)
    assert state.step == R.GRID and R.ties(state) == [[0, 1]]
    move = R.moves(state)[0]
    assert move.label == "Roll tie die"
    event = R.resolve(state, move, Dice(2, 5))    # car 0 rolls 2, car 1 rolls 5
    assert event == {"kind": "grid", "rolls": [[0, [2]], [1, [5]]]}
    state = step(state, event)
    assert state.grid == (2, 1, 0, 3)
    assert state.step == R.START
    items = S.view(state).body[0].items                   # the grid to set up, rolls beside
    assert [i.split() for i in items] == [["1", "Yellow", "10"], ["2", "Blue", "7", "tie", "5"], ["3", "Red", "7", "tie", "2"],
                                          ["4", "Green", "4"], ["Green", "starts", "lap", "1"]]
    state = step(state, {"kind": "start"})
    assert (state.step, state.lap, state.actor) == (R.RACE, 1, 3)


def test_a_tied_roll_is_rolled_again():
    state = deal(new(4))
    for car, card in ((0, "7"), (1, "7"), (2, "7"), (3, "4")):
        state = play(state, car, card)
    event = R.resolve(state, R.moves(state)[0], Dice(3, 3, 1, 6, 2))
    # 3, 3, 1: cars 0 and 1 tie again and roll 6 and 2
    assert event["rolls"] == [[0, [3, 6]], [1, [3, 2]], [2, [1]]]
    state = step(state, event)
    assert state.grid == (0, 1, 2, 3)


def test_a_grid_that_leaves_a_tie_is_refused():
    state = deal(new(4))
    for car, card in ((0, "7"), (1, "7"), (2, "10"), (3, "4")):
        state = play(state, car, card)
    with pytest.raises(RuleError):
        R.apply(state, {"kind": "grid", "rolls": [[0, [4]], [1, [4]]]})
    with pytest.raises(RuleError):
        R.apply(state, {"kind": "grid", "rolls": []})


def test_no_ties_no_die():
    state = deal(new(4))
    for car, card in ((0, "7"), (1, "8"), (2, "10"), (3, "4")):
        state = play(state, car, card)
    assert R.moves(state)[0].label == "Set grid"
    assert R.resolve(state, R.moves(state)[0], Dice()) == {"kind": "grid", "rolls": []}


def test_automated_cars_choose_first_face_down():
    state = deal(new(4, autos={1: "steady", 2: "racer"}))
    move = R.moves(state)[0]
    assert move.label == "Auto cards"
    event = R.resolve(state, move, Dice())
    assert [p[0] for p in event["plays"]] == [1, 2]
    state = step(state, event)
    assert R.waiting(state) == (0, 3)
    for car, cards in event["plays"]:
        assert state.left[car] == 13 - len(cards)
        assert all(c in R.knowledge(state, car).settings.suit_counts(1) for c in cards)


def test_a_human_cannot_enter_a_card_the_table_deck_lacks():
    state = deal(new(4, autos={1: "steady", 2: "steady", 3: "steady"}))   # one human suit
    state = step(state, R.resolve(state, R.moves(state)[0], Dice()))
    state = play(state, 0, "9")
    assert state.step == R.GRID
    assert R.human_pool(state)["9"] == 0


def test_a_tie_rolled_twice_reads_in_words_and_fits():
    """"7 d1/6" was a code: the grid says "tie" and each roll, whole on the screen."""
    from companion.kit.text import row
    from companion.profile import MENU_CHARS
    line = row("2 Blue", "7 tie 1,6", MENU_CHARS)
    assert line.endswith("7 tie 1,6") and len(line) <= MENU_CHARS and "d1" not in line
