"""What the reference journals' makers share: an app on a state directory, and races played
on it by each game's demo script (run with an older companion on ``PYTHONPATH``)."""
import random
from pathlib import Path

from companion.app import App
from companion.core.journal import Journal
from companion.devices.emulated import HeadlessDisplay
from companion.games import registry


def box(state: Path, seed: int) -> App:
    """The companion on ``state``, headless, printing nothing."""
    return App(journal=Journal(state), display=HeadlessDisplay(), rng=random.Random(seed), printer_factory=lambda: None)


def play(app: App, slug: str, options: dict, moves: int | None = None) -> None:
    """A session of ``slug``, its demo script's moves to the end (or ``moves`` of them)."""
    act = registry.activity(slug)
    app.start_session(slug, options)
    n = 0
    while not app.runner.finished() and (moves is None or n < moves):
        move = act.demo.script(app.runner.state)
        if move is None:
            break
        app.perform(move)
        n += 1


def demo(slug: str) -> dict:
    """The options the game's demo races with."""
    return dict(registry.activity(slug).demo.options)
