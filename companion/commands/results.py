"""``companion results``: the last race's results and the championship, from the journal."""

from __future__ import annotations

import json

from companion.commands import CommandError
from companion.commands.journal import open_journal
from companion.core.names import counted


def register(sub) -> None:
    p = sub.add_parser("results", help="show the last results and the championship")
    p.add_argument("--state", metavar="DIR", help="the companion's state directory")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--championship", metavar="KEY", help="which championship (default: the last race's)")
    from companion.commands import club
    club.register_options(p)
    p.set_defaults(func=show)


def show(args) -> int:
    from companion.league import ledger, paper, seasons

    from companion.commands import club
    if club.asked(args):
        return club.show(args)
    with open_journal(args.state) as journal:
        club.say_unshown(journal)
        last = ledger.last_finished(journal)
        if last is not None:
            from companion.league import corrections
            changed = corrections.of(journal, last)
            said, last = corrections.notes(last, changed), corrections.corrected(last, changed)
        key, standings = seasons.shown_table(journal, args.championship)
        if args.championship and not standings:
            keys = sorted({k for k in map(ledger.key_of, ledger.finished(journal)) if k})
            raise CommandError(f"no championship '{args.championship}'; available: {', '.join(keys) or 'none'}")
        open_session = journal.open_session()
        aside = journal.aside_sessions()
        if args.json:
            from companion.league import exchange
            print(json.dumps({
                "schema": exchange.SCHEMA,
                "last": last.results if last else None,
                "last_changes": said if last else [],
                "championship": {"key": key, "races": seasons.race_count(journal, key),
                                 "season": seasons.shown(journal, key).name if key else None,
                                 "standings": standings},
                "running": open_session.activity if open_session else None,
                "aside": [{"activity": s.activity, "started": s.started} for s in aside],
            }, indent=2, ensure_ascii=False))
            return 0
        if open_session:
            said = running(open_session)
            print(f"{said[0].upper()}{said[1:]} (started {_when(open_session.started)})")
        for session in aside:     # unfinished, counted nowhere until taken up and finished
            print(f"Put aside: {ledger.title(session.activity)} (started {_when(session.started)})")
        if last is None and not key:
            print("No finished race yet.")
            return 0
        if last is None:
            print("No race finished on this box yet: its races were imported.")
        else:
            _last_race(journal, last)
            for line in said:
                print(f"  {line}")
        count = seasons.race_count(journal, key)
        print(f"Championship {ledger.title(key)}, season {seasons.shown(journal, key).name}: {counted(count, 'race')}")
        for row in standings:
            print(f"  {row['position']:>2}. {row['name']:<16} {row['points']:>4}")
    return 0


def _last_race(journal, last) -> None:
    """The box's last race and its standings."""
    from companion.league import ledger, paper, seasons

    number, held = seasons.race_number(journal, last), len(ledger.session_races(last))
    which = f", race {number} of season {seasons.season_of(journal, last).name}" if number > 1 else ""
    last_what = "Last race"
    if held > 1:        # a season played in one session: its races, its totals below
        which = f", races {number}-{number + held - 1} of its championship"
        last_what = "Last season"
    print(f"{last_what}: {paper.activity_title(last.activity, last.options)}{which} "
          f"({_when(last.finished)})")
    for row in last.results["standings"]:
        print(f"  {row['position']:>2}. {row['name']:<16} {row.get('points', 0):>4}")
    _thinking(last.results.get("thinking"))


def _thinking(rows) -> None:
    """Each driver's thinking time, in a race run with the turn timer (docs/turn-timer.md);
    a row this version cannot read is left out."""
    from companion.core.turnclock import duration

    rows = [r for r in rows or () if isinstance(r, dict) and isinstance(r.get("total_s"), (int, float))
            and isinstance(r.get("longest_s"), (int, float))]
    if rows:
        print("  Thinking time (longest turn):")
    for row in rows:
        print(f"      {str(row.get('name', '?')):<16} {duration(row['total_s']):>7} ({duration(row['longest_s'])})")


def running(session) -> str:
    """How the command line names a session still open: "a session is running: Dice roller"."""
    from companion.league import ledger

    return f"a {_noun(session.activity)} is running: {ledger.title(session.activity)}"


def _noun(slug: str) -> str:
    """What a session of ``slug`` is called ("race", "session")."""
    from companion.games import registry
    try:
        return registry.activity(slug).session
    except LookupError:
        return "race"


def _when(ts: float | None) -> str:
    import time
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts)) if ts else "?"
