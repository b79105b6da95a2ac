"""3-Wide's players on the results receipt: a player drives several cars and wins on their
score (4.1), shown in the results' own layout, every column in the key."""

import random

from companion.league import ledger
from companion.league import paper as league_paper
from companion.app import App
from companion.core.journal import Journal
from companion.devices.emulated import HeadlessDisplay
from companion.games.three_wide import autoplay
from companion.receipts.escpos import encode
from tests.receipts.test_emupos import CONFIG, interpret, needs_emupos, paper, printed
from tests.table import PaperTray


def finished(state_dir, players):
    """A 3-Wide race of ``players`` teams played to its end through the companion: its journal."""
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), printer=PaperTray(), rng=random.Random(1))
    app.start_session("3-wide", {**autoplay.DEMO_OPTIONS, "players": players})
    while not app.runner.finished():
        app.perform(autoplay.demo_script(app.runner.state) or app.moves()[0])
    return app.journal


def players_block(lines):
    at = lines.index("Players")
    end = next(i for i in range(at, len(lines)) if lines[i] == "-" * 32)
    return lines[at + 1:end]


def test_associated_cars_get_a_column_each_and_a_key(state_dir):
    journal = finished(state_dir, 5)                   # 10 team cars and 2 associated ones
    lines = league_paper.last_results_receipt(journal).text_lines()
    block = players_block(lines)
    assert block[0] == " # Player        Team Assoc  Pts"
    scores = ledger.last_finished(journal).results["players"]
    rows = [line.split() for line in block[1:1 + len(scores)]]
    assert rows == [[str(p["position"]), p["name"], str(p["team"]), str(p["associated"]), str(p["points"])]
                    for p in scores]
    assert any(p["associated"] for p in scores)
    assert all(int(team) + int(assoc) // 2 == int(pts) for _, _, team, assoc, pts in rows)
    key = " ".join(block[1 + len(scores):])
    assert key == ("Key: Team = team cars' points, Assoc = associated cars' points, "
                   "Pts = the player's score, Team + half of Assoc (rounded down)")
    assert not any("/2" in line for line in lines)
    assert "Key: Role = team: a team car;" in lines          # the grids say which cars are associated
    assert lines.count("Key: Role = team: a team car;") == 1
    assert all(len(line) <= 32 for line in lines)


def test_with_team_cars_only_the_players_have_their_points(state_dir):
    lines = league_paper.last_results_receipt(finished(state_dir, 3)).text_lines()
    block = players_block(lines)
    assert block[0] == " # Player                    Pts"
    assert block[-2:] == ["Key: Pts = the player's score,", "their cars' points"]
    assert not any("Assoc" in line or "Role" in line for line in lines)


@needs_emupos
def test_the_printer_prints_the_players_table_as_the_receipt_says(state_dir):
    receipt = league_paper.last_results_receipt(finished(state_dir, 5))
    result = interpret(encode(receipt, {**CONFIG, "model": "epson"}))
    assert result["unknown"] == []
    (text,) = result["receipts"]
    lines = printed(text)
    chart = next(i for i, line in enumerate(lines) if line.startswith("[image 384x"))   # the lap chart, drawn
    assert lines[:chart] == paper(receipt)[:chart]
    assert " ".join(players_block(lines)[0].split()) == "# Player Team Assoc Pts"


def test_the_championship_of_a_players_game_counts_the_players(state_dir):
    journal = finished(state_dir, 5)
    lines = league_paper.championship_receipt(journal, now=0.0).text_lines()
    scores = {p["name"]: p["points"] for p in ledger.last_finished(journal).results["players"]}
    table = {line.split()[1]: int(line.split()[-1]) for line in lines if line[:3].strip().isdigit()}
    assert table == scores
    assert "Key: 1 = place in race 1," in lines
    header = next(line for line in lines if line.startswith(" # "))
    assert header.split()[:2] == ["#", "Player"]     # the rows are players, not cars
