"""Which activities exist: the five games and the toolkit tools.

Adding a game: create ``companion/games/<package>/`` (``data.toml``, and ``rules.py`` +
``screens.py`` if the companion plays it) and add one line to ``GAMES``.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from types import ModuleType

# slug -> package. Order is the order of the menu.
GAMES: dict[str, str] = {
    "street-illegal": "companion.games.street_illegal",
    "3-wide": "companion.games.three_wide",
    "formula-de": "companion.games.formula_de",
    "lacorsa": "companion.games.lacorsa",
    "top-speed": "companion.games.top_speed",
}

# Toolkit tools: activities that work with any game's dice, decks and points.
TOOLS: dict[str, str] = {
    "dice": "companion.tools.dice_roller",
    "deck": "companion.tools.deck_shuffler",
    "laps": "companion.tools.lap_counter",
}

TOOL_TITLES = {"dice": "Dice roller", "deck": "Deck shuffler", "laps": "Lap counter"}


class UnknownName(LookupError):
    """An unknown game, tool, die or deck; ``str()`` names what is available."""


@dataclass(frozen=True)
class Activity:
    slug: str
    package: str

    @property
    def rules(self) -> ModuleType:
        return importlib.import_module(self.package + ".rules")

    @property
    def screens(self) -> ModuleType:
        return importlib.import_module(self.package + ".screens")

    @property
    def playable(self) -> bool:
        """Whether the companion plays this activity itself (it has rules)."""
        return importlib.util.find_spec(self.package + ".rules") is not None


def title(slug: str, data_dir=None) -> str:
    """What menus, receipts and the championship call an activity: a tool's title, a
    game's name from its data (owner overrides in ``data_dir`` included), else the slug."""
    if slug in TOOL_TITLES:
        return TOOL_TITLES[slug]
    if slug not in GAMES:  # e.g. an older journal's championship key
        return slug
    from companion.core import gamedata
    from companion.core.config import ConfigError
    try:
        return gamedata.game_name(gamedata.load(slug, override_dir=data_dir), slug)
    except (ConfigError, OSError):
        return slug


def game_slugs() -> list[str]:
    return list(GAMES)


def activity(slug: str) -> Activity:
    if slug in GAMES:
        return Activity(slug, GAMES[slug])
    if slug in TOOLS:
        return Activity(slug, TOOLS[slug])
    raise UnknownName(f"unknown game or tool '{slug}'; available: {', '.join([*GAMES, *TOOLS])}")


def game_package(slug: str) -> str:
    try:
        return GAMES[slug]
    except KeyError:
        raise UnknownName(f"unknown game '{slug}'; available: {', '.join(GAMES)}") from None
