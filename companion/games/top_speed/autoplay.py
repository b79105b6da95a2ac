"""Scripted Top Speed players for the demo race: each seat has a temperament.

- ``cautious`` passes at 4 movement points, or as soon as a trouble card shows once it
  has something to move;
- ``greedy`` pushes on until one card in four would end its round (or 10 points);
- ``calculating`` draws while the expected gain of one more card beats the expected loss,
  using the exact bust chance from the cards left in its deck.

All of them pit when the deck runs low or the damage row grows, pit cheaply under the
Safety Car, and the first cautious driver makes a pit stop at half distance if nobody
has yet (so every demo race shows one). ``demo_script(state)`` picks the move.
"""

from __future__ import annotations

from companion.games.api import Move
from companion.games.top_speed import rules as R
from companion.kit.turns import play_out, primary

TEMPERAMENTS = ("cautious", "greedy", "calculating")
DEMO_OPTIONS = {"players": 6, "race": "wet", "laps": 15, "grid": "random",
                "fastest_lap": True, "kers": False}
"""A short wet race (all the Safety Car cards stay in): a Safety Car period is likely."""
DEMO_SEED = 1
"""A seed whose demo race has a Safety Car period and a pit stop (tests check it)."""

LOW_DECK = 6          # pit when fewer cards are left
CAUTIOUS_STOP = 4     # movement points at which the cautious driver passes
GREEDY_RISK = 0.25    # bust chance at which the greedy driver passes
GREEDY_ENOUGH = 10    # movement points at which even the greedy driver passes


def temperament(seat: int) -> str:
    return TEMPERAMENTS[seat % len(TEMPERAMENTS)]


def demo_script(state: R.State) -> Move | None:
    """The move the scripted player on turn makes (the table's move between turns);
    None when the race is over."""
    options = R.moves(state)
    if not options:
        return None
    if state.phase not in (R.DRAW, R.QUALIFY) or state.drawn:
        return _primary(options)
    kinds = {m.kind: m for m in options}
    wanted = _choose(state, state.turn, set(kinds))
    return kinds.get(wanted) or _primary(options)


def _primary(options: list[Move]) -> Move:
    return primary(options)


def _choose(state: R.State, c: int, legal: set[str]) -> str:
    car = state.cars[c]
    mood = temperament(c)
    if "pit" in legal and _wants_pit(state, c):
        return "pit"
    if "kers" in legal and mood != "cautious":
        return "kers"
    if "keep" in legal and mood == "calculating" and R.value(car.row[-1]) >= 2:
        return "keep"
    if state.phase == R.QUALIFY and not car.row:
        return "no-lap" if car.qual >= 6 or state.qround > 3 else "draw"
    if not car.row and not car.kers_round:
        return "draw"
    if "draw" not in legal:
        return "pass"
    return "pass" if _stops(state, car, mood) else "draw"


def _stops(state: R.State, car: R.Car, mood: str) -> bool:
    now = R.planned_move(state, car)
    risk = R.bust_chance(car)
    if now < 0:                      # a Drive Through: only a bust (no move) beats it
        return mood == "cautious"
    if mood == "cautious":
        return now >= CAUTIOUS_STOP or (now > 0 and any(R.is_trouble(x) for x in car.row))
    if mood == "greedy":
        return risk >= GREEDY_RISK or now >= GREEDY_ENOUGH
    gain = sum(R.value(x) for x in car.pile.draw) / car.pile.left
    return risk * (now + 1) >= gain      # +1: a bust on a damage card costs later rounds too


def _wants_pit(state: R.State, c: int) -> bool:
    car = state.cars[c]
    if car.pile.left < LOW_DECK:
        return True
    if state.laps_left <= 2:
        return False
    if state.sc:
        return bool(car.damage) or car.pile.left < len(state.settings.deck) // 2
    limit = 2 if temperament(c) == "cautious" else 3
    if len(car.damage) >= limit:
        return True
    nobody_pitted = not any(x.pits for x in state.cars)
    first_cautious = c == 0
    return nobody_pitted and first_cautious and state.laps_left <= state.settings.laps // 2


def play(state: R.State, rng, script=demo_script, limit: int = 200_000) -> tuple[R.State, list[dict]]:
    """Play on to the end with ``script`` choosing every move, through the pure rules;
    returns the final state and the events."""
    return play_out(state, rng, script, R.resolve, R.apply, limit)


def showcase(state: R.State) -> bool:
    """Whether a finished race showed a Safety Car period and a pit stop."""
    return state.sc_periods > 0 and any(c.pits for c in state.cars)


def demo_seed(data, start: int = DEMO_SEED, tries: int = 100) -> int:
    """The first seed from ``start`` whose demo race (:data:`DEMO_OPTIONS`, these players)
    shows a Safety Car period and a pit stop, whatever deck the owner's data gives."""
    from companion.core.rng import make_rng

    for seed in range(start, start + tries):
        final, _ = play(R.setup(DEMO_OPTIONS, data), make_rng(seed))
        if showcase(final):
            return seed
    raise RuntimeError(f"no demo race from seed {start} to {start + tries - 1} had a Safety Car and a pit stop")
