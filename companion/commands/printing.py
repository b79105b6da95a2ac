"""``companion print``: results, the championship, or the receipts waiting in the spool."""

from __future__ import annotations

from pathlib import Path

from companion import paths
from companion.commands import CommandError

WHAT = ("results", "championship", "waiting", "driver")


def register(sub) -> None:
    p = sub.add_parser("print", help="print the last results, the championship, a driver's record or the waiting receipts")
    p.add_argument("what", choices=WHAT, help="results: the last finished race; championship: its standings; "
                                              "driver: a driver's record (--name); "
                                              "waiting: receipts kept while the printer was out")
    p.add_argument("--state", metavar="DIR", help="the companion's state directory")
    p.add_argument("--season", metavar="NAME", help="championship: this season's (a past one too)")
    p.add_argument("--name", metavar="NAME", help="driver: whose record")
    p.add_argument("--race", metavar="ID", help="results: this race's (its id from `companion race list`)")
    p.add_argument("--pinout", metavar="FILE", help="the hardware description (default hardware/pinout.toml)")
    p.add_argument("--to", choices=("printer", "png"), default=None,
                   help="printer: the serial printer of the pinout (default on a Pi); png: save previews")
    p.add_argument("--out", metavar="DIR", help="with --to png: where the PNGs go (default STATE/receipts)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for the printer (default 120)")
    p.set_defaults(func=print_command)


def print_command(args) -> int:
    from companion.league import paper
    from companion.commands.journal import open_journal
    from companion.core.names import counted
    from companion.devices.board import is_raspberry_pi, load_pinout
    from companion.devices.printer import open_printer

    state_dir = paths.state_dir(args.state)
    receipt = None
    spool, out = state_dir / "spool", args.out
    if args.what != "waiting":
        with open_journal(args.state) as journal:
            if args.what == "results" and args.race:
                from companion.commands.steward import _race
                receipt = paper.race_receipt(journal, _race(journal, args.race))
            elif args.what == "driver" or args.season:
                from companion.commands.club import receipt_asked
                receipt = receipt_asked(journal, args)
            else:
                receipt = (paper.last_results_receipt(journal) if args.what == "results"
                           else paper.championship_receipt(journal))
            if journal.read_only:   # nothing is written on a read-only card: spool aside
                import tempfile
                spool = Path(tempfile.mkdtemp(prefix="companion-spool-"))
                out = out or Path.cwd() / "receipts"
        if receipt is None:
            raise CommandError("no finished race yet: nothing to print")
    target = args.to or ("printer" if is_raspberry_pi() else "png")
    pinout = load_pinout(paths.pinout_path(args.pinout))
    printer = open_printer(pinout["printer"], "serial" if target == "printer" else "png", spool, out_dir=out)
    with printer:
        if receipt is not None:
            printer.submit(receipt)
        waiting = len(printer.pending())
        if printer.wait_idle(timeout=args.timeout):
            where = "" if target == "printer" else f" to {out or state_dir / 'receipts'}"
            print(f"Printed {counted(waiting, 'receipt')}{where}." if waiting else "Nothing waiting to print.")
            return 0
        fault = printer.fault
        problem = f"{fault.message} ({fault.fix})" if fault is not None and fault.fix else printer.status
        kept = counted(len(printer.pending()), "receipt")
        raise CommandError(f"{problem}; {kept} kept, they print when the printer is back", code=1)
