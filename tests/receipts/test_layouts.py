import pytest

from companion.core import race, scoring
from companion.receipts import layouts
from companion.receipts.layouts import BEST, COLOUR, LAPS, LED, POINTS, Col
from companion.receipts.model import Receipt, overflows

FIELD = [race.Car("Red", "Red"), race.Car("Blue", "Blue"), race.Car("Yellow", "Yellow")]
TABLE = {"positions": [12, 11, 10], "bonus": {"win": 3, "laps_led": 1, "most_laps_led": 1}}


def small_race():
    """Two laps: Red leads lap 1, Blue passes and leads lap 2; Blue has the fastest lap."""
    s = race.start(FIELD, 2, at=0.0)
    for car, at in [("Red", 62.0), ("Blue", 64.5), ("Yellow", 70.0),
                    ("Blue", 120.0), ("Red", 125.0), ("Yellow", 150.0)]:
        s = race.cross(s, car, at=at)
    return s


def test_format_seconds():
    assert [layouts.format_seconds(s) for s in (None, 4.0, 42.34, 62.0, 599.96, 3725.0)] == \
        ["-", "4.0s", "42.3s", "1:02.0", "10:00.0", "1:02:05"]


def test_race_program_lines():
    grid = [{"name": c.name, "colour": c.colour} for c in FIELD]
    receipt = layouts.race_program("Race program", ["3-Wide", "2 laps, 3 cars"], grid, (COLOUR,))
    assert receipt.kind == "program"
    assert receipt.text_lines() == [
        "          Race program",
        "3-Wide",
        "2 laps, 3 cars",
        "-" * 32,
        " # Car",                          # a colour column repeating the names is left out
        " 1 Red",
        " 2 Blue",
        " 3 Yellow",
        "-" * 32,
        "",
        "",
    ]
    named = [{**g, "name": n} for g, n in zip(grid, ("Ann", "Bob", "Cy"))]
    receipt = layouts.race_program("Race program", [], named, (COLOUR,))
    assert receipt.text_lines()[2:4] == [" # Car                    Colour", " 1 Ann                       Red"]
    assert "Key: Colour = the car's colour" in receipt.text_lines()


def test_a_colour_cell_that_repeats_the_name_is_left_blank():
    """Cars called by their colour beside automated ones with their own names (Street
    Illegal's Old Pros): the column stays for the named cars, never says a name twice."""
    grid = [{"name": "Old Pro 1", "colour": "Grey"}, {"name": "Yellow", "colour": "Yellow"},
            {"name": "Ann", "colour": "Red"}]
    lines = layouts.race_program("Race program", [], grid, (COLOUR,)).text_lines()
    assert lines[2:6] == [" # Car                    Colour", " 1 Old Pro 1                Grey",
                          " 2 Yellow", " 3 Ann                       Red"]


def test_race_program_without_columns_keeps_names_at_the_left():
    receipt = layouts.race_program("Grid", [], [{"name": "Ann"}, {"name": "Bob"}])
    assert receipt.text_lines()[2:5] == [" # Car", " 1 Ann", " 2 Bob"]


def test_results_lines_with_bonuses_and_fastest_lap():
    rows = scoring.standings(race.entries(small_race()), TABLE)
    receipt = layouts.results("Results", rows, ["3-Wide"], (LAPS, LED, BEST, POINTS),
                              notes=["Points: 3-Wide race table, assumed for this test and a long note"])
    assert receipt.kind == "results"
    assert receipt.text_lines() == [
        "            Results",
        "3-Wide",
        "-" * 32,
        " # Car      Laps Led   Best  Pts",
        " 1 Blue        2   1  55.5s   17",
        " 2 Red         2   1 1:02.0   13",
        " 3 Yellow      2   0 1:10.0   10",
        "Key: Laps = laps done,",            # every column says what it holds,
        "Led = laps led, Best = best lap,",  # a header never apart from its meaning
        "Pts = points",
        "-" * 32,
        "+3 won the race: Blue",
        "+1 led a lap: Blue, Red",
        "+1 most laps led: Blue, Red",
        "Fastest lap: Blue 55.5s",
        "Points: 3-Wide race table,",
        "assumed for this test and a long",
        "note",
        "",
        "",
    ]
    assert all(len(line) <= 32 for line in receipt.text_lines())


def test_columns_that_leave_no_room_for_names_are_refused():
    wide = [Col(f"c{i}", "X", 6) for i in range(4)]
    with pytest.raises(ValueError, match="columns take 27 of 32 characters"):
        layouts.results("Results", [], columns=wide)


def test_long_names_and_values_are_cut_to_their_columns():
    rows = [{"position": 1, "name": "Alexandra Longname", "laps": 123456, "points": 7}]
    lines = layouts.results("R", rows, columns=(LAPS, POINTS)).text_lines()
    assert lines[3] == " 1 Alexandra Longname  1234    7"


def test_championship_lines():
    table = {"positions": [10, 6, 4]}
    races = [scoring.standings([{"name": "Red"}, {"name": "Blue"}, {"name": "Yellow"}], table),
             scoring.standings([{"name": "Blue"}, {"name": "Red"}], table)]
    receipt = layouts.championship("Championship", scoring.championship(races), ["Season 2025"])
    assert receipt.kind == "championship"
    assert receipt.text_lines() == [
        "          Championship",
        "After 2 races",
        "Season 2025",
        "-" * 32,
        " # Car                  1 2  Pts",
        " 1 Blue                 2 1   16",
        " 2 Red                  1 2   16",
        " 3 Yellow               3 -    4",
        "Key: 1-2 = place in each race,",
        "- = did not start, Pts = points",
        "-" * 32,
        "",
        "",
    ]


def test_a_season_of_eight_races_keeps_a_column_per_race():
    table = {"positions": [3, 1]}
    races = [scoring.standings([{"name": "A"}, {"name": "B"}][::1 if k % 3 else -1], table) for k in range(8)]
    lines = layouts.championship("Season", scoring.championship(races)).text_lines()
    assert lines[1] == "After 8 races"
    assert lines[3:8] == [" # Car      1 2 3 4 5 6 7 8  Pts",
                          " 1 A        2 1 1 2 1 1 2 1   18",
                          " 2 B        1 2 2 1 2 2 1 2   14",
                          "Key: 1-8 = place in each race,",
                          "Pts = points"]


def test_one_race_is_called_race_1():
    races = [scoring.standings([{"name": "A"}, {"name": "B"}], {"positions": [3, 1]})]
    lines = layouts.championship("Season", scoring.championship(races)).text_lines()
    assert lines[1] == "After 1 race"
    assert lines[3:8] == [" # Car                    1  Pts",
                          " 1 A                      1    3",
                          " 2 B                      2    1",
                          "Key: 1 = place in race 1,",
                          "Pts = points"]


def test_championship_after_more_races_than_the_paper_holds_shows_wins():
    table = {"positions": [3, 1]}
    races = [scoring.standings([{"name": "A"}, {"name": "B"}], table) for _ in range(9)]
    lines = layouts.championship("Season", scoring.championship(races)).text_lines()
    assert lines[1] == "After 9 races"
    assert lines[3:8] == [" # Car                  Won  Pts",
                          " 1 A                      9   27",
                          " 2 B                      0    9",
                          "Key: Won = races won,",
                          "Pts = points"]


def test_a_players_table_has_the_results_layout_and_a_key():
    cols = (Col("team", "Team", 5, legend="team cars' points"), POINTS)
    rows = [{"position": 1, "name": "Ann", "team": 12, "points": 12},
            {"position": 1, "name": "Bob", "team": 12, "points": 12}]
    lines = Receipt("results", "R", tuple(layouts.players_table(rows, cols))).text_lines()
    assert lines[1:] == ["Players",
                         " # Player              Team  Pts",
                         " 1 Ann                   12   12",
                         " 1 Bob                   12   12",
                         "Key: Team = team cars' points,",
                         "Pts = points"]


def test_a_team_cars_number_survives_a_cut_name():
    rows = [{"position": 1, "name": "Bartholomew 2", "laps": 3, "led": 1, "points": 10}]
    lines = layouts.results("R", rows, columns=(LAPS, Col("x", "Xtra", 11), POINTS)).text_lines()
    assert lines[3].split()[1:3] == ["Barth", "2"]


def test_lap_chart_lines():
    receipt = layouts.race_lap_chart(small_race())
    assert receipt.kind == "lap-chart"
    assert receipt.text_lines() == [
        "           Lap chart",
        "-" * 32,
        "Lap       1  2",
        "Blue      2  1",
        "Red       1  2",
        "Yellow    3  3",
        "-" * 32,
        "Fastest laps and gaps",
        " # Car         Best Lap      Gap",
        " 1 Blue       55.5s   2   leader",
        " 2 Red       1:02.0   1    +5.0s",
        " 3 Yellow    1:10.0   1   +30.0s",
        "Key: Best = best lap, Lap = the",
        "lap it was, Gap = behind the",
        "winner",
        "-" * 32,
        "",
        "",
    ]


def test_the_lap_chart_takes_cars_and_their_order_at_each_lap():
    """Any pack can call it: names, and for each lap the names in their order."""
    receipt = layouts.lap_chart("Chart", ["Ann", "Bob", "Cy"], [("Bob", "Ann"), ("Ann", "Bob", "Cy")])
    assert receipt.text_lines()[2:6] == ["Lap       1  2", "Ann       2  1", "Bob       1  2", "Cy        -  3"]
    assert layouts.lap_chart("Chart", ["Ann"], []).text_lines()[2] == "No lap completed yet."


@pytest.mark.parametrize("laps", [1, 8, 9, 99, 100, 150])
def test_a_lap_chart_of_twelve_cars_fits_the_paper_for_any_number_of_laps(laps):
    names = ["Red", "Blue", "Yellow", "Green", "Black", "White", "Orange", "Purple", "Pink",
             "Grey", "Brown", "Maximilian"]
    orders = [tuple(names[k % 12:] + names[:k % 12]) for k in range(laps)]
    receipt = layouts.lap_chart("Lap chart", names, orders)
    assert not overflows(receipt)
    lines = receipt.text_lines()
    headers = [line for line in lines if line.startswith("Lap ")]
    shown = [int(n) for line in headers for n in line.split()[1:]]
    assert shown == list(range(1, laps + 1))            # every lap once, in blocks
    assert all(len(line) <= 32 for line in lines)
    assert sum(line.startswith("Maximil ") for line in lines) == len(headers)   # 12 rows a block


def test_an_untimed_race_prints_its_gaps_without_empty_time_columns():
    s = race.start(FIELD, 2, at=None)
    for car in ("Red", "Blue", "Red", "Blue", "Yellow"):
        s = race.cross(s, car, at=None)
    lines = layouts.race_lap_chart(s).text_lines()
    assert "Fastest laps and gaps" not in lines and "Best" not in " ".join(lines)
    at = lines.index("Gaps")
    assert lines[at + 1].split() == ["#", "Car", "Gap"]
    assert lines[at + 2].split() == ["1", "Red", "leader"]
    assert lines[at + 3].split() == ["2", "Blue", "same", "lap"]   # untimed: on the leader's lap
    assert lines[at + 4].split() == ["3", "Yellow", "+1", "lap"]


def test_a_results_receipt_has_one_rule_between_its_table_and_what_follows():
    rows = [{"position": 1, "name": "Red", "laps": 2, "led": 2, "points": 10}]
    more = layouts.lap_chart_items(["Red"], [("Red",), ("Red",)])
    lines = layouts.results("R", rows, columns=(LAPS, LED, POINTS), more=more).text_lines()
    rules = [k for k, line in enumerate(lines) if line == "-" * 32]
    assert all(b - a > 1 for a, b in zip(rules, rules[1:])), lines
