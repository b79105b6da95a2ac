"""The deck shuffler: the activity the registry loads. Like the dice roller it has no
program, no end and no results."""

from companion.games.api import Activity, Demo
from companion.tools.deck_shuffler import autoplay, public, rules, screens

ACTIVITY = Activity(
    slug="deck", kind="tool", options=rules.OPTIONS, data="game-option",
    setup=rules.setup, moves=rules.moves, resolve=rules.resolve, apply=rules.apply,
    finished=rules.finished, standings=rules.standings, summary=rules.summary,
    describe=rules.describe, view=screens.view, receipts=screens.receipts,
    public=public.public,
    demo=Demo(autoplay.DEMO_OPTIONS, autoplay.demo_script, autoplay.DEMO_SEED),
    session="session", pause=("continue", "history", "undo", "home"),
)
