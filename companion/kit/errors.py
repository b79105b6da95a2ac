"""The error a game pack raises when a setup or an event does not fit its rules."""

from __future__ import annotations


class RuleError(ValueError):
    """A setup the game refuses, or an event that does not fit the state (a corrupt or
    foreign journal row). The message says what is wrong in the table's words."""


class DataError(RuleError):
    """A table of the game's data that the pack cannot use. ``keys`` is the path to it
    (("circuits", "monaco", "corners")); the loader turns it into a ConfigError naming the
    file it came from (the owner's override or the built-in data.toml), the key and ``fix``."""

    def __init__(self, keys: tuple[str, ...] | list[str], problem: str, fix: str = ""):
        self.keys = tuple(str(k) for k in keys)
        self.problem = problem
        self.fix = fix
        super().__init__(f"{'.'.join(self.keys)}: {problem}" + (f" ({fix})" if fix else ""))
