"""Shared steps for the 3-Wide tests: the built-in data, hand-built events, cars put
where a test needs them."""

import random
import tomllib
from pathlib import Path

from companion.games.three_wide import rules
from companion.kit.update import evolve, replace_at

DATA_FILE = Path(rules.__file__).with_name("data.toml")


def load_data():
    with DATA_FILE.open("rb") as f:
        return tomllib.load(f)


def started(players=3, data=None, grid=None, racing=True, **options):
    """A race after its start event, the grid in car order unless ``grid`` says; with
    ``racing`` the first turn's tactics are passed (no cards dealt, none played)."""
    state = rules.setup({"players": players, **options}, data or load_data())
    grid = list(range(len(state.cars))) if grid is None else grid
    state = rules.apply(state, {"kind": "start", "grid": grid, "pile": list(range(len(state.settings.deck)))})
    return skip_tactics(state) if racing else state


def skip_tactics(state):
    """Deal nothing, play nothing: on to the racing phase."""
    state = rules.apply(state, {"kind": "deal", "cards": [[] for _ in state.players],
                                "pile": list(state.pile), "discard": list(state.discard)})
    for _ in state.players:
        state = rules.apply(state, {"kind": "tactics-done"})
    return state


def with_car(state, c, **changes):
    return evolve(state, cars=replace_at(state.cars, c, evolve(state.cars[c], **changes)))


def card_index(state, *, trigger=None, flag=None, cars=None, damage=None, name=None):
    """The index in the race deck of a card with these boxes."""
    for i, card in enumerate(state.settings.deck):
        if ((trigger is None or set(trigger) <= set(card.trigger)) and (flag is None or card.flag == flag)
                and (cars is None or card.cars == cars) and (damage is None or card.damage == damage)
                and (name is None or card.name == name)):
            return i
    raise LookupError("no such card")


def perform(state, kind, rng=None, **args):
    """Resolve and apply the one offered move of ``kind`` whose args include ``args``."""
    offered = [m for m in rules.moves(state) if m.kind == kind and all(m.arg(k) == v for k, v in args.items())]
    assert len(offered) == 1, f"{kind} {args} not offered once in {[m.label for m in rules.moves(state)]}"
    event = rules.resolve(state, offered[0], rng or random.Random(0))
    return rules.apply(state, event), event


class Scripted(random.Random):
    """An rng whose ``choice`` and ``randint`` give stacked outcomes in turn."""

    def __init__(self, choices=(), ints=()):
        super().__init__(0)
        self.choices_left = list(choices)
        self.ints_left = list(ints)

    def choice(self, seq):
        want = self.choices_left.pop(0)
        assert want in seq, f"{want} is not a face of {seq}"
        return want

    def randint(self, a, b):
        value = self.ints_left.pop(0)
        assert a <= value <= b
        return value
