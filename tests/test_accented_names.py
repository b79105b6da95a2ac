"""A name with accents (Chloé, Zoë, Søren) is the same name everywhere: kept in the journal,
carried by an export to another box, written in the JSON and CSV as typed, and printed as
typed in code page 858; a printer set to a page that lacks a letter gets its plain letter
on paper only."""

import csv
import json

from companion.cli import main
from companion.core.journal import Journal
from companion.devices.printer_sim import Decoder
from companion.league import paper, seasons
from companion.receipts.escpos import encode
from tests.test_seasons import GAME, app_on, race

NAMES = ["Zoë", "Chloé", "Søren", "Ève"]
PRINTER = {"heat_dots": 7, "heat_time": 80, "heat_interval": 2, "chars_per_line": 32}


def printed(receipt, **printer) -> str:
    decoder = Decoder()
    decoder.feed(encode(receipt, {**PRINTER, **printer}))
    return "\n".join(line.text for line in decoder.lines)


def test_accented_names_travel_whole_and_print_as_the_printer_can(state_dir, tmp_path, capsys):
    app, _ = app_on(state_dir)
    seasons.start(app.journal, GAME, "Été")
    race(app, NAMES)
    race(app, NAMES[::-1])
    season = seasons.find(app.journal, GAME, "Été")
    assert {r["name"] for r in seasons.table(app.journal, season)} == set(NAMES)

    receipt = paper.season_receipt(app.journal, season)
    on_paper = printed(receipt)                         # code page 858: every letter as typed
    assert all(name in on_paper for name in NAMES) and "Été" in on_paper
    plain = printed(receipt, codepage="cp437")          # CP437 lacks ø and È: their plain letters
    assert "Soren" in plain and "Eve" in plain and "Zoë" in plain and "Chloé" in plain
    assert {r["name"] for r in seasons.table(Journal(state_dir), season)} == set(NAMES)   # the journal keeps them

    state = str(state_dir)
    assert main(["results", "--state", state, "--season", "Été", "--json"]) == 0
    assert {r["name"] for r in json.loads(capsys.readouterr().out)["season"]["standings"]} == set(NAMES)
    assert main(["results", "--state", state, "--csv", str(tmp_path / "csv")]) == 0
    rows = list(csv.DictReader(open(tmp_path / "csv" / "standings.csv", encoding="utf-8-sig", newline="")))
    assert {r["name"] for r in rows} == set(NAMES) and {r["season"] for r in rows} == {"Été"}

    out = tmp_path / "ete.json"
    assert main(["export", "--state", state, "--championship", GAME, "--season", "Été", str(out)]) == 0
    assert "Søren".encode() in out.read_bytes()          # UTF-8, not \\u escapes
    other = tmp_path / "box-b"
    other.mkdir()
    Journal(other).close()                              # box B has run once
    assert main(["import", "--state", str(other), str(out)]) == 0
    there = Journal(other)
    assert {r["name"] for r in seasons.table(there, seasons.find(there, GAME, "Été"))} == set(NAMES)
