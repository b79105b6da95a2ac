"""Names and counts as people read them: ``counted`` and the short codes a lap chart
labels its cars with."""

import pytest
from hypothesis import given, settings, strategies as st

from companion import charts
from companion.core.names import codes, counted


def test_counted_says_the_noun_once():
    assert [counted(n, "event") for n in (0, 1, 2)] == ["0 events", "1 event", "2 events"]


def test_codes_read_as_the_names():
    names = ["Red", "Blue", "Black", "Green", "Grey", "Brown", "B", "7 up"]
    assert codes(names, 2) == ["RE", "BL", "BA", "GR", "GE", "BR", "B", "7U"]


@pytest.mark.parametrize("width,expected", [(2, ["A1", "A2"]), (3, ["AN1", "AN2"])])
def test_names_that_differ_by_a_number_keep_the_number(width, expected):
    assert codes(["Ann 1", "Ann 2"], width) == expected
    assert codes(["Ann 2", "Ann 1"], width) == expected[::-1]


def test_a_number_is_kept_beside_other_cars():
    assert codes(["Ann 1", "Bob 1", "Ann 2", "Bob 2"], 2) == ["A1", "B1", "A2", "B2"]
    assert codes(["Ann 10", "Ann 11"], 2) == ["10", "11"]            # the number alone when it fills the code
    assert codes(["Bartholomew 2", "Bartholomew 12"], 3) == ["BA2", "B12"]


def test_a_chart_labels_black_and_blue_by_their_first_letters():
    """Top Speed's Black and Blue read "BLA" and "BLU" on the chart, not "BL" and "BU"."""
    names = ["White", "Black", "Blue", "Red", "Green", "Grey", "Yellow"]
    assert codes(names, 3) == ["WHI", "BLA", "BLU", "Red", "GRE", "GRY", "YEL"]
    cars = ["White", "Black", "Blue"]
    results = {"standings": [{"name": n} for n in cars], "lap_chart": {"laps": [cars, cars[::-1]]}}
    assert charts.lap_chart_spec(results)["labels"] == ["WHI", "BLA", "BLU"]


def test_given_codes_are_kept_and_not_reused():
    assert codes(["Blue", "Red", "Black"], 3, ["7"]) == ["7", "Red", "BLA"]
    assert codes(["Seven", "S7"], 2, [None, "SE"]) == ["SV", "SE"]


def test_the_lap_chart_labels_team_cars_by_their_number():
    results = {"standings": [{"name": "Ann 1"}, {"name": "Ann 2"}],
               "lap_chart": {"laps": [["Ann 1", "Ann 2"]]}}
    assert charts.lap_chart_spec(results)["labels"] == ["AN1", "AN2"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=14), max_size=40, unique=True), st.integers(2, 3))
def test_codes_are_distinct_and_short_for_any_names(names, width):
    got = codes(names, width)
    assert len(got) == len(names)
    assert len({c.upper() for c in got}) == len(got)          # told apart whatever the case
    assert all(1 <= len(c) <= width and c == c.strip() for c in got)


def test_too_many_names_for_the_codes_say_so():
    names = [f"N{k:04d}" for k in range(36 * 36 + 36 + 1)]
    with pytest.raises(ValueError, match="more than"):
        codes(names, 2)
