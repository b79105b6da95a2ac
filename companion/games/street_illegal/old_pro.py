"""The Old Pro automaton: how many tempo cards an Old Pro turns, and who wins a duel.

In a duel with a player (attacking or defending) the companion turns two cards of the
Old Pros' own tempo deck, the player sets their speed (chips included), then a third
card is turned when the track has no speed limit, when the first two sum below the
limit, or always with the Better Old Pros rule. The car in front wins a tie.
"""

from __future__ import annotations

from typing import Iterable

FIRST_CARDS = 2


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
