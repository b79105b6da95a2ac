"""Game pack."""
