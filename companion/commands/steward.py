"""``companion race ...`` and ``companion season ...``: a club's mistakes put right, each change
an event in the journal that ``companion race undo`` takes back (``companion.league.steward``;
docs/club-corrections.md)."""

from __future__ import annotations

from companion.commands import CommandError

UNDO_HINT = "`companion race undo` takes it back"


def register(sub) -> None:
    race = sub.add_parser("race", help="list the finished races; void, move, correct or penalise one")
    race.set_defaults(func=lambda args: race.print_help() or 0)
    verbs = race.add_subparsers(dest="verb")

    def verb(name: str, help: str, func):
        p = verbs.add_parser(name, help=help)
        p.add_argument("--state", metavar="DIR", help="the companion's state directory")
        p.set_defaults(func=func)
        return p

    p = verb("list", "the finished races with their ids, game, season, time and winner", race_list)
    p.add_argument("--season", metavar="NAME", help="only this season's races")
    p = verb("void", "count a race nowhere (it stays in the journal, listed as voided)", race_void)
    p.add_argument("id", metavar="ID", help="the race's id, or enough of its start to name it alone")
    p.add_argument("--reason", metavar="TEXT", required=True, help="why (printed with the race)")
    p = verb("unvoid", "count a voided race again", race_unvoid)
    p.add_argument("id", metavar="ID")
    p = verb("move", "count a race in another season of its game", race_move)
    p.add_argument("id", metavar="ID")
    p.add_argument("--season", metavar="NAME", required=True, help="the season it counts in")
    p = verb("correct", "correct a driver's place (points scored again) or a mis-typed name in one race",
             race_correct)
    p.add_argument("id", metavar="ID")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--place", nargs=2, metavar=("NAME", "N"), help="NAME finished in place N")
    what.add_argument("--name", nargs=2, metavar=("OLD", "NEW"), help="the name OLD was meant to be NEW")
    p.add_argument("--reason", metavar="TEXT", default="", help="why (printed with the race)")
    p = verb("penalty", "take POINTS from NAME in one race (a negative number gives them back)", race_penalty)
    p.add_argument("id", metavar="ID")
    p.add_argument("name", metavar="NAME")
    p.add_argument("points", metavar="POINTS", type=int)
    p.add_argument("--reason", metavar="TEXT", required=True, help="why (printed with the race)")
    verb("undo", "take back the newest change to a race or a season", undo)

    season = sub.add_parser("season", help="start, rename or set a season")
    season.set_defaults(func=lambda args: season.print_help() or 0)
    verbs = season.add_subparsers(dest="verb")
    p = verb("new", "start a season of a game: the races started from now on count in it", season_new)
    p.add_argument("name", metavar="NAME")
    p.add_argument("--game", metavar="GAME", required=True, help="the game (its slug: formula-de, top-speed...)")
    p.add_argument("--races", metavar="N", type=_races, default=None, help="how many races (default: open)")
    p.add_argument("--drop", metavar="N", type=int, default=0, help="each driver's worst results left out")
    p = verb("rename", "give a season another name", season_rename)
    p.add_argument("old", metavar="OLD")
    p.add_argument("new", metavar="NEW")
    p.add_argument("--game", metavar="GAME", help="the game, where several have a season called OLD")
    p = verb("set", "set a season's race count or drop (never fewer races than it holds)", season_set)
    p.add_argument("name", metavar="NAME")
    p.add_argument("--races", metavar="N", type=_races, default=None, help="how many races (open: no set number)")
    p.add_argument("--drop", metavar="N", type=int, default=None, help="each driver's worst results left out")
    p.add_argument("--game", metavar="GAME", help="the game, where several have a season called NAME")


def _races(text: str) -> int | str:
    if text.strip().casefold() == "open":
        return "open"
    try:
        return int(text)
    except ValueError:
        import argparse
        raise argparse.ArgumentTypeError(f"a number of races, or open, not '{text}'") from None


def _journal(args):
    from companion.commands.journal import open_journal
    return open_journal(args.state)


def _made(args, do) -> int:
    """Run ``do(journal)`` (a change): print what it says, or the reason it was not made."""
    from companion.league import steward
    with _journal(args) as journal:
        if journal.read_only:
            raise CommandError("the journal is read-only here: a change is written to it; nothing was changed")
        try:
            said = do(journal)
        except steward.CorrectionError as exc:
            raise CommandError(str(exc)) from None
    print(said)
    return 0


def _race(journal, given: str):
    from companion.league import corrections
    try:
        return corrections.find_race(journal, given)
    except corrections.CorrectionError as exc:
        raise CommandError(str(exc)) from None


def race_list(args) -> int:
    from companion.league import corrections, ledger, seasons

    with _journal(args) as journal:
        rows = []
        for game in seasons.games(journal):
            for season in seasons.seasons(journal, game):
                if args.season and season.name.casefold() != args.season.strip().casefold():
                    continue
                rows += [(s, game, season.name, False) for s in season.sessions]
                rows += [(s, game, season.name, True) for s in season.voided]
        if args.season and not rows and not any(
                s.name.casefold() == args.season.strip().casefold()
                for g in seasons.games(journal) for s in seasons.seasons(journal, g)):
            raise CommandError(f"no season '{args.season}'; see `companion results --seasons`")
        rows.sort(key=lambda r: ledger.finish_order(r[0]))
        short = corrections.short_ids(journal, [r[0] for r in rows])
        if not rows:
            print("No finished race yet." if not args.season else f"Season {args.season} has no race yet.")
            return 0
        width = max(len(ledger.title(g)) for _, g, _, _ in rows)
        for s, game, name, voided in rows:
            said = corrections.said(journal, s)
            standings = s.results["standings"]
            winner = str(standings[0]["name"]) if standings else "-"
            mark = f"  {said[0]}" if voided else ("  (corrected)" if any(n.startswith(("corrected", "penalty"))
                                                                        for n in said) else "")
            print(f"{short[s.id]:<8}  {ledger.title(game):<{width}}  {name:<16}  {ledger.when(s.started)}  "
                  f"{winner}{mark}")
    return 0


def race_void(args) -> int:
    from companion.league import steward
    return _made(args, lambda j: f"Voided race {_id(steward.void(j, _race(j, args.id), args.reason))} "
                                 f"({args.reason.strip()}): it counts nowhere; {UNDO_HINT}")


def race_unvoid(args) -> int:
    from companion.league import steward
    return _made(args, lambda j: f"Race {_id(steward.unvoid(j, _race(j, args.id)))} counts again; {UNDO_HINT}")


def race_move(args) -> int:
    from companion.league import steward
    return _made(args, lambda j: _moved(steward.move(j, _race(j, args.id), args.season)))


def _moved(event) -> str:
    return f"Race {_id(event)} counts in season {event['season']} now; {UNDO_HINT}"


def race_correct(args) -> int:
    from companion.league import corrections, steward

    def do(journal):
        session = _race(journal, args.id)
        if args.place:
            name, place = args.place
            try:
                n = int(place)
            except ValueError:
                raise CommandError(f"a place is a number, not '{place}'") from None
            event = steward.correct_place(journal, session, name, n, args.reason)
        else:
            event = steward.correct_name(journal, session, *args.name, reason=args.reason)
        return f"Race {_id(event)} {corrections.said(journal, session)[-1]}; {UNDO_HINT}"
    return _made(args, do)


def race_penalty(args) -> int:
    from companion.league import corrections, steward

    def do(journal):
        session = _race(journal, args.id)
        event = steward.penalty(journal, session, args.name, args.points, args.reason)
        return f"Race {_id(event)} {corrections.said(journal, session)[-1]}; {UNDO_HINT}"
    return _made(args, do)


def undo(args) -> int:
    from companion.league import steward
    return _made(args, lambda j: f"Taken back: {steward.describe(steward.undo(j))}")


def _id(event) -> str:
    return str(event.get("race", ""))[:8]


def _game(journal, given: str | None, season: str) -> str:
    """The game of season ``season``: ``given``, else the one game that has a season of that name."""
    from companion.league import seasons
    if given:
        return _known_game(journal, given)
    having = [g for g in seasons.games(journal)
              if any(s.name.casefold() == season.strip().casefold() for s in seasons.seasons(journal, g))]
    if len(having) != 1:
        raise CommandError(f"no season '{season}' of any game" if not having else
                           f"several games have a season '{season}' ({', '.join(having)}): say which with --game GAME")
    return having[0]


def _known_game(journal, given: str) -> str:
    from companion.games import registry
    from companion.league import seasons
    known = list(dict.fromkeys([*registry.GAMES, *seasons.games(journal)]))
    if given not in known:
        raise CommandError(f"no game '{given}'; games: {', '.join(known)}")
    return given


def season_new(args) -> int:
    from companion.league import ledger, steward

    def do(journal):
        game = _known_game(journal, args.game)
        races = None if args.races == "open" else args.races
        event = steward.new_season(journal, game, args.name, races=races, drop=args.drop)
        return f"Season {event['name']} of {ledger.title(game)} started: the races started from now on count in it; " \
               f"{UNDO_HINT}"
    return _made(args, do)


def season_rename(args) -> int:
    from companion.league import steward

    def do(journal):
        event = steward.rename_season(journal, _game(journal, args.game, args.old), args.old, args.new)
        return f"Season {event['from']} is called {event['to']} now; {UNDO_HINT}"
    return _made(args, do)


def season_set(args) -> int:
    from companion.league import seasons, steward

    def do(journal):
        if args.races is None and args.drop is None:
            raise CommandError("set what? --races N (or open) and/or --drop N")
        game = _game(journal, args.game, args.name)
        races = None if args.races in (None, "open") else args.races
        event = steward.set_season(journal, game, args.name, races, args.drop, open_ended=args.races == "open")
        season = seasons.find(journal, game, event["name"])
        return f"Season {season.label()}, drop {season.drop}; standings counted again; {UNDO_HINT}"
    return _made(args, do)
