"""An import on the box: the club menu's "Import races" lists the export files on a USB
stick (under /media) and in STATE/import; a file chosen is checked whole and says where its
races go ("2 races into season Cup (new here)?") before anything is written: OK writes, GO
does nothing, BACK leaves it. A damaged file, or one whose races are all here, is said and
changes nothing. Every screen reads whole at 128x64."""

import json

import pytest

from companion.league import club as club_record, exchange, seasons
from companion.ui import club as club_screens, flow
from companion.ui.dialog import Confirm
from companion.ui.render import cut_texts
from tests.table import press
from tests.test_seasons import GAME, app_on, race

IMPORT = "UP OK"       # the club menu's last item (UP from the first): Import races


@pytest.fixture
def boxes(tmp_path, monkeypatch):
    """Box A played season Cup (2 races), exported onto a stick; box B raced once in its own
    season League and is on its championship screen."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    app_a, _ = app_on(a)
    seasons.start(app_a.journal, GAME, "Cup")
    race(app_a, ["Anne", "Bob"])
    race(app_a, ["Bob", "Anne"])
    stick = tmp_path / "media" / "pi" / "STICK"
    stick.mkdir(parents=True)
    (stick / "cup.json").write_text(json.dumps(exchange.export_season(app_a.journal, GAME, "Cup")), "utf-8")
    monkeypatch.setattr(club_record, "MEDIA", tmp_path / "media")
    app_b, _ = app_on(b)
    seasons.start(app_b.journal, GAME, "League")
    race(app_b, ["Cy", "Dee"])
    app_b.go_home()
    app_b.push(flow.Results())
    return app_b, stick


def said(view) -> str:
    """The words of a view, its wrapped lines joined."""
    words = [getattr(x, "text", None) or str(x) for x in view.body]
    return " ".join((view.title, *words, view.footer, view.alert or ""))


def state(app):
    return [(s.id, s.results) for s in app.journal.sessions()], app.journal.club_events()


def test_an_import_says_where_the_races_go_and_writes_only_on_ok(boxes):
    app, _ = boxes
    shown = [app.frame()]
    press(app, "OK")
    press(app, IMPORT)
    shown.append(app.frame())
    assert app.frame().title == "Import from" and "cup" in said(app.frame())
    before = state(app)
    press(app, "OK")                                        # cup.json: checked, nothing written
    assert isinstance(app.screen, Confirm)
    shown.append(app.frame())
    assert "2 races into season Cup (new here)?" in said(app.frame()) and "OK: yes" in said(app.frame())
    press(app, "GO GO GO")                                  # GO never says yes
    assert isinstance(app.screen, Confirm) and state(app) == before
    press(app, "BACK")                                      # no: nothing written
    assert app.frame().title == "Import from" and state(app) == before
    press(app, "OK OK")                                     # asked again, and yes
    assert app.toast == "Added 2 races to season Cup"
    shown.append(app.frame())
    assert isinstance(app.screen, club_screens.ClubMenu)
    cup = seasons.find(app.journal, GAME, "Cup")
    assert len(cup.race_list()) == 2 and seasons.current(app.journal, GAME).name == "League"
    press(app, "OK")                                        # the message read
    press(app, "OK OK")                                     # the same file again: nothing to add
    assert app.toast == "Nothing new: its 2 races are here already"
    assert [(v.title, t) for v in shown for t in cut_texts(v, footer=True)] == []


def test_a_damaged_file_is_refused_and_changes_nothing(boxes):
    app, stick = boxes
    text = (stick / "cup.json").read_text("utf-8")
    (stick / "cup.json").write_text(text.replace('"Anne"', '"Anna"', 1), "utf-8")
    before = state(app)
    press(app, "OK")
    press(app, IMPORT)
    press(app, "OK")
    assert app.toast.startswith("cup.json refused, nothing was changed: the file is damaged")
    assert not isinstance(app.screen, Confirm) and state(app) == before


def test_a_file_in_the_state_folder_and_none_at_all(boxes, tmp_path):
    app, stick = boxes
    (stick / "cup.json").unlink()
    press(app, "OK")
    press(app, IMPORT)
    assert app.toast.startswith("No export file: put one on a USB stick")
    press(app, "OK")
    folder = app.journal.path.parent / club_record.IMPORT_FOLDER
    folder.mkdir()
    (folder / "a-very-long-name-for-an-export-file.json").write_text("{}", "utf-8")
    press(app, "OK")
    view = app.frame()
    assert view.title == "Import from" and cut_texts(view, footer=True) == []
    press(app, "OK")
    assert app.toast.endswith("refused, nothing was changed: this is not a season exported by `companion export`")


def test_a_box_with_no_race_yet_imports_from_its_club_menu(tmp_path, monkeypatch):
    app_a, _ = app_on(tmp_path)
    seasons.start(app_a.journal, GAME, "Cup")
    race(app_a, ["Anne", "Bob"])
    stick = tmp_path / "media" / "STICK"
    stick.mkdir(parents=True)
    (stick / "cup.json").write_text(json.dumps(exchange.export_season(app_a.journal, GAME, "Cup")), "utf-8")
    monkeypatch.setattr(club_record, "MEDIA", tmp_path / "media")
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    app, _ = app_on(fresh)
    app.push(flow.Results())
    assert "OK: club" in said(app.frame())
    press(app, "OK")
    press(app, IMPORT)
    press(app, "OK")
    assert "1 race into season Cup" in said(app.frame())
    press(app, "OK")
    assert app.toast == "Added 1 race to season Cup"
    assert any(line.startswith("1 Anne") for line in app.championship_lines())
