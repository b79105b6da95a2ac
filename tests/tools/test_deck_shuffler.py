import json
from collections import Counter

import pytest

from companion.core import gamedata
from companion.core.deck import DeckError
from companion.core.journal import Journal
from companion.core.rng import make_rng
from companion.games.api import event_json
from companion.session import SessionRunner
from companion.tools.deck_shuffler import rules, screens
from companion.ui.view import Big

OWNER_DECK = """
[decks.my-deck]
label = "Weather"
cards = [ { name = "Sun", count = 3 }, { name = "Rain", count = 2, wet = true } ]
"""


@pytest.fixture(autouse=True)
def fresh_cache():
    gamedata.clear_cache()
    yield
    gamedata.clear_cache()


def start(game, state_dir=None):
    return rules.setup({"game": game}, gamedata.load(game, state_dir))


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
    assert view.body == (Big(event["cards"][0]["name"], caption="0 discarded"),)


def test_a_whole_suit_is_each_card_once_then_the_discards_come_back():
    state = start("lacorsa")
    rng = make_rng(3)
    drawn = []
    for _ in range(13):
        state, event = perform(state, primary(state), rng)
        drawn += event["cards"]
    assert names(drawn) == names(gamedata.decks("lacorsa")["suit"])
    assert [m.kind for m in rules.moves(state)] == ["discard", "shuffle"]   # nothing left to draw
    assert primary(state).kind == "discard"
    assert screens.view(state).status == "0 left"
    state, event = perform(state, primary(state), rng)
    assert names(event["cards"]) == names(drawn) and len(state.deck.pile.discard) == 13
    state, event = perform(state, primary(state), rng)     # draw pile empty: discards reshuffled in
    assert event["shuffle"] is None and sorted(event["reshuffle"]) == list(range(13))
    assert state.deck.pile.left == 12 and state.deck.pile.discard == ()


def test_reshuffle_discards_and_shuffle_all_keep_every_card():
    state = start("lacorsa")
    rng = make_rng(9)
    for _ in range(3):
        state, _ = perform(state, primary(state), rng)
    state, _ = perform(state, move(state, "discard"), rng)
    state, _ = perform(state, primary(state), rng)
    state, event = perform(state, move(state, "reshuffle"), rng)
    assert sorted(event["order"]) == [0, 1, 2]
    assert state.deck.pile.left == 12 and state.deck.pile.discard == () and len(state.deck.shown) == 1
    state, event = perform(state, move(state, "shuffle"), rng)
    assert sorted(event["order"]) == list(range(13))
    assert state.deck.pile.left == 13 and state.deck.shown == ()
    assert names(state.deck.pile.draw) == names(gamedata.decks("lacorsa")["suit"])


def test_owner_defined_decks_are_offered_and_can_be_switched(state_dir):
    path = gamedata.override_path("lacorsa", state_dir)
    path.parent.mkdir(parents=True)
    path.write_text(OWNER_DECK)
    state = start("lacorsa", state_dir)
    switch = move(state, "deck")
    assert switch.label == "Deck: Weather" and len(switch.label) <= 14
    rng = make_rng(5)
    state, _ = perform(state, primary(state), rng)          # a card of the suit stays on show
    state, _ = perform(state, switch, rng)
    assert state.deck.label == "Weather" and state.deck.size == 5
    state, event = perform(state, primary(state), rng)
    assert event["deck"] == "my-deck" and event["cards"][0]["name"] in ("Sun", "Rain")
    state, _ = perform(state, move(state, "deck"), rng)
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
    data = gamedata.load("lacorsa")
    rng = make_rng(6)
    with Journal(tmp_path) as journal:
        runner = SessionRunner.start(journal, "deck", {"game": "lacorsa"}, data)
        first = runner.perform(next(m for m in runner.moves() if m.primary), rng)
        runner.perform(next(m for m in runner.moves() if m.primary), rng)
        assert runner.history()[0].label == f"Draw: {first['cards'][0]['name']}"
        state = runner.state
    with Journal(tmp_path) as journal:
        resumed = SessionRunner.resume(journal, journal.open_session())
        assert resumed.state == state
        resumed.undo()
        assert [c.as_dict() for c in resumed.state.deck.shown] == first["cards"]
