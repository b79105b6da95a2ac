"""The dice roller: the activity the registry loads. A roller has no program, no end
and no results: its pause menu offers only what makes sense for it."""

from companion.games.api import Activity, Demo
from companion.tools.dice_roller import autoplay, public, rules, screens

ACTIVITY = Activity(
    slug="dice", kind="tool", options=rules.OPTIONS, data="game-option",
    setup=rules.setup, moves=rules.moves, resolve=rules.resolve, apply=rules.apply,
    finished=rules.finished, standings=rules.standings, summary=rules.summary,
    describe=rules.describe, view=screens.view, receipts=screens.receipts,
    public=public.public,
    key=screens.key,
    demo=Demo(autoplay.DEMO_OPTIONS, autoplay.demo_script, autoplay.DEMO_SEED),
    session="session", pause=("continue", "history", "undo", "home"),
)
