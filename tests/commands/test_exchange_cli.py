"""Several tables, one season: ``companion export`` on one box and ``companion import`` on
another put the first box's races into the second's season, each race once; a file from a
newer or damaged box is refused and nothing changes."""

import json

import pytest

from companion import record, seasons
from companion.cli import main
from tests.test_seasons import GAME, app_on, race


@pytest.fixture
def boxes(tmp_path):
    """Two boxes' journals: both play a Formula Dé season "Cup", two races each."""
    made = []
    for name, orders in (("a", (["Anne", "Bob"], ["Bob", "Anne"])), ("b", (["Cy", "Dee"], ["Cy", "Anne"]))):
        state = tmp_path / name
        state.mkdir()
        app, _ = app_on(state)
        seasons.start(app.journal, GAME, "Cup")
        for order in orders:
            race(app, order)
        made.append((state, app))
    return made


def journal_rows(app):
    return [(s.id, s.results) for s in app.journal.sessions()], app.journal.club_events(), app.journal.race_ids()


def test_two_boxes_make_one_championship(boxes, tmp_path, capsys):
    (a, box_a), (b, box_b) = boxes
    out = tmp_path / "cup.json"
    assert main(["export", "--state", str(a), "--season", "Cup", str(out)]) == 0
    assert f"Wrote season Cup (2 races) to {out}" in capsys.readouterr().out
    assert main(["import", "--state", str(b), str(out)]) == 0
    assert capsys.readouterr().out.strip() == "Added 2 races to season Cup of Lap counter, Formula Dé points"
    cup = seasons.current(box_b.journal, GAME)
    assert cup.name == "Cup" and len(cup.race_list()) == 4
    rows = seasons.standings(cup)
    assert [(r["name"], r["points"]) for r in rows] == [("Anne", 26), ("Cy", 20), ("Bob", 18), ("Dee", 8)]
    assert record.find(box_b.journal, "Anne").races == 3
    assert box_b.journal.race_ids().keys() >= {s.id for s in cup.sessions}
    ids_a = {r for r, _ in box_a.journal.race_ids().values()}
    assert ids_a <= {r for r, _ in box_b.journal.race_ids().values()}     # each race keeps its id

    before = journal_rows(box_b)
    assert main(["import", "--state", str(b), str(out)]) == 0             # twice: nothing added
    assert capsys.readouterr().out.strip() == "Added 0 races to season Cup of Lap counter, Formula Dé points; 2 already here"
    assert journal_rows(box_b) == before

    back = tmp_path / "back.json"                                           # b's season to a: a's own races are held
    assert main(["export", "--state", str(b), "--season", "Cup", str(back)]) == 0
    assert main(["import", "--state", str(a), str(back)]) == 0
    assert capsys.readouterr().out.strip().endswith("Added 2 races to season Cup of Lap counter, Formula Dé points; 2 already here")
    assert [(r["name"], r["points"]) for r in seasons.standings(seasons.current(box_a.journal, GAME))] == \
        [("Anne", 26), ("Cy", 20), ("Bob", 18), ("Dee", 8)]
    # the last race of each box is still its own
    assert main(["results", "--state", str(a)]) == 0
    assert "Last race: Lap counter, Formula Dé, race 2 of season Cup" in capsys.readouterr().out


@pytest.mark.parametrize("spoil, said", [
    (lambda d: {**d, "schema": 2}, "made by a newer companion (schema 2; this one reads up to 1): update this box first"),
    (lambda d: {**d, "races": d["races"][:1]}, "damaged: its races do not match its checksum"),
    (lambda d: {**d, "races": [{**d["races"][0], "started": "soon"}]}, "damaged: its races do not match its checksum"),
    (lambda d: {"format": "something else"}, "not a season exported by `companion export`"),
    (None, "damaged: it is not whole JSON"),
])
def test_a_file_from_a_newer_or_damaged_box_is_refused_and_changes_nothing(boxes, tmp_path, capsys, spoil, said):
    (a, _), (b, box_b) = boxes
    out = tmp_path / "cup.json"
    assert main(["export", "--state", str(a), str(out)]) == 0
    text = out.read_text("utf-8")
    out.write_text(text[: len(text) // 2] if spoil is None else json.dumps(spoil(json.loads(text))), "utf-8")
    before = journal_rows(box_b)
    capsys.readouterr()
    assert main(["import", "--state", str(b), str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{out} refused, nothing was changed" in err and said in err
    assert journal_rows(box_b) == before


def test_importing_into_a_box_that_never_played_the_game_starts_its_season(boxes, tmp_path, capsys):
    (a, _), _ = boxes
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    app, _ = app_on(fresh)
    race(app, ["Eve", "Fay"], game="top-speed")
    out = tmp_path / "cup.json"
    assert main(["export", "--state", str(a), str(out)]) == 0
    assert main(["import", "--state", str(fresh), str(out)]) == 0
    assert seasons.current(app.journal, GAME).name == "Cup"
    assert main(["import", "--state", str(fresh), "--season", "Nope", str(out)]) == 2
    assert "no season 'Nope' of Lap counter, Formula Dé points here; its seasons: Cup" in capsys.readouterr().err
