"""The table screen's peak memory with 12 pages open, and its start time.

    .venv/bin/python bench/table_rss.py [--game 3-wide] [--pages 12] [--presses 300]

Plays the demo race of ``--game`` into a fresh journal with the real app, starts
``companion table`` on it, opens ``--pages`` Server-Sent Events connections that read every
update, makes ``--presses`` more presses, and prints the server's peak resident memory
(``VmHWM``) and how long it took to print its address. Budget (issue 18): 30 MB with 12 pages.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str]) -> int:
    from tests.tablescreen.conftest import play, race

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="3-wide")
    parser.add_argument("--pages", type=int, default=12)
    parser.add_argument("--presses", type=int, default=300)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="table-rss-") as tmp:
        app = race(Path(tmp), args.game, 50)
        start = time.monotonic()
        proc = subprocess.Popen([str(Path(sys.executable).parent / "companion"), "table", "--state", tmp,
                                 "--host", "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE, text=True)
        line = proc.stdout.readline()
        started = time.monotonic() - start
        port = int(line.rsplit(":", 1)[1].strip("/\n"))
        received = [0]

        def read(sock: socket.socket) -> None:
            while chunk := sock.recv(1 << 20):
                received[0] += chunk.count(b"event: race")

        pages = []
        for n in range(args.pages):   # a phone each: an address of the loopback's own
            sock = socket.create_connection(("127.0.0.1", port), source_address=(f"127.0.0.{n + 1}", 0))
            sock.sendall(b"GET /events HTTP/1.1\r\n\r\n")
            threading.Thread(target=read, args=(sock,), daemon=True).start()
            pages.append(sock)
        presses = 0
        for presses in range(1, args.presses + 1):
            play(app, args.game, 1)
            if app.runner.session.finished is not None:
                break
            time.sleep(0.02)
        time.sleep(0.5)
        status = Path(f"/proc/{proc.pid}/status").read_text()
        peak = next(int(x.split()[1]) for x in status.splitlines() if x.startswith("VmHWM"))
        proc.terminate()
        proc.wait()
        for sock in pages:
            sock.close()
    print(f"{args.game}: peak RSS {peak / 1024:.1f} MB with {args.pages} pages, {presses} presses, "
          f"{received[0]} updates received; address printed {started:.2f} s after start")
    return 0 if peak <= 30 * 1024 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
