import json

import pytest

from companion.core import deck as dk
from companion.core.rng import make_rng

COMPOSITION = [{"name": "10", "count": 3, "value": 10, "icons": ["uphill", "downhill"]},
               {"name": "R", "value": 0}]


def cards(*names):
    return tuple(dk.Card(n) for n in names)


def test_build_expands_counts_and_keeps_fields():
    deck = dk.build(COMPOSITION)
    assert [c.name for c in deck] == ["10", "10", "10", "R"]
    assert deck[0].get("icons") == ("uphill", "downhill")
    assert deck[0].as_dict() == {"name": "10", "icons": ["uphill", "downhill"], "value": 10}
    assert "count" not in deck[3].as_dict()


def test_cards_are_hashable_and_round_trip_through_json():
    deck = dk.build(COMPOSITION)
    assert len(set(deck)) == 2
    again = [dk.Card.from_dict(json.loads(json.dumps(c.as_dict()))) for c in deck]
    assert tuple(again) == deck


def test_card_from_dict_rejects_non_cards():
    for bad in ({"value": 1}, {"name": 3}, "R", {"name": "x", "t": {"a": 1}}):
        with pytest.raises(dk.DeckError):
            dk.Card.from_dict(bad)


def test_draw_takes_from_the_top_without_touching_discards():
    pile = dk.Pile(cards("a", "b", "c"), cards("z"))
    plan = dk.draw_plan(pile, 2, make_rng(1))
    assert plan.cards == cards("a", "b") and plan.reshuffle is None
    after = dk.apply_draw(pile, plan)
    assert after == dk.Pile(cards("c"), cards("z"))
    assert after.left == 1


def test_empty_draw_pile_takes_the_discards_reshuffled_and_the_record_replays():
    pile = dk.Pile(cards("a"), cards("p", "q", "r", "s"))
    plan = dk.draw_plan(pile, 3, make_rng(5))
    assert plan.cards[0].name == "a"
    assert sorted(plan.reshuffle) == [0, 1, 2, 3]
    recorded = dk.Draw.from_json(json.loads(json.dumps(plan.to_json())))
    after = dk.apply_draw(pile, recorded)
    assert after.discard == ()
    assert sorted(c.name for c in plan.cards[1:] + after.draw) == ["p", "q", "r", "s"]
    assert after.left == 2


def test_drawing_more_than_all_cards_gives_what_there_is():
    pile = dk.Pile(cards("a"), cards("b"))
    plan = dk.draw_plan(pile, 5, make_rng(0))
    assert sorted(c.name for c in plan.cards) == ["a", "b"]
    assert dk.apply_draw(pile, plan) == dk.Pile()
    assert dk.draw_plan(dk.Pile(), 1, make_rng(0)).cards == ()


def test_apply_draw_refuses_a_record_that_does_not_fit():
    pile = dk.Pile(cards("a", "b"))
    with pytest.raises(dk.DeckError):
        dk.apply_draw(pile, dk.Draw(cards("b")))
    with pytest.raises(dk.DeckError):
        dk.apply_draw(pile, dk.Draw(cards("a"), reshuffle=(0,)))
    with pytest.raises(dk.DeckError):
        dk.apply_draw(dk.Pile((), cards("x", "y")), dk.Draw(cards("x"), reshuffle=(0, 0)))
    with pytest.raises(dk.DeckError):
        dk.Draw.from_json({"cards": "a"})


def test_discard_reshuffle_and_shuffle_all():
    pile = dk.discard(dk.Pile(cards("a", "b")), cards("x", "y"))
    assert pile.discard == cards("x", "y")
    assert dk.reshuffle_discards(pile, (1, 0)) == dk.Pile(cards("a", "b", "y", "x"))
    everything = dk.shuffle_all(pile, (3, 2, 1, 0))
    assert everything == dk.Pile(cards("y", "x", "b", "a"))


def test_shuffle_order_is_a_permutation_and_seeded_orders_repeat():
    order = dk.shuffle_order(52, make_rng(9))
    assert sorted(order) == list(range(52))
    assert order == dk.shuffle_order(52, make_rng(9))
    assert order != tuple(range(52))


@pytest.mark.parametrize("order", [(0, 0), (0,), (0, 1, 2), (0, "1"), (True, 0)])
def test_reorder_rejects_anything_but_a_permutation(order):
    with pytest.raises(dk.DeckError):
        dk.reorder(cards("a", "b"), order)


def test_pile_state_is_frozen():
    with pytest.raises(AttributeError):
        dk.Pile().draw = ()
