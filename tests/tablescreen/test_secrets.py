"""The table screen serves public facts only: twin journals that differ in a hidden fact
alone are served byte for byte the same.

A race is played through the real app into a journal. Its twin differs in one hidden fact
and in nothing a player at the table could see: the card entered face down (until its
reveal), a card or tactic chosen and undone (for ever after), an automated car's face-down
card, two cards swapped between the automated hands, the order of the tactic deck still to
draw. The twin is made the way the box makes a journal (the move performed by the session
runner, which writes the history's label) or, for what the box draws by itself, by
rewriting the event in a copy of the journal. A follower reads each journal as the box
writes it, one row at a time: the page's data after every row of the twin must be the data
after the same row of the race; where the twin takes another number of rows (a Redline
chosen first), what the pages are pushed (the data each time it changes) must be the same.
At a sample of those moments the real server is asked for ``/state.json`` and the first
``/events`` message of both, and the bytes compared.
"""

from __future__ import annotations

import dataclasses
import json
import random
import socket
import sqlite3
import zlib
from dataclasses import dataclass, field, replace

import pytest

from companion.core import rowsums
from companion.core.deck import Pile
from companion.core.journal import UNDO, Journal
from companion.games import registry
from companion.games.lacorsa import rules as LR
from companion.session import SessionRunner
from companion.table.source import Follower

from tests.table import make_app
from tests.tablescreen.test_server import get

COLUMNS = "session, seq, label, body, crc, created"
FILE = Journal.FILENAME
CHOICES = {"lacorsa": ("plays",), "3-wide": ("play",), "street-illegal": ("bid", "raise")}
"""The moves that make a face-down choice, by activity."""
FACE_DOWN = {
    "lacorsa": lambda s: bool(s.plays) and bool(LR.waiting(s)),
    "3-wide": lambda s: s.phase == "tactics",
    "street-illegal": lambda s: bool(s.bids) or s.duel is not None and s.stage == "nitrous" and bool(s.duel.raised),
}
"""When a face-down choice is made and not yet turned, as the rulebooks have it (the
table's own ``secret`` hooks are not trusted here)."""
LAST_TO_CHOOSE = {
    "lacorsa": lambda s: len(LR.waiting(s)) == 2,
    "3-wide": lambda s: s.actor == len(s.players) - 1,
    "street-illegal": lambda s: True,
}
"""Where a choice is undone in the tests: as near the reveal as it can be (the page's last
actions list it when the choices are turned)."""
LACORSA_HUMANS = {"players": 4, "championship": False, "tie_crash": False,
                  "cars": [{"driver": "human"}, {"driver": "human"}, {"driver": "human"}, {"driver": "human"}]}
"""Four human cars: qualifying and every challenge is human against human."""


# -- a race played through the app, each journal row with its move -------------------------

@dataclass
class Played:
    state_dir: object
    slug: str
    moves: dict[int, object] = field(default_factory=dict)      # seq -> the move performed
    rows: list[tuple] = field(default_factory=list)             # the journal's event rows

    @property
    def activity(self):
        return registry.activity(self.slug)


def last_seq(app, after: int = 0) -> int:
    """The seq of the newest journal row (one after ``after``: only those are read)."""
    return app.journal.replay(app.runner.session.id, after=after).rows[-1][0]


def play_race(state_dir, slug: str, moves: int, options=None, script=None, seed=None) -> Played:
    """``moves`` of the demo (or ``script(app, state)``: a move, or "undo") played by the app."""
    act = registry.activity(slug)
    app = make_app(state_dir, seed=act.demo.seed if seed is None else seed)
    app.start_session(slug, dict(options or act.demo.options))
    played = Played(state_dir, slug)
    seq = 0
    for _ in range(moves):
        if app.runner.session.finished is not None:
            break
        move = (script or (lambda a, s: act.demo.script(s)))(app, app.runner.state)
        if move is None:
            break
        if move == "undo":
            app.undo()
        else:
            app.perform(move)
            seq = last_seq(app, seq)
            played.moves[seq] = move
    app.journal.close()
    played.rows = journal_rows(state_dir)
    return played


def journal_rows(state_dir) -> list[tuple]:
    db = sqlite3.connect(state_dir / FILE)
    try:
        return db.execute(f"SELECT {COLUMNS} FROM events ORDER BY session, seq").fetchall()
    finally:
        db.close()


def empty_copy(src_dir, dst_dir) -> sqlite3.Connection:
    """The journal of ``src_dir`` in ``dst_dir`` without its events: a writer on it."""
    dst_dir.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(src_dir / FILE)
    dst = sqlite3.connect(dst_dir / FILE)
    src.backup(dst)
    src.close()
    dst.execute("PRAGMA synchronous=OFF")
    rowsums.seal(dst)                # rows added on it carry their checksums, as the box's do
    dst.execute("DELETE FROM events")
    dst.execute("DELETE FROM snapshots")
    dst.commit()
    return dst


def add(db: sqlite3.Connection, rows) -> None:
    db.executemany(f"INSERT INTO events ({COLUMNS}) VALUES (?,?,?,?,?,?)", rows)
    db.commit()


def texts_as_written(src_dir, work_dir, rows, start: int = 0) -> list[str]:
    """The page's data (the follower's text) as the box writes ``rows`` into a journal
    like the one in ``src_dir``: the first ``start`` rows at once, then one at a time;
    item i is the text after ``start + i`` rows."""
    db = empty_copy(src_dir, work_dir)
    add(db, rows[:start])
    follower = Follower(work_dir)
    texts = [follower.text]
    for row in rows[start:]:
        add(db, [row])
        follower.poll()
        texts.append(follower.text)
    follower.close()
    db.close()
    return texts


class Reading:
    """A follower reading a journal like the one in ``src_dir`` as the box writes ``rows``
    into it: ``upto(k)`` writes them up to row ``k`` (on from the last asked) and polls."""

    def __init__(self, src_dir, work_dir, rows):
        self.db, self.rows, self.k = empty_copy(src_dir, work_dir), rows, 0
        self.follower = Follower(work_dir)

    def upto(self, k: int) -> Follower:
        add(self.db, self.rows[self.k:k])
        self.k = k
        self.follower.poll()
        return self.follower

    def close(self) -> None:
        self.follower.close()
        self.db.close()


def prefix_dir(src_dir, work_dir, rows, k: int):
    db = empty_copy(src_dir, work_dir)
    add(db, rows[:k])
    db.close()
    return work_dir


def pushed(texts: list[str]) -> list[str]:
    """What a page is pushed: the data each time it changes."""
    return [t for i, t in enumerate(texts) if i == 0 or t != texts[i - 1]]


def served(port: int) -> tuple[bytes, bytes]:
    """The bytes of ``/state.json`` and of the first ``/events`` message."""
    status, _, state = get(port, "/state.json")
    assert status == 200
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        buf = b""
        while True:
            blocks = buf.partition(b"\r\n\r\n")[2].split(b"\n\n")[:-1]
            race = next((x for x in blocks if x.startswith(b"event: race\n")), None)
            if race is not None:
                return state, race
            chunk = s.recv(65536)
            assert chunk, "the server closed the event stream"
            buf += chunk


def assert_served_alike(serving, tmp_path, a: Played, a_rows, b_rows, k_a: int, k_b: int, tag: str) -> str:
    """The real server, over journals holding the first rows of the race and of its twin,
    serves the same bytes; the page's data it serves (that of a follower started on those
    rows, ``/state.json``)."""
    got = []
    for name, rows, k in (("a", a_rows, k_a), ("b", b_rows, k_b)):
        srv = serving(prefix_dir(a.state_dir, tmp_path / f"{tag}-{name}-served", rows, k))
        got.append(served(srv.port))
        srv.stop()
    assert got[0][1].startswith(b"event: race\ndata: ")
    assert got[0] == got[1], f"{tag}: the server's bytes differ"
    return got[1][0].decode()


# -- the twins ---------------------------------------------------------------------------

def states_after(played: Played) -> list:
    """The state after each row of the race's journal (None for an undo: not needed)."""
    act = played.activity
    with Journal(played.state_dir) as journal:
        session = journal.sessions()[-1]
        state = act.setup(session.options, session.data)
        out = []
        stack = []
        for seq, _, event, _ in journal.replay(session.id).rows:
            if event["kind"] == UNDO:
                state = stack.pop()
                out.append(state)
                continue
            stack.append(state)
            state = act.apply(state, event)
            out.append(state)
    return out


def windows(played: Played) -> list[tuple[int, int]]:
    """(first row, reveal row) of each face-down window: row indices into ``rows``, the
    window's rows leave a face-down choice made, the reveal row ends it."""
    secret = FACE_DOWN[played.slug]
    out, start = [], None
    for i, state in enumerate(states_after(played)):
        if secret(state) and start is None:
            start = i
        elif not secret(state) and start is not None:
            out.append((start, i))
            start = None
    return out


def runner_at(played: Played, work_dir, k: int) -> SessionRunner:
    """The box's session runner on a copy of the race's journal holding its first ``k`` rows."""
    prefix_dir(played.state_dir, work_dir, played.rows, k)
    journal = Journal(work_dir)
    return SessionRunner.resume(journal, journal.sessions()[-1])


def choice_rows(played: Played, lo: int, hi: int) -> list[int]:
    """Row indices in [lo, hi) where a player made a face-down choice on the box."""
    kinds = CHOICES[played.slug]
    return [i for i in range(lo, hi) if played.moves.get(played.rows[i][1]) is not None
            and played.moves[played.rows[i][1]].kind in kinds]


def alternatives(runner: SessionRunner, move) -> list[list]:
    """Other face-down choices the same player could make instead of ``move``, as the
    moves that make them (a Lacorsa Redline takes two: ``R + a card``, then the card)."""
    options = runner.moves()
    same = [[m] for m in options if m.kind == move.kind and m.player == move.player and m != move]
    red = next((m for m in options if m.kind == "redline"), None)
    if red is not None and len(move.arg("cards") or ()) < 2:
        same.insert(0, [red, "R+"])
    return same


def twin(played: Played, work_dir, at: int, upto: int, undo: bool = False) -> tuple[list[tuple], int] | None:
    """The race's journal with the face-down choice of row ``at`` made otherwise, the
    rows after it up to row ``upto`` (excluded) made by the same moves: (its rows up to
    there, the number of rows it took in place of ``at``'s). With ``undo`` the row
    ``at + 1`` is the choice's undo, and every row after it is the race's own."""
    move = played.moves[played.rows[at][1]]
    probe = runner_at(played, work_dir / "probe", at)
    options = [o for o in alternatives(probe, move) if not undo or len(o) == 1]
    probe.journal.close()
    for n, option in enumerate(options):
        runner = runner_at(played, work_dir / f"try{n}", at)
        rng = random.Random(0)
        try:
            for m in option:
                if m == "R+":
                    m = next(x for x in runner.moves() if x.kind == move.kind and len(x.arg("cards") or ()) == 2)
                runner.perform(m, rng)
            if undo:
                runner.undo()
            else:
                for i in range(at + 1, upto):
                    runner.perform(played.moves[played.rows[i][1]], rng)
        except Exception:       # the rest of the race's moves do not fit this choice: the next
            runner.journal.close()
            continue
        runner.journal.close()
        rows = journal_rows(work_dir / f"try{n}")
        taken = len(rows) - at - (1 if undo else upto - at - 1)
        if undo:
            rows = rows + played.rows[at + 2:]
        return rows, taken
    return None


def rewritten(rows: list[tuple], i: int, change) -> list[tuple]:
    """``rows`` with the event body of row ``i`` changed by ``change(event)`` (its crc made anew)."""
    session, seq, label, body, _, created = rows[i]
    new = json.dumps(change(json.loads(body)), separators=(",", ":"), ensure_ascii=False)
    return rows[:i] + [(session, seq, label, new, zlib.crc32(new.encode()), created)] + rows[i + 1:]


# -- the checks --------------------------------------------------------------------------

def check_windows(played: Played, tmp_path, serving, most: int = 6) -> tuple[int, int]:
    """Each face-down window (up to ``most``): the choice made otherwise, the page the same
    until the reveal. Returns how many windows were checked, and in how many the other
    choice took another number of rows (a Redline chosen first)."""
    texts = texts_as_written(played.state_dir, tmp_path / "race", played.rows)
    checked = longer = 0
    for w, (lo, reveal) in enumerate(windows(played)):
        rows = choice_rows(played, lo, reveal)
        if not rows or checked >= most:
            continue
        at = rows[0]
        made = twin(played, tmp_path / f"w{w}", at, reveal)
        assert made is not None, f"no other choice fits the race at row {at}"
        b_rows, taken = made
        b = texts_as_written(played.state_dir, tmp_path / f"w{w}-twin", b_rows, start=at)
        a = texts[at:reveal + 1]             # from before the choice to before the reveal
        if taken == 1:
            assert b == a, f"{played.slug} row {at}: a face-down choice shows on the page"
        longer += taken != 1
        assert pushed(b) == pushed(a), f"{played.slug} row {at}: a face-down choice is pushed to the pages"
        if checked < 2:
            assert_served_alike(serving, tmp_path, played, played.rows, b_rows, reveal, len(b_rows), f"w{w}")
        checked += 1
    return checked, longer


def check_every_prefix(played: Played, tmp_path, serving, b_rows, lo: int, samples, tag: str) -> None:
    """The race and its twin (``b_rows``, the same rows from row ``lo`` on but for the
    hidden fact): the page's data after every row from ``lo``; at ``samples`` (row
    counts) the real server, its follower started on those rows."""
    assert len(b_rows) == len(played.rows)
    a = texts_as_written(played.state_dir, tmp_path / f"{tag}-a", played.rows, start=lo)
    b = texts_as_written(played.state_dir, tmp_path / f"{tag}-b", b_rows, start=lo)
    for i, (x, y) in enumerate(zip(a, b)):
        assert x == y, f"{tag}: the page differs after row {lo + i}"
    for n, k in enumerate(samples):
        fresh = assert_served_alike(serving, tmp_path, played, played.rows, b_rows, k, k, f"{tag}-{n}")
        assert fresh == b[k - lo], f"{tag}: a follower started after {k} rows sees another page"


# -- Lacorsa ---------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [None, LACORSA_HUMANS], ids=["against-automated", "human-against-human"])
def test_lacorsa_cards_entered_face_down_stay_hidden_until_the_reveal(state_dir, tmp_path, serving, options):
    played = play_race(state_dir, "lacorsa", 400, options=options)
    assert played.activity.finished(states_after(played)[-1]), "the race ran to its end"
    checked, redlines = check_windows(played, tmp_path, serving, most=30)
    assert checked >= (1 if options is None else 5) and redlines >= 1, (checked, redlines)
    # the box's own history says the same: who played face down, and what at the reveal
    for lo, reveal in windows(played):
        assert all(r[2].endswith("face down") for r in played.rows[lo:reveal] if '"plays"' in r[3])
        assert " played " in played.rows[reveal][2], played.rows[reveal][2]


def _enter_then_undo(slug: str, times: int):
    """The demo's table, but at the first ``times`` face-down choices by a player that do
    not end a window, another choice is made first and undone."""
    act = registry.activity(slug)
    done = []

    queue = []

    def script(app, state):
        if queue:
            return queue.pop(0)
        move = act.demo.script(state)
        if move is not None and move.kind in CHOICES[slug] and len(done) < times and LAST_TO_CHOOSE[slug](state):
            other = [m for m in app.runner.moves() if m.kind == move.kind and m.player == move.player and m != move]
            secret = FACE_DOWN[slug]
            after = [m for m in other if secret(act.apply(state, act.resolve(state, m, random.Random(0))))]
            if after:
                done.append(move)
                queue.extend(["undo", move])
                return after[0]
        return move
    return script


@pytest.mark.parametrize("slug,moves", [("lacorsa", 400), ("3-wide", 700), ("street-illegal", 400)])
def test_a_face_down_choice_undone_is_never_named(state_dir, tmp_path, serving, slug, moves):
    played = play_race(state_dir, slug, moves, options=LACORSA_HUMANS if slug == "lacorsa" else None,
                       script=_enter_then_undo(slug, 2))
    undos = [i for i, r in enumerate(played.rows) if json.loads(r[3])["kind"] == UNDO]
    assert len(undos) == 2, "the race undid two face-down choices"
    at = undos[0] - 1
    made = twin(played, tmp_path / "twin", at, at + 1, undo=True)
    assert made is not None
    b_rows, taken = made
    assert taken == 1 and len(b_rows) == len(played.rows)
    end = len(played.rows)
    samples = sorted({at + 1, at + 2, undos[1] + 1, min(end, at + 40), end})
    check_every_prefix(played, tmp_path, serving, b_rows, at, samples, "undo")
    follower = Follower(prefix_dir(state_dir, tmp_path / "undone", played.rows, at + 2))
    history = follower.payload["history"]
    follower.close()
    assert history[0] == f"Undo: {history[1]}" and "face down" in history[0], history


def test_lacorsa_automated_hands_and_cards_face_down_are_never_shown(state_dir, tmp_path, serving):
    played = play_race(state_dir, "lacorsa", 400)
    events = [json.loads(r[3]) for r in played.rows]
    deal = next(i for i, e in enumerate(events) if e["kind"] == "deal")
    hands = events[deal]["hands"]
    autos = [c for c, car in enumerate(states_after(played)[0].cars) if car.auto]

    def first_played(car: int, card: str) -> int:
        for i, e in enumerate(events):
            if e["kind"] == "plays" and any(p[0] == car and card in p[1] for p in e["plays"]):
                return i
            if e["kind"] == "act" and e.get("car") == car and card in e.get("cards", ()):
                return i
        return len(events)

    # two cards swapped between the automated hands: the page is the same until one is played
    x, y = max(((a, b) for a in set(hands[0]) for b in set(hands[1]) if a != b),
               key=lambda p: min(first_played(autos[0], p[0]), first_played(autos[1], p[1])))
    until = min(first_played(autos[0], x), first_played(autos[1], y))
    assert until > deal + 5

    def swap(event):
        h0, h1 = list(event["hands"][0]), list(event["hands"][1])
        h0[h0.index(x)], h1[h1.index(y)] = y, x
        return {**event, "hands": [h0, h1]}

    b_rows = rewritten(played.rows, deal, swap)[:until] + played.rows[until:]
    cut = replace(played, rows=played.rows[:until])
    check_every_prefix(cut, tmp_path, serving, b_rows[:until], deal, [deal + 1, until], "deal")

    # an automated car's card face down: another card of its hand, until the reveal
    checked = 0
    for lo, reveal in windows(played):
        auto_rows = [i for i in range(lo, reveal) if events[i]["kind"] == "plays" and events[i].get("face_down")]
        if not auto_rows:
            continue
        i = auto_rows[0]
        state = states_after(played)[i - 1]
        car, cards = events[i]["plays"][0]
        other = next(n for n in state.hands[car] if n not in cards and n != state.settings.redline)
        b_rows = rewritten(played.rows, i, lambda e: {**e, "plays": [[car, [other]]] + e["plays"][1:]})
        cut = replace(played, rows=played.rows[:reveal])
        check_every_prefix(cut, tmp_path, serving, b_rows[:reveal], i, [reveal], f"auto{i}")
        checked += 1
        if checked == 3:
            break
    assert checked == 3


# -- 3-Wide and Street Illegal -----------------------------------------------------------------

def test_three_wide_tactics_picked_stay_hidden_until_they_are_turned(state_dir, tmp_path, serving):
    played = play_race(state_dir, "3-wide", 500)
    assert check_windows(played, tmp_path, serving, most=4)[0] >= 2


def test_three_wide_tactic_deck_order_is_never_shown(state_dir, tmp_path, serving):
    """The tactic deck still to draw in another order: the page the same until the next draw."""
    played = play_race(state_dir, "3-wide", 300)
    events = [json.loads(r[3]) for r in played.rows]
    piles = [i for i, e in enumerate(events) if len(e.get("pile") or ()) > 1]
    assert len(piles) >= 3
    for i in piles[:3]:
        nxt = next((j for j in range(i + 1, len(events)) if "pile" in events[j]), len(events))
        b_rows = rewritten(played.rows, i, lambda e: {**e, "pile": list(reversed(e["pile"]))})
        cut = replace(played, rows=played.rows[:nxt])
        check_every_prefix(cut, tmp_path, serving, b_rows[:nxt], i, [i + 1, nxt], f"pile{i}")


def test_street_illegal_bids_and_nitrous_stay_hidden_until_turned(state_dir, tmp_path, serving):
    played = play_race(state_dir, "street-illegal", 400, seed=2)     # a race with nitrous ties
    kinds = [json.loads(played.rows[lo][3])["kind"] for lo, _ in windows(played)]
    assert "bid" in kinds and "raise" in kinds, "the race bids for its grid and settles a tie with nitrous"
    assert check_windows(played, tmp_path, serving)[0] == len(kinds)
    # the hand a nitrous card was raised from keeps it until both are turned
    nitrous = next(lo for lo, _ in windows(played) if json.loads(played.rows[lo][3])["kind"] == "raise")
    texts = texts_as_written(played.state_dir, tmp_path / "nitrous", played.rows[:nitrous + 1], start=nitrous)
    assert [c["widgets"] for c in json.loads(texts[0])["race"]["cars"]] == \
        [c["widgets"] for c in json.loads(texts[1])["race"]["cars"]]


# -- the order of the cards still to draw -------------------------------------------------------

def order_lists(slug: str, event: dict) -> list[tuple]:
    """Where ``event`` holds an order its deck is put in (a shuffle, a reshuffle of the
    discards): the keys that lead to each list."""
    kind = event["kind"]
    if slug == "deck":
        return [("shuffle",)] if kind == "draw" and event.get("shuffle") else \
            [("order",)] if kind in ("shuffle", "reshuffle") else []
    if slug == "top-speed":
        if kind in ("start", "qualify") and event.get("decks"):
            return [("decks", c) for c in range(len(event["decks"]))]
        return [("order",)] if kind == "pit" else [("reshuffle",)] if event.get("reshuffle") else []
    if slug == "street-illegal":
        if kind == "start":
            return [("op_order",)]
        return [("reshuffle",)] if event.get("reshuffle") else \
            [("third", "reshuffle")] if (event.get("third") or {}).get("reshuffle") else []
    return []


def _swapped(event: dict, path: tuple, j: int) -> dict:
    """``event`` with the cards at places ``j`` and ``j + 1`` of its order swapped."""
    event = json.loads(json.dumps(event))
    order = _follow_path(event, path)
    order[j], order[j + 1] = order[j + 1], order[j]
    return event


def drawn_since(slug: str, events: list[dict], i: int, path: tuple, k: int) -> int:
    """About how many cards were drawn from the order at ``path`` of event ``i`` before
    row ``k`` (where to look for the top of the deck)."""
    mine = events[i]
    if slug == "deck":
        same = [e for e in events[i:k] if e["kind"] == "draw" and e["deck"] == mine["deck"]]
    elif slug == "top-speed":
        car = path[1] if path[0] == "decks" else mine["car"]
        same = [e for e in events[i:k] if e["kind"] == "draw" and e["car"] == car]
    else:
        same = [e.get("third") or e for e in events[i:k] if e["kind"] in ("old_pro", "speed")]
    return sum(len(e.get("cards") or ()) for e in same)


@pytest.mark.parametrize("slug", ["deck", "top-speed", "street-illegal"])
def test_the_order_of_the_cards_still_to_draw_is_never_shown(state_dir, tmp_path, serving, slug):
    """At a sample of rows: the journal with two cards still to draw swapped, at the top of
    the deck (the next to draw and the one after) and at its bottom, in the newest shuffle
    that put them there: the same page. A swap a draw up to that row contradicts, or one
    that changes nothing (two cards alike), is passed over. Each journal is read as the box
    writes it (a swap asked about at the next sampled row too is read on from where it was);
    where the real server is asked, its follower, started on the rows written, serves the same."""
    played = play_race(state_dir, slug, 160, script=_deck_session if slug == "deck" else None)
    events = [json.loads(r[3]) for r in played.rows]
    orders = [(i, path) for i, e in enumerate(events) for path in order_lists(slug, e)
              if len(_follow_path(e, path)) >= 2]
    checked = {"top": 0, "bottom": 0}
    race = Reading(state_dir, tmp_path / "a", played.rows)
    swaps: dict[tuple, Reading] = {}           # (row, path, place) -> its journal being read
    for k in range(2, len(played.rows) + 1, 6):
        a = race.upto(k)
        found, asked = set(), {}
        for i, path in [o for o in orders if o[0] < k][::-1][:4]:
            size = len(_follow_path(events[i], path))
            guess = drawn_since(slug, events, i, path, k)
            places = {"top": range(max(0, guess - 2), min(size - 1, guess + 4)), "bottom": [size - 2]}
            for where, js in places.items():
                for j in (js if where not in found else ()):
                    swap = (i, path, j)
                    if swap not in swaps:
                        swaps[swap] = Reading(state_dir, tmp_path / f"b{k}-{len(swaps)}",
                                              rewritten(played.rows, i, lambda e: _swapped(e, path, j)))
                    asked[swap] = swaps[swap]
                    b = asked[swap].upto(k)
                    fits, same = not b.problems and b.state != a.state, b.text == a.text
                    if fits:
                        assert same, f"{slug} row {k}: the order of a deck reaches the page ({where})"
                        if sum(checked.values()) < 2:
                            b_rows = asked[swap].rows
                            fresh = assert_served_alike(serving, tmp_path, played, played.rows, b_rows, k, k,
                                                        f"order{k}-{j}")
                            assert fresh == b.text, f"{slug} row {k}: a follower started afresh sees another page"
                        checked[where] += 1
                        found.add(where)
                        break
            if len(found) == 2:
                break
        for swap in swaps.keys() - asked.keys():     # not asked about at this row: done with
            swaps.pop(swap).close()
    for reading in [race, *swaps.values()]:
        reading.close()
    assert min(checked.values()) >= 5, f"{slug}: {checked} moments with a deck in another order"


def _deck_session(app, state):
    """A longer session than the deck shuffler's demo: two cards drawn and discarded at a
    time, the discards put back under the pile every twelfth draw, 60 draws."""
    moves = {m.kind: m for m in app.runner.moves()}
    if state.draws >= 60:
        return None
    if len(state.deck.shown) >= 2:
        return moves["discard"]
    if "reshuffle" in moves and state.draws % 12 == 0:
        return moves["reshuffle"]
    return moves["draw"]


def _follow_path(event: dict, path: tuple):
    for key in path:
        event = event[key]
    return event


# -- every hidden part of a state, at every sampled moment of a race -------------------------

def _reversed(pile: Pile) -> Pile:
    return Pile(tuple(reversed(pile.draw)), pile.discard)


def _three_wide(state):
    deck = len(state.settings.deck)
    held = {i for h in state.hands for i in h}
    other = [i for i in range(deck) if i not in held] + sorted(held)
    hands, k = [], 0
    for h in state.hands:                      # other cards, as many as each hand holds
        hands.append(tuple(other[k:k + len(h)]))
        k += len(h)
    return dataclasses.replace(state, hands=tuple(hands), pile=tuple(reversed(state.pile)))


def _lacorsa(state):
    names = [d.name for d in state.settings.suit]
    return dataclasses.replace(state, hands=tuple(tuple(reversed(names))[:len(h)] for h in state.hands))


def _top_speed(state):
    return dataclasses.replace(state, cars=tuple(dataclasses.replace(c, pile=_reversed(c.pile))
                                                 for c in state.cars))


def _street_illegal(state):
    return dataclasses.replace(state, pile=_reversed(state.pile))


def _deck(state):
    return dataclasses.replace(state, decks=tuple(dataclasses.replace(d, pile=_reversed(d.pile))
                                                  for d in state.decks))


HIDDEN = {  # slug: (the hidden part changed, when the race holds it)
    "3-wide": (_three_wide, lambda s: s.phase == "tactics" and s.show and any(len(h) > 1 for h in s.hands)),
    "lacorsa": (_lacorsa, lambda s: any(len(h) > 1 for h in s.hands) and s.step == "race"),
    "top-speed": (_top_speed, lambda s: s.phase not in ("start", "grid") and s.cars[0].pile.left > 5),
    "street-illegal": (_street_illegal, lambda s: s.step == "race" and s.pile.left > 2),
    "deck": (_deck, lambda s: s.deck.pile.left > 5 and s.draws > 2),
}


@pytest.mark.parametrize("slug", sorted(HIDDEN))
def test_the_hidden_part_of_the_state_never_reaches_the_page(state_dir, slug):
    """At every tenth row of a race (and every row of its first stretch) the follower's
    state given other hidden cards (other hands, the decks in another order): the same data.
    The follower reads the rows written since it last read, at those moments."""
    change, holds = HIDDEN[slug]
    played = play_race(state_dir, slug, 600)
    db = empty_copy(state_dir, state_dir.parent / "follow")
    follower = Follower(state_dir.parent / "follow")
    seen = written = 0
    for k in range(len(played.rows)):
        if k >= 60 and k % 10:
            continue
        add(db, played.rows[written:k + 1])
        written = k + 1
        follower.poll()
        if follower.state is not None and holds(follower.state):
            text, state = follower.text, follower.state
            follower.state = change(state)
            assert follower.state != state
            follower._publish()
            assert follower.text == text, f"{slug} row {k}: a hidden card reaches the page"
            follower.state = state
            follower._publish()
            seen += 1
    follower.close()
    db.close()
    assert seen >= 5, f"{slug}: too few moments with hidden cards"


# -- an undo: back to the state kept, or the line of play replayed: the same page ------------------

def _undo_now_and_then(slug: str):
    """The demo's table, undoing the move just made every ninth press (twice in a row
    every fourth time)."""
    act = registry.activity(slug)
    count = [0]

    def script(app, state):
        count[0] += 1
        if count[0] % 9 == 0 or count[0] % 36 == 1 and count[0] > 1:
            return "undo"
        return act.demo.script(state)
    return script


@pytest.mark.parametrize("slug,moves", [("top-speed", 250), ("lacorsa", 500)])
def test_an_undo_shows_the_same_whether_the_state_was_kept_or_replayed(state_dir, tmp_path, monkeypatch, slug, moves):
    from companion.table import source

    played = play_race(state_dir, slug, moves, script=_undo_now_and_then(slug))
    assert sum(json.loads(r[3])["kind"] == UNDO for r in played.rows) >= 8
    kept = texts_as_written(state_dir, tmp_path / "kept", played.rows)
    monkeypatch.setattr(source, "KEPT", 0)
    replayed = texts_as_written(state_dir, tmp_path / "replayed", played.rows)
    assert kept == replayed
    assert json.loads(kept[-1])["chart"], "the lap chart is drawn"


def test_a_damaged_or_refused_journal_entry_is_said_without_its_label_or_the_error(state_dir, tmp_path):
    played = play_race(state_dir, "lacorsa", 12, options=LACORSA_HUMANS)
    rows = list(played.rows)
    entry = next(i for i, r in enumerate(rows) if json.loads(r[3])["kind"] == "plays")
    session, seq, label, body, crc, created = rows[entry]
    rows[entry] = (session, seq, label, body, crc ^ 1, created)                  # damaged
    refused = entry + 1
    rows = rewritten(rows, refused, lambda e: {**e, "kind": "plays", "plays": [[9, ["10"]]]})   # no car 9
    follower = Follower(prefix_dir(state_dir, tmp_path / "damaged", rows, refused + 1))
    payload = follower.payload
    follower.close()
    assert payload["problems"] == [f"journal entry {seq} could not be read and was skipped",
                                   f"journal entry {rows[refused][1]} does not fit the race and was skipped"]
    assert payload["history"][:2] == ["(an action that does not fit the race)", "(an entry the journal could not read)"]
    for words in (label, rows[refused][2], "no car 9", "car 9"):
        assert words not in json.dumps(payload, ensure_ascii=False), words


@pytest.mark.parametrize("slug,moves", [("lacorsa", 400), ("3-wide", 400), ("street-illegal", 400)])
def test_history_labels_naming_a_face_down_choice_never_reach_the_page(state_dir, tmp_path, slug, moves):
    """A journal an older box wrote names each choice made face down in its history (``Ann 1:
    10: 10``, ``Red: MoveNow>#11``, ``Undo: ...``): the table shows the same page as for the
    box's own words, since it never shows the label of such a row."""
    played = play_race(state_dir, slug, moves, options=LACORSA_HUMANS if slug == "lacorsa" else None,
                       script=_enter_then_undo(slug, 2))
    old = {}
    for session, seq, label, *rest in played.rows:
        move = played.moves.get(seq)
        if move is not None and move.kind in CHOICES[slug]:
            old[seq] = f"{move.player}: {move.label}: {json.dumps(dict(move.args))}"
    assert len(old) >= 4
    rows = []
    for session, seq, label, body, crc, created in played.rows:
        target = json.loads(body).get("target")
        label = old.get(seq, f"Undo: {old[target]}" if target in old else label)
        rows.append((session, seq, label, body, crc, created))
    assert rows != played.rows
    a = texts_as_written(state_dir, tmp_path / "a", played.rows)
    b = texts_as_written(state_dir, tmp_path / "b", rows)
    assert a == b
