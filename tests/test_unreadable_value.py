"""A value stored too deeply nested to read (a crafted journal row with a valid row checksum,
a file imported by an older version) is said as unreadable, naming its race, in every view:
the journal's own read, a replay, the box's Results and club screens, ``companion results``
in every form and the table screen. Never a traceback; the box goes on.

The journal is made by the app, then a finished race is added through SQLite directly, its
results nested 985 deep, its row checksum made by the journal's own ``rowsums`` code."""

import contextlib
import io
import json
import sqlite3

import pytest

from companion.cli import main
from companion.core import rowsums
from companion.core.journal import Journal
from companion.league import ledger, seasons
from companion.ui import club as club_screens, flow
from companion.ui.render import cut_texts
from tests.table import press
from tests.ui.test_club import frames
from tests.test_seasons import GAME, app_on, race, season_on

DEPTH = 985


def deep(depth: int = DEPTH) -> str:
    """JSON text nested ``depth`` lists deep (written as text: encoding it would recurse)."""
    return "[" * depth + '{"name":"Anne"}' + "]" * depth


def crafted_row(state, column="results", value=None) -> int:
    """A finished Formula Dé race (lap counter) added to the journal in ``state`` through
    SQLite, ``column`` holding the JSON text ``value`` (985 deep), its row summed by ``rowsums``."""
    db = sqlite3.connect(state / Journal.FILENAME)
    rowsums.seal(db)
    fine = {"standings": [{"name": "Cy", "position": 1, "points": 10}]}
    row = {"activity": "laps", "options": '{"game":"formula-de"}', "data": "{}", "championship": GAME,
           "started": 1_795_000_000.0, "finished": 1_795_003_000.0, "results": json.dumps(fine)}
    row[column] = value if value is not None else json.dumps(fine)[:-1] + ',"deep":' + deep() + "}"
    with db:
        cur = db.execute("INSERT INTO sessions (activity, options, data, championship, started, finished, results) "
                         "VALUES (?,?,?,?,?,?,?)", tuple(row.values()))
    sid = cur.lastrowid
    assert rowsums.damage(db) is None            # the row passes its checksum: only its value is wrong
    db.close()
    return sid


@pytest.fixture
def box(tmp_path):
    """A box that raced twice (Anne won both), then a crafted race was stored: (state, id)."""
    state = tmp_path / "box"
    season_on(state, (["Anne", "Bob"], ["Anne", "Bob"])).journal.close()
    return state, crafted_row(state)


def said(sid: int) -> str:
    return f"race {sid} (started "


def test_the_journal_reads_the_row_as_unreadable(box):
    state, sid = box
    journal = Journal(state)
    bad = journal.session(sid)
    assert bad.unreadable == ("results",) and bad.results is None
    assert [s.id for s in ledger.unshown(journal)] == [sid]
    assert sid not in {s.id for s in ledger.finished(journal)}
    note = ledger.unshown_note(journal)
    assert said(sid) in note and "nest too deeply" in note and "restore a backup from before it" in note
    assert [r["name"] for r in seasons.standings(seasons.current(journal, GAME))] == ["Anne", "Bob"]


def test_a_deep_option_counts_nowhere_and_is_named(tmp_path):
    state = tmp_path / "box"
    state.mkdir()
    app, _ = app_on(state)
    race(app, ["Anne", "Bob"])
    app.journal.close()
    sid = crafted_row(state, "options", '{"game":"formula-de","deep":' + deep() + "}")
    journal = Journal(state)
    assert journal.session(sid).unreadable == ("options",)
    assert said(sid) in ledger.unshown_note(journal)


def test_a_replay_skips_a_move_nested_too_deeply(box):
    """A move stored 985 deep (its CRC and row checksum made again) is skipped and named."""
    state, _ = box
    journal = Journal(state)
    sid = ledger.finished(journal)[-1].id
    seq = journal.replay(sid).rows[-1][0]
    journal.close()
    body = '{"kind":"lap","deep":' + deep() + "}"
    db = sqlite3.connect(state / Journal.FILENAME)
    rowsums.seal(db)
    from companion.core.journal import _crc
    with db:
        db.execute("UPDATE events SET body=?, crc=? WHERE session=? AND seq=?", (body, _crc(body), sid, seq))
    assert rowsums.damage(db) is None
    db.close()
    replay = Journal(state).replay(sid)
    assert replay.rows[-1][2] is None
    assert any(f"journal entry {seq} " in p and "unreadable and was skipped" in p for p in replay.problems)


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("view", [[], ["--json"], ["--seasons"], ["--seasons", "--json"], ["--season", "Cup"],
                                  ["--season", "Cup", "--json"], ["--driver", "Anne"], ["--driver", "Anne", "--json"],
                                  ["--championship", GAME], ["--csv", "CSV"]])
def test_companion_results_in_every_form(box, tmp_path, view):
    state, sid = box
    view = [str(tmp_path / "csv") if v == "CSV" else v for v in view]
    code, out, err = run("results", "--state", str(state), *view)
    assert code == 0, err
    assert said(sid) in err and "Traceback" not in err
    assert "Anne" in out or view[:1] == ["--csv"]
    if view[-1:] == ["--json"]:
        json.loads(out)                                   # whole on stdout
    if view[:1] == ["--csv"]:
        assert "Anne" in (tmp_path / "csv" / "standings.csv").read_text(encoding="utf-8-sig")


def test_print_goes_on(box, tmp_path):
    state, _ = box
    code, _, err = run("print", "championship", "--state", str(state), "--to", "png", "--out", str(tmp_path / "png"))
    assert code == 0 and "Traceback" not in err
    assert list((tmp_path / "png").glob("*.png"))


def test_the_box_says_it_on_its_results_and_club_screens(box):
    """The championship, a season's table and a driver's record open and read whole; the
    championship and the season name the race that cannot be read; the box goes on."""
    state, sid = box
    app, _ = app_on(state)
    app.push(flow.Results())
    shown = [app.frame()]
    lines = app.championship_lines()
    assert f"Race {sid} unreadable" in lines and lines[2].startswith("1 Anne"), lines
    shown += frames(app, "OK")                                   # the club menu
    assert isinstance(app.screen, club_screens.ClubMenu)
    shown += frames(app, "DOWN OK OK")                           # the seasons, Cup
    assert f"Race {sid} unreadable" in app.club().season_lines("Cup")
    shown += frames(app, "BACK BACK DOWN OK OK")                 # the drivers, Anne's record
    assert app.screen.title == "Anne" if hasattr(app.screen, "title") else True
    shown += frames(app, "BACK BACK BACK BACK")
    assert isinstance(app.screen, flow.Home)
    texts = [t for v in shown for t in cut_texts(v, footer=True)]
    assert texts == []
    assert any(f"Race {sid} unreadable" in str(v) for v in shown)


def test_the_table_screen_says_it(box):
    from companion.table.source import Follower

    state, sid = box
    follower = Follower(state)
    try:
        payload = follower.payload
        assert any(said(sid) in p for p in payload["problems"]), payload["problems"]
        assert [r["name"] for r in payload["championship"]["standings"]] == ["Anne", "Bob"]
        json.dumps(payload)
    finally:
        follower.close()
