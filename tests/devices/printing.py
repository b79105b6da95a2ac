"""Helpers of the printer tests: the paper a receipt should give, waiting for a condition,
and the time a busy machine did not run the test's process."""

import threading
import time

from companion.receipts.escpos import END_FEED


def expected_paper(receipt):
    return receipt.text_lines() + [""] * END_FEED


def wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


class Stalls:
    """The moments this process was not run (a loaded machine, a virtual machine's host):
    a thread that wakes every ``tick`` seconds notes each wake-up more than ``late``
    seconds after the last. The simulated printer measures the paper's speed on the wall
    clock, so what the driver is judged on is the time it was given: ``excused(start, end)``
    is how much of that window went to stalls. Short waits are not excused (the printer's
    buffer covers them): a driver that idles the printer by its own schedule is still
    caught. Read it once closed (``with Stalls() as stalls: ...``)."""

    def __init__(self, tick: float = 0.005, late: float = 0.02):
        self.tick, self.late = tick, late
        self.gaps: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="stalls", daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        last = time.monotonic()
        while not self._stop.wait(self.tick):
            now = time.monotonic()
            if now - last > self.late:
                self.gaps.append((last + self.tick, now))
            last = now

    def excused(self, start: float, end: float) -> float:
        """Seconds of stalls within ``start``..``end`` (the simulator's clock: monotonic)."""
        assert not self._thread.is_alive(), "read the stalls once they are closed"
        return sum(max(0.0, min(b, end) - max(a, start)) for a, b in self.gaps)
