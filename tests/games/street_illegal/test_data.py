"""The built-in data file and the owner's overrides."""

from collections import Counter

import pytest


from companion.games import data as game_data
from companion.core.config import ConfigError
from companion.games.street_illegal import rules
from companion.games.street_illegal.track import load_track


def test_data_file_loads_through_the_platform_loader():
    data = game_data.load("street-illegal")
    tempo = game_data.decks("street-illegal")["tempo"]
    assert len(tempo) == 90
    assert Counter(c.get("value") for c in tempo) == {v: 15 for v in (10, 20, 30, 40, 50, 60)}
    for card in tempo:           # the publisher's pairing: hills together, obstacles together
        icons = set(card.get("icons"))
        assert icons in (set(), {"uphill", "downhill"}, {"obstacle-left", "obstacle-middle", "obstacle-right"})
    assert "assumption" in data["decks"]["tempo"] and "assumption" in data["decks"]["track"]
    assert data["points"]["race"]["positions"] == [15, 11, 8, 6, 4, 2, 1]


def test_twenty_track_cards_four_limits_five_situations():
    track = load_track(game_data.load("street-illegal"))
    assert len(track) == 20
    assert Counter(c.limit for c in track) == {70: 5, 80: 5, 90: 5, None: 5}
    assert Counter((c.limit, c.situation.id) for c in track).most_common(1)[0][1] == 1
    assert all(len(line) <= 21 for c in track for line in c.situation.effect)


def test_owner_override_changes_a_card(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "street-illegal.toml").write_text(
        '[points.race]\nlabel = "House points"\npositions = [10, 6, 4, 3, 2, 1, 0]\n')
    data = game_data.load("street-illegal", override_dir=tmp_path)
    state = rules.setup({"players": 2}, data)
    assert state.points == (10, 6, 4, 3, 2, 1, 0)


@pytest.mark.parametrize("limit,message", [(75, "tens of mph"), ("fast", "tens of mph")])
def test_bad_track_limit_is_a_clear_error(data, limit, message):
    data["decks"]["track"]["cards"][0]["limit"] = limit
    with pytest.raises(ConfigError, match=message) as err:
        rules.setup({"players": 2}, data)
    assert "decks.track.cards[0].limit" in str(err.value) and "\n" not in str(err.value)


def test_unknown_situation_and_short_track(data):
    data["decks"]["track"]["cards"][3]["situation"] = "jump"
    with pytest.raises(ConfigError, match="unknown situation 'jump'"):
        rules.setup({"players": 2}, data)
    data["decks"]["track"]["cards"] = data["decks"]["track"]["cards"][4:7]
    with pytest.raises(ConfigError, match="a race needs 8"):
        rules.setup({"players": 2}, data)


def test_tempo_card_without_value(data):
    del data["decks"]["tempo"]["cards"][2]["value"]
    with pytest.raises(ConfigError, match=r"decks.tempo.cards\[2\].value"):
        rules.setup({"players": 2}, data)


def test_situation_short_label_fits_beside_the_limit(data):
    from companion.games.street_illegal.track import load_situations

    for situation in load_situations(data).values():
        assert len(situation.short) + 1 + len("NO LIMIT") <= 21, situation.short
    data["situations"]["uphill"]["short"] = 5
    with pytest.raises(ConfigError, match=r"situations\.uphill\.short"):
        rules.setup({"players": 2}, data)
