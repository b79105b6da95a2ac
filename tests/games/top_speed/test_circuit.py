"""Cars on the circuit: blocking, no overtaking, closing up, lapped cars."""

from companion.games.top_speed import circuit

L = 20


def test_race_order_is_furthest_first():
    assert circuit.race_order([3, 7, -1, 25]) == (3, 1, 0, 2)


def test_landing_on_a_car_puts_you_behind_it_and_behind_the_one_behind_that():
    assert circuit.move([5, 4, 0], 2, 5, L) == 3
    assert circuit.move([5, 0], 1, 3, L) == 3


def test_no_overtaking_stops_behind_the_first_car_in_the_way():
    assert circuit.move([3, 0], 1, 8, L, no_overtaking=True) == 2
    assert circuit.move([1, 0], 1, 8, L, no_overtaking=True) == 0       # right behind: cannot move
    assert circuit.move([3, 0], 1, 8, L) == 8


def test_going_back_onto_a_car_goes_further_back():
    assert circuit.move([10, 2, 1], 0, -8, L) == 0


def test_spaces_are_board_spaces_so_a_lapped_car_blocks_too():
    assert circuit.move([25, 3], 1, 2, L) == 4                          # 25 is board space 5
    assert circuit.move([25, 3], 1, 2, L, no_overtaking=True) == 4


def test_close_up_forms_a_row_behind_the_leader():
    assert circuit.close_up([10, 2, 6], L) == (10, 8, 9)


def test_close_up_keeps_a_lapped_car_a_lap_down():
    after = circuit.close_up([30, 28, 5], L)
    assert after == (30, 29, 8)
    assert circuit.laps_down(after[2], after[0], L) == 1


def test_lines_crossed_counts_net_crossings():
    assert [circuit.lines_crossed(d, L) for d in (-3, 0, 19, 20, 41)] == [-1, 0, 0, 1, 2]
