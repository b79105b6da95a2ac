"""A club's mistakes put right from the command line: ``companion race list``, ``void``,
``unvoid``, ``move``, ``correct --place`` and ``--name``, ``penalty`` and ``undo``;
``companion season new``, ``rename`` and ``set``. Each change is an event on top of the race
(the race's row never changes), counted by the tables, said on the receipt and in
``companion results``, carried by export and import so two boxes show the same tables, and
a file whose changes are not whole is refused before anything is written."""

import json

import pytest

from companion.cli import main
from companion.league import corrections, exchange, record, seasons, steward
from tests.commands.test_exchange_cli import journal_rows, sealed
from tests.test_seasons import GAME, app_on, race, season_on


@pytest.fixture
def cup(tmp_path):
    """A box with a Formula Dé season "Cup" of three races, and its race ids oldest first."""
    state = tmp_path / "a"
    app = season_on(state, (["Anne", "Bob", "Cy"], ["Bob", "Cy", "Anne"], ["Cy", "Anne", "Bob"]))
    ids = [rid for _, (rid, _) in sorted(app.journal.race_ids().items())]
    return state, app, ids


def run(capsys, *argv):
    """``companion ARGV``: (exit status, stdout, stderr)."""
    code = main([str(a) for a in argv])
    said = capsys.readouterr()
    return code, said.out, said.err


def table(journal, name="Cup"):
    return [(r["name"], r["points"]) for r in seasons.table(journal, seasons.find(journal, GAME, name))]


def test_the_races_are_listed_with_ids_a_short_prefix_names_one(cup, capsys):
    state, app, ids = cup
    code, out, _ = run(capsys, "race", "list", "--state", state)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3
    assert [line.split()[0] for line in lines] == [rid[:8] for rid in ids]
    assert all("Lap counter, Formula Dé points" in line and "Cup" in line for line in lines)
    assert [line.split()[-1] for line in lines] == ["Anne", "Bob", "Cy"]            # the winners
    assert run(capsys, "race", "list", "--state", state, "--season", "cup")[1] == out
    code, _, err = run(capsys, "race", "list", "--state", state, "--season", "Nope")
    assert code == 2 and "no season 'Nope'" in err
    code, _, err = run(capsys, "race", "void", ids[0][:2], "--reason", "x", "--state", state)
    assert code == 2 and "at least 4 characters" in err
    code, _, err = run(capsys, "race", "void", "ffffffff", "--reason", "x", "--state", state)
    assert code == 2 and "no finished race with the id 'ffffffff'" in err


def test_a_void_counts_the_race_nowhere_and_is_listed_as_voided(cup, capsys):
    state, app, ids = cup
    rows = journal_rows(app)[0]
    code, out, _ = run(capsys, "race", "void", ids[0][:6], "--reason", "test race", "--state", state)
    assert code == 0 and f"Voided race {ids[0][:8]} (test race)" in out
    assert table(app.journal) == [("Cy", 18), ("Bob", 16), ("Anne", 14)]
    assert len(seasons.find(app.journal, GAME, "Cup").race_list()) == 2
    assert run(capsys, "race", "list", "--state", state)[1].splitlines()[0].endswith("Anne  voided (test race)")
    assert record.find(app.journal, "Anne").races == 2
    code, _, err = run(capsys, "race", "void", ids[0], "--reason", "again", "--state", state)
    assert code == 2 and "voided already" in err
    with pytest.raises(SystemExit):                                              # a reason is asked
        run(capsys, "race", "void", ids[1], "--state", state)
    assert "the following arguments are required: --reason" in capsys.readouterr().err
    assert run(capsys, "race", "unvoid", ids[0], "--state", state)[0] == 0
    assert sorted(table(app.journal)) == [("Anne", 24), ("Bob", 24), ("Cy", 24)]
    assert len(seasons.find(app.journal, GAME, "Cup").race_list()) == 3
    code, _, err = run(capsys, "race", "unvoid", ids[0], "--state", state)
    assert code == 2 and "not voided" in err
    assert journal_rows(app)[0] == rows                                          # no race rewritten


def test_a_place_corrected_resorts_the_race_and_scores_it_again(cup, capsys):
    state, app, ids = cup
    before = dict(table(app.journal))
    code, out, _ = run(capsys, "race", "correct", ids[2][:8], "--place", "Bob", "2", "--reason", "steward",
                       "--state", state)
    assert code == 0 and "corrected: Bob 3rd → 2nd (steward)" in out
    session = corrections.find_race(app.journal, ids[2])
    now = corrections.corrected(session, corrections.of(app.journal, session)).results["standings"]
    assert [(e["name"], e["position"], e["points"]) for e in now] == [("Cy", 1, 10), ("Bob", 2, 8), ("Anne", 3, 6)]
    after = dict(table(app.journal))
    assert after["Bob"] == before["Bob"] + 2 and after["Anne"] == before["Anne"] - 2
    code, out, _ = run(capsys, "results", "--state", state)
    assert "corrected: Bob 3rd → 2nd (steward)" in out
    assert [line.split()[1] for line in out.splitlines() if line.startswith("   ")][:3] == ["Cy", "Bob", "Anne"]
    code, out, _ = run(capsys, "results", "--state", state, "--season", "Cup")
    assert "race 3 " in out and "corrected: Bob 3rd → 2nd (steward)" in out
    for bad, said in ((["--place", "Dan", "1"], "no 'Dan' in that race"), (["--place", "Bob", "9"], "1 to 3, not 9"),
                      (["--place", "Bob", "2"], "Bob is 2nd already"), (["--place", "Bob", "two"], "a place is a number")):
        code, _, err = run(capsys, "race", "correct", ids[2], *bad, "--state", state)
        assert code == 2 and said in err, err


def test_a_name_corrected_in_one_race(cup, capsys):
    state, app, ids = cup
    code, out, _ = run(capsys, "race", "correct", ids[1], "--name", "cy", "Cyrus", "--state", state)
    assert code == 0 and "corrected: Cy → Cyrus" in out
    assert dict(table(app.journal))["Cyrus"] == 8 and record.find(app.journal, "Cyrus").races == 1
    code, _, err = run(capsys, "race", "correct", ids[1], "--name", "Bob", "Anne", "--state", state)
    assert code == 2 and "'Anne' is in that race already" in err


def test_a_penalty_takes_points_and_a_negative_one_gives_them_back(cup, capsys):
    state, app, ids = cup
    code, out, _ = run(capsys, "race", "penalty", ids[0], "Anne", "3", "--reason", "jump start", "--state", state)
    assert code == 0 and "penalty: Anne -3 pts (jump start)" in out
    assert dict(table(app.journal))["Anne"] == 24 - 3
    code, out, _ = run(capsys, "race", "penalty", ids[0], "anne", "-1", "--reason", "appeal", "--state", state)
    assert code == 0 and "penalty: Anne +1 pts (appeal)" in out
    assert dict(table(app.journal))["Anne"] == 24 - 2
    code, _, err = run(capsys, "race", "penalty", ids[0], "Anne", "0", "--reason", "x", "--state", state)
    assert code == 2 and "1 to 1000 points" in err


def test_a_race_moved_to_another_season_and_every_change_undone(cup, capsys):
    state, app, ids = cup
    code, out, _ = run(capsys, "season", "new", "Spring", "--game", GAME, "--races", "4", "--state", state)
    assert code == 0 and "Season Spring of Lap counter, Formula Dé points started" in out
    code, out, _ = run(capsys, "race", "move", ids[2], "--season", "spring", "--state", state)
    assert code == 0 and "counts in season Spring now" in out
    assert len(seasons.find(app.journal, GAME, "Cup").race_list()) == 2
    assert len(seasons.find(app.journal, GAME, "Spring").race_list()) == 1
    code, _, err = run(capsys, "race", "move", ids[2], "--season", "Spring", "--state", state)
    assert code == 2 and "counts in season Spring already" in err
    code, out, _ = run(capsys, "race", "undo", "--state", state)
    assert code == 0 and out.startswith(f"Taken back: move to season Spring of race {ids[2][:8]}")
    assert len(seasons.find(app.journal, GAME, "Cup").race_list()) == 3
    code, out, _ = run(capsys, "race", "undo", "--state", state)
    assert code == 0 and "season Spring started" in out
    assert [s.name for s in seasons.seasons(app.journal, GAME)][-1] == "Cup"
    code, _, err = run(capsys, "race", "undo", "--state", state)
    assert code == 2 and "no change to take back" in err


def test_a_season_renamed_and_set_and_never_to_fewer_races_than_it_holds(cup, capsys):
    state, app, ids = cup
    code, out, _ = run(capsys, "season", "rename", "cup", "Winter Cup", "--state", state)
    assert code == 0 and "Season Cup is called Winter Cup now" in out
    assert seasons.current(app.journal, GAME).name == "Winter Cup"
    assert "Winter Cup" in run(capsys, "race", "list", "--state", state)[1]
    code, _, err = run(capsys, "season", "set", "Winter Cup", "--races", "2", "--state", state)
    assert code == 2 and "holds 3 races already: it cannot be set to 2" in err
    code, out, _ = run(capsys, "season", "set", "Winter Cup", "--races", "4", "--drop", "1", "--state", state)
    assert code == 0 and "Season Winter Cup, 3 of 4 races, drop 1" in out
    season = seasons.find(app.journal, GAME, "Winter Cup")
    assert (season.races, season.drop) == (4, 1)
    assert [r["dropped"] for r in seasons.table(app.journal, season)] == [[], [], []]   # best 3 of 4: none yet
    race(app, ["Anne", "Bob", "Cy"])                       # the 4th race: each driver's worst dropped
    season = seasons.find(app.journal, GAME, "Winter Cup")
    assert all(len(r["dropped"]) == 1 for r in seasons.table(app.journal, season))
    code, out, _ = run(capsys, "season", "set", "Winter Cup", "--races", "open", "--state", state)
    assert code == 0 and seasons.find(app.journal, GAME, "Winter Cup").races is None
    code, _, err = run(capsys, "season", "new", "Winter Cup", "--game", GAME, "--state", state)
    assert code == 2 and "has a season called 'Winter Cup' already" in err
    code, _, err = run(capsys, "season", "new", "X", "--game", "chess", "--state", state)
    assert code == 2 and "no game 'chess'" in err
    code, _, err = run(capsys, "season", "rename", "Nope", "Y", "--state", state)
    assert code == 2 and "no season 'Nope'" in err


def test_no_change_leaves_a_season_holding_more_races_than_it_is_set_to(cup, capsys):
    state, app, ids = cup
    run(capsys, "race", "void", ids[0], "--reason", "test race", "--state", state)
    assert run(capsys, "season", "set", "Cup", "--races", "2", "--state", state)[0] == 0
    code, _, err = run(capsys, "race", "unvoid", ids[0], "--state", state)
    assert code == 2 and "season Cup has 2 races and holds 2: no room" in err
    run(capsys, "race", "undo", "--state", state)                                # the set: open again
    run(capsys, "race", "undo", "--state", state)                                # the void
    assert run(capsys, "season", "set", "Cup", "--races", "3", "--state", state)[0] == 0
    assert run(capsys, "season", "new", "Spring", "--game", GAME, "--state", state)[0] == 0
    race(app, ["Bob", "Anne"])                                                   # Spring's
    code, _, err = run(capsys, "race", "undo", "--state", state)                 # Spring's start taken back?
    assert code == 2 and "would leave season Cup holding 4 races of its 3" in err
    assert [s.name for s in seasons.seasons(app.journal, GAME)] == ["Cup", "Spring"]


def test_the_reprinted_receipt_says_the_race_was_corrected(cup, capsys, tmp_path):
    from companion.league import paper
    from companion.receipts.model import Line

    state, app, ids = cup
    run(capsys, "race", "correct", ids[0], "--place", "Cy", "1", "--reason", "steward", "--state", state)
    receipt = paper.race_receipt(app.journal, corrections.find_race(app.journal, ids[0]))
    lines = [i.text for i in receipt.items if isinstance(i, Line)]
    assert "corrected: Cy 3rd -> 1st" in lines and "(steward)" in lines
    assert "Cy" in repr(receipt.items[lines.index("(steward)") + 2:][:6])
    code, out, _ = run(capsys, "print", "results", "--race", ids[0][:8], "--state", state, "--to", "png",
                       "--out", tmp_path / "png")
    assert code == 0 and list((tmp_path / "png").glob("*.png"))


def test_the_seasons_changes_as_plain_data(cup, capsys):
    state, app, ids = cup
    run(capsys, "race", "void", ids[0], "--reason", "test race", "--state", state)
    run(capsys, "race", "correct", ids[2], "--place", "Bob", "2", "--reason", "steward", "--state", state)
    run(capsys, "race", "penalty", ids[2], "Cy", "2", "--reason", "jump start", "--state", state)
    got = steward.season_corrections(app.journal, GAME, "Cup")
    assert [(g["race"], g["number"], g["voided"], g["winner"]) for g in got] == \
        [(ids[0], None, True, "Anne"), (ids[2], 2, False, "Cy")]
    assert got[0]["changes"] == [{"kind": "void", "reason": "test race"}]
    assert got[1]["changes"] == [{"kind": "place", "name": "Bob", "from": 3, "to": 2, "reason": "steward"},
                                 {"kind": "penalty", "name": "Cy", "points": 2, "reason": "jump start"}]
    assert got[1]["notes"] == ["corrected: Bob 3rd → 2nd (steward)", "penalty: Cy -2 pts (jump start)"]
    code, out, _ = run(capsys, "results", "--state", state, "--season", "Cup", "--json")
    assert json.loads(out)["season"]["changes"] == got


def test_a_read_only_journal_takes_no_change(cup):
    from companion.core.journal import Journal

    state, app, ids = cup
    with Journal(state, read_only=True) as journal:
        with pytest.raises(steward.CorrectionError, match="read-only here"):
            steward.void(journal, corrections.find_race(journal, ids[0]), "test race")
    assert corrections.changes(app.journal) == {}


# -- two boxes agree ------------------------------------------------------------------

def test_box_b_imports_box_a_s_corrections_and_shows_the_same_tables(cup, tmp_path, capsys):
    a, box_a, ids = cup
    b = tmp_path / "b"
    b.mkdir()
    box_b, _ = app_on(b)
    first = tmp_path / "first.json"
    assert run(capsys, "export", "--state", a, "--season", "Cup", first)[0] == 0     # b holds the races first
    assert run(capsys, "import", "--state", b, first)[0] == 0
    assert json.loads(first.read_text("utf-8"))["schema"] == 1                        # no change: as before

    run(capsys, "race", "void", ids[0], "--reason", "test race", "--state", a)
    run(capsys, "race", "correct", ids[1], "--place", "Anne", "1", "--reason", "steward", "--state", a)
    run(capsys, "race", "correct", ids[2], "--name", "Cy", "Cyrus", "--state", a)
    run(capsys, "race", "penalty", ids[2], "Bob", "4", "--reason", "jump start", "--state", a)
    run(capsys, "race", "penalty", ids[1], "Cy", "1", "--reason", "typo", "--state", a)
    run(capsys, "race", "undo", "--state", a)                                          # the typo taken back
    out = tmp_path / "cup.json"
    assert run(capsys, "export", "--state", a, "--season", "Cup", out)[0] == 0
    data = json.loads(out.read_text("utf-8"))
    assert data["schema"] == 2 and len(data["races"]) == 3 and len(data["corrections"]) == 6
    code, said, _ = run(capsys, "import", "--state", b, out)
    assert code == 0 and "0 new races, 6 changes to races" in said
    assert table(box_b.journal) == table(box_a.journal)
    assert dict(table(box_a.journal)) == {"Anne": 18, "Bob": 10, "Cyrus": 10, "Cy": 6}
    assert run(capsys, "results", "--state", b, "--season", "Cup")[1] == run(capsys, "results", "--state", a,
                                                                              "--season", "Cup")[1]
    assert run(capsys, "race", "list", "--state", b)[1].splitlines()[0].endswith("Anne  voided (test race)")
    before = journal_rows(box_b)
    code, said, _ = run(capsys, "import", "--state", b, out)                        # twice: nothing added
    assert code == 0 and journal_rows(box_b) == before

    c = tmp_path / "c"                                                                 # a third box, new
    c.mkdir()
    box_c, _ = app_on(c)
    assert run(capsys, "import", "--state", c, out)[0] == 0
    assert table(box_c.journal) == table(box_a.journal)
    assert record.find(box_c.journal, "Cyrus").races == 1
    run(capsys, "race", "undo", "--state", c)                                          # undone on c alone
    assert dict(table(box_c.journal))["Bob"] == 14 and dict(table(box_a.journal))["Bob"] == 10


def spoiled(data, change):
    """The export ``data`` with its first change altered by ``change`` and resealed."""
    fixes = json.loads(json.dumps(data["corrections"]))
    change(fixes)
    return sealed({**data, "corrections": fixes})


@pytest.mark.parametrize("spoil, said", [
    (lambda d: {**d, "corrections": d["corrections"][:1]}, "do not match its checksum"),
    (lambda d: {k: v for k, v in d.items() if k != "corrections"}, "do not match its checksum"),
    (lambda d: spoiled(d, lambda f: f[0].update(kind="erase")), "correction 1 is not one this companion knows whole"),
    (lambda d: spoiled(d, lambda f: f[1].update(points="4")), "correction 2 is not one"),
    (lambda d: spoiled(d, lambda f: f[1].update(points=10**6)), "correction 2 is not one"),
    (lambda d: spoiled(d, lambda f: f[0].update(race="someone-else")), "correction 1 is not one"),
    (lambda d: spoiled(d, lambda f: f[0].update(reason="x" * 81)), "correction 1 is not one"),
    (lambda d: spoiled(d, lambda f: f[0].update(extra=1)), "correction 1 is not one"),
    (lambda d: spoiled(d, lambda f: f[0].pop("ref")), "correction 1 is not one"),
    (lambda d: spoiled(d, lambda f: f[2].update(of="nothing")), "correction 3 is not one"),
    (lambda d: spoiled(d, lambda f: f[0].update(reason=[[[[[[[[[["deep"]]]]]]]]]])), "nests"),
    (lambda d: sealed({**d, "corrections": d["corrections"] * 400}), "corrections are not a list of at most 1000"),
    (lambda d: sealed({**d, "corrections": {"kind": "void"}}), "corrections are not a list"),
])
def test_a_file_whose_changes_are_not_whole_is_refused_and_changes_nothing(cup, tmp_path, capsys, spoil, said):
    a, box_a, ids = cup
    run(capsys, "race", "void", ids[0], "--reason", "test race", "--state", a)
    run(capsys, "race", "penalty", ids[1], "Bob", "4", "--reason", "jump start", "--state", a)
    run(capsys, "race", "undo", "--state", a)
    out = tmp_path / "cup.json"
    assert run(capsys, "export", "--state", a, out)[0] == 0
    out.write_text(json.dumps(spoil(json.loads(out.read_text("utf-8")))), "utf-8")
    b = tmp_path / "b"
    b.mkdir()
    box_b, _ = app_on(b)
    before = journal_rows(box_b)
    code, _, err = run(capsys, "import", "--state", b, out)
    assert code == 2 and "refused, nothing was changed" in err and said in err, err
    assert journal_rows(box_b) == before


def test_every_change_stored_carries_its_row_checksum(cup, capsys):
    import sqlite3

    from companion.core import rowsums
    from companion.core.journal import Journal

    state, app, ids = cup
    run(capsys, "race", "penalty", ids[1], "Bob", "4", "--reason", "jump start", "--state", state)
    app.journal.close()
    db = sqlite3.connect(state / Journal.FILENAME)       # a hand outside the companion
    rows = db.execute("SELECT id, body, crc, created, rowsum FROM club").fetchall()
    assert rows and all(summed == rowsums.row_sum("club", cid, body, crc, created)
                        for cid, body, crc, created, summed in rows)
    assert rowsums.damage(db) is None
    db.execute("UPDATE club SET body = replace(body, '4', '40') WHERE body LIKE '%penalty%'")
    db.commit()
    assert "club event" in rowsums.damage(db)
    db.close()


def test_the_last_race_as_corrected_in_results_json_and_the_commands_without_a_race(cup, capsys, tmp_path):
    state, app, ids = cup
    run(capsys, "race", "correct", ids[2], "--place", "Bob", "1", "--reason", "steward", "--state", state)
    code, out, _ = run(capsys, "results", "--state", state, "--json")
    data = json.loads(out)
    assert code == 0 and [e["name"] for e in data["last"]["standings"]] == ["Bob", "Cy", "Anne"]
    assert data["last"]["standings"][0]["points"] == 10 and data["last_changes"] == ["corrected: Bob 3rd → 1st (steward)"]
    assert [s.results["standings"][0]["name"] for s in app.journal.sessions()][-1] == "Cy"   # as it was run
    code, out = main(["race"]), capsys.readouterr().out
    assert code == 0 and "void" in out and "penalty" in out
    empty = tmp_path / "empty"
    empty.mkdir()
    app_on(empty)
    assert run(capsys, "race", "list", "--state", empty)[1] == "No finished race yet.\n"
    code, _, err = run(capsys, "race", "undo", "--state", empty)
    assert code == 2 and "no change to take back" in err
