"""Receipts the printer tests share: a race's results as a game would print them."""

from companion.receipts.model import Columns, Feed, Line, Receipt, Rule


def results_receipt() -> Receipt:
    return Receipt(
        kind="results",
        title="Formula Dé - Results",
        items=(
            Line("Monaco, 2 laps", align="center"),
            Line("12 Oct 2025 20:41", align="center"),
            Rule(),
            Line("WINNER", bold=True, size=2, align="center"),
            Line("Anna (red)", bold=True, size=2, align="center"),
            Feed(),
            Columns(("Pos", "Driver", "Pts"), (4, 22, 6), bold=True),
            Rule("="),
            Columns(("1", "Anna (red)", "15"), (4, 22, 6)),
            Columns(("2", "Björn (blue)", "11"), (4, 22, 6)),
            Columns(("3", "Chloé (green)", "8"), (4, 22, 6)),
            Columns(("4", "Old Pro #1", "6"), (4, 22, 6)),
            Columns(("5", "Dmitri (yellow)", "4"), (4, 22, 6)),
            Columns(("6", "Eve (white)", "2"), (4, 22, 6)),
            Rule(),
            Line("Fastest lap: Björn"),
            Line("Most laps led: Anna (+2)"),
            Line("Thanks for racing!", align="right"),
        ),
    )
