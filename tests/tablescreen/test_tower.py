"""What every pack tells the table screen's timing tower about its cars: each car's row
(the few numbers that matter in that game, short enough for a phone) and its state, all
through each activity's demo race; once the race is over, every car reads its final
state and nothing still reads as racing. The chart's axis is the game's own word."""

import re

import pytest

from companion.core.names import counted
from companion.games import registry
from companion.games.lacorsa import rules as LR
from companion.kit.cars import COLOURS
from companion.kit.dashboard import CELL_CHARS, FINISHED, ROW_CELLS
from companion.table.public import public_view

from tests.tablescreen.conftest import race

ALL = [e.slug for e in registry.playable()]
FINAL = {FINISHED, "out", "demolished", "crashed"}
"""The states a car may end a race in."""
RACING = ("drawing", "none yet")
"""Words that say a car is still in a round: never once the race is over."""
SEEN = {  # slug: states the demo race shows on its way (a car in each of them at some step)
    "top-speed": {"", "passed", "bust", "in the pits", FINISHED},
    "formula-de": {"", "out", "in the pits", FINISHED},
    "3-wide": {"", "in the pits", FINISHED},
    "street-illegal": {"", "attacking", "defending", "out this phase", FINISHED},
    "lacorsa": {"", "challenging", "defending", FINISHED},
    "laps": {"", FINISHED},
}
DRAWABLE = {c.casefold() for c in COLOURS}
"""The colour words the page draws."""


def words(car: dict) -> list[str]:
    """Everything a car's dashboard says: its note, state, row and widgets."""
    out = [car["note"], car["state"], *car["row"]]
    for w in car["widgets"]:
        out.append(w["label"])
        if "value" in w:
            out.append(str(w["value"]))
        out += [str(i["text"]) for i in w.get("items", ())]
    return out


def check_cars(view: dict, where: str) -> None:
    assert re.fullmatch(r"[a-z]+( [a-z]+)?", view["axis"]), f"{where}: axis {view['axis']!r}"
    assert isinstance(view["order_note"], str)
    for car in view["cars"]:
        row, state = car["row"], car["state"]
        assert isinstance(row, list) and len(row) <= ROW_CELLS, f"{where}: {car['name']} row {row}"
        for cell in row:
            assert isinstance(cell, str) and 0 < len(cell) <= CELL_CHARS and not cell.endswith("\u2026"), \
                f"{where}: {car['name']} row {row}: {cell!r} does not fit"
        assert isinstance(state, str) and len(state.split()) <= 3, f"{where}: {car['name']} state {state!r}"
        labels = [w["label"] for w in car["widgets"]]
        assert len(set(labels)) == len(labels), f"{where}: {car['name']} has two widgets called alike: {labels}"
        assert car["colour"].casefold() in DRAWABLE, f"{where}: {car['name']}'s colour {car['colour']!r}"
        for w in car["widgets"]:
            for chip in w["items"] if w["kind"] == "chips" else ():
                assert chip["colour"].casefold() in DRAWABLE, f"{where}: chip colour {chip['colour']!r}"


@pytest.mark.parametrize("slug", ALL)
def test_every_car_has_a_row_and_a_state_and_reads_its_end(state_dir, slug):
    app = race(state_dir, slug, 0)
    act = registry.activity(slug)
    states, laps = set(), []
    for step in range(3000):
        if step % 3 == 0:
            view = public_view(act, app.runner.state)
            check_cars(view, f"{slug} step {step}")
            states |= {c["state"] for c in view["cars"]}
            laps.append(view["lap"])
        move = act.demo.script(app.runner.state)
        if move is None or app.runner.session.finished is not None:
            break
        app.perform(move)
    view = public_view(act, app.runner.state)
    check_cars(view, f"{slug} at the end")
    states |= {c["state"] for c in view["cars"]}
    if slug == "dice":
        assert view["cars"] == [] and view["notes"], "the dice roller shows its rolls, no cars"
    elif not view["finished"]:
        assert slug == "deck", f"the {slug} demo race did not finish"
    else:
        for car in view["cars"]:
            said = words(car)
            assert not [w for w in said if any(r in w for r in RACING)], f"{slug}: {car['name']} still racing: {said}"
            assert car["state"] in FINAL, f"{slug}: {car['name']} ends the race {car['state']!r}"
        assert view["lap"] >= max(laps), f"{slug}: the chart's last {view['axis']} {view['lap']} is behind {max(laps)}"
    assert all(c["row"] for c in view["cars"]), f"{slug}: a car without its numbers"
    assert view["axis"] == {"street-illegal": "track card", "3-wide": "turn"}.get(slug, "lap"), "what the lap chart counts"
    assert states >= SEEN.get(slug, set()), f"{slug}: states seen {states}"


def test_street_illegal_counts_track_cards_and_says_what_orders_the_field(state_dir):
    app = race(state_dir, "street-illegal", 3000, until=lambda s: s.step == "race" and s.card >= 2)
    view = public_view(registry.activity("street-illegal"), app.runner.state)
    assert view["axis"] == "track card" and view["lap"] == 3
    assert "Old Pros" in view["order_note"]
    pros = [c for c in view["cars"] if "Old Pro" in c["note"]]
    assert len(pros) == 4
    colours = [c["colour"].casefold() for c in view["cars"]]
    assert len(set(colours)) == len(colours), f"every car a colour of its own: {colours}"
    assert [r["colour"] for r in view["standings"]] == [c["colour"] for c in view["cars"]], \
        "the order and the lap chart draw each car in the colour of its dashboard"


def test_lacorsa_says_which_cards_are_left_and_which_were_played(state_dir):
    app = race(state_dir, "lacorsa", 3000, until=lambda s: s.step == "race" and s.lap >= 2)
    state = app.runner.state
    view = public_view(registry.activity("lacorsa"), state)
    for i, car in enumerate(view["cars"]):
        left, played = car["widgets"][0], car["widgets"][1]
        assert left["label"] == "cards left in hand" and left["kind"] == "bar"
        assert played["label"].startswith("cards played") and played["kind"] == "cards"
        shown = [x["text"] for x in played["items"] if x["text"] != "face down"]
        assert f"({len(shown)}" in played["label"], played
        assert car["row"][0] == f"{left['value']} card" + ("s" if left["value"] != 1 else "")


def test_formula_de_tells_the_tire_wear_from_the_tire_type(state_dir):
    app = race(state_dir, "formula-de", 60)
    car = public_view(registry.activity("formula-de"), app.runner.state)["cars"][0]
    tires = [w for w in car["widgets"] if "tire" in w["label"]]
    assert [(w["label"], w["kind"]) for w in tires] == [("tires", "bar"), ("tire type", "stat")]
    assert car["row"][0].endswith(" gear") and car["row"][1].startswith("WP ")


def test_a_formula_de_car_that_spun_reads_spun_until_its_next_gear():
    from companion.games.formula_de import public, rules as R
    from tests.games.formula_de.helpers import corner, done, gear, on_turn, put, started

    first = corner(1)
    state = put(started(2), 0, dist=first.end - 3, gear=3, wp={"tires": 1})
    state = done(gear(on_turn(state, 0), 0, 3, 4))       # one space past the exit, the last tire WP
    assert state.cars[0].cap == 1
    spun = public.dashboard(state, 0)
    assert spun["state"] == "spun" and spun["row"][:2] == ["3rd gear", f"WP {sum(state.cars[0].wp)}"]
    state = gear(on_turn(R.evolve(state, phase=R.GEAR), 0), 0, 1, 1)
    assert public.dashboard(state, 0)["state"] == ""



def test_a_lap_count_ended_early_classifies_every_car_where_it_stands(state_dir):
    from companion.games.api import make_move

    app = race(state_dir, "laps", 6)
    app.perform(make_move("finish", "End race early"))
    view = public_view(registry.activity("laps"), app.runner.state)
    assert view["finished"] and {c["state"] for c in view["cars"]} == {FINISHED}
    assert view["order_note"].startswith("Race order"), "no points: the order says what it is by"
    assert [c["row"][0] for c in view["cars"]] == [counted(r["laps"], "lap")
                                                  for r in registry.activity("laps").standings(app.runner.state)]


def test_the_cars_on_turn_are_those_of_the_player_on_turn(state_dir):
    """3-Wide's turn is a player's, of several cars: the tower marks the player's cars while
    they pick tactics, the car the next press is for otherwise; Lacorsa's two cars of a
    challenge while both have still to play; a game whose turn is a car's marks that car; a
    finished race marks none."""
    act = registry.activity("3-wide")
    app = race(state_dir, "3-wide", 400, until=lambda s: s.phase == "tactics")
    view = public_view(act, app.runner.state)
    state = app.runner.state
    assert view["turn_cars"] == [state.name(i) for i, c in enumerate(state.cars) if c.owner == state.actor]
    assert all(n.endswith(view["turn"]) for n in view["turn_cars"]) and len(view["turn_cars"]) >= 2
    rolling = race(state_dir / "roll", "3-wide", 120).runner.state
    view = public_view(act, rolling)
    assert view["waiting"].endswith(view["turn_cars"][0].split()[0]) and len(view["turn_cars"]) == 1
    top = race(state_dir / "top", "top-speed", 200).runner.state
    view = public_view(registry.activity("top-speed"), top)
    assert view["turn"] and view["turn_cars"] == [view["turn"]]
    both = race(state_dir / "lacorsa", "lacorsa", 400, until=lambda s: len(LR.waiting(s)) == 2).runner.state
    view = public_view(registry.activity("lacorsa"), both)
    assert view["waiting"].endswith("play face down") and view["turn"] == ""
    assert view["turn_cars"] == [both.name(c) for c in LR.waiting(both)], "both cars that play face down"
    over = race(state_dir / "over", "3-wide", 5000).runner.state
    assert public_view(act, over)["turn_cars"] == []


def test_what_the_box_waits_for_names_nobody_twice(state_dir):
    """The lap counter's next press names its car (``Red crossed``): the line above the
    tower says it once, never ``Red: Red crossed``."""
    app = race(state_dir, "laps", 10)
    view = public_view(registry.activity("laps"), app.runner.state)
    assert view["turn"] and view["waiting"].startswith(view["turn"] + " ") and ": " not in view["waiting"]
