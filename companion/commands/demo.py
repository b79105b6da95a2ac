"""``companion demo``: a scripted race through the whole stack, written to a folder."""

from __future__ import annotations

from companion.commands import CommandError


def register(sub) -> None:
    from companion.games.registry import GAMES, TOOLS

    p = sub.add_parser("demo", help="play a scripted race through the whole stack into a folder")
    p.add_argument("--game", metavar="SLUG",
                   help=f"which game or tool: {', '.join([*GAMES, *TOOLS])} (default top-speed)")
    p.add_argument("--out", required=True, metavar="DIR", help="where frames, receipts and results.json go")
    p.add_argument("--seed", type=int, help="seed for the dice and decks (default: the game's demo seed)")
    p.add_argument("--timer", metavar="TIMER", help="run the race with a turn timer: turn-30, turn-60, turn-90, "
                   "turn-120, chess-600, chess-1200 or chess-1800 (default: off)")
    p.set_defaults(func=demo)


def demo(args) -> int:
    from companion.demo import DemoError, run_demo
    from companion.games.registry import NotPlayable, UnknownName

    try:
        summary = run_demo(args.game, args.out, args.seed, args.timer)
    except (UnknownName, NotPlayable, DemoError, ValueError) as exc:
        raise CommandError(str(exc).strip("'\"")) from None
    winner = summary["standings"][0]["name"] if summary.get("standings") else "-"
    print(f"{summary['game']}: {summary['moves']} moves, {summary['frames']} frames, "
          f"{len(summary['receipts'])} receipts; winner {winner}. Written to {args.out}")
    return 0
