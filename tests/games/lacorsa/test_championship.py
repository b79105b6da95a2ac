"""A championship of 7 races in one session: standings after each race, a table at the end."""

import random

from companion.kit.update import evolve
from companion.games.lacorsa import rules as R, screens

from tests.games.lacorsa.helpers import act, challenge, new, race, step


def _finish(state: R.State, rng) -> R.State:
    """Play the race on with the automated cars' own moves until it is over."""
    while state.step not in (R.BETWEEN, R.DONE):
        state = R.apply(state, R.resolve(state, R.moves(state)[0], rng))
    return state


def test_points_follow_the_finishing_order_from_the_data():
    state = evolve(race(), left=(3, 3, 3, 1))
    state = challenge(state, ["9"], ["8"])         # car 3 passes car 2 with its last card
    state = challenge(state, ["4"], ["11"])        # car 1 challenges car 0 and loses
    state = act(state, 0, "discard", "5")
    assert state.step == R.DONE
    rows = R.standings(state)
    assert [(r["name"], r["points"]) for r in rows] == [("Red", 10), ("Blue", 8), ("Green", 6), ("Yellow", 4)]
    assert rows[2]["start"] == 4 and rows[2]["cards_left"] == 0


def test_seven_races_with_standings_after_each():
    autos = {i: ("racer" if i % 2 else "steady") for i in range(4)}
    state = new(4, autos=autos, championship=True)
    rng = random.Random(11)
    for number in range(1, 8):
        assert state.race == number and state.step == R.DEAL
        state = _finish(state, rng)
        finish = state.finishes[-1]
        if number < 7:
            assert state.step == R.BETWEEN and not R.finished(state)
            view = screens.view(state)
            assert view.title == f"After race {number}"
            assert len(view.body[0].items) == 4
            state = step(state, {"kind": "next"})
            assert state.left == (13,) * 4 and state.played == ((),) * 4 and state.grid == ()
        assert len(state.finishes) == number and len(finish) == 4
    assert R.finished(state)
    points = state.settings.points
    expected = [sum(points[f.index(c)] for f in state.finishes) for c in range(4)]
    assert list(state.totals) == expected
    rows = R.standings(state)
    assert [r["points"] for r in rows] == sorted(expected, reverse=True)
    assert all(len(r["races"]) == 7 for r in rows)
    receipt = screens.receipts(state)["results"]
    text = receipt.text_lines()
    assert "Championship" in text
    assert all(len(line) <= 32 for line in text)
    table = [line for line in text if line.startswith(" 1 ")]
    assert any(str(rows[0]["points"]) in line for line in table)


def test_a_single_race_is_over_after_one_race():
    state = race(autos={i: "steady" for i in range(4)})
    state = _finish(state, random.Random(2))
    assert state.step == R.DONE and len(state.finishes) == 1
    assert "Championship" not in screens.receipts(state)["results"].text_lines()


def test_the_decisions_view_carries_the_championship_so_far():
    autos = {i: "steady" for i in range(4)}
    state = _finish(new(4, autos=autos, championship=True), random.Random(4))
    state = step(state, {"kind": "next"})
    items = screens.decisions(state).body[0].items
    assert items[0] == "Race 2 of 7"
    at = items.index("After race 1:")
    assert [i.split()[1] for i in items[at + 1:]] == [r["name"] for r in R.championship_table(state)]
    assert "Auto hands: secret" in items


def test_a_tie_on_points_goes_to_more_wins_as_on_the_devices_championship():
    """Red (1st, 1st, 4th) and Blue (3rd, 2nd, 1st) both have 24 points: Red has more wins,
    Blue the better place in the latest race. The game's table and the device's
    championship print (which counts the season's races) rank them alike: Red first."""
    from companion.core import scoring

    state = new(4, championship=True)
    assert list(state.settings.points[:4]) == [10, 8, 6, 4]
    finishes = ((0, 2, 1, 3), (0, 1, 2, 3), (1, 2, 3, 0))
    state = evolve(state, finishes=finishes, totals=(24, 24, 22, 14), race=3, step=R.DONE)
    rows = R.standings(state)
    assert [(r["name"], r["points"]) for r in rows] == [("Red", 24), ("Blue", 24), ("Yellow", 22), ("Green", 14)]
    assert rows[1]["races"] == [3, 2, 1]
    assert rows[1]["season"] == [{"position": 3, "points": 6}, {"position": 2, "points": 8},
                                 {"position": 1, "points": 10}]
    device = scoring.championship(scoring.session_races(rows))
    assert [r["name"] for r in device] == [r["name"] for r in rows]
    assert [r["results"] for r in device] == [tuple(r["races"]) for r in rows]
