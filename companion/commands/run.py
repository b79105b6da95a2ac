"""The two services: ``companion run``, the appliance itself (also what plain ``companion``
does), and ``companion table``, the table screen alone: a read-only page of the race on the
players' phones (companion/table). It prints the address it serves on, then serves until
stopped. (One module for both, so the start imports no module more for the second.)"""

from __future__ import annotations

import sys

from companion.commands import CommandError

HARDWARE = ("auto", "pi", "desktop", "terminal", "headless")
PRINT_WAIT_S = 30.0
"""A scripted run waits this long at most for its last receipts (a real printer prints a
results receipt in a few seconds; paper out would otherwise hold the exit forever)."""


def register(sub) -> None:
    p = sub.add_parser("run", help="run the companion (the default command)")
    p.add_argument("--hardware", choices=HARDWARE, default="auto",
                   help="auto: a Pi's buttons/OLED/printer on a Pi, the desktop emulator elsewhere; "
                        "headless writes each new frame as a PNG")
    p.add_argument("--state", metavar="DIR", help="where the journal and spooled receipts live")
    p.add_argument("--pinout", metavar="FILE", help="the hardware description (default hardware/pinout.toml)")
    p.add_argument("--keys", metavar="GESTURES",
                   help='feed button gestures, e.g. "OK DOWN GO HOLD:BACK", then exit when used up')
    p.add_argument("--out", metavar="DIR", help="headless: where the frames go (default STATE/frames); "
                                                "receipts go to STATE/receipts")
    p.add_argument("--print-wait", type=float, default=PRINT_WAIT_S, metavar="SECONDS",
                   help=f"with --keys: how long to wait for the last receipts to print before exiting "
                        f"(default {PRINT_WAIT_S:g}); what has not printed waits in the spool")
    p.add_argument("--seed", type=int, help="seed the dice and decks (for tests; default: the OS generator)")
    p.set_defaults(func=run)
    register_table(sub)


def run(args) -> int:
    from companion.runtime import Runtime, StartupError

    try:
        runtime = Runtime.open(hardware=args.hardware, state=args.state, pinout=args.pinout,
                               keys=args.keys, out=args.out, seed=args.seed)
    except StartupError as exc:
        raise CommandError(str(exc)) from None
    with runtime:
        if runtime.board.hardware == "headless" and args.keys is None:
            where = args.out or runtime.state_dir / "frames"
            print(f"companion: no screen or terminal here, so it ran headless: the first frame is in {where}. "
                  "Try --hardware terminal, or --keys \"OK GO\" to press buttons.", file=sys.stderr)
        runtime.app.run(runtime.board.buttons)
        if args.keys is not None:  # the keys are used up: let the last receipts print
            waiting = runtime.app.finish_printing(args.print_wait)
            if waiting:
                print(f"companion: {waiting} receipt(s) still waiting for the printer; they print at the "
                      "next start, or with `companion print waiting`", file=sys.stderr)
    for problem in runtime.problems():
        print(f"companion: {problem}", file=sys.stderr)
    return 0


def register_table(sub) -> None:
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
    server = TableServer(follower, args.host, port, sock=sock)

    def ready(srv: TableServer) -> None:
        print(f"companion table: serving the table screen on {address(srv.port, args.host)}", flush=True)

    try:
        server.run(ready)
    except OSError as exc:
        raise CommandError(f"cannot serve on {args.host}:{port}: {exc.strerror or exc} "
                           "(another program uses the port? try --port)") from None
    finally:
        follower.close()
    return 0
