"""Where the companion keeps things: its state directory and the pinout file."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def state_dir(explicit: str | None = None) -> Path:
    """``--state``, else $COMPANION_STATE, else systemd's $STATE_DIRECTORY, else ~/.local/state."""
    for candidate in (explicit, os.environ.get("COMPANION_STATE"), os.environ.get("STATE_DIRECTORY")):
        if candidate:
            return Path(candidate.split(":")[0]).expanduser()
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "race-companion"


def pinout_path(explicit: str | None = None) -> Path:
    """``--pinout``, else $COMPANION_PINOUT, else /etc/race-companion/pinout.toml if the
    owner put one there, else the repository's hardware/pinout.toml."""
    for candidate in (explicit, os.environ.get("COMPANION_PINOUT")):
        if candidate:
            return Path(candidate).expanduser()
    etc = Path("/etc/race-companion/pinout.toml")
    return etc if etc.exists() else REPO / "hardware" / "pinout.toml"
