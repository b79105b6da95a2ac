"""``companion draw`` with a big -n: the same cards as drawing one by one, with memory
that does not grow with -n and work per card that does not grow with the deck (the
instruction counts are in bench/run.py, part "draw")."""

import json
import random
import tracemalloc
from contextlib import redirect_stdout

import pytest

from companion.cli import main
from companion.commands.toolkit import _draw_cards
from companion.core import deck as dk


def one_by_one(cards, n, rng):
    """How the command drew before: one card at a time, onto the discards."""
    pile = dk.shuffle_all(dk.new_pile(cards), dk.shuffle_order(len(cards), rng))
    out = []
    for _ in range(n):
        plan = dk.draw_plan(pile, 1, rng)
        pile = dk.discard(dk.apply_draw(pile, plan), plan.cards)
        out.extend(plan.cards)
    return out


@pytest.mark.parametrize("size, n", [(1, 5), (7, 50), (13, 13), (13, 14), (52, 1000), (0, 3)])
def test_same_cards_and_shuffles_as_one_by_one(size, n):
    cards = [dk.Card(f"c{i}", (("v", i),)) for i in range(size)]
    expected = one_by_one(cards, n, random.Random(5))
    rng = random.Random(5)
    pile = dk.shuffle_all(dk.new_pile(cards), dk.shuffle_order(len(cards), rng))
    assert list(_draw_cards(pile, n, rng)) == expected


def run_json(n: int, path) -> tuple[dict, int]:
    with open(path, "w", encoding="utf-8") as out:     # a file, as a shell redirect gives
        tracemalloc.start()
        with redirect_stdout(out):
            assert main(["draw", "street-illegal", "track", "-n", str(n), "--json", "--seed", "3"]) == 0
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return json.loads(path.read_text(encoding="utf-8")), peak


def test_json_is_one_document_and_memory_does_not_grow_with_n(tmp_path):
    small, small_peak = run_json(2_000, tmp_path / "small.json")
    big, big_peak = run_json(40_000, tmp_path / "big.json")
    assert set(big) == {"game", "deck", "cards"} and big["game"] == "street-illegal"
    assert len(big["cards"]) == 40_000 and big["cards"][:2_000] == small["cards"]
    # 20x the cards: the memory the command holds stays about the same (it held every card)
    assert big_peak < 2 * small_peak + 2_000_000, (small_peak, big_peak)
