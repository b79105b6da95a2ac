"""3-Wide: the bookkeeping of a stock-car race, so the table only moves the cars.

A race goes (rulebook sections in brackets):

- ``start``: the grid is drawn team by team in rounds (1.5) and the tactic deck shuffled.
- each green turn (2.1): the first four cars in race position order with a face-up lap
  marker (three in an 8-car race) roll their tire dice in turn (``roll``): the companion
  rolls the dice matching the car's chips, counts the "!" (a Tire marker for two, an
  automatic Incident for three or four), offers each die with what it does (``die``:
  move, fuel saved, tires worn), applies fuel and wear, and proposes where the car lands
  (``land``: the table confirms or picks another space). Landing places the Bump,
  3-wide and Brake markers the companion can see, within the marker pool, and flips the
  lap marker. Then the incident check (``check``: the trigger card, damage, wrecks by the
  nearest-car rule, roofs and demolitions), the leader phase (``pace``: lap led, marker
  reset, the race pace roll for every car, out of fuel, the finish) and green-flag pit
  stops (``pit`` a car, then its ``stop``; ``done`` when nobody else pits).
- a yellow flag (3.1): ``caution`` (catch-up and the pace roll), pit or stay out in race
  order (``pit`` / ``stay``: cars on their roofs must pit), pit service in pit-box order
  (``stop``), then the restart grid with wave-arounds and the lap-led marker.
- the end (4): when a car completes the final lap under green, or one green-white-checker
  turn after the yellow flag was out at that moment.

The companion holds the tactic deck: it deals the hands (2.2: a card each turn, a hand
filled to five on the first and restart turns, no limit; a deck run dry reshuffles its
discards), each player reads their own hand alone, the played tactics resolve in tactic
number order, and the incident check turns the trigger and resolution cards from the same
deck (docs/games/3-wide.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from companion.core.names import counted
from companion.core import deck
from companion.core.rng import shuffled
from companion.games.api import CarOption, Move, Option, make_move
from companion.kit.cars import COLOURS, entries
from companion.kit.errors import RuleError
from companion.kit.events import dispatch
from companion.kit.text import label
from companion.kit.update import evolve, replace_at

from companion.games.three_wide import dice, tables, track
from companion.games.three_wide.tables import Settings

OPTIONS = (
    Option("players", "Players", kind="players", low=2, high=6, default=3),
    Option("race", "Race", choices=(("classic-intermediate", "Classic 300"), ("tri-superspeedway", "Tri-Oval 500"),
                                     ("classic-short", "Classic 250")), default="classic-intermediate",
           source=tables.race_choices, describe=tables.DESCRIBE_RACE),
    Option("length", "Length", choices=(("short", "Short race"), ("long", "Long race")), default="short"),
    Option("track", "Track", choices=(("", "As the race card"),), source=tables.track_choices,
           describe=tables.DESCRIBE_TRACK),
)

CAR_OPTIONS = (
    CarOption("skills", "Skills", "split", total=8,
              parts=(("none", "Unspent", 0, 8), ("experience", "Experience", 0, 8), ("fast-pit", "Fast pit", 0, 8),
                     ("great-save", "Great save", 0, 8), ("major-repair", "Major repair", 0, 8),
                     ("quick-fix", "Quick fix", 0, 8)),
              default={"none": 0, "experience": 0, "fast-pit": 2, "great-save": 2, "major-repair": 2, "quick-fix": 2}),
)
"""Per team (each player's entry): the points spent on each skill (1.4)."""
DEFAULT_SKILLS = CAR_OPTIONS[0].default
MAJOR = "major-repair"                 # the stop a Major Repair skill makes

START, ROLL, CHOOSE, PLACE, CHECK, LEADER, PITS, SERVICE, CAUTION, YPIT, YSERVICE, OVER = (
    "start", "roll", "choose", "place", "check", "leader", "pits", "service", "caution", "ypit", "yservice", "over")
DEAL, TACTICS, TACTIC, WRECK = "deal", "tactics", "tactic", "wreck"
ROOF_AT, DEMOLISHED_AT = 3, 5
STUCK_AT = 3
POINTS = (12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
WIN_BONUS, LED_BONUS, MOST_LED_BONUS = 3, 1, 1
GWC_PACE = (1, 0, 2)


@dataclass(frozen=True)
class Car:
    number: int
    owner: int                 # the player who runs it
    team: bool                 # a team car (False: an associated car, scored at half)
    tires: tuple[int, int, int, int] = (0, 0, 0, 0)   # chip wear: 0 black .. 3 red
    fuel: int = 0              # steps above E; tank + 1 = past F
    damage: int = 0
    handling: int = 0
    markers: tuple[str, ...] = ()
    lap: int = 0
    space: int = 0
    face_up: bool = True
    roof: bool = False
    out: bool = False          # demolished
    stuck: bool = False        # kept in the pit lane (three or more damage after a stop)
    led: int = 0               # lap-led markers
    pits: int = 0
    dry: int = 0               # times out of fuel

    @property
    def running(self) -> bool:
        """On the track (on its wheels or its roof), not in the pit lane nor demolished."""
        return not self.out and not self.stuck

    @property
    def slowdown(self) -> int:
        return self.damage + self.handling


@dataclass(frozen=True)
class State:
    settings: Settings
    players: tuple[str, ...]
    cars: tuple[Car, ...]
    phase: str = START
    turn: int = 0
    rollers: tuple[int, ...] = ()      # the cars rolling tire dice this turn, in order
    k: int = 0                         # the roller now
    faces: tuple[str, ...] = ()        # its roll
    die: int = -1                      # the die chosen
    want: int = 0                      # spaces that die moves
    proposal: int = 0                  # the space the companion proposes
    pile: tuple[int, ...] = ()         # tactic deck, top first (indices into settings.deck)
    discard: tuple[int, ...] = ()
    yellow: bool = False
    gwc: int = 0                       # 1: the next turn is the green-white-checker; 2: it is now
    pitted: tuple[int, ...] = ()       # cars that stopped in this green pit phase
    car: int = -1                      # the car being serviced (green)
    stayed: tuple[int, ...] = ()       # yellow: cars that stay out
    boxes: tuple[int, ...] = ()        # yellow: pit boxes 1.. in order; green: the service order
    times: tuple[tuple[int, int, int], ...] = ()   # yellow: (car, time, box) of finished stops
    grid: tuple[int, ...] = ()         # the starting grid
    restarts: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()   # (grid, waved around)
    chart: tuple[tuple[int, tuple[int, ...]], ...] = ()   # (leader's lap, race order) each turn
    pitted: tuple[tuple[int, int], ...] = ()   # (car, the leader's lap + 1) of every pit stop
    wrecked: tuple[tuple[int, int], ...] = ()  # (car, the leader's lap + 1) of every car demolished
    cautions: int = 0
    news: tuple[tuple[Any, ...], ...] = ()   # what the last event did, as facts
    mover: int = -1                    # the car rolling or moving now
    stage: str = "racing"              # "tactics" or "racing": what follows a landing
    rolled: bool = False               # the move now is a tire-dice move (flips the lap marker)
    queue: tuple[tuple[int, int], ...] = ()   # moves still to make on this tactic: (car, spaces)
    group: tuple[int, ...] = ()        # the cars moving on the same tactic (no slingshot between them)
    hands: tuple[tuple[int, ...], ...] = ()   # each player's tactic cards (never shown to others)
    actor: int = 0                     # the player choosing tactics
    show: bool = False                 # the actor's hand is on the screen
    played: tuple[tuple[int, int], ...] = ()  # (card, car) tactics played this turn
    step: int = 0                      # the played tactic being resolved
    redrawn: tuple[int, ...] = ()      # players who redrew their hand this turn
    slings: tuple[tuple[int, int], ...] = ()  # (car, car in front) slingshot markers
    debris: bool = False               # a Debris Caution was resolved this turn
    fill: bool = True                  # the next deal fills hands to five (first turn, restart)
    todo: tuple[tuple[int, str, int], ...] = ()   # incidents to settle: (car, marker, resolution card)
    wreck_cars: tuple[int, ...] = ()   # the wreck proposed for the first of them
    check_yellow: bool = False         # the incident check has brought the yellow so far
    last: int = -1                     # the car that moved last (the table may add a marker)
    skills: tuple[tuple[int, ...], ...] = ()  # each team's skill tokens, in tables.SKILLS order
    pending: tuple[str, ...] = ()      # skills played on the pit stop being chosen
    rerolled: bool = False             # Experience was used on this roll

    def name(self, c: int) -> str:
        return car_name(self, c)


def car_name(state: State, c: int) -> str:
    car = state.cars[c]
    return f"#{car.number} {state.players[car.owner]}"


# -- setup ----------------------------------------------------------------------------

def team_size(players: int) -> int:
    """Cars per team (1.3): four for 2-3 players, three for 4, two for 5-6."""
    return 4 if players <= 3 else 3 if players == 4 else 2


def field_size(players: int) -> int:
    """Cars in the race: 8 with 2 players, else 12 (cars without a team are associated)."""
    return 8 if players == 2 else 12


def setup(options: Mapping[str, Any], data: Mapping[str, Any]) -> State:
    settings = tables.settings(options, data)
    players = entries(options, low=2, high=6, game="3-Wide", default=3)
    n = len(players)
    car_table = data.get("car", {})
    numbers = car_table.get("numbers") if isinstance(car_table, Mapping) else None
    extra = car_table.get("associated") if isinstance(car_table, Mapping) else None
    size, field = team_size(n), field_size(n)
    cars = []
    for p in range(n):
        for k in range(size):
            cars.append(Car(_number(numbers, p, k, 10 * (p + 1) + k + 1), p, True))
    for k in range(field - n * size):
        owner = n - 1 - (k % n)    # associated cars go to the last players first
        cars.append(Car(_number([extra], 0, k, 71 + k), owner, False))
    if len({c.number for c in cars}) != len(cars):
        raise RuleError("3-Wide: two cars share a number; give every car its own in [car] numbers")
    cars = [evolve(c, fuel=settings.tank) for c in cars]
    skills = tuple(_tokens(p.get("skills", DEFAULT_SKILLS), settings, p["name"]) for p in players)
    return State(settings, tuple(p["name"] for p in players), tuple(cars), hands=((),) * n, skills=skills)


def _tokens(answer: Any, settings: Settings, who: str) -> tuple[int, ...]:
    """Skill tokens bought with a team's points (points spent on a skill // its cost)."""
    if not isinstance(answer, Mapping):
        raise RuleError(f"3-Wide: {who}'s skills must be points per skill")
    spent = {k: v for k, v in answer.items() if k != "none"}
    if any(k not in tables.SKILLS or isinstance(v, bool) or not isinstance(v, int) or v < 0 for k, v in spent.items()):
        raise RuleError(f"3-Wide: {who}'s skills must be whole points for {', '.join(tables.SKILLS)}")
    if sum(spent.values()) > 8:
        raise RuleError(f"3-Wide: {who} spent {sum(spent.values())} skill points; a team has 8")
    costs = dict(settings.costs)
    return tuple(spent.get(k, 0) // costs[k] for k in tables.SKILLS)


def has_skill(state: State, c: int, skill: str) -> bool:
    """Whether car ``c``'s team holds a ``skill`` token (team cars only)."""
    car = state.cars[c]
    return car.team and state.skills[car.owner][tables.SKILLS.index(skill)] > 0


def _spend(state: State, c: int, skill: str) -> State:
    owner = state.cars[c].owner
    i = tables.SKILLS.index(skill)
    tokens = state.skills[owner]
    return evolve(state, skills=replace_at(state.skills, owner, replace_at(tokens, i, tokens[i] - 1)))


def _number(table: Any, p: int, k: int, default: int) -> int:
    try:
        value = table[p][k]
    except (TypeError, IndexError, KeyError):
        return default
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 999 else default


# -- reading the state ----------------------------------------------------------------

def positions(state: State) -> dict[int, tuple[int, int]]:
    return {i: (c.lap, c.space) for i, c in enumerate(state.cars)}


def race_order(state: State, among=None) -> tuple[int, ...]:
    """Race position order (2.3) of the running cars (``among`` any subset)."""
    cars = [(c.lap, c.space) for c in state.cars]
    idx = [i for i, c in enumerate(state.cars) if c.running] if among is None else among
    return track.order(cars, idx)


def classification(state: State) -> tuple[int, ...]:
    """Every car: running ones and those in the pit lane by lap and space, then the
    demolished ones."""
    return tuple(sorted(range(len(state.cars)), key=lambda i: (
        state.cars[i].out, -state.cars[i].lap, state.cars[i].space if not state.cars[i].stuck else 999, i)))


def on_track(state: State, but: int = -1) -> dict[int, int]:
    return {i: c.space for i, c in enumerate(state.cars) if c.running and i != but}


def taken(state: State, but: int = -1) -> set[int]:
    return set(on_track(state, but).values())


def leader(state: State) -> int | None:
    order = [c for c in race_order(state) if not state.cars[c].roof]
    return order[0] if order else None


def rollers(state: State) -> tuple[int, ...]:
    """The cars that roll this turn: the first four (three in an 8-car race) in race
    position order with a face-up lap marker, on their wheels."""
    k = 3 if len(state.cars) == 8 else 4
    return tuple(c for c in race_order(state) if state.cars[c].face_up and not state.cars[c].roof)[:k]


def marker_free(state: State, marker: str) -> bool:
    used = sum(c.markers.count(marker) for c in state.cars) + (len(state.slings) if marker == "Slingshot" else 0)
    return used < state.settings.limit(marker)


def card(state: State, i: int) -> tables.Card:
    return state.settings.deck[i]


def must_pit(state: State, c: int) -> bool:
    car = state.cars[c]
    return car.fuel == 0 or car.stuck


def finished(state: State) -> bool:
    return state.phase == OVER


# -- moves ----------------------------------------------------------------------------

TABLE_MARKERS = ("3-Str", "3-Crn", "Brake")
"""Movement incidents the table may place on the car that moved last, one press each."""


def moves(state: State) -> list[Move]:
    out = _moves(state)
    if state.phase in (ROLL, TACTIC, CHECK) and state.last >= 0 and state.cars[state.last].running:
        c = state.last
        out += [make_move("mark", label(f"{m} #{state.cars[c].number}"), player=_owner(state, c), car=c, marker=m)
                for m in TABLE_MARKERS if m not in state.cars[c].markers and marker_free(state, m)]
    return out


def _moves(state: State) -> list[Move]:
    p = state.phase
    if p == START:
        return [make_move("start", "Draw grid", primary=True)]
    if p == DEAL:
        return [make_move("deal", "Deal tactics", primary=True)]
    if p == TACTICS:
        return _tactics_moves(state)
    if p == TACTIC:
        card_i, c = state.played[state.step]
        what = f"{card(state, card_i).name} for #{state.cars[c].number}"
        out = [make_move("skip", "Not possible", player=_owner(state, c), car=c, history=f"{what} not possible")]
        if _can_resolve(state):
            out.insert(0, make_move("resolve", "Resolve", player=_owner(state, c), primary=True, car=c,
                                    history=f"{what} resolved"))
        else:
            out = [make_move("skip", "Not possible", player=_owner(state, c), primary=True, car=c,
                             history=f"{what} not possible")]
        return out
    if p == ROLL:
        c = state.mover
        return [make_move("roll", label(f"Roll #{state.cars[c].number}"), player=_owner(state, c), primary=True, car=c,
                          history=f"#{state.cars[c].number} rolled")]
    if p == CHOOSE:
        c = state.mover
        slow = state.cars[c].slowdown
        n_car = state.cars[c].number
        out = [make_move("die", label(f"{state.faces[i]} go {go}"), player=_owner(state, c), primary=(n == 0), car=c, die=i,
                         history=f"#{n_car} goes {counted(go, 'space')} on {state.faces[i]}")
               for n, i in enumerate(dice.choices(state.faces)) for go in (dice.distance(state.faces, i, slow),)]
        if not state.rerolled and has_skill(state, c, "experience"):
            out.append(make_move("experience", "Experience", player=_owner(state, c), car=c,
                                 history=f"#{n_car} rolls again (Experience)"))
        return out
    if p == PLACE:
        c = state.mover
        n_car = state.cars[c].number
        return [make_move("land", label(f"Board: sp {s}" if s != state.proposal else f"Land sp {s}"), player=_owner(state, c),
                          primary=(s == state.proposal), car=c, space=s,
                          history=f"Board: #{n_car} on space {s}" if s != state.proposal else f"#{n_car} lands on space {s}")
                for s in landing_options(state, c)]
    if p == CHECK:
        return [make_move("check", "Trigger card", primary=True)]
    if p == WRECK:
        out = [make_move("wreck", "OK wreck", primary=True, cars=list(state.wreck_cars), history="Wreck")]
        out += [make_move("drop", label(f"Not #{state.cars[w].number}"), car=w,
                          history=f"#{state.cars[w].number} out of the wreck") for w in state.wreck_cars[1:]]
        if len(state.wreck_cars) > 1 or card(state, state.todo[0][2]).cars > 1:
            out += [make_move("swap", label(f"Add #{state.cars[w].number}"), car=w,
                              history=f"#{state.cars[w].number} into the wreck") for w in wreck_candidates(state)]
        return out
    if p == LEADER:
        return [make_move("pace", "Race pace", primary=True)]
    if p == CAUTION:
        return [make_move("caution", "Caution pace", primary=True)]
    if p == PITS:
        forced = [c for c in race_order(state, _with_stuck(state))
                  if must_pit(state, c) and c not in state.pitted and not state.cars[c].roof]
        done = "Service pits" if state.pitted else "No pit stops"
        out = [] if forced else [make_move("done", done, primary=True)]
        for c in (forced or race_order(state)):
            if c not in state.pitted and not state.cars[c].roof:
                out.append(make_move("pit", label(f"Pit #{state.cars[c].number}"), player=_owner(state, c),
                                     primary=not out, car=c))
        return out
    if p == YPIT:
        out = [make_move("stay", "Rest stay out", primary=True)]
        for c in race_order(state):
            if c not in state.stayed and c not in state.boxes and not state.cars[c].roof:
                out.append(make_move("pit", label(f"Pit #{state.cars[c].number}"), player=_owner(state, c), car=c))
        return out
    if p in (SERVICE, YSERVICE):
        c = state.car
        out = []
        for stop in state.settings.stops:
            for extra in (False, True):
                words = stop.label.replace(" & Go", "") + ("+Adj" if extra else "")
                out.append(make_move("stop", label(words), player=_owner(state, c), primary=not out,
                                     car=c, stop=stop.id, extra=extra, history=f"{words} for #{state.cars[c].number}"))
        if has_skill(state, c, "major-repair") and "major-repair" not in state.pending:
            for extra in (False, True):
                out.append(make_move("stop", "Major Rep+Adj" if extra else "Major Repair", player=_owner(state, c),
                                     car=c, stop=MAJOR, extra=extra,
                                     history=f"Major Repair{'+Adj' if extra else ''} for #{state.cars[c].number}"))
        for skill, words in (("fast-pit", "Fast Pit Stop"), ("quick-fix", "Quick Fix")):
            if has_skill(state, c, skill) and skill not in state.pending:
                out.append(make_move("skill", words, player=_owner(state, c), car=c, skill=skill,
                                     history=f"{words} for #{state.cars[c].number}"))
        return out
    return []


def _tactics_moves(state: State) -> list[Move]:
    p = state.actor
    who = state.players[p]
    if not state.show:
        return [make_move("show", "Show hand", player=who, primary=True, history="hand shown"),
                make_move("tactics-done", "No tactics", player=who)]
    out = [make_move("tactics-done", "Done", player=who, primary=True, history="done choosing tactics")]
    used = {c for _, c in state.played}
    mine = [c for c in race_order(state) if state.cars[c].owner == p and not state.cars[c].roof and c not in used]
    seen = set()
    for i in state.hands[p]:
        cd = card(state, i)
        if cd.name in seen:
            continue
        seen.add(cd.name)
        for c in mine:
            if not playable(state, cd, c):
                continue
            out.append(make_move("play", label(f"{cd.short}>#{state.cars[c].number}"), player=who, card=i, car=c))
    if p not in state.redrawn and state.hands[p] and not any(state.cars[c].owner == p for _, c in state.played):
        out.append(make_move("redraw", "New hand", player=who, history="a new hand drawn"))
    return out


NEEDS_FRONT = ("push", "bump-draft", "bump-and-run", "draft-front", "slingshot")
NEEDS_BEHIND = ("block", "draft-behind")


def playable(state: State, cd: tables.Card, c: int) -> bool:
    """A tactic's requirement (appendix A): a car directly in front (Push, Bump Draft,
    Bump and Run, In the Draft, Slingshot) or directly behind (Block, Lead the Draft),
    a face-up lap marker (Move Now)."""
    if cd.effect == "move-now":
        return state.cars[c].face_up
    if cd.effect == "bump-and-run":
        return bump_and_run(state, c) is not None
    if cd.effect in NEEDS_FRONT or cd.effect in NEEDS_BEHIND:
        cars = on_track(state)
        if c not in cars:
            return False
        return track.directly(cars[c], cars, state.settings.rows, -1 if cd.effect in NEEDS_FRONT else 1) is not None
    return True


def bump_and_run(state: State, c: int) -> tuple[int, int] | None:
    """Bump and Run for car ``c`` (appendix A): (the car directly in front, the space it
    is moved to: one space ahead and over to the outside), or None when the tactic may not
    be played: no car directly in front, that car on its roof, in the outside lane, or
    the space ahead and to the outside taken."""
    cars = on_track(state)
    if c not in cars:
        return None
    front = track.directly(cars[c], cars, state.settings.rows, -1)
    if front is None or state.cars[front].roof:
        return None
    to = track.bumped(cars[front], set(cars.values()), state.settings.rows)
    return None if to is None else (front, to[0])


def _can_resolve(state: State) -> bool:
    card_i, c = state.played[state.step]
    car = state.cars[c]
    if not car.running or car.roof:
        return False
    effect = card(state, card_i).effect
    if effect == "bump-and-run":
        return bump_and_run(state, c) is not None
    return effect != "move-now" or car.face_up


def _owner(state: State, c: int) -> str:
    return state.players[state.cars[c].owner]


def _with_stuck(state: State) -> tuple[int, ...]:
    return tuple(i for i, c in enumerate(state.cars) if not c.out)


def landing_options(state: State, c: int) -> tuple[int, ...]:
    """The proposed space first, then the other free spaces of its row and the two rows
    behind it (the table corrects where the car really is)."""
    free = taken(state, c)
    r = track.row(state.proposal)
    out = [state.proposal]
    for k in range(3):
        rr, _ = track.behind(r, k, state.settings.rows)
        for ln in range(3):
            s = track.space_at(rr, ln)
            if s not in free and s not in out:
                out.append(s)
    here = state.cars[c].space
    if here not in out:
        out.append(here)
    return tuple(out)


# -- resolve --------------------------------------------------------------------------

def resolve(state: State, move: Move, rng) -> dict[str, Any]:
    if move not in moves(state):
        raise RuleError(f"'{move.label}' is not a move now")
    kind = move.kind
    if kind == "start":
        grid = []
        by_owner: dict[int, list[int]] = {}
        for i, car in enumerate(state.cars):
            by_owner.setdefault(car.owner if car.team else -1 - i, []).append(i)
        rounds = max(len(v) for v in by_owner.values())
        for r in range(rounds):
            grid.extend(shuffled([v[r] for v in by_owner.values() if len(v) > r], rng))
        return {"kind": "start", "grid": grid, "pile": list(shuffled(range(len(state.settings.deck)), rng))}
    if kind == "deal":
        want = owed(state)
        drawn, pile, discard, mixed = _draw(state.pile, state.discard, sum(want), rng)
        hands, at = [], 0
        for n in want:
            hands.append(drawn[at:at + n])
            at += n
        return {"kind": "deal", "cards": hands, "pile": pile, "discard": discard, **_mixed(mixed)}
    if kind == "redraw":
        p = state.actor
        back = list(state.discard) + list(state.hands[p])
        drawn, pile, discard, mixed = _draw(state.pile, back, tables.HAND, rng)
        return {"kind": "redraw", "player": p, "cards": drawn, "pile": pile, "discard": discard, **_mixed(mixed)}
    if kind in ("show", "tactics-done", "resolve", "skip"):
        return {"kind": kind}
    if kind == "wreck":
        return {"kind": "wreck", "cars": list(move.arg("cars"))}
    if kind == "mark":
        return {"kind": "mark", "car": move.arg("car"), "marker": move.arg("marker")}
    if kind in ("drop", "swap"):
        return {"kind": kind, "car": move.arg("car")}
    if kind == "play":
        return {"kind": "play", "card": move.arg("card"), "car": move.arg("car")}
    if kind == "experience":
        c = move.arg("car")
        return {"kind": "experience", "car": c,
                "faces": [rng.choice(state.settings.dice[w]) for w in state.cars[c].tires]}
    if kind == "skill":
        return {"kind": "skill", "car": move.arg("car"), "skill": move.arg("skill")}
    if kind == "roll":
        c = move.arg("car")
        faces = [rng.choice(state.settings.dice[w]) for w in state.cars[c].tires]
        return {"kind": "roll", "car": c, "faces": faces}
    if kind == "die":
        return {"kind": "die", "car": move.arg("car"), "die": move.arg("die")}
    if kind == "land":
        return {"kind": "land", "car": move.arg("car"), "space": move.arg("space")}
    if kind == "check":
        first, pile, discard, mixed = _draw(state.pile, state.discard, 1, rng)
        if not first:       # every card is in a hand: nothing triggers
            return {"kind": "check", "cards": [], "pile": pile, "discard": discard, **_mixed(mixed)}
        more, pile, discard, again = _draw(pile, discard + first, len(incidents(state, card(state, first[0]))), rng)
        return {"kind": "check", "cards": first + more, "pile": pile, "discard": discard + more,
                **_mixed(mixed or again)}
    if kind in ("pace", "caution"):
        return {"kind": kind, "face": rng.randint(1, 6)}
    if kind == "pit":
        return {"kind": "pit", "car": move.arg("car")}
    if kind in ("done", "stay"):
        return {"kind": kind}
    if kind == "stop":
        c = move.arg("car")
        n = attempts(state, c, move.arg("stop"), move.arg("extra"))
        return {"kind": "stop", "car": c, "stop": move.arg("stop"), "extra": bool(move.arg("extra")),
                "rolls": [rng.randint(1, 6) for _ in range(n)]}
    raise RuleError(f"unknown move {kind}")


def owed(state: State) -> list[int]:
    """The cards each player is dealt now (2.2): one each turn, and on the first turn and
    a restart turn enough to bring the hand up to five (at least one). No limit on a hand:
    when the deck runs dry the discards are reshuffled (``_draw``)."""
    return [max(1, tables.HAND - len(h)) if state.fill else 1 for h in state.hands]


def _mixed(reshuffled: bool) -> dict[str, bool]:
    """The event's mark that the discards were shuffled into a new deck."""
    return {"reshuffled": True} if reshuffled else {}


def _draw(pile, discard, n: int, rng) -> tuple[list[int], list[int], list[int], bool]:
    """``n`` cards off the top of the tactic deck (cards are indices into the race's
    deck) as every deck draws (``core.deck``): when the pile runs out, the discards are
    shuffled into a new one; fewer than ``n`` when both run out. (cards, pile after,
    discards after, whether the discards were reshuffled)."""
    before = deck.Pile(tuple(pile), tuple(discard))
    plan = deck.draw_plan(before, n, rng)
    after = deck.apply_draw(before, plan)
    return list(plan.cards), list(after.draw), list(after.discard), plan.reshuffle is not None


def attempts(state: State, c: int, stop_id: str, extra: bool) -> int:
    """Adjustment rolls of a stop: the stop's own (one on a Full Stop), one more for an
    Extra Adjust; a car that stayed in the pit lane makes three."""
    if state.cars[c].stuck:
        return state.settings.stuck_attempts
    if stop_id == MAJOR:
        return 1 if extra else 0
    return state.settings.stop(stop_id).adjust + (1 if extra else 0)


def stop_of(state: State, stop_id: str) -> tables.Stop:
    if stop_id == MAJOR:
        s = state.settings
        return tables.Stop(MAJOR, "Major Repair", 4, s.tank, 0, s.major_time)
    return state.settings.stop(stop_id)


def incidents(state: State, trigger: tables.Card) -> list[tuple[int, str]]:
    """The incidents to resolve with a resolution card each, front to back (2.4): the
    markers the trigger card names (not Brake and Engine, which only give damage and
    handling markers) and every automatic Incident marker."""
    order = race_order(state)
    slung = {c for c, _ in state.slings} if "Slingshot" in trigger.trigger else set()
    return [(c, m) for c in order for m in state.cars[c].markers + (("Slingshot",) if c in slung else ())
            if m not in ("Brake", "Engine") and (m == "Incident" or m in trigger.trigger)]


# -- apply ----------------------------------------------------------------------------

def apply(state: State, event: Mapping[str, Any]) -> State:
    return dispatch(_APPLY, state, event, "3-Wide")


def _set_car(state: State, c: int, **changes) -> State:
    return evolve(state, cars=replace_at(state.cars, c, evolve(state.cars[c], **changes)))


def _add_marker(state: State, c: int, marker: str) -> tuple[State, bool]:
    if not marker_free(state, marker):
        return state, False
    return _set_car(state, c, markers=state.cars[c].markers + (marker,)), True


def _apply_start(state: State, e) -> State:
    grid = tuple(int(x) for x in e["grid"])
    if sorted(grid) != list(range(len(state.cars))):
        raise RuleError("the grid must list every car once")
    cars = list(state.cars)
    for slot, c in enumerate(grid):
        cars[c] = evolve(cars[c], space=slot + 1, lap=0)
    state = evolve(state, cars=tuple(cars), grid=grid, pile=tuple(e["pile"]), discard=(),
                   news=(("grid",),))
    return _new_turn(state)


def _new_turn(state: State) -> State:
    """A new turn begins with the tactics (2.2): the deal is the first press."""
    return evolve(state, turn=state.turn + 1, k=0, faces=(), die=-1, pitted=(), car=-1, rollers=(),
                  stayed=(), boxes=(), times=(), gwc=2 if state.gwc == 1 else state.gwc, phase=DEAL,
                  played=(), step=0, redrawn=(), actor=0, show=False, debris=False, queue=(), group=())


def _racing(state: State) -> State:
    """The racing phase (2.3): the cars to roll are fixed now, after the tactics."""
    who = rollers(state)
    state = evolve(state, rollers=who, k=0, stage="racing", queue=(), group=())
    if not who:
        return evolve(state, phase=CHECK, mover=-1)
    return evolve(state, phase=ROLL, mover=who[0], rolled=True)


def _apply_deal(state: State, e) -> State:
    if state.phase != DEAL:
        raise RuleError("no deal now")
    dealt = [tuple(int(x) for x in h) for h in e["cards"]]
    if len(dealt) != len(state.players):
        raise RuleError("a deal gives every player cards")
    short = sum(owed(state)) - sum(len(d) for d in dealt)
    news = (("deal", tuple(len(d) for d in dealt)),) + _deck_news(e, short)
    hands = tuple(h + d for h, d in zip(state.hands, dealt))
    return evolve(state, hands=hands, pile=tuple(e["pile"]), discard=tuple(e["discard"]), fill=False,
                  phase=TACTICS, actor=0, show=False, news=news)


def _deck_news(e, short: int = 0) -> tuple[tuple[Any, ...], ...]:
    """What the table must hear about the deck: the discards reshuffled into a new deck,
    cards owed that no pile could give."""
    return ((("reshuffle",),) if e.get("reshuffled") else ()) + ((("short", short),) if short > 0 else ())


def _apply_show(state: State, e) -> State:
    if state.phase != TACTICS:
        raise RuleError("no tactics now")
    return evolve(state, show=True)


def _apply_play(state: State, e) -> State:
    i, c = int(e["card"]), int(e["car"])
    p = state.actor
    if state.phase != TACTICS or i not in state.hands[p] or state.cars[c].owner != p:
        raise RuleError("not a card and car of this player")
    if any(c == x for _, x in state.played):
        raise RuleError("one tactic per car")
    hand = list(state.hands[p])
    hand.remove(i)
    return evolve(state, hands=replace_at(state.hands, p, tuple(hand)), played=state.played + ((i, c),))


def _apply_redraw(state: State, e) -> State:
    p = int(e["player"])
    if state.phase != TACTICS or p != state.actor or p in state.redrawn:
        raise RuleError("no new hand now")
    return evolve(state, hands=replace_at(state.hands, p, tuple(int(x) for x in e["cards"])),
                  pile=tuple(e["pile"]), discard=tuple(e["discard"]), redrawn=state.redrawn + (p,),
                  news=_deck_news(e) or state.news)


def _apply_tactics_done(state: State, e) -> State:
    if state.phase != TACTICS:
        raise RuleError("no tactics now")
    nxt = state.actor + 1
    if nxt < len(state.players):
        return evolve(state, actor=nxt, show=False)
    # reveal: lowest tactic number first; a tie in race position order
    place = {c: n for n, c in enumerate(race_order(state, range(len(state.cars))))}
    played = tuple(sorted(state.played, key=lambda t: (card(state, t[0]).number, place[t[1]])))
    state = evolve(state, played=played, step=0, show=False, news=(("reveal",),))
    if not played:
        return _racing(state)
    return evolve(state, phase=TACTIC, stage="tactics")


def _next_tactic(state: State) -> State:
    nxt = state.step + 1
    if nxt < len(state.played):
        return evolve(state, step=nxt, phase=TACTIC, queue=(), group=(), mover=-1)
    return _racing(state)


def _apply_skip(state: State, e) -> State:
    if state.phase != TACTIC:
        raise RuleError("no tactic to resolve now")
    card_i, c = state.played[state.step]
    if card(state, card_i).effect == "bump-and-run":
        # "this tactic may not be played, and is returned to your hand"
        p = state.cars[c].owner
        state = evolve(state, hands=replace_at(state.hands, p, state.hands[p] + (card_i,)),
                       news=(("returned", card_i, c),))
        return _next_tactic(state)
    state = evolve(state, discard=state.discard + (card_i,), news=(("skip", card_i, c),))
    return _next_tactic(state)


def _apply_resolve(state: State, e) -> State:
    if state.phase != TACTIC or not _can_resolve(state):
        raise RuleError("this tactic cannot be resolved")
    card_i, c = state.played[state.step]
    cd = card(state, card_i)
    state = evolve(state, discard=state.discard + (card_i,))
    cars = on_track(state)
    rows = state.settings.rows
    news: list[tuple] = [("tactic", card_i, c)]
    queue: list[tuple[int, int]] = []
    front = track.directly(cars[c], cars, rows, -1)
    behind = track.directly(cars[c], cars, rows, +1)
    if cd.effect == "move-now":
        return evolve(state, phase=ROLL, mover=c, rolled=True, stage="tactics", news=tuple(news))
    if cd.effect == "move":
        queue = [(c, cd.move)]
    elif cd.effect == "bump-and-run":
        # the car in front is moved one space ahead and to the outside (a shove: its
        # damage does not slow it), then this car moves; the car in front gets a Bump
        front, to = bump_and_run(state, c)
        state, ok = _add_marker(state, front, "Bump")
        news.append(("marker", front, "Bump", ok))
        return evolve(state, news=tuple(news), group=(front, c), mover=front, want=1, proposal=to,
                      phase=PLACE, rolled=False, queue=((c, cd.move),))
    elif cd.effect in ("push", "bump-draft") and front is not None:
        queue = [(front, cd.move), (c, cd.move)]
        marked, marker = (c, "Engine") if cd.effect == "push" else (front, "Bump")
        state, ok = _add_marker(state, marked, marker)
        news.append(("marker", marked, marker, ok))
    elif cd.effect == "draft-front" and front is not None:
        line = track.in_line(c, cars, rows, -1)
        queue = [(x, cd.move) for x in reversed(line)] + [(c, cd.move)]
    elif cd.effect == "draft-behind" and behind is not None:
        queue = [(c, cd.move)] + [(x, cd.move) for x in track.in_line(c, cars, rows, +1)]
    elif cd.effect == "block":
        later = [i for i, (_, x) in enumerate(state.played) if x == behind and i > state.step] if behind is not None else []
        if later:
            gone = state.played[later[0]]
            state = evolve(state, played=state.played[:later[0]] + state.played[later[0] + 1:],
                           discard=state.discard + (gone[0],))
            state, ok = _add_marker(state, behind, "Bump")
            news += [("blocked", behind, gone[0]), ("marker", behind, "Bump", ok)]
        else:
            state, ok = _add_marker(state, c, "Bump")
            news.append(("marker", c, "Bump", ok))
    elif cd.effect == "slingshot" and front is not None:
        ok = marker_free(state, "Slingshot") or any(x[0] == c for x in state.slings)
        if ok:
            state = evolve(state, slings=tuple(x for x in state.slings if x[0] != c) + ((c, front),))
        news.append(("sling", c, front, ok))
    elif cd.effect == "debris":
        state = evolve(state, debris=True)
        news.append(("debris",))
    elif cd.effect in ("push", "bump-draft", "draft-front", "draft-behind", "slingshot"):
        news.append(("no-front", c))
    state = evolve(state, news=tuple(news), group=tuple(x for x, _ in queue))
    return _next_move(state, queue)


def _next_move(state: State, queue) -> State:
    """The next car to move on this tactic (or a slingshot), else what follows."""
    queue = list(queue)
    while queue:
        c, n = queue.pop(0)
        car = state.cars[c]
        if not car.running or car.roof:
            continue
        want = max(0, n - car.slowdown)
        space, _, _ = track.landing(car.space, want, state.settings.rows, taken(state, c))
        return evolve(state, mover=c, want=want, proposal=space, phase=PLACE, rolled=False, queue=tuple(queue))
    state = evolve(state, queue=(), mover=-1)
    if state.stage == "tactics":
        return _next_tactic(state)
    if state.k + 1 < len(state.rollers):
        return evolve(state, k=state.k + 1, mover=state.rollers[state.k + 1], phase=ROLL, rolled=True, group=())
    return evolve(state, phase=CHECK, group=())


def _apply_roll(state: State, e) -> State:
    c = int(e["car"])
    if state.phase != ROLL or c != state.mover:
        raise RuleError("not this car's roll")
    faces = tuple(str(f) for f in e["faces"])
    if len(faces) != 4 or any(dice.parse(f) is None for f in faces):
        raise RuleError("a roll is four tire faces")
    marker = dice.trouble_marker(faces)
    placed = False
    if marker:
        state, placed = _add_marker(state, c, marker)
    return evolve(state, faces=faces, phase=CHOOSE, rerolled=False, news=(("roll", c, faces, marker or "", placed),))


def _apply_experience(state: State, e) -> State:
    c = int(e["car"])
    if state.phase != CHOOSE or c != state.mover or state.rerolled or not has_skill(state, c, "experience"):
        raise RuleError("no Experience now")
    state = _spend(evolve(state, phase=ROLL), c, "experience")
    state = _apply_roll(state, {"kind": "roll", "car": c, "faces": e["faces"]})
    return evolve(state, rerolled=True, news=(("skill", c, "experience"),) + state.news)


def _apply_skill(state: State, e) -> State:
    c, skill = int(e["car"]), str(e["skill"])
    if state.phase not in (SERVICE, YSERVICE) or c != state.car or skill not in ("fast-pit", "quick-fix") \
            or skill in state.pending or not has_skill(state, c, skill):
        raise RuleError("this skill cannot be played now")
    return evolve(_spend(state, c, skill), pending=state.pending + (skill,), news=(("skill", c, skill),))


def _apply_die(state: State, e) -> State:
    c, i = int(e["car"]), int(e["die"])
    if state.phase != CHOOSE or c != state.mover or not 0 <= i < len(state.faces):
        raise RuleError("not a die of this roll")
    car = state.cars[c]
    f = dice.face(state.faces[i])
    want = dice.distance(state.faces, i, car.slowdown)
    fuel = dice.save_fuel(car.fuel, state.settings.tank) if f.save else car.fuel
    tires = dice.wear(car.tires, f.wear)
    state = _set_car(state, c, fuel=fuel, tires=tires)
    space, laps, short = track.landing(car.space, want, state.settings.rows, taken(state, c))
    return evolve(state, die=i, want=want, proposal=space, phase=PLACE, group=(c,),
                  news=(("die", c, state.faces[i], want, f.save, f.wear),))


def _apply_land(state: State, e) -> State:
    c, space = int(e["car"]), int(e["space"])
    if state.phase != PLACE or c != state.mover:
        raise RuleError("not this car's move")
    rows = state.settings.rows
    if not 1 <= space <= rows * 3 or space in taken(state, c):
        raise RuleError(f"space {space} is not free")
    car = state.cars[c]
    start = track.row(car.space)
    moved = (start - track.row(space)) % rows
    if moved > state.want:          # a correction behind the car: it did not cross the line
        moved = 0
    gained = 1 if moved and track.row(space) > start else 0
    state = _set_car(state, c, space=space, lap=car.lap + gained, face_up=car.face_up and not state.rolled)
    news: list[tuple] = [("land", c, space, gained)]
    if moved < state.want:
        front = track.front_car(space, on_track(state, c), rows)
        if front is not None:
            state, ok = _add_marker(state, front, "Bump")
            news.append(("marker", front, "Bump", ok))
    # a 3-wide marker follows a move: a car left where it stood (a full grid row) earns none
    m = track.three_wide(space, taken(state), rows, state.settings.corners) if track.row(space) != start else None
    if m:
        state, ok = _add_marker(state, c, m)
        news.append(("marker", c, m, ok))
    passed = set(track.rows_passed(start, moved, rows))
    if any(track.row(z) in passed and state.want > limit for z, limit in state.settings.brakes):
        state, ok = _add_marker(state, c, "Brake")
        news.append(("marker", c, "Brake", ok))
    queue = list(state.queue)
    if moved:
        for slinger, target in state.slings:
            if target == c and slinger not in state.group:
                queue.append((slinger, 2))
                news.append(("slingshot", slinger))
        state = evolve(state, slings=tuple(x for x in state.slings if x[1] != c or x[0] in state.group))
    state = evolve(state, news=tuple(news), faces=(), die=-1, last=c)
    return _next_move(state, queue)


def _apply_mark(state: State, e) -> State:
    c, marker = int(e["car"]), str(e["marker"])
    if state.phase not in (ROLL, TACTIC, CHECK) or c != state.last or marker not in TABLE_MARKERS:
        raise RuleError("a marker goes on the car that moved last")
    state, ok = _add_marker(state, c, marker)
    if not ok:
        raise RuleError(f"no {marker} marker left")
    return evolve(state, news=(("marker", c, marker, True),))


def _apply_check(state: State, e) -> State:
    """The trigger card: Brake and Engine at once; every other triggered or automatic
    incident waits, front to back, for the table to confirm its wreck (``wreck``)."""
    if state.phase != CHECK:
        raise RuleError("no incident check now")
    drawn = [int(x) for x in e["cards"]]
    if not drawn:           # the deck is all in the players' hands: every marker is forgiven
        state = evolve(state, cars=tuple(evolve(c, markers=()) for c in state.cars), news=(("no-card",),),
                       todo=(), check_yellow=False, last=-1)
        return _next_incident(state)
    trigger = card(state, drawn[0])
    spare = drawn[1:]
    news: list[tuple] = [*_deck_news(e), ("trigger", drawn[0])]
    cars = list(state.cars)
    for i, car in enumerate(cars):
        if "Brake" in car.markers and "Brake" in trigger.trigger:
            cars[i] = evolve(car, damage=car.damage + 1)
            news.append(("brake", i))
        if "Engine" in car.markers and "Engine" in trigger.trigger:
            cars[i] = evolve(cars[i], handling=cars[i].handling + 1)
            news.append(("engine", i))
    before = state.cars
    state = evolve(state, cars=tuple(cars))
    todo = []
    for c, marker in incidents(state, trigger):
        if spare:
            todo.append((c, marker, spare.pop(0)))
    flipped = False
    for i in range(len(state.cars)):
        state = _condition(state, i)
        flipped = flipped or (state.cars[i].roof and not before[i].roof)
    if "Slingshot" in trigger.trigger:
        state = evolve(state, slings=())
    state = evolve(state, cars=tuple(evolve(c, markers=()) for c in state.cars),
                   pile=tuple(e["pile"]), discard=tuple(e["discard"]), news=tuple(news),
                   todo=tuple(todo), check_yellow=flipped, last=-1)
    return _next_incident(state)


def _next_incident(state: State) -> State:
    """The next incident's wreck proposed (the car with the marker, then the nearest-car
    rule), else the end of the incident check."""
    todo = list(state.todo)
    while todo:
        c, marker, res = todo[0]
        if state.cars[c].running:
            wreck = track.wreck(c, on_track(state), card(state, res).cars, state.settings.rows)
            return evolve(state, phase=WRECK, todo=tuple(todo), wreck_cars=wreck)
        todo.pop(0)
    yellow = (state.check_yellow or state.debris) and state.gwc != 2
    news = state.news + ((("debris",),) if state.debris else ()) + (("flag", "yellow" if yellow else "green"),)
    state = evolve(state, todo=(), wreck_cars=(), yellow=yellow, news=news, check_yellow=False)
    if yellow:
        return evolve(state, phase=CAUTION, cautions=state.cautions + 1, slings=())
    return evolve(state, phase=LEADER)


def wreck_candidates(state: State) -> tuple[int, ...]:
    """Cars the table may swap into the wreck: on the track, within two spaces of a car
    in it, nearest the car with the marker first."""
    cars = on_track(state)
    rows = state.settings.rows
    first = state.wreck_cars[0]
    near = [c for c in cars if c not in state.wreck_cars
            and any(track.distance(cars[c], cars[w], rows) <= 2 for w in state.wreck_cars)]
    return tuple(sorted(near, key=lambda c: (track.distance(cars[c], cars[first], rows), cars[c])))


def _apply_wreck(state: State, e) -> State:
    if state.phase != WRECK:
        raise RuleError("no wreck to settle now")
    cars = tuple(int(x) for x in e["cars"])
    c, marker, res = state.todo[0]
    if not cars or cars[0] != c or len(set(cars)) != len(cars) or any(not state.cars[w].running for w in cars):
        raise RuleError("a wreck starts with the car with the marker, each car once, on the track")
    rc = card(state, res)
    news = list(state.news)
    flipped = state.check_yellow
    for w in cars:
        was_roof = state.cars[w].roof
        if rc.damage and state.cars[w].damage + rc.damage >= ROOF_AT and has_skill(state, w, "great-save"):
            state = _spend(state, w, "great-save")
            news.append(("skill", w, "great-save"))
            continue
        state = _set_car(state, w, damage=state.cars[w].damage + rc.damage)
        state = _condition(state, w)
        flipped = flipped or (state.cars[w].roof and not was_roof)
    news.append(("wreck", c, marker, res, cars))
    state = evolve(state, news=tuple(news), todo=state.todo[1:], check_yellow=flipped or rc.flag == "yellow")
    return _next_incident(state)


def _apply_fix_wreck(state: State, e) -> State:
    """The table corrects the proposed wreck: drop a car, or swap one in for the last."""
    if state.phase != WRECK:
        raise RuleError("no wreck to correct now")
    car = int(e["car"])
    if e["kind"] == "drop":
        if car not in state.wreck_cars[1:]:
            raise RuleError("only a car in the wreck, not the first, can be taken out")
        return evolve(state, wreck_cars=tuple(w for w in state.wreck_cars if w != car))
    if car not in wreck_candidates(state):
        raise RuleError("that car is not near the wreck")
    keep = state.wreck_cars[:-1] if len(state.wreck_cars) >= card(state, state.todo[0][2]).cars else state.wreck_cars
    if not keep:
        keep = state.wreck_cars
    return evolve(state, wreck_cars=keep + (car,))


def _condition(state: State, c: int) -> State:
    car = state.cars[c]
    if car.damage >= DEMOLISHED_AT and not car.out:
        state = evolve(state, wrecked=state.wrecked + ((c, _lead_lap(state) + 1),))
        return _set_car(state, c, out=True, roof=False, markers=())
    if ROOF_AT <= car.damage < DEMOLISHED_AT and not car.roof and not car.stuck:
        return _set_car(state, c, roof=True)
    return state


def _pace_all(state: State, fuel: int, wear: int, laps: int, caution: bool) -> tuple[State, list]:
    """The race pace applied to every car: fuel, tires, laps (cars in the pit lane burn
    nothing and stay on their lap; under green a car on its roof does not advance)."""
    news = []
    cars = list(state.cars)
    for i, car in enumerate(cars):
        if car.out or car.stuck:
            continue
        left, dry = dice.burn(car.fuel, fuel)
        lap = car.lap + (laps if (caution or not car.roof) else 0) - (1 if dry else 0)
        cars[i] = evolve(car, fuel=left, tires=dice.wear(car.tires, wear), lap=lap, dry=car.dry + dry)
        if dry:
            news.append(("dry", i))
    return evolve(state, cars=tuple(cars)), news


def _apply_pace(state: State, e) -> State:
    if state.phase != LEADER:
        raise RuleError("no race pace now")
    face = int(e["face"])
    if not 1 <= face <= 6:
        raise RuleError("a d6 shows 1 to 6")
    first = leader(state)
    if first is not None:
        state = _set_car(state, first, led=state.cars[first].led + 1)
    eligible = [i for i, c in enumerate(state.cars) if c.running and not c.roof]
    if eligible and all(not state.cars[i].face_up for i in eligible):
        state = evolve(state, cars=tuple(evolve(c, face_up=True) for c in state.cars))
    fuel, wear, laps = GWC_PACE if state.gwc == 2 else state.settings.pace[face - 1]
    state, news = _pace_all(state, fuel, wear, laps, caution=False)
    state = _chart(state)
    news = [("pace", face, fuel, wear, laps, -1 if first is None else first)] + news
    if state.gwc == 2 or any(c.lap >= state.settings.laps for c in state.cars if not c.out) or not _anyone(state):
        return evolve(state, phase=OVER, news=tuple(news))
    return evolve(state, phase=PITS, pitted=(), news=tuple(news))


def _anyone(state: State) -> bool:
    return any(not c.out for c in state.cars)


def _lead_lap(state: State) -> int:
    return max((c.lap for c in state.cars if not c.out), default=0)


def _chart(state: State) -> State:
    order = classification(state)
    return evolve(state, chart=state.chart + ((_lead_lap(state), order),))


def _apply_pit(state: State, e) -> State:
    c = int(e["car"])
    if state.phase == PITS:
        if c in state.pitted or state.cars[c].out:
            raise RuleError("this car has already declared its stop")
        return evolve(state, pitted=state.pitted + (c,), news=(("to-pit", c),))
    if state.phase == YPIT:
        if c in state.stayed or c in state.boxes or not state.cars[c].running:
            raise RuleError("this car has already chosen")
        return evolve(state, boxes=state.boxes + (c,), news=(("to-pit", c),))
    raise RuleError("no pit stops now")


def _apply_done(state: State, e) -> State:
    if state.phase != PITS:
        raise RuleError("no green-flag pit stops now")
    if not state.pitted:
        return _new_turn(evolve(state, news=()))
    # the declared cars are serviced one by one, in race position order
    order = race_order(state, _with_stuck(state))
    queue = tuple(c for c in order if c in state.pitted)
    return evolve(state, phase=SERVICE, boxes=queue, car=queue[0])


def _apply_stay(state: State, e) -> State:
    if state.phase != YPIT:
        raise RuleError("no pit-or-stay-out now")
    order = race_order(state)
    wheels = [c for c in order if not state.cars[c].roof]
    pitting = [c for c in wheels if c in state.boxes]
    stayed = tuple(c for c in wheels if c not in state.boxes)
    roofs = [c for c in order if state.cars[c].roof]
    stuck = [i for i, c in enumerate(state.cars) if c.stuck and not c.out]
    boxes = tuple(pitting + roofs + stuck)
    state = evolve(state, stayed=stayed, boxes=boxes, times=(), news=(("boxes",),))
    if not boxes:
        return _restart(state)
    return evolve(state, phase=YSERVICE, car=boxes[0])


def _apply_stop(state: State, e) -> State:
    c = int(e["car"])
    if state.phase not in (SERVICE, YSERVICE) or c != state.car:
        raise RuleError("not this car's pit stop")
    stop = stop_of(state, str(e["stop"]))
    extra = bool(e["extra"])
    if stop.id == MAJOR:
        if not has_skill(state, c, "major-repair"):
            raise RuleError("no Major Repair token")
        state = _spend(state, c, "major-repair")
    rolls = [int(r) for r in e["rolls"]]
    if len(rolls) != attempts(state, c, stop.id, extra) or any(not 1 <= r <= 6 for r in rolls):
        raise RuleError("the adjustment rolls do not fit this stop")
    car = state.cars[c]
    worn = sorted(range(4), key=lambda i: (-car.tires[i], i))[:stop.tires]
    tires = tuple(0 if i in worn else w for i, w in enumerate(car.tires))
    damage = car.damage
    if "quick-fix" in state.pending:
        damage = max(0, damage - 1)
    if stop.id == MAJOR:
        damage = max(0, damage - 2)
    fixed = car.damage - damage
    for r in rolls:
        if damage and r <= damage:
            damage -= 1
            fixed += 1
    stuck = damage >= STUCK_AT
    time = stop.time + (state.settings.extra_time if extra else 0)
    if "fast-pit" in state.pending:
        time = max(0, time - state.settings.fast_pit)
    state = _set_car(state, c, tires=tires, fuel=min(state.settings.tank, car.fuel + stop.fuel), damage=damage,
                     roof=False, stuck=stuck, pits=car.pits + 1, markers=())
    state = evolve(state, pitted=state.pitted + ((c, _lead_lap(state) + 1),))
    news = [("stop", c, stop.id, extra, tuple(rolls), fixed, stuck)]
    state = evolve(state, pending=())
    if state.phase == SERVICE:
        if not stuck:
            space, lost = track.back(car.space, time, state.settings.rows, taken(state, c))
            state = _set_car(state, c, space=space, lap=car.lap - 1 - lost)
            news.append(("back", c, time, space, 1 + lost))
        state = evolve(state, news=tuple(news))
        at = state.boxes.index(c) + 1
        if at < len(state.boxes):
            return evolve(state, car=state.boxes[at])
        return _new_turn(state)
    box = state.boxes.index(c) + 1
    times = state.times + (((c, time + box, box),) if not stuck else ())
    state = evolve(state, times=times, news=tuple(news))
    nxt = box  # index of the next box
    if nxt < len(state.boxes):
        return evolve(state, car=state.boxes[nxt])
    return _restart(state)


def restart_grid(state: State) -> tuple[tuple[int, ...], tuple[int, ...], int | None]:
    """(grid, waved around, leader) of the restart (3.1): the cars that stayed out in race
    order, then the pit stops fastest first (a tie to the lower pit box, which finished
    first); the leader is the first in race position order; cars ahead of it in the grid
    that are not on the lead lap are waved around to the back (a lap gained)."""
    pitted = [c for c, _, _ in sorted(state.times, key=lambda t: (t[1], t[2]))]
    grid = list(state.stayed) + pitted
    if not grid:
        return (), (), None
    lead_lap = max(state.cars[c].lap for c in grid)
    lead = next(c for c in grid if state.cars[c].lap == lead_lap)
    at = grid.index(lead)
    waved = tuple(c for c in grid[:at] if state.cars[c].lap < lead_lap)
    final = tuple(c for c in grid if c not in waved) + waved
    return final, waved, lead


def _restart(state: State) -> State:
    grid, waved, lead = restart_grid(state)
    cars = list(state.cars)
    for slot, c in enumerate(grid):
        cars[c] = evolve(cars[c], space=slot + 1, lap=cars[c].lap + (1 if c in waved else 0))
    if lead is not None:
        cars[lead] = evolve(cars[lead], led=cars[lead].led + 1)
    cars = [evolve(c, face_up=True, markers=()) for c in cars]
    state = evolve(state, cars=tuple(cars), yellow=False, restarts=state.restarts + ((grid, waved),),
                   car=-1, fill=True, slings=(), news=state.news + (("restart", len(state.restarts) + 1),))
    state = _chart(state)
    return _new_turn(state)


def _apply_caution(state: State, e) -> State:
    if state.phase != CAUTION:
        raise RuleError("no caution now")
    face = int(e["face"])
    if not 1 <= face <= 6:
        raise RuleError("a d6 shows 1 to 6")
    first = leader(state)
    news: list[tuple] = []
    if first is not None:
        lead = state.cars[first]
        for i, car in enumerate(state.cars):
            if car.running and car.lap < lead.lap and car.space < lead.space:
                state = _set_car(state, i, lap=car.lap + 1)
                news.append(("catch-up", i))
    fuel, wear, laps = state.settings.pace[face - 1]
    state, dry = _pace_all(state, fuel, wear, laps, caution=True)
    news = [("pace", face, fuel, wear, laps, -1 if first is None else first)] + news + dry
    if state.gwc == 0 and any(c.lap >= state.settings.laps for c in state.cars if not c.out):
        state = evolve(state, gwc=1)
        news.append(("gwc",))
    if not _anyone(state):
        return evolve(state, phase=OVER, news=tuple(news))
    state = evolve(state, phase=YPIT, stayed=(), boxes=(), news=tuple(news))
    if not [c for c in race_order(state) if not state.cars[c].roof]:
        return _apply_stay(state, {"kind": "stay"})
    return state


_APPLY = {"mark": _apply_mark, "wreck": _apply_wreck, "drop": _apply_fix_wreck, "swap": _apply_fix_wreck,
          "experience": _apply_experience, "skill": _apply_skill, "deal": _apply_deal, "show": _apply_show, "play": _apply_play, "redraw": _apply_redraw,
          "tactics-done": _apply_tactics_done, "skip": _apply_skip, "resolve": _apply_resolve,
          "start": _apply_start, "roll": _apply_roll, "die": _apply_die, "land": _apply_land,
          "check": _apply_check, "pace": _apply_pace, "pit": _apply_pit, "done": _apply_done,
          "stay": _apply_stay, "stop": _apply_stop, "caution": _apply_caution}


# -- results --------------------------------------------------------------------------

def points(state: State) -> list[tuple[int, int, dict[str, int]]]:
    """(car, points, bonuses) in finishing order (4.1)."""
    order = classification(state)
    most = max((c.led for c in state.cars), default=0)
    out = []
    for pos, c in enumerate(order, start=1):
        car = state.cars[c]
        bonus = {}
        if pos == 1:
            bonus["win"] = WIN_BONUS
        if car.led:
            bonus["laps_led"] = LED_BONUS
        if most and car.led == most:
            bonus["most_laps_led"] = MOST_LED_BONUS
        base = POINTS[pos - 1] if pos <= len(POINTS) else 0
        out.append((c, base + sum(bonus.values()), bonus))
    return out


def player_scores(state: State) -> list[dict[str, Any]]:
    """Each player's score: their team cars' points plus their associated cars' points
    halved (rounded down), best first (a tie shares a position)."""
    from companion.kit.standings import ranked
    rows = []
    scored = points(state)
    for p, name in enumerate(state.players):
        team = sum(pts for c, pts, _ in scored if state.cars[c].owner == p and state.cars[c].team)
        assoc = sum(pts for c, pts, _ in scored if state.cars[c].owner == p and not state.cars[c].team)
        rows.append({"name": name, "team": team, "associated": assoc, "points": team + assoc // 2})
    return ranked(rows)


def standings(state: State) -> list[dict[str, Any]]:
    from companion.kit.standings import standing
    out = []
    for pos, (c, pts, bonus) in enumerate(points(state), start=1):
        car = state.cars[c]
        out.append(standing(pos, car_name(state, c), pts, number=car.number, player=state.players[car.owner],
                            team=car.team, laps=car.lap, laps_led=car.led, bonus=dict(bonus),
                            damage=car.damage, out=car.out, pits=car.pits, colour=COLOURS[car.owner % len(COLOURS)]))
    return out


def summary(state: State) -> dict[str, Any]:
    return {"race": state.settings.race_label, "track": state.settings.track_label, "laps": state.settings.laps,
            "turns": state.turn, "cautions": state.cautions, "restarts": len(state.restarts),
            "pit_stops": sum(c.pits for c in state.cars), "demolished": sum(c.out for c in state.cars),
            "players": player_scores(state), "lap_chart": lap_chart(state)}


def lap_chart(state: State) -> dict[str, Any]:
    """The race order after each turn, at the leader's lap then (``at``: a turn runs
    several laps; the last order of a lap when two turns ended on it), the pit stops and
    the cars demolished, by car name (``companion.charts.lap_chart_spec``)."""
    ends: dict[int, tuple[int, ...]] = {}
    for lead, order in state.chart:
        if lead >= 1:
            ends[lead] = order
    return {"laps": [[car_name(state, c) for c in ends[k]] for k in sorted(ends)], "at": sorted(ends),
            "pits": [[car_name(state, c), lap] for c, lap in state.pitted],
            "out": [[car_name(state, c), lap] for c, lap in state.wrecked]}


def describe(event: Mapping[str, Any]) -> str:
    kind = event.get("kind")
    if kind in ("roll", "experience"):
        return " ".join(event.get("faces", []))
    if kind == "wreck":
        n = len(event.get("cars", []))
        return counted(n, "car")
    if kind == "deal":
        return counted(sum(len(h) for h in event.get('cards', [])), "card")
    if kind in ("pace", "caution"):
        return f"d6 {event.get('face')}"
    if kind == "stop":       # the stop and the car are said by the move
        rolls = event.get("rolls") or []
        return f"adjustment rolls {' '.join(map(str, rolls))}" if rolls else ""
    if kind == "check":
        return counted(len(event.get("cards", [])), "card")
    return ""


def championship_entries(results: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A finished race (its results.json) as championship entries: the players, by their
    score (team cars + associated cars halved), since a player wins 3-Wide (4.1). The cars'
    season is :func:`season_by_car`."""
    players = results.get("players")
    if not isinstance(players, list) or not players:      # an older results file: its cars
        return list(results.get("standings", ()))
    colours = {r.get("player"): r.get("colour") for r in results.get("standings", ())}
    rows = [{"name": p["name"], "position": p["position"], "points": p["points"],
             **({"colour": colours[p["name"]]} if colours.get(p["name"]) else {})} for p in players]
    return sorted(rows, key=lambda r: r["position"])


def season_by_car(results: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every car's points over several races (results.json dicts, oldest first) (4.2)."""
    from companion.core.scoring import championship
    return championship([list(r.get("standings", ())) for r in results])
