"""The box's power health: the Raspberry Pi's under-voltage flag.

A thermal printer draws 1.5-2 A at its peaks; a supply that cannot give them makes the Pi's
voltage dip, and the firmware says so. ``[power] throttled`` in the pinout names the file
to read, in either of the Pi's forms:

- ``get_throttled`` (``/sys/devices/platform/soc/soc:firmware/get_throttled``, or what
  ``vcgencmd get_throttled`` prints, ``throttled=0x50005``): a hex number whose bit 0 is
  "under-voltage now" and bit 16 "under-voltage since boot" (sticky);
- the hwmon alarm (``/sys/class/hwmon/hwmonN/in0_lcrit_alarm``): ``1`` while it lasts.

A desktop run points it at a file of its own. A file that is not there means "not known",
never "power OK".
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

UNDER_VOLTAGE_NOW = 1 << 0
UNDER_VOLTAGE_SINCE_BOOT = 1 << 16
STATUS = "Power low"
ADVICE = ("check the Pi's supply (the official one for its model) and that the printer has "
          "its own, with a common ground (hardware/power.md)")


@dataclass(frozen=True)
class Power:
    """One reading: ``low`` is None when the file could not be read (``error`` says why)."""
    low: bool | None
    now: bool = False
    error: str = ""


def read_power(path: str | Path) -> Power:
    """Read the under-voltage flag at ``path``; never raises."""
    try:
        text = Path(path).read_text("ascii", errors="replace").strip()
    except OSError as exc:
        return Power(None, error=f"{path}: {exc.strerror or exc}")
    value = text.rpartition("=")[2].strip()
    try:
        bits = int(value, 16)
    except ValueError:
        return Power(None, error=f"{path}: {text[:40]!r} is neither get_throttled's hex nor an alarm's 0/1")
    now = bool(bits & UNDER_VOLTAGE_NOW)
    return Power(now or bool(bits & UNDER_VOLTAGE_SINCE_BOOT), now=now)


class PowerWatch:
    """Reads the flag at most every ``every`` seconds; ``news()`` is the reading when it
    turned low or back (else None), for the status line and the journal."""

    def __init__(self, path: str | Path, *, every: float = 5.0, clock=time.monotonic):
        self.path = path
        self.every = every
        self._clock = clock
        self._next = 0.0
        self.low = False

    def news(self) -> Power | None:
        if self._clock() < self._next:
            return None
        self._next = self._clock() + self.every
        reading = read_power(self.path)
        low = bool(reading.low)
        if low == self.low:
            return None
        self.low = low
        return reading


def low_in(club_events: list[dict]) -> bool:
    """Whether the journal's newest power event (the box's own, see App) says low."""
    said = [e for e in club_events if e.get("kind") == "power"]
    return bool(said and said[-1].get("low"))


def check_power(power_config: dict) -> tuple[bool, str]:
    """``companion selftest``: the under-voltage flag of ``[power] throttled``."""
    path = power_config.get("throttled", "")
    if not path:
        return True, "no [power] throttled file in the pinout: not checked"
    reading = read_power(path)
    if reading.low is None:
        return True, f"{reading.error}: not known (not a Raspberry Pi, or an older kernel)"
    if reading.low:
        when = "now" if reading.now else "since the last boot"
        return False, f"{STATUS}: under-voltage {when} ({path}); {ADVICE}"
    return True, f"{path}: no under-voltage since the last boot"
