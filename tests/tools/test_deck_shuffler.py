import json
from collections import Counter

import pytest

from companion.profile import LINE_CHARS

from companion.games import data as game_data
from companion.core.deck import DeckError
from companion.core.journal import Journal
from companion.core.rng import make_rng
from companion.games.api import event_json
from companion.session import SessionRunner
from companion.tools.deck_shuffler import rules, screens
from companion.ui.view import Big
from companion.ui.nav import PAGING_HINTS

OVER_FOOTERS = ("OK: main menu", PAGING_HINTS["OK: main menu"])
"""The race over: OK goes to the main menu (saying OK held pages a long list)."""

OWNER_DECK = """
[decks.my-deck]
label = "Weather"
cards = [ { name = "Sun", count = 3 }, { name = "Rain", count = 2, wet = true } ]
"""


@pytest.fixture(autouse=True)
def fresh_cache():
    game_data.clear_cache()
    yield
    game_data.clear_cache()


def start(game, state_dir=None):
    return rules.setup({"game": game}, game_data.load(game, state_dir))


def perform(state, move, rng):
    event = json.loads(event_json(rules.resolve(state, move, rng)))  # as the journal gives it back
    return rules.apply(state, event), event


def move(state, kind):
    return next(m for m in rules.moves(state) if m.kind == kind)


def primary(state):
    found = [m for m in rules.moves(state) if m.primary]
    assert len(found) == 1
    return found[0]


def names(cards):
    return sorted(c["name"] if isinstance(c, dict) else c.name for c in cards)


def test_first_draw_shuffles_and_records_the_order_and_the_card():
    state = start("lacorsa")
    assert primary(state).kind == "draw"
    state, event = perform(state, primary(state), make_rng(1))
    assert sorted(event["shuffle"]) == list(range(13))
    assert len(event["cards"]) == 1 and event["reshuffle"] is None
    d = state.deck
    assert d.pile.left == 12 and d.shown[0].as_dict() == event["cards"][0]
    view = screens.view(state)
    assert view.title == "Suit (1 car)" and view.status == "12 left"
    assert view.body == (Big(event["cards"][0]["name"], caption=""),)   # the only card out: all room to it


def test_a_whole_suit_is_each_card_once_then_the_discards_come_back():
    state = start("lacorsa")
    rng = make_rng(3)
    drawn = []
    for _ in range(13):
        state, event = perform(state, primary(state), rng)
        drawn += event["cards"]
    assert names(drawn) == names(game_data.decks("lacorsa")["suit"])
    assert [m.kind for m in rules.moves(state)] == ["discard", "shuffle"]   # nothing left to draw
    assert primary(state).label == "Discard all 13"
    view = screens.view(state)
    assert view.status == "0 left" and view.body[0].caption == "13 on show, none left"
    state, event = perform(state, primary(state), rng)
    assert names(event["cards"]) == names(drawn) and len(state.deck.pile.discard) == 13
    assert [w.text for w in screens.view(state).body] == ["Draw pile empty:", "GO reshuffles the",
                                                          "13 discards, draws"]
    state, event = perform(state, primary(state), rng)     # draw pile empty: discards reshuffled in
    assert event["shuffle"] is None and sorted(event["reshuffle"]) == list(range(13))
    assert state.deck.pile.left == 12 and state.deck.pile.discard == ()
    assert screens.view(state).body[0].caption == "13 cards reshuffled"   # said once, with the card
    state, _ = perform(state, primary(state), rng)
    assert screens.view(state).body[0].caption == "2 on show"


def test_reshuffle_discards_and_shuffle_all_keep_every_card():
    state = start("lacorsa")
    rng = make_rng(9)
    for _ in range(3):
        state, _ = perform(state, primary(state), rng)
    state, _ = perform(state, move(state, "discard"), rng)
    state, _ = perform(state, primary(state), rng)
    assert screens.view(state).body[0].caption == "3 discarded"
    reuse = move(state, "reshuffle")
    assert reuse.label == "Reuse discards"
    state, event = perform(state, reuse, rng)
    assert sorted(event["order"]) == [0, 1, 2]
    assert state.deck.pile.left == 12 and state.deck.pile.discard == () and len(state.deck.shown) == 1
    assert screens.view(state).body[0].caption == "3 discards put back"
    state, event = perform(state, move(state, "shuffle"), rng)
    assert sorted(event["order"]) == list(range(13))
    assert state.deck.pile.left == 13 and state.deck.shown == ()
    assert [w.text for w in screens.view(state).body] == ["All 13 cards shuffled", "Press GO to draw", ""]
    assert names(state.deck.pile.draw) == names(game_data.decks("lacorsa")["suit"])


def test_owner_defined_decks_are_offered_and_can_be_switched(state_dir):
    path = game_data.override_path("lacorsa", state_dir)
    path.parent.mkdir(parents=True)
    path.write_text(OWNER_DECK)
    state = start("lacorsa", state_dir)
    switch = move(state, "deck")
    assert switch.label == "Use Weather" and len(switch.label) <= 14
    rng = make_rng(5)
    state, _ = perform(state, primary(state), rng)          # a card of the suit stays on show
    state, _ = perform(state, switch, rng)
    assert state.deck.label == "Weather" and state.deck.size == 5
    state, event = perform(state, primary(state), rng)
    assert event["deck"] == "my-deck" and event["cards"][0]["name"] in ("Sun", "Rain")
    back = move(state, "deck")
    assert back.label == "Use Suit"            # "Suit (1 car)" without its note
    state, _ = perform(state, back, rng)
    assert state.deck.id == "suit" and len(state.deck.shown) == 1


def test_a_game_without_decks_says_how_to_add_one():
    state = start("formula-de")
    assert rules.moves(state) == []
    lines = [w.text for w in screens.view(state).body]
    assert "[decks.my-deck] to" in lines and "games/formula-de.toml" in lines


def test_replay_gives_the_same_state_and_refuses_foreign_events():
    state = start("lacorsa")
    rng = make_rng(12)
    events = []
    for kind in ["draw", "draw", "discard", "draw", "reshuffle", "shuffle", "draw"]:
        state, event = perform(state, move(state, kind), rng)
        events.append(event)
    replayed = start("lacorsa")
    for event in events:
        replayed = rules.apply(replayed, event)
    assert replayed == state
    fresh = start("lacorsa")
    with pytest.raises(DeckError):   # a draw that does not match the pile
        rules.apply(fresh, {**events[0], "cards": [{"name": "Joker"}]})
    with pytest.raises(ValueError):
        rules.apply(fresh, {"kind": "draw", "deck": "nope"})


def test_the_first_card_is_uniform_over_the_suit():
    counts = Counter()
    rng = make_rng(77)
    for _ in range(2600):
        state = start("lacorsa")
        _, event = perform(state, primary(state), rng)
        counts[event["cards"][0]["name"]] += 1
    assert len(counts) == 13 and min(counts.values()) > 130 and max(counts.values()) < 270


def test_through_the_journal_resume_and_undo(tmp_path):
    data = game_data.load("lacorsa")
    rng = make_rng(6)
    with Journal(tmp_path) as journal:
        runner = SessionRunner.start(journal, "deck", {"game": "lacorsa"}, data)
        first = runner.perform(next(m for m in runner.moves() if m.primary), rng)
        runner.perform(next(m for m in runner.moves() if m.primary), rng)
        assert runner.history()[0].label == f"Drew: {first['cards'][0]['name']}"
        state = runner.state
    with Journal(tmp_path) as journal:
        resumed = SessionRunner.resume(journal, journal.open_session())
        assert resumed.state == state
        resumed.undo()
        assert [c.as_dict() for c in resumed.state.deck.shown] == first["cards"]


def test_before_the_first_draw_and_after_a_discard_the_screen_says_what_go_does():
    state = start("street-illegal")
    view = screens.view(state)
    assert (view.title, view.status) == ("Track cards", "20 left")
    assert [w.text for w in view.body] == ["", "Press GO to shuffle", "and draw (20 cards)"]
    rng = make_rng(4)
    state, drawn = perform(state, primary(state), rng)
    discard = move(state, "discard")
    assert discard.label == "Discard"
    state, _ = perform(state, discard, rng)
    card = drawn["cards"][0]["name"]
    assert [w.text for w in screens.view(state).body] in (
        [f"{card} discarded", "Press GO to draw", ""],      # a card name that fits the line with it
        [card, "discarded", "Press GO to draw"])            # a long one, on a line of its own
    assert all(len(w.text) <= LINE_CHARS for w in screens.view(state).body)


@pytest.mark.parametrize("game, deck, size", [
    ("street-illegal", "tempo", 90), ("street-illegal", "track", 20), ("top-speed", "team", 72), ("lacorsa", "suit", 13),
])
def test_every_deck_of_the_games_can_be_drawn_to_the_end_and_again(game, deck, size):
    state = start(game)
    while state.deck.id != deck:
        state, _ = perform(state, next(m for m in rules.moves(state) if m.arg("deck") == deck), make_rng(1))
    rng = make_rng(size)
    drawn = []
    for _ in range(size):
        state, event = perform(state, move(state, "draw"), rng)
        drawn += event["cards"]
    assert names(drawn) == names(game_data.decks(game)[deck]) and state.deck.pile.left == 0
    state, _ = perform(state, move(state, "discard"), rng)
    state, event = perform(state, move(state, "draw"), rng)
    assert event["reshuffle"] is not None and state.deck.pile.left == size - 1
    assert all(len(m.label) <= 14 for m in rules.moves(state))


def test_the_history_names_the_cards_drawn_and_discarded(tmp_path):
    rng = make_rng(8)
    with Journal(tmp_path) as journal:
        runner = SessionRunner.start(journal, "deck", {"game": "lacorsa"}, game_data.load("lacorsa"))
        first = runner.perform(move(runner.state, "draw"), rng)["cards"][0]["name"]
        second = runner.perform(move(runner.state, "draw"), rng)["cards"][0]["name"]
        runner.perform(move(runner.state, "discard"), rng)
        runner.perform(move(runner.state, "shuffle"), rng)
        assert [e.label for e in runner.history()] == [
            f"Drew: {first}", f"Drew: {second}", f"Discarded: {first} + {second}", "Whole deck shuffled"]


def test_only_games_with_decks_are_offered():
    offered = dict(rules.OPTIONS[0].choices)
    assert set(offered) == {"street-illegal", "3-wide", "lacorsa", "top-speed"}   # Formula Dé has no deck
    assert rules.OPTIONS[0].default in offered
    for slug in offered:
        assert rules.moves(start(slug))


def test_leaving_a_session_with_no_deck_leaves_nothing_behind(state_dir):
    """A journal from before: a deck session of a game without decks."""
    import random

    from companion.app import App
    from companion.core.journal import Journal
    from companion.devices.emulated import HeadlessDisplay
    from companion.devices.gestures import Gesture
    from companion.ui import flow

    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), rng=random.Random(1))
    app.start_session("deck", {"game": "formula-de"})
    assert app.frame().footer in OVER_FOOTERS
    app.step(Gesture("OK", "press"))
    assert isinstance(app.screen, flow.Home) and app.journal.open_session() is None
    assert app.screen.items(app)[0][0] != "continue" and app.championship_lines() == []
