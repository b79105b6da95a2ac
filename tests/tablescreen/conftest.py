"""What the table screen's tests share: a race played by the real app into a journal,
and the table server on 127.0.0.1 (a free port) in a thread of the test."""

import json
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


def last_action(state_dir) -> str:
    """The newest action the page lists for the race in ``state_dir`` (in the table's
    words, ``companion.table.public``)."""
    follower = Follower(state_dir)
    try:
        return follower.payload["history"][0]
    finally:
        follower.close()


def race(state_dir, slug: str, moves: int, until=None):
    """An app that has played ``moves`` of ``slug``'s demo race into ``state_dir``."""
    return play(make_app(state_dir), slug, moves, until)


class CountingFollower(Follower):
    """A follower that counts the server's polls and notes, each time the server reads the
    page's text to send or serve it, how many polls had begun (``sent``: [(polls, text)]).
    How late a change reaches the pages is then counted in polls, which a busy machine
    does not stretch as it stretches seconds. Read ``sent`` once the server is halted."""

    def __init__(self, state_dir):
        self.polls, self.sent, self._text, self._polling = 0, [], "", False
        super().__init__(state_dir)

    def poll(self) -> bool:
        self.polls += 1
        self._polling = True
        try:
            return super().poll()
        finally:
            self._polling = False

    @property
    def text(self) -> str:
        if not self._polling:          # the server's own reads, not the poll comparing
            self.sent.append((self.polls, self._text))
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        self._text = value

    def sends(self, payload: dict) -> list[int]:
        """The poll counts at which ``payload`` was read to be sent."""
        return [n for n, text in self.sent if text and json.loads(text) == payload]


class Serving:
    """The table server in a thread; ``stop()`` ends it. The follower is polled by that thread
    alone: ``halt()`` first before a test reads or polls it itself."""

    def __init__(self, state_dir, limits: Limits = Limits(poll_s=0.05), follower=Follower):
        self.follower = follower(state_dir)
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

    def start(state_dir, follower=Follower, **limits):
        s = Serving(state_dir, Limits(**{"poll_s": 0.05, **limits}), follower)
        made.append(s)
        return s

    yield start
    for s in made:
        s.stop()
