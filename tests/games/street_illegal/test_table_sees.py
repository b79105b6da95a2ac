"""What the table sees without a printer, and what it can now do on the device: the
track and the grid shown before the first turn and from the pause menu, the track
entered by hand, one press for phase 1, backing out of a second pass, the duel's roles
decided by the rules, standings of a race ended at any moment."""

import random

import pytest

from companion.games import registry
from companion.games.street_illegal import autoplay, rules, screens
from companion.kit.standings import is_standings
from companion.profile import LABEL_CHARS, MENU_CHARS
from companion.ui.render import list_window
from companion.ui.view import Menu, Row, Text
from tests.games.street_illegal.helpers import car, passed_review, perform, players, start, track_index
from tests.games.street_illegal.test_passing import rulebook_table
from tests.table import make_app, press


def test_a_drawn_track_is_shown_as_one_list_before_the_grid(data):
    state = rules.setup({"players": players("Ann", "Ben")}, data)
    state = rules.apply(state, rules.resolve(state, rules.moves(state)[0], random.Random(2)))
    assert state.step == "track" and len(state.track) == 8
    assert [m.label for m in rules.moves(state)] == ["To the grid"]      # no pager of its own
    view = screens.view(state)
    assert view.title == "Track: mph limit"
    (menu,) = view.body
    assert isinstance(menu, Menu) and menu.selected < 0 and len(menu.items) == 8
    cards = [state.deck[i] for i in state.track]
    left, right = f"1 {cards[0].situation.label}", str(cards[0].limit) if cards[0].limit else "none"
    assert menu.items[0].startswith(left) and menu.items[0].endswith(" " + right)
    assert menu.items[7].startswith("8 ") and all(len(line) <= MENU_CHARS for line in menu.items)
    state, _ = perform(state, "go")
    assert state.step == "grid"


def test_a_page_kept_in_an_older_journal_still_replays(data):
    """Journals kept when the track review had a ``Next page`` move hold ``page`` events:
    they apply, and the race goes on from them."""
    state = rules.setup({"players": players("Ann", "Ben")}, data)
    state = rules.apply(state, rules.resolve(state, rules.moves(state)[0], random.Random(2)))
    state = rules.apply(state, {"kind": "page", "page": 1})
    assert state.step == "track" and rules.moves(state)[0].label == "To the grid"
    state, _ = perform(state, "go")
    assert state.step == "grid"


def test_the_track_is_read_to_its_last_card_with_ok_held_at_the_table(state_dir):
    """The gesture of every long list: OK held shows the next page of the 8 track cards,
    and UP/DOWN scroll them, on the race screen as the app shows it."""
    app = make_app(state_dir)
    app.start_session("street-illegal", {"players": players("Ann", "Ben"), "grid": "age"})
    press(app, "GO")                                     # Draw track
    assert app.frame().title == "Track: mph limit"
    first, shown, n = list_window(app.frame())
    assert (first, n) == (0, 8) and shown < n
    press(app, "HOLD:OK")
    first, shown, n = list_window(app.frame())
    assert first + shown == n                             # the 8th card is on the screen
    press(app, "UP " * n)
    assert list_window(app.frame())[0] == 0
    assert app.frame().title == "Track: mph limit"        # reading played nothing


def test_the_grid_is_shown_before_the_first_turn(data):
    state = start(rules.setup({"players": players("Ann", "Ben"), "grid": "age"}, data))
    state, _ = perform(state, "seat", car=car(state, "Ben"))
    assert state.step == "lineup" and rules.moves(state)[0].label == "Start race"
    view = screens.view(state)
    assert view.title == "Starting grid"
    assert view.body == (Row("1 OP1", "2 OP2"), Row("3 OP3", "4 OP4"), Row("5 OP5", "6 Ann"), Row("7 Ben", ""))
    state, _ = perform(state, "go")
    assert state.step == "race" and state.phase == 1


def test_the_pause_menu_shows_the_track_and_the_grid(data):
    activity = registry.entry("street-illegal").load()
    state = rules.setup({"players": players("Ann", "Ben")}, data)
    assert activity.decisions is screens.decisions
    assert screens.decisions(state).body[0].items == ("Track: mph limit:", "not drawn yet", "Grid, front first:",
                                                      "not set yet")
    state = passed_review(start(state, [track_index(state, None, "obstacle-middle")]))
    state, _ = perform(state, "seat", car=car(state, "Ann"))
    items = screens.decisions(state).body[0].items
    assert items[1] == "1 Obst. middle  none" and len(items) == 1 + 8 + 1 + 7
    assert items[-2:] == ("6 Ben", "7 Ann")
    assert all(len(line) <= MENU_CHARS for line in items)


def test_the_table_enters_the_track_it_drew(data):
    state = rules.setup({"players": players("Ann"), "track": "hand"}, data)
    assert rules.moves(state)[0].label == "Enter track"
    event = rules.resolve(state, rules.moves(state)[0], random.Random(1))
    assert event["track"] == []                              # the companion draws nothing
    state = rules.apply(state, event)
    assert state.step == "enter" and screens.view(state).status == "1/8"
    offered = rules.moves(state)
    assert len(offered) == 20 and len({m.label for m in offered}) == 20
    assert all(len(m.label) <= LABEL_CHARS for m in offered)
    assert {"70 Obst. left", "NL Uphill", "90 Downhill"} <= {m.label for m in offered}
    wanted = [track_index(state, limit, sit) for limit, sit in (
        (90, "uphill"), (None, "downhill"), (70, "obstacle-left"), (80, "obstacle-middle"),
        (70, "downhill"), (None, "obstacle-right"), (90, "obstacle-middle"), (80, "uphill"))]
    for k, index in enumerate(wanted):
        state, _ = perform(state, "pick", card=index)
        if k < 7:
            assert len(rules.moves(state)) == 19 - k          # a card entered is not offered again
            assert screens.view(state).body[-1] == Row(*screens.track_row(state, k))
    assert state.step == "track" and state.track == tuple(wanted)
    with pytest.raises(rules.RuleError):
        rules.apply(state, {"kind": "pick", "card": 0})
    state = passed_review(state)
    assert state.track_card.limit == 90 and state.track_card.situation.id == "uphill"
    assert rules.summary(state)["rules"]["track"] == "hand"


def test_an_entered_card_already_taken_is_refused(data):
    state = rules.setup({"players": 1, "track": "hand"}, data)
    state = rules.apply(state, {"kind": "start", "track": [], "op_order": list(range(90))})
    state = rules.apply(state, {"kind": "pick", "card": 4})
    with pytest.raises(rules.RuleError):
        rules.apply(state, {"kind": "pick", "card": 4})
    with pytest.raises(rules.RuleError):
        rules.setup({"players": 1, "track": "shuffled"}, data)


def test_phase_1_one_press_for_the_whole_table(data):
    state = start(rules.setup({"players": players("Ann", "Ben", "Cat")}, data))
    for who in ("Ann", "Ben"):
        state, _ = perform(state, "seat", car=car(state, who))
    state = passed_review(state)
    assert rules.moves(state)[0].label == "All done" and rules.moves(state)[0].primary
    state, _ = perform(state, "all_done")
    assert state.phase == 2 and state.current_player == state.in_order_players()[0]


def test_a_player_can_back_out_of_a_second_pass(data):
    state = rulebook_table(data, op_values=())
    alex = car(state, "Alex")
    state, _ = perform(state, "winner", car=alex)
    assert rules.may_pass_again(state)
    state, _ = perform(state, "again")
    assert "No 2nd pass" in [m.label for m in rules.moves(state)]
    state, _ = perform(state, "stop")
    assert state.stage == "attack" and state.duel.attacker == car(state, "Chris")   # Bob was passed: Chris next
    assert state.hand[alex] == 5 and state.brakes[alex] == 0


def test_the_duel_roles_are_decided_by_the_rules(data):
    state = rulebook_table(data, op_values=(30, 60))
    assert rules.duel_old_pro(state) is None and rules.duel_player(state) is None
    state, _ = perform(state, "winner", car=car(state, "Bob"))
    assert rules.duel_loser(state) == car(state, "Alex") and not rules.may_pass_again(state)
    state, _ = perform(state, "stop")
    state, _ = perform(state, "pass_up", player="Bob")
    assert rules.duel_old_pro(state) == car(state, "Old Pro 4") and rules.duel_player(state) == car(state, "Chris")
    state = rulebook_table(data, op_values=(), nitrous=True)
    state, _ = perform(state, "tie")
    assert rules.nitrous_car(state) == car(state, "Alex")
    state, _ = perform(state, "raise", card=0)
    assert rules.nitrous_car(state) == car(state, "Bob")


def test_bids_are_entered_not_put_down(data):
    state = start(rules.setup({"players": players("Ann", "Ben"), "grid": "tactical"}, data))
    assert screens.view(state).body[0] == Text("Ann: enter card bid")


@pytest.mark.parametrize("options", [
    {"players": players("Ann", "Ben", "Cat"), "grid": "tactical", "nitrous": True},
    {"players": players("Solo"), "track": "hand"},
])
def test_a_race_ended_at_any_moment_has_standings_and_a_results_receipt(data, options):
    state = rules.setup(options, data)
    rng = random.Random(4)
    steps = set()
    while True:
        rows = rules.standings(state)
        assert is_standings(rows) and len(rows) == 7
        lines = screens.receipts(state)["results"].text_lines()
        assert all(len(line) <= 32 for line in lines)
        assert ("Race results" in lines) == rules.finished(state)
        assert any(line.startswith("Winner: " if rules.finished(state) else "In front: ") for line in lines)
        steps.add(state.step)
        if rules.finished(state):
            break
        state = rules.apply(state, rules.resolve(state, autoplay.choose(state, rng), rng))
    assert {"start", "track", "lineup", "race", "done"} <= steps


def test_every_screen_fits_with_long_names(data):
    from dataclasses import replace as with_footer

    from companion.ui import fonts
    from companion.ui.render import render
    from companion.ui.view import Big

    names = ("Alexandra", "Bartholomew", "Christophe", "Dorothea", "Emmanuelle", "Frederika", "Gwendolyn")
    state = rules.setup({"players": players(*names), "grid": "tactical", "nitrous": True, "track": "hand"}, data)
    rng = random.Random(11)
    while not rules.finished(state):
        for view in (screens.view(state), screens.decisions(state)):
            assert len(view.title) + (len(view.status) + 1 if view.status else 0) <= 21, view.title
            for w in view.body:
                texts = {Text: lambda w: [w.text], Big: lambda w: [w.caption], Row: lambda w: [f"{w.left} {w.right}"],
                         Menu: lambda w: list(w.items)}[type(w)](w)
                assert all(fonts.text_width(t) <= 126 for t in texts), texts
            assert render(with_footer(view, footer="< x >")).size == (128, 64)
        for move in rules.moves(state):
            assert len(move.label) <= LABEL_CHARS, move.label
        state = rules.apply(state, rules.resolve(state, autoplay.choose(state, rng), rng))


def test_the_table_screens_track_line_separates_its_cards(data):
    """"Track: NL Downhill 90 · Obst. middle 70 · …": a dot between cards."""
    from companion.games.street_illegal import public
    state = start(rules.setup({"players": players("Ann", "Ben")}, data))
    (track,) = [n for n in public.public(state)["notes"] if n.startswith("Track: ")]
    assert track.count(" \u00b7 ") == len(state.track) - 1
