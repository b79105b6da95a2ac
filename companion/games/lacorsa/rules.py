"""Lacorsa: the challenge referee, the cards left, a championship, automated racecars.

Hands are hidden: the companion cannot see a human car's cards. It runs everything around
them: the deal (the automated cars' hands are dealt on the device), qualifying (humans
enter the card they played, automated cars choose theirs; ties settled by the tie die),
who challenges whom, what a card may do, when a turn, a lap and the race end, the points.
Every played card is face up, so it keeps each car's cards left and what was played.

The deck split (docs/games/lacorsa.md): the table shuffles the suits of the human cars and
deals them among the human cars; the device holds the suits of the automated cars and
deals those among the automated cars. The cards a human may enter are the human suits'
cards not yet played by a human car.

A race goes: ``deal`` -> ``qualify`` (automated cars choose first, hidden; then each
human car enters) -> ``grid`` (the tie die for ties) -> ``start`` (the grid to set up on the board) -> ``race``: laps from the back.
The car on turn (``actor``) challenges the car directly ahead, extends into an open space
ahead, or discards. In a challenge both cars play (automated first, hidden), the higher
play wins, ties go to the car in front (or, with the option, crash both). A win swaps the
places; a second pass, a lost challenge, an extend or a discard ends the turn, and the
turn passes to the car directly ahead; after the front car's turn a new lap starts at the
back. When a car runs out of cards the lap is completed up to the leader and the race is
over. A championship runs ``races`` races in one session, standings after each.

Choices where the rulebook is silent are listed in docs/games/lacorsa.md.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Mapping

from companion.core.names import counted
from companion.core.rng import shuffled
from companion.kit import cars as kitcars
from companion.kit.errors import RuleError
from companion.kit.events import dispatch
from companion.kit.standings import standing
from companion.kit.text import label
from companion.kit.update import evolve, replace_at
from companion.games.api import CarOption, Move, Option, make_move

from companion.games.lacorsa import driver
from companion.games.lacorsa.suit import MAX_CARS, Settings, build

OPTIONS = (
    Option("players", "Players", kind="players", low=2, high=MAX_CARS, default=4),
    Option("championship", "Races", choices=((False, "One race"), (True, "Championship")), default=False),
    Option("tie_crash", "Tie crashes", choices=((False, "Off"), (True, "On")), default=False),
)
CAR_OPTIONS = (
    CarOption("driver", "Driver", choices=((kitcars.HUMAN, "Human"), (kitcars.AUTO, "Automated"))),
    CarOption("level", "Level", choices=driver.LEVELS, only_if=("driver", kitcars.AUTO)),
)

DEAL, QUALIFY, GRID, START, RACE, BETWEEN, DONE = "deal", "qualify", "grid", "start", "race", "between", "done"
ACT, PLAY, DISCARD = "act", "play", "discard"      # race stages


@dataclass(frozen=True)
class Car:
    name: str
    colour: str
    owner: int                 # the player (driver) it belongs to
    owner_name: str
    auto: bool = False
    level: str = driver.STEADY


@dataclass(frozen=True)
class Outcome:
    """Something the table must see: a fact for the screens to put in words."""
    kind: str                  # challenge | crash | extend | discard | out | skip | lap
    car: int = -1
    other: int = -1
    cards: tuple[str, ...] = ()
    other_cards: tuple[str, ...] = ()
    value: int = 0
    other_value: int = 0
    won: bool = False


@dataclass(frozen=True)
class State:
    settings: Settings
    cars: tuple[Car, ...]
    tie_crash: bool = False
    championship: bool = False
    race: int = 1
    step: str = DEAL
    hands: tuple[tuple[str, ...], ...] = ()     # per car: an automated car's secret hand
    left: tuple[int, ...] = ()                  # per car: cards left
    played: tuple[tuple[str, ...], ...] = ()    # per car: every card played this race
    plays: tuple[tuple[int, tuple[str, ...]], ...] = ()   # the plays in: qualifying or the challenge
    quali: tuple[tuple[int, tuple[str, ...]], ...] = ()   # the qualifying plays, kept
    rolls: tuple[tuple[int, tuple[int, ...]], ...] = ()   # tie die rolls per car
    grid: tuple[int, ...] = ()
    order: tuple[int, ...] = ()                 # running cars, front to back
    space: tuple[int, ...] = ()                 # per car: its space on the board
    crashed: tuple[tuple[int, ...], ...] = ()   # cars crashed together, oldest crash first
    lap: int = 0
    actor: int = -1
    defender: int = -1
    passes: int = 0
    stage: str = ""
    redline: int = -1                           # a human car choosing what goes with its R
    final: bool = False
    show: bool = False                          # the cards-left table is open
    last: tuple[Outcome, ...] = ()              # what happened since the last choice
    totals: tuple[int, ...] = ()                # championship points
    finishes: tuple[tuple[int, ...], ...] = ()  # each finished race, first to last
    chart: tuple[tuple[int, ...], ...] = ()     # this race: the running cars' order at each lap's end
    wrecked: tuple[tuple[int, int], ...] = ()   # this race: (car, lap) of every car crashed

    def name(self, car: int) -> str:
        return self.cars[car].name

    @property
    def autos(self) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.cars) if c.auto)

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.cars) if not c.auto)

    def team(self, car: int) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.cars) if c.owner == self.cars[car].owner)

    def open_ahead(self, car: int) -> bool:
        taken = {self.space[c] for c in self.order if c != car}
        return self.space[car] + 1 not in taken

    def ahead(self, car: int) -> int | None:
        i = self.order.index(car)
        return self.order[i - 1] if i > 0 else None

    def must_challenge(self, car: int) -> bool:
        """A car with a car in the space directly ahead must challenge it (rules 11 and
        15: the race starts with the last car challenging the car directly ahead, and a
        winner goes on challenging the next car directly ahead); extending and
        discarding are for a car with an open space ahead, the leader included (rules
        18 and 22)."""
        return self.ahead(car) is not None and not self.open_ahead(car)


# -- setup ----------------------------------------------------------------------------

def check_data(data: Mapping[str, Any]) -> None:
    build(data)


def setup(options: Mapping[str, Any], data: Mapping[str, Any]) -> State:
    settings = build(data)
    if isinstance(options.get("players"), int) and isinstance(options.get("cars"), list):
        # the demo's form: a count, and the per-car answers by car index
        answers = [a if isinstance(a, Mapping) else {} for a in options["cars"]]
        count = options["players"]
        if 0 <= count <= len(kitcars.COLOURS):
            options = {**options, "players": [
                {"name": c, "colour": c, **(answers[i] if i < len(answers) else {})}
                for i, c in enumerate(kitcars.colours(count))]}
    players = kitcars.entries(options, low=2, high=MAX_CARS, game="Lacorsa", default=4,
                              defaults={"driver": kitcars.HUMAN, "level": driver.STEADY})
    each = settings.cars_each(len(players))
    cars: list[Car] = []
    used = {p["colour"] for p in players}
    spare = [c for c in kitcars.COLOURS if c not in used]
    names = {p["name"].casefold() for p in players}
    for k, p in enumerate(players):
        auto = p.get("driver") == kitcars.AUTO
        level = p.get("level") if p.get("level") in dict(driver.LEVELS) else driver.STEADY
        if each == 1:
            cars.append(Car(p["name"], p["colour"], k, p["name"], auto, level))
            continue
        second = spare.pop(0)
        for n, colour in enumerate((p["colour"], second)):
            name = colour if p["name"] == p["colour"] else f"{p['name']} {n + 1}"
            if n == 1 and name.casefold() in names:
                name = f"{name} {k + 1}"
            names.add(name.casefold())
            cars.append(Car(name, colour, k, p["name"], auto, level))
    return _fresh_race(State(settings=settings, cars=tuple(cars), tie_crash=bool(options.get("tie_crash", False)),
                             championship=bool(options.get("championship", False)),
                             totals=(0,) * len(cars)), race=1)


def _fresh_race(state: State, race: int) -> State:
    n = len(state.cars)
    hand = len(state.settings.suit)
    return evolve(state, race=race, step=DEAL, hands=((),) * n, left=(hand,) * n, played=((),) * n,
                  plays=(), quali=(), rolls=(), grid=(), order=(), space=(0,) * n, crashed=(), lap=0,
                  chart=(), wrecked=(), actor=-1, defender=-1, passes=0, stage="", redline=-1, final=False, show=False, last=())


# -- what is known --------------------------------------------------------------------

def human_pool(state: State) -> Counter:
    """The cards a human car may still hold: the human suits less what humans played."""
    pool = state.settings.suit_counts(len(state.humans))
    for c in state.humans:
        pool.subtract(state.played[c])
    return +pool


def knowledge(state: State, car: int) -> driver.Knowledge:
    """What automated car ``car`` knows: its hand and the public facts, nothing more."""
    s = state.settings
    all_cards = s.suit_counts(len(state.cars))
    all_cards.subtract(state.hands[car])
    for p in state.played:
        all_cards.subtract(p)
    unseen = tuple(sorted(s.card(n).value for n, k in (+all_cards).items() for _ in range(k)))
    order = state.order or tuple(range(len(state.cars)))
    return driver.Knowledge(me=car, level=state.cars[car].level, settings=s, hand=state.hands[car],
                            unseen=unseen, left=state.left, order=order, team=state.team(car),
                            final=state.final, open_ahead=bool(state.order) and state.open_ahead(car),
                            must_challenge=state.step == RACE and car in state.order and state.must_challenge(car),
                            nerve=dict(s.nerve).get(state.cars[car].level))


def waiting(state: State) -> tuple[int, ...]:
    """The cars whose play is still to come (qualifying or the challenge)."""
    done = {c for c, _ in state.plays}
    if state.step == QUALIFY:
        return tuple(c for c in range(len(state.cars)) if c not in done)
    if state.step == RACE and state.stage == PLAY:
        return tuple(c for c in (state.actor, state.defender) if c not in done and state.left[c] > 0)
    return ()


# -- moves ----------------------------------------------------------------------------

def _table_move() -> Move:
    return make_move("table", "Cards left", history="Cards left shown")


def act_words(state: State, car: int, action: str, cards: tuple[str, ...]) -> str:
    """What a car does on its turn, as the history says it: ``challenges Red``,
    ``extends with Extend 2``, ``discards 5+8``."""
    if action == "challenge":
        ahead = state.ahead(car)
        return "challenges" if ahead is None else f"challenges {state.name(ahead)}"
    return f"{'extends with' if action == 'extend' else 'discards'} {'+'.join(cards)}"


def moves(state: State) -> list[Move]:
    if state.step == DEAL:
        autos = state.autos
        return [make_move("deal", "Deal" if autos else "Cards dealt", primary=True,
                          history=f"{counted(len(autos), 'hand')} dealt" if autos else "")]
    if state.step == GRID:
        return [make_move("grid", "Roll tie die" if ties(state) else "Set grid", primary=True, history="Grid set"),
                _table_move()]
    if state.step == START:
        return [make_move("start", "Start race", primary=True), _table_move()]
    if state.step == BETWEEN:
        return [make_move("next", "Next race", primary=True)]
    if state.step == DONE:
        return []
    if state.step == QUALIFY or state.stage == PLAY:
        return _play_moves(state)
    if state.stage == DISCARD:
        entry = _entry(state, state.actor, "act", [make_move("back", "Back", history="Back to the choice")])
        return [replace(m, history=act_words(state, state.actor, "discard", m.arg("cards"))) if m.kind == "act" else m
                for m in entry]
    # ACT
    car = state.actor
    if state.cars[car].auto:       # the driver decides from what the table sees: the history says it
        action, cards = driver.decide(knowledge(state, car))
        return [make_move("auto", label(f"{state.name(car)} drives"), primary=True,
                          history=f"{state.name(car)} {act_words(state, car, action, cards)}"), _table_move()]
    out = []
    ahead = state.ahead(car)
    if ahead is not None:
        out.append(make_move("challenge", "Challenge", player=state.name(car), car=car, primary=True,
                             history=act_words(state, car, "challenge", ())))
    if state.must_challenge(car):
        return out + [_table_move()]
    if state.open_ahead(car):
        pool = human_pool(state)
        for d in state.settings.suit:
            if d.extend and pool[d.name] and not (d.kind == "drafting-extend" and ahead is None):
                out.append(make_move("extend", label(d.name), player=state.name(car), car=car,
                                     cards=(d.name,), history=act_words(state, car, "extend", (d.name,))))
    out.append(make_move("discard-menu", "Discard", player=state.name(car), car=car, primary=not out,
                         history="chooses cards to discard"))
    return out + [_table_move()]


def _play_moves(state: State) -> list[Move]:
    pending = waiting(state)
    autos = [c for c in pending if state.cars[c].auto]
    if autos:
        return [make_move("auto", "Auto cards" if len(autos) > 1 else label(f"{state.name(autos[0])} plays"),
                          primary=True), _table_move()]
    return _entry(state, pending[0], "plays", [_table_move()])


def _ring(moves: list[Move], middle: list[Move]) -> list[Move]:
    """``moves`` (lowest card first) as the selector shows them: from the middle card,
    DOWN lowers and UP raises (wrapping round), as with every number the companion asks
    for; ``middle`` goes where the lowest and the highest meet."""
    m = len(moves) // 2
    return list(reversed(moves[:m + 1])) + middle + list(reversed(moves[m + 1:]))


def _entry(state: State, car: int, kind: str, extra: list[Move]) -> list[Move]:
    """A human car's card entry: one move per card it may hold, from the middle card; its
    Redline opens a second list (the card played with it), as the table plays R with a card.
    ``extra`` (Cards left, Back) sits between the lowest and the highest card."""
    s = state.settings
    pool = human_pool(state)
    who = state.name(car)
    red = s.redline
    plain = sorted((d for d in s.suit if pool[d.name] and not d.redline), key=lambda d: d.value)
    if state.redline == car:
        out = [make_move(kind, label(f"R + {d.name}"), player=who, car=car, cards=(red, d.name)) for d in plain]
        both = [make_move(kind, "R + R", player=who, car=car, cards=(red, red))] if pool[red] >= 2 else []
        return _ring(out, both + [make_move("back", "Back", history="Back to the cards")])
    out = [make_move(kind, label(d.name), player=who, car=car, cards=(d.name,)) for d in plain]
    reds = []
    if red and pool[red]:
        if state.left[car] >= 2 and (plain or pool[red] >= 2):
            reds.append(make_move("redline", "R + a card", player=who, car=car))
        # with no other card left, the R is the move GO plays (not Cards left, not Back)
        reds.append(make_move(kind, label(red), player=who, car=car, cards=(red,), primary=not out))
    return _ring(out, extra + reds)


# -- resolve: the only place randomness enters ----------------------------------------

def resolve(state: State, move: Move, rng) -> dict:
    kind = move.kind
    if kind == "deal":
        return {"kind": "deal", "hands": _deal(state, rng)}
    if kind == "grid":
        return {"kind": "grid", "rolls": _tie_rolls(state, rng)}
    if kind == "auto":
        return _auto(state)
    if kind == "plays":
        return {"kind": "plays", "plays": [[move.arg("car"), list(move.arg("cards"))]]}
    if kind == "act":
        return {"kind": "act", "car": move.arg("car"), "action": "discard", "cards": list(move.arg("cards"))}
    if kind == "challenge":
        return {"kind": "act", "car": move.arg("car"), "action": "challenge", "cards": []}
    if kind == "extend":
        return {"kind": "act", "car": move.arg("car"), "action": "extend", "cards": list(move.arg("cards"))}
    if kind in ("redline", "discard-menu"):
        return {"kind": kind, "car": move.arg("car")}
    return {"kind": kind}


def _deal(state: State, rng) -> list[list[str]]:
    """The automated cars' suits shuffled and dealt one card at a time round the cars."""
    autos = state.autos
    if not autos:
        return []
    cards = [d.name for d in state.settings.suit for _ in autos]
    cards = list(shuffled(cards, rng))
    return [cards[k::len(autos)] for k in range(len(autos))]


def ties(state: State) -> list[list[int]]:
    """Groups of cars that qualified with plays of the same worth (rolls not counted)."""
    worth = {c: state.settings.worth(p) for c, p in state.quali}
    groups: dict[int, list[int]] = {}
    for c, v in worth.items():
        groups.setdefault(v, []).append(c)
    return [sorted(g) for g in groups.values() if len(g) > 1]


def _tie_rolls(state: State, rng) -> list[list[Any]]:
    faces = state.settings.tie_faces
    rolls: dict[int, list[int]] = {}
    for group in ties(state):
        tied = list(group)
        for _ in range(50):
            for c in tied:
                rolls.setdefault(c, []).append(faces[rng.randrange(len(faces))])
            best = {}
            for c in tied:
                best.setdefault(tuple(rolls[c]), []).append(c)
            tied = [c for g in best.values() if len(g) > 1 for c in g]
            if not tied:
                break
    return [[c, r] for c, r in sorted(rolls.items())]


def face_down_play(state: State, car: int, k: driver.Knowledge) -> tuple[str, ...]:
    """The cards the driver lays face down for ``car`` knowing ``k``: its qualifying
    cards, or its attack or defence in the fight on now."""
    if state.step == QUALIFY:
        return driver.qualify(k)
    if car == state.actor:
        return driver.attack(k, state.defender)
    return driver.defend(k, state.actor)


def _auto(state: State) -> dict:
    if state.step == QUALIFY or (state.step == RACE and state.stage == PLAY):
        plays = [[c, list(face_down_play(state, c, knowledge(state, c)))]
                 for c in waiting(state) if state.cars[c].auto]
        return {"kind": "plays", "plays": plays, "face_down": True}
    car = state.actor
    action, cards = driver.decide(knowledge(state, car))
    return {"kind": "act", "car": car, "action": action, "cards": list(cards)}


# -- apply: pure ----------------------------------------------------------------------

def apply(state: State, event: Mapping[str, Any]) -> State:
    new = dispatch(_HANDLERS, state, event, "Lacorsa")
    if event["kind"] != "table":
        new = evolve(new, show=False)
    return new


def _expect(ok: bool, what: str) -> None:
    if not ok:
        raise RuleError(what)


def _car(state: State, value: Any) -> int:
    _expect(isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(state.cars),
            f"no car {value!r}")
    return value


def _apply_deal(state: State, e) -> State:
    _expect(state.step == DEAL, "the cards are already dealt")
    hands = e["hands"]
    autos = state.autos
    _expect(isinstance(hands, list) and len(hands) == len(autos), "the deal does not match the automated cars")
    size = len(state.settings.suit)
    dealt: Counter = Counter()
    new = list(state.hands)
    for c, h in zip(autos, hands):
        _expect(isinstance(h, list) and len(h) == size and all(state.settings.has(n) for n in h),
                "a dealt hand is not of this deck")
        dealt.update(h)
        new[c] = tuple(h)
    _expect(dealt == state.settings.suit_counts(len(autos)), "the dealt hands are not the automated cars' suits")
    return evolve(state, step=QUALIFY, hands=tuple(new), last=())


def _check_play(state: State, car: int, cards: Any) -> tuple[str, ...]:
    s = state.settings
    _expect(isinstance(cards, (list, tuple)) and 1 <= len(cards) <= 2 and all(s.has(n) for n in cards),
            "a play is one card, or two with a Redline")
    cards = tuple(cards)
    if len(cards) == 2:
        _expect(any(s.card(n).redline for n in cards), "two cards only with a Redline")
    _expect(len(cards) <= state.left[car], f"{state.name(car)} has {state.left[car]} cards left")
    need = Counter(cards)
    if state.cars[car].auto:
        have = Counter(state.hands[car])
    else:
        have = human_pool(state)
    _expect(all(have[n] >= k for n, k in need.items()), f"{state.name(car)} cannot hold {', '.join(cards)}")
    return cards


def _spend(state: State, car: int, cards: tuple[str, ...]) -> State:
    hands = state.hands
    if state.cars[car].auto:
        hand = list(hands[car])
        for n in cards:
            hand.remove(n)
        hands = replace_at(hands, car, tuple(hand))
    left = replace_at(state.left, car, state.left[car] - len(cards))
    played = replace_at(state.played, car, state.played[car] + cards)
    return evolve(state, hands=hands, left=left, played=played, final=state.final or left[car] == 0)


def _apply_plays(state: State, e) -> State:
    plays = e["plays"]
    _expect(isinstance(plays, list) and plays, "no cards played")
    last = state.last
    for entry in plays:
        car = _car(state, entry[0])
        _expect(car in waiting(state), f"{state.name(car)} does not play now")
        cards = _check_play(state, car, entry[1])
        state = _spend(state, car, cards)
        state = evolve(state, plays=state.plays + ((car, cards),), redline=-1, last=last)
    if waiting(state):
        return state
    if state.step == QUALIFY:
        return evolve(state, step=GRID, quali=state.plays, plays=())
    return _settle(state)


def _apply_grid(state: State, e) -> State:
    _expect(state.step == GRID, "qualifying is not over")
    rolls = {}
    for c, r in e["rolls"]:
        rolls[_car(state, c)] = tuple(int(x) for x in r)
    tied = {c for g in ties(state) for c in g}
    _expect(set(rolls) == tied, "tie die rolls for the wrong cars")
    worth = {c: state.settings.worth(p) for c, p in state.quali}
    grid = tuple(sorted(worth, key=lambda c: (-worth[c], tuple(-x for x in rolls.get(c, ())), c)))
    for g in ties(state):
        _expect(len({rolls[c] for c in g}) == len(g), "the tie die left a tie")
    n = len(grid)
    space = [0] * len(state.cars)
    for i, c in enumerate(grid):
        space[c] = n - 1 - i
    return evolve(state, step=START, rolls=tuple(sorted(rolls.items())), grid=grid, order=grid,
                  space=tuple(space), lap=0, passes=0, last=())


def _apply_start(state: State, e) -> State:
    _expect(state.step == START, "the grid is not set")
    state = evolve(state, step=RACE, lap=1, last=(Outcome("lap", value=1),))
    return _turn_from(state, len(state.order) - 1, state.order)


def _turn_from(state: State, index: int, order: tuple[int, ...]) -> State:
    """The turn of the car at ``index`` of ``order`` (-1: the lap is over), passing over
    cars without cards; after the front car a new lap starts, or the race ends."""
    while True:
        if len(state.order) < 2:
            return _race_over(state)
        if index < 0:
            if state.final:
                return _race_over(state)
            state = evolve(state, lap=state.lap + 1, last=state.last + (Outcome("lap", value=state.lap + 1),),
                           chart=state.chart + (state.order,))
            order = state.order
            index = len(order) - 1
        car = order[index]
        if car in state.order and state.left[car] > 0:
            return evolve(state, actor=car, defender=-1, passes=0, stage=ACT, plays=(), redline=-1)
        if car in state.order:
            state = evolve(state, last=state.last + (Outcome("skip", car),))
        index -= 1


def _end_turn(state: State, car: int) -> State:
    return _turn_from(state, state.order.index(car) - 1, state.order)


def _apply_act(state: State, e) -> State:
    _expect(state.step == RACE and state.stage in (ACT, DISCARD), "no car is choosing now")
    car = _car(state, e["car"])
    _expect(car == state.actor, f"it is not {state.name(car)}'s turn")
    action = e["action"]
    state = evolve(state, last=(), redline=-1)
    if action == "challenge":
        ahead = state.ahead(car)
        _expect(ahead is not None and state.passes < 2, "no car to challenge")
        return evolve(state, stage=PLAY, defender=ahead, plays=())
    if state.must_challenge(car):
        raise RuleError(f"{state.name(car)} must challenge {state.name(state.ahead(car))}, directly ahead")
    cards = _check_play(state, car, e["cards"])
    if action == "extend":
        d = state.settings.card(cards[0])
        _expect(len(cards) == 1 and d.extend, "extend with one Extend card")
        _expect(state.open_ahead(car), "no open space ahead")
        _expect(not (d.kind == "drafting-extend" and state.order[0] == car),
                "the leader cannot extend with the Drafting card")
        state = _spend(state, car, cards)
        state = evolve(state, space=replace_at(state.space, car, state.space[car] + 1),
                       last=(Outcome("extend", car, cards=cards),) + _ran_out(state, (car,)))
        return _end_turn(state, car)
    _expect(action == "discard", f"unknown action {action!r}")
    _expect(len(cards) == 1 or any(state.settings.card(n).redline for n in cards), "discard two only with a Redline")
    state = _spend(state, car, cards)
    return _end_turn(evolve(state, last=(Outcome("discard", car, cards=cards),) + _ran_out(state, (car,))), car)


def _ran_out(state: State, cars) -> tuple[Outcome, ...]:
    """The cars that have just played their last card: the final lap is on."""
    return tuple(Outcome("out", c) for c in cars if state.left[c] == 0)


def _settle(state: State) -> State:
    """Both cards are in: the higher play wins, ties go to the car in front."""
    a, d = state.actor, state.defender
    played = dict(state.plays)
    a_cards, d_cards = played.get(a, ()), played.get(d, ())
    s = state.settings
    av, dv = s.worth(a_cards), s.worth(d_cards)
    won = av > dv
    kind = "crash" if (av == dv and state.tie_crash) else "challenge"
    out = Outcome(kind, a, d, a_cards, d_cards, av, dv, won)
    newly = [c for c in (a, d) if played.get(c)]
    state = evolve(state, plays=(), last=state.last + (out,) + _ran_out(state, newly))
    if kind == "crash":
        i = state.order.index(d)
        order = tuple(c for c in state.order if c not in (a, d))
        state = evolve(state, order=order, crashed=state.crashed + ((d, a),),
                       wrecked=state.wrecked + ((d, state.lap), (a, state.lap)))
        following = state.order[:i]     # cars ahead of the crash keep their places
        return _turn_from(state, len(following) - 1, order)
    if not won:
        return _end_turn(state, a)
    i = state.order.index(a)
    order = replace_at(replace_at(state.order, i, d), i - 1, a)
    space = replace_at(replace_at(state.space, a, state.space[d]), d, state.space[a])
    state = evolve(state, order=order, space=space, passes=state.passes + 1, defender=-1)
    if state.left[a] == 0 or state.passes >= 2:
        return _end_turn(state, a)
    return evolve(state, stage=ACT)


def _race_over(state: State) -> State:
    finish = final_order(state)
    points = state.settings.points
    totals = tuple(t + (points[finish.index(c)] if finish.index(c) < len(points) else 0)
                   for c, t in enumerate(state.totals))
    more = state.championship and state.race < state.settings.races
    if state.lap > len(state.chart):    # the last lap, completed up to the leader
        state = evolve(state, chart=state.chart + (state.order,))
    return evolve(state, step=BETWEEN if more else DONE, totals=totals, finishes=state.finishes + (finish,),
                  actor=-1, defender=-1, stage="", plays=(), redline=-1)


def _apply_next(state: State, e) -> State:
    _expect(state.step == BETWEEN, "the championship is not between races")
    return _fresh_race(state, state.race + 1)


def _apply_redline(state: State, e) -> State:
    car = _car(state, e["car"])
    red = state.settings.redline
    _expect(red is not None and human_pool(state)[red] > 0 and not state.cars[car].auto, "no Redline to play")
    if state.step == RACE and state.stage in (ACT, DISCARD):
        _expect(car == state.actor and state.stage == DISCARD, "a Redline goes with a discard here")
    else:
        _expect(car in waiting(state), f"{state.name(car)} does not play now")
    return evolve(state, redline=car)


def _apply_discard_menu(state: State, e) -> State:
    car = _car(state, e["car"])
    _expect(state.step == RACE and state.stage == ACT and car == state.actor and not state.cars[car].auto
            and not state.must_challenge(car), "no discard now")
    return evolve(state, stage=DISCARD)


def _apply_back(state: State, e) -> State:
    if state.redline >= 0:
        return evolve(state, redline=-1)
    _expect(state.step == RACE and state.stage == DISCARD, "nothing to go back from")
    return evolve(state, stage=ACT)


def _apply_table(state: State, e) -> State:
    _expect(state.step in (QUALIFY, GRID, START, RACE), "no race on")
    return evolve(state, show=not state.show)


_HANDLERS = {
    "deal": _apply_deal, "plays": _apply_plays, "grid": _apply_grid, "start": _apply_start, "act": _apply_act, "next": _apply_next,
    "redline": _apply_redline, "discard-menu": _apply_discard_menu, "back": _apply_back, "table": _apply_table,
}


# -- results --------------------------------------------------------------------------

def finished(state: State) -> bool:
    return state.step == DONE


def final_order(state: State) -> tuple[int, ...]:
    """Running cars in race order, then the crashed ones (the latest crash first)."""
    order = state.order or state.grid or tuple(range(len(state.cars)))
    crashed = tuple(c for group in reversed(state.crashed) for c in group)
    return tuple(order) + crashed


def race_points(state: State, finish: tuple[int, ...]) -> dict[int, int]:
    pts = state.settings.points
    return {c: (pts[i] if i < len(pts) else 0) for i, c in enumerate(finish)}


def standings(state: State) -> list[dict]:
    if state.championship:
        return championship_table(state)
    finish = state.finishes[-1] if state.finishes else final_order(state)
    pts = race_points(state, finish)
    return [standing(i + 1, state.name(c), pts[c], **_extra(state, c)) for i, c in enumerate(finish)]


def championship_table(state: State) -> list[dict]:
    """The championship so far, ranked as every championship on the device is
    (``core.scoring.championship``): points, then more wins, more second places..., then
    the better place in the latest race (before the first finish: the race order). Each
    row carries its place in every race (``races``) and, for the championship print, its
    ``season``: place and points in each race (``core.scoring.session_races``)."""
    from companion.core.scoring import championship

    scored = [race_points(state, f) for f in state.finishes]
    if state.finishes:
        table = championship([[{"name": str(c), "points": pts[c]} for c in f]
                              for f, pts in zip(state.finishes, scored)])
        ranked = [int(row["name"]) for row in table]
    else:
        ranked = list(final_order(state))
    return [standing(i + 1, state.name(c), state.totals[c],
                     races=[f.index(c) + 1 for f in state.finishes],
                     season=[{"position": f.index(c) + 1, "points": pts[c]} for f, pts in zip(state.finishes, scored)],
                     **_extra(state, c))
            for i, c in enumerate(ranked)]


def _extra(state: State, c: int) -> dict:
    car = state.cars[c]
    crashed = any(c in g for g in state.crashed)
    return {"colour": car.colour, "driver": kitcars.AUTO if car.auto else kitcars.HUMAN,
            "player": car.owner_name, "start": state.grid.index(c) + 1 if c in state.grid else None,
            "cards_left": state.left[c], "crashed": crashed}


def summary(state: State) -> dict:
    return {
        "race_type": _race_type(state),
        "championship": {"on": state.championship, "races": state.settings.races if state.championship else 1,
                         "finished": len(state.finishes),
                         "results": [[state.name(c) for c in f] for f in state.finishes]},
        "deal": {"table_suits": len(state.humans), "device_suits": len(state.autos)},
        "qualifying": [{"name": state.name(c), "cards": list(p), "worth": state.settings.worth(p),
                        "tie_rolls": list(dict(state.rolls).get(c, ()))} for c, p in state.quali],
        "rules": {"tie_crash": state.tie_crash},
        "points_assumption": state.settings.points_note,
        "laps": state.lap,
        "lap_chart": lap_chart(state),
    }


def lap_chart(state: State) -> dict:
    """The latest race's running order at the end of each lap and the cars that crashed
    (``companion.charts.lap_chart_spec``)."""
    return {"laps": [[state.name(c) for c in order] for order in state.chart],
            "out": [[state.name(c), lap] for c, lap in state.wrecked]}


def _race_type(state: State) -> str:
    players = len({c.owner for c in state.cars})
    each = state.settings.cars_each(players)
    return f"{counted(players, 'player')}, {counted(each, 'car')} each"


def describe(event: Mapping[str, Any]) -> str:
    kind = event.get("kind")
    if kind == "plays":
        return "face down"      # every play is; the history never names an automated car's card
    if kind == "grid":       # a car's turn ("act") and the deal are said by their moves
        rolls = event.get("rolls")
        return f"{counted(len(rolls), 'car')} rolled the tie die" if isinstance(rolls, list) and rolls else "no ties"
    return ""
