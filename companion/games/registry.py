"""Which activities exist: the five games and the toolkit tools.

Each entry is everything the home menu knows of an activity: its package, the name menus
show and whether the companion plays it. Nothing of a package is imported or read until it
is chosen, so the start costs the same whatever the number of packs
(tests/test_start_cost.py). A playable activity declares itself in its package's
``pack.py`` as ``ACTIVITY``, an :class:`companion.games.api.Activity`; :func:`activity`
loads it when it is chosen.

Adding a game: create ``companion/games/<package>/`` (``data.toml``, and ``rules.py``,
``screens.py``, ``pack.py`` when the companion plays it) and add one line to ``GAMES``
(``playable=False`` for a game without ``pack.py``; its title is its data's ``[game] name``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the contract is loaded with the first activity, not for the first frame
    from companion.games.api import Activity


@dataclass(frozen=True)
class Entry:
    slug: str
    package: str
    kind: str        # "game" or "tool"
    title: str       # the built-in name (an owner's data file may rename a game)
    playable: bool = True   # the companion plays it itself: the package has pack.py

    def load(self) -> "Activity":
        return _load(self.package, self.slug)


# Order is the order of the menus.
GAMES: dict[str, Entry] = {e.slug: e for e in (
    Entry("street-illegal", "companion.games.street_illegal", "game", "Street Illegal"),
    Entry("3-wide", "companion.games.three_wide", "game", "3-Wide"),
    Entry("formula-de", "companion.games.formula_de", "game", "Formula Dé"),
    Entry("lacorsa", "companion.games.lacorsa", "game", "Lacorsa"),
    Entry("top-speed", "companion.games.top_speed", "game", "Top Speed"),
)}

# Toolkit tools: activities that work with any game's dice, decks and points.
TOOLS: dict[str, Entry] = {e.slug: e for e in (
    Entry("dice", "companion.tools.dice_roller", "tool", "Dice roller"),
    Entry("deck", "companion.tools.deck_shuffler", "tool", "Deck shuffler"),
    Entry("laps", "companion.tools.lap_counter", "tool", "Lap counter"),
)}


def game_of(slug: str, options: dict) -> str:
    """The game a session counts for: the activity when it is a game; for a tool, the game
    whose points table it uses (the lap counter's "Points" option), else the tool itself."""
    if slug in GAMES:
        return slug
    game = options.get("game")
    return game if game in GAMES else slug


def championship_of(slug: str, options: dict) -> str:
    """The championship a session counts in: a game's own; a tool's own, and for a tool
    scoring with a game's points table, one of its own named by that table
    ("laps:formula-de", never the game's: a lap-counter race is no Formula Dé race)."""
    game = game_of(slug, options)
    return slug if game == slug else f"{slug}:{game}"


class UnknownName(LookupError):
    """An unknown game, tool, die or deck; ``str()`` names what is available."""


class NotPlayable(LookupError):
    """A game the companion keeps data for but does not play itself (yet)."""


@lru_cache(maxsize=None)
def _load(package: str, slug: str) -> "Activity":
    from companion.games.api import Activity

    module = importlib.import_module(package + ".pack")
    declared = module.ACTIVITY
    if not isinstance(declared, Activity) or declared.slug != slug:
        raise TypeError(f"{package}.pack.ACTIVITY must be the Activity of '{slug}'")
    return declared


def entry(slug: str) -> Entry:
    found = GAMES.get(slug) or TOOLS.get(slug)
    if found is None:
        raise UnknownName(f"unknown game or tool '{slug}'; available: {', '.join([*GAMES, *TOOLS])}")
    return found


def activity(slug: str) -> "Activity":
    """The activity ``slug`` as its pack declares it."""
    found = entry(slug)
    if not found.playable:
        raise NotPlayable(f"the companion does not play {found.title} itself; use the toolkit")
    return found.load()


def playable() -> list[Entry]:
    """Every activity the companion plays, tools first, then the games, in menu order."""
    return [e for e in (*TOOLS.values(), *GAMES.values()) if e.playable]


def game_slugs() -> list[str]:
    return list(GAMES)


def game_package(slug: str) -> str:
    try:
        return GAMES[slug].package
    except KeyError:
        raise UnknownName(f"unknown game '{slug}'; available: {', '.join(GAMES)}") from None
