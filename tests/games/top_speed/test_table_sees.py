"""What the table sees without a printer: the starting grid before the first round and
from the pause menu, the card a player drew shown to them until they hand on, their
whole row, words instead of cut-offs, standings of a race ended at any moment."""

import pytest

from companion.core.rng import make_rng
from companion.games import registry
from companion.games.top_speed import autoplay as A
from companion.games.top_speed import rules as R
from companion.games.top_speed import screens as S
from companion.kit.standings import is_standings
from companion.profile import MENU_CHARS
from companion.ui.view import Big, Row, Text
from tests.games.top_speed.helpers import act, data, new_race, stacked_orders

RED, BLUE, YELLOW = 0, 1, 2


def started(players=3, tops=None, grid=None):
    """A race whose grid was just decided (not yet seen)."""
    state = new_race(players)
    grid = grid or list(range(players))
    return R.apply(state, {"kind": "start", "grid": grid, "decks": stacked_orders(state, tops)})


def test_the_starting_grid_is_shown_before_the_first_round():
    state = started(3, grid=[YELLOW, RED, BLUE])
    assert state.phase == R.GRID and [m.label for m in R.moves(state)] == ["Start race"]
    view = S.view(state)
    assert view.title == "Starting grid"
    assert view.body == (Row("1 Yellow", "2 Red"), Row("3 Blue", ""))
    state = act(state, "go")
    assert state.phase == R.DRAW and state.turn == YELLOW and state.round == 1


def test_the_pause_menu_shows_the_grid():
    assert registry.entry("top-speed").load().decisions is S.decisions
    state = new_race(3)
    assert S.decisions(state).body[0].items == ("Wet race, 66 laps", "Grid, pole first:", "not drawn yet")
    state = started(3, grid=[BLUE, YELLOW, RED])
    items = S.decisions(state).body[0].items
    assert items[2:] == ("1 Blue", "2 Yellow", "3 Red")
    assert all(len(line) <= MENU_CHARS for line in items)


def test_the_player_who_drew_sees_the_card_until_they_hand_on():
    state = act(started(2, tops={RED: ["2", "1"], BLUE: ["1"]}), "go")
    state = act(state, "draw", see=False)
    assert state.drawn and state.turn == RED
    view = S.view(state)
    assert view.title == "RED drew"
    assert view.body[:2] == (Big("+2", caption="if you stop: move 2"), Text("next card: bust 0%"))
    assert [m.label for m in R.moves(state)] == ["Next: Blue", "My cards"]
    with pytest.raises(R.RuleError, match="not yet seen"):
        R.apply(state, {"kind": "pass", "car": RED})
    assert act(state, "cards").show == 1                          # the row can be opened from here
    state = act(state, "seen")
    assert not state.drawn and state.turn == BLUE and S.view(state).title == "BLUE"


def test_a_bust_is_shown_to_the_player_who_drew_it():
    state = act(started(2, tops={RED: ["Tire Trouble", "Tire Trouble"], BLUE: ["1", "1"]}), "go")
    state = act(act(state, "draw"), "draw")                       # Red TIRE, Blue 1
    state = act(state, "draw", see=False)                         # Red TIRE again: out
    view = S.view(state)
    assert view.body[:2] == (Big("TIRE TROUBLE", caption="2nd TIRE: round over"), Text("1 to the damage row"))
    assert R.moves(state)[0].label == "Next: Blue"


def test_the_last_card_of_a_round_is_seen_before_the_cars_move():
    state = act(started(2, tops={RED: ["2"], BLUE: ["1", "2"]}), "go")
    state = act(act(state, "draw"), "draw")
    state = act(state, "pass")                                    # Red passes; Blue draws alone
    state = act(state, "draw", see=False)
    assert state.phase == R.DRAW and R.moves(state)[0].label == "Go on"
    state = act(state, "pass")                                    # (seen first) Blue passes
    assert state.phase == R.STEPS


def test_my_cards_shows_the_whole_row_and_the_turn_screen_cuts_nothing():
    tops = {RED: ["1", "2", "1", "Tire Trouble", "2", "1", "Off Track", "2", "1", "Engine Trouble", "2"], BLUE: ["2"] * 12}
    state = act(started(2, tops=tops), "go")
    for _ in range(11):
        state = act(act(state, "draw"), "draw")                   # Red, then Blue, a card each
    assert state.turn == RED and len(state.cars[RED].row) == 11
    view = S.view(state)
    assert view.body[1].left == "11 cards" and view.body[1].right.startswith("bust ")   # not "…RE DT 2 1 2"
    assert all("\u2026" not in (w.left if isinstance(w, Row) else getattr(w, "text", "")) for w in view.body)
    page = S.view(act(act(state, "cards"), "cards"))
    text = " ".join(w.text for w in page.body)
    assert text.startswith("Row: 11 cards")
    for name in ("Tire Trouble", "Off Track", "Engine Trouble"):
        assert name in text or name.split()[0][:3].upper() in text
    assert act(act(act(state, "cards"), "cards"), "cards").show == 0        # a third press closes


def test_flags_and_pit_stops_are_said_in_words():
    state = act(started(2, tops={RED: ["Yellow Flag"], BLUE: ["Yellow Flag"]}), "go")
    state = act(state, "draw")
    assert S.view(state).body[0] == Row("Yellow flags 1 of 2", "")
    state = act(state, "draw")
    assert S.view(state).body[0] == Row("No overtaking", "")
    fresh = act(started(2), "go")
    assert Text("Pit: 8 spaces back") in S.view(fresh).body


def test_a_race_ended_at_any_moment_has_standings_and_a_results_receipt():
    state = R.setup({**A.DEMO_OPTIONS, "laps": 4}, data())
    rng = make_rng(2)
    phases = set()
    while True:
        rows = R.standings(state)
        assert is_standings(rows) and len(rows) == len(state.cars)
        receipt = S.receipts(state)["results"]
        assert all(len(line) <= 32 for line in receipt.text_lines())
        phases.add(state.phase)
        move = A.demo_script(state)
        if move is None:
            break
        state = R.apply(state, R.resolve(state, move, rng))
    assert {R.START, R.GRID, R.DRAW, R.STEPS, R.ROUND_END, R.OVER} <= phases


def test_every_screen_fits_with_long_names():
    from companion.ui import fonts
    from companion.ui.view import Menu

    names = ("Alexandra", "Bartholomew", "Christophe", "Dorothea", "Emmanuelle", "Frederika", "Gwendolyn", "Hildegarde")
    state = R.setup({**A.DEMO_OPTIONS, "players": [{"name": n, "colour": "Red"} for n in names], "laps": 6,
                     "kers": True}, data())
    rng = make_rng(3)
    while True:
        views = [S.view(state), S.decisions(state)]
        if state.phase == R.DRAW and not state.drawn:
            mine = act(state, "cards")
            views += [S.view(mine), S.view(act(mine, "cards"))]
        for view in views:
            assert len(view.title) + (len(view.status) + 1 if view.status else 0) <= 21, view.title
            for w in view.body:
                texts = {Text: lambda w: [w.text], Big: lambda w: [w.caption], Row: lambda w: [f"{w.left} {w.right}"],
                         Menu: lambda w: list(w.items)}[type(w)](w)
                assert all(fonts.text_width(t) <= 126 for t in texts), texts
        move = A.demo_script(state)
        if move is None:
            break
        state = R.apply(state, R.resolve(state, move, rng))
