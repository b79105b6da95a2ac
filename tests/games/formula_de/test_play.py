"""Whole races: random legal play from many setups never fails, ends, replays to the
same state from JSON events; every screen and receipt fits; the demo race shows rain,
a pit stop and an elimination."""

import json
import pickle
import random

import pytest

from companion.core.rng import make_rng
from companion.games.formula_de import autoplay, rules as R, screens as S
from companion.profile import LABEL_CHARS, LINE_CHARS, MENU_CHARS
from companion.ui.render import cut_texts, render
from companion.ui.view import Big, Menu, Row, Text

from .helpers import data, on_turn, put, started, gear

TITLE = MENU_CHARS


def fits(view) -> None:
    assert len(view.title) + len(view.status) <= TITLE, (view.title, view.status)
    for w in view.body:
        if isinstance(w, Text):
            assert len(w.text) <= LINE_CHARS, w
        elif isinstance(w, Menu):
            assert all(len(item) <= MENU_CHARS for item in w.items), w
        elif isinstance(w, Row):
            assert len(w.left) + len(w.right) + 1 <= LINE_CHARS, w
        elif isinstance(w, Big):
            assert len(w.caption) <= LINE_CHARS, w
    assert render(view).size == (128, 64)
    assert cut_texts(view) == []


def options(seed: int) -> dict:
    kinds = ["roll", "rain", "good", "changeable"]
    players = 2 + seed % 9
    team = seed % 5 == 0 and players % 2 == 0
    return {"players": players, "laps": 2 + seed % 2, "weather": kinds[seed % 4], "team": team,
            "grid": "stopwatch" if seed % 3 == 1 else "dice", "race": "road" if seed % 4 == 2 else "circuit",
            "cars": [{"driver": "auto" if (i + seed) % 3 == 0 else "human", "level": 1 + i % 2,
                      "tires": ("hard", "soft", "rain")[(i + seed) % 3]} for i in range(players)]}


@pytest.mark.parametrize("seed", range(12))
def test_random_legal_play_ends_and_replays(seed):
    state = R.setup(options(seed), data())
    first = state
    rng, pick = make_rng(seed), random.Random(seed)
    events = []
    for _ in range(3000):
        moves = R.moves(state)
        if not moves:
            break
        assert all(len(m.label) <= LABEL_CHARS for m in moves)
        event = json.loads(json.dumps(R.resolve(state, pick.choice(moves), rng)))
        events.append(event)
        state = R.apply(state, event)
        fits(S.view(state))
    assert R.finished(state)
    replay = first
    for event in events:
        replay = R.apply(replay, event)
    assert replay == state and pickle.loads(pickle.dumps(state)) == state
    rows = R.standings(state)
    assert [r["position"] for r in rows] == list(range(1, len(state.cars) + 1))
    for receipt in S.receipts(state).values():
        assert all(len(line) <= 32 for line in receipt.text_lines())
    fits(S.decisions(state))


def test_demo_race_has_rain_a_pit_stop_and_an_elimination():
    state, events = autoplay.play(R.setup(autoplay.DEMO_OPTIONS, data()), make_rng(autoplay.DEMO_SEED))
    assert R.finished(state)
    assert state.rain
    assert sum(c.pits for c in state.cars) >= 1
    assert any(c.out for c in state.cars)
    assert sum(c.driver == "auto" for c in state.cars) == 2 and len(state.cars) == 6
    assert any(e["kind"] == "auto" for e in events)


def test_gear_screen_shows_the_dashboard_with_the_changed_zone_marked():
    state = on_turn(put(started(2), 0, gear=6), 0)
    state = gear(state, 0, 3, 4)                               # skips 2 gears: gearbox and brakes
    assert state.cars[0].zone == "brakes"
    line = S.dashboard(state.cars[0])
    assert line.startswith("T6 B2*G2 ")


def test_report_screen_shows_the_move_in_big_digits_and_where_it_ends():
    state = gear(on_turn(put(started(2), 0, dist=70, gear=4), 0), 0, 4, 9)
    view = S.view(state)
    big = next(w for w in view.body if isinstance(w, Big))
    assert big.text == "9" and "79" in big.caption
    fits(view)


def test_advice_is_one_press_away_on_the_gear_screen():
    state = on_turn(put(started(2), 0, dist=2, gear=2), 0)
    odds = next(m for m in R.moves(state) if m.kind == "advice")
    after = R.apply(state, R.resolve(state, odds, None))
    view = S.view(after)
    items = next(w for w in view.body if isinstance(w, Menu)).items
    assert items[0].startswith("C1") and items[1] == "gear stop over  out" and items[2].startswith("1st ")
    assert any(i.startswith("3rd") for i in items)
    fits(view)


def test_history_says_the_faces_rolled():
    assert R.describe({"kind": "gear", "car": 0, "gear": 5, "roll": 20}) == "20 spaces"      # the move says the gear
    assert R.describe({"kind": "auto", "car": 0, "gear": 5, "roll": 1, "rolls": {"collision": 7}}) == \
        "5th gear, 1 space, black die 7"                                                  # the automaton chose it
    assert R.describe({"kind": "done", "car": 0, "rolls": {"collision": 2, "motor": [[0, 4], [3, 11]]}}) == \
        "black die 2 4 11"
    assert R.describe({"kind": "start", "weather": 5, "grid": [[19], [3, 7]], "starts": [16, 1]}) == "weather 5"
