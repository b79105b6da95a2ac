import json

import pytest

from companion.core import gamedata
from companion.core.journal import Journal
from companion.core.rng import make_rng
from companion.games.api import event_json
from companion.session import SessionRunner
from companion.tools.dice_roller import rules, screens
from companion.ui.view import Big


def start(game):
    return rules.setup({"game": game}, gamedata.load_any(game))


def perform(state, move, rng):
    event = rules.resolve(state, move, rng)
    json.loads(event_json(event))  # journal-ready
    return rules.apply(state, event), event


def move(state, kind, **args):
    return next(m for m in rules.moves(state) if m.kind == kind and all(m.arg(k) == v for k, v in args.items()))


def primary(state):
    found = [m for m in rules.moves(state) if m.primary]
    assert len(found) == 1
    return found[0]


def test_options_offer_any_and_each_game_with_data():
    choices = dict(rules.OPTIONS[0].choices)
    assert rules.OPTIONS[0].key == "game"
    assert {"any", "3-wide", "formula-de", "lacorsa"} <= set(choices)
    assert choices["formula-de"] == "Formula Dé"


@pytest.mark.parametrize("game", ["any", "3-wide", "formula-de", "lacorsa"])
def test_moves_fit_the_footer_and_one_is_primary(game):
    state = start(game)
    moves = rules.moves(state)
    assert all(len(m.label) <= 14 for m in moves)
    assert len({m for m in moves}) == len(moves)
    primary(state)
    rolled = {m.arg("die") for m in moves if m.kind == "roll"}
    assert {"d6", "d20"} <= rolled


def test_formula_de_gear_roll_is_a_face_of_that_gear_and_becomes_the_go_move():
    state = start("formula-de")
    assert {m.arg("die") for m in rules.moves(state) if m.kind == "roll"} >= {f"gear-{g}" for g in range(1, 7)} | {"black"}
    rng = make_rng(5)
    state, event = perform(state, move(state, "roll", die="gear-5"), rng)
    assert event["kind"] == "roll" and event["die"] == "gear-5"
    assert 11 <= event["faces"][0] <= 20
    assert primary(state).arg("die") == "gear-5"
    for _ in range(30):
        state, event = perform(state, primary(state), rng)
        assert 11 <= event["faces"][0] <= 20
    view = screens.view(state)
    assert view.body == (Big(str(event["faces"][0]), caption="5th gear"),)
    assert view.title == "Formula Dé dice" and view.status == "#31"


def test_three_wide_rolls_its_four_tire_dice_at_once_and_tires_can_wear():
    state = start("3-wide")
    assert primary(state).kind == "roll-set"
    rng = make_rng(11)
    state, event = perform(state, primary(state), rng)
    assert event["dice"] == ["tire-black"] * 4 and len(event["faces"]) == 4
    black = gamedata.dice("3-wide")["tire-black"].faces
    assert all(f in black for f in event["faces"])
    # wear tire 3: black -> green -> yellow -> red -> black
    seen = []
    for _ in range(4):
        state, _ = perform(state, move(state, "swap", slot=2), rng)
        seen.append(move(state, "swap", slot=2).label)
    assert seen == ["3: Green tire", "3: Yellow tire", "3: Red tire", "3: Black tire"]
    state, _ = perform(state, move(state, "swap", slot=0), rng)
    assert primary(state).kind == "roll-set"   # GO still rolls the set
    state, event = perform(state, primary(state), rng)
    assert event["dice"] == ["tire-green", "tire-black", "tire-black", "tire-black"]
    green = gamedata.dice("3-wide")["tire-green"].faces
    assert event["faces"][0] in green
    big = screens.view(state).body[0]
    assert big.text == " ".join(event["faces"])   # custom faces shown as they are
    assert big.caption == "Tire dice GBBB"


def test_custom_face_is_shown_as_is():
    state = start("3-wide")
    state = rules.apply(state, {"kind": "roll", "die": "tire-black", "faces": ["5xs"]})
    assert screens.view(state).body == (Big("5xs", caption="Black tire"),)


def test_history_keeps_the_last_twenty_rolls():
    state = start("any")
    rng = make_rng(2)
    events = []
    for _ in range(25):
        state, event = perform(state, move(state, "roll", die="d20"), rng)
        events.append(event)
    assert state.count == 25 and len(state.history) == rules.HISTORY
    assert [r.faces[0] for r in state.history] == [e["faces"][0] for e in events[-20:]]
    assert rules.summary(state)["rolls"] == 25
    assert rules.standings(state) == [] and not rules.finished(state)


def test_before_the_first_roll_the_screen_says_what_go_rolls():
    view = screens.view(start("lacorsa"))
    assert view.title == "Lacorsa dice"
    assert [w.text for w in view.body][1:] == ["Press GO to roll", "Tie die"]
    assert screens.view(start("any")).title == "Dice"
    assert screens.receipts(start("any")) == {}


def test_apply_is_pure_replay_gives_the_same_state():
    state = start("3-wide")
    rng = make_rng(8)
    events = []
    for m in [primary(state), move(state, "swap", slot=1), move(state, "roll", die="d6")]:
        state, event = perform(state, m, rng)
        events.append(json.loads(event_json(event)))
    replayed = start("3-wide")
    for event in events:
        replayed = rules.apply(replayed, event)
    assert replayed == state


@pytest.mark.parametrize("event", [
    {"kind": "roll", "die": "gear-5", "faces": [3]},          # not a face of the die
    {"kind": "roll", "die": "gear-9", "faces": [3]},          # no such die
    {"kind": "roll-set", "set": "tires", "dice": ["d6"], "faces": [1, 2]},
    {"kind": "explode"},
])
def test_apply_refuses_events_that_do_not_fit(event):
    with pytest.raises(LookupError if event.get("die") == "gear-9" else ValueError):
        rules.apply(start("formula-de"), event)


def test_through_the_journal_resume_and_undo(tmp_path):
    data = gamedata.load("formula-de")
    rng = make_rng(4)
    with Journal(tmp_path) as journal:
        runner = SessionRunner.start(journal, "dice", {"game": "formula-de"}, data)
        gear6 = move(runner.state, "roll", die="gear-6")
        first = runner.perform(gear6, rng)
        second = runner.perform(next(m for m in runner.moves() if m.primary), rng)
        assert runner.history()[-1].label == f"6th gear: {second['faces'][0]}"
        state = runner.state
    with Journal(tmp_path) as journal:
        resumed = SessionRunner.resume(journal, journal.open_session())
        assert resumed.state == state and not resumed.problems
        resumed.undo()
        assert resumed.state.history[-1].faces == tuple(first["faces"])   # no re-roll
