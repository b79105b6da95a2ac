"""What the table sees (128x64) and what the printer prints; whole races by random legal
moves (JSON round trip, replay, undo) and the demo through the whole stack."""

import json
import pickle
import random

import pytest

from companion.kit.standings import is_standings
from companion.profile import LABEL_CHARS, LINE_CHARS, MENU_CHARS
from companion.ui import fonts
from companion.ui.render import render
from companion.ui.view import Menu, Row, Text
from companion.games.lacorsa import autoplay as A, rules as R, screens as S

from tests.games.lacorsa.helpers import COLOURS, act, challenge, data, race

BODY = 126


def fits(view) -> list[str]:
    """Every text of ``view`` the renderer would have to cut."""
    bad = []
    if len(view.title) + len(view.status) > MENU_CHARS:
        bad.append(f"title {view.title!r} {view.status!r}")
    for w in view.body:
        if isinstance(w, Text) and (len(w.text) > LINE_CHARS or fonts.text_width(w.text, w.size) > BODY):
            bad.append(w.text)
        if isinstance(w, Row) and len(w.left) + len(w.right) + 1 > LINE_CHARS:
            bad.append(f"{w.left} | {w.right}")
        if isinstance(w, Menu):
            bad += [i for i in w.items if len(i) > MENU_CHARS]
    return bad


def _setups():
    rng = random.Random(0)
    for seed in range(24):
        n = rng.randint(2, 6)
        autos = set(rng.sample(range(n), rng.randint(0, n)))
        names = [c if seed % 3 else f"Alexandra {c}" for c in COLOURS[:n]]
        players = [{"name": name, "colour": c, "driver": "auto" if i in autos else "human",
                    "level": "racer" if i % 2 else "steady"} for i, (name, c) in enumerate(zip(names, COLOURS))]
        yield seed, {"players": players, "championship": seed % 8 == 0, "tie_crash": seed % 3 == 0}


@pytest.mark.parametrize("seed, options", list(_setups()))
def test_random_legal_play_reads_well_replays_and_undoes(seed, options):
    state = start = R.setup(options, data())
    rng = random.Random(seed)
    events, states = [], [state]
    for _ in range(3000):
        view = S.view(state)
        assert fits(view) == [] and fits(S.decisions(state)) == []
        render(view)
        for receipt in S.receipts(state).values():
            assert all(len(line) <= 32 for line in receipt.text_lines())
        if R.finished(state):
            break
        moves = R.moves(state)
        assert moves and all(len(m.label) <= LABEL_CHARS for m in moves)
        event = R.resolve(state, rng.choice(moves), rng)
        event = json.loads(json.dumps(event))
        state = R.apply(state, event)
        events.append(event)
        states.append(state)
    assert R.finished(state)
    replayed = start
    for event in events:
        replayed = R.apply(replayed, event)
    assert replayed == state and pickle.loads(pickle.dumps(state)) == state
    assert is_standings(R.standings(state))
    json.dumps({"standings": R.standings(state), **R.summary(state)})
    assert states[-2] == _replay(start, events[:-1])          # undo: the state before the last event


def _replay(state, events):
    for e in events:
        state = R.apply(state, e)
    return state


def test_cards_left_is_one_press_away():
    state = challenge(race(), ["R", "9"], ["10"])  # Green passes Yellow
    state = challenge(state, ["Extend 2"], ["11"])  # Green loses to Blue, directly ahead
    move = next(m for m in R.moves(state) if m.kind == "table")
    shown = R.apply(state, R.resolve(state, move, random.Random(1)))
    view = S.view(shown)
    assert view.title == "Cards left"
    items = view.body[0].items
    assert next(i for i in items if "Green" in i).endswith("9 left")
    assert next(i for i in items if "Yellow" in i).endswith("11 left")
    assert " played 8 R 9 E2" in items            # Green: qualifying 8, R + 9, the discard
    assert " played 9 10" in items
    assert items[-5:] == ("E1: Extend 1", "E2: Extend 2", "D3: Drafting 3", "C12: Champion 12", "R: Redline")
    assert "A: automated car" not in items        # no automated car, no tag to explain
    assert view.body[0].selected < 0              # a list to read: nothing highlighted
    back = R.apply(shown, {"kind": "table"})
    assert back == state


def test_cards_left_explains_the_automated_tag_and_keeps_it_after_a_long_name():
    state = race(autos={2: "steady"}, hands=None)
    from companion.kit.update import evolve, replace_at
    state = evolve(state, cars=replace_at(state.cars, 2, evolve(state.cars[2], name="Bartholomew 2")))
    move = next(m for m in R.moves(state) if m.kind == "table")
    view = S.view(R.apply(state, R.resolve(state, move, random.Random(1))))
    items = view.body[0].items
    auto = [i for i in items if i.split()[1:2] == ["Bartho"]]
    assert len(auto) == 1 and auto[0].split()[:4] == ["3", "Bartho", "2", "A"], auto  # the number and the tag kept
    assert "A: automated car" in items
    assert all(len(i) <= MENU_CHARS for i in items) and not fits(view)


def test_the_challenge_screen_hides_an_automated_card_until_both_are_in():
    state = race(autos={2: "steady"}, hands=None)
    state = act(state, 3, "challenge")
    state = R.apply(state, R.resolve(state, R.moves(state)[0], random.Random(1)))   # Yellow plays
    texts = [w.text for w in S.view(state).body]
    assert any(t.startswith("Yellow") and t.endswith("card down") for t in texts)
    assert any("Green: card played?" in t for t in texts)
    played = state.plays[0][1]
    assert not any(S.card_text(state, n) in t.split() for n in played for t in texts)


def test_the_outcome_is_on_the_next_screen():
    state = challenge(race(), ["R", "9"], ["10"])
    assert S.outcome_line(state, state.last[-1]) == "Green R+9 > Yellow 10"
    assert S.outcome_line(state, state.last[-1]) in [w.text for w in S.view(state).body]


def test_the_deal_screen_says_how_the_decks_are_split():
    from tests.games.lacorsa.helpers import new
    texts = [w.text for w in S.view(new(4, autos={1: "racer", 3: "steady"})).body]
    assert texts[0] == "Table deck: 2 suits" and "Red Yellow" in texts and "Device: 2 auto hands" in texts


def test_program_and_results_receipts():
    state = race(tie_crash=True)
    program = S.receipts(state)["program"].text_lines()
    assert any("Table deck: 4 suits" in line for line in program)
    assert "results" not in S.receipts(state)
    state = challenge(state, ["9"], ["9"])
    while not R.finished(state):                  # the first move on offer: challenge, highest card
        state = R.apply(state, R.resolve(state, R.moves(state)[0], random.Random(1)))
    lines = S.receipts(state)["results"].text_lines()
    assert all(len(line) <= 32 for line in lines)
    assert any(line.startswith("Crashed: Yellow, Green") for line in lines)


def test_the_demo_script_finishes_the_race_with_every_move_on_offer():
    state = R.setup(A.DEMO_OPTIONS, data())
    rng = random.Random(A.DEMO_SEED)
    for _ in range(500):
        move = A.demo_script(state)
        if move is None:
            break
        assert move in R.moves(state)
        state = R.apply(state, R.resolve(state, move, rng))
    assert R.finished(state)
    assert [c.auto for c in state.cars] == [False, True, False, True]


def test_demo_through_the_whole_stack(tmp_path_factory):
    from tests.shared import demo_of
    code, out, _ = demo_of(tmp_path_factory, "lacorsa")         # the run's one lacorsa demo
    assert code == 0
    results = json.loads((out / "results.json").read_text())
    assert results["game"] == "lacorsa" and results["printer_overflow"] == 0
    assert results["receipts"] == ["program", "results"]
    assert len(results["standings"]) == 4 and is_standings(results["standings"])
    assert sorted(r["driver"] for r in results["standings"]) == ["auto", "auto", "human", "human"]
    assert results["deal"] == {"table_suits": 2, "device_suits": 2}


def test_with_two_players_the_screen_says_who_drives_which_cars_and_each_players_total():
    from companion.kit.update import evolve
    from companion.games.lacorsa import rules as R
    from companion.games.lacorsa import screens as S
    from tests.games.lacorsa.helpers import race

    state = race(players=2)                               # two players, two cars each
    assert len(state.cars) == 4
    decided = [i for w in S.decisions(state).body for i in w.items]
    assert "Who drives:" in decided
    owners = {car.owner_name for car in state.cars}
    assert all(any(line.startswith(f"{who}: ") for line in decided) for who in owners)
    done = evolve(state, step=R.DONE)
    lines = [i for w in S.view(done).body for i in w.items]
    assert "Players:" in lines
    rows = R.standings(done)
    totals = {t["name"]: t["points"] for t in S.player_totals(rows)}
    assert set(totals) == owners and sum(totals.values()) == sum(r["points"] for r in rows)
    results = "\n".join(S.receipts(done)["results"].text_lines())
    assert "Players" in results.splitlines() and " # Player" in results


def test_with_one_car_each_no_player_totals_repeat_the_cars():
    from companion.games.lacorsa import rules as R
    from companion.games.lacorsa import screens as S
    from tests.games.lacorsa.helpers import race

    state = race(players=4)
    assert S.player_totals(R.standings(state)) == [] and S.drivers_lines(state) == []


def _lines(view) -> list[str]:
    """Every line of ``view``'s body, a list's items included."""
    return [t for w in view.body for t in (w.items if isinstance(w, Menu) else (w.text,))]


def _first_window(view) -> list[str]:
    """The lines the first frame of ``view`` shows (a list from its top), under the app's footer."""
    from dataclasses import replace
    from companion.ui.render import list_window
    lines = _lines(view)
    window = list_window(replace(view, footer="< Cards dealt >"))
    if window is None:
        return lines
    top, visible, _ = window
    fixed = [w.text for w in view.body if not isinstance(w, Menu)]
    return fixed + lines[len(fixed):][top:top + visible]


@pytest.mark.parametrize("autos", [{}, {1: "racer"}, {0: "steady", 1: "racer"}])
def test_with_two_players_the_deal_screen_says_who_drives_which_cars(autos):
    from companion.ui.render import cut_texts
    from tests.games.lacorsa.helpers import new

    state = new(2, autos)                        # Red and Blue, two cars each
    view = S.view(state)
    assert ["Red: Red, Yellow", "Blue: Blue, Green"] == [t for t in _lines(view) if t.startswith(("Red:", "Blue:"))]
    assert not cut_texts(view) and not fits(view)
    if not autos:                                # the common table: all of it on the first frame, no scrolling
        assert _first_window(view) == ["Shuffle 4 suits.", "Deal 13 to each car:", "Red: Red, Yellow",
                                       "Blue: Blue, Green"]
    elif len(autos) == 1:                        # the human player's cars with the table deck, the other's with the device
        lines = _lines(view)
        assert lines.index("Red: Red, Yellow") < lines.index("Device: 2 auto hands") < lines.index("Blue: Blue, Green")


def test_with_three_players_the_deal_screen_lists_every_players_cars_to_its_end():
    from companion.ui.render import cut_texts
    from tests.games.lacorsa.helpers import new

    state = new(3)                               # Red, Blue, Yellow: six cars
    view = S.view(state)
    owners = [t for t in _lines(view) if ": " in t]
    assert owners == ["Red: Red, Green", "Blue: Blue, Black", "Yellow: Yellow White"]
    assert len(view.body) == 1 and isinstance(view.body[0], Menu)   # one list, read to its end with OK held
    assert not cut_texts(view) and not fits(view)


def test_qualifying_names_the_owner_of_a_players_second_car():
    from tests.games.lacorsa.helpers import deal, new, play

    state = deal(new(2))                         # cars Red, Yellow (Red's), Blue, Green (Blue's)
    first = [w.text for w in S.view(state).body]
    assert first[0] == "Red: card played?" and not any("'s car" in t for t in first)
    second = [w.text for w in S.view(play(state, 0, "8")).body]
    assert second[:2] == ["Yellow: card played?", "Yellow is Red's car"]
    assert not fits(S.view(play(state, 0, "8")))
    last = [w.text for w in S.view(play(play(play(state, 0, "8"), 1, "7"), 2, "6")).body]
    assert last[:2] == ["Green: card played?", "Green is Blue's car"]


def test_with_one_car_each_the_deal_and_qualifying_screens_are_unchanged():
    from tests.games.lacorsa.helpers import deal, new, play

    state = new(4)
    assert [w.text for w in S.view(state).body] == ["Shuffle 4 suits", "Deal 13 to each car", "face down."]
    state = play(deal(state), 0, "8")
    assert [w.text for w in S.view(state).body] == ["Blue: card played?", "One card, or two", "with a Redline.",
                                                  "Entered: 1 of 4 cars"]


def test_at_the_table_three_players_read_the_deal_screens_owners_to_the_end(state_dir):
    from companion.ui.render import cut_texts, list_window
    from tests.table import make_app, press

    app = make_app(state_dir)
    players = [{"name": c, "colour": c, "driver": "human"} for c in COLOURS[:3]]
    app.start_session("lacorsa", {"players": players})
    frame = app.frame()
    assert frame.title == "Deal" and not cut_texts(frame, footer=True)
    items = frame.body[0].items
    first, shown, n = list_window(frame)
    assert first == 0 and shown < n == len(items) and "Yellow: Yellow White" not in items[:shown]
    press(app, "DOWN " * n)                            # one move: UP/DOWN scroll the list
    first, shown, n = list_window(app.frame())
    assert items[first + shown - 1] == "Yellow: Yellow White"
    press(app, "GO")                                   # the deal is done: qualifying names the owner
    texts = [w.text for w in app.frame().body]
    assert app.frame().title == "Qualifying" and texts[0] == "Red: card played?"
    press(app, "GO")                                   # Red's card (the highlighted one)
    texts = [w.text for w in app.frame().body]
    assert texts[:2] == ["Green: card played?", "Green is Red's car"] and not cut_texts(app.frame(), footer=True)


def test_a_named_players_cars_say_their_colours_on_the_board():
    from companion.games.lacorsa import rules as R
    from companion.games.lacorsa import screens as S
    from companion.profile import MENU_CHARS
    from tests.games.lacorsa.helpers import data, deal

    players = [{"name": "Ann", "colour": "Red", "driver": "human"},
               {"name": "Bartholomew", "colour": "Blue", "driver": "human"}]
    state = R.setup({"players": players}, data())
    colours = {c.name: c.colour for c in state.cars}
    assert colours == {"Ann 1": "Red", "Ann 2": "Yellow", "Bartholomew 1": "Blue", "Bartholomew 2": "Green"}
    lines = S.drivers_lines(state)
    assert lines == ["Ann 1: Red car", "Ann 2: Yellow car", "Blue: Bartholomew 1", "Green: Bartholomew 2"]
    assert all(len(line) <= MENU_CHARS for line in lines)
    shown = _lines(S.view(state))                          # the deal screen
    assert "Ann 2: Yellow car" in shown and "Green: Bartholomew 2" in shown
    assert "Ann 2: Yellow car" in _lines(S.decisions(deal(state)))
