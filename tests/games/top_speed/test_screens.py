"""What the players see (128x64) and what the printer prints, through a whole race."""

from companion.kit.update import evolve
from dataclasses import replace

from companion.core.rng import make_rng
from companion.games.top_speed import autoplay as A
from companion.games.top_speed import rules as R
from companion.games.top_speed import screens as S
from companion.receipts.model import Receipt
from companion.ui import fonts
from companion.ui.render import render
from companion.ui.view import Big, Row, Text
from tests.games.top_speed.helpers import act, data, new_race, next_round, stacked_start

BODY = 126


def fits(view) -> list[str]:
    """Every text of ``view`` that the renderer would have to cut."""
    bad = []
    if fonts.text_width(view.title) + (fonts.text_width(view.status) + 4 if view.status else 0) > 128:
        bad.append(f"title {view.title!r} {view.status!r}")
    for w in view.body:
        if isinstance(w, Text) and fonts.text_width(w.text, w.size) > BODY:
            bad.append(w.text)
        if isinstance(w, Row) and fonts.text_width(w.left) + fonts.text_width(w.right) + fonts.ADVANCE > BODY:
            bad.append(f"{w.left} | {w.right}")
        if isinstance(w, Big) and fonts.text_width(w.caption) > BODY:
            bad.append(w.caption)
    return bad


def test_every_screen_of_an_eight_player_race_is_readable():
    state = R.setup({**A.DEMO_OPTIONS, "players": 8, "kers": True}, data())
    rng = make_rng(4)
    seen = set()
    while True:
        view = S.view(state)
        assert not fits(view), (state.phase, fits(view))
        image = render(replace(view, footer="< DRAW >"))
        assert image.size == (128, 64) and image.getbbox() is not None
        seen.add(state.phase if state.phase != R.STEPS else state.steps[state.step].kind)
        if state.phase == R.DRAW and not state.drawn:
            for page in ("cards", "fix"):
                assert not fits(S.view(act(state, page)))
            assert not fits(S.view(act(act(state, "cards"), "cards")))      # the whole row
        move = A.demo_script(state)
        if move is None:
            break
        state = R.apply(state, R.resolve(state, move, rng))
    assert {R.START, R.GRID, R.DRAW, R.ROUND_END, R.OVER, R.MOVE, R.SC_OUT, R.SC_IN, R.PIT_BACK, R.FLAG,
            R.BONUS} <= seen


def test_turn_screen_before_the_first_card_shows_the_pit_or_draw_decision():
    state = stacked_start(new_race(2), grid=[0, 1])
    view = S.view(state)
    assert (view.title, view.status) == ("RED", "65 to go")
    assert view.body == (Row("Round 1", ""), Text("Pit: 8 spaces back"), Big("72 cards"))


def test_turn_screen_shows_the_last_card_drawn_the_row_the_bust_chance_and_how_far_to_move():
    state = stacked_start(new_race(2), grid=[0, 1], tops={0: ["2", "Tire Trouble", "1"]})
    for _ in range(6):
        state = act(state, "draw")
    view = S.view(state)
    assert view.title == "RED"
    assert view.body == (Row("BLUE: 1", ""), Row("2 TIRE 1", "bust 7%"), Big("move 3"))   # 5 of 69


def test_the_table_sees_a_bust_and_a_drive_through_at_once():
    state = stacked_start(new_race(2), grid=[0, 1],
                          tops={0: ["Engine Trouble", "Engine Trouble"], 1: ["Drive Through", "2"]})
    state = act(state, "draw")                    # Red: ENG
    state = act(state, "draw")                    # Blue: DT
    assert S.view(state).body[:2] == (Row("BLUE: DT", ""), Row("ENG", "bust 7%"))    # 5 ENG in 71
    state = act(state, "draw")                    # Red: ENG again, out
    view = S.view(state)
    assert view.title == "BLUE" and view.body[0] == Row("RED: ENG x2 OUT", "")
    assert view.body[2] == Big("back 6")                   # Blue's Drive Through, whatever the green


def test_cards_page_tells_what_cardboard_cannot():
    state = stacked_start(new_race(2), grid=[0, 1], tops={0: ["Tire Trouble", "2", "Tire Trouble"]})
    for _ in range(5):
        state = act(state, "draw")              # Red busts; Blue's turn
    state = next_round(act(state, "pass"))      # Blue moves ahead
    state = act(state, "draw")                  # Blue first, then Red
    view = S.view(act(state, "cards"))
    texts = [(w.left, w.right) if isinstance(w, Row) else w.text for w in view.body]
    assert texts[0] == ("Deck 69", "Discard 2")
    assert texts[1] == ("Damage", "TIRE")
    assert texts[2:] == ["left: DT2 ENG6 OFF3", "SC2 TIRE4 YF2"]     # the troubles still in the deck


def test_round_end_lists_the_new_order_two_a_line():
    state = stacked_start(new_race(3), grid=[2, 0, 1])
    view = S.view(state)
    assert view.title == "YELLOW"
    state = evolve(state, phase=R.ROUND_END)
    rows = S.view(state).body
    assert rows == (Row("1 Yellow", "2 Red"), Row("3 Blue", ""))


def test_receipts_program_results_and_their_lines_fit_the_paper():
    start = R.setup(A.DEMO_OPTIONS, data())
    assert set(S.receipts(start)) == {"results"}          # the program waits for the grid
    final, _ = A.play(start, make_rng(1))
    papers = S.receipts(final)
    assert set(papers) == {"program", "results"}
    for receipt in papers.values():
        assert isinstance(receipt, Receipt)
        assert all(len(line) <= 32 for line in receipt.text_lines())
    program = "\n".join(papers["program"].text_lines())
    assert "Montmeló, 15 laps" in program
    grid = [final.name(c) for c in final.grid]
    assert program.index(grid[0]) < program.index(grid[-1])
    results = papers["results"].text_lines()
    rows = R.standings(final)
    head = next(i for i, line in enumerate(results) if line.startswith(" # Car"))
    table = results[head + 1:head + 1 + len(rows)]
    assert [line.split()[1] for line in table] == [r["name"] for r in rows]
    text = "\n".join(results)
    assert f"Safety Car periods: {final.sc_periods}" in text
    assert "Fastest lap:" in text and "Pit stops:" in text


def test_results_receipt_before_the_finish_is_marked_running():
    state = stacked_start(new_race(2), grid=[0, 1])
    assert S.receipts(state)["results"].title == "Top Speed (running)"


def test_round_one_of_a_two_lap_race_says_last_lap_on_the_box_and_the_table():
    """The counter goes down as a round starts, so round 1 of a 2-lap race is its last: the
    box and the table screen say ``last lap``, never ``1 to go`` (read as a lap still to come)."""
    from companion.games.top_speed import public
    from tests.games.top_speed.helpers import new_race, stacked_start
    state = stacked_start(new_race(3, laps=2), [0, 1, 2])
    assert state.round == 1 and state.laps_left == 1
    assert S.view(state).status == "last lap"
    assert "last lap of 2" in str(public.public(state))
    longer = stacked_start(new_race(3, laps=3), [0, 1, 2])
    assert S.view(longer).status == "2 to go"
