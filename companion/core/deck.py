"""Decks of cards: composition, shuffle, draw, discard, reshuffle discards.

Everything here is pure data and pure functions. Randomness is separate from
change: the resolve side asks for an *order* or a :class:`Draw` with an ``rng``
(and records it in an event); the apply side replays it with no ``rng``::

    plan = draw_plan(pile, 2, rng)          # resolve: may reshuffle the discards
    event = {"kind": "draw", **plan.to_json()}
    pile = apply_draw(pile, Draw.from_json(event))   # apply: pure

The top of the draw pile is ``pile.draw[0]``; the top of the discard pile is the
last card of ``pile.discard``. Cards that are drawn are the caller's (a hand, a
card on show) until it discards them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from companion.core.rng import Rng


class DeckError(ValueError):
    """A recorded draw or order that does not fit the pile (a corrupt or foreign event)."""


@dataclass(frozen=True)
class Card:
    """A card: its ``name`` plus the other fields of its data entry, as sorted (key, value) pairs."""

    name: str
    fields: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.fields).get(key, default)

    def as_dict(self) -> dict[str, Any]:
        """The card as JSON data: ``{"name": ..., <field>: ...}`` (tuples become lists)."""
        return {"name": self.name, **{k: _thaw(v) for k, v in self.fields}}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Card":
        if not isinstance(d, Mapping) or not isinstance(d.get("name"), str):
            raise DeckError(f"not a card: {d!r}")
        return cls(d["name"], tuple(sorted((str(k), _freeze(v)) for k, v in d.items() if k != "name")))


def _freeze(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, Mapping):
        raise DeckError(f"a card field cannot be a table: {v!r}")
    return v


def _thaw(v: Any) -> Any:
    return [_thaw(x) for x in v] if isinstance(v, tuple) else v


def build(composition: Iterable[Mapping[str, Any]]) -> tuple[Card, ...]:
    """The cards of a deck from its data entries, each repeated ``count`` times (default 1)."""
    cards: list[Card] = []
    for entry in composition:
        fields = {k: v for k, v in entry.items() if k != "count"}
        cards.extend([Card.from_dict(fields)] * int(entry.get("count", 1)))
    return tuple(cards)


@dataclass(frozen=True)
class Pile:
    draw: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()

    @property
    def left(self) -> int:
        """Cards left in the draw pile."""
        return len(self.draw)


def new_pile(cards: Iterable[Card]) -> Pile:
    """A pile with ``cards`` face down in the given order (shuffle it before play)."""
    return Pile(tuple(cards))


def shuffle_order(n: int, rng: Rng) -> tuple[int, ...]:
    """A uniformly random order of ``n`` cards: a permutation of ``range(n)``."""
    order = list(range(n))
    rng.shuffle(order)
    return tuple(order)


def reorder(cards: Sequence[Card], order: Sequence[int]) -> tuple[Card, ...]:
    """``cards`` put in ``order`` (``order[i]`` is the index of the card that goes i-th)."""
    if not all(type(i) is int for i in order) or sorted(order) != list(range(len(cards))):
        raise DeckError(f"order {list(order)!r} is not an order of {len(cards)} cards")
    return tuple(cards[i] for i in order)


def shuffle_all(pile: Pile, order: Sequence[int]) -> Pile:
    """All cards (draw pile, then discards) shuffled into one draw pile."""
    return Pile(reorder(pile.draw + pile.discard, order))


def reshuffle_discards(pile: Pile, order: Sequence[int]) -> Pile:
    """The discards shuffled and put under the cards left in the draw pile."""
    return Pile(pile.draw + reorder(pile.discard, order))


def discard(pile: Pile, cards: Iterable[Card]) -> Pile:
    """``cards`` put face up on the discard pile, in order (the last one on top)."""
    return Pile(pile.draw, pile.discard + tuple(cards))


@dataclass(frozen=True)
class Draw:
    """The outcome of drawing: the cards in the order drawn, and the order of the
    discards when the draw pile ran out part way and they were reshuffled in."""

    cards: tuple[Card, ...]
    reshuffle: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"cards": [c.as_dict() for c in self.cards],
                "reshuffle": None if self.reshuffle is None else list(self.reshuffle)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Draw":
        cards = d.get("cards") if isinstance(d, Mapping) else None
        order = d.get("reshuffle") if isinstance(d, Mapping) else None
        if not isinstance(cards, list) or not (order is None or isinstance(order, list)):
            raise DeckError(f"not a recorded draw: {d!r}")
        return cls(tuple(Card.from_dict(c) for c in cards), None if order is None else tuple(order))


def draw_plan(pile: Pile, n: int, rng: Rng) -> Draw:
    """Draw ``n`` cards from the top; if the draw pile runs out, the discards are
    shuffled to form a new one. Fewer than ``n`` when both piles run out."""
    if n < 0:
        raise ValueError("cannot draw a negative number of cards")
    cards = pile.draw[:n]
    order = None
    if len(cards) < n and pile.discard:
        order = shuffle_order(len(pile.discard), rng)
        cards += reorder(pile.discard, order)[: n - len(cards)]
    return Draw(cards, order)


def apply_draw(pile: Pile, draw: Draw) -> Pile:
    """The pile after the recorded ``draw`` (pure). A DeckError if it does not fit the pile."""
    n = len(draw.cards)
    taken, rest, discards = pile.draw[:n], pile.draw[n:], pile.discard
    if draw.reshuffle is not None:
        if len(taken) == n or not discards:
            raise DeckError("recorded reshuffle, but the draw pile had enough cards")
        new = reorder(discards, draw.reshuffle)
        need = n - len(taken)
        taken, rest, discards = taken + new[:need], new[need:], ()
    if taken != draw.cards:
        raise DeckError("recorded cards do not match the pile "
                        f"(recorded {[c.name for c in draw.cards]}, pile has {[c.name for c in taken]})")
    return Pile(rest, discards)
