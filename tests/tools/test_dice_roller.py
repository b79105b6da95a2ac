import json

import pytest


from companion.games import data as game_data
from companion.core.journal import Journal
from companion.core.rng import make_rng
from companion.games.api import event_json
from companion.session import SessionRunner
from companion.tools.dice_roller import rules, screens
from companion.ui.view import Big, Menu, Text


def start(game):
    return rules.setup({"game": game}, game_data.load_any(game))


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


@pytest.mark.parametrize("game", ["any", "street-illegal", "3-wide", "formula-de", "lacorsa", "top-speed"])
def test_moves_fit_the_footer_and_one_is_primary(game):
    state = start(game)
    moves = rules.moves(state)
    assert all(len(m.label) <= 14 for m in moves)
    assert len({m for m in moves}) == len(moves)
    primary(state)


@pytest.mark.parametrize("game, expected", [
    ("any", ["d6", "2d6", "3d6", "d20", "d4", "d8", "d10", "d12", "d100"]),
    ("street-illegal", ["d6", "d20"]),
    ("top-speed", ["d6", "d20"]),
    # the game's own dice; a plain die only where the game has none with its faces
    ("formula-de", ["1st gear", "2nd gear", "3rd gear", "4th gear", "5th gear", "6th gear", "Black die", "d6"]),
    ("lacorsa", ["Tie die", "d20"]),
])
def test_every_die_of_each_game_is_offered_once(game, expected):
    assert [m.label for m in rules.moves(start(game)) if m.kind in ("roll", "roll-set")] == expected


def test_plain_sets_roll_several_dice_at_once():
    state = start("any")
    state, event = perform(state, move(state, "roll-set", set="2d6"), make_rng(3))
    assert event["dice"] == ["d6", "d6"] and all(1 <= f <= 6 for f in event["faces"])
    assert primary(state).label == "2d6"
    assert screens.view(state).body[0] == Big(" ".join(map(str, event["faces"])), caption="2d6")


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
    before = " \u00b7 ".join(str(r.faces[0]) for r in state.history[-2:-5:-1])  # as many as fit whole
    assert view.body == (Big(str(event["faces"][0]), caption="5th gear"), Text(f"before: {before}", align="center"))
    assert view.title == "Formula Dé dice" and view.status == "#31"


def test_three_wide_rolls_its_four_tire_dice_at_once_and_tires_can_wear():
    state = start("3-wide")
    assert primary(state).kind == "roll-set"
    rng = make_rng(11)
    state, event = perform(state, primary(state), rng)
    assert event["dice"] == ["tire-black"] * 4 and len(event["faces"]) == 4
    black = game_data.dice("3-wide")["tire-black"].faces
    assert all(f in black for f in event["faces"])
    # wear tire 3: black -> green -> yellow -> red, then a new black one
    assert move(state, "swap", slot=2).label == "Die 3 > Green"
    seen = []
    for _ in range(4):
        state, _ = perform(state, move(state, "swap", slot=2), rng)
        seen.append(move(state, "swap", slot=2).label)
    assert seen == ["Die 3 > Yellow", "Die 3 > Red", "Die 3 > Black", "Die 3 > Green"]
    assert not [m for m in rules.moves(state) if m.kind == "reset"]   # back to four black
    state, _ = perform(state, move(state, "swap", slot=0), rng)
    assert primary(state).kind == "roll-set"   # GO still rolls the set
    view = screens.view(state)                 # the screen shows the set as it is now
    assert view.title == "Tire dice now"
    assert view.body == (Menu(("Die 1: Green tire", "Die 2: Black tire", "Die 3: Black tire",
                               "Die 4: Black tire"), -1),)   # nothing looks chosen
    state, event = perform(state, primary(state), rng)
    assert event["dice"] == ["tire-green", "tire-black", "tire-black", "tire-black"]
    green = game_data.dice("3-wide")["tire-green"].faces
    assert event["faces"][0] in green
    big = screens.view(state).body[0]
    assert big.text == " ".join(event["faces"])   # custom faces shown as they are
    assert big.caption == "Tire dice GBBB"
    assert len(screens.view(state).body) == 1      # four faces keep the whole body


def test_new_tires_reset_the_set_in_one_move():
    state = start("3-wide")
    rng = make_rng(4)
    for slot in (0, 0, 3):
        state, _ = perform(state, move(state, "swap", slot=slot), rng)
    assert state.dice_set("tires").dice == ("tire-yellow", "tire-black", "tire-black", "tire-green")
    reset = move(state, "reset")
    assert reset.label == "Reset to BBBB"
    state, event = perform(state, reset, rng)
    assert event == {"kind": "reset", "set": "tires", "dice": ["tire-black"] * 4}
    assert state.dice_set("tires").dice == ("tire-black",) * 4
    assert screens.view(state).title == "Tire dice: reset"
    with pytest.raises(ValueError, match="has 4 dice, not 1"):
        rules.apply(state, {"kind": "reset", "set": "tires", "dice": ["tire-red"]})


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


def test_the_rolls_before_the_last_are_on_the_line_under_it():
    """The earlier rolls of the same die (another die's are not its history)."""
    state = start("formula-de")
    for die, face in [("gear-5", 11), ("black", 17), ("gear-5", 16), ("gear-5", 14)]:
        state = rules.apply(state, {"kind": "roll", "die": die, "faces": [face]})
    assert screens.view(state).body == (Big("14", caption="5th gear"),
                                        Text("before: 16 \u00b7 11", align="center"))


def test_before_the_first_roll_the_screen_points_at_the_footer():
    """UP/DOWN may pick another die before the first roll: the body never names one the
    footer (and GO) no longer does."""
    view = screens.view(start("lacorsa"))
    assert view.title == "Lacorsa dice"
    assert [w.text for w in view.body][1:] == ["Press GO to roll", "the dice named below", "\u2191\u2193 pick another"]
    for game in ("any", "formula-de", "3-wide"):
        texts = [w.text for w in screens.view(start(game)).body]
        assert not {m.label for m in rules.moves(start(game))} & set(texts)


def test_the_plain_choice_says_it_offers_every_plain_die():
    label = dict(rules.OPTIONS[0].choices)["any"]
    assert label == "Plain dice d4-d100"
    plain = [m.label for m in rules.moves(start("any")) if m.kind == "roll"]
    assert plain[0] == "d6" and plain[-1] == "d100"
    assert screens.view(start("any")).title == "Dice"
    assert screens.receipts(start("any")) == {}


def test_apply_is_pure_replay_gives_the_same_state():
    state = start("3-wide")
    rng = make_rng(8)
    events = []
    for pick in [primary, lambda s: move(s, "swap", slot=1), lambda s: move(s, "reset"),
                 lambda s: move(s, "roll", die="d6")]:
        state, event = perform(state, pick(state), rng)
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
    data = game_data.load("formula-de")
    rng = make_rng(4)
    with Journal(tmp_path) as journal:
        runner = SessionRunner.start(journal, "dice", {"game": "formula-de"}, data)
        gear6 = move(runner.state, "roll", die="gear-6")
        first = runner.perform(gear6, rng)
        second = runner.perform(next(m for m in runner.moves() if m.primary), rng)
        assert runner.history()[-1].label == f"6th gear: {second['faces'][0]}"
        assert runner.history()[0].label == f"6th gear: {first['faces'][0]}"
        state = runner.state
    with Journal(tmp_path) as journal:
        resumed = SessionRunner.resume(journal, journal.open_session())
        assert resumed.state == state and not resumed.problems
        resumed.undo()
        assert resumed.state.history[-1].faces == tuple(first["faces"])   # no re-roll


def test_the_history_names_the_die_a_swap_put_in(tmp_path):
    rng = make_rng(2)
    with Journal(tmp_path) as journal:
        runner = SessionRunner.start(journal, "dice", {"game": "3-wide"}, game_data.load("3-wide"))
        runner.perform(move(runner.state, "swap", slot=1), rng)
        runner.perform(move(runner.state, "reset"), rng)
        rolled = runner.perform(next(m for m in runner.moves() if m.primary), rng)
        assert [e.label for e in runner.history()] == [
            "Tire dice: die 2 to Green tire", "Tire dice: reset to BBBB", "Tire dice: " + " ".join(rolled["faces"])]


def test_an_owner_defined_die_and_set_are_rolled_like_the_games_own(state_dir):
    path = game_data.override_path("lacorsa", state_dir)
    path.parent.mkdir(parents=True)
    path.write_text('[dice.weather]\nlabel = "Weather"\nfaces = ["sun", "rain", "sun"]\n'
                    '[dice_sets.pair]\nlabel = "Tie + weather"\ndice = ["tie", "weather"]\n')
    game_data.clear_cache()
    try:
        state = rules.setup({"game": "lacorsa"}, game_data.load("lacorsa", state_dir))
    finally:
        game_data.clear_cache()
    assert [m.label for m in rules.moves(state)] == ["Tie + weather", "Tie die", "Weather", "d20"]
    state, event = perform(state, move(state, "roll-set", set="pair"), make_rng(1))
    assert event["faces"][0] in range(1, 7) and event["faces"][1] in ("sun", "rain")
    assert screens.view(state).body[0].caption == "Tie + weather"


def test_the_key_is_the_dice_of_the_sessions_game(state_dir):
    """A Street Illegal dice session has no tire dice: no Key of them; 3-Wide's has."""
    import random
    from companion.app import App
    from companion.core.journal import Journal
    from companion.devices.emulated import HeadlessDisplay
    from companion.ui import flow
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), rng=random.Random(1))
    app.start_session("dice", {"game": "street-illegal"})
    labels = [label for _, label in flow.Pause().items(app)]
    assert "Key" not in labels and not any("tire" in line for line in app.key())
    app.go_home()
    app.start_session("dice", {"game": "3-wide"})
    assert "Key" in [label for _, label in flow.Pause().items(app)]
    assert "5xs = a tire die" in app.key()


def test_a_long_games_dice_title_shows_whole_beside_the_count(state_dir):
    """"Street Illegal dice" does not fit beside "#12": the game's name does, whole."""
    from companion.games import registry
    from companion.ui.render import cut_texts
    act = registry.activity("dice")
    import random
    from companion.app import App
    from companion.core.journal import Journal
    from companion.devices.emulated import HeadlessDisplay
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), rng=random.Random(1))
    app.start_session("dice", {"game": "street-illegal"})
    for _ in range(12):
        app.perform(app.moves()[0])
    view = act.view(app.runner.state)
    assert view.status == "#12" and view.title in ("Street Illegal dice", "Street Illegal")
    assert cut_texts(view) == []


def test_the_open_race_question_title_shows_whole(state_dir):
    from companion.ui.flow import OpenRace
    from companion.ui.render import cut_texts
    import random
    from companion.app import App
    from companion.core.journal import Journal
    from companion.devices.emulated import HeadlessDisplay
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), rng=random.Random(1))
    view = OpenRace(1, "Lap counter", ("new", "dice")).view(app)
    assert cut_texts(view) == [] and view.title.startswith("Lap counter")


def test_before_lists_only_the_same_dice(state_dir):
    """A d6's "before" line never holds a gear die's rolls."""
    import random
    from companion.app import App
    from companion.core.journal import Journal
    from companion.devices.emulated import HeadlessDisplay
    from companion.games import registry
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), rng=random.Random(3))
    app.start_session("dice", {"game": "formula-de"})
    moves = app.moves()
    d6 = next(m for m in moves if m.label == "d6")
    gear = next(m for m in moves if m.label != "d6" and m.kind == "roll")
    for move in (d6, gear, gear, d6):
        app.perform(move)
    state = app.runner.state
    view = registry.activity("dice").view(state)
    before = [w.text for w in view.body if getattr(w, "text", "").startswith("before:")]
    first_d6 = " ".join(str(f) for f in state.history[0].faces)
    assert before == [f"before: {first_d6}"]
