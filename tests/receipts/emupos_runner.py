"""Run under Python 3.13 with emupos installed (not imported by the test suite itself):
interpret ESC/POS bytes read from stdin with emupos's printer and print JSON with the text
of each receipt it rendered (and its picture, a PNG in base64), the commands it did not
know, and the data of each ``GS ( k`` (2D code) command as emupos's tokenizer reads it.

    python3.13 tests/receipts/emupos_runner.py PROFILE.yaml < job.bin
"""

import base64
import json
import sys
from pathlib import Path

from emupos.config import _parse_profile
from emupos.events import EventType
from emupos.printer.escpos.tokenizer import Command, Tokenizer
from emupos.printer.printer import Printer


def main() -> None:
    profile = _parse_profile(Path(sys.argv[1]).read_text(encoding="utf-8"), sys.argv[1])
    printer = Printer("p", profile, sensor_open_level="high", job_idle_timeout_ms=1000)
    data = sys.stdin.buffer.read()
    out = printer.open_connection("c", 0.0)
    out += printer.receive("c", data, 0.0)
    out += printer.close_connection("c", 0.0)
    unknown = [e.data for e in out.events if e.type == EventType.PRINTER_COMMAND_UNKNOWN]
    codes = [t.data.hex(" ") for t in Tokenizer().feed(data) if isinstance(t, Command) and t.name == "GS ( k"]
    json.dump({"receipts": [r.text for r in out.receipts], "unknown": unknown,
               "widths": [r.width_dots for r in out.receipts], "codes": codes,
               "pngs": [base64.b64encode(r.png).decode("ascii") for r in out.receipts]}, sys.stdout)


if __name__ == "__main__":
    main()
