"""Race position order, landing, green-flag pit moves and the wreck rule (2.3, 2.4, 3.2)."""

from companion.games.three_wide import track

ROWS = 20


def test_race_order_highest_lap_then_lowest_space():
    cars = [(3, 30), (4, 50), (4, 12), (3, 2)]
    assert track.order(cars) == (2, 1, 3, 0)


def test_landing_keeps_the_lane_or_takes_the_nearest_free_one():
    # space 31 is row 10, inside lane; 5 on is row 5: spaces 16-18
    assert track.landing(31, 5, ROWS, set()) == (16, 0, 0)
    assert track.landing(31, 5, ROWS, {16}) == (17, 0, 0)
    assert track.landing(32, 5, ROWS, {17}) == (16, 0, 0)


def test_a_full_row_holds_the_car_up_a_row_short():
    assert track.landing(31, 5, ROWS, {16, 17, 18}) == (19, 0, 1)


def test_crossing_the_line_gains_a_lap():
    # space 4 is row 1; 3 rows on wraps to row 18 (spaces 55-57)
    assert track.landing(4, 3, ROWS, set()) == (55, 1, 0)


def test_green_pit_stop_moves_back_ignoring_cars_and_takes_the_next_free_space():
    assert track.back(31, 4, ROWS, set()) == (43, 0)
    assert track.back(31, 4, ROWS, {43}) == (44, 0)
    # from row 18 back 4 rows crosses the line backwards: a lap lost
    assert track.back(55, 4, ROWS, set()) == (7, 1)


STRAIGHT = frozenset()
CORNER = frozenset(range(ROWS))


def test_three_wide_on_a_straight_needs_all_three_lanes_of_the_row():
    assert track.three_wide(27, {26, 27, 28, 29}, ROWS, STRAIGHT) is None
    assert track.three_wide(30, {28, 29, 30}, ROWS, STRAIGHT) == "3-Str"


def test_three_wide_in_a_corner_is_three_lanes_blocked_by_adjacent_cars():
    # 45 is row 14 outside, 46 and 47 row 15 inside and middle, 49 row 16 inside
    assert track.three_wide(47, {45, 46, 47}, ROWS, CORNER) == "3-Crn"
    assert track.three_wide(49, {45, 46, 47, 49}, ROWS, CORNER) == "3-Crn"
    # the middle car must touch both others: 43 (row 14 inside) and 51 (row 16 outside)
    assert track.three_wide(47, {43, 47, 51}, ROWS, CORNER) == "3-Crn"
    assert track.three_wide(44, {37, 44, 48}, ROWS, CORNER) is None      # 37 is two rows from 44
    # every car of the group in a corner space
    assert track.three_wide(47, {45, 46, 47}, ROWS, frozenset({15})) is None


def test_wreck_adds_the_closest_car_to_the_last_wrecked():
    # car 0 at 31 (row 10, lane 0); car 1 at 35 (row 11, lane 1) is adjacent diagonally;
    # car 2 at 38 (row 12, lane 1) is adjacent to car 1 only
    cars = {0: 31, 1: 35, 2: 38, 3: 60}
    assert track.wreck(0, cars, 3, ROWS) == (0, 1, 2)


def test_wreck_tie_goes_to_the_closest_space_number_then_the_largest():
    # car 0 in the middle lane of row 10 (32): 31 and 33 both adjacent at distance 1 and
    # both one space number away: the larger space number (33) first
    cars = {0: 32, 1: 31, 2: 33}
    assert track.wreck(0, cars, 2, ROWS) == (0, 2)
    # 29 (row 9, lane 1) and 35 (row 11, lane 1): distance 1 both; 29 is 3 away, 35 is 3 away -> largest
    cars = {0: 32, 1: 29, 2: 35}
    assert track.wreck(0, cars, 2, ROWS) == (0, 2)
    # 31 (1 space number away) beats 35 (3 away)
    cars = {0: 32, 1: 31, 2: 35}
    assert track.wreck(0, cars, 2, ROWS) == (0, 1)


def test_a_wreck_stops_when_no_car_is_adjacent():
    cars = {0: 31, 1: 40}
    assert track.wreck(0, cars, 3, ROWS) == (0,)


def test_bump_and_run_goes_one_row_ahead_one_lane_out():
    assert track.bumped(31, set(), ROWS) == (29, 0)      # row 10 inside -> row 9 middle
    assert track.bumped(1, set(), ROWS) == (59, 1)       # over the line: row 19, a lap on
    assert track.bumped(33, set(), ROWS) is None         # the outside lane already
    assert track.bumped(31, {29}, ROWS) is None          # the space is taken
