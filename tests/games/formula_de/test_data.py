"""The built-in data, loaded the way the app loads it, and an owner's overrides: good
ones change the race, bad ones are messages naming the file and the key."""

import pytest

from companion.core.config import ConfigError
from companion.games import data as game_data
from companion.games.formula_de import rules as R
from companion.games.formula_de import tables as T


def override(tmp_path, text: str):
    (tmp_path / "games").mkdir(exist_ok=True)
    path = tmp_path / "games" / "formula-de.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_built_in_data_loads_and_marks_its_assumptions():
    data = game_data.load("formula-de")
    assert "assumption" in data["circuits"]["default"] and "assumption" in data["cars"]["standard"]
    state = R.setup({"players": 3}, data)
    assert sum(state.cars[0].wp) == T.CONSTRUCTED_TOTAL
    assert [c.stops for c in state.settings.circuit.corners].count(3) >= 1
    # the toolkit's dice roller keeps the gear dice and the black die
    assert set(game_data.dice("formula-de")) >= {f"gear-{g}" for g in T.GEARS} | {"black"}


def test_owner_circuit_and_standard_car(tmp_path):
    override(tmp_path, '[circuits.default]\nlength = 60\ncorners = [{ at = 20, length = 4, stops = 2 }]\npit = 40\n'
                       '[cars.standard]\nwear = { tires = 8, brakes = 3, gearbox = 2, body = 3, engine = 2, handling = 2 }\n')
    state = R.setup({"players": 2}, game_data.load("formula-de", tmp_path))
    assert state.settings.circuit.length == 60 and len(state.settings.circuit.corners) == 1
    assert state.cars[0].wp == (8, 3, 2, 3, 2, 2)


@pytest.mark.parametrize("text, key", [
    ('[circuits.default]\ncorners = "many"\n', "circuits.default.corners"),
    ('[circuits.default]\ncorners = [{ at = 20, length = 4, stops = 5 }]\n', "circuits.default.corners: corner 1: stops"),
    ('[circuits.default]\ncorners = [{ at = 30, length = 3, stops = 1 }, { at = 20, length = 3, stops = 1 }]\n',
     "circuits.default.corners: corner 2 starts at 20"),
    ('[circuits.default]\npit = 5\n', "circuits.default.pit"),
    ('[circuits.default]\nweather = { rain = [1, 8], changeable = [9, 12], good = [15, 20] }\n', "circuits.default.weather"),
    ('[circuits.default]\nlength = "long"\n', "circuits.default.length"),
    ('[cars.standard]\nwear = { tires = 0, brakes = 3, gearbox = 3, body = 3, engine = 3, handling = 2 }\n',
     "cars.standard.wear.tires"),
    ('[dice.gear-3]\nfaces = [1, 2]\n', "dice.gear-3.faces"),
])
def test_broken_override_is_a_message_naming_the_owners_file_and_key(tmp_path, text, key):
    path = override(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        game_data.load("formula-de", tmp_path)
    message = str(err.value)
    assert key in message and str(path) in message


def test_constructed_cars_within_the_rulebooks_limits():
    data = game_data.load("formula-de")
    good = {"tires": 14, "brakes": 1, "gearbox": 1, "body": 1, "engine": 1, "handling": 2}
    state = R.setup({"players": [{"name": "A", "build": "constructed", "wear": good}, {"name": "B"}]}, data)
    assert state.cars[0].wp == (14, 1, 1, 1, 1, 2)
    from companion.kit.errors import RuleError
    with pytest.raises(RuleError):
        R.setup({"players": [{"name": "A", "build": "constructed", "wear": {**good, "brakes": 8, "tires": 7}},
                             {"name": "B"}]}, data)
    with pytest.raises(RuleError):
        R.setup({"players": [{"name": "A", "build": "constructed", "wear": {**good, "tires": 13}}, {"name": "B"}]}, data)
    option = next(o for o in R.CAR_OPTIONS if o.key == "wear")
    assert option.problem([good]) == "" and option.problem([{**good, "tires": 13}])
