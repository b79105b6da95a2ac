"""Formula Dé as the companion plays it: the activity the registry loads."""

from companion.games.api import TURN_TIMER, Activity, Demo
from companion.games.formula_de import autoplay, public, rules, screens, settings

ACTIVITY = Activity(
    slug="formula-de", kind="game", options=(*rules.OPTIONS, TURN_TIMER), car_options=rules.CAR_OPTIONS,
    setup=rules.setup, moves=rules.moves, resolve=rules.resolve, apply=rules.apply,
    finished=rules.finished, standings=rules.standings, summary=rules.summary,
    describe=rules.describe, view=screens.view, receipts=screens.receipts,
    decisions=screens.decisions, check_data=settings.check,
    public=public.public, chart=public.chart,
    key=screens.KEY,
    demo=Demo(autoplay.DEMO_OPTIONS, autoplay.demo_script, autoplay.DEMO_SEED),
)
