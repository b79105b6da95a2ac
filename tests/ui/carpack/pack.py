"""An activity for the wizard's tests: 2-4 cars, each human or automated (an automated
one with a level), and 20 wear points shared among three zones per car. Its only move
ends the race; its standings are the cars in grid order."""

from companion.games.api import Activity, CarOption, Demo, Option, make_move
from companion.kit.cars import AUTO, HUMAN, entries
from companion.kit.standings import standing
from companion.ui.view import Menu, View

OPTIONS = (Option("players", "Cars", "players", default=2, low=2, high=4),)
CAR_OPTIONS = (
    CarOption("driver", "Driver", choices=((HUMAN, "Human"), (AUTO, "Automated"))),
    CarOption("level", "Level", "number", default=1, low=1, high=2, only_if=("driver", AUTO)),
    CarOption("wear", "Wear points", "split", total=20,
              parts=(("tires", "Tires", 1, 14), ("brakes", "Brakes", 1, 7), ("engine", "Engine", 1, 7)),
              default={"tires": 14, "brakes": 3, "engine": 3}),
)


def setup(options, data):
    return (tuple(tuple(sorted(c.items(), key=str)) for c in entries(options, low=2, high=4, game="Test")), False)


def moves(state):
    return [] if state[1] else [make_move("end", "End", primary=True)]


def resolve(state, move, rng):
    return {"kind": "end"}


def apply(state, event):
    return (state[0], True)


def standings(state):
    return [standing(i + 1, dict(car)["name"], 0) for i, car in enumerate(state[0])]


def view(state):
    return View("Cars", (Menu(tuple(dict(c)["name"] for c in state[0])),))


ACTIVITY = Activity(
    slug="cartest", kind="game", options=OPTIONS, car_options=CAR_OPTIONS, data="none",
    setup=setup, moves=moves, resolve=resolve, apply=apply, finished=lambda s: s[1],
    standings=standings, view=view, receipts=lambda s: {},
    demo=Demo({"players": 2}, lambda s: None if s[1] else moves(s)[0]),
)
