"""``companion export --season NAME FILE`` and ``companion import FILE``: one season's races
carried from one box to another (``companion.league.exchange``)."""

from __future__ import annotations

from companion.commands import CommandError


def register(sub) -> None:
    p = sub.add_parser("export", help="write a season's races to a file for another box")
    p.add_argument("--state", metavar="DIR", help="the companion's state directory")
    p.add_argument("--championship", metavar="KEY", help="which game (default: the last race's)")
    p.add_argument("--season", metavar="NAME", help="which season (default: the current one)")
    p.add_argument("file", metavar="FILE", help="the file to write (JSON)")
    p.set_defaults(func=export)
    p = sub.add_parser("import", help="add the races of another box's export file to a season here")
    p.add_argument("--state", metavar="DIR", help="the companion's state directory")
    p.add_argument("--into", metavar="NAME",
                   help="the season here they count in (default: the file's season, made here by its name if need be)")
    p.add_argument("file", metavar="FILE", help="a file written by `companion export`")
    p.set_defaults(func=import_)


def export(args) -> int:
    import json
    import os

    from companion.league import exchange, seasons
    from companion.commands.club import _key
    from companion.commands.journal import open_journal

    with open_journal(args.state) as journal:
        key = _key(journal, args.championship)
        name = args.season or seasons.shown(journal, key).name
        try:
            data = exchange.export_season(journal, key, name)
        except seasons.SeasonError as exc:
            raise CommandError(str(exc)) from None
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    tmp = f"{args.file}.part"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, args.file)
    except OSError as exc:
        raise CommandError(f"cannot write {args.file}: {exc.strerror or exc}") from None
    from companion.core.names import counted
    print(f"Wrote season {data['season']['name']} ({counted(len(data['races']), 'race')}) to {args.file}")
    return 0


def import_(args) -> int:
    from companion.league import exchange, ledger
    from companion.commands.journal import open_journal

    with open_journal(args.state) as journal:
        if journal.read_only:
            raise CommandError("the journal is read-only here: an import is written to it; nothing was changed")
        try:
            plan = exchange.plan_import(journal, exchange.read_file(args.file), args.into)
        except exchange.ImportRefused as exc:
            raise CommandError(f"{args.file} refused, nothing was changed: {exc}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {args.file}: {getattr(exc, 'strerror', None) or exc}") from None
        print(plan.says(), flush=True)
        exchange.import_season(journal, plan)
    added, said = len(plan.new), f"; {plan.held} already here" if plan.held else ""
    print(f"Added {added} race{'' if added == 1 else 's'} to season {plan.into} of {ledger.title(plan.game)}{said}")
    return 0
