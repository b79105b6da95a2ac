import pytest

from companion.core.dice import Die, DiceError, lookup, plain, roll
from companion.core.rng import make_rng


def test_roll_returns_only_faces_of_the_die_and_reaches_every_face():
    die = Die("tire-black", "Black tire", ("5x", "5xs", "6xx", "6xx", "7xx", "8xxx"))
    rng = make_rng(7)
    seen = {roll(die, rng) for _ in range(500)}
    assert seen == {"5x", "5xs", "6xx", "7xx", "8xxx"}


def test_seeded_rolls_repeat_exactly():
    die = plain("d20")
    first, second = make_rng(42), make_rng(42)
    a = [roll(die, first) for _ in range(50)]
    assert a == [roll(die, second) for _ in range(50)]
    assert len(set(a)) > 10


@pytest.mark.parametrize("name,n", [("d2", 2), ("d6", 6), ("d20", 20), ("d1000", 1000)])
def test_plain_dice_have_faces_one_to_n(name, n):
    die = plain(name)
    assert die.faces == tuple(range(1, n + 1))
    assert die.label == name


@pytest.mark.parametrize("name", ["d1", "d0", "d1001", "D6", "6", "d6x", "d-3", "gear-5", ""])
def test_not_plain_dice(name):
    assert plain(name) is None


def test_lookup_prefers_the_game_die_then_plain_dice():
    d6 = Die("d6", "d6 pace/adjust", (1, 2, 3, 4, 5, 6))
    dice = {"d6": d6}
    assert lookup(dice, "d6") is d6
    assert lookup(dice, "d20").faces == tuple(range(1, 21))


def test_unknown_die_names_what_is_available():
    dice = {"gear-1": Die("gear-1", "1st gear", (1, 1, 2, 2))}
    with pytest.raises(DiceError) as exc:
        lookup(dice, "gear-9", "formula-de")
    msg = str(exc.value)
    assert "gear-9" in msg and "formula-de" in msg and "gear-1" in msg and "d2..d1000" in msg
    assert "\n" not in msg


def test_a_die_needs_faces():
    with pytest.raises(ValueError):
        Die("x", "x", ())
