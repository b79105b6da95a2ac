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

The paper sensor is read with ``DLE EOT 4``; silence is "unknown", never "paper OK".
"""

from __future__ import annotations

import errno
import logging
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


def fault_silent() -> PrinterFault:
    return PrinterFault("Printer not answering",
                        "check the printer's power, its TX -> Pi RX wire, and [printer] baudrate "
                        "(printed on its self-test page)")


def fault_paper_out() -> PrinterFault:
    return PrinterFault("Printer: paper out", "load a paper roll; the receipt prints then")


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


def printer_settings(config: Mapping) -> PrinterSettings:
    """The [printer] table checked; a ConfigError names the bad key and the fix."""
    def number(key, default, low):
        value = config.get(key, default) if default is not None else require(config, key, (int, float), None, "printer")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < low:
            raise ConfigError(None, f"printer.{key}", f"must be a number >= {low}, not {value!r}")
        return value

    escpos.heat_command(config)
    flow = config.get("flow_control", "none")
    if flow not in ("none", "rtscts"):
        raise ConfigError(None, "printer.flow_control", f"must be \"none\" or \"rtscts\", not {flow!r}")
    return PrinterSettings(
        port=require(config, "port", str, None, "printer"),
        baudrate=int(number("baudrate", None, 1200)),
        line_ms=float(number("line_ms", None, 0)),
        buffer_bytes=int(number("buffer_bytes", 256, 32)),
        flow_control=flow == "rtscts",
        status_timeout_s=number("status_timeout_ms", 500, 10) / 1000.0,
        retry_s=float(number("retry_s", 3.0, 0.01)),
        chars_per_line=int(number("chars_per_line", 32, 16)),
    )


def paper_state(reply: bytes) -> str:
    """Decode the answer to DLE EOT 4: "ok", "low", "out" or "unknown" (no or odd answer)."""
    if len(reply) != 1 or reply[0] & 0x93 != 0x12:     # bits 1 and 4 set, 0 and 7 clear
        return "unknown"
    if reply[0] & 0x60:
        return "out"
    return "low" if reply[0] & 0x0C else "ok"


class _Stopped(Exception):
    """The printer is closing: leave the receipt in the spool."""


class SerialLink:
    """One serial port to an ESC/POS printer: status queries and paced writes.

    Pacing models the printer: bytes cross the wire at ``baudrate / 10`` per second, wait
    in its ``buffer_bytes`` input buffer, and a line leaves the buffer once it has been
    printed (``dots x line_ms``). A chunk is written only when it fits in what the model
    says is free, so the buffer never overflows and the paper never waits for data.
    """

    def __init__(self, settings: PrinterSettings, port: str | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], bool] | None = None):
        self.settings = settings
        self.port = port or settings.port
        self.clock = clock
        self.sleeper = sleep or (lambda s: bool(time.sleep(s)))   # True: stop waiting, abort
        self._serial = None
        self._backlog = (0.0, 0)     # (seconds, bytes) a stopped job left in the printer

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

    def paper(self) -> str:
        """The paper sensor: "ok", "low", "out" or "unknown" (no answer in time)."""
        self.open()

        def ask(port):
            port.reset_input_buffer()
            port.write(escpos.STATUS_PAPER)
            return port.read(1)
        return paper_state(self._io(ask))

    def ready(self) -> str:
        """``paper()``, raising the fault when the printer cannot print (out or silent)."""
        paper = self.paper()
        if paper == "out":
            raise fault_paper_out()
        if paper == "unknown":
            raise fault_silent()
        return paper

    def print_job(self, chunks: list[tuple[bytes, int]], check_every_s: float = 0.25) -> str:
        """Write ``chunks`` (bytes, dot lines) paced, wait until the printer has printed
        them and return the paper state then ("ok" or "low"). The paper sensor is read
        every ``check_every_s`` so a printer that stops is not fed into overflow; a fault
        raises PrinterFault.

        If the job stops on a fault, what the printer still holds is remembered and the
        next job waits for it (a printer prints its buffer once paper is back)."""
        self.open()
        s = self.settings
        byte_s, line_s, room = 10.0 / s.baudrate, s.line_ms / 1000.0, s.buffer_bytes
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
                if self.clock() - checked >= check_every_s:
                    self.ready()
                    checked = self.clock()
                    wire_free += len(escpos.STATUS_PAPER) * byte_s
            while (now := self.clock()) < engine_free:
                self.sleep(min(check_every_s, engine_free - now))
                self.ready()
            return self.ready()
        except PrinterFault:
            self._backlog = (max(0.0, engine_free - self.clock()), in_buffer)
            raise

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
        paper = self.link.print_job(escpos.encode_lines(receipt, self.config))
        return "Printer: paper low" if paper == "low" else "Printer ready"

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
            png.render(receipt).save(buf, format="PNG")
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
                self.fault = PrinterFault(f"Cannot read spool: {self.spool.dir}", exc.strerror or str(exc))
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
    """Open the [printer] port and read the paper sensor. Never raises: returns
    ``(ok, message)``; a failed message names the fix."""
    try:
        settings = printer_settings(printer_config)
    except ConfigError as exc:
        return False, str(exc)
    link = SerialLink(settings, port)
    try:
        paper = link.ready()
    except PrinterFault as fault:
        return False, f"{fault.message} ({fault.fix})"
    finally:
        link.close()
    note = "paper low, keep a roll at hand" if paper == "low" else "paper loaded"
    return True, f"Printer OK on {link.port} at {settings.baudrate} baud ({note})"


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
        return Printer(SerialOutput(SerialLink(settings, port), printer_config), spool, retry_s=settings.retry_s)
    if backend == "sim":
        from companion.devices.printer_sim import PrinterSim
        sim = PrinterSim(baudrate=settings.baudrate, buffer_bytes=settings.buffer_bytes, line_ms=settings.line_ms,
                         width=settings.chars_per_line, path=port)
        link = SerialLink(settings, sim.path)
        return Printer(SerialOutput(link, printer_config), spool, retry_s=settings.retry_s, sim=sim)
    raise ConfigError(None, "backend", f"unknown printer backend {backend!r}", "use " + ", ".join(BACKENDS))
