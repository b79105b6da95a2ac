"""The table screen's address, as a phone at the table opens it: the box's own address on
the local network (found without sending a packet), else its name there (``<name>.local``,
which Raspberry Pi OS announces). The box's own service has no network of its own, so on
the device the name is what it shows."""

from __future__ import annotations

import socket


def address(port: int, host: str = "0.0.0.0") -> str:
    if host not in ("0.0.0.0", "::", ""):
        return f"http://{host}:{port}/"
    try:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    except OSError:            # no network sockets at all (the box's service)
        return f"http://{socket.gethostname()}.local:{port}/"
    try:
        probe.connect(("192.0.2.1", 9))   # TEST-NET-1: routing only, nothing is sent
        ip = probe.getsockname()[0]
        if ip.startswith("127."):
            raise OSError("no network")
    except OSError:
        return f"http://{socket.gethostname()}.local:{port}/"
    finally:
        probe.close()
    return f"http://{ip}:{port}/"


PORT_OPTION = "COMPANION_PORT_OPTION"
"""The environment variable that names how the user picks the table screen's port where
they started it (``make run``: ``TABLE_PORT=8081``; ``companion run``: ``--table-port``)."""


def port_option() -> str:
    import os
    return os.environ.get(PORT_OPTION) or "--port N"
