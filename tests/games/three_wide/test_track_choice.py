"""The track a 3-Wide race runs on: the race card's own by default, another track chosen
at setup, a race card or a track described on the box."""

import copy

import pytest

from companion.games.api import DESCRIBE
from companion.games.three_wide import rules, tables
from companion.kit.errors import DataError, RuleError


def test_the_race_cards_own_track_unless_another_is_chosen(data):
    own = tables.settings({"race": "classic-intermediate"}, data)
    assert (own.track_label, own.rows) == ("Classic Oval", 20)
    other = tables.settings({"race": "tri-superspeedway", "track": "classic-oval"}, data)
    assert (other.track_label, other.rows, other.race_label) == ("Classic Oval", 20, "Tri-Oval 500")


def test_a_track_that_cannot_hold_the_races_brake_zones_is_refused_with_why(data):
    data = copy.deepcopy(data)
    data["tracks"]["small"] = {"label": "Small", "rows": 10, "corners": [[2, 4]]}
    with pytest.raises(RuleError, match="brake zone on space 46 is not on Small"):
        rules.setup({"players": 3, "race": "classic-intermediate", "track": "small"}, data)
    with pytest.raises(RuleError, match="no track 'moon'"):
        rules.setup({"players": 3, "track": "moon"}, data)


def test_the_choices_read_the_data(data):
    assert tables.track_choices(data, {}) == (("", "As the race card"), ("classic-oval", "Classic Oval"),
                                              ("tri-oval", "Tri-Oval"), (DESCRIBE, "Describe a track"))
    assert tables.race_choices(data, {})[-1] == (DESCRIBE, "Describe a race")
    assert tables.poster_choices(data, {}) == (("classic-oval", "Classic Oval"), ("tri-oval", "Tri-Oval"))


def test_a_described_track_keeps_the_rows_of_the_spaces_given(data):
    entry = tables.described_track({"spaces": 66}, {"corners": [{"first": 16, "last": 30}, {"first": 34, "last": 40}]})
    assert entry == {"rows": 22, "corners": [[5, 9], [11, 13]]}
    with pytest.raises(DataError, match="corner 1: spaces 30 to 16"):
        tables.described_track({"spaces": 66}, {"corners": [{"first": 30, "last": 16}]})


def test_a_described_race_card_sets_up_a_race(data):
    entry = tables.described_race(
        {"track": "tri-oval", "deck": "superspeedway", "short": 20, "long": 40},
        {"zones": [{"space": 10, "limit": 6}], "pace": [{"fuel": 1, "tires": 0, "laps": 2}] * 6})
    data = copy.deepcopy(data)
    data["races"]["mine"] = {"label": "Mine", **entry}
    tables.check(data)
    s = tables.settings({"race": "mine", "length": "long"}, data)
    assert (s.laps, s.brakes, s.pace[0], s.track_label) == (40, ((10, 6),), (1, 0, 2), "Tri-Oval")
