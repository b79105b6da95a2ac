"""What the table screen's tests share: a race played by the real app into a journal,
and the table server on 127.0.0.1 (a free port) in a thread of the test."""

import threading

import pytest

from companion.games import registry
from companion.table.server import Limits, TableServer
from companion.table.source import Follower
from tests.state import isolated_state  # noqa: F401  (autouse: every test has its own state)
from tests.table import make_app


def play(app, slug: str, moves: int, until=None):
    """``moves`` of the demo's scripted race (or fewer: until ``until(state)`` holds)."""
    act = registry.activity(slug)
    if app.runner is None:
        app.start_session(slug, dict(act.demo.options))
    for _ in range(moves):
        if until is not None and until(app.runner.state):
            return app
        move = act.demo.script(app.runner.state)
        if move is None or app.runner.session.finished is not None:
            break
        app.perform(move)
    return app


def race(state_dir, slug: str, moves: int, until=None):
    """An app that has played ``moves`` of ``slug``'s demo race into ``state_dir``."""
    return play(make_app(state_dir), slug, moves, until)


class Serving:
    """The table server in a thread; ``stop()`` ends it. The follower is polled by that thread
    alone: ``halt()`` first before a test reads or polls it itself."""

    def __init__(self, state_dir, limits: Limits = Limits(poll_s=0.05)):
        self.follower = Follower(state_dir)
        self.server = TableServer(self.follower, "127.0.0.1", 0, limits)
        ready = threading.Event()
        self.thread = threading.Thread(target=self.server.run, args=(lambda s: ready.set(),), daemon=True)
        self.thread.start()
        assert ready.wait(10), "the table server did not start"
        self.port = self.server.port
        self.url = f"http://127.0.0.1:{self.port}/"

    def halt(self) -> None:
        """Stop the server's thread, keeping the follower open."""
        self.server.stop()
        self.thread.join(10)
        assert not self.thread.is_alive(), "the table server did not stop"

    def stop(self) -> None:
        self.halt()
        self.follower.close()


@pytest.fixture
def serving():
    made = []

    def start(state_dir, **limits):
        s = Serving(state_dir, Limits(**{"poll_s": 0.05, **limits}))
        made.append(s)
        return s

    yield start
    for s in made:
        s.stop()
