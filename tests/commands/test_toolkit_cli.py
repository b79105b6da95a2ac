import json
import os
import subprocess
from pathlib import Path

import pytest

from companion.cli import main
from companion.games import data as game_data

ROOT = Path(__file__).resolve().parents[2]
COMPANION = ROOT / ".venv" / "bin" / "companion"


def run(*args, state_dir):
    env = {**os.environ, "COMPANION_STATE": str(state_dir)}
    return subprocess.run([str(COMPANION), *args], capture_output=True, text=True, env=env, timeout=60)


def cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_roll_gear_5_a_thousand_times_gives_only_11_to_20(isolated_state):
    result = run("roll", "formula-de", "gear-5", "-n", "1000", "--json", state_dir=isolated_state)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["game"] == "formula-de" and data["die"] == "gear-5"
    assert len(data["rolls"]) == 1000
    assert set(data["rolls"]) == set(range(11, 21))


def test_unknown_die_is_one_line_on_stderr_without_traceback(isolated_state):
    result = run("roll", "formula-de", "gear-9", state_dir=isolated_state)
    assert result.returncode != 0 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert "gear-9" in lines[0] and "gear-5" in lines[0] and "black" in lines[0]


def test_custom_faces_are_strings_and_numbers_are_numbers(capsys):
    code, out, _ = cli(capsys, "roll", "3-wide", "tire-black", "-n", "200", "--json", "--seed", "1")
    assert code == 0
    rolls = json.loads(out)["rolls"]
    assert set(rolls) == {"5x", "5xs", "6xx", "7xx", "8xxx"}
    code, out, _ = cli(capsys, "roll", "3-wide", "d6", "-n", "50", "--json", "--seed", "1")
    assert all(type(r) is int for r in json.loads(out)["rolls"])


def test_seed_repeats_and_plain_dice_need_no_game(capsys):
    first = cli(capsys, "roll", "any", "d100", "-n", "20", "--json", "--seed", "42")[1]
    again = cli(capsys, "roll", "any", "d100", "-n", "20", "--json", "--seed", "42")[1]
    assert first == again
    rolls = json.loads(first)["rolls"]
    assert all(1 <= r <= 100 for r in rolls)
    code, out, _ = cli(capsys, "roll", "formula-de", "d8", "-n", "5")
    assert code == 0 and out.startswith("d8: ") and len(out.split()) == 6


def test_human_output_names_the_die(capsys):
    code, out, _ = cli(capsys, "roll", "formula-de", "black", "-n", "3", "--seed", "3")
    assert code == 0
    label, faces = out.strip().split(": ")
    assert label == "Black die" and all(1 <= int(f) <= 20 for f in faces.split())


def test_draw_a_suit_is_every_card_once(capsys):
    code, out, _ = cli(capsys, "draw", "lacorsa", "suit", "-n", "13", "--json", "--seed", "9")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == "lacorsa" and data["deck"] == "suit"
    assert sorted(c["value"] for c in data["cards"]) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    assert {"name": "R", "kind": "redline", "value": 0, "with_card": 2} in data["cards"]


def test_draw_beyond_the_deck_reshuffles_the_discards(capsys):
    code, out, _ = cli(capsys, "draw", "lacorsa", "suit", "-n", "39", "--json", "--seed", "2")
    cards = json.loads(out)["cards"]
    assert code == 0 and len(cards) == 39
    for start in (0, 13, 26):   # each pass through the deck is the whole suit
        assert len({c["name"] for c in cards[start:start + 13]}) == 13
    assert [c["name"] for c in cards[:13]] != [c["name"] for c in cards[13:26]]


def test_drawing_past_the_deck_says_when_the_discards_are_reshuffled(capsys):
    code, out, err = cli(capsys, "draw", "street-illegal", "track", "-n", "21", "--seed", "1")
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 22
    assert "reshuffled" in lines[20] and "after 20 cards" in lines[20]
    code, out, err = cli(capsys, "draw", "street-illegal", "track", "-n", "21", "--seed", "1", "--json")
    assert len(json.loads(out)["cards"]) == 21 and "reshuffled" in err
    code, out, err = cli(capsys, "draw", "street-illegal", "track", "-n", "20", "--seed", "1")
    assert "reshuffled" not in out + err


def test_owner_defined_deck_via_subprocess(isolated_state):
    path = game_data.override_path("3-wide", isolated_state)
    path.parent.mkdir(parents=True)
    path.write_text('[decks.my-deck]\nlabel = "Tactics"\ncards = [{ name = "Push", count = 2, tactic = 9 }]\n')
    result = run("draw", "3-wide", "my-deck", "-n", "3", "--json", state_dir=isolated_state)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["cards"] == [{"name": "Push", "tactic": 9}] * 3
    result = run("draw", "3-wide", "my-deck", "-n", "2", state_dir=isolated_state)
    assert result.stdout.splitlines() == ["Push  tactic=9", "Push  tactic=9"]


@pytest.mark.parametrize("args,words", [
    (("draw", "lacorsa", "tempo"), ["tempo", "suit"]),
    (("draw", "formula-de", "x"), ["x", "none", "[decks.my-deck]"]),
    (("roll", "monopoly", "d6"), ["monopoly", "any", "formula-de"]),
    (("roll", "any", "d1"), ["d1", "d2..d1000"]),
    (("roll", "any", "d6", "-n", "0"), ["-n", "1 to"]),
    (("roll", "any", "d6", "-n", "x"), ["-n", "whole number"]),
])
def test_mistakes_are_one_line(capsys, args, words):
    try:
        code, out, err = cli(capsys, *args)
    except SystemExit as exc:   # argparse's own check of -n
        code, (out, err) = exc.code, capsys.readouterr()
    assert code != 0 and out == ""
    assert len(err.strip().splitlines()) == 1
    for word in words:
        assert word in err


def test_a_broken_owner_file_is_one_line_naming_it(isolated_state):
    path = game_data.override_path("lacorsa", isolated_state)
    path.parent.mkdir(parents=True)
    path.write_text("[dice.tie]\nfaces = []\n")
    result = run("roll", "lacorsa", "tie", state_dir=isolated_state)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert str(path) in result.stderr and "dice.tie.faces" in result.stderr
    listing = run("games", state_dir=isolated_state)
    assert listing.returncode == 1 and "lacorsa" not in listing.stdout.split("formula-de:")[0]
    assert "dice.tie.faces" in listing.stderr and "formula-de: Formula Dé" in listing.stdout


def test_games_lists_dice_decks_and_points(capsys):
    code, out, _ = cli(capsys, "games")
    assert code == 0
    assert "formula-de: Formula Dé (2-10 players)" in out
    assert "gear-5" in out and "11 11 12 12" in out
    assert "tire-black" in out and "5x 5xs 6xx" in out
    assert "suit" in out and "13 cards" in out
    assert "12 11 10 9 8 7 6 5 4 3 2 1; bonus win +3" in out
    assert "race*" in out          # Lacorsa's unpublished points are marked
    assert "any: plain dice d2 to d1000" in out


def test_the_roll_command_stays_light(isolated_state):
    code = ("import sys; from companion.cli import main; main(['roll', 'any', 'd6']);"
            "heavy = [m for m in ('PIL', 'luma', 'serial', 'gpiozero', 'pygame') if m in sys.modules];"
            "print(','.join(heavy))")
    result = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-c", code], capture_output=True, text=True,
                            env={**os.environ, "COMPANION_STATE": str(isolated_state)}, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == ""


def test_roll_a_dice_set_as_companion_games_lists_it(capsys):
    code, out, _ = cli(capsys, "roll", "3-wide", "tires", "-n", "50", "--json", "--seed", "2")
    assert code == 0
    data = json.loads(out)
    assert data["set"] == "tires" and data["dice"] == ["tire-black"] * 4
    assert len(data["rolls"]) == 50 and all(len(r) == 4 for r in data["rolls"])
    assert {f for r in data["rolls"] for f in r} <= {"5x", "5xs", "6xx", "7xx", "8xxx"}
    code, out, _ = cli(capsys, "roll", "3-wide", "tires", "--seed", "2")
    assert code == 0 and out.startswith("Tire dice: ") and len(out.split()) == 6


def test_an_unknown_die_names_the_dice_sets_too(capsys):
    code, _, err = cli(capsys, "roll", "3-wide", "tire")
    assert code == 2 and "dice sets: tires" in err and len(err.strip().splitlines()) == 1


def test_demo_help_lists_the_games_and_tools(capsys):
    from companion.games.registry import GAMES, TOOLS
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert all(slug in out for slug in [*GAMES, *TOOLS])
