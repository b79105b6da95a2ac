"""``companion table``: the table screen alone, a read-only page of the race on the players'
phones (companion/table). It prints the address it serves on, then serves until stopped.
Like every command it is registered only when named, so ``companion run`` never builds its
parser."""

from __future__ import annotations

import sys

from companion.commands import CommandError
from companion.table.address import port_option


def register(sub) -> None:
    p = sub.add_parser("table", help="serve the table screen: the race, live and read-only, on the players' phones")
    p.add_argument("--state", metavar="DIR", help="the state directory whose journal it shows (read-only)")
    p.add_argument("--port", type=int, metavar="N", help="the port (default: [table] port in the pinout, 8080)")
    p.add_argument("--host", default="0.0.0.0", metavar="ADDR",
                   help="the address to listen on (default 0.0.0.0: every network of the box)")
    p.add_argument("--pinout", metavar="FILE", help="the configuration (default hardware/pinout.toml)")
    p.add_argument("--if-enabled", action="store_true",
                   help="do nothing when [table] enabled = false in the pinout (what the service runs)")
    p.set_defaults(func=table)


def table(args) -> int:
    from companion.devices.board import load_pinout
    from companion.paths import pinout_path, state_dir

    pinout_file = pinout_path(args.pinout)
    config = load_pinout(pinout_file)["table"]
    if args.if_enabled and not config["enabled"]:
        print(f"companion table: switched off in {pinout_file} ([table] enabled = false)", file=sys.stderr)
        return 0
    port = config["port"] if args.port is None else args.port
    if not 0 <= port <= 65535:
        raise CommandError(f"--port {port}: a port is a number from 0 to 65535")

    # The page is plain HTTP on the local network: asyncio need not load OpenSSL (about 3 MB
    # of the server's memory on the device, docs/decisions.md).
    sys.modules.setdefault("ssl", None)  # type: ignore[arg-type]
    from companion.table.address import address
    from companion.table.server import TableServer, inherited
    from companion.table.source import Follower

    sock = inherited()           # systemd's socket unit listens for it (systemd/companion-table.socket)
    if sock is not None:
        port = sock.getsockname()[1]
    follower = Follower(state_dir(args.state))
    if follower.journal is None:   # served all the same (the box may start later), and said
        from companion.table.public import no_journal
        print(f"companion table: {no_journal()}: {follower.state_dir}", file=sys.stderr, flush=True)
    server = TableServer(follower, args.host, port, sock=sock)

    def ready(srv: TableServer) -> None:
        print(f"companion table: serving the table screen on {address(srv.port, args.host)}", flush=True)

    try:
        server.run(ready)
    except OSError as exc:
        raise CommandError(f"cannot serve on {args.host}:{port}: {exc.strerror or exc} "
                           f"(another program uses the port? try {port_option()})") from None
    finally:
        follower.close()
    return 0
