"""How tests/reference/journal-before-aside.sql.gz was made: the evenings it holds, played
by the companion as it was before races could be put aside (commit 389b050), then dumped
as SQL (``sqlite3.Connection.iterdump``, gzipped):

    git archive 389b050 companion | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old python tests/reference/journal_before_aside.py /tmp/state \
        tests/reference/journal-before-aside.sql.gz

1 Formula Dé, finished; 2 lap counter with Formula Dé's points, finished (kept under the
key "formula-de" then); 3 3-Wide, dealt and left when 4 Lacorsa began (finished); 5 deck
shuffler, left for 6 Formula Dé (finished).
"""
import sys
from pathlib import Path

from evening import box, demo, play as play_on

state = Path(sys.argv[1])
app = box(state, 7)


def play(slug, options, moves=None):
    play_on(app, slug, options, moves)


players = [{"name": c, "colour": c} for c in ("Red", "Blue", "Yellow")]
play("formula-de", demo("formula-de"))                                   # 1: Formula Dé, finished
play("laps", {"game": "formula-de", "players": players, "length": 2, "count": "up", "timing": "off"})  # 2: lap counter, F-Dé points
play("3-wide", demo("3-wide"), moves=3)                                  # 3: 3-Wide dealt, left for ...
play("lacorsa", demo("lacorsa"))                                         # 4: Lacorsa, finished
play("deck", demo("deck"), moves=4)                                      # 5: deck shuffler, left for ...
play("formula-de", demo("formula-de"))                                   # 6: Formula Dé, finished
for s in app.journal.sessions():
    print(s.id, s.activity, s.championship, s.finished is not None)

if len(sys.argv) > 2:      # the dump the tests load: ... journal_before_aside.py /tmp/state out.sql.gz
    import gzip
    import sqlite3
    with gzip.open(sys.argv[2], "wt", encoding="utf-8") as out:
        out.write("\n".join(sqlite3.connect(state / "journal.sqlite3").iterdump()))
