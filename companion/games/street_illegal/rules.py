"""Street Illegal: track cards, the phase conductor and the Old Pro automaton.

Players keep their own tempo cards and chips. The companion draws eight track cards,
seats the field (by age, or by the Tactical Starting Positions bidding), then walks the
table through the three phases of every track card:

1. front to back, each player does what the situation says (replace a tempo card,
   2 chips per matching icon);
2. front to back, each player drives; over the limit they pay chips or brake;
3. from the back, the companion says who attacks whom, plays the Old Pros with their own
   tempo deck, and enforces the passing rules.

After the last track card the positions score 15, 11, 8, 6, 4, 2, 1; the Old Pros score
as one team with their best position. One session is one race; races add up to a
championship (see :func:`championship`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from companion.core.deck import Card, Draw, Pile, apply_draw, discard, draw_plan, new_pile, reorder, shuffle_order
from companion.core.config import ConfigError
from companion.core.rng import shuffled
from companion.kit import cars as kit_cars
from companion.kit.errors import RuleError
from companion.kit.events import dispatch
from companion.kit.standings import ordinal, standing
from companion.kit.text import fit, first_fitting, label
from companion.kit.update import bump
from companion.games.api import Move, Option, make_move
from companion.profile import BODY_LINES, LABEL_CHARS

from companion.games.street_illegal import old_pro
from companion.games.street_illegal.track import RACE_LENGTH, SOURCE, TrackCard, load_track, race_points, tempo_cards

FIELD = 7                     # cars in every race: players, the rest Old Pros
HAND = 5                      # tempo cards in hand (the most chips a player may pay)
FACE_UP = 3                   # face-up tempo cards: a speed is their sum
TEAM = "Old Pros"

OPTIONS = (
    Option("players", "Players", kind="players", low=1, high=FIELD, default=3),
    Option("grid", "Start grid", choices=(("age", "By age"), ("tactical", "Tactical bids")), default="age"),
    Option("better_old_pros", "Better Old Pros", choices=((False, "Off"), (True, "On")), default=False),
    Option("nitrous", "Nitrous Oxide", choices=((False, "Off"), (True, "On")), default=False),
    Option("track", "Track cards", choices=(("draw", "Companion draw"), ("hand", "Enter by hand")), default="draw"),
)
TRACK_MODES = ("draw", "hand")
"""The 8 track cards: drawn by the companion, or drawn by the table and entered by hand."""

# the steps of a race: start -> (enter: the track by hand) -> track (the 8 cards shown)
# -> grid -> lineup (the starting grid shown) -> race -> done
REVIEWS = ("track", "lineup")
"""Steps that show what was decided until the table presses GO."""

# phase 2 (and the drive before a second pass): what the player did about the limit
WITHIN, PAID, BRAKE, DRIVEN = "within", "paid", "brake", "driven"
DRIVE_LABELS = {WITHIN: label("Within limit"), PAID: label("Paid chips"),
                BRAKE: first_fitting("Emergency brake", "Brake: -1 card", limit=LABEL_CHARS), DRIVEN: label("Done")}
DRIVE_WORDS = {WITHIN: "within the limit", PAID: "paid chips", BRAKE: "emergency brake: -1 card", DRIVEN: "done driving"}
"""What the player did about the limit, as the history says it."""




@dataclass(frozen=True)
class Car:
    name: str
    old_pro: bool = False
    colour: str = ""


@dataclass(frozen=True)
class Duel:
    """A pass attempt in phase 3: ``attacker`` tries to pass ``defender`` (car ids)."""
    attacker: int
    defender: int
    op_cards: tuple[Card, ...] = ()       # turned for the Old Pro
    speed: int | None = None              # the player's speed against the Old Pro
    tie: bool = False                     # players tied: nitrous cards wanted
    raised: tuple[tuple[int, int], ...] = ()   # (car, tempo card raised; 0 = none)
    winner: int | None = None


@dataclass(frozen=True)
class State:
    cars: tuple[Car, ...]                 # players first (setup order), then Old Pro 1..k
    grid_mode: str
    better: bool
    nitrous: bool
    points: tuple[int, ...]
    deck: tuple[TrackCard, ...]           # every track card of the data
    tempo: tuple[Card, ...]               # the Old Pros' tempo deck, unshuffled
    values: tuple[int, ...]               # the tempo cards' values, lowest first
    step: str = "start"                   # start | enter | track | grid | lineup | race | done
    track_mode: str = "draw"              # "draw": the companion draws; "hand": entered
    page: int = 0                         # track / lineup: the page of the review shown
    track: tuple[int, ...] = ()           # the race's track cards (indices into deck)
    card: int = 0                         # current track card (0-based)
    phase: int = 1
    seated: tuple[int, ...] = ()          # grid: players seated, from the back
    bidders: tuple[int, ...] = ()         # tactical bidding: who bids for this position
    bids: tuple[tuple[int, int], ...] = ()
    last_bids: tuple[tuple[int, int], ...] = ()
    grid: tuple[int, ...] = ()            # the starting grid, front to back
    order: tuple[int, ...] = ()           # car ids, front to back
    turn: int = 0                         # phases 1-2: index into the players, front to back
    actor: int | None = None              # phase 3: whose turn it is
    stage: str = ""                       # phase 3: attack | speed | nitrous | after | redrive
    duel: Duel | None = None
    again: bool = False                   # phase 3: the actor already passed this turn
    out: tuple[int, ...] = ()             # phase 3: cars done for this phase
    pile: Pile = Pile()                   # the Old Pros' tempo deck in play
    hand: tuple[int, ...] = ()            # per car: tempo cards in hand
    won: tuple[int, ...] = ()             # per car: duels won
    lost: tuple[int, ...] = ()            # per car: duels lost
    brakes: tuple[int, ...] = ()          # per car: emergency brakes

    # -- reading the state ------------------------------------------------------------

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.cars) if not c.old_pro)

    @property
    def track_card(self) -> TrackCard | None:
        return self.deck[self.track[self.card]] if self.track else None

    @property
    def limit(self) -> int | None:
        card = self.track_card
        return card.limit if card else None

    def name(self, car: int) -> str:
        return self.cars[car].name

    def position(self, car: int) -> int:
        return self.order.index(car) + 1

    def in_order_players(self) -> tuple[int, ...]:
        """The players, front to back (phases 1 and 2)."""
        return tuple(c for c in self.order if not self.cars[c].old_pro)

    @property
    def current_player(self) -> int | None:
        """Whose turn it is in phase 1 or 2, or who is bidding."""
        if self.step == "race" and self.phase in (1, 2):
            return self.in_order_players()[self.turn]
        if self.step == "grid" and self.grid_mode == "tactical":
            entered = {c for c, _ in self.bids}
            return next(c for c in self.bidders if c not in entered)
        return None

    @property
    def unseated(self) -> tuple[int, ...]:
        return tuple(c for c in self.players if c not in self.seated)


# -- setup --------------------------------------------------------------------------

def setup(options: Mapping[str, Any], data: Mapping[str, Any]) -> State:
    players = _players(options)
    deck = load_track(data)
    tempo = tempo_cards(data)
    cars = tuple(Car(p["name"], False, p.get("colour", "")) for p in players)
    pros = old_pro.colours((c.colour for c in cars), FIELD - len(players))
    cars += tuple(Car(f"Old Pro {k}", True, colour) for k, colour in enumerate(pros, start=1))
    grid = options.get("grid", "age")
    if grid not in ("age", "tactical"):
        raise ConfigError(SOURCE, "grid", f"unknown start grid {grid!r}", 'use "age" or "tactical"')
    track_mode = options.get("track", "draw")
    if track_mode not in TRACK_MODES:
        raise RuleError(f"Street Illegal: unknown track option {track_mode!r}; use \"draw\" or \"hand\"")
    zero = (0,) * len(cars)
    return State(cars=cars, grid_mode=grid, track_mode=track_mode, better=bool(options.get("better_old_pros", False)),
                 nitrous=bool(options.get("nitrous", False)), points=race_points(data), deck=deck,
                 tempo=tuple(tempo), values=tuple(sorted({old_pro.value(c) for c in tempo})), hand=(HAND,) * len(cars), won=zero, lost=zero, brakes=zero)


def _players(options: Mapping[str, Any]) -> list[dict]:
    """The players' cars (kit.cars.entries): 1 to 7, each named, none called as the Old
    Pros are."""
    return kit_cars.entries(options, low=1, high=FIELD, game="Street Illegal", default=1,
                            reserved=(TEAM, *(f"Old Pro {k}" for k in range(1, FIELD + 1))))


# -- moves --------------------------------------------------------------------------

def moves(state: State) -> list[Move]:
    if state.step == "start":
        if state.track_mode == "hand":
            return [make_move("start", label("Enter track"), primary=True)]
        return [make_move("start", label("Draw track"), primary=True)]
    if state.step == "enter":
        return _pick_moves(state)
    if state.step in REVIEWS:
        go = label("To the grid") if state.step == "track" else label("Start race")
        return [make_move("go", go, primary=True)]     # a long list is read with the platform's gesture
    if state.step == "grid":
        return _grid_moves(state)
    if state.step == "race":
        if state.phase == 1:
            # phase 1 records nothing: one press for the whole table, or one per player
            who = state.name(state.current_player)
            return [make_move("all_done", label("All done"), primary=True),
                    make_move("drive", label(f"{who} done"), player=who, choice=DRIVEN)]
        if state.phase == 2:
            return _drive_moves(state, state.current_player)
        return _passing_moves(state)
    return []


def card_label(card: TrackCard) -> str:
    """A track card as a move label: "70 Obst. left", "NL Uphill" (NL: no limit)."""
    limit = str(card.limit) if card.limit else "NL"
    word = card.situation.label.split()[-1].capitalize()
    return first_fitting(f"{limit} {card.situation.label}", f"{limit} {card.situation.short}", f"{limit} {word}",
                         limit=LABEL_CHARS)


def _pick_moves(state: State) -> list[Move]:
    """The next track card the table drew, among the cards left (identical cards once)."""
    out, seen = [], set()
    for i, card in enumerate(state.deck):
        if i in state.track or (card.limit, card.situation.id) in seen:
            continue
        seen.add((card.limit, card.situation.id))
        out.append(make_move("pick", card_label(card), card=i, primary=not out,
                             history=f"Track card {len(state.track) + 1}: {card.limit or 'no limit'} {card.situation.label}"))
    return out


REVIEW_LINES = BODY_LINES
"""Lines of a review page (the body under the title)."""


def review_pages(state: State) -> int:
    """Pages of the review step: the 8 track cards take two; the grid one."""
    if state.step == "track":
        return -(-len(state.track) // REVIEW_LINES)
    return 1


def _grid_moves(state: State) -> list[Move]:
    if state.grid_mode == "age":
        place = ordinal(FIELD - len(state.seated))      # the youngest starts last
        return [make_move("seat", label(state.name(c)), player=state.name(c), car=c, history=f"starts {place}")
                for c in state.unseated]
    car = state.current_player
    offered = bid_offered(state, car)
    return [make_move("bid", label(f"Card {v}"), player=state.name(car), car=car, card=v, history=f"tempo card {v}",
                      primary=v == offered) for v in state.values]


def bid_offered(state: State, car: int) -> int:
    """The card a bidder's footer starts on: each bidder of a round on another card, so
    GO alone never ties (the players still choose theirs with UP/DOWN)."""
    at = state.bidders.index(car) if car in state.bidders else 0
    return state.values[(len(state.values) - 1 - at) % len(state.values)]


def _drive_moves(state: State, car: int, kind: str = "drive") -> list[Move]:
    who = state.name(car)
    if state.limit is None:
        return [make_move(kind, DRIVE_LABELS[DRIVEN], player=who, choice=DRIVEN, primary=True, history=DRIVE_WORDS[DRIVEN])]
    return [make_move(kind, DRIVE_LABELS[c], player=who, choice=c, primary=(c == WITHIN), history=DRIVE_WORDS[c])
            for c in (WITHIN, PAID, BRAKE)]


def _passing_moves(state: State) -> list[Move]:
    duel = state.duel
    if state.stage == "redrive":   # or back out: the phase is over for this car
        return _drive_moves(state, state.actor, "redrive") + [
            make_move("stop", label("No 2nd pass"), player=state.name(state.actor))]
    if state.stage == "after":
        if may_pass_again(state):
            return [make_move("again", label("Attack again"), player=state.name(state.actor), history="attacks again"),
                    make_move("stop", label("Stop"), primary=True, history=f"{state.name(state.actor)} stops attacking")]
        return [make_move("stop", label("Next"), primary=True, history="Result seen")]
    a, d = duel.attacker, duel.defender
    if state.stage == "speed":
        return _speed_moves(state, duel_player(state))
    if state.stage == "nitrous":
        car = nitrous_car(state)
        return ([make_move("raise", label("No card"), player=state.name(car), car=car, card=0, history="no nitrous card")] +
                [make_move("raise", label(f"Card {v}"), player=state.name(car), car=car, card=v,
                           history=f"nitrous card {v}") for v in state.values])
    # stage "attack"
    out: list[Move] = []
    if duel_old_pro(state) is not None:
        out.append(make_move("old_pro", label("Old Pro cards"), primary=True))
    else:
        out += [make_move("winner", _wins(state.name(c)), car=c) for c in (a, d)]
        if state.nitrous:
            out.append(make_move("tie", label("Tie: nitrous")))
    if not state.cars[a].old_pro and not state.again:
        out.append(make_move("pass_up", label("No attack"), player=state.name(a)))
    return out


def speed_range(state: State, car: int) -> tuple[int, ...]:
    """The speeds a player may show: three tempo cards plus up to one chip per card in hand."""
    low = FACE_UP * state.values[0]
    high = FACE_UP * state.values[-1] + 10 * state.hand[car]
    return tuple(range(low, high + 1, 10))


def _speed_moves(state: State, car: int) -> list[Move]:
    """Speeds from the likeliest one (the limit) downwards, wrapping round: DOWN lowers,
    UP raises, as with every number the companion asks for."""
    speeds = speed_range(state, car)
    likely = state.limit or 120
    i = max((k for k, v in enumerate(speeds) if v <= likely), default=0)
    ring = list(reversed(speeds[: i + 1])) + list(reversed(speeds[i + 1:]))
    return [make_move("speed", first_fitting(f"Real speed {v}", f"Speed {v}", limit=LABEL_CHARS), player=state.name(car),
                      car=car, speed=v) for v in ring]


def _wins(name: str) -> str:
    """"Purple wins", the name shortened so that the label keeps "wins"."""
    return f"{fit(name, LABEL_CHARS - len(' wins'))} wins"


# -- the duel's roles, decided here once (the screens read them) ------------------------

def duel_old_pro(state: State) -> int | None:
    """The Old Pro in the current duel (attacking or defending), or None."""
    duel = state.duel
    if duel is None:
        return None
    return next((c for c in (duel.defender, duel.attacker) if state.cars[c].old_pro), None)


def duel_player(state: State) -> int | None:
    """The player facing the Old Pro in the current duel (who sets a speed), or None."""
    op = duel_old_pro(state)
    if op is None:
        return None
    duel = state.duel
    return duel.defender if op == duel.attacker else duel.attacker


def nitrous_car(state: State) -> int | None:
    """Whose nitrous card is entered next in a tie between players (the attacker's first)."""
    duel = state.duel
    if duel is None or state.stage != "nitrous":
        return None
    return duel.attacker if not duel.raised else duel.defender


def duel_loser(state: State) -> int | None:
    """The car that lost the decided duel (out for the phase), or None."""
    duel = state.duel
    if duel is None or duel.winner is None:
        return None
    return duel.defender if duel.winner == duel.attacker else duel.attacker


def may_pass_again(state: State) -> bool:
    """Whether the car that just passed may attack again (a player, not yet in front)."""
    duel = state.duel
    return (state.stage == "after" and duel is not None and duel.winner == duel.attacker
            and not state.cars[duel.attacker].old_pro and state.order.index(duel.attacker) > 0)


# -- resolve: the only place randomness enters ----------------------------------------

def resolve(state: State, move: Move, rng) -> dict:
    kind = move.kind
    if kind == "start":
        idx = shuffled(range(len(state.deck)), rng)[:RACE_LENGTH] if state.track_mode == "draw" else []
        return {"kind": "start", "track": list(idx), "op_order": list(shuffle_order(len(state.tempo), rng))}
    if kind == "old_pro":
        return {"kind": "old_pro", **draw_plan(state.pile, old_pro.FIRST_CARDS, rng).to_json()}
    if kind == "speed":
        event = {"kind": "speed", "car": move.arg("car"), "speed": move.arg("speed"), "third": None}
        if old_pro.needs_third(state.duel.op_cards, state.limit, state.better):
            event["third"] = draw_plan(state.pile, 1, rng).to_json()
        return event
    event: dict[str, Any] = {"kind": kind}
    for key, value in move.args:
        event[key] = list(value) if isinstance(value, tuple) else value
    if move.player is not None and "car" not in event and kind in ("drive", "redrive", "pass_up", "again"):
        event["car"] = _car_named(state, move.player)
    return event


def _car_named(state: State, name: str) -> int:
    for i, car in enumerate(state.cars):
        if car.name == name:
            return i
    raise RuleError(f"no car named {name!r}")


# -- apply: pure ----------------------------------------------------------------------

def apply(state: State, event: Mapping[str, Any]) -> State:
    return dispatch(_HANDLERS, state, event, "Street Illegal")


def _expect(ok: bool, what: str) -> None:
    if not ok:
        raise RuleError(what)


def _apply_start(state: State, e) -> State:
    _expect(state.step == "start", "the race has already started")
    track = tuple(int(i) for i in e["track"])
    pile = new_pile(reorder(state.tempo, e["op_order"]))
    if not track:       # the table draws the track cards and enters them
        _expect(state.track_mode == "hand", "bad track draw")
        return replace(state, step="enter", pile=pile)
    _expect(len(track) == RACE_LENGTH and len(set(track)) == RACE_LENGTH
            and all(0 <= i < len(state.deck) for i in track), "bad track draw")
    return replace(state, step="track", track=track, pile=pile, page=0)


def _apply_pick(state: State, e) -> State:
    card = int(e["card"])
    _expect(state.step == "enter" and 0 <= card < len(state.deck) and card not in state.track,
            "not a track card left to enter")
    track = state.track + (card,)
    return replace(state, track=track, step="track" if len(track) == RACE_LENGTH else "enter", page=0)


def _apply_page(state: State, e) -> State:
    """A page of the track review, as journals kept before the review became one list
    hold it (the list is now read with OK held, the platform's gesture): applied so they
    replay, and nothing is shown differently."""
    _expect(state.step in REVIEWS, "nothing to page through")
    return replace(state, page=int(e["page"]) % review_pages(state))


def _apply_go(state: State, e) -> State:
    _expect(state.step in REVIEWS, "nothing to confirm")
    if state.step == "track":
        return _seat_rest(replace(state, step="grid", page=0, bidders=state.players))
    return replace(state, step="race", page=0)


def _apply_all_done(state: State, e) -> State:
    _expect(state.step == "race" and state.phase == 1, "not phase 1")
    return replace(state, phase=2, turn=0)


def _apply_seat(state: State, e) -> State:
    car = int(e["car"])
    _expect(state.step == "grid" and state.grid_mode == "age" and car in state.unseated, "not a player to seat")
    return _seat_rest(replace(state, seated=state.seated + (car,)))


def _apply_bid(state: State, e) -> State:
    car, value = int(e["car"]), int(e["card"])
    _expect(state.step == "grid" and state.grid_mode == "tactical" and car == state.current_player,
            "not this player's bid")
    bids = state.bids + ((car, value),)
    if len(bids) < len(state.bidders):
        return replace(state, bids=bids)
    low = min(v for _, v in bids)
    slowest = tuple(c for c, v in bids if v == low)
    if len(slowest) > 1:   # the tied players alone bid again for this position
        return replace(state, bids=(), bidders=slowest, last_bids=bids)
    seated = state.seated + slowest
    rest = tuple(c for c in state.players if c not in seated)
    return _seat_rest(replace(state, seated=seated, bids=(), last_bids=bids, bidders=rest))


def _seat_rest(state: State) -> State:
    """The last player without a position takes the next one; with everyone seated the
    Old Pros fill the front and the race starts."""
    if len(state.unseated) == 1:
        state = replace(state, seated=state.seated + state.unseated, bidders=())
    if state.unseated:
        return state
    old_pros = tuple(i for i, c in enumerate(state.cars) if c.old_pro)
    order = old_pros + tuple(reversed(state.seated))
    return replace(state, step="lineup", page=0, grid=order, order=order, card=0, phase=1, turn=0)


def _apply_drive(state: State, e) -> State:
    car = int(e["car"])
    _expect(state.step == "race" and state.phase in (1, 2) and car == state.current_player, "not this player's turn")
    state = _braked(state, car, e.get("choice"))
    if state.turn + 1 < len(state.in_order_players()):
        return replace(state, turn=state.turn + 1)
    if state.phase == 1:
        return replace(state, phase=2, turn=0)
    return _start_passing(state)


def _braked(state: State, car: int, choice) -> State:
    if choice != BRAKE:
        return state
    return replace(state, hand=bump(state.hand, car, -1, floor=0), brakes=bump(state.brakes, car, 1))


def _start_passing(state: State) -> State:
    state = replace(state, phase=3, out=(), again=False, duel=None, stage="", actor=None)
    return _next_turn(state, len(state.order) - 1)


def _next_turn(state: State, index: int) -> State:
    """The next car that can attack, walking to the front from ``index``: Old Pros never
    attack Old Pros; a car that is out for the phase does nothing. None left: the next
    track card (or the finish)."""
    for i in range(index, 0, -1):
        car, front = state.order[i], state.order[i - 1]
        if car in state.out or (state.cars[car].old_pro and state.cars[front].old_pro):
            continue
        return replace(state, actor=car, stage="attack", again=False, duel=Duel(car, front))
    state = replace(state, actor=None, stage="", duel=None, again=False)
    if state.card + 1 < len(state.track):
        return replace(state, card=state.card + 1, phase=1, turn=0, out=())
    return replace(state, step="done")


def _end_turn(state: State) -> State:
    return _next_turn(state, state.order.index(state.actor) - 1)


def _in_duel(state: State, stage: str) -> Duel:
    _expect(state.step == "race" and state.phase == 3 and state.stage == stage and state.duel is not None,
            f"no duel waiting for '{stage}'")
    return state.duel


def _apply_pass_up(state: State, e) -> State:
    duel = _in_duel(state, "attack")
    _expect(not state.cars[duel.attacker].old_pro and not state.again, "this car must attack")
    return _end_turn(state)


def _apply_old_pro(state: State, e) -> State:
    duel = _in_duel(state, "attack")
    _expect(duel_old_pro(state) is not None, "no Old Pro in this duel")
    draw = Draw.from_json(e)
    pile = apply_draw(state.pile, draw)
    return replace(state, pile=pile, stage="speed", duel=replace(duel, op_cards=draw.cards))


def _apply_speed(state: State, e) -> State:
    duel = _in_duel(state, "speed")
    _expect(int(e["car"]) == duel_player(state), "not the player in this duel")
    speed = int(e["speed"])
    pile, cards = state.pile, duel.op_cards
    if e.get("third") is not None:
        third = Draw.from_json(e["third"])
        pile = apply_draw(pile, third)
        cards += third.cards
    op_speed = old_pro.speed(cards)
    if state.cars[duel.attacker].old_pro:
        wins = old_pro.passer_wins(op_speed, speed)
    else:
        wins = old_pro.passer_wins(speed, op_speed)
    duel = replace(duel, op_cards=cards, speed=speed)
    state = replace(state, pile=discard(pile, cards), duel=duel)
    return _decide(state, duel.attacker if wins else duel.defender)


def _apply_winner(state: State, e) -> State:
    duel = _in_duel(state, "attack")
    winner = int(e["car"])
    _expect(winner in (duel.attacker, duel.defender), "not a car in this duel")
    _expect(not state.cars[duel.attacker].old_pro and not state.cars[duel.defender].old_pro,
            "the companion decides duels with Old Pros")
    return _decide(state, winner)


def _apply_tie(state: State, e) -> State:
    duel = _in_duel(state, "attack")
    _expect(state.nitrous and not state.cars[duel.attacker].old_pro and not state.cars[duel.defender].old_pro,
            "nitrous only settles ties between players")
    return replace(state, stage="nitrous", duel=replace(duel, tie=True))


def _apply_raise(state: State, e) -> State:
    duel = _in_duel(state, "nitrous")
    car, value = int(e["car"]), int(e["card"])
    _expect(car == nitrous_car(state), "not this player's nitrous card")
    if value:   # a raised card is discarded without redrawing: one card fewer in hand
        state = replace(state, hand=bump(state.hand, car, -1, floor=0))
    duel = replace(duel, raised=duel.raised + ((car, value),))
    state = replace(state, duel=duel)
    if len(duel.raised) < 2:
        return state
    (_, a), (_, d) = duel.raised
    return _decide(state, duel.attacker if old_pro.passer_wins(a, d) else duel.defender)


def _decide(state: State, winner: int) -> State:
    duel = replace(state.duel, winner=winner)
    a, d = duel.attacker, duel.defender
    loser = d if winner == a else a
    state = replace(state, duel=duel, won=bump(state.won, winner, 1), lost=bump(state.lost, loser, 1),
                    out=state.out + (loser,))
    if winner == a:
        i = state.order.index(a)
        state = replace(state, order=state.order[: i - 1] + (a, d) + state.order[i + 1:])
    return replace(state, stage="after")     # every duel ends on its result screen


def _apply_again(state: State, e) -> State:
    _in_duel(state, "after")
    _expect(may_pass_again(state), "this car cannot pass again")
    return replace(state, stage="redrive", duel=None, again=True)


def _apply_stop(state: State, e) -> State:
    """After a duel: the next car's turn. Before a second pass: the car backs out (it
    does not slow down), and its phase is over."""
    if state.stage != "redrive":
        _in_duel(state, "after")
    else:
        _expect(state.step == "race" and state.phase == 3, "no second pass to back out of")
    return _end_turn(state)


def _apply_redrive(state: State, e) -> State:
    _expect(state.step == "race" and state.phase == 3 and state.stage == "redrive"
            and int(e["car"]) == state.actor, "no second pass waiting")
    state = _braked(state, state.actor, e.get("choice"))
    i = state.order.index(state.actor)
    return replace(state, stage="attack", duel=Duel(state.actor, state.order[i - 1]))


_HANDLERS = {
    "start": _apply_start, "seat": _apply_seat, "bid": _apply_bid, "drive": _apply_drive,
    "pass_up": _apply_pass_up, "old_pro": _apply_old_pro, "speed": _apply_speed, "winner": _apply_winner,
    "tie": _apply_tie, "raise": _apply_raise, "again": _apply_again, "stop": _apply_stop,
    "redrive": _apply_redrive, "pick": _apply_pick, "page": _apply_page, "go": _apply_go,
    "all_done": _apply_all_done,
}


# -- results ----------------------------------------------------------------------------

def finished(state: State) -> bool:
    return state.step == "done"


def _final_order(state: State) -> tuple[int, ...]:
    if state.order:
        return state.order
    return tuple(i for i, c in enumerate(state.cars) if c.old_pro) + state.players


def team_points(state: State) -> tuple[int, int | None]:
    """The Old Pros' points and best position (0, None without Old Pros)."""
    order = _final_order(state)
    best = next((p for p, c in enumerate(order, start=1) if state.cars[c].old_pro), None)
    return (_points_for(state, best) if best else 0), best


def _points_for(state: State, position: int) -> int:
    return state.points[position - 1] if position <= len(state.points) else 0


def standings(state: State) -> list[dict]:
    """The field in race order. Players score their position; the best Old Pro carries
    the team's points and the other Old Pros score nothing."""
    order = _final_order(state)
    team, best = team_points(state)
    rows = []
    for pos, car in enumerate(order, start=1):
        c = state.cars[car]
        points = (team if pos == best else 0) if c.old_pro else _points_for(state, pos)
        rows.append(standing(pos, c.name, points, old_pro=c.old_pro,
                             colour=c.colour or ("Grey" if c.old_pro else ""),
                             start=state.grid.index(car) + 1 if car in state.grid else None,
                             duels_won=state.won[car], duels_lost=state.lost[car]))
    return rows


def describe(event: Mapping[str, Any]) -> str:
    """The outcome for the history: the Old Pro's cards, turned face up by the companion
    (``Old Pro cards: 40 + 30``; a third one after the player's speed)."""
    kind = event.get("kind")
    drawn = event.get("third") if kind == "speed" else event if kind == "old_pro" else None
    cards = drawn.get("cards") if isinstance(drawn, Mapping) else None
    if not isinstance(cards, list) or not cards:
        return ""
    names = " + ".join(str(c.get("name", "?")) for c in cards if isinstance(c, Mapping))
    return names if kind == "old_pro" else f"the Old Pro's third card {names}"


def summary(state: State) -> dict:
    team, best = team_points(state)
    out: dict[str, Any] = {
        "track": [{"name": state.deck[i].name, "limit": state.deck[i].limit,
                   "situation": state.deck[i].situation.id} for i in state.track],
        "rules": {"grid": state.grid_mode, "better_old_pros": state.better, "nitrous": state.nitrous,
                  "track": state.track_mode},
        "emergency_brakes": {state.name(c): state.brakes[c] for c in state.players},
    }
    old_pros = [c.name for c in state.cars if c.old_pro]
    out["teams"] = [{"name": TEAM, "points": team, "best_position": best, "old_pro": True,
                     "members": old_pros}] if old_pros else []
    return out


def championship_entries(results: Mapping[str, Any]) -> list[dict]:
    """One finished race (its results.json) as championship entries: the players, and the
    Old Pros as one team placed at their best position, in finishing order."""
    rows = [{"name": r["name"], "position": r["position"], "points": r.get("points", 0),
             "colour": r.get("colour", "")} for r in results.get("standings", ()) if not r.get("old_pro")]
    rows += [{"name": t["name"], "position": t["best_position"], "points": t.get("points", 0), "colour": "Grey"}
             for t in results.get("teams", ()) if t.get("best_position")]
    return sorted(rows, key=lambda r: r["position"])


def championship(results: Sequence[Mapping[str, Any]]) -> list[dict]:
    """Points over several races (each a results.json dict, oldest first), with the Old Pros
    as one team: :func:`companion.core.scoring.championship` over the races' entries."""
    from companion.core.scoring import championship as standings_over

    rows = standings_over([championship_entries(r) for r in results])
    return [{**row, "old_pro": row["name"] == TEAM} for row in rows]
