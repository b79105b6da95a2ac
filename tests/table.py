"""An app at the table, for the tests: made on a journal and a headless screen, with
gestures pressed straight into it and a paper tray for a printer."""

import random

from companion.app import App
from companion.core.journal import Journal
from companion.devices.buttons import InputEnded, ScriptedButtons
from companion.devices.emulated import HeadlessDisplay


def make_app(state_dir, seed=1, display=None):
    journal = Journal(state_dir)
    display = display or HeadlessDisplay(state_dir / "frames")
    return App(journal=journal, display=display, rng=random.Random(seed))


def press(app, keys):
    """Gestures straight into the loop of a running app (``run`` would boot it again)."""
    source = ScriptedButtons.from_keys(keys)
    while True:
        try:
            gesture = source.get(timeout=0)
        except InputEnded:
            return
        if gesture is not None:
            app.step(gesture)


class PaperTray:
    """A printer that keeps what it is given."""

    fault = None

    def __init__(self):
        self.receipts = []

    def submit(self, receipt):
        self.receipts.append(receipt)

    def pending(self):
        return []

    def retry(self):
        pass

    def close(self):
        pass
