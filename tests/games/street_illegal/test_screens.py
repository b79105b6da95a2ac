"""What the 128x64 screen shows and what the printer prints, through a scripted race."""

import random
from dataclasses import replace

from companion.games.street_illegal import autoplay, rules, screens
from companion.ui import fonts
from companion.ui.render import render
from companion.ui.view import Big, Menu, Row, Text
from tests.games.street_illegal.helpers import car, perform, players, start, track_index

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


def test_key_facts_are_big(data):
    state = rules.setup({"players": players("Alex", "Bob", "Chris")}, data)
    state = start(state, [track_index(state, 90, "downhill"), track_index(state, None, "uphill")], (30, 60))
    view = screens.view(state)
    assert view.title == "Start grid" and view.body[0].text == "Who is youngest?"
    state, _ = perform(state, "seat", car=car(state, "Alex"))
    state, _ = perform(state, "seat", car=car(state, "Bob"))
    view = screens.view(state)
    assert view.title == "P1 Chris" and view.status == "1/8"
    assert [w.text for w in view.body][:2] == ["DOWNHILL", "Turn 1 card, discard"]
    for who in ("Chris", "Bob", "Alex"):
        state, _ = perform(state, "drive", player=who)
    view = screens.view(state)
    assert view.title == "P2 Chris" and view.body[0] == Big("LIMIT 90", caption="Over: pay chips/brake")
    for who in ("Chris", "Bob", "Alex"):
        state, _ = perform(state, "drive", player=who, choice=rules.WITHIN)
    view = screens.view(state)
    assert view.body[0].text == "Alex > Bob" and view.title == "P3 Pass for P6"
    state, _ = perform(state, "winner", car=car(state, "Bob"))
    state, _ = perform(state, "pass_up", player="Bob")
    state, _ = perform(state, "old_pro")
    view = screens.view(state)
    assert view.body[0] == Big("30+60", caption="Chris P5 > OP4 P4") and view.title == "P3 Chris: speed?"
    state, _ = perform(state, "speed", speed=100)
    view = screens.view(state)
    assert view.body[0] == Big("30+60", caption="OP 90 v Chris 100")
    assert view.body[1].text == "Chris passed OP4"


def test_receipts_program_then_results(data):
    state = rules.setup({"players": players("Ann", "Ben"), "grid": "age", "better_old_pros": True}, data)
    assert screens.receipts(state) == {}
    state = start(state)
    assert screens.receipts(state) == {}  # the program prints once the grid is set
    state, _ = perform(state, "seat", car=car(state, "Ann"))
    rec = screens.receipts(state)
    assert set(rec) == {"program"}
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
