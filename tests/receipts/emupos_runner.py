"""Run under Python 3.13 with emupos installed (not imported by the test suite itself):
interpret ESC/POS jobs read from stdin with emupos's printer, a new printer for each job,
and print one line of JSON for each with the text of each receipt it rendered (and its
picture, a PNG in base64), the commands it did not know, and the data of each ``GS ( k``
(2D code) command as emupos's tokenizer reads it.

    python3.13 tests/receipts/emupos_runner.py PROFILE.yaml

It says ``ready`` once emupos is imported, then reads jobs until stdin ends: each job is
its length (4 bytes, big-endian) and its bytes. One process serves all of a test run's
jobs: starting Python 3.13 and importing emupos costs more than most jobs.
"""

import base64
import json
import sys
from pathlib import Path

from emupos.config import _parse_profile
from emupos.events import EventType
from emupos.printer.escpos.tokenizer import Command, Tokenizer
from emupos.printer.printer import Printer


def interpret(profile, data: bytes) -> dict:
    printer = Printer("p", profile, sensor_open_level="high", job_idle_timeout_ms=1000)
    out = printer.open_connection("c", 0.0)
    out += printer.receive("c", data, 0.0)
    out += printer.close_connection("c", 0.0)
    unknown = [e.data for e in out.events if e.type == EventType.PRINTER_COMMAND_UNKNOWN]
    codes = [t.data.hex(" ") for t in Tokenizer().feed(data) if isinstance(t, Command) and t.name == "GS ( k"]
    return {"receipts": [r.text for r in out.receipts], "unknown": unknown,
            "widths": [r.width_dots for r in out.receipts], "codes": codes,
            "pngs": [base64.b64encode(r.png).decode("ascii") for r in out.receipts]}


def read_exactly(stream, size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise EOFError
    return data


def main() -> None:
    text = Path(sys.argv[1]).read_text(encoding="utf-8")
    print("ready", flush=True)
    while True:
        try:
            size = int.from_bytes(read_exactly(sys.stdin.buffer, 4), "big")
        except EOFError:
            return
        profile = _parse_profile(text, sys.argv[1])
        sys.stdout.write(json.dumps(interpret(profile, read_exactly(sys.stdin.buffer, size))) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
