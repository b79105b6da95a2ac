"""Words a new player reads whole: no "-0.0" on the table screen, a circuit's lap never
broken across the program's lines."""

from companion.games import registry
from companion.games.formula_de import screens
from companion.games.formula_de.public import tire_words
from companion.receipts.model import Line


def test_tire_wear_never_reads_minus_zero():
    assert tire_words(0.0) == "no tire wear" and tire_words(0.04) == "no tire wear"
    assert tire_words(0.36) == "tires -0.4 WP"


def test_the_program_says_a_laps_spaces_on_one_line():
    act = registry.activity("formula-de")
    from companion.games import data
    state = act.setup(dict(act.demo.options), data.load("formula-de"))
    texts = [i.text for i in screens.program(state).items if isinstance(i, Line)]
    lap = [t for t in texts if "spaces" in t and "lap" in t.lower()]
    assert lap and all(t.startswith("A lap: ") and t.endswith(" spaces") for t in lap), texts


def test_the_car_question_says_standard_car_not_a_code():
    from companion.games.formula_de import rules
    (build,) = [o for o in rules.CAR_OPTIONS if o.key == "build"] if hasattr(rules, "CAR_OPTIONS") else \
        [o for o in registry.activity("formula-de").car_options if o.key == "build"]
    labels = [label for _, label in build.choices]
    assert labels[0] == "Standard car" and not any(label.endswith(" WP") for label in labels)


def _texts(view) -> list[str]:
    from companion.ui.view import Big, Menu, Text
    out = [view.title, view.status]
    for w in view.body:
        out += list(w.items) if isinstance(w, Menu) else [w.text, w.caption] if isinstance(w, Big) else \
            [w.text] if isinstance(w, Text) else []
    return out


def test_a_cars_name_reads_the_same_on_every_screen_and_the_last_move_in_words():
    """A car named "Bn" is "Bn" in the title, the last move's line, the round's list and
    the results (never "BN"), and the last move says who moved where in words, not
    "PIN: 1 to sp 1"."""
    import random
    from tests.games.formula_de.helpers import data
    from companion.games.formula_de import rules as R
    act = registry.activity("formula-de")
    cars = [{"name": "Bn", "driver": "human"}, {"name": "Pink", "driver": "human"}]
    state = R.setup({"players": cars, "weather": "good"}, data())
    rng = random.Random(3)
    seen: list[str] = []
    for _ in range(400):
        seen += _texts(screens.view(state))
        if R.finished(state):
            break
        state = act.apply(state, act.resolve(state, act.demo.script(state), rng))
    words = " ".join(seen)
    assert "Bn" in seen and "BN" not in words.split() and "PIN" not in words and "Pink" in words
    moved = [t for t in seen if " moved " in t]
    assert moved and all(t.split(" moved ")[0] in ("Bn", "Pink") for t in moved), moved
    assert all(len(t) <= 21 for t in moved)


def test_the_dashboard_is_said_in_words_under_the_grid_and_each_rounds_list():
    from tests.games.formula_de.helpers import started
    from companion.games.formula_de import rules as R
    state = started(3)
    for lines in (screens.round_lines(state), screens.grid_lines(state) + list(screens.DASHBOARD_WORDS)):
        assert "WP: wear points left" in lines and "E engine  H handling" in lines
    grid = screens._grid_view(R.evolve(state, phase=R.GRID))
    assert "T tires  B brakes" in _texts(grid) and "G gearbox  C body" in _texts(grid)
    assert all(len(line) <= 20 for line in screens.DASHBOARD_WORDS)
