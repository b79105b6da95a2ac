"""Deck shuffler: shuffle and draw any deck of a game, the owner's own decks included.

GO draws a card (the first draw shuffles the deck; an empty draw pile takes the
discards, reshuffled). Drawn cards stay on show until discarded. Every event records
the cards drawn and any order shuffled, so replay needs no randomness.

Moves: "Draw", "Discard" (every card on show), "Reuse discards" (the discards,
shuffled, under the draw pile), "Shuffle all" (every card, those on show too, into a
new draw pile) and "Use <deck>" for each other deck of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.core import deck as dk
from companion.core import gamedata
from companion.games import data as game_data
from companion.core.rng import Rng
from companion.core.names import counted
from companion.games.api import Move, Option, make_move
from companion.kit.events import dispatch
from companion.kit.text import label as fit, short_name
from companion.kit.update import replace_at

def games_with_decks() -> tuple[tuple[str, str], ...]:
    """(slug, name) of the games whose data file has a deck: the wizard offers only these
    (a game's decks are in its built-in data; an owner's file adds to a game listed here,
    and ``companion draw`` reaches any game's)."""
    out = []
    for slug, name in game_data.game_choices():
        try:
            if game_data.load(slug, check=False).get("decks"):
                out.append((slug, name))
        except ValueError:  # a broken built-in file: `companion selftest` names it
            continue
    return tuple(out)


_CHOICES = games_with_decks()
OPTIONS = (
    Option("game", "Deck of", choices=_CHOICES, default=next(iter(_CHOICES), (None,))[0]),
)


@dataclass(frozen=True)
class Deck:
    id: str
    label: str
    pile: dk.Pile
    shown: tuple[dk.Card, ...] = ()   # drawn and not yet discarded, in the order drawn
    shuffled: bool = False            # set by the first draw or shuffle
    done: tuple[str, int, str] = ("", 0, "")   # the last action, when the card does not show
    # it: ("reshuffled" | "discarded" | "put-back" | "shuffled", how many cards, the one card's name)

    @property
    def size(self) -> int:
        return self.pile.left + len(self.pile.discard) + len(self.shown)


@dataclass(frozen=True)
class State:
    game: str
    name: str
    decks: tuple[Deck, ...]
    current: int = 0
    draws: int = 0

    @property
    def deck(self) -> Deck:
        return self.decks[self.current]


def setup(options: dict, data: dict) -> State:
    game = options.get("game") or ""
    labels = gamedata.labels_of(data, "decks")
    decks = tuple(Deck(i, labels[i], dk.new_pile(cards)) for i, cards in gamedata.decks_of(data).items())
    return State(game, gamedata.game_name(data, game), decks)


def can_draw(d: Deck) -> bool:
    return bool(d.pile.left or d.pile.discard or (not d.shuffled and d.size))


def moves(state: State) -> list[Move]:
    if not state.decks:
        return []
    d = state.deck
    out: list[Move] = []
    if can_draw(d):
        out.append(make_move("draw", "Draw", history="Drew"))
    if d.shown:
        out.append(make_move("discard", "Discard" if len(d.shown) == 1 else f"Discard all {len(d.shown)}",
                             history="Discarded"))
    if d.pile.discard:
        out.append(make_move("reshuffle", "Reuse discards", history="Discards shuffled back in"))
    out.append(make_move("shuffle", "Shuffle all", history="Whole deck shuffled"))
    out.extend(make_move("deck", fit(f"Use {short_name(other.label)}"), deck=other.id)
               for other in state.decks if other.id != d.id)
    out[0] = replace(out[0], primary=True)
    return out


def resolve(state: State, move: Move, rng: Rng) -> dict:
    d = state.deck
    if move.kind == "draw":
        order = None if d.shuffled else dk.shuffle_order(d.pile.left + len(d.pile.discard), rng)
        pile = d.pile if order is None else dk.shuffle_all(d.pile, order)
        plan = dk.draw_plan(pile, 1, rng)
        return {"kind": "draw", "deck": d.id, "shuffle": None if order is None else list(order), **plan.to_json()}
    if move.kind == "discard":
        return {"kind": "discard", "deck": d.id, "cards": [c.as_dict() for c in d.shown]}
    if move.kind == "reshuffle":
        return {"kind": "reshuffle", "deck": d.id, "order": list(dk.shuffle_order(len(d.pile.discard), rng))}
    if move.kind == "shuffle":
        return {"kind": "shuffle", "deck": d.id, "order": list(dk.shuffle_order(d.size, rng))}
    if move.kind == "deck":
        return {"kind": "deck", "deck": move.arg("deck")}
    raise ValueError(f"the deck shuffler has no move '{move.kind}'")


def apply(state: State, event: dict) -> State:
    return dispatch(_HANDLERS, state, event, "deck shuffler")


def _deck(state: State, event: dict) -> int:
    """The index of the deck ``event`` is about."""
    index = next((i for i, d in enumerate(state.decks) if d.id == event.get("deck")), None)
    if index is None:
        raise ValueError(f"the deck shuffler has no deck {event.get('deck')!r}")
    return index


def _apply_deck(state: State, event: dict) -> State:
    return replace(state, current=_deck(state, event))


def _apply_draw(state: State, event: dict) -> State:
    index = _deck(state, event)
    d = state.decks[index]
    pile = d.pile if event.get("shuffle") is None else dk.shuffle_all(d.pile, event["shuffle"])
    draw = dk.Draw.from_json(event)
    done = ("reshuffled", len(draw.reshuffle), "") if draw.reshuffle is not None else ("", 0, "")
    d = replace(d, pile=dk.apply_draw(pile, draw), shown=d.shown + draw.cards, shuffled=True, done=done)
    return _put(replace(state, draws=state.draws + 1), index, d)


def _apply_discard(state: State, event: dict) -> State:
    index = _deck(state, event)
    d = state.decks[index]
    if [c.as_dict() for c in d.shown] != event.get("cards"):
        raise dk.DeckError("recorded discards do not match the cards on show")
    done = ("discarded", len(d.shown), d.shown[0].name if len(d.shown) == 1 else "")
    return _put(state, index, replace(d, pile=dk.discard(d.pile, d.shown), shown=(), done=done))


def _apply_reshuffle(state: State, event: dict) -> State:
    index = _deck(state, event)
    d = state.decks[index]
    count = len(d.pile.discard)
    return _put(state, index, replace(d, pile=dk.reshuffle_discards(d.pile, event["order"]), done=("put-back", count, "")))


def _apply_shuffle(state: State, event: dict) -> State:
    index = _deck(state, event)
    d = state.decks[index]
    everything = dk.Pile(d.pile.draw, d.pile.discard + d.shown)
    return _put(state, index, replace(d, pile=dk.shuffle_all(everything, event["order"]), shown=(), shuffled=True,
                                      done=("shuffled", d.size, "")))


_HANDLERS = {"deck": _apply_deck, "draw": _apply_draw, "discard": _apply_discard, "reshuffle": _apply_reshuffle,
             "shuffle": _apply_shuffle}


def _put(state: State, index: int, deck: Deck) -> State:
    return replace(state, decks=replace_at(state.decks, index, deck))


def finished(state: State) -> bool:
    return False


def standings(state: State) -> list[dict]:
    return []


def summary(state: State) -> dict:
    return {"draws": state.draws}


def describe(event: dict) -> str:
    """The outcome for the history list: the card drawn, or the cards discarded
    (``Discarded: Safety Car + 2``; more than two, each drawn in its own line before:
    ``Discarded: 5 cards``)."""
    if event.get("kind") in ("draw", "discard"):
        cards = [c.get("name", "?") for c in event.get("cards", ()) if isinstance(c, dict)]
        if len(cards) > 2:
            return counted(len(cards), "card")
        return " + ".join(cards) or "no card"
    return ""
