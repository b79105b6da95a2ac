"""Tell systemd the companion is up and its main loop alive (``Type=notify``, ``WatchdogSec=``).

The app calls :meth:`Watchdog.ready` once the first frame is shown and :meth:`Watchdog.ping`
on every turn of its main loop. ``ping`` is cheap: it sends ``WATCHDOG=1`` only when half of
the interval systemd asked for (``$WATCHDOG_USEC``) has passed since the last one, so a loop
turning 100 times a second still sends a handful of datagrams a minute. A loop that hangs
stops pinging, and systemd restarts the service.

Outside systemd (no ``$NOTIFY_SOCKET``: a desktop, the tests, a shell) every call does
nothing, and ``sdnotify`` is never imported.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable


class Watchdog:
    """The service's line to systemd: readiness, status text and paced watchdog pings."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._socket = os.environ.get("NOTIFY_SOCKET") or None
        self.interval = _ping_interval() if self._socket else None
        self._notifier = None
        self._last_ping: float | None = None

    @property
    def enabled(self) -> bool:
        """True when running under systemd with a notify socket."""
        return self._socket is not None

    def ready(self, status: str | None = None) -> None:
        """The companion is up: ``READY=1``, a first ``WATCHDOG=1`` and an optional status line."""
        lines = ["READY=1"]
        if self.interval is not None:
            lines.append("WATCHDOG=1")
            self._last_ping = self._clock()
        if status:
            lines.append(_status_line(status))
        self._send(lines)

    def ping(self) -> bool:
        """Called on every loop turn; sends ``WATCHDOG=1`` when one is due. True if it sent."""
        if self.interval is None:
            return False
        now = self._clock()
        if self._last_ping is not None and now - self._last_ping < self.interval:
            return False
        self._last_ping = now
        self._send(["WATCHDOG=1"])
        return True

    def status(self, text: str) -> None:
        """A one-line status that ``systemctl status companion`` shows."""
        self._send([_status_line(text)])

    def stopping(self, status: str | None = None) -> None:
        """The companion is shutting down on purpose (``STOPPING=1``)."""
        self._send(["STOPPING=1", *([_status_line(status)] if status else [])])

    def _send(self, lines: list[str]) -> None:
        if self._socket is None:
            return
        if self._notifier is None:
            import sdnotify  # only a service under systemd pays for it

            self._notifier = sdnotify.SystemdNotifier()
        self._notifier.notify("\n".join(lines))


def _ping_interval() -> float | None:
    """Half of ``$WATCHDOG_USEC`` in seconds, or None when systemd wants no pings from us."""
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if pid and pid != str(os.getpid()):
        return None  # the watchdog is meant for another process (a parent that exec'd us)
    return int(usec) / 2 / 1_000_000


def _status_line(text: str) -> str:
    return "STATUS=" + " ".join(text.split())
