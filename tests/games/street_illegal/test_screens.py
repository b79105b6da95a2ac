"""What the 128x64 screen shows and what the printer prints, through a scripted race."""

import random
from dataclasses import replace

from companion.games.street_illegal import autoplay, rules, screens
from companion.ui import fonts
from companion.ui.render import render
from companion.ui.view import Big, Menu, Row, Text
from tests.games.street_illegal.helpers import car, passed_review, perform, players, start, track_index

TITLE_CHARS = 21


def widgets_text(view):
    for w in view.body:
        if isinstance(w, Text):
            yield w.text, w.size
        elif isinstance(w, Big):
            yield w.caption, 1
        elif isinstance(w, Row):
            yield f"{w.left} {w.right}", 1


def test_every_screen_of_a_race_fits(data):
    state = rules.setup({"players": players("Purple", "Yellow", "Orange"), "grid": "tactical", "nitrous": True}, data)
    rng = random.Random(5)
    seen = set()
    while True:
        view = screens.view(state)
        image = render(replace(view, footer="< x >"))
        assert image.size == (128, 64) and image.getbbox() is not None
        assert len(view.title) + (len(view.status) + 1 if view.status else 0) <= TITLE_CHARS, view.title
        for text, size in widgets_text(view):
            assert fonts.text_width(text, size) <= 126, text
        seen.add((state.step, state.phase, state.stage))
        if rules.finished(state):
            break
        for move in rules.moves(state):
            assert 0 < len(move.label) <= 14, move.label
        state = rules.apply(state, rules.resolve(state, autoplay.choose(state, rng), rng))
    assert {("race", 3, "speed"), ("race", 3, "after"), ("race", 1, ""), ("race", 2, "")} <= seen
    final = screens.view(state)
    assert isinstance(final.body[0], Menu) and final.body[0].items[-1].startswith("*Old Pros")
    first = rules.standings(state)[0]
    assert final.body[0].items[0] == f"Winner: {'Old Pros' if first['old_pro'] else first['name']}"


def texts(view):
    return [w.text for w in view.body if isinstance(w, Text)]


def test_grid_by_age_asks_for_the_youngest_colour(data):
    state = start(rules.setup({"players": 3, "grid": "age"}, data))      # Red, Blue, Yellow
    view = screens.view(state)
    assert (view.title, view.status) == ("Grid by age", "7th")
    assert texts(view) == ["Pick the colour of", "the YOUNGEST player", "It starts 7th (last)",
                           "Old Pros: 1st to 4th"]
    assert [m.label for m in rules.moves(state)] == ["Red", "Blue", "Yellow"]
    state, _ = perform(state, "seat", car=car(state, "Blue"))
    view = screens.view(state)
    assert texts(view) == ["Pick the colour of", "the NEXT youngest", "It starts 6th", "7th Blue"]
    state, _ = perform(state, "seat", car=car(state, "Yellow"))       # Red, the eldest, is seated 5th
    assert [state.name(c) for c in state.grid[4:]] == ["Red", "Yellow", "Blue"]


def test_each_phase_says_whose_turn_and_what_to_do(data):
    state = rules.setup({"players": players("Alex", "Bob", "Chris")}, data)
    state = start(state, [track_index(state, 90, "downhill"), track_index(state, None, "obstacle-middle")], (30, 60))
    state, _ = perform(state, "seat", car=car(state, "Alex"))
    state, _ = perform(state, "seat", car=car(state, "Bob"))
    state = passed_review(state)
    view = screens.view(state)                              # phase 1: situation and limit
    assert (view.title, view.status) == ("Chris: phase 1", "1/8")
    assert view.body[0] == Row("DOWNHILL", "LIMIT 90")
    assert texts(view) == ["Turn 1 card, discard", "the LOWEST of four", "2 chips/matching icon"]
    for who in ("Chris", "Bob", "Alex"):
        state, _ = perform(state, "drive", player=who)
    view = screens.view(state)                              # phase 2: the limit, chips or brake
    assert view.title == "Chris: phase 2"
    assert view.body == (Big("LIMIT 90", caption="Over: chips or brake"), Text("1 chip/10 over, max 5"),
                         Text("Brake: hand limit -1"))        # the emergency brake in a line
    for who in ("Chris", "Bob", "Alex"):
        state, _ = perform(state, "drive", player=who, choice=rules.WITHIN)
    view = screens.view(state)                              # phase 3: who attacks whom
    assert view.title == "Alex: phase 3"
    assert view.body == (Row("Alex>Bob", "for 6th"), Text("Secret chips, at once"),
                         Text("Max: Alex 5, Bob 5"), Text("Tie: Bob holds"))     # bets capped at the hand
    state, _ = perform(state, "winner", car=car(state, "Bob"))
    view = screens.view(state)
    assert view.title == "Alex: result" and [m.label for m in rules.moves(state)] == ["Next"]
    assert view.body == (Big("Bob held Alex", caption="Alex out this phase"),)
    state, _ = perform(state, "stop")
    view = screens.view(state)
    assert view.title == "Bob: phase 3" and view.body[0] == Row("Bob>Chris", "for 5th")
    state, _ = perform(state, "pass_up", player="Bob")
    view = screens.view(state)
    assert view.body == (Big("Chris>OP4", caption="attacks for 4th"), Text("GO: Old Pro's cards"))
    state, _ = perform(state, "old_pro")
    view = screens.view(state)
    assert view.title == "Chris: speed+chips"
    assert view.body == (Big("30+60", caption="OP4 90: no 3rd card"), Text("Chris attacks OP4"),
                         Text("Face-up cards + chips"))         # the real speed, not the one paid down
    assert [m.label for m in rules.moves(state)][:2] == ["Real speed 90", "Real speed 80"]
    state, _ = perform(state, "speed", speed=100)
    view = screens.view(state)
    assert view.body == (Big("30+60", caption="OP4 90 v Chris 100"), Text("Chris passed OP4"),
                         Text("Again: slow by 10+"))
    state, _ = perform(state, "again")
    view = screens.view(state)
    assert view.title == "Chris: pass again"
    assert view.body[0] == Big("LIMIT 90", caption="Slow by 10 or more")


def test_no_limit_and_old_pro_attacking(data):
    state = rules.setup({"players": players("Solo"), "better_old_pros": True}, data)
    state = passed_review(start(state, [track_index(state, None, "obstacle-middle")], (60, 60, 10)))
    view = screens.view(state)
    assert view.body[0] == Row("OBST. MIDDLE", "NO LIMIT")
    state, _ = perform(state, "drive", player="Solo")
    assert screens.view(state).body[0] == Big("NO LIMIT", caption="Drive, no limit")
    state, _ = perform(state, "drive", player="Solo")
    state, _ = perform(state, "old_pro")
    assert screens.view(state).body[0] == Big("60+60", caption="OP6 120 + a 3rd card")   # no limit: always


def test_nitrous_screen(data):
    state = rules.setup({"players": players("Alex", "Bob"), "nitrous": True}, data)
    state = start(state, [track_index(state, 80, "uphill")])
    state, _ = perform(state, "seat", car=car(state, "Alex"))
    state = passed_review(state)
    for choice in (None, None, rules.WITHIN, rules.WITHIN):
        state, _ = perform(state, "drive", **({"choice": choice} if choice else {}), player=state.name(state.current_player))
    assert screens.view(state).body[3] == Text("Tie: nitrous cards")
    state, _ = perform(state, "tie")
    view = screens.view(state)
    assert view.title == "Alex: nitrous"
    assert texts(view) == ["Tie Alex>Bob: nitrous", "Alex: card raised?", "No card counts 0", "Higher wins; tie: Bob"]


def test_receipts_program_then_results(data):
    state = rules.setup({"players": players("Ann", "Ben"), "grid": "age", "better_old_pros": True}, data)
    assert set(screens.receipts(state)) == {"results"}     # standings as they stand, if ended now
    state = start(state)
    assert set(screens.receipts(state)) == {"results"}  # the program prints once the grid is set
    state, _ = perform(state, "seat", car=car(state, "Ann"))
    rec = screens.receipts(state)
    assert set(rec) == {"program", "results"}
    lines = rec["program"].text_lines()
    assert all(len(line) <= 32 for line in lines)
    assert sum(1 for line in lines if line[:2] in {f"{k}." for k in range(1, 9)}) == 8
    assert "Rules: Better Old Pros" in lines
    for k, track in enumerate(state.track, start=1):
        card = state.deck[track]
        assert any(line.startswith(f"{k}. {card.limit_text}") and card.situation.label in line for line in lines)
    grid = [line for line in lines if line[:2].strip().isdigit() and not line[2] == "."]
    assert [g.split()[1:3] for g in grid][-2:] == [["Ben", "Red"], ["Ann", "Purple"]]

    rng = random.Random(3)
    while not rules.finished(state):
        state = rules.apply(state, rules.resolve(state, autoplay.choose(state, rng), rng))
    results = screens.receipts(state)["results"].text_lines()
    assert all(len(line) <= 32 for line in results)
    for row in rules.standings(state):
        line = next(l for l in results if l[3:].startswith(row["name"]))
        assert line.split()[-4:] == [str(row["start"]), str(row["duels_won"]), str(row["duels_lost"]),
                                     str(row["points"])]
    team = rules.summary(state)["teams"][0]["points"]
    assert f"Old Pros team (best car): {team} pts" in results
    first = rules.standings(state)[0]
    assert f"Winner: {'Old Pros (' + first['name'] + ')' if first['old_pro'] else first['name']}" in results
