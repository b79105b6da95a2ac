"""Writing an entry of game data as TOML (what the box saves when an owner describes a
circuit), read back equal."""

import pytest

from companion.core.config import load_toml


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
