"""The power-loss guarantee with the table screen reading: the companion is killed at random
moments of a scripted race while the table server follows its journal with 12 pages open,
and every committed event is still there, the companion resumes exactly the clean replay,
and the table screen shows that same state. (The full 200-cut test is tests/test_power_loss.py.)"""

import json
import random
import time

from companion.core.journal import Journal
from companion.games import registry
from companion.table.public import public_view
from tests.tablescreen.test_server import events, get, phone
from tests.test_power_loss import RACES, arguments, bodies, check_resumes_clean, journal_appears

CUTS = 3


def served_race(port: int, want, within: float = 30.0):
    """The race ``/state.json`` serves, once it is ``want`` (or when ``within`` seconds are up)."""
    deadline = time.monotonic() + within
    while True:
        race = json.loads(get(port, "/state.json")[2])["race"]
        if race == want or time.monotonic() > deadline:
            return race
        time.sleep(0.05)


def test_sigkill_while_twelve_pages_read_the_journal(starter, serving, tmp_path):
    ref = tmp_path / "reference"
    proc = starter.start(arguments(ref, RACES["dice"]))
    opened = journal_appears(ref, proc)
    assert proc.wait() == 0
    reference, during = bodies(ref), time.monotonic() - opened
    rng = random.Random("power-cut-with-pages")
    for k in range(CUTS):
        state = tmp_path / f"cut-{k}"
        state.mkdir()
        srv = serving(state)
        proc = starter.start(arguments(state, RACES["dice"]))
        journal_appears(state, proc)
        pages = [events(srv.port, source=phone(n)) for n in range(1, 13)]
        time.sleep(rng.uniform(0.0, during))
        proc.kill()
        proc.wait()
        got = bodies(state)
        assert got == reference[:len(got)], f"cut {k}: the journal differs from the reference"
        check_resumes_clean(state, restart=False)
        with Journal(state) as journal:
            session = (journal.sessions() or [None])[-1]
            if session is not None:
                act = registry.activity(session.activity)    # not the follower's: its thread is still at work
                clean = act.setup(session.options, session.data)
                for event in journal.replay(session.id).effective:
                    clean = act.apply(clean, event)
                assert served_race(srv.port, public_view(act, clean)) == public_view(act, clean), \
                    f"cut {k}: the page does not show the clean replay"
                srv.halt()                      # the server's thread no longer reads the follower
                srv.follower.poll()
                assert srv.follower.state == clean
        for sock, _ in pages:
            sock.close()
        srv.stop()
