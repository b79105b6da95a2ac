import pytest

from tests.games.street_illegal.helpers import load_data


@pytest.fixture
def data():
    return load_data()
