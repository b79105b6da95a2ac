"""A race put right on the box: the club menu's races, a void (and counting it again), a
place corrected, a name corrected, a penalty, a race moved, a season's rules, and the last
change undone; each asked on a Confirm that only OK answers (GO does nothing), each an
event on top of the race, and every screen whole at 128x64."""

import os
from pathlib import Path

from companion.league import corrections, seasons
from companion.ui import flow
from companion.ui.render import cut_texts, render
from tests.table import press
from tests.test_seasons import GAME, app_on, race

PICTURES = os.environ.get("CLUB_PNG")       # a folder: every frame saved there, to look at


def frames(app, keys: str, seen: list) -> None:
    for key in keys.split():
        press(app, key)
        seen.append(app.frame())


def box(state_dir):
    app, tray = app_on(state_dir)
    seasons.start(app.journal, GAME, "Cup")
    race(app, ["Anne", "Bob", "Cy"])
    race(app, ["Bob", "Maximilian", "Anne"])
    seasons.start(app.journal, GAME, "Spring")
    race(app, ["Cy", "Anne"])
    app.go_home()
    app.push(flow.Results())
    press(app, "OK")                                  # the club menu
    return app, tray


def table(app, name):
    return [(r["name"], r["points"]) for r in seasons.standings(seasons.find(app.journal, GAME, name))]


def to_item(app, title: str, seen: list) -> None:
    """Move the club menu's selection to ``title`` and choose it."""
    from companion.ui.club import ClubMenu
    frames(app, " ".join(["DOWN"] * ClubMenu.ITEMS.index(title) + ["OK"]), seen)


def test_a_race_is_put_right_on_the_box_and_every_screen_reads_whole(state_dir):
    app, tray = box(state_dir)
    seen = [app.frame()]
    rows = [(s.id, s.results) for s in app.journal.sessions()]
    to_item(app, "Races", seen)                              # the newest first
    assert seen[-1].title == "Races"
    frames(app, "DOWN OK", seen)                             # Bob's race in Cup
    assert seen[-1].title.startswith("Race ")
    frames(app, "OK", seen)                                  # its standings
    assert seen[-1].title.startswith("Race ")
    frames(app, "GO BACK", seen)                             # GO prints it
    assert "Maximilian" in repr(tray.receipts[-1].items)

    frames(app, "DOWN DOWN OK", seen)                        # correct a place: whose
    assert seen[-1].title == "Whose place"
    frames(app, "DOWN DOWN OK", seen)                        # Anne was...
    frames(app, "DOWN OK", seen)                             # 2nd; why
    assert seen[-1].title == "Why"
    frames(app, "OK", seen)                                  # steward: the question
    assert seen[-1].title == "Confirm"
    frames(app, "GO", seen)                                  # GO never answers
    assert seen[-1].title == "Confirm" and table(app, "Cup")[0] == ("Bob", 18)
    frames(app, "OK", seen)
    assert seen[-1].title.startswith("Race ") and app.toast == "Place corrected"
    assert sorted(table(app, "Cup")) == [("Anne", 18), ("Bob", 18), ("Cy", 6), ("Maximilian", 6)]
    frames(app, "UP UP OK", seen)                            # its standings say so
    from companion.ui.club import RaceMenu
    rid = next(s for s in reversed(app.stack) if isinstance(s, RaceMenu)).rid
    assert app.club().race_lines(rid)[-2:] == ["corrected: Anne 3rd", " > 2nd (steward)"]   # whole, in lines
    frames(app, "BACK", seen)

    frames(app, "DOWN DOWN DOWN DOWN OK", seen)              # a penalty: to whom
    assert seen[-1].title == "Penalty to"
    frames(app, "OK DOWN DOWN OK OK", seen)                  # Bob: take 3 pts, steward
    assert seen[-1].title == "Confirm"
    frames(app, "OK", seen)
    assert app.toast == "Penalty given" and dict(table(app, "Cup"))["Bob"] == 15

    frames(app, "UP OK", seen)                               # correct a name: whose
    frames(app, "DOWN OK", seen)                             # Maximilian's
    assert seen[-1].title == "Correct a name"

    frames(app, "BACK BACK UP UP OK", seen)                  # void: why
    assert seen[-1].title == "Why"
    frames(app, "DOWN OK OK", seen)                          # test race, confirmed
    assert app.toast == "Race voided" and table(app, "Cup") == [("Anne", 10), ("Bob", 8), ("Cy", 6)]
    assert seen[-1].title.startswith("Race ")
    frames(app, "OK", seen)                                  # count it again: confirmed
    assert seen[-2].title.startswith("Race ") and seen[-1].title == "Confirm"
    frames(app, "OK", seen)
    assert app.toast == "Race counts again" and dict(table(app, "Cup"))["Bob"] == 15

    frames(app, "DOWN DOWN DOWN DOWN OK", seen)              # move it to Spring
    assert seen[-1].title == "Move to"
    frames(app, "OK OK", seen)
    assert app.toast == "Moved to Spring" and len(seasons.find(app.journal, GAME, "Spring").race_list()) == 2

    frames(app, "BACK BACK BACK", seen)                      # the message, the race, the races: the club menu
    assert seen[-1].title == "Club", [v.title for v in seen[-6:]]
    frames(app, "DOWN OK", seen)                             # undo a change
    assert seen[-1].title == "Confirm"
    frames(app, "OK", seen)
    assert app.toast.startswith("Undone: move to season Spring")
    assert len(seasons.find(app.journal, GAME, "Cup").race_list()) == 2

    frames(app, "UP UP OK", seen)                            # season rules: Cup
    frames(app, "DOWN OK", seen)
    assert seen[-1].title == "Season rules"
    frames(app, "DOWN OK OK OK DOWN DOWN OK", seen)          # 3 races
    assert seen[-1].title == "Confirm", [(v.title, v.body) for v in seen[-8:]]
    frames(app, "OK", seen)
    assert app.toast == "Rules set" and seasons.find(app.journal, GAME, "Cup").races == 3

    assert [(s.id, s.results) for s in app.journal.sessions()] == rows        # no race rewritten
    kinds = [e["kind"] for e in app.journal.club_events()]
    assert kinds.count("undo") == 1 and {"correct", "penalty", "void", "unvoid", "move", "season-set"} <= set(kinds)
    cut = [(v.title, t) for v in seen for t in cut_texts(v, footer=True)]
    assert cut == [], sorted(set(cut))
    if PICTURES:
        Path(PICTURES).mkdir(parents=True, exist_ok=True)
        for k, view in enumerate(seen):
            render(view).save(Path(PICTURES) / f"{k:03d}.png")


def test_a_name_corrected_on_the_box(state_dir):
    app, _ = box(state_dir)
    to_item(app, "Races", [])
    press(app, "DOWN OK DOWN DOWN DOWN OK DOWN OK")          # Bob's race: correct Maximilian's name
    from companion.ui.club import DRIVER_KEY, FixName
    fix = app.stack[-1]
    assert isinstance(fix, FixName) and app.frame().title == "Correct a name"
    press(app, "DOWN DOWN OK")
    assert app.toast == "Type the right name"                # the same name: nothing to correct
    press(app, "UP OK")
    assert app.frame().title.startswith("Name")              # the name wheel, as for a player
    app.pop()
    fix.names[DRIVER_KEY] = "Max"                            # typed there (the wheel has its own tests)
    press(app, "DOWN OK")
    assert app.frame().title == "Confirm" and not cut_texts(app.frame(), footer=True)
    press(app, "OK")
    assert app.toast == "Name corrected"
    session = corrections.find_race(app.journal, fix.rid)
    assert corrections.said(app.journal, session) == ["corrected: Maximilian → Max"]
    assert ("Max", 8) in table(app, "Cup") and "Maximilian" not in dict(table(app, "Cup"))
