"""What the command tests share: the owner's files come from a fresh state directory."""

import pytest

from companion.games import data as game_data


@pytest.fixture(autouse=True)
def isolated_state(state_dir, monkeypatch):
    """The owner's files come from a fresh state directory, never the user's own."""
    monkeypatch.setenv("COMPANION_STATE", str(state_dir))
    game_data.clear_cache()
    yield state_dir
    game_data.clear_cache()
