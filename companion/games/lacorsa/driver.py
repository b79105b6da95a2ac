"""The automated racecars: what they play, decided from what a player at the table knows.

An automated car sees only :class:`Knowledge`: its own hand, every card played (they lie
face up), how many cards each car has left, the race order, the lap and whether it is the
final lap. It never sees another car's hand (a human's is unknown to the companion; another
automated car's is secret on the device).

The written policy (docs/games/lacorsa.md says it in the table's words):

- A car with a car in the space directly ahead must challenge it, team-mate or not (the
  rules say so; team orders then decide the place). With an open space ahead it still
  challenges a rival further ahead: a challenge costs one card, as a discard or an extend
  does, and may gain a place.
- The chance that an opponent beats a card is worked out from the unseen cards (every card
  of the race not in the car's hand and not yet played): the opponent holds ``left`` of
  them and plays its best card when it holds three or fewer (or on the final lap), else
  its second best. Attacking, the car must play higher; defending, a tie is enough (ties
  go to the car in front).
- It plays the cheapest card that wins with at least its level's nerve (Steady 50%,
  Racer 90%); when none does, it gives the challenge up cheaply with the card it can best
  do without. Near the end (the final lap, a car down to one card, or itself down to two)
  it plays its surest card: cards kept back are worth nothing after the flag.
- The Champion 12 is kept for the end, its last three cards, and (Racer) a fight for the
  lead; the Redline's +2 goes with a card when that wins (Steady: only near the end).
- With nobody ahead (the leader) or a team-mate beyond an open space, the turn ends with an Extend card
  into the open space when it has one it may use (the leader never with the Drafting 3),
  else with a discard of the card it can best do without; a Racer in the lead discards
  two with its Redline to bring the end nearer.
- Team orders: when two cars of one automated driver meet, both play the card they can
  best do without.

The Racer's higher nerve makes it keep its good cards for the challenges it will win: in
200 seeded races of two Racers against two Steadies the Racers won about two in three.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from companion.games.lacorsa.suit import Settings

STEADY, RACER = "steady", "racer"
LEVELS = ((STEADY, "Steady"), (RACER, "Racer"))
NERVE = {STEADY: 0.5, RACER: 0.9}      # the chance of winning a car needs to fight (the
# built-in default; data.toml's [automated] nerve sets it)


@dataclass(frozen=True)
class Knowledge:
    me: int
    level: str
    settings: Settings
    hand: tuple[str, ...]
    unseen: tuple[int, ...]             # values of the cards the others may hold
    left: tuple[int, ...]               # cards left per car
    order: tuple[int, ...]              # running cars, front to back
    team: tuple[int, ...]               # the cars of the same driver (itself included)
    final: bool
    open_ahead: bool
    nerve: float | None = None          # None: the level's built-in nerve
    must_challenge: bool = False        # a car in the space directly ahead (rules.State.must_challenge)

    @property
    def position(self) -> int:
        return self.order.index(self.me) + 1 if self.me in self.order else 0

    @property
    def ahead(self) -> int | None:
        i = self.order.index(self.me)
        return self.order[i - 1] if i > 0 else None


def _chance_below(k: Knowledge, car: int, value: int, strict: bool) -> float:
    """The chance that ``car`` plays below ``value`` (``strict``: below or equal) when it
    holds ``k.left[car]`` of the unseen cards and plays its ``depth``-th best: its best with
    three cards or fewer (or on the final lap), else its second best (a driver keeps its
    top card for later, as the table does)."""
    held = k.left[car]
    if held <= 0:
        return 1.0 if (value > 0 or not strict) else 0.0
    pool = len(k.unseen)
    held = min(held, pool)
    if not pool:
        return 1.0
    depth = 1 if (held <= 3 or k.final) else 2
    over = sum(1 for v in k.unseen if (v >= value if strict else v > value))   # cards that stop it
    under = pool - over
    total = comb(pool, held)
    # fewer than ``depth`` of the car's cards stop it: hypergeometric
    return sum(comb(over, j) * comb(under, held - j) for j in range(depth)) / total


def win_chance(k: Knowledge, other: int, value: int, attacking: bool) -> float:
    """The chance a play worth ``value`` beats ``other`` (attacking: it must be higher)."""
    return _chance_below(k, other, value, strict=attacking)


def late(k: Knowledge) -> bool:
    """The race is (nearly) over: the final lap, a car down to its last card, or this car
    down to two: cards kept back are worth nothing after the flag."""
    running = [k.left[c] for c in k.order]
    return k.final or min(running, default=0) <= 1 or len(k.hand) <= 2


def keep_value(k: Knowledge, name: str) -> float:
    """How much a card is worth keeping: its value; a Redline its bonus and a half more
    (it lifts any card), so Extend cards and a 4 go before it and a 5 after."""
    card = k.settings.card(name)
    return card.bonus + 2.5 if card.redline else card.value


def _plays(k: Knowledge) -> list[tuple[str, ...]]:
    """Every play from the hand: one card, or the Redline with one other card."""
    s = k.settings
    singles = sorted(set(k.hand), key=lambda n: s.card(n).value)
    out = [(n,) for n in singles]
    red = s.redline
    if red in k.hand and len(k.hand) >= 2:
        out += [(red, n) for n in singles if n != red]
    return out


def _cost(k: Knowledge, play: tuple[str, ...]) -> int:
    s = k.settings
    cost = 0
    for n in play:
        card = s.card(n)
        cost += card.bonus + 3 if card.redline else card.value + (20 if card.kind == "champion" else 0)
    return cost


def _allowed(k: Knowledge, play: tuple[str, ...], other: int) -> bool:
    s = k.settings
    kinds = {s.card(n).kind for n in play}
    near_end = late(k) or len(k.hand) <= 3
    for_lead = k.level == RACER and (k.order[:1] == (other,) or k.position == 1)
    if "champion" in kinds and not (near_end or for_lead):
        return False
    if "redline" in kinds and len(play) > 1 and k.level == STEADY and not near_end:
        return False
    return True


def lowest(k: Knowledge) -> tuple[str, ...]:
    """The card the car can best do without (see :func:`keep_value`)."""
    return (min(k.hand, key=lambda n: (keep_value(k, n), n)),)


def best_play(k: Knowledge, other: int, attacking: bool) -> tuple[tuple[str, ...], float]:
    """The cheapest allowed play that wins with the level's nerve (or, on the final lap,
    the surest one), and its chance; else the lowest card and its chance."""
    s = k.settings
    plays = [p for p in _plays(k) if _allowed(k, p, other)] or [lowest(k)]
    scored = [(p, win_chance(k, other, s.worth(p), attacking)) for p in plays]
    if late(k):
        return max(scored, key=lambda pc: (pc[1], -_cost(k, pc[0])))
    nerve = k.nerve if k.nerve is not None else NERVE.get(k.level, NERVE[STEADY])
    good = [pc for pc in scored if pc[1] >= nerve]
    if good:
        return min(good, key=lambda pc: (_cost(k, pc[0]), -pc[1]))
    low = lowest(k)
    return low, win_chance(k, other, s.worth(low), attacking)


def qualify(k: Knowledge) -> tuple[str, ...]:
    """Qualifying: the cheapest card at least as good as most unseen cards (Racer: a
    little better), never the Champion nor the Redline's bonus."""
    s = k.settings
    plain = sorted((n for n in set(k.hand) if s.card(n).kind not in ("champion", "redline")),
                   key=lambda n: s.card(n).value)
    if not plain:
        return lowest(k)
    values = sorted(k.unseen)
    mark = values[int(len(values) * (0.6 if k.level == RACER else 0.5))] if values else 0
    return next(((n,) for n in plain if s.card(n).value >= mark), (plain[-1],))


def attack(k: Knowledge, defender: int) -> tuple[str, ...]:
    if defender in k.team:
        return lowest(k)
    return best_play(k, defender, attacking=True)[0]


def defend(k: Knowledge, attacker: int) -> tuple[str, ...]:
    if attacker in k.team:
        return lowest(k)
    return best_play(k, attacker, attacking=False)[0]


def decide(k: Knowledge) -> tuple[str, tuple[str, ...]]:
    """At the start of a turn or after a pass: ("challenge", ()), ("extend", (card,)) or
    ("discard", cards)."""
    s = k.settings
    ahead = k.ahead
    if k.must_challenge or (ahead is not None and ahead not in k.team):
        # a challenge costs one card, as a discard or an extend does, and may gain a place:
        # the car always challenges, with its lowest card when it cannot expect to win
        return "challenge", ()
    if k.open_ahead:
        extends = [n for n in k.hand if s.card(n).extend and not (k.position == 1 and s.card(n).kind == "drafting-extend")]
        if extends:
            return "extend", (min(extends, key=lambda n: s.card(n).value),)
    red = s.redline
    if k.level == RACER and k.position == 1 and red in k.hand and len(k.hand) >= 3:
        rest = [n for n in k.hand if n != red and s.card(n).kind != "champion"]
        if rest:
            return "discard", (red, min(rest, key=lambda n: s.card(n).value))
    return "discard", lowest(k)
