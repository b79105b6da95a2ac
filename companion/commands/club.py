"""``companion results`` for the club: seasons (``--seasons``, ``--season NAME``), a driver's
record (``--driver NAME``), merging two spellings of a driver (``--merge NAME INTO``) and
the spreadsheet files (``--csv DIR``), a season's teams (``--season NAME --teams ...``) and
its page (``--season NAME --html FILE``). ``--json`` gives each as docs/results-schema.md says."""

from __future__ import annotations

import json

from companion.commands import CommandError


def register_options(p) -> None:
    p.add_argument("--seasons", action="store_true", help="list the championship's seasons")
    p.add_argument("--season", metavar="NAME", help="show a season's table (a past one too)")
    p.add_argument("--driver", metavar="NAME", help="show a driver's record across games and seasons")
    p.add_argument("--merge", nargs=2, metavar=("NAME", "INTO"),
                   help="count the driver NAME as INTO from now on (two spellings of one driver)")
    p.add_argument("--unmerge", metavar="NAME", help="take a merge back: NAME is a driver of their own again")
    p.add_argument("--csv", metavar="DIR", help="write races.csv, standings.csv, seasons.csv and teams.csv into DIR")
    p.add_argument("--teams", nargs="+", metavar="TEAM",
                   help="with --season NAME: the season's teams, each \"Ann+Bob\" or \"Lions=Ann+Bob\" "
                        "(\"none\": no teams); their standings show beside the drivers'")
    p.add_argument("--html", metavar="FILE",
                   help="with --season NAME: write the season as one page a phone opens (standings, races, "
                        "corrections, each driver's places)")


NAMED = {"--driver": 1, "--unmerge": 1, "--name": 1, "--merge": 2}
"""The options whose values are drivers' names, and how many each takes."""


def names_as_given(argv: list[str]) -> list[str]:
    """``argv`` with the drivers' names after :data:`NAMED` options taken as given, a name
    that begins with "-" too (``--driver -x``, ``--merge -x Anne``; ``--driver=-x`` as well):
    written as ``--driver=-x``, or for ``--merge`` with a leading space a name's lookup drops."""
    out, k = [], 0
    while k < len(argv):
        arg, count = argv[k], NAMED.get(argv[k], 0)
        names = argv[k + 1:k + 1 + count]
        if count and len(names) == count and any(n.startswith("-") for n in names):
            out += [f"{arg}={names[0]}"] if count == 1 else [arg, *(" " + n if n.startswith("-") else n for n in names)]
            k += 1 + count
            continue
        out.append(arg)
        k += 1
    return out


def asked(args) -> bool:
    return bool(args.seasons or args.season or args.driver or args.merge or args.unmerge or args.csv
                or args.teams or args.html)


def show(args) -> int:
    from companion.commands.journal import open_journal

    with open_journal(args.state) as journal:
        say_unshown(journal)
        if args.merge or args.unmerge:
            return _merge(journal, *(args.merge or (args.unmerge, None)))
        if args.csv:
            return _csv(journal, args.csv)
        if args.driver:
            return _driver(journal, args.driver, args.json)
        if (args.teams or args.html) and not args.season:
            raise CommandError(f"{'--teams' if args.teams else '--html'} is of a season: add --season NAME")
        key = _key(journal, args.championship or (_game_with(journal, args.season) if args.season else None))
        if args.teams:
            return _teams(journal, key, args.season, args.teams)
        if args.html:
            return _html(journal, key, args.season, args.html)
        if args.season:
            return _season(journal, key, args.season, args.json)
        return _seasons(journal, key, args.json)


def say_unshown(journal) -> None:
    """Say on stderr (the JSON on stdout stays whole) the stored races that cannot be shown."""
    import sys

    from companion.league import ledger

    note = ledger.unshown_note(journal)
    if note:
        print(f"companion results: {note}", file=sys.stderr)


def _key(journal, wanted: str | None) -> str:
    from companion.league import ledger, seasons

    key = ledger.championship_key(journal, wanted)
    keys = sorted(seasons.games(journal))
    if key is None or key not in keys:
        raise CommandError(f"no championship '{wanted}'; available: {', '.join(keys) or 'none'}"
                           if wanted else "no finished race yet")
    return key


def _game_with(journal, name: str) -> str | None:
    """The one game that has a season called ``name`` (None: none, or several do, and the
    newest race's game is asked)."""
    from companion.league import seasons

    having = [g for g in seasons.games(journal) if any(s.name.casefold() == name.strip().casefold()
                                      for s in seasons.seasons(journal, g))]
    return having[0] if len(having) == 1 else None


def _print_json(data) -> int:
    from companion.league import exchange

    print(json.dumps({"schema": exchange.SCHEMA, **data}, indent=2, ensure_ascii=False))
    return 0


def _seasons(journal, key: str, as_json: bool) -> int:
    from companion.league import exchange, ledger, seasons

    every = seasons.listed(journal, key)
    if as_json:
        return _print_json({"championship": key, "seasons": [exchange.season_summary(journal, s) for s in every]})
    print(f"Seasons of {ledger.title(key)}:")
    for k, s in enumerate(every):
        rows = seasons.table(journal, s)
        lead = f"  {'won by' if s.complete() or k < len(every) - 1 else 'led by'} {rows[0]['name']} " \
               f"({rows[0]['points']})" if rows else ""
        now = "  (current)" if k == len(every) - 1 else ""
        ends = ", ".join(f"{n} {what}" for n, what in ((sum(r["out"] for r in rows), "out"),
                                                      (sum(r["did_not_start"] for r in rows), "did not start")) if n)
        print(f"  {s.label()}{lead}{now}{f'  ({ends})' if ends else ''}")
    return 0


def _season(journal, key: str, name: str, as_json: bool) -> int:
    from companion.league import exchange, ledger, seasons

    season = _find_season(journal, key, name)
    rows = seasons.table(journal, season)
    if as_json:
        return _print_json({"championship": key, "season": exchange.season_json(journal, season)})
    print(f"{ledger.title(key)} season {season.label()}"
          + (f", each driver's {season.drop} worst dropped" if season.drop else ""))
    print(f"  {'':>3} {'':<16} {'pts':>4} {'races':>5} {'out':>3} {'DNS':>3}")
    for r in rows:
        print(f"  {r['position']:>2}. {r['name']:<16} {r['points']:>4} {r['races']:>5} {r['out']:>3} "
              f"{r['did_not_start']:>3}")
    for line in seasons.dropped_note(rows):
        print(f"  dropped: {line}")
    from companion.league import steward
    for race in steward.season_corrections(journal, key, season.name):
        which = f"race {race['number']}" if race["number"] else "a race"
        for line in race["notes"]:
            print(f"  {which} ({ledger.when(race['started'])}, {race['race'][:8]}): {line}")
    _team_lines(journal, season)
    return 0


def _team_lines(journal, season) -> None:
    from companion.league import teams

    rows = teams.table(journal, season)
    if rows:
        print("  Teams:")
    for t in rows:
        print(f"  {t['position']:>2}. {t['name']:<16} {t['points']:>4}  ({', '.join(t['drivers'])})")


def _find_season(journal, key: str, name: str):
    from companion.league import seasons

    try:
        return seasons.find(journal, key, name)
    except seasons.SeasonError as exc:
        raise CommandError(str(exc)) from None


def _teams(journal, key: str, name: str, specs: list[str]) -> int:
    """``--season NAME --teams TEAM...``: the season's teams, an event in the journal."""
    from companion.league import teams

    season = _find_season(journal, key, name)
    if journal.read_only:
        raise CommandError("the journal is read-only here: teams are written to it; nothing was changed")
    try:
        made = teams.parse(specs)
    except teams.TeamsError as exc:
        raise CommandError(str(exc)) from None
    teams.declare(journal, season, made)
    if not made:
        print(f"Season {season.name} has no teams now")
        return 0
    print(f"Season {season.name}: {len(made)} teams")
    _team_lines(journal, season)
    return 0


def _html(journal, key: str, name: str, path: str) -> int:
    """``--season NAME --html FILE``: the season's page, one self-contained file."""
    from pathlib import Path

    from companion.league import page

    season = _find_season(journal, key, name)
    try:
        Path(path).write_text(page.season_page(journal, season), encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None
    print(f"Wrote {path}")
    return 0


def _driver(journal, name: str, as_json: bool) -> int:
    from companion.league import ledger, record

    try:
        rec = record.find(journal, name)
    except LookupError as exc:
        raise CommandError(str(exc)) from None
    if as_json:
        return _print_json({"driver": rec.as_json()})
    print(f"{rec.name}: {', '.join(rec.lines())}")
    for won in rec.seasons_won:
        print(f"  won {won}")
    for game, n in rec.games.items():
        print(f"  {ledger.title(game)}: {n} race{'' if n == 1 else 's'}")
    return 0


def _merge(journal, name: str, into: str | None) -> int:
    """``--merge NAME INTO``, or with ``into`` None ``--unmerge NAME``."""
    from companion.league import record

    if journal.read_only:
        raise CommandError("the journal is read-only here: a merge is written to it; nothing was changed")
    try:
        if into is None:
            name = name.strip()
            was = record.unmerge(journal, name)
            print(f"{name} is a driver of their own again, no longer counted as {was}")
            return 0
        name, into = name.strip(), into.strip()
        record.merge(journal, name, into)
    except LookupError as exc:
        raise CommandError(str(exc)) from None
    print(f"{name} counts as {into} from now on (the races stay as they were run)")
    return 0


def _csv(journal, folder: str) -> int:
    from companion.league import exchange

    try:
        written = exchange.write_csv(journal, folder)
    except OSError as exc:
        raise CommandError(f"cannot write into {folder}: {exc.strerror or exc}") from None
    print(f"Wrote {', '.join(str(p) for p in written)}")
    return 0


def receipt_asked(journal, args):
    """``companion print driver --name NAME`` and ``companion print championship --season
    NAME``: the record's or the season's receipt (a finished season's final standings)."""
    from companion.league import ledger, paper, record, seasons

    if args.what == "driver":
        if not args.name:
            raise CommandError("which driver? `companion print driver --name NAME`")
        try:
            return record.receipt(record.find(journal, args.name))
        except LookupError as exc:
            raise CommandError(str(exc)) from None
    key = _key(journal, _game_with(journal, args.season))
    try:
        season = seasons.find(journal, key, args.season)
    except seasons.SeasonError as exc:
        raise CommandError(str(exc)) from None
    every = seasons.seasons(journal, key)
    made = paper.season_receipt(journal, season, final=season.complete() or season.name != every[-1].name)
    if made is None:
        raise CommandError(f"season {season.name} of {ledger.title(key)} has no race yet: nothing to print")
    return made
