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
