"""What every screen shares: the button names and UP/DOWN as a step."""

from __future__ import annotations

UP, DOWN, OK, BACK, GO = "UP", "DOWN", "OK", "BACK", "GO"


def step(gesture) -> int:
    """+1 / -1 for DOWN / UP presses and repeats, 0 otherwise."""
    if gesture.kind not in ("press", "repeat"):
        return 0
    return {UP: -1, DOWN: 1}.get(gesture.button, 0)


def pressed(gesture, *buttons: str) -> bool:
    """Whether ``gesture`` is a press of one of ``buttons``."""
    return gesture.kind == "press" and gesture.button in buttons
