"""A whole race with scripted players: setup -> moves/resolve/apply to the finish."""

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from companion.core.deck import Pile
from companion.games.api import event_json
from companion.games.street_illegal import autoplay, rules
from tests.games.street_illegal.helpers import players

POINTS = (15, 11, 8, 6, 4, 2, 1)


def play(data, seed, **options):
    state = rules.setup(options, data)
    rng = random.Random(seed)
    events = []
    while not rules.finished(state):
        move = autoplay.choose(state, rng)
        assert move in rules.moves(state)
        event = json.loads(event_json(rules.resolve(state, move, rng)))   # what the journal stores
        events.append(event)
        state = rules.apply(state, event)
    return state, events


@pytest.mark.parametrize("seed,options", [
    (1, {"players": players("Ann", "Ben", "Cat"), "grid": "age"}),
    (2, {"players": players("Ann", "Ben"), "grid": "tactical", "nitrous": True}),
    (3, {"players": players("Ann", "Ben", "Cat", "Dan", "Eve"), "better_old_pros": True}),
    (4, {"players": players("Solo")}),
    (5, {"players": 7, "grid": "tactical", "nitrous": True}),
])
def test_scripted_race_to_the_finish(data, seed, options):
    state, events = play(data, seed, **options)
    n = len(state.players)
    kinds = Counter(e["kind"] for e in events)
    assert kinds["start"] == 1
    assert kinds["all_done"] == 8                   # phase 1 of eight track cards: one press for all
    assert kinds["drive"] == 8 * n                  # phase 2: each player
    assert state.card == 7 and rules.moves(state) == []

    rows = rules.standings(state)
    assert [r["position"] for r in rows] == list(range(1, 8))
    assert sorted(r["name"] for r in rows) == sorted(c.name for c in state.cars)
    old = [r for r in rows if r["old_pro"]]
    assert len(old) == 7 - n
    for r in rows:
        if not r["old_pro"]:
            assert r["points"] == POINTS[r["position"] - 1]
    teams = rules.summary(state)["teams"]
    if old:
        best = min(r["position"] for r in old)
        assert teams == [{"name": "Old Pros", "points": POINTS[best - 1], "best_position": best, "old_pro": True,
                          "members": [f"Old Pro {k}" for k in range(1, 8 - n)]}]
        assert [r["points"] for r in old] == [POINTS[best - 1]] + [0] * (len(old) - 1)
    else:
        assert teams == []

    # every duel has one winner and one loser; the decided duels are the events that decide
    decided = kinds["winner"] + kinds["speed"] + kinds["raise"] // 2
    assert sum(r["duels_won"] for r in rows) == sum(r["duels_lost"] for r in rows) == decided > 0
    assert kinds["old_pro"] == kinds["speed"] == (kinds["old_pro"] if 7 - n else 0)

    # replay from the journal alone gives the same race
    replayed = rules.setup(options, data)
    for event in events:
        replayed = rules.apply(replayed, event)
    assert replayed == state


def test_old_pro_deck_reshuffles_its_discards(data):
    state = rules.setup({"players": players("Solo")}, data)
    state = rules.apply(state, rules.resolve(state, rules.moves(state)[0], random.Random(7)))
    pile = state.pile
    state = replace(state, pile=Pile(pile.draw[:1], pile.draw[1:]))     # one card left, 89 discarded
    for _ in range(4):      # past the track and the grid (GO), through phases 1 and 2
        state = rules.apply(state, rules.resolve(state, rules.moves(state)[0], random.Random(7)))
    assert state.duel.defender == state.order[-2]
    event = rules.resolve(state, rules.moves(state)[0], random.Random(8))
    assert event["kind"] == "old_pro" and len(event["reshuffle"]) == 89
    after = rules.apply(state, json.loads(event_json(event)))
    assert after.duel.op_cards[0] == pile.draw[0]
    assert after.pile.left == 88 and after.pile.discard == ()
    after = rules.apply(after, rules.resolve(after, rules.moves(after)[0], random.Random(9)))   # a speed
    assert after.pile.left + len(after.pile.discard) == 90


def test_championship_adds_races_and_counts_old_pros_as_one_team(data):
    results = []
    for seed in (1, 2, 3):
        state, _ = play(data, seed, players=players("Ann", "Ben"))
        results.append({"game": "street-illegal", "standings": rules.standings(state), **rules.summary(state)})
    table = rules.championship(results)
    assert [r["name"] for r in table if r["old_pro"]] == ["Old Pros"]
    for row in table:
        if row["old_pro"]:
            assert row["points"] == sum(r["teams"][0]["points"] for r in results)
        else:
            assert row["points"] == sum(s["points"] for r in results for s in r["standings"] if s["name"] == row["name"])
    assert [r["points"] for r in table] == sorted((r["points"] for r in table), reverse=True)


def test_demo_script_plays_a_race_and_replays_the_same(data):
    options = dict(autoplay.DEMO_OPTIONS)
    assert options["players"] >= 2

    def run():
        state = rules.setup(options, data)
        rng = random.Random(autoplay.DEMO_SEED)
        moves = []
        while (move := autoplay.demo_script(state)) is not None:
            assert move in rules.moves(state)
            moves.append(move.label)
            state = rules.apply(state, rules.resolve(state, move, rng))
        return state, moves

    first, labels = run()
    second, again = run()
    assert rules.finished(first) and labels == again and first == second
    assert any(r["old_pro"] for r in rules.standings(first)) and rules.summary(first)["teams"]
