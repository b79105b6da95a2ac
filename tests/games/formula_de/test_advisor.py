"""The gear advisor's odds against an exact enumeration of the true faces, and the
automated drivers' choices."""

from fractions import Fraction

import pytest

from companion.games.formula_de import advisor, automaton
from companion.games.formula_de import rules as R

from .helpers import Dice, corner, on_turn, put, started


def test_the_gear_dice_are_not_uniform():
    faces = started().settings.faces
    assert faces[1].count(4) == 3 and faces[1].count(2) == 1     # 2nd gear: 2,3,3,4,4,4


@pytest.mark.parametrize("gap, g", [(4, 2), (6, 3), (9, 4), (2, 1), (12, 4)])
def test_odds_match_an_enumeration_of_every_face(gap, g):
    c1 = corner(1)
    state = on_turn(put(started(2), 0, dist=c1.at - gap, gear=g), 0)
    for o in advisor.odds(state, 0):
        faces = state.settings.faces[o.gear - 1]
        start = c1.at - gap
        stop = sum(1 for f in faces if c1.at <= start + f <= c1.end)
        short = sum(1 for f in faces if start + f < c1.at)
        over = {}
        for f in faces:
            n = start + f - c1.end
            if n > 0:
                over[n] = over.get(n, 0) + 1
        tires = state.cars[0].zone_wp("tires")
        out = sum(1 for f in faces if start + f - c1.end > tires
                  or (start + f - c1.end == tires and tires and start + f - c1.end > 1))
        total = len(faces)
        assert o.corner == 1
        assert o.stop == Fraction(stop, total)
        assert o.short == Fraction(short, total)
        assert dict(o.over) == {n: Fraction(k, total) for n, k in over.items()}
        assert o.tire == Fraction(sum(min(n, tires) * k for n, k in over.items()), total)
        assert o.out == Fraction(out, total)


def test_second_gear_odds_to_stop_follow_the_true_faces():
    c1 = corner(1)
    state = on_turn(put(started(2), 0, dist=c1.at - 4, gear=2), 0)
    second = next(o for o in advisor.odds(state, 0) if o.gear == 2)
    # 2nd gear lands 2, 3, 3, 4, 4, 4 spaces on: only the 4s reach the corner
    assert second.stop == Fraction(3, 6) and second.short == Fraction(3, 6)


def test_odds_for_a_3_stop_corner_count_eliminations():
    c4 = corner(4)
    state = on_turn(put(started(2), 0, dist=c4.at - 1, gear=4), 0)
    fourth = next(o for o in advisor.odds(state, 0) if o.gear == 4)
    faces = state.settings.faces[3]
    assert fourth.out == Fraction(sum(1 for f in faces if c4.at - 1 + f > c4.end), len(faces))


def test_automated_driver_never_risks_elimination_when_a_safe_gear_exists():
    c4 = corner(4)
    for gap in range(1, 12):
        state = on_turn(put(started(2, cars=[{"driver": "auto"}]), 0, dist=c4.at - gap, gear=4, driver="auto"), 0)
        g, why = automaton.choose_gear(state, 0)
        odds = {o.gear: o for o in advisor.odds(state, 0)}
        safe = [x for x, o in odds.items() if o.out == 0]
        if safe:
            # with its braking rule the chosen gear must be safe for every face
            for face in state.settings.faces[g - 1]:
                car = R.evolve(state.cars[0], gear=g)
                _, p = automaton.best_brake(state, 0, car, g, face, 2)
                assert not p.out, (gap, g, face)
        assert why


def test_automated_turn_is_one_press_and_tells_why():
    state = on_turn(put(started(2, cars=[{"driver": "auto", "level": 1}]), 0, dist=corner(5).end + 3, gear=3,
                        driver="auto", level=1), 0)
    (move,) = [m for m in R.moves(state) if m.primary]
    assert move.kind == "auto"
    event = R.resolve(state, move, Dice(*[8] * 3 + [10] * 5))
    after = R.apply(state, event)
    assert after.phase == R.SHOW and after.last.auto and after.last.why
    assert after.cars[0].gear == event["gear"]


def test_the_odds_screen_says_what_each_number_means():
    from companion.games.formula_de import screens
    from companion.profile import MENU_CHARS
    from companion.ui.render import cut_texts
    from companion.kit.update import evolve

    c1 = corner(1)
    state = evolve(on_turn(put(started(2), 0, dist=c1.at - 6, gear=3), 0), advice=True)
    view = screens.view(state)
    lines = list(view.body[0].items)
    assert view.body[0].selected < 0                           # a list to read, no line highlighted
    assert lines[1] == "gear stop over  out"
    odds = {o.gear: o for o in advisor.odds(state, 0)}
    fourth = next(i for i, line in enumerate(lines) if line.startswith("4th "))
    o = odds[4]
    over = sum(p for _, p in o.over)
    assert lines[fourth].split() == ["4th", f"{advisor.percent(o.stop)}%", f"{advisor.percent(over)}%",
                                     f"{advisor.percent(o.out)}%"]
    assert over and lines[fourth + 1] == f"  by {o.over[0][0]}-{o.over[-1][0]}, tires -{float(o.tire):.1f}"
    for word in ("stop:", "over:", "else:", "by:", "tires:", "out:"):
        assert any(line.startswith(word) for line in lines), word
    assert all(len(line) <= MENU_CHARS for line in lines)
    assert not cut_texts(view, footer=True)
