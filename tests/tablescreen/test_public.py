"""The table screen's public view of a race: every activity gives one through a whole
race, and the tactics picked face down are named only when they are turned. That nothing
hidden reaches the page (other hands, decks in another order, another card face down) is
tests/tablescreen/test_secrets.py."""

import json

import pytest

from companion.games import registry
from companion.games.lacorsa import rules as LR
from companion.games.three_wide import rules as R3
from companion.table.public import public_view
from companion.table.source import Follower

from tests.table import make_app
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
            if act.chart is not None:      # the lap chart's part made alone: the whole view's values
                part, whole = act.chart(app.runner.state), act.public(app.runner.state)
                assert part == {k: whole[k] for k in part}, f"{slug} step {step}: the chart's part differs"
                assert {"lap", "order", "race_no"} & whole.keys() <= part.keys()
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


def test_a_championships_lap_chart_is_the_race_being_run(state_dir):
    """Lacorsa's laps start again at each race of a championship and its standings are the
    championship's: the lap chart is the race order of the race being run, lap by lap,
    never a point of an earlier race nor the championship's ranking."""
    act = registry.activity("lacorsa")
    app = make_app(state_dir)
    app.start_session("lacorsa", dict(act.demo.options, championship=True))
    seen = {}        # lap -> the race order at the end of it, in the race being run
    while not (app.runner.state.race == 2 and app.runner.state.lap >= 3):
        play(app, "lacorsa", 1)
        s = app.runner.state
        if s.race == 2:
            seen[s.lap] = [s.name(c) for c in LR.final_order(s)]
    follower = Follower(state_dir)
    try:
        chart = follower.payload["chart"]
    finally:
        follower.close()
    assert [lap for lap, _ in chart] == sorted(seen)
    assert all(order == seen[lap] for lap, order in chart)


def test_formula_de_last_actions_hold_no_acknowledgement_and_the_band_says_whose_move(state_dir):
    """After a turn's outcome the page says whose car to move and what to do; its Go on
    ("Outcome seen" in the box's history) is not one of the last actions."""
    from companion.games.formula_de import rules as FR
    app = race(state_dir, "formula-de", 0)
    act = registry.activity("formula-de")
    shown = None
    for _ in range(400):
        if app.runner.state.phase == FR.SHOW and not app.runner.state.qualifying:
            shown = public_view(act, app.runner.state)
        move = act.demo.script(app.runner.state)
        if move is None or app.runner.session.finished is not None:
            break
        app.perform(move)
    assert shown is not None
    assert shown["waiting"].endswith(": move the car as shown, then Go on") and shown["turn"]
    assert shown["waiting"].startswith(shown["turn"])
    assert any(e.label == "Outcome seen" for e in app.history())        # the box keeps it
    follower = Follower(state_dir)
    try:
        assert follower.history and "Outcome seen" not in follower.history
        assert "Outcome seen" not in follower.payload["history"]
    finally:
        follower.close()


def test_the_3_wide_lap_chart_has_a_point_after_every_turn(state_dir):
    """A 3-Wide turn's pace roll moves every car several laps at once (the leader from lap
    1 to 3), so the chart is the race order after each turn: a point at every turn, none
    skipped, each the order the turn ended with, on the axis the page names "turn"."""
    act = registry.activity("3-wide")
    app = race(state_dir, "3-wide", 0)
    for _ in range(3000):
        if len(app.runner.state.chart) >= 6:
            break
        play(app, "3-wide", 1)
    s = app.runner.state
    leads = [lead for lead, _ in s.chart]
    assert any(b - a > 1 for a, b in zip(leads, leads[1:])), "the leader skips laps in a turn"
    follower = Follower(state_dir)
    try:
        payload = follower.payload
        chart = payload["chart"]
    finally:
        follower.close()
    assert public_view(act, s)["axis"] == "turn"
    assert [turn for turn, _ in chart] == list(range(len(s.chart) + 1))
    for turn, (lead, order) in enumerate(s.chart, start=1):
        assert chart[turn][1] == [R3.car_name(s, c) for c in order]
