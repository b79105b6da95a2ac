"""``companion run``: the appliance itself (also what plain ``companion`` does)."""

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
    p.add_argument("--table", action="store_true",
                   help="serve the table screen beside it, on the same state and pinout, until it stops "
                        "(what `make run` does; on the box the table screen is a service of its own)")
    p.add_argument("--table-port", type=int, metavar="N",
                   help="with --table: the table screen's port (default: [table] port in the pinout)")
    p.set_defaults(func=run)


def run(args) -> int:
    if not args.table:
        if args.table_port is not None:
            raise CommandError("--table-port is the port of --table: give both, or neither")
        return run_companion(args)
    from companion import paths
    from companion.table import beside

    table = beside.start(paths.state_dir(args.state), paths.pinout_path(args.pinout), args.table_port)
    try:
        return run_companion(args, None if table is None else table.port, "" if table is None else table.note)
    finally:
        beside.stop(table)


def run_companion(args, table_port: int | None = None, note: str = "") -> int:
    """The companion; ``table_port``: where the table screen beside it serves (the pause
    menu's QR code and the program receipt then give that port, not the pinout's);
    ``note``: its address, kept in sight on the terminal display (printed before it, it
    would be drawn over)."""
    from companion.runtime import Runtime, StartupError

    try:
        runtime = Runtime.open(hardware=args.hardware, state=args.state, pinout=args.pinout,
                               keys=args.keys, out=args.out, seed=args.seed, note=note)
    except StartupError as exc:
        raise CommandError(str(exc)) from None
    if table_port is not None and runtime.app.table:
        runtime.app.table = {**runtime.app.table, "port": table_port}
    with runtime:
        if runtime.board.hardware == "headless" and args.keys is None:
            where = args.out or runtime.state_dir / "frames"
            print(f"companion: no screen or terminal here, so it ran headless: the first frame is in {where}. "
                  "Try --hardware terminal, or --keys \"OK GO\" to press buttons.", file=sys.stderr)
        try:
            runtime.run()
        except StartupError as exc:
            raise CommandError(str(exc)) from None
        if args.keys is not None:  # the keys are used up: let the last receipts print
            waiting = runtime.app.finish_printing(args.print_wait)
            if waiting:
                from companion.core.names import counted
                print(f"companion: {counted(waiting, 'receipt')} still waiting for the printer; they print at the "
                      "next start, or with `companion print waiting`", file=sys.stderr)
    for problem in runtime.problems():
        print(f"companion: {problem}", file=sys.stderr)
    return 0
