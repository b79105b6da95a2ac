"""The table screen's public view of a race: every activity gives one through a whole
race, and the tactics picked face down are named only when they are turned. That nothing
hidden reaches the page (other hands, decks in another order, another card face down) is
tests/tablescreen/test_secrets.py."""

import json

import pytest

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
