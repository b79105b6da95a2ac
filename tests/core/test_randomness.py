"""Fairness of dice and shuffles, with fixed seeds so the result never changes."""

import pytest


from companion.games import data as game_data
from companion.core.dice import Die, plain
from companion.core.fairness import chi_square, critical_value, die_check, shuffle_checks
from companion.core.rng import make_rng

ROLLS = 100_000
ALL_DICE = [die for slug in game_data.games_with_data() for die in game_data.dice(slug).values()]


def test_there_are_dice_to_check():
    ids = {d.id for d in ALL_DICE}
    assert {"gear-1", "gear-6", "black", "tire-black", "tire-red", "tie"} <= ids


@pytest.mark.parametrize("die", ALL_DICE + [plain("d6"), plain("d20"), plain("d100")], ids=lambda d: d.id)
def test_every_die_is_fair(die):
    check = die_check(die, make_rng(20240611), ROLLS)
    assert check.df == len(set(die.faces)) - 1
    assert check.passed, str(check)


def test_shuffled_cards_land_in_every_position_equally():
    checks = shuffle_checks(13, make_rng(1234), 26_000)
    failed = [str(c) for c in checks if not c.passed]
    assert not failed


class Loaded:
    """A generator that favours the last face and shuffles the naive way (swap each card
    with any card): what the checks must catch."""

    def __init__(self, rng, bias):
        self.rng, self.bias = rng, bias

    def randrange(self, n):
        return n - 1 if self.rng.random() < self.bias else self.rng.randrange(n)

    def shuffle(self, items):
        for i in range(len(items)):
            j = self.rng.randrange(len(items))
            items[i], items[j] = items[j], items[i]


def test_the_check_catches_a_loaded_die_and_a_lazy_shuffle():
    die = Die("d6", "d6", (1, 2, 3, 4, 5, 6))
    assert not die_check(die, Loaded(make_rng(3), 0.02), ROLLS).passed
    assert not all(c.passed for c in shuffle_checks(13, Loaded(make_rng(3), 0), 26_000))


def test_chi_square_and_critical_values():
    assert chi_square([10, 10], [10, 10]) == 0
    assert chi_square([15, 5], [10, 10]) == pytest.approx(5.0)
    # exact chi-square quantiles at 0.999 for comparison
    assert critical_value(1) == pytest.approx(10.828, rel=1e-4)
    assert critical_value(2) == pytest.approx(13.816, rel=1e-4)
    for df, exact in [(3, 16.266), (5, 20.515), (12, 32.909), (19, 43.820), (29, 58.301), (168, 231.9)]:
        assert critical_value(df) == pytest.approx(exact, rel=0.02)
