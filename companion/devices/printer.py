"""The receipt printer: a spool on disk and a worker that prints from it.

``open_printer(config, backend, spool_dir)`` gives a ``Printer``. ``submit(receipt)`` writes
the receipt to the spool and returns at once; a worker thread prints it and removes it
from the spool only when the printer confirms paper after the job. Any fault (port
missing, cable pulled mid-receipt, paper out, no answer to the status query) leaves the
receipt in the spool, puts a short message in ``printer.status`` for the screen, and the
worker tries again every ``retry_s`` seconds (or at once on ``retry()``).

Backends: ``serial`` (ESC/POS over pyserial, paced to the printer's paper speed),
``sim`` (the same serial driver against ``PrinterSim`` on a pseudo-terminal) and ``png``
(receipts saved as PNG previews plus their raw ESC/POS bytes, for a desktop).

The printer is asked with the status commands its profile (``[printer] model``, see
``companion.receipts.printers``) lists: ``DLE EOT 1/2/4`` (online or offline and why,
paper) or ``GS r 1`` / ``ESC v 0`` (paper). Silence is "not answering", never "paper OK";
an offline printer (cover open) keeps the receipt in the spool.
"""

from __future__ import annotations

import errno
import logging
import math
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from companion.core.config import ConfigError, require
from companion.devices import DeviceError
from companion.devices.spool import Spool, SpoolEntry, SpoolError, write_atomic
from companion.receipts import escpos
from companion.receipts.model import Receipt
from companion.receipts.printers import DEFAULT_MODEL, PROFILES, Profile, of_config

log = logging.getLogger(__name__)

BACKENDS = ("serial", "sim", "png")


class PrinterFault(DeviceError):
    """The printer cannot print now. ``message`` is for the screen, ``fix`` for the owner."""

    def __init__(self, message: str, fix: str = ""):
        super().__init__(message)
        self.message = message
        self.fix = fix


def fault_not_found(port: str) -> PrinterFault:
    return PrinterFault(f"Printer not found: {port}",
                        "check the cable and power, enable the UART (enable_uart=1 in config.txt) "
                        "and [printer] port in hardware/pinout.toml")


def fault_denied(port: str) -> PrinterFault:
    return PrinterFault(f"Printer port not allowed: {port}", "add the service user to the dialout group")


def fault_busy(port: str) -> PrinterFault:
    return PrinterFault(f"Printer port busy: {port}",
                        "stop the other program using it (a serial console: remove console=serial0 from cmdline.txt)")


def fault_unplugged(port: str) -> PrinterFault:
    return PrinterFault(f"Printer unplugged: {port}", "check the cable; the receipt prints when it is back")


def fault_silent(profile: Profile | None = None) -> PrinterFault:
    fix = ("check the printer's power, its TX -> Pi RX wire, and [printer] baudrate "
           "(printed on its self-test page)")
    if profile is not None and profile.status in ("gs-r", "esc-v"):
        fix += "; this model does not answer while its cover is open or its paper is out"
    return PrinterFault("Printer not answering",
                        fix + "; a printer that never answers: set [printer] model to its model, "
                              "or status = \"none\"")


def fault_spool(where, exc: OSError) -> PrinterFault:
    """The spool directory cannot be read: the screen says so in a few words (a path is
    too long for the alert box), the fix names the directory."""
    return PrinterFault("Cannot read the receipt spool", f"{exc.strerror or exc}: {where}")


def fault_paper_out() -> PrinterFault:
    return PrinterFault("Printer: paper out", "load a paper roll; the receipt prints then")


_CAUSES = ((0x04, "cover open", "close the printer's cover"),
           (0x08, "feed button held", "release the feed button"),
           (0x20, "paper out", "load a paper roll"),
           (0x40, "error", "switch the printer off and on"))


def fault_offline(cause: int | None) -> PrinterFault:
    """The printer says it is offline (DLE EOT 1 bit 3); ``cause`` is its DLE EOT 2 answer."""
    found = [(what, fix) for bit, what, fix in _CAUSES if cause is not None and cause & bit]
    if found and found[0][0] == "paper out":
        return fault_paper_out()
    what = ", ".join(w for w, _ in found)
    fix = "; ".join(f for _, f in found) or "check the cover and the paper, or switch it off and on"
    return PrinterFault(f"Printer offline: {what}" if what else "Printer offline", fix + "; the receipt prints then")


# Assumed for waits that must cover what a printer's buffer may hold: at most 2 dot lines
# of paper per byte (a receipt's densest part is a run of double-height or blank lines).
DOTS_PER_BYTE = 2
# Limits that keep the pacing model meaningful: outside them bytes are lost or the worker spins.
_LIMITS = {"baudrate": (1200, 115200), "line_ms": (0.2, 100.0), "buffer_bytes": (32, 65536),
           "status_timeout_ms": (10, 10000), "retry_s": (0.01, 3600), "chars_per_line": (16, 64)}


@dataclass(frozen=True)
class PrinterSettings:
    port: str
    baudrate: int
    line_ms: float            # time per dot line (paper speed)
    buffer_bytes: int         # the printer's input buffer
    flow_control: bool        # RTS/CTS wired and enabled
    status_timeout_s: float   # how long to wait for a status answer
    retry_s: float            # how often to try again after a fault
    chars_per_line: int
    profile: Profile = PROFILES[DEFAULT_MODEL]


def printer_settings(config: Mapping) -> PrinterSettings:
    """The [printer] table checked; a ConfigError names the bad key and the fix."""
    def number(key, default, whole=False):
        value = config.get(key, default) if default is not None else require(config, key, (int, float), None, "printer")
        low, high = _LIMITS[key]
        if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
                or not low <= value <= high):
            raise ConfigError(None, f"printer.{key}", f"must be a number from {low} to {high}, not {value!r}")
        if whole and value != int(value):
            raise ConfigError(None, f"printer.{key}", f"must be a whole number, not {value!r}")
        return value

    escpos.heat_command(config)
    found = of_config(config)
    flow = config.get("flow_control", "none")
    if flow not in ("none", "rtscts"):
        raise ConfigError(None, "printer.flow_control", f"must be \"none\" or \"rtscts\", not {flow!r}")
    return PrinterSettings(
        port=require(config, "port", str, None, "printer"),
        baudrate=int(number("baudrate", None, whole=True)),
        line_ms=float(number("line_ms", None)),
        buffer_bytes=int(number("buffer_bytes", 256, whole=True)),
        flow_control=flow == "rtscts",
        status_timeout_s=number("status_timeout_ms", 500) / 1000.0,
        retry_s=float(number("retry_s", 3.0)),
        chars_per_line=int(number("chars_per_line", 32, whole=True)),
        profile=found,
    )


def paper_state(reply: bytes) -> str:
    """Decode the answer to DLE EOT 4: "ok", "low", "out" or "unknown" (no or odd answer)."""
    if len(reply) != 1 or reply[0] & 0x93 != 0x12:     # bits 1 and 4 set, 0 and 7 clear
        return "unknown"
    if reply[0] & 0x60:
        return "out"
    return "low" if reply[0] & 0x0C else "ok"


def realtime_reply(byte: int) -> bool:
    """A DLE EOT answer has bits 1 and 4 set, 0 and 7 clear."""
    return byte & 0x93 == 0x12


def in_order_paper(reply: bytes) -> str:
    """Decode the answer to GS r 1 / ESC v 0 (bits 4 and 7 clear, unlike DLE EOT's):
    bits 2-3 paper end, bits 0-1 paper near its end."""
    if len(reply) != 1 or reply[0] & 0x90:
        return "unknown"
    if reply[0] & 0x0C:
        return "out"
    return "low" if reply[0] & 0x03 else "ok"


@dataclass(frozen=True)
class PrinterState:
    """The printer as it reports itself."""
    answers: bool                 # it answered the status queries of its profile
    online: bool | None           # None: its status commands cannot tell
    paper: str                    # "ok", "low", "out" or "unknown"
    cause: int | None = None      # DLE EOT 2 answer when offline

    def describe(self) -> str:
        if not self.answers:
            return "not answering status queries"
        online = "" if self.online is None else ("online, " if self.online else "offline, ")
        paper = {"ok": "paper loaded", "low": "paper low, keep a roll at hand", "out": "paper out"}.get(
            self.paper, "paper unknown")
        return f"{online}{paper}, answers status queries"


class _Stopped(Exception):
    """The printer is closing: leave the receipt in the spool."""


class SerialLink:
    """One serial port to an ESC/POS printer: status queries and paced writes.

    Two ways to keep the printer's small input buffer from overflowing, chosen by the
    profile (``[printer] model``):

    * synchronised (``profile.sync``): an in-order status query (``GS r 1``) goes after
      every quarter buffer of data; the printer answers it only when it reaches it, so
      what it still holds is known exactly and never more than ``buffer_bytes`` is in
      flight, however slow the printer really is.
    * paced by a model of the printer: bytes cross the wire at ``baudrate / 10`` per
      second, wait in its ``buffer_bytes`` buffer, and a line leaves the buffer once it
      has been printed (``dots x line_ms x (1 + pace_margin)``).

    The first job after the link is made (a start of the companion) first lets the
    printer finish what an earlier, killed run may have left in its buffer, unless
    ``drained`` says there can be none (``open_printer``: the spool was empty).
    """

    def __init__(self, settings: PrinterSettings, port: str | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], bool] | None = None, drained: bool = False):
        self.settings = settings
        self.profile = settings.profile
        self.port = port or settings.port
        self.clock = clock
        self.sleeper = sleep or (lambda s: bool(time.sleep(s)))   # True: stop waiting, abort
        self._serial = None
        self._backlog = (0.0, 0)     # (seconds, bytes) a stopped job left in the printer
        self._unanswered = 0         # in-order queries sent whose answers have not come
        self._early: deque[bytes] = deque()   # in-order answers read while asking something else
        self._born = clock()
        self.drained = drained      # False: the first job waits for what a killed run left
        query = {"gs-r": escpos.QUERY_GS_R, "esc-v": escpos.QUERY_ESC_V}
        self._query = query.get(self.profile.sync or self.profile.status, b"")
        self.line_s = settings.line_ms / 1000.0 * (1.0 if self.profile.sync else 1.0 + self.profile.pace_margin)

    def open(self) -> None:
        if self._serial is not None:
            return
        import serial  # only the printer path needs pyserial
        try:
            self._serial = serial.Serial(self.port, self.settings.baudrate, timeout=self.settings.status_timeout_s,
                                         write_timeout=2.0, rtscts=self.settings.flow_control)
        except (serial.SerialException, OSError) as exc:
            code = getattr(exc, "errno", None)
            if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO) or "No such file" in str(exc):
                raise fault_not_found(self.port) from None
            if code == errno.EACCES:
                raise fault_denied(self.port) from None
            if code == errno.EBUSY:
                raise fault_busy(self.port) from None
            raise PrinterFault(f"Printer port error: {self.port}", str(exc)) from None

    def close(self) -> None:
        port, self._serial = self._serial, None
        if port is not None:
            try:
                port.close()
            except Exception:  # the device may already be gone
                pass

    def _io(self, action):
        import serial
        try:
            return action(self._serial)
        except (serial.SerialException, OSError) as exc:
            self.close()
            raise fault_unplugged(self.port) from exc

    def _read(self, timeout: float) -> bytes:
        def read(port):
            port.timeout = max(0.0, timeout)
            return port.read(1)
        return self._io(read)

    # -- status -----------------------------------------------------------------------

    def status(self) -> PrinterState:
        """Ask the printer with the status commands of its profile."""
        self.open()
        kind = self.profile.status
        if kind == "none":
            return PrinterState(answers=False, online=None, paper="unknown")
        if kind == "dle-eot":
            def realtime(port, query: bytes) -> bytes:
                """Ask ``query``; an in-order answer arriving meanwhile is kept, not lost."""
                port.write(query)
                while True:
                    reply = port.read(1)
                    if not reply or realtime_reply(reply[0]) or not self._unanswered:
                        return reply
                    self._early.append(reply)

            def ask(port):
                port.timeout = self.settings.status_timeout_s
                while port.in_waiting:            # stale bytes; in-order answers are kept
                    byte = port.read(1)
                    if byte and not realtime_reply(byte[0]) and self._unanswered:
                        self._early.append(byte)
                printer = realtime(port, escpos.STATUS_PRINTER)
                paper = realtime(port, escpos.STATUS_PAPER)
                cause = b""
                if len(printer) == 1 and realtime_reply(printer[0]) and printer[0] & 0x08:
                    cause = realtime(port, escpos.STATUS_OFFLINE)
                return printer, paper, cause
            printer, paper, cause = self._io(ask)
            if len(printer) != 1 or not realtime_reply(printer[0]):
                return PrinterState(answers=False, online=None, paper=paper_state(paper))
            online = not printer[0] & 0x08
            return PrinterState(True, online, paper_state(paper),
                                cause[0] if len(cause) == 1 and realtime_reply(cause[0]) else None)
        # an in-order query: answered once the printer has done what it holds
        self._first_job()
        self._settle_unanswered()

        def ask_in_order(port):
            port.reset_input_buffer()     # nothing is owed now (settled above)
            self._early.clear()
            port.write(self._query)
        self._io(ask_in_order)
        reply = self._read(self.settings.status_timeout_s)
        if not reply:
            self._unanswered += 1
            return PrinterState(answers=False, online=None, paper="unknown")
        return PrinterState(True, None, in_order_paper(reply))

    def paper(self) -> str:
        """The paper sensor: "ok", "low", "out" or "unknown" (no answer in time)."""
        return self.status().paper

    def ready(self) -> PrinterState:
        """``status()``, raising the fault when the printer cannot print (offline, paper
        out, not answering). A printer whose profile has no status is taken as ready."""
        state = self.status()
        if self.profile.status == "none":
            return state
        if not state.answers:
            if state.paper == "out":
                raise fault_paper_out()
            raise fault_silent(self.profile)
        if state.online is False:
            raise fault_offline(state.cause)
        if state.paper == "out":
            raise fault_paper_out()
        if state.paper == "unknown":
            raise fault_silent(self.profile)
        return state

    def _settle_unanswered(self) -> None:
        """Before a new in-order query: wait for the answers a stopped job still owes (the
        printer answers them once it has printed what it held), so they are not taken for
        the new one and nothing is sent into a buffer that is still full. Raises the fault
        if the printer does not get there (still offline, out of paper, silent)."""
        while self._unanswered > 0:
            deadline = self.clock() + self.drain_s() * 2 + self.settings.status_timeout_s
            try:
                self._await_in_order(deadline)
            except PrinterFault:
                if self.profile.status != "dle-eot":
                    raise
                self.ready()                # online with paper, and a full buffer's time has passed:
                self._unanswered = 0        # what it held is printed; the answers were lost
                self._early.clear()
                return
            self._unanswered -= 1

    # -- printing ---------------------------------------------------------------------

    def drain_s(self) -> float:
        """The longest a full buffer can take to print (see DOTS_PER_BYTE), with the
        pacing margin even when synchronised: a printer may be slower than ``line_ms``."""
        s = self.settings
        line_s = s.line_ms / 1000.0 * (1.0 + self.profile.pace_margin)
        return s.buffer_bytes * (10.0 / s.baudrate + DOTS_PER_BYTE * line_s)

    def _first_job(self) -> None:
        """Once per link: a killed run may have left a buffer full of its job in the
        printer (and, synchronised, queries whose answers would be taken for ours). Wait
        until a full buffer would have printed since the link was made, then drop what
        the printer answered meanwhile."""
        if self.drained:
            return
        while (now := self.clock()) < self._born + self.drain_s():
            self.sleep(min(0.25, self._born + self.drain_s() - now))
        self.open()
        self._io(lambda port: port.reset_input_buffer())
        self._unanswered = 0
        self._early.clear()
        self.drained = True

    def print_job(self, chunks: list[tuple[bytes, int]], check_every_s: float = 0.25) -> PrinterState:
        """Write ``chunks`` (bytes, dot lines) without overflowing the printer, wait until
        it has printed them and return its state then. A fault raises PrinterFault; what
        the printer still holds is remembered so the next job does not overflow it."""
        self.open()
        self._first_job()
        if self._query and self.profile.sync:
            return self._print_synced(chunks, check_every_s)
        return self._print_paced(chunks, check_every_s)

    def _print_paced(self, chunks, check_every_s):
        s = self.settings
        checks = self.profile.status != "none"
        byte_s, line_s, room = 10.0 / s.baudrate, self.line_s, s.buffer_bytes
        now = self.clock()
        left_s, left_bytes = self._backlog
        self._backlog = (0.0, 0)
        wire_free = now
        engine_free = now + left_s
        held: deque[tuple[float, int]] = deque([(engine_free, left_bytes)] if left_bytes else [])
        in_buffer, checked = left_bytes, now
        try:
            for data, dots in chunks:
                for start in range(0, len(data), room):
                    piece = data[start:start + room]
                    last = start + room >= len(data)
                    while True:
                        now = self.clock()
                        while held and held[0][0] <= now:
                            in_buffer -= held.popleft()[1]
                        if in_buffer + len(piece) <= room:
                            break
                        self.sleep(held[0][0] - now)
                    self._io(lambda port: port.write(piece))
                    wire_free = max(now, wire_free) + len(piece) * byte_s
                    engine_free = max(engine_free, wire_free) + (dots * line_s if last else 0.0)
                    held.append((engine_free, len(piece)))
                    in_buffer += len(piece)
                if checks and self.clock() - checked >= check_every_s:
                    self.ready()
                    checked = self.clock()
                    wire_free += 9 * byte_s        # the status queries and the cause, at most
            while (now := self.clock()) < engine_free:
                self.sleep(min(check_every_s, engine_free - now))
                if checks:
                    self.ready()
            return self.ready()
        except PrinterFault:
            self._backlog = (max(0.0, engine_free - self.clock()), in_buffer)
            raise

    def _print_synced(self, chunks, check_every_s):
        """Send at most ``buffer_bytes`` beyond the last query the printer has answered."""
        s = self.settings
        room, query = s.buffer_bytes, self._query
        every = max(len(query) + 1, room // 4)
        piece_max = max(1, room // 2 - len(query))
        marks: deque[int] = deque()        # bytes sent up to each unanswered query
        sent = answered = since = 0
        paper = "ok"
        self._settle_unanswered()
        self._io(lambda port: port.reset_input_buffer())
        self._early.clear()

        def send(data: bytes) -> None:
            nonlocal sent
            self._io(lambda port: port.write(data))
            sent += len(data)

        def mark() -> None:
            nonlocal since
            send(query)
            marks.append(sent)
            since = 0

        def answer() -> None:           # wait for the oldest unanswered query
            nonlocal answered, paper
            deadline = self.clock() + self.drain_s() * 2 + s.status_timeout_s
            paper = self._await_in_order(deadline)
            answered = marks.popleft()
            if paper == "out":
                raise fault_paper_out()

        try:
            for data, _dots in chunks:
                for start in range(0, len(data), piece_max):
                    piece = data[start:start + piece_max]
                    while sent + len(piece) + len(query) - answered > room:
                        if not marks:
                            mark()
                        answer()
                    send(piece)
                    since += len(piece)
                if since >= every:
                    mark()
            mark()
            while marks:                    # the last answer: the printer has done the job
                answer()
        except PrinterFault:
            self._unanswered += len(marks)
            raise
        state = self.ready() if self.profile.status == "dle-eot" else PrinterState(True, None, paper)
        return state

    def _await_in_order(self, deadline: float) -> str:
        """The next answer to an in-order query (its paper state). Meanwhile a printer
        with real-time status is asked every quarter second whether it went offline."""
        polls = 0
        while True:
            if self._early:
                return in_order_paper(self._early.popleft())
            now = self.clock()
            if now >= deadline:
                raise fault_silent(self.profile)
            reply = self._read(min(0.25, deadline - now))
            if reply and not realtime_reply(reply[0]):
                return in_order_paper(reply)
            if reply:                       # the answer to our DLE EOT 1 poll
                polls -= 1
                if reply[0] & 0x08:         # offline: ask why (the caller counts the query owed)
                    self.ready()
                    polls = 0
                continue
            if self.profile.status == "dle-eot" and polls < 2:
                self._io(lambda port: port.write(escpos.STATUS_PRINTER))
                polls += 1
            if self._stopped():
                raise _Stopped()

    def _stopped(self) -> bool:
        return self.sleeper(0) is True

    def sleep(self, seconds: float) -> None:
        if seconds > 0 and self.sleeper(seconds):
            raise _Stopped()


class SerialOutput:
    """Prints a receipt over a SerialLink, checking the paper before and after."""

    def __init__(self, link: SerialLink, printer_config: Mapping):
        self.link = link
        self.config = printer_config

    def print(self, receipt: Receipt, entry_id: str) -> str:
        self.link.ready()
        state = self.link.print_job(escpos.encode_lines(receipt, self.config))
        if not state.answers:
            return "Printed (this printer gives no status)"
        return "Printer: paper low" if state.paper == "low" else "Printer ready"

    def close(self) -> None:
        self.link.close()


class PngOutput:
    """A desktop "printer": each receipt becomes ``<time>-<kind>.png`` (the paper as it
    would look) and ``.bin`` (the ESC/POS bytes the printer would get) in ``out_dir``."""

    def __init__(self, out_dir: str | Path, printer_config: Mapping):
        self.out_dir = Path(out_dir)
        self.config = printer_config

    def print(self, receipt: Receipt, entry_id: str) -> str:
        import io

        from companion.receipts import png
        try:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            base = time.strftime("%Y%m%d-%H%M%S") + "-" + entry_id.split("-", 1)[1].removesuffix(".json")
            stem, n = base, 1
            while (self.out_dir / f"{stem}.png").exists():
                n += 1
                stem = f"{base}-{n}"
            buf = io.BytesIO()
            png.render(receipt, self.config).save(buf, format="PNG")
            write_atomic(self.out_dir / f"{stem}.bin", escpos.encode(receipt, self.config))
            write_atomic(self.out_dir / f"{stem}.png", buf.getvalue())
        except OSError as exc:
            raise PrinterFault(f"Cannot save receipt: {self.out_dir}", exc.strerror or str(exc)) from None
        self.last_path = self.out_dir / f"{stem}.png"
        return f"Receipt saved: {stem}.png"

    def close(self) -> None:
        pass


class Printer:
    """The spool and its worker. ``status`` is a short line for the screen; ``fault`` is
    the current PrinterFault (None when printing works)."""

    def __init__(self, output, spool: Spool, *, retry_s: float, sim=None):
        self.output = output
        self.spool = spool
        self.sim = sim
        self.retry_s = retry_s
        self.status = "Printer idle"
        self.fault: PrinterFault | None = None
        self.printed = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._closed = False
        if isinstance(output, SerialOutput):
            output.link.sleeper = self._stop.wait
        self._thread = threading.Thread(target=self._run, name="printer", daemon=True)
        self._thread.start()

    def submit(self, receipt: Receipt) -> str:
        """Spool ``receipt`` (on disk before this returns) and print it in the background.
        A spool that cannot be written (disk full, read-only) raises PrinterFault."""
        try:
            entry_id = self.spool.add(receipt)
        except OSError as exc:
            raise PrinterFault(f"Cannot keep receipt: {self.spool.dir}", exc.strerror or str(exc)) from None
        self._wake.set()
        return entry_id

    def pending(self) -> list[SpoolEntry]:
        """Receipts waiting to print, oldest first."""
        return self.spool.entries()

    def reprint(self) -> str | None:
        """Print the last printed receipt again (None if nothing was printed yet)."""
        receipt = self.spool.last_printed()
        return self.submit(receipt) if receipt else None

    def retry(self) -> None:
        """Try the spool now instead of at the next poll (after loading paper, say)."""
        self._wake.set()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until the spool is empty; False if it is not after ``timeout`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.spool.ids():
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        return True

    def close(self) -> None:
        """Stop the worker (a receipt being printed stays spooled). Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=10)
        self.output.close()
        if self.sim is not None:
            self.sim.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                ids = self.spool.ids()
            except OSError as exc:
                self.fault = fault_spool(self.spool.dir, exc)
                self.status = self.fault.message
                self._wake.wait(self.retry_s)
                continue
            if not ids:
                self._wake.wait()
                self._wake.clear()
                continue
            try:
                receipt = self.spool.load(ids[0])
            except SpoolError as exc:
                log.warning("spool: %s", exc)
                self.status = "Damaged receipt skipped"
                continue
            try:
                self.status = "Printing..."
                self.status = self.output.print(receipt, ids[0])
                self.fault = None
                self.spool.done(ids[0])
                self.printed += 1
                continue
            except _Stopped:
                return
            except PrinterFault as fault:
                self.fault, self.status = fault, fault.message
            except Exception as exc:  # keep the receipt and the loop alive whatever happens
                log.exception("printer worker")
                self.fault = PrinterFault("Printer error", str(exc))
                self.status = self.fault.message
            self._wake.wait(self.retry_s)
            self._wake.clear()


def check_printer(printer_config: Mapping, port: str | None = None) -> tuple[bool, str]:
    """Open the [printer] port and ask the printer how it is, with the status commands
    of its model. Never raises: returns ``(ok, message)``: the printer as it reports
    itself (online or offline, paper, whether it answers status queries) and the fix."""
    try:
        settings = printer_settings(printer_config)
    except ConfigError as exc:
        return False, str(exc)
    link = SerialLink(settings, port)
    where = f"{link.port} at {settings.baudrate} baud ({settings.profile.name})"
    try:
        state = link.status()
        if settings.profile.status == "none":
            return True, (f"Printer port open on {where}: status = \"none\", so paper and cover are not "
                          "checked; receipts are sent paced with a margin")
        link.ready()
    except PrinterFault as fault:
        said = f"; it says: {state.describe()}" if "state" in locals() and state.answers else ""
        at = f" ({settings.profile.name})" if link.port in fault.message else f" on {where}"
        return False, f"{fault.message}{at}{said} ({fault.fix})"
    finally:
        link.close()
    return True, f"Printer OK on {where}: {state.describe()}"


def _spooled(spool: Spool) -> bool:
    """Whether the spool holds a receipt (an unreadable spool counts as holding one).
    A receipt leaves the spool only once it is printed, so a run killed mid-receipt
    leaves its receipt there: with an empty spool at the start, nothing of an earlier
    run can still be in the printer's buffer, and the first job need not wait for it."""
    try:
        return bool(spool.ids())
    except OSError:
        return True


def open_printer(printer_config: Mapping, backend: str, spool_dir: str | Path, port: str | None = None, *,
                 out_dir: str | Path | None = None) -> Printer:
    """A running Printer for the [printer] table of hardware/pinout.toml.

    ``port`` overrides the configured serial port (for ``sim``: where the simulated port's
    path goes). ``out_dir`` is where ``png`` saves receipts (default: ``receipts`` beside
    the spool). Raises ConfigError for a bad table or backend; printer faults never raise,
    they show in ``status``.
    """
    settings = printer_settings(printer_config)
    spool = Spool(spool_dir)
    if backend == "png":
        out = Path(out_dir) if out_dir else Path(spool_dir).parent / "receipts"
        return Printer(PngOutput(out, printer_config), spool, retry_s=settings.retry_s)
    if backend == "serial":
        link = SerialLink(settings, port, drained=not _spooled(spool))
        return Printer(SerialOutput(link, printer_config), spool, retry_s=settings.retry_s)
    if backend == "sim":
        from companion.devices.printer_sim import PrinterSim
        from companion.devices.printer_sim import HARDWARE
        model = settings.profile.name if settings.profile.name in HARDWARE else "generic-58mm"
        sim = PrinterSim(baudrate=settings.baudrate, buffer_bytes=settings.buffer_bytes, line_ms=settings.line_ms,
                         width=settings.chars_per_line, path=port, model=model)
        link = SerialLink(settings, sim.path, drained=True)   # a fresh simulator holds no earlier job
        return Printer(SerialOutput(link, printer_config), spool, retry_s=settings.retry_s, sim=sim)
    raise ConfigError(None, "backend", f"unknown printer backend {backend!r}", "use " + ", ".join(BACKENDS))
