"""A fresh state directory for the owner's files, for the test packages that want one.

A test package takes it by importing ``isolated_state`` into its conftest.py: every test
there then reads and writes the owner's files in its own directory, never the user's.
"""

import pytest

from companion.games import data as game_data


@pytest.fixture(autouse=True)
def isolated_state(state_dir, monkeypatch):
    """The owner's files come from a fresh state directory, never the user's own."""
    monkeypatch.setenv("COMPANION_STATE", str(state_dir))
    game_data.clear_cache()
    yield state_dir
    game_data.clear_cache()
