"""``companion backup DIR`` and ``companion restore FILE``: the journal (every race and
championship) copied to a stick while the box runs, and put back on a new card."""

from __future__ import annotations

from companion import paths
from companion.commands import CommandError


def register(sub) -> None:
    p = sub.add_parser("backup", help="copy the journal (every race, the championships) into DIR, "
                                      "while the companion runs")
    p.add_argument("dir", metavar="DIR", help="where to write the backup (a USB stick's directory)")
    p.add_argument("--state", metavar="DIR", help="the companion's state directory")
    p.add_argument("--keep", type=int, metavar="N",
                   help="then delete all but the newest N backups in DIR (default: delete none)")
    p.set_defaults(func=back_up)

    p = sub.add_parser("restore", help="put a backup in place as the journal (the companion stopped)")
    p.add_argument("file", metavar="FILE", help="a backup made by `companion backup`")
    p.add_argument("--state", metavar="DIR", help="the companion's state directory")
    p.set_defaults(func=restore)


def back_up(args) -> int:
    from companion.core import backup
    from companion.core.journal import Journal

    if args.keep is not None and args.keep < 1:
        raise CommandError(f"--keep must be 1 or more, not {args.keep}")
    journal = paths.state_dir(args.state) / Journal.FILENAME
    try:
        made, contents = backup.back_up(journal, args.dir, keep=args.keep)
    except backup.BackupError as exc:
        raise CommandError(str(exc), code=1) from None
    print(f"backed up {contents} to {made}")
    return 0


def restore(args) -> int:
    from companion.core import backup

    state = paths.state_dir(args.state)
    try:
        done = backup.restore(args.file, state)
    except backup.BackupError as exc:
        raise CommandError(f"{exc}; nothing was changed", code=1) from None
    print(f"restored {done.contents} from {args.file} into {done.journal}")
    if done.replaced is not None:
        print(f"the journal it replaced is kept as {done.replaced}")
    else:
        print("there was no journal to replace")
    return 0
