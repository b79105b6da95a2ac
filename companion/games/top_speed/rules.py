"""Top Speed: every player's deck, the push-your-luck round and the Safety Car automaton.

In Top Speed every card is face up once drawn, so the companion holds all the decks:
players press DRAW, PASS or PIT STOP and move their car as the screen says.

A race goes:

- ``start``: the decks are shuffled and the grid is set (random, or by qualifying, which
  is played first: up to 5 laps, fastest lap first on the grid).
- each round: the Laps Remaining go down by one (at 0 the race is over); in race order
  the players draw one card at a time, pass (after at least one card) or declare a pit
  stop (before any card). A second identical trouble card ends a player's round.
- when nobody may draw, the movement phase is worked out at once and shown car by car
  (``steps``): "RED: move 7". Two Yellow Flags on the table: no overtaking. Two Safety
  Cars: the Safety Car comes out, its counter on space n (players) of the laps track,
  and the cars close up. Under it each player draws one card a round, the counter goes
  down by the green cards drawn, and the Safety Car leaves at 0.
- the leader crossing the line going forward takes a lap off (see :func:`_movement`).
- between turns and at the round end, ``fix`` opens the correction screen: a car's space
  is set to match the board.

One session is one race; the platform's championship adds up the races.

Choices where the rulebook is silent (docs/games/top-speed.md lists them): a Drive
Through moves the car 6 back whatever green cards are in the row; a lap taken off by the
leader is taken off once (going back over the line and forward again does not count
twice); when the Laps Remaining reach 0 during the movement phase the race is over at
once, the cars still to move stay where they are; Drive Through cards under the Safety
Car have no effect (cars cannot move); no pit stops and no KERS in qualifying.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from companion.core.names import counted
from companion.core import scoring
from companion.core.deck import Card, DeckError, Pile, draw_plan, reorder, shuffle_order
from companion.core.rng import shuffled
from companion.kit.cars import entries
from companion.kit.errors import RuleError
from companion.kit.events import dispatch
from companion.kit.text import label
from companion.kit.update import evolve, replace_at
from companion.games.api import Move, Option, make_move

from companion.games.top_speed import circuit
from companion.games.top_speed.settings import MAX_PLAYERS, Settings, build_settings

OPTIONS = (
    Option("players", "Players", kind="players", low=2, high=MAX_PLAYERS, default=4),
    Option("race", "Race type", choices=(("normal", "Normal"), ("wet", "Wet"), ("custom", "Custom")),
           default="normal"),
    Option("laps", "Laps", kind="number", low=2, high=99, default=66),
    Option("grid", "Start order", choices=(("random", "Random"), ("qualifying", "Qualifying")), default="random"),
    Option("fastest_lap", "Fastest lap", choices=((False, "Off"), (True, "On")), default=False),
    Option("kers", "KERS", choices=((False, "Off"), (True, "On")), default=False),
)

# phases
START, QUALIFY, DRAW, STEPS, ROUND_END, FIX, OVER = "start", "qualify", "draw", "steps", "round-end", "fix", "over"
GRID = "grid"                 # the starting grid is shown until the table presses GO
# a car's part in the current round
DRAWING, PASSED, BUST, PIT, DONE, NO_LAP = "drawing", "passed", "bust", "pit", "done", "no-lap"
# what a step of the movement phase tells the table
MOVE, BACK, PIT_BACK, CLOSE, LAP, SC_OUT, SC_IN, SC_COUNT, BONUS, QLAP, FLAG = (
    "move", "back", "pit", "close", "lap", "sc-out", "sc-in", "sc-count", "bonus", "qlap", "flag")




@dataclass(frozen=True)
class Car:
    name: str
    colour: str
    pile: Pile                         # draw deck (top first) and discard pile
    damage: tuple[Card, ...] = ()      # the damage row
    row: tuple[Card, ...] = ()         # cards drawn this round, in order
    status: str = DRAWING
    distance: int = 0                  # see companion.games.top_speed.circuit
    kers: Card | None = None           # the green card kept apart (KERS)
    kers_round: bool = False           # kept or used a KERS card this round
    pit_back: int = 0                  # spaces back for this round's pit stop
    pits: int = 0
    led: int = 0                       # laps led
    best: int = 0                      # fastest lap: most spaces moved in one round
    qual: int = -1                     # fastest qualifying lap (-1: none)


@dataclass(frozen=True)
class Step:
    """One line of the movement phase: ``car`` (-1 for the Safety Car) and what to do.

    ``want`` is what the cards asked for: the planned move of a MOVE step (more than
    ``amount`` when the car was blocked), the green cards drawn of a Safety Car step."""
    kind: str
    car: int = -1
    amount: int = 0
    want: int = 0


@dataclass(frozen=True)
class State:
    settings: Settings
    cars: tuple[Car, ...]
    phase: str = START
    order: tuple[int, ...] = ()        # race order at the start of the round (turn order)
    grid: tuple[int, ...] = ()         # the starting grid, pole first
    turn: int = -1                     # the car whose turn it is
    round: int = 0
    laps_left: int = 0
    lines: int = 0                     # finish-line crossings already taken off the laps
    sc: int = 0                        # Safety Car counter (0: not deployed)
    sc_periods: int = 0
    yellow: bool = False               # no overtaking in the last movement phase
    steps: tuple[Step, ...] = ()
    step: int = 0
    after: str = ROUND_END             # the phase after the steps
    qround: int = 0
    qualified: bool = False
    fastest: tuple[int, int, int] = (-1, 0, 0)   # car, spaces, round
    fix_car: int = 0
    fix_from: str = ROUND_END          # the phase a correction returns to
    show: int = 0                      # the player on turn opened a page of their cards (1, 2)
    drawn: bool = False                # the player on turn just drew: the outcome is shown
                                       # to them until they press on ("seen")
    chart: tuple[tuple[int, ...], ...] = ()   # the race order each time a lap came off (lap chart)
    pitted: tuple[tuple[int, int], ...] = ()  # (car, lap) of every pit stop (lap: the chart's next)
    last: tuple[int, str] = (-1, "")   # (car, what) of the round's last action: "draw", "bust",
                                       # "pass", "pit", "keep", "kers" or "no-lap"

    def name(self, car: int) -> str:
        return self.cars[car].name


# -- cards ----------------------------------------------------------------------------

def value(card: Card) -> int:
    return card.get("value", 0)


def is_trouble(card: Card) -> bool:
    return bool(card.get("trouble"))


def green(car: Car) -> int:
    """Movement points of the green cards in the car's row."""
    return sum(value(c) for c in car.row)


def bust_cards(car: Car) -> int:
    """Cards left in the deck that would end the player's round if drawn next."""
    names = {c.name for c in car.row if is_trouble(c)}
    return sum(1 for c in car.pile.draw if c.name in names) if names else 0


def bust_chance(car: Car) -> float:
    """The exact chance that the next card drawn ends the player's round."""
    left = car.pile.left
    return bust_cards(car) / left if left else 0.0


def signals(state: State, signal: str) -> int:
    """``signal`` cards ("yellow-flag", "safety-car") on the table this round."""
    return sum(1 for car in state.cars for c in car.row if c.get("signal") == signal)


def planned_move(state: State, car: Car) -> int:
    """Spaces the car is due to move this round as things stand (negative: back)."""
    if car.status == PIT:
        return -car.pit_back
    if car.status == BUST or state.sc:
        return 0
    back = max((c.get("back", 0) for c in car.row), default=0)
    if back:
        return -back
    return max(0, green(car) - len(car.damage))


def pit_cost(state: State, car: Car) -> int:
    """Spaces back for a pit stop now: 8, and 2 more per Engine Trouble in the damage row."""
    return state.settings.pit_back + sum(x.get("pit_extra", 0) for x in car.damage)


# -- setup ----------------------------------------------------------------------------

def setup(options: Mapping[str, Any], data: Mapping[str, Any]) -> State:
    settings = build_settings(options, data)
    players = entries(options, low=2, high=MAX_PLAYERS, game="Top Speed", default=4)
    cars = tuple(Car(p["name"], p["colour"], Pile(settings.deck), distance=-i) for i, p in enumerate(players))
    return State(settings, cars, order=tuple(range(len(cars))), laps_left=settings.laps)


# -- moves ----------------------------------------------------------------------------

def moves(state: State) -> list[Move]:
    phase = state.phase
    if phase == START:
        if state.settings.grid == "qualifying" and not state.qualified:
            return [make_move("qualify", label("Qualify"), primary=True, history="Qualifying")]
        grid = "Grid by qualifying" if state.qualified else "Grid drawn"
        return [make_move("start", label("Start"), primary=True, history=grid)]
    if phase == GRID:
        return [make_move("go", label("Start race"), primary=True)]
    if state.drawn:
        return _seen_moves(state)
    if phase == QUALIFY:
        return _turn_moves(state)
    if phase == DRAW:
        return _turn_moves(state) + [make_move("fix", label("Board: fix car"))]
    if phase == STEPS:
        return [make_move("next", label("Go on"), primary=True, history=step_words(state, state.steps[state.step]))]
    if phase == ROUND_END:
        return [make_move("next", label("Next round"), primary=True, history=f"Round {state.round + 1}"),
                make_move("fix", label("Board: fix car"))]
    if phase == FIX:
        car = state.fix_car
        who = state.name(car)
        return [make_move("fix-move", label("Forward 1"), player=who, car=car, by=1, history="Board: 1 ahead"),
                make_move("fix-move", label("Back 1"), player=who, car=car, by=-1, history="Board: 1 back"),
                make_move("fix-car", label("Next car"), history="Board: next car"),
                make_move("fix-done", label("Done"), primary=True, history="Board: cars fixed")]
    return []


def step_words(state: State, step: Step) -> str:
    """A step of the movement phase as the history says it once the table has seen it
    (``Red moves 7 spaces``, ``Safety Car out``)."""
    who, n = (state.name(step.car) if step.car >= 0 else ""), step.amount
    words = {
        MOVE: f"{who} moves {counted(n, 'space')}" if n else f"{who} stays",
        BONUS: f"{who} moves {counted(n, 'space')}: fastest lap",
        BACK: f"{who} goes {counted(-n, 'space')} back: Drive Through",
        PIT_BACK: f"{who} goes {counted(-n, 'space')} back: pit stop",
        CLOSE: f"{who} closes up {counted(n, 'space')}",
        LAP: f"{who} crosses the line: {counted(n, 'lap')} to go",
        SC_OUT: "Safety Car out", SC_COUNT: f"Safety Car stays: counter {n}", SC_IN: "Safety Car in",
        QLAP: f"{who}: qualifying lap of {counted(n, 'space')}", FLAG: "Chequered flag",
    }
    return words.get(step.kind, step.kind)


def next_drawer(state: State, c: int, status: str) -> int | None:
    """Who draws after car ``c`` (now with ``status``), in turn order; None: nobody."""
    order = state.order
    k = order.index(c)
    for j in range(1, len(order) + 1):
        nxt = order[(k + j) % len(order)]
        if (status if nxt == c else state.cars[nxt].status) == DRAWING:
            return nxt
    return None


def _seen_moves(state: State) -> list[Move]:
    """After a draw: the player who drew reads the outcome, then hands on."""
    c = state.turn
    nxt = next_drawer(state, c, state.cars[c].status)
    if nxt is None:
        go = label("Lap times") if state.phase == QUALIFY else label("Move the cars")
    elif nxt == c:
        go = label("Go on")
    else:
        go = label(f"Next: {state.name(nxt)}")
    who = state.name(c)
    then = ("lap times" if state.phase == QUALIFY else "the cars move") if nxt is None else \
        "draws again" if nxt == c else f"{state.name(nxt)} next"
    return [make_move("seen", go, player=who, car=c, primary=True, history=f"card seen, {then}"),
            make_move("cards", label("My cards"), player=who, car=c, history="looks at My cards")]


def _turn_moves(state: State) -> list[Move]:
    c = state.turn
    car = state.cars[c]
    who = car.name
    has_cards = car.pile.left > 0
    fresh = not car.row and not car.kers_round
    out: list[Move] = []

    def add(kind: str, text: str, history: str, primary: bool = False) -> None:
        out.append(make_move(kind, text, player=who, car=c, primary=primary, history=history))

    if has_cards:
        add("draw", label("Draw"), f"{who} drew", primary=True)
    if state.phase == QUALIFY:
        if car.row:
            add("pass", label("Pass"), "stops drawing", primary=not has_cards)
        else:
            add("no-lap", label("No lap"), "no qualifying lap", primary=not has_cards)
        return out
    if state.sc:
        add("pit", label("Pit stop"), "into the pits", primary=not has_cards)
        add("cards", label("My cards"), "looks at My cards")
        return out
    if car.row or car.kers_round:
        add("pass", label("Pass"), "stops drawing", primary=not has_cards)
    if fresh:
        add("pit", label("Pit stop"), "into the pits", primary=not has_cards and car.kers is None)
    if state.settings.kers:
        if car.kers is not None and not car.kers_round:
            add("kers", label(f"KERS {car.kers.name}"), f"plays the KERS card {car.kers.name}", primary=not has_cards)
        if car.kers is None and not car.kers_round and car.row and value(car.row[-1]) > 0:
            add("keep", label(f"Keep {car.row[-1].name}"), f"keeps {car.row[-1].name} for KERS")
    add("cards", label("My cards"), "looks at My cards")
    return out


# -- resolve --------------------------------------------------------------------------

def resolve(state: State, move: Move, rng) -> dict:
    kind = move.kind
    if kind == "qualify":
        return {"kind": "qualify", "decks": _deck_orders(state, rng)}
    if kind == "start":
        grid = shuffled(range(len(state.cars)), rng)
        if state.qualified:
            grid = tuple(sorted(grid, key=lambda i: -state.cars[i].qual))   # ties: random
        return {"kind": "start", "grid": list(grid),
                "decks": None if state.qualified else _deck_orders(state, rng)}
    car = move.arg("car")
    if kind == "draw":
        plan = draw_plan(state.cars[car].pile, 1, rng)
        return {"kind": "draw", "car": car, **plan.to_json()}
    if kind == "pit":
        c = state.cars[car]
        return {"kind": "pit", "car": car,
                "order": list(shuffle_order(c.pile.left + len(c.pile.discard) + len(c.damage), rng))}
    event = {"kind": kind}
    for key, v in move.args:
        event[key] = v
    return event


def _deck_orders(state: State, rng) -> list[list[int]]:
    return [list(shuffle_order(len(c.pile.draw) + len(c.pile.discard), rng)) for c in state.cars]


# -- apply ----------------------------------------------------------------------------

def apply(state: State, event: Mapping[str, Any]) -> State:
    return dispatch(_HANDLERS, state, event, "Top Speed")


def _need_phase(state: State, *phases: str) -> None:
    if state.phase not in phases:
        raise RuleError(f"this event does not fit the race now (phase {state.phase})")


def _turn_car(state: State, event, *, seeing: bool = False) -> int:
    """The car on turn, named by ``event``; an action waits until the last draw is seen."""
    _need_phase(state, DRAW, QUALIFY)
    c = event["car"]
    if c != state.turn:
        raise RuleError(f"it is not car {c}'s turn")
    if state.drawn and not seeing:
        raise RuleError(f"{state.name(c)} has not yet seen the card drawn")
    return c


def _shuffle_decks(state: State, orders) -> tuple[Car, ...]:
    if orders is None:
        return state.cars
    if len(orders) != len(state.cars):
        raise RuleError("the recorded shuffle does not match the players")
    return tuple(evolve(c, pile=Pile(reorder(c.pile.draw + c.pile.discard, o))) for c, o in zip(state.cars, orders))


def _qualify(state: State, event) -> State:
    _need_phase(state, START)
    cars = tuple(evolve(c, status=DRAWING) for c in _shuffle_decks(state, event["decks"]))
    return evolve(state, cars=cars, phase=QUALIFY, qround=1, order=tuple(range(len(cars))), turn=0)


def _start(state: State, event) -> State:
    _need_phase(state, START)
    grid = event["grid"]
    if sorted(grid) != list(range(len(state.cars))):
        raise RuleError(f"grid {grid!r} is not an order of the cars")
    if not state.qualified and event.get("decks") is None:
        raise RuleError("a start without qualifying must record the shuffled decks")
    cars = list(_shuffle_decks(state, event.get("decks")))
    for k, c in enumerate(grid):
        cars[c] = evolve(cars[c], distance=-k)
    return evolve(state, cars=tuple(cars), grid=tuple(grid), phase=GRID)


def _go(state: State, event) -> State:
    """The table has seen the starting grid: the first round."""
    _need_phase(state, GRID)
    return _start_round(state)


def _start_round(state: State) -> State:
    distances = [c.distance for c in state.cars]
    order = circuit.race_order(distances)
    laps_left = state.laps_left - 1
    leader = order[0]
    cars = tuple(evolve(c, status=DRAWING, row=(), kers_round=False, pit_back=0,
                       led=c.led + (i == leader)) for i, c in enumerate(state.cars))
    state = evolve(state, cars=cars, order=order, laps_left=laps_left, round=state.round + 1,
                  show=0, yellow=False, last=(-1, ""), chart=state.chart + (tuple(order),))
    if laps_left <= 0:
        return _finish(state, ())
    return evolve(state, phase=DRAW, turn=order[0])


def _draw(state: State, event) -> State:
    c = _turn_car(state, event)
    car = state.cars[c]
    recorded = event["cards"]
    if len(recorded) != 1 or event.get("reshuffle") is not None:
        raise RuleError("a Top Speed draw is one card, never a reshuffle")
    card = state.settings.card(recorded[0]["name"])
    pile = car.pile
    if not pile.draw or pile.draw[0] != card:   # apply_draw's check, for one card, at a third of its cost
        top = pile.draw[0].name if pile.draw else "no card"
        raise DeckError(f"recorded cards do not match the pile (recorded {card.name}, pile has {top})")
    bust = is_trouble(card) and any(x.name == card.name for x in car.row)
    status = BUST if bust else (DONE if state.sc else DRAWING)
    car = evolve(car, pile=Pile(pile.draw[1:], pile.discard), row=car.row + (card,), status=status)
    return evolve(state, cars=replace_at(state.cars, c, car), drawn=True, show=0, last=(c, "bust" if bust else "draw"))


def _seen(state: State, event) -> State:
    """The player who drew has read the outcome: the next player's turn (or the movement)."""
    c = _turn_car(state, event, seeing=True)
    if not state.drawn:
        raise RuleError(f"{state.name(c)} has drawn nothing to see")
    car = state.cars[c]
    return _next_turn(evolve(state, drawn=False), c, car, "bust" if car.status == BUST else "draw")


def _pass(state: State, event) -> State:
    c = _turn_car(state, event)
    car = state.cars[c]
    if not car.row and not car.kers_round:
        raise RuleError(f"{car.name} cannot pass before drawing a card")
    return _next_turn(state, c, evolve(car, status=PASSED), "pass")


def _no_lap(state: State, event) -> State:
    c = _turn_car(state, event)
    _need_phase(state, QUALIFY)
    return _next_turn(state, c, evolve(state.cars[c], status=NO_LAP), "no-lap")


def _pit(state: State, event) -> State:
    c = _turn_car(state, event)
    _need_phase(state, DRAW)
    car = state.cars[c]
    if car.row or car.kers_round:
        raise RuleError(f"{car.name} cannot declare a pit stop after drawing")
    pile = Pile(reorder(car.pile.draw + car.damage + car.pile.discard, event["order"]))
    car = evolve(car, pile=pile, damage=(), status=PIT, pit_back=pit_cost(state, car), pits=car.pits + 1)
    state = evolve(state, pitted=state.pitted + ((c, len(state.chart) + 1),))
    return _next_turn(state, c, car, "pit")


def _keep(state: State, event) -> State:
    c = _turn_car(state, event)
    car = state.cars[c]
    if not state.settings.kers or car.kers is not None or car.kers_round or not car.row or value(car.row[-1]) <= 0:
        raise RuleError(f"{car.name} cannot keep a card now")
    car = evolve(car, kers=car.row[-1], row=car.row[:-1], kers_round=True)
    return evolve(state, cars=replace_at(state.cars, c, car), show=0, last=(c, "keep"))


def _use_kers(state: State, event) -> State:
    c = _turn_car(state, event)
    car = state.cars[c]
    if car.kers is None or car.kers_round or state.sc:
        raise RuleError(f"{car.name} has no KERS card to use now")
    car = evolve(car, row=car.row + (car.kers,), kers=None, kers_round=True)
    return _next_turn(state, c, car, "kers")


CARD_PAGES = 2
"""The pages of "My cards": the deck, the damage and the trouble left; the whole row."""


def _show_cards(state: State, event) -> State:
    """The player on turn opens the pages of their cards, one after the other, then closes
    them; any action closes them."""
    _turn_car(state, event, seeing=True)
    return evolve(state, show=(state.show + 1) % (CARD_PAGES + 1))


def _next_turn(state: State, c: int, car: Car, what: str) -> State:
    """After car ``c``'s action ``what``: the next player still drawing, in turn order;
    when nobody may draw, the movement phase."""
    cars = replace_at(state.cars, c, car)
    order = state.order
    k = order.index(c)
    for j in range(1, len(order) + 1):
        nxt = order[(k + j) % len(order)]
        if cars[nxt].status == DRAWING:
            return evolve(state, cars=cars, show=0, turn=nxt, last=(c, what))
    state = evolve(state, cars=cars, show=0, last=(-1, ""))
    if state.phase == QUALIFY:
        return _qualifying_lap(state)
    return _safety_car_round(state) if state.sc else _movement(state)


# -- the movement phase ---------------------------------------------------------------

def _end_of_round_cards(car: Car) -> Car:
    """Played cards to the discard pile; one of a pair of damage cards to the damage row."""
    row, damage = car.row, car.damage
    if car.status == BUST and row[-1].get("damage"):
        damage += (row[-1],)
        row = row[:-1]
    return evolve(car, pile=Pile(car.pile.draw, car.pile.discard + row), row=(), damage=damage,
                 status=DONE, pit_back=0)


def _movement(state: State) -> State:
    s = state.settings
    yellow = signals(state, "yellow-flag") >= s.signal_cards
    safety_car = signals(state, "safety-car") >= s.signal_cards
    distances = [c.distance for c in state.cars]
    best = [c.best for c in state.cars]
    led = [c.led for c in state.cars]
    steps: list[Step] = []
    fastest = state.fastest
    laps_left, lines = state.laps_left, state.lines
    chart = list(state.chart)
    for c in state.order:
        car = state.cars[c]
        amount = planned_move(state, car)
        if not amount:
            continue
        new = circuit.move(distances, c, amount, s.spaces, yellow)
        moved = new - distances[c]
        distances[c] = new
        kind = PIT_BACK if car.status == PIT else BACK if amount < 0 else MOVE
        steps.append(Step(kind, c, moved, amount))
        if not moved:
            continue                   # boxed in behind the car ahead: the screen says so
        if kind == MOVE and moved > best[c]:
            best[c] = moved
            if moved > fastest[1]:
                fastest = (c, moved, state.round)
        crossed = circuit.lines_crossed(new, s.spaces)
        if crossed > lines:
            chart.extend([tuple(circuit.race_order(distances))] * min(laps_left, crossed - lines))
            laps_left = max(0, laps_left - (crossed - lines))
            led[c] += crossed - lines
            lines = crossed
            steps.append(Step(LAP, c, laps_left))
            if laps_left == 0:
                break
    cars = tuple(evolve(_end_of_round_cards(car), distance=d, best=b, led=n)
                 for car, d, b, n in zip(state.cars, distances, best, led))
    state = evolve(state, cars=cars, laps_left=laps_left, lines=lines, fastest=fastest, yellow=yellow,
                   chart=tuple(chart))
    if laps_left == 0:
        return _finish(state, tuple(steps))
    if safety_car:
        steps.append(Step(SC_OUT, -1, len(cars)))
        state = _close_up(evolve(state, sc=len(cars), sc_periods=state.sc_periods + 1), steps)
    return _show_steps(state, tuple(steps), ROUND_END)


def _show_steps(state: State, steps: tuple[Step, ...], after: str) -> State:
    if not steps:
        return _after_steps(evolve(state, after=after))
    return evolve(state, phase=STEPS, steps=steps, step=0, after=after, turn=-1)


def _close_up(state: State, steps: list[Step]) -> State:
    before = [c.distance for c in state.cars]
    after = circuit.close_up(before, state.settings.spaces)
    for c in circuit.race_order(after):
        if after[c] != before[c]:
            steps.append(Step(CLOSE, c, after[c] - before[c]))
    return evolve(state, cars=tuple(evolve(car, distance=d) for car, d in zip(state.cars, after)))


def _safety_car_round(state: State) -> State:
    """Under the Safety Car: pit stops go back, the cars close up, the counter goes down by
    the green cards drawn."""
    s = state.settings
    greens = sum(1 for car in state.cars for c in car.row if value(c) > 0)
    distances = [c.distance for c in state.cars]
    steps: list[Step] = []
    for c in state.order:
        car = state.cars[c]
        if car.status == PIT:
            new = circuit.move(distances, c, -car.pit_back, s.spaces)
            steps.append(Step(PIT_BACK, c, new - distances[c]))
            distances[c] = new
    cars = tuple(evolve(_end_of_round_cards(car), distance=d) for car, d in zip(state.cars, distances))
    state = _close_up(evolve(state, cars=cars), steps)
    sc = max(0, state.sc - greens)
    steps.append(Step(SC_IN if sc == 0 else SC_COUNT, -1, sc, greens))
    return _show_steps(evolve(state, sc=sc), tuple(steps), ROUND_END)


# -- qualifying -----------------------------------------------------------------------

def _qualifying_lap(state: State) -> State:
    if all(c.status == NO_LAP for c in state.cars):
        return evolve(state, phase=START, qualified=True, turn=-1)
    steps = []
    cars = []
    for i, car in enumerate(state.cars):
        if car.status != NO_LAP:
            lap = planned_move(state, car) if car.status != BUST else 0
            lap = max(0, lap)
            steps.append(Step(QLAP, i, lap))
            car = evolve(car, qual=max(car.qual, lap))
        cars.append(_end_of_round_cards(car))
    last = state.qround >= state.settings.qualifying_laps
    return _show_steps(evolve(state, cars=tuple(cars)), tuple(steps), START if last else QUALIFY)


# -- between rounds -------------------------------------------------------------------

def _next(state: State, event) -> State:
    if state.phase == STEPS:
        if state.step + 1 < len(state.steps):
            return evolve(state, step=state.step + 1)
        return _after_steps(state)
    _need_phase(state, ROUND_END)
    return _start_round(state)


def _after_steps(state: State) -> State:
    after = state.after
    state = evolve(state, steps=(), step=0)
    if after == QUALIFY:
        cars = tuple(evolve(c, status=DRAWING) for c in state.cars)
        return evolve(state, cars=cars, phase=QUALIFY, qround=state.qround + 1, turn=0, last=(-1, ""))
    if after == START:
        return evolve(state, phase=START, qualified=True, turn=-1)
    return evolve(state, phase=after, turn=-1)


def _fix(state: State, event) -> State:
    """The correction screen, between turns or at the round end; the car on turn (else
    the leader) first."""
    _need_phase(state, ROUND_END, DRAW)
    first = state.turn if state.phase == DRAW else circuit.race_order([c.distance for c in state.cars])[0]
    if state.drawn:
        raise RuleError("the card drawn is seen first")
    return evolve(state, phase=FIX, fix_from=state.phase, fix_car=first, show=0)


def _fix_car(state: State, event) -> State:
    _need_phase(state, FIX)
    order = circuit.race_order([c.distance for c in state.cars])
    return evolve(state, fix_car=order[(order.index(state.fix_car) + 1) % len(order)])


def _fix_move(state: State, event) -> State:
    _need_phase(state, FIX)
    c, by = event["car"], event["by"]
    if by not in (1, -1):
        raise RuleError(f"a correction moves a car one space, not {by!r}")
    spaces = state.settings.spaces
    taken = {x.distance % spaces for i, x in enumerate(state.cars) if i != c}
    d = state.cars[c].distance + by
    while d % spaces in taken:
        d += by
    # a corrected car's line crossings are the board's, not the race's: no lap comes off
    # for them now or later (the Laps Remaining are kept as they are)
    lines = max(state.lines, circuit.lines_crossed(d, spaces))
    return evolve(state, cars=replace_at(state.cars, c, evolve(state.cars[c], distance=d)), lines=lines)


def _fix_done(state: State, event) -> State:
    _need_phase(state, FIX)
    return evolve(state, phase=state.fix_from)


# -- the end --------------------------------------------------------------------------

def _finish(state: State, steps: tuple[Step, ...]) -> State:
    """Laps Remaining at 0: the fastest-lap bonus (advanced rule), then the results."""
    steps = list(steps) + [Step(FLAG, circuit.race_order([c.distance for c in state.cars])[0], 0)]
    if state.settings.fastest_lap:
        distances = [c.distance for c in state.cars]
        for c in circuit.race_order(distances):
            if state.cars[c].best:
                new = circuit.move(distances, c, state.cars[c].best, state.settings.spaces)
                steps.append(Step(BONUS, c, new - distances[c]))
                distances[c] = new
        state = evolve(state, cars=tuple(evolve(car, distance=d) for car, d in zip(state.cars, distances)))
    final = tuple(circuit.race_order([c.distance for c in state.cars]))   # the last lap ends as classified
    state = evolve(state, chart=state.chart[:-1] + (final,) if state.chart else (final,))
    return _show_steps(evolve(state, turn=-1), tuple(steps), OVER)


def race_standings(state: State) -> list[dict[str, Any]]:
    """The race's classification as it stands, scored with the points table: one entry per
    car, leader first, with ``position``, ``name``, ``colour`` and ``points`` (what the
    platform's championship adds up), laps down, laps led, best lap and pit stops."""
    distances = [c.distance for c in state.cars]
    order = circuit.race_order(distances)
    lead = distances[order[0]]
    fast = state.fastest[0]
    entries = [{"name": state.name(c), "colour": state.cars[c].colour,
                "laps_down": circuit.laps_down(distances[c], lead, state.settings.spaces),
                "laps_led": state.cars[c].led, "best": state.cars[c].best,
                "fastest_lap": c == fast, "pit_stops": state.cars[c].pits} for c in order]
    table = {"positions": list(state.settings.points), "bonus": dict(state.settings.bonus)}
    return scoring.standings(entries, table)


_HANDLERS = {
    "qualify": _qualify, "start": _start, "draw": _draw, "pass": _pass, "no-lap": _no_lap, "pit": _pit,
    "keep": _keep, "kers": _use_kers, "cards": _show_cards, "next": _next, "fix": _fix,
    "fix-car": _fix_car, "fix-move": _fix_move, "fix-done": _fix_done, "seen": _seen, "go": _go,
}


# -- the race as the platform sees it ---------------------------------------------------

def finished(state: State) -> bool:
    return state.phase == OVER


def standings(state: State) -> list[dict[str, Any]]:
    """The race's classification (as it stands, when a race is ended early): one session
    is one race; the platform's championship adds up the races of Top Speed."""
    return race_standings(state)


def describe(event: Mapping[str, Any]) -> str:
    """The outcome for the history: the card drawn, the shuffles."""
    kind = event.get("kind")
    if kind == "draw":
        return ", ".join(str(c.get("name")) for c in event.get("cards", ()))
    if kind == "pit":
        return f"{counted(len(event.get('order', ())), 'card')} shuffled"
    if kind in ("start", "qualify") and event.get("decks"):
        return "decks shuffled"
    return ""


def summary(state: State) -> dict[str, Any]:
    s = state.settings
    fast_car, fast_spaces, fast_round = state.fastest
    return {
        "race_type": s.race_type, "laps": s.laps, "circuit": s.circuit, "rounds": state.round,
        "safety_car_periods": state.sc_periods,
        "pit_stops": {c.name: c.pits for c in state.cars},
        "laps_led": {c.name: c.led for c in state.cars},
        "fastest_lap": None if fast_car < 0 else {"name": state.name(fast_car), "spaces": fast_spaces,
                                                  "round": fast_round},
        "lap_chart": lap_chart(state),
    }


def lap_chart(state: State) -> dict[str, Any]:
    """The race order at the end of each lap (each time the Laps Remaining went down)
    and the pit stops, by car name (``companion.charts.lap_chart_spec``)."""
    return {"laps": [[state.name(c) for c in order] for order in state.chart],
            "pits": [[state.name(c), lap] for c, lap in state.pitted]}
