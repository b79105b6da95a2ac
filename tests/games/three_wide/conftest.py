import pytest

from tests.games.three_wide.helpers import load_data


@pytest.fixture
def data():
    return load_data()
