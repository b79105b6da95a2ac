"""The automated racecars: secret hands, a written policy, two levels, public knowledge only."""

import random

import pytest

from companion.games.lacorsa import driver, rules as R

from tests.games.lacorsa.helpers import Dice, act, deal, new, play, race, step

SUIT = ["Extend 1", "Extend 2", "Drafting 3", "4", "5", "6", "7", "8", "9", "10", "11", "Champion 12", "R"]


def _auto_race(hands=None, **options):
    """Cars 1 and 2 automated (Blue racer, Yellow steady), 0 and 3 human; grid 0, 1, 2, 3."""
    state = deal(new(4, autos={1: "racer", 2: "steady"}, **options), hands)
    state = step(state, {"kind": "plays", "plays": [[1, ["10"]], [2, ["9"]]]})
    state = play(play(state, 0, "11"), 3, "8")
    return step(step(state, {"kind": "grid", "rolls": []}), {"kind": "start"})


def test_the_automated_hands_stay_on_the_device():
    state = _auto_race()
    assert len(state.hands[1]) == 12 and "10" not in state.hands[1]
    assert state.hands[0] == ()                    # nobody knows a human's hand


def test_knowledge_holds_the_own_hand_and_public_facts_only():
    state = _auto_race()
    k = R.knowledge(state, 1)
    assert k.hand == state.hands[1]
    # unseen: 4 suits (52) less its own 12 cards less the 4 qualifying cards
    assert len(k.unseen) == 52 - 12 - 4
    assert k.left == state.left and k.order == state.order


def _three_autos(yellow, green):
    """Red human; Blue, Yellow and Green automated; Blue always holds one whole suit."""
    return deal(new(4, autos={1: "racer", 2: "steady", 3: "racer"}), {1: SUIT, 2: yellow, 3: green})


def test_an_automated_choice_does_not_change_when_another_hand_does():
    other_yellow = [c if c != "Champion 12" else "4" for c in SUIT]
    other_green = [c if c != "4" else "Champion 12" for c in SUIT]
    one, two = _three_autos(SUIT, SUIT), _three_autos(other_yellow, other_green)
    assert one.hands[2] != two.hands[2]
    assert R.knowledge(one, 1) == R.knowledge(two, 1)
    q1 = R.resolve(one, R.moves(one)[0], Dice())["plays"]
    q2 = R.resolve(two, R.moves(two)[0], Dice())["plays"]
    assert q1[0] == q2[0] and q1[0][0] == 1        # Blue qualifies with the same card
    for other in (2, 3):
        assert driver.defend(R.knowledge(one, 1), other) == driver.defend(R.knowledge(two, 1), other)
        assert driver.attack(R.knowledge(one, 1), other) == driver.attack(R.knowledge(two, 1), other)


def test_an_automated_card_is_fixed_before_the_human_enters_theirs():
    """The automated car plays first, face down: whatever the human then enters, the
    automated card recorded is the same (it never sees a human's card or hand)."""
    state = _auto_race({1: SUIT, 2: SUIT})
    state = act(state, 3, "challenge")             # human Green challenges automated Yellow
    assert R.moves(state)[0].kind == "auto"
    event = R.resolve(state, R.moves(state)[0], Dice())
    assert [p[0] for p in event["plays"]] == [2]
    state = step(state, event)
    assert R.waiting(state) == (3,)
    outcomes = set()
    for human in ("Extend 1", "Champion 12"):
        after = play(state, 3, human)
        outcomes.add(after.last[-1].other_cards)
    assert outcomes == {tuple(event["plays"][0][1])}


def _knowledge(hand, level=driver.STEADY, left=(8, 8, 8, 8), unseen=None, final=False, order=(0, 1, 2, 3),
               me=3, open_ahead=False):
    s = race().settings
    unseen = unseen if unseen is not None else tuple(range(1, 12)) * 2
    return driver.Knowledge(me=me, level=level, settings=s, hand=tuple(hand), unseen=tuple(sorted(unseen)),
                            left=left, order=order, team=(me,), final=final, open_ahead=open_ahead)


def test_the_champion_is_kept_early_and_spent_at_the_end():
    hand = ["Champion 12", "4", "5", "6", "7", "8", "9", "10"]
    early = _knowledge(hand)
    assert "Champion 12" not in driver.attack(early, 2)
    late = _knowledge(hand, final=True)
    assert driver.attack(late, 2) == ("Champion 12",)


def test_a_lost_challenge_is_given_up_cheaply():
    hand = ["Extend 1", "5", "6", "Champion 12", "R", "9", "10", "11"]
    k = _knowledge(hand, unseen=[12] * 20, left=(8, 8, 8, 8))
    assert driver.defend(k, 2) == ("Extend 1",)    # nothing short of the Champion holds


def test_the_cheapest_card_that_wins_is_played():
    k = _knowledge(["4", "9", "11", "Extend 2", "6", "7", "8", "10"], unseen=[1, 2, 3, 4, 5] * 4, left=(5, 5, 5, 5))
    # defending, a 4 holds unless two of the 5 cards held are 5s (75%); attacking, a 4
    # fails too often (31%) and a 6 beats every unseen card
    assert driver.defend(k, 2) == ("4",)
    assert driver.attack(k, 2) == ("6",)


def test_the_levels_differ_in_nerve():
    hand = ["4", "6", "8", "9", "10", "11", "5", "7"]
    unseen = [1] * 10 + [10] * 2                   # the defender holds 2 of these: a 10 in 32%
    left = (8, 8, 2, 8)
    steady = _knowledge(hand, unseen=unseen, left=left)
    racer = _knowledge(hand, level=driver.RACER, unseen=unseen, left=left)
    assert driver.attack(steady, 2) == ("4",)      # 68% is enough for a Steady car
    assert driver.attack(racer, 2) == ("11",)      # a Racer wants 90%: a card over the 10s


def test_a_racer_uses_the_redline_to_turn_a_loss_into_a_win():
    hand = ["R", "9", "4", "5", "Extend 1", "6", "7", "8"]
    unseen = [1] * 10 + [10] * 2
    left = (8, 8, 2, 8)
    assert driver.attack(_knowledge(hand, level=driver.RACER, unseen=unseen, left=left), 2) == ("R", "9")
    assert driver.attack(_knowledge(hand, unseen=unseen, left=left), 2) == ("4",)


def test_the_leader_ends_its_turn_with_an_extend_but_never_the_drafting_3():
    k = _knowledge(["Drafting 3", "9", "Extend 2"], me=0, open_ahead=True)
    assert driver.decide(k) == ("extend", ("Extend 2",))
    k = _knowledge(["Drafting 3", "9"], me=0, open_ahead=True)
    assert driver.decide(k) == ("discard", ("Drafting 3",))


def test_a_car_without_an_extend_card_discards():
    k = _knowledge(["R", "9", "4"], me=0, open_ahead=True)
    assert driver.decide(k) == ("discard", ("4",))     # the Redline is worth keeping over a 4


def test_a_racer_in_the_lead_discards_two_with_its_redline():
    k = _knowledge(["R", "9", "5", "7"], level=driver.RACER, me=0, open_ahead=False)
    assert driver.decide(k) == ("discard", ("R", "5"))


def test_a_car_always_challenges_a_rival_ahead_but_not_its_team_mate():
    k = _knowledge(["4", "5"])
    assert driver.decide(k) == ("challenge", ())
    mate = driver.Knowledge(**{**k.__dict__, "team": (2, 3)})
    assert driver.decide(mate)[0] == "discard"


def test_automated_cars_play_a_whole_race_alone():
    state = race(players=4, autos={0: "racer", 1: "steady", 2: "racer", 3: "steady"})
    rng = random.Random(3)
    while not R.finished(state):
        moves = R.moves(state)
        assert moves[0].kind == "auto" or moves[0].kind == "grid"
        state = R.apply(state, R.resolve(state, moves[0], rng))
    assert sum(1 for c in state.left if c == 0) >= 1


def test_an_automated_choice_does_not_change_when_a_humans_hand_does(monkeypatch):
    """Two tables deal the human cars different hands; the humans play the same cards. The
    companion's state is the same (it never holds a human's hand), and so is every choice
    of the automated cars."""
    from companion.games.lacorsa import autoplay
    with_champion = {0: tuple(SUIT), 2: tuple(SUIT)}
    without = {0: tuple("4" if c == "Champion 12" else c for c in SUIT),
               2: tuple("Champion 12" if c == "4" else c for c in SUIT)}
    events = []
    states = []
    for dealt in (with_champion, without):
        monkeypatch.setattr(autoplay, "table_hands", lambda state, dealt=dealt: dealt)
        state = deal(new(4, autos={1: "racer", 3: "steady"}), {1: SUIT, 3: SUIT})
        state = step(state, R.resolve(state, R.moves(state)[0], Dice()))       # automated qualifying
        state = play(play(state, 0, "9"), 2, "8")
        state = step(step(state, {"kind": "grid", "rolls": []}), {"kind": "start"})
        assert ("Champion 12" in autoplay.hand(state, 0)) == (dealt is with_champion)
        chosen = []
        while state.step == R.RACE and len(chosen) < 6:
            move = R.moves(state)[0]
            if move.kind == "auto":
                event = R.resolve(state, move, Dice())
                chosen.append(event)
            else:                                   # the humans: a challenge when they must, else a
                # discard; their lowest plain card the human suits still hold
                card = next(n for n in ("4", "5", "6", "7", "8", "9", "10", "11") if R.human_pool(state)[n])
                if state.stage != R.ACT:
                    event = {"kind": "plays", "plays": [[R.waiting(state)[0], [card]]]}
                elif state.must_challenge(state.actor):
                    event = {"kind": "act", "car": state.actor, "action": "challenge", "cards": []}
                else:
                    event = {"kind": "act", "car": state.actor, "action": "discard", "cards": [card]}
            state = step(state, event)
        events.append(chosen)
        states.append(state)
    assert states[0] == states[1]
    assert events[0] == events[1] and len(events[0]) >= 2


def test_an_owner_sets_a_levels_nerve_in_the_data():
    from companion.games.lacorsa import suit
    from tests.games.lacorsa.helpers import data
    assert tuple(k for k, _ in driver.LEVELS) == suit.LEVELS
    hand = ["4", "6", "8", "9", "10", "11", "5", "7"]
    unseen = [1] * 10 + [10] * 2
    built_in = R.setup({"players": 4}, data()).settings
    bolder = R.setup({"players": 4}, data(automated={"nerve": {"racer": 0.5}})).settings
    assert dict(built_in.nerve) == {"steady": 0.5, "racer": 0.9}
    for settings, card in ((built_in, "11"), (bolder, "4")):
        k = driver.Knowledge(me=3, level=driver.RACER, settings=settings, hand=tuple(hand), unseen=tuple(unseen),
                             left=(8, 8, 2, 8), order=(0, 1, 2, 3), team=(3,), final=False, open_ahead=False,
                             nerve=dict(settings.nerve)["racer"])
        assert driver.attack(k, 2) == (card,)


@pytest.mark.parametrize("nerve", [{"racer": 1.5}, {"wild": 0.5}, {"steady": "high"}])
def test_a_nerve_that_is_no_chance_is_refused(nerve):
    from companion.kit.errors import DataError
    from tests.games.lacorsa.helpers import data
    with pytest.raises(DataError) as exc:
        R.check_data(data(automated={"nerve": nerve}))
    assert exc.value.keys[:2] == ("automated", "nerve")


def test_the_history_never_shows_an_automated_card_before_its_reveal():
    state = deal(new(4, autos={1: "racer"}))
    event = R.resolve(state, R.moves(state)[0], Dice())
    assert event["face_down"] and R.describe(event) == "face down"
    # a human's play too: the box's history has the card as the move entered ("Ann: 9")
    assert R.describe({"kind": "plays", "plays": [[0, ["R", "9"]]]}) == "face down"
