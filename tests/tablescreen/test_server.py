"""The table server over real sockets on 127.0.0.1: GET and HEAD only, three paths, bounded
requests, a slow client that stalls nobody, a press pushed to every page, and a journal
it never writes."""

import hashlib
import json
import socket
import time
from importlib import resources

import pytest

from companion.core.journal import Journal, JournalError
from companion.table.server import Limits, page_with

from tests.tablescreen.conftest import CountingFollower, last_action, play, race

WAIT_S = 30.0
"""How long a socket of a test waits for the server: only a server that never answers
(or a test that is wrong) takes this long; a busy machine takes a small part of it."""

LATE_POLLS = 2
"""A press reaches every page by the second poll begun after it was committed: the poll
that sees it and, if the machine stalls the server meanwhile, one more. With the shipped
poll every 0.2 s that is within 0.4 s plus the sending, inside the second the table
screen promises; counted in polls, a loaded machine cannot make it fail."""


def phone(n: int) -> str:
    """The address of the ``n``-th phone at the table: on Linux all of 127.0.0.0/8 is the
    loopback, so each test phone has an address of its own (127.0.0.1 is the first)."""
    return f"127.0.0.{n}"


def connect(port: int, source: str = "127.0.0.1", timeout: float = WAIT_S) -> socket.socket:
    """A connection to the server from the address ``source``."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def ask(port: int, raw: bytes, timeout: float = WAIT_S, source: str = "127.0.0.1") -> bytes:
    """Send ``raw``; everything the server answers until it closes."""
    with connect(port, source, timeout) as s:
        s.sendall(raw)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


def get(port: int, path: str = "/", method: str = "GET", headers: str = "",
        source: str = "127.0.0.1") -> tuple[int, bytes, bytes]:
    reply = ask(port, f"{method} {path} HTTP/1.1\r\nHost: x\r\n{headers}\r\n".encode(), source=source)
    head, _, body = reply.partition(b"\r\n\r\n")
    return int(head.split()[1]), head, body


def events(port: int, timeout: float = WAIT_S, source: str = "127.0.0.1"):
    """An SSE connection from ``source``: (socket, a function reading the next ``race``
    event's data; ConnectionError once the server has closed the stream)."""
    s = connect(port, source, timeout)
    s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    buf = [b""]

    def next_race() -> dict:
        while True:
            if b"\n\n" in buf[0]:
                block, buf[0] = buf[0].split(b"\n\n", 1)
                for line in block.split(b"\n"):
                    if line.startswith(b"data: "):
                        return json.loads(line[6:])
                continue
            chunk = s.recv(65536)
            if not chunk:
                raise ConnectionError("stream closed")
            buf[0] += chunk
    return s, next_race


@pytest.fixture
def lacorsa(state_dir):
    return race(state_dir, "lacorsa", 20)


def test_the_page_and_the_state_are_served_to_get_and_head(state_dir, lacorsa, serving):
    srv = serving(state_dir)
    status, head, page = get(srv.port, "/")
    assert status == 200 and b"text/html" in head
    state = get(srv.port, "/state.json")[2].decode()
    # the file, with the race as /state.json has it in its data block (drawn before the page goes live)
    assert page == page_with(resources.files("companion.table").joinpath("page.html").read_bytes(), state)
    assert len(page) < 100_000
    assert b"http://" not in page.replace(b"http://www.w3.org/2000/svg", b"") and b"https://" not in page
    status, head, body = get(srv.port, "/state.json?x=1")
    assert status == 200 and json.loads(body)["activity"] == "lacorsa"
    status, head, body = get(srv.port, "/", method="HEAD")
    assert status == 200 and body == b"" and b"Content-Length: %d" % len(page) in head


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE"])
def test_anything_but_get_and_head_is_refused(state_dir, serving, method):
    srv = serving(state_dir)
    status, head, _ = get(srv.port, "/state.json", method=method, headers="Content-Length: 2\r\n")
    assert status == 405 and b"Allow: GET, HEAD" in head


@pytest.mark.parametrize("path", ["/../journal.sqlite3", "/journal.sqlite3", "/%2e%2e/etc/passwd",
                                  "//etc/passwd", "/page.html", "/companion/table/page.html", "*"])
def test_no_path_outside_what_it_serves(state_dir, serving, path):
    srv = serving(state_dir)
    status, _, body = get(srv.port, path)
    assert status == 404 and b"sqlite" not in body.lower() and b"root:" not in body


def test_oversized_or_malformed_requests_are_refused(state_dir, serving):
    srv = serving(state_dir)
    assert get(srv.port, "/", headers="X-Big: " + "a" * 9000 + "\r\n")[0] == 431
    assert get(srv.port, "/", headers="".join(f"X-{i}: 1\r\n" for i in range(60)))[0] == 431
    assert get(srv.port, "/" + "a" * 2000)[0] == 414
    assert int(ask(srv.port, b"GARBAGE\r\n\r\n").split()[1]) == 400
    assert int(ask(srv.port, b"GET / HTTP/2.0\r\n\r\n").split()[1]) == 505


def slow_clients(port: int) -> list[socket.socket]:
    """Five connections that send half a request and never the rest (slow loris)."""
    loris = [socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) for _ in range(5)]
    for s in loris:
        s.sendall(b"GET / HTTP/1.1\r\nX-a: ")
    return loris


def test_a_slow_client_stalls_nobody(state_dir, lacorsa, serving):
    srv = serving(state_dir, header_s=WAIT_S * 2)     # the five are kept all through the test
    loris = slow_clients(srv.port)
    assert get(srv.port, "/state.json")[0] == 200       # answered meanwhile ...
    for s in loris:                                     # ... while all five still hold on
        s.setblocking(False)
        with pytest.raises(BlockingIOError):
            s.recv(100)
        s.close()


def test_a_slow_client_is_cut_off(state_dir, serving):
    srv = serving(state_dir, header_s=0.5)
    loris = slow_clients(srv.port)
    for s in loris:                                     # cut off after header_s, not at WAIT_S
        assert s.recv(100) == b""
        s.close()


def test_a_page_that_does_not_read_does_not_hold_up_the_others(state_dir, lacorsa, serving):
    # write_s longer than a test socket waits: a page held up behind the sleeper would
    # time out here rather than be let through when the sleeper is dropped
    srv = serving(state_dir, write_s=WAIT_S * 2, poll_s=Limits().poll_s, follower=CountingFollower)
    sleeper = socket.socket()
    sleeper.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    sleeper.connect(("127.0.0.1", srv.port))
    sleeper.sendall(b"GET /events HTTP/1.1\r\n\r\n")     # and never reads
    s, next_race = events(srv.port)
    next_race()
    pressed = []
    for _ in range(12):                                 # every press fills the sleeper's window
        play(lacorsa, "lacorsa", 1)
        committed = srv.follower.polls                  # an int the server's thread counts up
        got = next_race()
        assert got["history"][0] == last_action(state_dir)
        pressed.append((committed, got))
    s.close()
    sleeper.close()
    srv.halt()
    for committed, got in pressed:
        assert max(srv.follower.sends(got)) <= committed + LATE_POLLS


def test_more_pages_than_the_limit_are_told_to_come_back(state_dir, serving):
    srv = serving(state_dir, clients=3)
    held = [events(srv.port) for _ in range(3)]
    for _, next_race in held:
        next_race()
    status, head, _ = get(srv.port, "/")
    assert status == 503 and b"Retry-After" in head
    for s, _ in held:
        s.close()
    deadline = time.monotonic() + WAIT_S                # until the server has seen them go
    while (status := get(srv.port, "/")[0]) == 503 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert status == 200


def outcome(s: socket.socket) -> str:
    """What became of an ``/events`` request on ``s``, read to the end or to its first race
    event and a press's next one: "stream" (open: it was sent the press), "closed" (a
    stream the server ended), "refused" (503, or reset before a word)."""
    got = b""
    try:
        while got.count(b"event: race") < 2:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
    except ConnectionResetError:
        pass
    if got.count(b"event: race") >= 2:
        return "stream"
    return "closed" if got.startswith(b"HTTP/1.1 200") else "refused"


def test_forty_idle_streams_from_one_address_keep_no_other_phone_out(state_dir, lacorsa, serving):
    srv = serving(state_dir)
    idle = []
    for _ in range(40):                                 # opened at once, never read
        s = connect(srv.port)
        s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        idle.append(s)
    status, _, page = get(srv.port, "/", source=phone(2))
    assert status == 200 and page
    s, next_race = events(srv.port, source=phone(2))
    assert next_race()["activity"] == "lacorsa"
    play(lacorsa, "lacorsa", 1)
    assert next_race()["history"][0] == lacorsa.runner.history()[-1].label
    s.close()
    # every one of the forty has been answered (a stream's first event, or 503): the press
    # is sent to the streams still open, and those are the address's four at most
    outcomes = [outcome(s) for s in idle]
    assert outcomes.count("stream") == Limits().streams_per_address, outcomes
    for s in idle:
        s.close()


def test_an_address_keeps_its_four_newest_streams(state_dir, lacorsa, serving):
    """A phone that reloads: its fifth stream closes its first, and a sixth its second;
    never more than four are open, and the newest always is."""
    srv = serving(state_dir)
    held = []
    for n in range(1, 7):
        s, next_race = events(srv.port)
        next_race()                                     # a stream the server has counted
        held.append((s, next_race))
        gone = held[:max(0, n - 4)]
        for s, next_race in gone:                       # closed by the server, not by a clock
            with pytest.raises(ConnectionError):
                while True:
                    next_race()
        play(lacorsa, "lacorsa", 1)
        label = lacorsa.runner.history()[-1].label
        for s, next_race in held[len(gone):]:
            while next_race()["history"][0] != label:
                pass
        assert len(held) - len(gone) == min(n, 4)
    for s, _ in held:
        s.close()


def test_forty_slow_clients_from_one_address_keep_no_other_phone_out(state_dir, serving):
    """A slow loris from one address: forty connections each sending a byte a round, a
    closed one opened again at once. A phone from another address gets the page every try."""
    srv = serving(state_dir, header_s=0.5)              # cut off and back within the test
    loris: list[socket.socket | None] = [None] * 40
    opened = 0
    tries = []
    for _ in range(30):
        for i, s in enumerate(loris):
            try:
                if s is None:
                    s = loris[i] = connect(srv.port)
                    s.sendall(b"GET / HTTP/1.1\r\nX-a: ")
                    opened += 1
                s.sendall(b"a")
            except OSError:                             # cut off, or refused: again
                s.close()
                loris[i] = None
        held, _ = srv.server.admission.count_of("127.0.0.1")
        assert held <= Limits().per_address
        tries.append(get(srv.port, "/", source=phone(2))[0])
        time.sleep(0.05)                                # the loris's pace: no verdict hangs on it
    assert opened > 40                                  # the loris was cut off and came back
    assert tries == [200] * 30, tries
    for s in loris:
        if s is not None:
            s.close()


def test_a_full_server_makes_room_for_a_new_phone(state_dir, serving):
    """All connections held by two addresses: a third gets in in place of the oldest of the
    address that holds the most, which may not take it back from a phone holding fewer."""
    srv = serving(state_dir, clients=6, per_address=4)
    first = [events(srv.port, source=phone(1)) for _ in range(4)]
    third = [events(srv.port, source=phone(3)) for _ in range(2)]
    for _, next_race in first + third:
        next_race()
    s, next_race = events(srv.port, source=phone(2))
    next_race()                                         # in, in place of phone 1's oldest
    with pytest.raises(ConnectionError):
        while True:
            first[0][1]()
    assert srv.server.admission.count_of(phone(1))[0] == 3
    # full again: phone 1 (three) may not push out phone 3 (two) or phone 2 (one)
    status, head, _ = get(srv.port, "/state.json", source=phone(1))
    assert status == 503 and b"Retry-After: " in head
    for sock, _ in [*first[1:], *third, (s, None)]:
        sock.close()


def test_a_press_reaches_twelve_pages_within_a_second(state_dir, lacorsa, serving):
    """Within a second, counted in polls (LATE_POLLS): the shipped poll interval."""
    srv = serving(state_dir, poll_s=Limits().poll_s, follower=CountingFollower)
    pages = [events(srv.port, source=phone(n)) for n in range(1, 13)]
    firsts = [next_race() for _, next_race in pages]
    play(lacorsa, "lacorsa", 1)
    committed = srv.follower.polls                      # an int the server's thread counts up
    label = last_action(state_dir)
    got = [next_race() for _, next_race in pages]
    assert all(g["history"][0] == label for g in got) and all(g == got[0] for g in got)
    assert all(f == firsts[0] for f in firsts)
    for s, _ in pages:
        s.close()
    srv.halt()                                          # what it sent, read once it has stopped
    sends = srv.follower.sends(got[0])
    assert len(sends) == 12 and max(sends) <= committed + LATE_POLLS, (committed, sends)
    assert Limits().poll_s * (LATE_POLLS + 1) < 1.0


def test_a_page_that_reconnects_gets_the_whole_race_at_once(state_dir, lacorsa, serving):
    srv = serving(state_dir)
    s, next_race = events(srv.port)
    next_race()
    s.close()                                            # the phone sleeps
    play(lacorsa, "lacorsa", 5)
    s, next_race = events(srv.port)                      # and wakes
    now = last_action(state_dir)
    # at once: what the server holds on connecting, and if that poll came before the last
    # press, the next poll's state; never the five presses one by one
    assert next_race()["history"][0] == now or next_race()["history"][0] == now
    s.close()


def test_an_undo_on_the_box_is_on_the_page(state_dir, lacorsa, serving):
    srv = serving(state_dir)
    s, next_race = events(srv.port)
    before = next_race()
    play(lacorsa, "lacorsa", 1)
    next_race()
    lacorsa.undo()
    after = next_race()
    assert after["race"] == before["race"] and after["history"][0].startswith("Undo: ")
    s.close()


def test_the_journal_is_never_written(state_dir, lacorsa, serving):
    path = state_dir / Journal.FILENAME
    lacorsa.journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    srv = serving(state_dir)
    for p in ("/", "/state.json", "/events", "/nothing"):
        get(srv.port, p, method="HEAD")
    srv.halt()                      # the follower's connection is the server thread's until then
    assert srv.follower.journal is not None
    with pytest.raises(Exception, match="readonly|read-only|query_only"):
        srv.follower.journal._db.execute("DELETE FROM events")
    srv.stop()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest


def test_a_box_without_a_journal_yet_is_waited_for(state_dir, serving):
    srv = serving(state_dir)
    payload = json.loads(get(srv.port, "/state.json")[2])
    assert payload["race"] is None and "no journal" in payload["problems"][0]
    with pytest.raises(JournalError):
        Journal(state_dir, read_only=True)
    s, next_race = events(srv.port)
    next_race()
    race(state_dir, "dice", 2)
    while next_race()["race"] is None:
        pass
    s.close()


def test_a_read_only_file_system_is_read_with_the_box_on_or_off(state_dir):
    """As the service sees the state directory (ReadOnlyPaths=): a read-only mount."""
    import shutil
    import subprocess
    import sys
    if shutil.which("unshare") is None or subprocess.run(
            ["unshare", "-m", "true"], capture_output=True).returncode != 0:
        pytest.skip("cannot make a private read-only mount here (needs unshare -m)")
    app = race(state_dir, "lacorsa", 10)
    want = last_action(state_dir)
    script = (f"mount --bind {state_dir} {state_dir} && mount -o remount,bind,ro {state_dir} && "
              f"{sys.executable} -c 'from companion.table.source import Follower; "
              f"f = Follower(\"{state_dir}\"); f.poll(); print(f.payload[\"history\"][0]); "
              f"print(f.journal.immutable)'")
    on = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=60)
    assert on.stdout.split("\n")[:2] == [want, "False"], on.stderr     # the box running: its -shm is there
    app.journal.close()                                                  # the box off: no -shm
    off = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=60)
    assert off.stdout.split("\n")[:2] == [want, "True"], off.stderr
