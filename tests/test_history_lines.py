"""The history's lines: who did what, and the outcome, in one grammar
(``companion.games.api.history_line``), written when an action is journaled and read
unchanged by the box's History, its undo toast and the table screen. Every activity's
lines are read by the conformance test (``history_faults``); these pin the grammar."""

import json
import random

from companion.core.journal import Journal
from companion.core.names import counted
from companion.games import data as game_data
from companion.games.api import Move, history_line, make_move
from companion.games.registry import activity
from companion.kit.standings import ordinal
from companion.session import SessionRunner
from tests.test_conformance import setup_of


def test_a_player_their_action_and_its_outcome():
    gear = make_move("gear", "5th gear", player="Black", gear=5)
    assert history_line(gear, "15 spaces") == "Black: 5th gear, 15 spaces"
    assert history_line(gear) == "Black: 5th gear"


def test_nobody_in_particular_the_action_then_its_outcome():
    assert history_line(make_move("check", "Trigger card"), "1 card") == "Trigger card: 1 card"


def test_the_history_words_stand_for_a_footer_that_is_a_button():
    pit = make_move("pit", "PIT STOP", player="Black", history="into the pits")
    assert history_line(pit, "72 cards shuffled") == "Black: into the pits, 72 cards shuffled"
    assert history_line(make_move("next", "NEXT ROUND", history="Round 4")) == "Round 4"


def test_a_player_named_in_the_action_is_not_said_twice():
    assert history_line(make_move("cross", "Red crossed", player="Red"), "lap 3") == "Red crossed: lap 3"
    assert history_line(make_move("draw", "DRAW", player="Ann", history="Ann drew"), "2") == "Ann drew: 2"
    # a name inside another word is no naming
    assert history_line(make_move("redline", "Redline", player="Red")) == "Red: Redline"


def test_an_outcome_that_repeats_the_action_is_left_out():
    assert history_line(make_move("plays", "R", player="Red"), "R") == "Red: R"
    assert history_line(make_move("go", "Start race"), "start race") == "Start race"


def test_the_history_words_survive_the_moves_json():
    move = make_move("auto", "DRIVE", player="Black", primary=True, history="Black drives", car=3)
    assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move
    older = {"kind": "auto", "label": "DRIVE", "player": "Black", "args": [["car", 3]], "primary": True}
    assert Move.from_json(older).history == ""          # a move written before it had them


def test_a_gear_in_the_journal_and_the_undo_says_it(tmp_path):
    """A Formula Dé car's gear: ``Red: 1st gear, 2 spaces`` in the journal, and the undone
    line is the same words."""
    act = activity("formula-de")
    options, data = setup_of(act)
    journal = Journal(tmp_path)
    runner = SessionRunner.start(journal, "formula-de", options, data)
    rng = random.Random(4)
    while not any(m.kind == "gear" for m in runner.moves()):
        runner.perform(act.demo.script(runner.state), rng)
    move = next(m for m in runner.moves() if m.kind == "gear")
    event = runner.perform(move, rng)
    line = f"{move.player}: {ordinal(event['gear'])} gear, {counted(event['roll'], 'space')}"
    assert runner.history()[-1].label == line
    assert runner.undo().label == line
    journal.close()


def test_the_dice_rollers_lines_through_a_session(tmp_path):
    with Journal(tmp_path) as journal:
        runner = SessionRunner.start(journal, "dice", {"game": "3-wide"}, game_data.load("3-wide"))
        faces = runner.perform(next(m for m in runner.moves() if m.primary), random.Random(1))["faces"]
        assert runner.history()[-1].label == "Tire dice: " + " ".join(faces)
