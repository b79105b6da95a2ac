"""Whole races: random legal play from every field size, the scripted demo race, screens
inside 128x64, receipts inside 32 columns, the owner's data checked."""

import json
import pickle
import random
from dataclasses import replace

import pytest

from companion.core.config import ConfigError
from companion.games import data as game_data
from companion.games import registry
from companion.games.three_wide import autoplay, rules, screens, tables
from companion.kit.errors import DataError, RuleError
from companion.kit.standings import is_standings
from companion.profile import LINE_CHARS, MENU_CHARS, LABEL_CHARS
from companion.receipts.model import Columns
from companion.ui.render import cut_texts, render
from companion.ui.view import Big, Menu, Row, Text


def check_view(view):
    assert len(view.title) + (len(view.status) + 1 if view.status else 0) <= MENU_CHARS, (view.title, view.status)
    for w in view.body:
        if isinstance(w, Text):
            assert len(w.text) <= (LINE_CHARS if w.size == 1 else LINE_CHARS // (2 * w.size - 1)), w.text
        elif isinstance(w, Row):
            assert len(w.left) + len(w.right) + 1 <= LINE_CHARS, w
        elif isinstance(w, Menu):
            assert all(len(x) <= MENU_CHARS for x in w.items), w.items
        elif isinstance(w, Big):
            assert len(w.caption) <= LINE_CHARS
    image = render(replace(view, footer="< x >"))
    assert image.size == (128, 64)
    assert cut_texts(view) == [], view


def check_receipts(state):
    for receipt in screens.receipts(state).values():
        for item in receipt.items:
            if isinstance(item, Columns):
                assert sum(item.widths) <= 32
        assert all(len(line) <= 32 for line in receipt.text_lines())


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (3, 6)])
def test_random_legal_play_ends_and_replays(data, players, seed):
    pick = random.Random(seed)
    rng = random.Random(seed + 100)
    state = rules.setup({"players": players, "race": pick.choice(["classic-intermediate", "tri-superspeedway",
                                                                   "classic-short"])}, data)
    first = state
    events, before = [], None
    for n in range(3000):
        check_view(screens.view(state))
        offered = rules.moves(state)
        if not offered:
            break
        assert all(0 < len(m.label) <= LABEL_CHARS for m in offered)
        event = rules.resolve(state, pick.choice(offered), rng)
        again = rules.apply(state, json.loads(json.dumps(event)))
        before, state = state, rules.apply(state, event)
        assert again == state
        events.append(event)
        if n % 50 == 0:
            check_receipts(state)
    assert rules.finished(state), "the race did not end"
    replayed = first
    for event in events:
        replayed = rules.apply(replayed, event)
    assert replayed == state
    assert pickle.loads(pickle.dumps(state)) == state
    undone = first
    for event in events[:-1]:
        undone = rules.apply(undone, event)
    assert undone == before
    assert is_standings(rules.standings(state))
    check_receipts(state)
    check_view(screens.decisions(state))
    json.dumps(rules.summary(state))


def test_the_demo_race_has_a_caution_pit_stops_and_a_restart(data):
    final, events = autoplay.play(rules.setup(autoplay.DEMO_OPTIONS, data), random.Random(autoplay.DEMO_SEED))
    assert len(final.cars) == 12 and len(final.players) == 3
    assert rules.finished(final)
    assert autoplay.showcase(final)
    results = screens.receipts(final)["results"]
    text = "\n".join(results.text_lines())
    assert "Restart 1" in text and "Lap chart" in text and "Players" in text


def test_the_activity_is_declared(data):
    activity = registry.activity("3-wide")
    assert activity.slug == "3-wide" and activity.decisions is screens.decisions
    activity.check_data(data)


def test_the_program_prints_the_starting_grid(data):
    state = rules.setup({"players": 3}, data)
    assert screens.receipts(state) == {}
    state = rules.apply(state, rules.resolve(state, rules.moves(state)[0], random.Random(2)))
    lines = screens.receipts(state)["program"].text_lines()
    first = state.cars[state.grid[0]]
    assert any(line.startswith(" 1 ") and f"#{first.number}" in line for line in lines)


@pytest.mark.parametrize("path, value, key", [
    (("races", "classic-intermediate", "pace"), [[1, 0, 2]], "races.classic-intermediate.pace"),
    (("races", "classic-intermediate", "track"), "moon", "tracks.moon"),
    (("races", "classic-intermediate", "brake_zones"), [{"space": 999, "limit": 7}],
     "races.classic-intermediate.brake_zones.0.space"),
    (("tactic_boxes", "triggers"), [["Oil"]], "tactic_boxes.triggers.0"),
    (("tactic_boxes", "resolutions"), [{"flag": "red", "cars": 1, "damage": 1}], "tactic_boxes.resolutions.0.flag"),
    (("pit", "stops"), "fast", "pit.stops"),
    (("car", "tank"), 0, "car.tank"),
    (("dice", "tire-red", "faces"), ["1!", "two"], "dice.tire-red.faces.1"),
    (("car", "numbers"), [[11, "twelve"]], "car.numbers.0.1"),
])
def test_an_owners_nonsense_is_a_data_error_naming_the_key(data, path, value, key):
    node = data
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    with pytest.raises(DataError) as caught:
        tables.check(data)
    assert ".".join(caught.value.keys) == key
    with pytest.raises(RuleError):
        rules.setup({"players": 3}, data)


def test_an_owners_file_is_blamed_by_the_loader(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "3-wide.toml").write_text("[car]\ntank = 99\n")
    game_data.clear_cache()
    with pytest.raises(ConfigError) as caught:
        game_data.load("3-wide", override_dir=tmp_path)
    assert "car.tank" in str(caught.value) and "3-wide.toml" in str(caught.value)
    game_data.clear_cache()


def test_effect_words_fit_after_a_car_number():
    assert all(len("#99 " + w.format(n=9)) <= LINE_CHARS for w in screens.EFFECT_WORDS.values())


def test_the_program_after_a_caution_leads_with_the_restart_grid(data):
    final, _ = autoplay.play(rules.setup(autoplay.DEMO_OPTIONS, data), random.Random(autoplay.DEMO_SEED))
    lines = screens.receipts(final)["program"].text_lines()
    n = len(final.restarts)
    at = next(i for i, line in enumerate(lines) if line.startswith(f"Restart {n} grid"))
    first = final.restarts[-1][0][0]
    assert f"#{final.cars[first].number}" in lines[at + 2]
    assert lines.index("Starting grid") > at


def test_a_season_by_player_and_by_car(data):
    races = []
    for seed in (1, 2):
        final, _ = autoplay.play(rules.setup(autoplay.DEMO_OPTIONS, data), random.Random(seed))
        races.append({"standings": rules.standings(final), **rules.summary(final)})
    entries = [rules.championship_entries(r) for r in races]
    assert all(sorted(e["name"] for e in race) == ["Blue", "Red", "Yellow"] for race in entries)
    assert entries[0][0]["points"] == max(p["points"] for p in races[0]["players"])
    from companion.core.scoring import championship
    season = championship(entries)
    total = {p["name"]: 0 for p in races[0]["players"]}
    for r in races:
        for p in r["players"]:
            total[p["name"]] += p["points"]
    assert {row["name"]: row["points"] for row in season} == total
    cars = rules.season_by_car(races)
    assert len(cars) == 12
    first = cars[0]["name"]
    assert cars[0]["points"] == sum(next(s["points"] for s in r["standings"] if s["name"] == first) for r in races)
