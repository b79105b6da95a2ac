"""What the printer tests share: the shipped [printer] table made quick for tests."""

from pathlib import Path

import pytest

from companion.core.config import load_toml

PINOUT = Path(__file__).resolve().parents[2] / "hardware" / "pinout.toml"


@pytest.fixture
def config():
    """The shipped [printer] table, with a faster paper speed and quick retries for tests."""
    table = load_toml(PINOUT)["printer"]
    return {**table, "baudrate": 9600, "line_ms": 3, "buffer_bytes": 256, "status_timeout_ms": 200, "retry_s": 0.05}
