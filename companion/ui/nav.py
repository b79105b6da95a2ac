"""What every screen shares: the button names, UP/DOWN as a step, and the Screen
interface (a screen reaches the app only through ``companion.ui.host.Host``)."""

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


class Screen:
    """One screen of the navigation stack: a view now, and what a gesture does."""

    def view(self, app: "Host") -> "View":  # pragma: no cover - interface
        raise NotImplementedError

    def handle(self, app: "Host", gesture) -> None:  # pragma: no cover - interface
        raise NotImplementedError

