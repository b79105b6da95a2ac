"""3-Wide as the companion plays it: the activity the registry loads."""

from companion.games.api import TURN_TIMER, Activity, Demo
from companion.games.three_wide import autoplay, public, rules, screens, tables

ACTIVITY = Activity(
    slug="3-wide", kind="game", options=(*rules.OPTIONS, TURN_TIMER), car_options=rules.CAR_OPTIONS,
    setup=rules.setup, moves=rules.moves, resolve=rules.resolve, apply=rules.apply,
    finished=rules.finished, standings=rules.standings, summary=rules.summary,
    describe=rules.describe, championship_entries=rules.championship_entries,
    championship_of="players", view=screens.view, receipts=screens.receipts,
    decisions=screens.decisions, check_data=tables.check,
    public=public.public, chart=public.chart_order, secret=public.secret, public_words=public.public_words,
    key=screens.KEY,
    demo=Demo(autoplay.DEMO_OPTIONS, autoplay.demo_script, autoplay.DEMO_SEED),
)
