"""The lap counter: the activity the registry loads."""

from companion.games.api import Activity, Demo
from companion.tools.lap_counter import autoplay, public, rules, screens

ACTIVITY = Activity(
    slug="laps", kind="tool", options=rules.OPTIONS, data="game-option",
    setup=rules.setup, moves=rules.moves, resolve=rules.resolve, apply=rules.apply,
    finished=rules.finished, standings=rules.standings, summary=rules.summary,
    describe=rules.describe, view=screens.view, receipts=screens.receipts,
    public=public.public,
    key=screens.KEY,
    demo=Demo(autoplay.DEMO_OPTIONS, autoplay.demo_script, autoplay.DEMO_SEED),
)
