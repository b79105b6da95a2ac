"""Street Illegal as the companion plays it: the activity the registry loads."""

from companion.games.api import TURN_TIMER, Activity, Demo
from companion.games.street_illegal import autoplay, public, rules, screens, track

ACTIVITY = Activity(
    slug="street-illegal", kind="game", options=(*rules.OPTIONS, TURN_TIMER),
    setup=rules.setup, moves=rules.moves, resolve=rules.resolve, apply=rules.apply,
    finished=rules.finished, standings=rules.standings, summary=rules.summary, describe=rules.describe,
    championship_entries=rules.championship_entries, check_data=track.check_data,
    view=screens.view, receipts=screens.receipts, decisions=screens.decisions,
    public=public.public, chart=public.chart, secret=public.secret, public_words=public.public_words,
    key=screens.KEY,
    demo=Demo(autoplay.DEMO_OPTIONS, autoplay.demo_script, autoplay.DEMO_SEED),
)
