"""A chart's axis is numbered evenly: both ends and round numbers between them."""

from companion.charts import _ticks


def test_an_axis_from_1_to_15_reads_by_fives():
    ticks = _ticks(1, 15, 300, 18)
    assert ticks[0] == 1 and ticks[-1] == 15
    assert all(t % 5 == 0 for t in ticks[1:-1]) and 4 not in ticks


def test_a_short_axis_numbers_every_lap():
    assert _ticks(1, 5, 300, 18) == [1, 2, 3, 4, 5]
