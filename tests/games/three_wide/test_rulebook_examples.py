"""The built-in data against every number the rulebook prints: its track examples (2.3),
the dice examples, the components (1.1, 1.2), skills (1.4), the pit stop (3.2) and the
points (4.1). Data marked as an assumption must still agree with all of them."""

import pytest

from companion.games.three_wide import rules, tables
from companion.kit.update import evolve
from tests.games.three_wide.helpers import Scripted, load_data, perform, started, with_car

DATA = load_data()
CLASSIC_RACES = [r for r, race in DATA["races"].items() if race["track"] == "classic-oval"]
ALL_RACES = list(DATA["races"])
FIVE = ["5x", "6xx", "7xx", "8xxx"]          # a black-tire roll: die 0 is a plain 5


def _three_wide_markers(state):
    return {c: m for c, car in enumerate(state.cars) for m in car.markers if m in ("3-Str", "3-Crn")}


def _go_five(state, car, space):
    """``car`` (the roller now) rolls, picks the plain 5 and lands on ``space``."""
    assert state.mover == car
    state, _ = perform(state, "roll", Scripted(choices=FIVE))
    state, _ = perform(state, "die", die=0)
    assert state.proposal == space
    state, _ = perform(state, "land", space=space)
    return state


@pytest.mark.parametrize("race", CLASSIC_RACES)
def test_the_3_wide_straight_example_on_the_classic_oval(race):
    """"on the Classic Oval track there is a car in space number 28 and another car in
    space number 29. A car moves and ends in space number 27. This is not a 3-Wide
    situation ... If another car moves and ends in space number 30 then this does produce
    a 3-Wide Straight situation." """
    state = started(3, race=race)
    state = with_car(state, 8, space=28)
    state = with_car(state, 9, space=29)
    state = with_car(state, 0, space=42)         # five rows behind 27, outside lane
    state = with_car(state, 1, space=45)         # five rows behind 30, outside lane
    state = _go_five(state, 0, 27)
    assert _three_wide_markers(state) == {}
    state = _go_five(state, 1, 30)
    assert _three_wide_markers(state) == {1: "3-Str"}


@pytest.mark.parametrize("race", CLASSIC_RACES)
def test_the_3_wide_corner_example_on_the_classic_oval(race):
    """"on the Classic Oval track there is a car in space number 45 and another in space
    46. Now a car moves and ends its movement in space number 47. This creates a 3-Wide
    Corner ... If another car moves and ends in space 49, this will create another 3-Wide
    Corner situation." """
    state = started(3, race=race)
    state = with_car(state, 8, space=45)
    state = with_car(state, 9, space=46)
    # the first two rollers start five rows behind 47 and 49 (across the line)
    state = with_car(state, 3, space=1)
    state = with_car(state, 0, space=2)
    state = with_car(state, 1, space=4)
    state = _go_five(state, 0, 47)
    assert _three_wide_markers(state) == {0: "3-Crn"}
    state = _go_five(state, 1, 49)
    assert _three_wide_markers(state) == {0: "3-Crn", 1: "3-Crn"}


@pytest.mark.parametrize("faces, pick, fuel, worn, go, marker", [
    (["5xs", "7xx", "5x", "5x"], "5xs", 1, 1, 7, None),
    (["4!", "3!", "4s", "5x"], "4s", 1, 0, 5, "Tire"),
    (["8xxx", "8xxx", "7xx", "4!"], "8xxx", 0, 3, 9, None),
])
def test_the_dice_examples(faces, pick, fuel, worn, go, marker):
    """The three examples of 2.3 (Duplicates), rolled with the matching tire chips."""
    state = started(3)
    colours = [tables.TIRES.index(_colour(f)) for f in faces]
    state = with_car(state, 0, tires=tuple(colours), fuel=5)
    state, _ = perform(state, "roll", Scripted(choices=faces))
    assert state.cars[0].markers == ((marker,) if marker else ())
    state, _ = perform(state, "die", die=faces.index(pick))
    car = state.cars[0]
    assert state.want == go
    assert car.fuel == 5 + fuel
    assert sum(car.tires) - sum(colours) == worn


def _colour(face):
    """A tire colour whose die shows ``face`` (appendix B)."""
    return next(t for t in tables.TIRES if face in DATA["dice"][f"tire-{t}"]["faces"])


def test_the_tire_dice_are_appendix_b():
    faces = {t: DATA["dice"][f"tire-{t}"]["faces"] for t in tables.TIRES}
    assert faces == {"black": ["5x", "5xs", "6xx", "6xx", "7xx", "8xxx"], "green": ["4!", "4s", "5x", "5x", "6xx", "6xx"],
                     "yellow": ["3!", "3!", "4", "4s", "5x", "5x"], "red": ["1!", "1!", "2!", "2!", "3", "3"]}


@pytest.mark.parametrize("race", ALL_RACES)
def test_the_components_and_the_race_deck(race):
    """1.1: two tracks with 12 grid spaces, four of Brake, Engine, Slingshot and Incident,
    two of Bump, Tire, 3-Str and 3-Crn, 13 brake zone markers, 99 tactic cards (45
    standard, 18 per race deck); 1.2: a race's deck is the 45 and its 18 (63 cards)."""
    state = rules.setup({"players": 6, "race": race}, DATA)
    s = state.settings
    assert {m: s.limit(m) for m in tables.MARKERS} == {"Brake": 4, "Engine": 4, "Slingshot": 4, "Incident": 4,
                                                      "Bump": 2, "Tire": 2, "3-Str": 2, "3-Crn": 2}
    assert s.spaces >= 12 and len(state.cars) == 12
    assert len(s.brakes) <= 13
    assert len(s.deck) == 63
    counts = {k: sum(c["count"] for c in v["cards"]) for k, v in DATA["decks"].items()}
    assert counts == {"tactic-standard": 45, "tactic-short-track": 18, "tactic-intermediate": 18,
                      "tactic-superspeedway": 18}
    assert {"classic-oval", "tri-oval"} <= set(DATA["tracks"])


def test_the_grid_is_spaces_1_to_12():
    state = started(6, racing=False)
    assert sorted(c.space for c in state.cars) == list(range(1, 13))


def test_skills_points_and_the_two_pit_stop_numbers():
    """1.4: 8 skill points. 3.2: One Side + Extra Adjust = +7 fuel steps; Major Repair =
    full stop time 16. 4.1: 12..1 points, +3 the winner, +1 a lap led, +1 the most."""
    assert DATA["skills"]["points"] == 8
    assert DATA["points"]["race"]["positions"] == list(range(12, 0, -1))
    assert DATA["points"]["race"]["bonus"] == {"win": 3, "laps_led": 1, "most_laps_led": 1}
    state = started(3)
    assert rules.stop_of(state, rules.MAJOR).time == 16
    state = with_car(state, 0, fuel=1)
    state = evolve(state, phase=rules.SERVICE, boxes=(0,), car=0)
    state, _ = perform(state, "stop", Scripted(ints=[6]), stop="one-side", extra=True)
    assert state.cars[0].fuel == 1 + 7
