"""One package per game: ``data.toml`` always; ``rules.py`` and ``screens.py`` where
the companion plays the game itself. See :mod:`companion.games.api` for the contract."""
