"""The Old Pro automaton: how many tempo cards an Old Pro turns, and who wins a duel;
and the colours the Old Pros' cars are told apart by.

In a duel with a player (attacking or defending) the companion turns two cards of the
Old Pros' own tempo deck, the player sets their speed (chips included), then a third
card is turned when the track has no speed limit, when the first two sum below the
limit, or always with the Better Old Pros rule. The car in front wins a tie.
"""

from __future__ import annotations

from typing import Iterable

from companion.kit.cars import COLOURS

FIRST_CARDS = 2
NEUTRAL = ("Grey", "Silver", "Brown", "Black", "White")
"""The Old Pros' colours first, before the other colours no player took."""


def colours(taken: Iterable[str], count: int) -> tuple[str, ...]:
    """A colour for each of ``count`` Old Pros, none a player's (``taken``): the neutral
    ones first, then the rest of the companion's colours; Grey once all are taken."""
    used = {str(c).casefold() for c in taken}
    free = [c for c in dict.fromkeys(NEUTRAL + COLOURS) if c.casefold() not in used]
    return tuple(free[k] if k < len(free) else NEUTRAL[0] for k in range(count))


def value(card) -> int:
    return int(card.get("value", 0))


def speed(cards: Iterable) -> int:
    return sum(value(c) for c in cards)


def needs_third(first_two: Iterable, limit: int | None, better: bool) -> bool:
    """Whether the Old Pro turns a third card after ``first_two``."""
    return better or limit is None or speed(first_two) < limit


def passer_wins(attacker_speed: int, defender_speed: int) -> bool:
    """The passer needs a higher speed: the car in front wins ties."""
    return attacker_speed > defender_speed


def cards_text(cards: Iterable) -> str:
    """``30+60`` as the screen shows an Old Pro's cards."""
    return "+".join(str(value(c)) for c in cards)
