"""The views whose renders are kept as reference PNGs in tests/ui/reference/.

Regenerate the PNGs after a deliberate change to the font or the layout, then look at
each of them before committing:

    python -m tests.ui.make_reference            # writes tests/ui/reference/<name>.png
"""

from __future__ import annotations

from pathlib import Path

from companion.games.api import Option
from companion.ui import screens
from companion.ui.view import Bar, Big, Row, Text, View

REFERENCE = Path(__file__).parent / "reference"

CASES: dict[str, View] = {
    "big_roll": View(title="3-Wide", status="L12", body=(Big("5xs", caption="black tire die"),),
                     footer="< Roll black >"),
    "card": View(title="Street Illegal", status="7 left",
                 body=(Big("Full throttle", caption="tempo 50 \u00b7 uphill"),), footer="< DRAW >"),
    "race_order": View(title="Race order", status="L3/5", body=(
        Row("1 Red", "12 pts", invert=True), Row("2 Blue", "8 pts"), Row("3 Yellow", "6 pts"),
        Row("4 Green", "4 pts"))),
    "menu_scrolled": screens.main_menu(
        ["Street Illegal", "3-Wide", "Formula D\u00e9", "Lacorsa", "Top Speed", "Dice roller",
         "Deck shuffler", "Lap counter"], selected=5),
    "wizard_choice": screens.options_wizard(
        Option("weather", "Weather", choices=(("dry", "Dry"), ("wet", "Wet"), ("roll", "Roll at start"))),
        "wet", 1, 4),
    "wizard_number": screens.options_wizard(
        Option("players", "Players", kind="players", low=2, high=10, default=4), 6, 0, 4),
    "alert": View(title="Formula D\u00e9", status="PAPER!", body=(Big("17", caption="gear 5"),),
                  footer="< Roll gear 5 >",
                  alert="Printer out of paper. Load a new roll and press OK."),
    "long_text": View(title="A very long title that cannot fit at all", status="12/99", body=(
        Text("This line is much too long for the screen"),
        Text("Centred", size=2, align="center"),
        Text("Right", align="right", invert=True)), footer="A hint that is far too long to fit"),
    "dashboard": View(title="Car 3 Yellow", status="L2", body=(
        Bar("Fuel", 5, 8), Bar("Tires", 2, 6), Row("Damage", "1"), Text("Pit next lap", align="center")),
        footer="< Pit stop >"),
    "history": screens.history(["Start race", "Red rolls 5xs", "Blue rolls 4!", "Red draws 30",
                                "Blue rolls 6xx"], undone={3}),
    "confirm": screens.confirm("Leave the race? It stays saved and can be resumed."),
    "accents": View(title="\u00c9tape \u00e0 Gen\u00e8ve", body=(
        Text("Fa\u00e7ade na\u00efve \u00fcber"), Text("Stra\u00dfe \u00c4\u00d6\u00dc \u00b0 \u00d7 \u2713"),
        Text("\u4e2d? tab\there"))),
}


def main() -> None:
    from companion.ui.render import render
    REFERENCE.mkdir(exist_ok=True)
    for name, view in CASES.items():
        render(view).save(REFERENCE / f"{name}.png")
        print(REFERENCE / f"{name}.png")


if __name__ == "__main__":
    main()
