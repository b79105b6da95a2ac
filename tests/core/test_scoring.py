import pytest

from companion.core import scoring
from companion.core.scoring import ScoringError

THREE_WIDE = {"label": "Race points", "positions": [12, 11, 10, 9],
              "bonus": {"win": 3, "laps_led": 1, "most_laps_led": 1}}


def test_position_points_past_the_table_score_nothing():
    table = {"positions": [10, 8, 6]}
    assert [scoring.position_points(table, p) for p in (1, 2, 3, 4, 12)] == [10, 8, 6, 0, 0]


def test_standings_add_the_bonuses_of_the_table():
    entries = [{"name": "Red", "laps_led": 3, "laps": 10},
               {"name": "Blue", "laps_led": 7, "laps": 10},
               {"name": "Green", "laps_led": 0, "laps": 9}]
    rows = scoring.standings(entries, THREE_WIDE)
    assert [(r["position"], r["name"], r["position_points"], r["bonus"], r["points"]) for r in rows] == [
        (1, "Red", 12, {"win": 3, "laps_led": 1}, 16),
        (2, "Blue", 11, {"laps_led": 1, "most_laps_led": 1}, 13),
        (3, "Green", 10, {}, 10),
    ]
    assert rows[2]["laps"] == 9                     # other keys pass through


def test_most_laps_led_goes_to_every_car_on_a_tie_and_to_nobody_without_laps_led():
    tied = scoring.standings([{"name": "A", "laps_led": 2}, {"name": "B", "laps_led": 2},
                              {"name": "C", "laps_led": 1}], THREE_WIDE)
    assert [r["bonus"].get("most_laps_led", 0) for r in tied] == [1, 1, 0]
    none_led = scoring.standings([{"name": "A"}, {"name": "B"}], THREE_WIDE)
    assert [r["points"] for r in none_led] == [15, 11]


def test_fastest_lap_bonus():
    table = {"positions": [25, 18], "bonus": {"fastest_lap": 1}}
    rows = scoring.standings([{"name": "A"}, {"name": "B", "fastest_lap": True}], table)
    assert [r["points"] for r in rows] == [25, 19]


def test_without_a_table_everybody_scores_zero():
    rows = scoring.standings([{"name": "A", "laps_led": 4}, {"name": "B"}])
    assert [(r["position"], r["points"], r["bonus"]) for r in rows] == [(1, 0, {}), (2, 0, {})]


@pytest.mark.parametrize("table, message", [
    ({"positions": "10, 8"}, "points.positions must be a list of whole points"),
    ({"positions": [10, True]}, "points.positions must be a list of whole points"),
    ({"positions": [10], "bonus": {"pole": 1}}, "unknown bonus 'pole'; known: win, laps_led"),
    ({"positions": [10], "bonus": {"win": 1.5}}, "points.bonus.win must be whole points, not 1.5"),
    ({"positions": [10], "bonus": [1]}, "points.bonus must be a table"),
])
def test_bad_tables_get_one_line_messages(table, message):
    with pytest.raises(ScoringError, match=message):
        scoring.check_table(table)


def test_an_entry_without_a_name_is_refused():
    with pytest.raises(ScoringError, match="race entry 2 has no name"):
        scoring.standings([{"name": "A"}, {"laps": 3}])


def test_championship_sums_points_and_records_each_result():
    table = {"positions": [10, 6, 4, 3]}
    race1 = scoring.standings([{"name": "Red", "colour": "Red"}, {"name": "Blue"}, {"name": "Green"}], table)
    race2 = scoring.standings([{"name": "Blue"}, {"name": "Red"}, {"name": "Pink"}], table)
    rows = scoring.championship([race1, race2])
    assert [(r["position"], r["name"], r["points"], r["results"], r["races"], r["wins"], r["best"])
            for r in rows] == [
        (1, "Blue", 16, (2, 1), 2, 1, 1),    # level with Red: Blue won the latest race
        (2, "Red", 16, (1, 2), 2, 1, 1),
        (3, "Pink", 4, (None, 3), 1, 0, 3),  # level with Green: Pink started the latest race
        (4, "Green", 4, (3, None), 1, 0, 3),
    ]
    assert rows[1]["colour"] == "Red" and "colour" not in rows[0]


def test_championship_ties_go_to_more_wins_then_the_latest_race():
    table = {"positions": [5, 3, 1]}
    races = [
        scoring.standings([{"name": "A"}, {"name": "B"}, {"name": "C"}], table),
        scoring.standings([{"name": "C"}, {"name": "B"}, {"name": "A"}], table),
        scoring.standings([{"name": "B"}, {"name": "A"}, {"name": "C"}], table),
    ]
    # A 5+1+3 = 9 (one win), B 3+3+5 = 11, C 1+5+1 = 7
    assert [r["name"] for r in scoring.championship(races)] == ["B", "A", "C"]
    countback = [
        scoring.standings([{"name": "A"}, {"name": "B"}, {"name": "C"}], {"positions": [4, 2, 0]}),
        scoring.standings([{"name": "C"}, {"name": "B"}, {"name": "A"}], {"positions": [0, 2, 0]}),
    ]
    # A 4 (a win), B 2+2 = 4 (no win): A ahead on best finishes
    assert [(r["name"], r["points"]) for r in scoring.championship(countback)][:2] == [("A", 4), ("B", 4)]
    latest = [
        scoring.standings([{"name": "A"}, {"name": "B"}], table),
        scoring.standings([{"name": "B"}, {"name": "A"}], table),
    ]
    # A and B: 8 points, one win, one second each: B won the latest race
    assert [r["name"] for r in scoring.championship(latest)] == ["B", "A"]


def test_championship_of_no_races_is_empty():
    assert scoring.championship([]) == []
