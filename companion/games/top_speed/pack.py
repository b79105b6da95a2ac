"""Top Speed as the companion plays it: the activity the registry loads."""

from companion.games.api import TURN_TIMER, Activity, Demo
from companion.games.top_speed import autoplay, public, rules, screens, settings

ACTIVITY = Activity(
    slug="top-speed", kind="game", options=(*rules.OPTIONS, TURN_TIMER),
    setup=rules.setup, moves=rules.moves, resolve=rules.resolve, apply=rules.apply,
    finished=rules.finished, standings=rules.standings, summary=rules.summary,
    describe=rules.describe, check_data=settings.check_data, view=screens.view, receipts=screens.receipts, decisions=screens.decisions,
    public=public.public, chart=public.chart,
    key=screens.KEY,
    demo=Demo(autoplay.DEMO_OPTIONS, autoplay.demo_script, autoplay.DEMO_SEED),
)
