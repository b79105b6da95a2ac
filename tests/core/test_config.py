"""``load_toml`` with a cache (what the appliance's start reads its pinout with), and ``dump_toml``
(what the box saves when an owner describes a circuit), read back equal."""

import tomllib

import pytest

from companion.core.config import ConfigError, load_toml


def test_the_cache_is_made_then_read_instead_of_the_file(tmp_path, monkeypatch):
    path, cache = tmp_path / "pinout.toml", tmp_path / "state" / "cache.json"
    path.write_text('[buttons]\nUP = 5\n[display]\ncontrast = 200\nname = "é"\n')
    first = load_toml(path, cache=cache)
    assert first == {"buttons": {"UP": 5}, "display": {"contrast": 200, "name": "é"}} and cache.is_file()

    def no_parsing(text):
        raise AssertionError("parsed again")
    monkeypatch.setattr(tomllib, "loads", no_parsing)
    assert load_toml(path, cache=cache) == first


def test_an_edited_file_is_read_again(tmp_path):
    path, cache = tmp_path / "pinout.toml", tmp_path / "cache.json"
    path.write_text("[buttons]\nUP = 5\n")
    assert load_toml(path, cache=cache) == {"buttons": {"UP": 5}}
    path.write_text("[buttons]\nUP = 16\nDOWN = 6\n")
    assert load_toml(path, cache=cache) == {"buttons": {"UP": 16, "DOWN": 6}}
    assert load_toml(path, cache=cache) == {"buttons": {"UP": 16, "DOWN": 6}}


@pytest.mark.parametrize("damage", [b"", b"{not json", b'{"stamp": 1}', b'{"stamp": [], "data": []}', b"\xff\xfe"])
def test_a_damaged_cache_is_made_again_from_the_file(tmp_path, damage):
    path, cache = tmp_path / "pinout.toml", tmp_path / "cache.json"
    path.write_text("[display]\nrotate = 2\n")
    cache.write_bytes(damage)
    assert load_toml(path, cache=cache) == {"display": {"rotate": 2}}
    assert load_toml(path, cache=cache) == {"display": {"rotate": 2}}


def test_a_mistake_is_still_said_and_nothing_is_kept(tmp_path):
    path, cache = tmp_path / "pinout.toml", tmp_path / "cache.json"
    path.write_text("[buttons\nUP = 5\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_toml(path, cache=cache)
    assert not cache.exists()
    with pytest.raises(ConfigError, match="file not found"):
        load_toml(tmp_path / "missing.toml", cache=cache)


def test_dates_are_not_kept_as_json_and_an_unwritable_cache_is_no_error(tmp_path):
    path = tmp_path / "data.toml"
    path.write_text("[game]\nwhen = 1979-05-27\n")
    cache = tmp_path / "cache.json"
    assert str(load_toml(path, cache=cache)["game"]["when"]) == "1979-05-27"
    assert not cache.exists()
    blocked = tmp_path / "file"
    blocked.write_text("")
    path.write_text("[game]\nname = 'x'\n")
    assert load_toml(path, cache=blocked / "cache.json") == {"game": {"name": "x"}}


def test_dump_toml_writes_what_load_toml_reads_back(tmp_path):
    from companion.core.config import dump_toml
    entry = {"label": "Café \"corner\"", "length": 84, "corners": [{"at": 10, "length": 3, "stops": 1}],
             "weather": {"rain": [1, 8]}, "my key": True}
    path = tmp_path / "entry.toml"
    path.write_text(dump_toml(entry, "a header\nof two lines"))
    assert load_toml(path) == entry
    assert path.read_text().startswith("# a header\n# of two lines\n")
    with pytest.raises(ValueError):
        dump_toml({"length": 8.5})
