import json
import time

import pytest

from companion.kit.cars import COLOURS

from companion.games import data as game_data
from companion.core.race import RaceError
from companion.core.scoring import ScoringError
from companion.core.rng import make_rng
from companion.games import api
from companion.games.registry import activity, entry
from companion.tools.lap_counter import rules, screens
from companion.profile import MENU_CHARS
from companion.receipts.model import overflows
from companion.ui.view import Menu
from companion.ui.render import list_window

TABLE = {"label": "Race points", "positions": [12, 11, 10, 9],
         "bonus": {"win": 3, "laps_led": 1, "most_laps_led": 1}}


def options(n=3, **kw):
    return {"players": [{"name": c, "colour": c} for c in COLOURS[:n]], **kw}


def play(state, labels, rng=None):
    """Perform moves by label, through resolve and a JSON round trip like the journal."""
    rng = rng or make_rng(1)
    events = []
    for label in labels:
        move = next(m for m in rules.moves(state) if m.label == label)
        event = json.loads(api.event_json(rules.resolve(state, move, rng)))
        events.append(event)
        state = rules.apply(state, event)
    return state, events


def test_the_registry_finds_the_lap_counter():
    laps = activity("laps")
    assert entry("laps").playable and laps.setup is rules.setup and laps.view is screens.view


def test_setup_uses_the_option_defaults():
    state = rules.setup({}, {})
    assert [c.name for c in state.race.cars] == ["Red", "Blue", "Yellow", "Green"]
    assert state.race.length == 10 and not state.race.countdown
    assert state.game == "none" and state.timing and not state.started


def test_setup_refuses_an_unknown_game():
    with pytest.raises(RaceError, match="unknown game 'monopoly' for points"):
        rules.setup(options(game="monopoly"), {})


def test_move_labels_fit_the_footer_for_every_colour():
    state, _ = play(rules.setup(options(12), {}), ["Start race"])
    labels = [m.label for m in rules.moves(state)]
    assert len(labels) == 13 and labels[-1] == "End race early"
    assert max(len(label) for label in labels) <= 14
    long = [{"name": "Maximilian-Alexander", "colour": "Red"}, {"name": "Bo", "colour": "Blue"}]
    state, _ = play(rules.setup({"players": long}, {}), ["Start race"])
    assert [m.label for m in rules.moves(state)][:2] == ["Maximi crossed", "Bo crossed"]


def test_a_race_from_start_to_results():
    state = rules.setup(options(3, length=2, timing="off"), {})
    assert [m.label for m in rules.moves(state)] == ["Start race"]
    assert rules.moves(state)[0].primary
    state, events = play(state, ["Start race", "Red crossed", "Blue crossed", "Yellow crossed"])
    assert events[:2] == [{"kind": "start"}, {"kind": "cross", "car": "Red", "lap": 1}]
    # Red crossed longest ago: it is offered first
    assert [m.label for m in rules.moves(state)] == ["Red crossed", "Blue crossed", "Yellow crossed", "End race early"]
    assert not any(m.primary for m in rules.moves(state))   # GO does what the footer shows
    state, _ = play(state, ["Blue crossed", "Red crossed", "Yellow crossed"])
    assert [m.label for m in rules.moves(state)] == ["Show results"]
    assert rules.moves(state)[0].primary and not rules.finished(state)
    state, _ = play(state, ["Show results"])
    assert rules.finished(state) and rules.moves(state) == []
    rows = rules.ranked(state, TABLE)
    assert [(r["name"], r["laps"], r["laps_led"], r["points"]) for r in rows] == [
        ("Blue", 2, 1, 12 + 3 + 1 + 1), ("Red", 2, 1, 11 + 1 + 1), ("Yellow", 2, 0, 10)]
    assert rules.summary(state) == {"game": "none", "laps": 2, "countdown": False,
                                    "laps_led": {"Red": 1, "Blue": 1, "Yellow": 0}, "fastest_lap": None,
                                    "lap_chart": {"laps": [["Red", "Blue", "Yellow"], ["Blue", "Red", "Yellow"]]}}


def test_finish_race_ends_early_in_race_order():
    state, _ = play(rules.setup(options(3), {}), ["Start race", "Yellow crossed", "End race early"])
    assert [r["name"] for r in rules.standings(state)] == ["Yellow", "Red", "Blue"]
    assert all(r["points"] == 0 for r in rules.standings(state))


def test_resolve_records_the_wall_clock_for_lap_times():
    state = rules.setup(options(2, length=5), {})
    before = time.time()
    state, events = play(state, ["Start race", "Red crossed"])
    after = time.time()
    assert all(before - 0.01 <= e["at"] <= after + 0.01 for e in events)
    assert state.race.started_at == events[0]["at"]
    assert rules.summary(state)["fastest_lap"]["car"] == "Red"


def test_replaying_the_events_rebuilds_the_same_state():
    start = rules.setup(options(4, length=3), {})
    state, events = play(start, ["Start race", "Green crossed", "Red crossed", "Red crossed", "Blue crossed"])
    replayed = start
    for event in events:
        replayed = rules.apply(replayed, event)
    assert replayed == state


@pytest.mark.parametrize("events, message", [
    ([{"kind": "cross", "car": "Red"}], "a 'cross' event does not fit"),
    ([{"kind": "start"}, {"kind": "start"}], "a 'start' event does not fit"),
    ([{"kind": "start"}, {"kind": "cross", "car": "Pink"}], "no car 'Pink' in this race"),
    ([{"kind": "start"}, {"kind": "finish"}, {"kind": "cross", "car": "Red"}], "the race is finished"),
    ([{"kind": "jump"}], "a 'jump' event does not fit"),
])
def test_events_that_do_not_fit_are_refused_with_a_message(events, message):
    state = rules.setup(options(2), {})
    with pytest.raises(RaceError, match=message):
        for event in events:
            state = rules.apply(state, event)


def test_countdown_race_ends_when_the_counter_reaches_zero():
    state, _ = play(rules.setup(options(2, length=2, count="down"), {}),
                    ["Start race", "Red crossed", "Blue crossed"])
    assert screens.view(state).status == "1 to go"
    state, _ = play(state, ["Blue crossed"])
    assert [m.label for m in rules.moves(state)] == ["Show results"]
    assert screens.view(state).title == "All finished"


def test_countdown_rounds_lower_the_laps_remaining_as_in_top_speed():
    state, events = play(rules.setup(options(2, length=66, count="down", timing="off"), {}),
                         ["Start race", "New round: -1"])
    assert events[-1] == {"kind": "tick"}
    assert [m.label for m in rules.moves(state)] == ["Red crossed", "Blue crossed", "New round: -1", "End race early"]
    state, _ = play(state, ["Red crossed"])
    assert screens.view(state).status == "64 to go"      # one round, one lap by the leader
    state, _ = play(state, ["New round: -1"] * 64)
    assert screens.view(state).title == "All finished"
    assert [m.label for m in rules.moves(state)] == ["Show results"]
    assert [r["name"] for r in rules.standings(state)] == ["Red", "Blue"]
    lap_race, _ = play(rules.setup(options(2), {}), ["Start race"])
    assert "New round: -1" not in [m.label for m in rules.moves(lap_race)]


def test_standings_use_the_chosen_games_points_table():
    data = game_data.load("3-wide")
    state, _ = play(rules.setup(options(2, game="3-wide", length=1), data),
                    ["Start race", "Blue crossed", "Red crossed", "Show results"])
    assert state.table["positions"][:2] == [12, 11] and state.table["bonus"]["win"] == 3
    assert [(r["name"], r["points"]) for r in rules.standings(state)] == [("Blue", 12 + 3 + 1 + 1), ("Red", 11)]


def test_the_points_table_comes_from_the_session_data_with_overrides():
    data = game_data.load("3-wide")
    data["points"]["race"]["positions"] = [5, 4]
    data["points"]["race"]["bonus"] = {}
    state, _ = play(rules.setup(options(2, game="3-wide", length=1), data),
                    ["Start race", "Red crossed", "End race early"])
    assert [r["points"] for r in rules.standings(state)] == [5, 4]


def test_without_session_data_the_built_in_table_is_used():
    assert rules.points_table("3-wide", {}) == game_data.points_tables("3-wide")["race"]
    assert rules.points_table("none", game_data.load("3-wide")) is None


def test_a_bad_points_table_stops_the_setup_with_a_message():
    data = game_data.load("3-wide")
    data["points"]["race"]["bonus"] = {"pole": 2}
    with pytest.raises(ScoringError, match="3-wide points.bonus: unknown bonus 'pole'"):
        rules.setup(options(2, game="3-wide"), data)


def test_before_the_start_the_screen_sums_up_the_race():
    state = rules.setup(options(3, game="3-wide", length=5), game_data.load("3-wide"))
    v = screens.view(state)
    assert (v.title, v.status) == ("Lap counter", "5L")
    assert [w.text for w in v.body] == ["3 players, 5 laps", "3-Wide points", "Lap times on", "GO starts the race"]
    v = screens.view(rules.setup(options(8, length=66, count="down", timing="off"), {}))
    assert [w.text for w in v.body][:3] == ["8 players, countdown 66", "No points", "Lap times off"]


def test_view_shows_the_race_order_with_the_last_crossing_highlighted():
    state = rules.setup(options(3, length=5, timing="off"), {})
    state, _ = play(state, ["Start race"])
    v = screens.view(state)
    assert (v.title, v.body[0].items[0]) == ("Race started", "1 Red             L0")   # the grid, pole first
    state, _ = play(state, ["Blue crossed", "Red crossed"])
    v = screens.view(state)
    assert (v.title, v.status) == ("Blue leads", "4 to go")
    assert v.body == (Menu(("1 Blue            L1", "2 Red             L1", "3 Yellow          L0"), -1),)


def test_view_shows_the_lap_time_of_the_crossing_and_keeps_every_car_of_twelve():
    state = rules.setup(options(12, length=3), {})
    state = rules.apply(state, {"kind": "start", "at": 100.0})
    for k, car in enumerate(COLOURS):
        state = rules.apply(state, {"kind": "cross", "car": car, "at": 130.0 + k})
    (order,) = screens.view(state).body
    assert len(order.items) == 12 and order.selected < 0           # nothing looks chosen
    first, shown, _ = list_window(screens.view(state))            # the last crossing in view
    assert first <= 11 < first + shown
    assert order.items[11] == "12 Silver   L1 41.0s"
    assert all(len(line) == MENU_CHARS for line in order.items)


def test_view_marks_the_chequered_flag():
    state, _ = play(rules.setup(options(2, length=1, timing="off"), {}), ["Start race", "Red crossed"])
    v = screens.view(state)
    assert (v.title, v.status) == ("Chequered flag", "FLAG")
    assert v.body == (Menu(("1 Red           L1 F", "2 Blue            L0"), -1),)


def test_results_view_after_finish():
    state, _ = play(rules.setup(options(2, game="3-wide", length=1), game_data.load("3-wide")),
                    ["Start race", "Red crossed", "Blue crossed", "Show results"])
    v = screens.view(state)
    assert v.title == "Results" and v.body == (Menu(("1 Red         17 pts", "2 Blue        11 pts"), -1),)


def test_the_history_says_which_lap_each_crossing_completed(tmp_path):
    from companion.core.journal import Journal
    from companion.session import SessionRunner

    with Journal(tmp_path) as journal:
        runner = SessionRunner.start(journal, "laps", options(2, length=3, timing="off"), {})
        for label in ["Start race", "Red crossed", "Red crossed", "Blue crossed"]:
            runner.perform(next(m for m in runner.moves() if m.label == label), make_rng(1))
        assert [e.label for e in runner.history()] == [
            "Start race", "Red crossed: lap 1", "Red crossed: lap 2", "Blue crossed: lap 1"]


def test_receipts_program_results_and_lap_chart():
    state = rules.setup(options(2, game="3-wide", length=1, timing="off"), game_data.load("3-wide"))
    assert list(screens.receipts(state)) == ["program"]
    state, _ = play(state, ["Start race", "Red crossed", "Blue crossed", "Show results"])
    printed = screens.receipts(state)
    assert list(printed) == ["program", "results", "lap-chart"]
    assert printed["program"].text_lines() == [
        "          Race program", "Lap counter, 3-Wide points", "1 lap, 2 cars", "-" * 32,
        " # Car", " 1 Red", " 2 Blue", "-" * 32, "", ""]
    assert printed["results"].text_lines()[3:] == [
        "-" * 32,
        " # Car             Laps Led  Pts",
        " 1 Red                1   1   17",
        " 2 Blue               1   0   11",
        "Key: Laps = laps done,",
        "Led = laps led, Pts = points",
        "-" * 32,
        "+3 won the race: Red",
        "+1 led a lap: Red",
        "+1 most laps led: Red",
        "-" * 32,
        "           Lap chart",
        "Lap       1",
        "Red       1",
        "Blue      2",
        "-" * 32,
        "", "",
    ]
    assert printed["lap-chart"].text_lines()[3:7] == ["-" * 32, "Lap       1", "Red       1", "Blue      2"]
    assert not overflows(printed["results"])


def test_results_show_best_laps_when_timed_and_names_when_they_differ_from_colours():
    players = [{"name": "Ann", "colour": "Red"}, {"name": "Bob", "colour": "Blue"}]
    state = rules.setup({"players": players, "length": 1}, {})
    state = rules.apply(state, {"kind": "start", "at": 100.0})
    state = rules.apply(state, {"kind": "cross", "car": "Bob", "at": 161.5})
    state = rules.apply(state, {"kind": "finish"})
    printed = screens.receipts(state)
    assert printed["program"].text_lines()[3:6] == [
        " # Car                    Colour", " 1 Ann                       Red", " 2 Bob                      Blue"]
    assert printed["results"].text_lines()[3:6] == [
        " # Car           Laps Led   Best",
        " 1 Bob              1   1 1:01.5",
        " 2 Ann              0   0      -",
    ]


def test_receipts_say_a_lap_counter_race_scored_with_a_games_points(state_dir):
    """"Results / Formula Dé" read like a Formula Dé race: the receipts name the lap counter."""
    from companion.receipts.model import Line
    from tests.test_seasons import race
    from tests.table import make_app
    app = make_app(state_dir)
    race(app, ["Anne", "Bob"])
    for kind, receipt in app.runner.receipts().items():
        texts = [i.text for i in receipt.items if isinstance(i, Line)]
        assert "Lap counter, Formula Dé points" in texts, (kind, texts)
        assert "Formula Dé" not in texts
