"""The error a game pack raises when a setup or an event does not fit its rules."""

from __future__ import annotations


class RuleError(ValueError):
    """A setup the game refuses, or an event that does not fit the state (a corrupt or
    foreign journal row). The message says what is wrong in the table's words."""
