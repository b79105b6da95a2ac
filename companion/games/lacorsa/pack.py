"""Lacorsa as the companion plays it: the activity the registry loads."""

from companion.games.api import TURN_TIMER, Activity, Demo
from companion.games.lacorsa import autoplay, public, rules, screens

ACTIVITY = Activity(
    slug="lacorsa", kind="game", options=(*rules.OPTIONS, TURN_TIMER), car_options=rules.CAR_OPTIONS,
    setup=rules.setup, moves=rules.moves, resolve=rules.resolve, apply=rules.apply,
    finished=rules.finished, standings=rules.standings, summary=rules.summary,
    check_data=rules.check_data, describe=rules.describe,
    view=screens.view, receipts=screens.receipts, decisions=screens.decisions,
    public=public.public, chart=public.chart, secret=public.secret, public_words=public.public_words,
    key=screens.KEY,
    demo=Demo(autoplay.DEMO_OPTIONS, autoplay.demo_script, autoplay.DEMO_SEED),
)
