"""How tests/reference/journal-before-seasons.sql.gz and its .json were made: evenings played
by the companion as it was just before seasons existed (commit 8a9dc8e), the journal dumped
as SQL (``sqlite3.Connection.iterdump``, gzipped), and what that companion's
``companion results --json --championship KEY`` said of each championship:

    git archive 8a9dc8e companion | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old python tests/reference/journal_before_seasons.py /tmp/state \
        tests/reference/journal-before-seasons

1 Formula Dé, finished; 2 Top Speed, finished; 3 lap counter with Formula Dé's points,
finished; 4 Formula Dé, finished; 5 Street Illegal, finished; 6 Top Speed, put aside
half way; 7 Formula Dé, finished.
"""
import contextlib
import io
import json
import sys
from pathlib import Path

from companion.cli import main
from evening import box, demo, play as play_on

state = Path(sys.argv[1])
app = box(state, 11)


def play(slug, options, moves=None):
    play_on(app, slug, options, moves)


players = [{"name": n, "colour": c} for n, c in (("Anne", "Red"), ("Bob", "Blue"), ("Cy", "Yellow"))]
play("formula-de", demo("formula-de"))                                   # 1
play("top-speed", demo("top-speed"))                                     # 2
play("laps", {"game": "formula-de", "players": players, "length": 2, "count": "up", "timing": "off"})  # 3
play("formula-de", demo("formula-de"))                                   # 4
play("street-illegal", demo("street-illegal"))                           # 5
play("top-speed", demo("top-speed"), moves=6)                            # 6: put aside ...
app.journal.put_aside()
play("formula-de", demo("formula-de"))                                   # 7
for s in app.journal.sessions():
    print(s.id, s.activity, s.championship, s.finished is not None)
app.journal.close()

if len(sys.argv) > 2:      # ... journal_before_seasons.py /tmp/state tests/reference/journal-before-seasons
    import gzip
    import sqlite3
    out = Path(sys.argv[2])
    with gzip.open(out.with_suffix(".sql.gz"), "wt", encoding="utf-8") as dump:
        dump.write("\n".join(sqlite3.connect(state / "journal.sqlite3").iterdump()))
    said = {}
    for key in ("formula-de", "top-speed", "street-illegal", "laps:formula-de"):
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            main(["results", "--state", str(state), "--json", "--championship", key])
        said[key] = json.loads(text.getvalue())["championship"]
    out.with_suffix(".json").write_text(json.dumps(said, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
