"""The table screen's HTTP server: read-only, bounded, and live by Server-Sent Events.

One asyncio loop in one thread (the standard library only: docs/decisions.md says why).
It serves three paths and nothing else, to GET and HEAD only:

    /             the page (companion/table/page.html), the race as it stands written in it
    /state.json   the race as the page shows it (the follower's payload)
    /events       the same, pushed as an SSE ``race`` event each time it changes

Every five polls a second the follower reads what the box committed; a change wakes
every page. A page is sent the newest state only, never a backlog: a slow or sleeping
phone that cannot take a write in ``write_s`` is dropped, and when it wakes its
EventSource reconnects and is sent the whole state at once. Bounds: ``clients``
connections in all, ``per_address`` from one address and ``streams_per_address`` streams
from one address (companion/table/admission.py decides who makes room for whom; a
connection refused is answered 503), a request line and headers of at most
``request_bytes`` in ``header_s`` seconds with ``headers`` lines at most; a request
that breaks one is answered and closed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from dataclasses import dataclass
from importlib import resources
from typing import Callable

from companion.table.admission import Admission, Hold
from companion.table.source import Follower

log = logging.getLogger(__name__)

PAGE = "page.html"
FIRST = b'<script id="first" type="application/json">'
"""Where the page served at ``/`` carries the race as it stands, drawn before the page goes live."""
REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
           408: "Request Timeout", 414: "URI Too Long", 431: "Request Header Fields Too Large",
           503: "Service Unavailable", 505: "HTTP Version Not Supported"}
SECURITY_HEADERS = (
    "X-Content-Type-Options: nosniff\r\n"
    "Referrer-Policy: no-referrer\r\n"
    "X-Frame-Options: DENY\r\n"
    "Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'\r\n")


@dataclass(frozen=True)
class Limits:
    clients: int = 32            # connections at once in all (12 phones and room to spare)
    per_address: int = 8         # connections at once from one address (streams and requests)
    streams_per_address: int = 4 # /events streams of one address: its next closes its oldest
    request_bytes: int = 8192    # the request line and its headers
    target_bytes: int = 1024     # the request line's path
    headers: int = 40            # header lines
    header_s: float = 5.0        # to send the request line and headers (slow loris)
    write_s: float = 10.0        # for a page to take one write
    keepalive_s: float = 15.0    # a comment line on a quiet stream (proxies, sleeping radios)
    poll_s: float = 0.2          # how often the journal is read


class Refused(Exception):
    def __init__(self, status: int):
        super().__init__(REASONS[status])
        self.status = status


class TableServer:
    """Serves ``follower``'s race on ``host``:``port`` (port 0: any free one)."""

    def __init__(self, follower: Follower, host: str = "0.0.0.0", port: int = 8080, limits: Limits = Limits(),
                 sock: socket.socket | None = None):
        self.follower = follower
        self.host, self.port = host, port
        self.sock = sock                 # a listening socket handed over (systemd's socket unit)
        self.limits = limits
        self.page = resources.files("companion.table").joinpath(PAGE).read_bytes()
        self.admission = Admission(limits.clients, limits.per_address, limits.streams_per_address)
        self.streams: set[asyncio.Event] = set()
        self._server: asyncio.base_events.Server | None = None
        self._stop: asyncio.Event | None = None

    # -- running ------------------------------------------------------------------------

    def run(self, ready: Callable[["TableServer"], None] | None = None) -> None:
        """Serve until ``stop()`` (or Ctrl-C); ``ready`` is called once it listens."""
        asyncio.run(self.serve(ready))

    async def serve(self, ready: Callable[["TableServer"], None] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        if self.sock is not None:
            self._server = await asyncio.start_server(self._connection, sock=self.sock,
                                                      limit=self.limits.request_bytes)
        else:
            self._server = await asyncio.start_server(self._connection, self.host, self.port,
                                                      limit=self.limits.request_bytes, reuse_address=True,
                                                      backlog=self.limits.clients)
        self.port = self._server.sockets[0].getsockname()[1]
        if ready is not None:
            ready(self)
        poller = asyncio.create_task(self._poll())
        try:
            await self._stop.wait()
        finally:
            poller.cancel()
            self._server.close()
            for wake in list(self.streams):
                wake.set()
            await self._server.wait_closed()

    def stop(self) -> None:
        """Stop serving (from any thread)."""
        if self._stop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stop.set)

    async def _poll(self) -> None:
        while True:
            try:
                changed = self.follower.poll()
            except Exception:  # a bug must not stop the page: log it, keep polling
                log.exception("the journal could not be followed")
                changed = False
            if changed:
                for wake in self.streams:
                    wake.set()
            await asyncio.sleep(self.limits.poll_s)

    # -- one connection -------------------------------------------------------------------

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        hold = self.admission.admit(peer(writer), lambda: hang_up(writer))
        try:
            if hold is None:
                await self._reply(writer, 503, b"Too many pages open: close one and reload.\n", retry=True)
                return
            try:
                method, path = await asyncio.wait_for(self._request(reader), self.limits.header_s)
            except Refused as exc:
                await self._reply(writer, exc.status, f"{exc}\n".encode())
                return
            except (asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError):
                return      # too slow, or gone: closed without a word
            head = method == "HEAD"
            if path == "/":
                await self._reply(writer, 200, page_with(self.page, self.follower.text), "text/html; charset=utf-8",
                                  head=head)
            elif path == "/state.json":
                await self._reply(writer, 200, self.follower.text.encode(), "application/json", head=head)
            elif path == "/events":
                await self._stream(reader, writer, head, hold)
            else:
                await self._reply(writer, 404, b"Not found: the table screen is at /\n", head=head)
        except (ConnectionError, asyncio.TimeoutError):
            pass
        except asyncio.CancelledError:   # the server stops: the page reconnects to the next one
            pass
        except Exception:
            log.exception("a connection failed")
        finally:
            self.admission.release(hold)
            hang_up(writer)

    async def _request(self, reader: asyncio.StreamReader) -> tuple[str, str]:
        """(method, path) of the request; Refused when it breaks a bound or is not a GET."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.LimitOverrunError:
            raise Refused(431) from None
        lines = head.decode("latin-1").split("\r\n")[:-2]
        if len(lines) - 1 > self.limits.headers:
            raise Refused(431)
        parts = lines[0].split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/"):
            raise Refused(400)
        method, target, version = parts
        if version not in ("HTTP/1.0", "HTTP/1.1"):
            raise Refused(505)
        if len(target) > self.limits.target_bytes:
            raise Refused(414)
        if method not in ("GET", "HEAD"):
            raise Refused(405)
        return method, target.split("?", 1)[0]

    async def _send(self, writer: asyncio.StreamWriter, data: bytes) -> None:
        writer.write(data)
        await asyncio.wait_for(writer.drain(), self.limits.write_s)

    async def _reply(self, writer, status: int, body: bytes, kind: str = "text/plain; charset=utf-8", *,
                     head: bool = False, retry: bool = False) -> None:
        extra = "Allow: GET, HEAD\r\n" if status == 405 else ""
        extra += "Retry-After: 5\r\n" if retry else ""
        header = (f"HTTP/1.1 {status} {REASONS[status]}\r\nContent-Type: {kind}\r\n"
                  f"Content-Length: {len(body)}\r\nCache-Control: no-cache\r\nConnection: close\r\n"
                  f"{extra}{SECURITY_HEADERS}\r\n")
        await self._send(writer, header.encode() + (b"" if head else body))

    async def _stream(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, head: bool,
                      hold: Hold) -> None:
        """The SSE stream: the whole state now, then at each change; a comment when quiet.
        It ends when the page goes (its end of the connection closes) or sends anything, or
        when its address opens one stream too many (this one being its oldest)."""
        if not head:
            self.admission.stream(hold)
        await self._send(writer, ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                  "Cache-Control: no-store\r\nConnection: close\r\n"
                                  f"{SECURITY_HEADERS}\r\n").encode())
        if head:
            return
        wake = asyncio.Event()
        self.streams.add(wake)
        gone = asyncio.ensure_future(reader.read(1))
        try:
            await self._send(writer, b"retry: 2000\n\n")
            while self._server is not None and self._server.is_serving():
                await self._send(writer, f"event: race\ndata: {self.follower.text}\n\n".encode())
                while not wake.is_set():
                    woken = asyncio.ensure_future(wake.wait())
                    try:
                        done, _ = await asyncio.wait((woken, gone), timeout=self.limits.keepalive_s,
                                                     return_when=asyncio.FIRST_COMPLETED)
                    finally:
                        woken.cancel()
                    if gone in done:
                        return
                    if not done:
                        await self._send(writer, b": still here\n\n")
                wake.clear()
        finally:
            gone.cancel()
            self.streams.discard(wake)


def page_with(page: bytes, text: str) -> bytes:
    """``page`` with the follower's ``text`` in its ``first`` data block. Every ``<`` is
    written ``\\u003c`` (the same string to JSON), so no payload can end the block."""
    data = text.replace("<", "\\u003c").encode()
    return page.replace(FIRST + b"</script>", FIRST + data + b"</script>", 1)


def hang_up(writer: asyncio.StreamWriter) -> None:
    """Close a connection: at once if it has not taken what was written (a sleeping phone),
    else once that is sent. Its reads then end, so the handler returns by its own path
    (a task's cancellation can be lost in ``asyncio.wait_for`` on Python 3.11)."""
    if writer.transport.get_write_buffer_size():
        writer.transport.abort()
    else:
        writer.close()


def peer(writer: asyncio.StreamWriter) -> str:
    """The address a connection comes from (an IPv4 address as itself, also when the socket
    is IPv6 and sees it as ``::ffff:a.b.c.d``)."""
    name = writer.get_extra_info("peername")
    host = name[0] if isinstance(name, tuple) and name else ""
    return host.removeprefix("::ffff:")


def inherited() -> socket.socket | None:
    """The listening socket systemd hands over (``LISTEN_FDS``, fd 3), if it did."""
    if os.environ.get("LISTEN_PID") != str(os.getpid()) or int(os.environ.get("LISTEN_FDS", "0") or 0) < 1:
        return None
    for key in ("LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"):
        os.environ.pop(key, None)
    return socket.socket(fileno=3)
