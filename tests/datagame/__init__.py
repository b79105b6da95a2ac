"""A game the companion keeps data for but does not play itself: its demo is the lap
counter with the game's points table."""
