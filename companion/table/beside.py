"""The table screen beside a companion on a desktop (``companion run --table``, what
``make run`` does): ``companion table`` as a child process on the companion's own state
directory and pinout, so the address it prints (and the pause menu's QR code) leads to the
race being played, whatever ``--state`` or ``--pinout`` the companion was given. Its address
is printed before the companion starts; it stops when the companion stops. On the box the
table screen is a service of its own instead (systemd/companion-table.service)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

STOP_S = 5.0
"""How long a table screen told to stop may take before it is killed."""


def command(state: Path, pinout: Path, port: int | None = None) -> list[str]:
    """The ``companion table`` that serves ``state``'s race, switched off as the pinout says."""
    argv = [sys.executable, "-m", "companion.cli", "table", "--if-enabled", "--state", str(state),
            "--pinout", str(pinout)]
    return argv if port is None else [*argv, "--port", str(port)]


@dataclass
class Beside:
    proc: subprocess.Popen
    port: int            # where it serves (also when asked for port 0: any free one)
    url: str = ""        # its address, as printed

    @property
    def note(self) -> str:
        """The address as the terminal display keeps it in sight."""
        return f"Table screen: {self.url}"


def start(state: Path, pinout: Path, port: int | None = None) -> Beside | None:
    """Start the table screen and print its address; None when it did not start (switched
    off in the pinout, or the port taken: it has said why on stderr)."""
    import os
    from companion.table.address import PORT_OPTION
    env = {**os.environ, PORT_OPTION: os.environ.get(PORT_OPTION) or "--table-port N"}   # its words for a taken port
    proc = subprocess.Popen(command(state, pinout, port), stdout=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()          # its address once it listens; nothing if it ended
    if not line:
        proc.wait()
        return None
    print(line, end="", flush=True)
    url = line.split()[-1]
    return Beside(proc, int(url.rstrip("/").rsplit(":", 1)[1]), url)


def stop(table: Beside | None) -> None:
    if table is None or table.proc.poll() is not None:
        return
    proc = table.proc
    proc.terminate()
    try:
        proc.wait(STOP_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
