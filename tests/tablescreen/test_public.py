"""The table screen's public view of a race: every activity gives one through a whole
race, and nothing hidden reaches it. For every game with a hand or a deck, the payload
the page is sent (the pack's public view, the history, the chart) is the same whatever
the hidden part of the state holds: other cards in the hands, the decks in another order."""

import dataclasses
import json

import pytest

from companion.core.deck import Pile
from companion.games import registry
from companion.games.three_wide import rules as R3
from companion.table.public import public_view
from companion.table.source import Follower

from tests.tablescreen.conftest import play, race

ALL = [e.slug for e in registry.playable()]


@pytest.mark.parametrize("slug", ALL)
def test_every_activity_has_a_public_view_through_its_whole_race(state_dir, slug):
    app = race(state_dir, slug, 0)
    act = registry.activity(slug)
    seen = 0
    for step in range(3000):
        if step % 9 == 0:
            view = public_view(act, app.runner.state)
            json.dumps(view)
            assert view["waiting"] or view["finished"], f"{slug} step {step}: nothing waited for"
            for car in view["cars"]:
                assert car["name"] and all(w["kind"] in ("bar", "stat", "chips", "cards") for w in car["widgets"])
            seen += 1
        move = act.demo.script(app.runner.state)
        if move is None or app.runner.session.finished is not None:
            break
        app.perform(move)
    assert public_view(act, app.runner.state)["finished"] or slug in ("dice", "deck")
    assert seen > 1


def _reversed(pile: Pile) -> Pile:
    return Pile(tuple(reversed(pile.draw)), pile.discard)


def _three_wide(state):
    deck = len(state.settings.deck)
    held = {i for h in state.hands for i in h}
    other = [i for i in range(deck) if i not in held] + sorted(held)
    hands, k = [], 0
    for h in state.hands:                      # other cards, as many as each hand holds
        hands.append(tuple(other[k:k + len(h)]))
        k += len(h)
    return dataclasses.replace(state, hands=tuple(hands), pile=tuple(reversed(state.pile)))


def _lacorsa(state):
    names = [d.name for d in state.settings.suit]
    return dataclasses.replace(state, hands=tuple(tuple(reversed(names))[:len(h)] for h in state.hands))


def _top_speed(state):
    return dataclasses.replace(state, cars=tuple(dataclasses.replace(c, pile=_reversed(c.pile))
                                                 for c in state.cars))


def _street_illegal(state):
    return dataclasses.replace(state, pile=_reversed(state.pile))


def _deck(state):
    return dataclasses.replace(state, decks=tuple(dataclasses.replace(d, pile=_reversed(d.pile))
                                                  for d in state.decks))


HIDDEN = {  # slug: (the hidden part changed, when the race holds it)
    "3-wide": (_three_wide, lambda s: s.phase == "tactics" and s.show and any(len(h) > 1 for h in s.hands)),
    "lacorsa": (_lacorsa, lambda s: any(len(h) > 1 for h in s.hands) and s.step == "race"),
    "top-speed": (_top_speed, lambda s: s.phase not in ("start", "grid") and s.cars[0].pile.left > 5),
    "street-illegal": (_street_illegal, lambda s: s.step == "race" and s.pile.left > 2),
    "deck": (_deck, lambda s: s.deck.pile.left > 5 and s.draws > 2),
}


@pytest.mark.parametrize("slug", sorted(HIDDEN))
def test_nothing_hidden_reaches_the_page(state_dir, slug):
    change, holds = HIDDEN[slug]
    app = race(state_dir, slug, 3000, until=holds)
    state = app.runner.state
    assert holds(state), f"the {slug} demo race never reached a state with hidden cards"
    changed = change(state)
    assert changed != state
    follower = Follower(state_dir)
    follower.poll()
    before = follower.text
    follower.state = changed              # the same race with other hidden cards
    follower._publish()
    assert follower.text == before
    shown = json.loads(before)["race"]
    assert shown["cars"] or shown["screen"], "the page shows the race"


def test_tactics_picked_in_turn_stay_off_the_history_and_are_named_when_turned(state_dir):
    app = race(state_dir, "3-wide", 3000, until=lambda s: s.phase == "tactics" and s.played)
    follower = Follower(state_dir)
    payload = json.loads(follower.text)
    assert payload["history"][0].endswith(": a tactic face down"), payload["history"]
    assert not any(">#" in line for line in payload["history"]), payload["history"]
    play(app, "3-wide", 3000, until=lambda s: s.phase != "tactics")   # the tactics are turned
    follower.poll()
    payload = json.loads(follower.text)
    turned = next(line for line in payload["history"] if line.startswith("Tactics turned: "))
    picked = [f"{R3.card(app.runner.state, i).short}>#{app.runner.state.cars[c].number}"
              for i, c in app.runner.state.played]
    assert turned == "Tactics turned: " + ", ".join(picked) and ">#" in turned
    assert sum(line.endswith(": a tactic face down") for line in payload["history"]) == len(picked)
    follower.close()
