"""Phase 3 with a stacked Old Pro deck: the rulebook's example and the passing rules."""

from dataclasses import replace

import pytest

from companion.games.street_illegal import rules, screens
from companion.ui.view import Big
from tests.games.street_illegal.helpers import car, names, perform, players, start, track_index


def rulebook_table(data, op_values, limit=90, situation="downhill", **options):
    """The rulebook's example: Alex (youngest) 7th, Bob 6th, Chris 5th, four Old Pros in
    front; the first track card has ``limit``; phases 1 and 2 done as in the example."""
    state = rules.setup({"players": players("Alex", "Bob", "Chris"), "grid": "age", **options}, data)
    state = start(state, [track_index(state, limit, situation)], op_values)
    state, _ = perform(state, "seat", car=car(state, "Alex"))
    state, _ = perform(state, "seat", car=car(state, "Bob"))
    assert names(state, state.order) == ["Old Pro 1", "Old Pro 2", "Old Pro 3", "Old Pro 4", "Chris", "Bob", "Alex"]
    for who in ("Chris", "Bob", "Alex"):                     # phase 1, front to back
        state, _ = perform(state, "drive", player=who)
    assert state.phase == 2
    if limit is None:
        for who in ("Chris", "Bob", "Alex"):
            state, _ = perform(state, "drive", player=who)
    else:
        state, _ = perform(state, "drive", player="Chris", choice=rules.WITHIN)
        state, _ = perform(state, "drive", player="Bob", choice=rules.BRAKE)
        state, _ = perform(state, "drive", player="Alex", choice=rules.PAID)
    assert state.phase == 3
    return state


def speed(cards, chips=0):
    """A player's speed in a duel: the three face-up tempo cards plus 10 per chip paid."""
    assert len(cards) == 3
    return sum(cards) + 10 * chips


def test_rulebook_phase_3_example(data):
    """The rulebook's phase 3 example, number for number, with the Old Pro deck stacked
    30, 60, 10, 20, 50 and a 90 limit."""
    state = rulebook_table(data, op_values=(30, 60, 10, 20, 50))
    assert state.hand[car(state, "Bob")] == 4 and state.brakes[car(state, "Bob")] == 1   # emergency braking

    # Alex (100) attacks Bob (80); neither pays chips: players press who won
    assert (state.duel.attacker, state.duel.defender) == (car(state, "Alex"), car(state, "Bob"))
    assert speed((20, 30, 50)) > speed((40, 30, 10))
    state, _ = perform(state, "winner", car=car(state, "Alex"))
    assert names(state, state.order)[5:] == ["Alex", "Bob"]
    assert screens.view(state).body[0] == Big("Alex passed Bob", caption="Bob out this phase")
    state, _ = perform(state, "stop")                       # Alex does not want to slow down

    # Bob was passed: Chris attacks the Old Pro in front of him, who turns 30 + 60 = 90,
    # the 90 limit: no third card. Chris drives 90 (30 + 30 + 30), pays 1 chip: 100.
    assert (state.duel.attacker, state.duel.defender) == (car(state, "Chris"), car(state, "Old Pro 4"))
    state, _ = perform(state, "old_pro")
    assert [c.get("value") for c in state.duel.op_cards] == [30, 60]
    assert screens.view(state).body[0] == Big("30+60", caption="OP4 90: no 3rd card")
    assert speed((30, 30, 30)) == state.limit
    state, event = perform(state, "speed", speed=speed((30, 30, 30), chips=1))
    assert event["speed"] == 100 and event["third"] is None
    assert state.duel.winner == car(state, "Chris")
    assert names(state, state.order)[3:5] == ["Chris", "Old Pro 4"]

    # Chris replaces a 30 by a 20 (slower by 10, under the limit) and attacks again:
    # the next Old Pro turns 10 + 20 = 30, below 90, so a third card: a 50, 80 in all.
    # Chris at 80 (30 + 20 + 30), no chips: the tie goes to the car in front.
    state, _ = perform(state, "again")
    state, _ = perform(state, "redrive", choice=rules.WITHIN)
    assert state.duel.defender == car(state, "Old Pro 3")
    assert not any(m.kind == "pass_up" for m in rules.moves(state))   # a second pass is not optional now
    state, _ = perform(state, "old_pro")
    assert screens.view(state).body[0] == Big("10+20", caption="OP3 30 + a 3rd card")
    state, event = perform(state, "speed", speed=speed((30, 20, 30)))
    assert [c["value"] for c in event["third"]["cards"]] == [50]
    assert [c.get("value") for c in state.duel.op_cards] == [10, 20, 50]
    assert state.duel.winner == car(state, "Old Pro 3")
    view = screens.view(state)
    assert view.body[0] == Big("10+20+50", caption="OP3 80 v Chris 80")
    assert view.body[1].text == "Tie: front OP3 holds"
    state, _ = perform(state, "stop")

    # Old Pros never pass each other: phase 3 is over, the next track card begins
    assert (state.card, state.phase) == (1, 1)
    assert names(state, state.order) == ["Old Pro 1", "Old Pro 2", "Old Pro 3", "Chris", "Old Pro 4", "Alex", "Bob"]
    won = {state.name(c): state.won[c] for c in range(7) if state.won[c]}
    lost = {state.name(c): state.lost[c] for c in range(7) if state.lost[c]}
    assert won == {"Alex": 1, "Chris": 1, "Old Pro 3": 1}
    assert lost == {"Bob": 1, "Old Pro 4": 1, "Chris": 1}
    assert [c.get("value") for c in state.pile.discard] == [30, 60, 10, 20, 50]
    assert state.pile.left == 85


def third_card(data, first_two, limit, better=False):
    situation = "uphill"
    state = rulebook_table(data, op_values=(*first_two, 40), limit=limit, situation=situation,
                           better_old_pros=better)
    state, _ = perform(state, "winner", car=car(state, "Bob"))      # Bob holds against Alex
    state, _ = perform(state, "stop")
    state, _ = perform(state, "pass_up", player="Bob")              # and stays behind Chris
    state, _ = perform(state, "old_pro")
    state, event = perform(state, "speed", speed=90)
    return event["third"] is not None, state


@pytest.mark.parametrize("first_two,limit,better,expected", [
    ((30, 60), 90, False, False),     # reaches the limit: two cards
    ((30, 50), 90, False, True),      # below the limit: a third card
    ((60, 60), 70, False, False),
    ((10, 10), None, False, True),    # no speed limit: always three
    ((60, 60), None, False, True),
    ((30, 60), 90, True, True),       # Better Old Pros: always three
])
def test_old_pro_third_card(data, first_two, limit, better, expected):
    drawn, state = third_card(data, first_two, limit, better)
    assert drawn is expected
    total = sum(first_two) + (40 if expected else 0)
    chris_passed = 90 > total
    assert (state.duel.winner == car(state, "Chris")) is chris_passed


def test_old_pro_attacks_a_player_and_front_wins_ties(data):
    # Chris is at the front of the players; the Old Pro behind nobody... use a solo game:
    state = rules.setup({"players": players("Solo"), "grid": "age"}, data)
    state = start(state, [track_index(state, 80, "uphill")], (30, 50, 40, 40))
    assert names(state, state.order)[-1] == "Solo"
    state, _ = perform(state, "drive", player="Solo")
    state, _ = perform(state, "drive", player="Solo", choice=rules.WITHIN)
    # Solo (last) attacks Old Pro 6: 30 + 50 = 80 at an 80 limit, Solo shows 80: front holds
    state, _ = perform(state, "old_pro")
    state, _ = perform(state, "speed", speed=80)
    assert state.duel.winner == car(state, "Old Pro 6")
    assert not any(m.kind == "again" for m in rules.moves(state))
    state, _ = perform(state, "stop")
    # Solo lost: out for the phase. Old Pros do not attack each other: next track card.
    assert (state.card, state.phase) == (1, 1)


def test_old_pro_behind_two_players_passes_one(data):
    state = rules.setup({"players": players("Alex", "Bob"), "grid": "age"}, data)
    state = start(state, [track_index(state, 90, "uphill")], (60, 60))
    state, _ = perform(state, "seat", car=car(state, "Bob"))
    op = [car(state, f"Old Pro {k}") for k in range(1, 6)]
    state = replace(state, order=(*op[:4], car(state, "Alex"), car(state, "Bob"), op[4]), grid=())
    for who in ("Alex", "Bob"):
        state, _ = perform(state, "drive", player=who)
    for who in ("Alex", "Bob"):
        state, _ = perform(state, "drive", player=who, choice=rules.WITHIN)
    assert names(state, (state.duel.attacker, state.duel.defender)) == ["Old Pro 5", "Bob"]
    assert [m.kind for m in rules.moves(state)] == ["old_pro"]          # an Old Pro always attacks
    state, _ = perform(state, "old_pro")
    state, _ = perform(state, "speed", speed=90)
    assert names(state, state.order)[4:] == ["Alex", "Old Pro 5", "Bob"]
    assert [m.label for m in rules.moves(state)] == ["Next"]
    state, _ = perform(state, "stop")
    # not a second player: Alex, in front of the Old Pro, takes his turn
    assert names(state, (state.duel.attacker, state.duel.defender)) == ["Alex", "Old Pro 4"]


def test_old_pro_attacks_once(data):
    # Chris passes Old Pro 4 on the first card; on the second, Old Pro 4 (behind Chris)
    # attacks him, passes, and its turn is over.
    state = rulebook_table(data, op_values=(10, 10, 40, 60, 60, 30), limit=70, situation="uphill")
    state, _ = perform(state, "pass_up", player="Alex")      # Alex stays behind Bob
    state, _ = perform(state, "pass_up", player="Bob")       # Bob stays behind Chris
    # Chris attacks OP4: 10 + 10 (+40 below the limit) = 60; Chris at 70 passes
    state, _ = perform(state, "old_pro")
    state, _ = perform(state, "speed", speed=70)
    assert state.duel.winner == car(state, "Chris")
    state, _ = perform(state, "stop")
    # OP3, in front of Chris, attacks nobody (OP2 is an Old Pro): the phase ends
    assert state.phase == 1 and state.card == 1

    # Next card: phases 1-2 for Chris, Bob, Alex, then Alex (7th) attacks Bob, stays
    for who in ("Chris", "Bob", "Alex"):
        state, _ = perform(state, "drive", player=who)
    for who in ("Chris", "Bob", "Alex"):
        state, _ = perform(state, "drive", player=who, choice=rules.WITHIN)
    state, _ = perform(state, "pass_up", player="Alex")
    state, _ = perform(state, "pass_up", player="Bob")
    # OP4 (5th) attacks Bob? No: Bob is 6th behind OP4. OP4 attacks Chris (4th): 60 + 60
    assert names(state, (state.duel.attacker, state.duel.defender)) == ["Old Pro 4", "Chris"]
    state, _ = perform(state, "old_pro")
    state, event = perform(state, "speed", speed=100)
    assert event["third"] is None and state.duel.winner == car(state, "Old Pro 4")
    assert [m.label for m in rules.moves(state)] == ["Next"]   # an Old Pro attacks once
    state, _ = perform(state, "stop")
    assert state.phase == 1 and state.card == 2
    assert names(state, state.order)[3:] == ["Old Pro 4", "Chris", "Bob", "Alex"]


def test_a_passed_car_is_out_and_the_car_in_front_acts(data):
    state = rulebook_table(data, op_values=())
    state, _ = perform(state, "winner", car=car(state, "Alex"))     # Alex passes Bob
    state, _ = perform(state, "stop")
    assert state.actor == car(state, "Chris")                       # not Bob: he was passed
    assert car(state, "Bob") in state.out


def test_a_second_pass_needs_a_drive_first(data):
    state = rulebook_table(data, op_values=())
    state, _ = perform(state, "winner", car=car(state, "Alex"))
    state, _ = perform(state, "again")
    assert state.stage == "redrive"
    assert {m.kind for m in rules.moves(state)} == {"redrive", "stop"}   # drive, or back out
    state, _ = perform(state, "redrive", choice=rules.BRAKE)
    assert state.hand[car(state, "Alex")] == 4
    assert names(state, (state.duel.attacker, state.duel.defender)) == ["Alex", "Chris"]


def test_nitrous_settles_a_tie_between_players(data):
    state = rulebook_table(data, op_values=(), nitrous=True)
    labels = [m.label for m in rules.moves(state)]
    assert labels == ["Alex wins", "Bob wins", "Tie: nitrous", "No attack"]
    state, _ = perform(state, "tie")
    state, _ = perform(state, "raise", car=car(state, "Alex"), card=40)
    state, _ = perform(state, "raise", car=car(state, "Bob"), card=40)
    assert state.won[car(state, "Bob")] == 1 and state.lost[car(state, "Alex")] == 1   # equal: no change
    view = screens.view(state)
    assert view.body[0] == Big("Tie: front Bob holds", caption="Alex out this phase")
    assert view.body[1].text == "Nitrous 40 v 40"
    state, _ = perform(state, "stop")
    assert state.actor == car(state, "Bob")
    assert state.hand[car(state, "Alex")] == 4 and state.hand[car(state, "Bob")] == 3   # Bob braked too
    state2 = rulebook_table(data, op_values=(), nitrous=True)
    state2, _ = perform(state2, "tie")
    state2, _ = perform(state2, "raise", car=car(state2, "Alex"), card=20)
    state2, _ = perform(state2, "raise", car=car(state2, "Bob"), card=0)
    assert state2.duel.winner == car(state2, "Alex")
    assert state2.hand[car(state2, "Alex")] == 4 and state2.hand[car(state2, "Bob")] == 4


def test_without_nitrous_no_tie_move(data):
    state = rulebook_table(data, op_values=())
    assert "tie" not in {m.kind for m in rules.moves(state)}


def test_speed_choices_follow_the_hand(data):
    state = rulebook_table(data, op_values=(30, 60))
    state, _ = perform(state, "winner", car=car(state, "Bob"))
    state, _ = perform(state, "stop")
    state, _ = perform(state, "pass_up", player="Bob")
    state, _ = perform(state, "old_pro")
    speeds = [m.arg("speed") for m in rules.moves(state)]
    assert sorted(speeds) == list(range(30, 180 + 5 * 10 + 1, 10))   # Chris: 5 cards in hand
    assert speeds[:3] == [90, 80, 70]                                 # the limit first, DOWN lowers
    assert all(len(m.label) <= 14 for m in rules.moves(state))


def test_events_that_do_not_fit_are_refused(data):
    state = rulebook_table(data, op_values=())
    with pytest.raises(rules.RuleError):
        rules.apply(state, {"kind": "speed", "car": 0, "speed": 90, "third": None})
    with pytest.raises(rules.RuleError):
        rules.apply(state, {"kind": "warp"})
    with pytest.raises(rules.RuleError):
        rules.apply(state, {"kind": "winner", "car": car(state, "Chris")})
