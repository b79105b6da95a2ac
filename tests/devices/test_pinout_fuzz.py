"""Whatever an owner writes in hardware/pinout.toml, loading it gives either the checked
pinout or a ConfigError whose message is one line naming the file: never another
exception, never a traceback from ``companion selftest``.

Thousands of files: random bytes and text, random tables of random TOML values under the
real keys and unknown ones, and the shipped file with its lines mangled.
"""

from __future__ import annotations

import atexit
import json
import math
import shutil
import subprocess
import sys
import tempfile
from datetime import date, datetime, time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.config import ConfigError
from companion.devices.board import DEFAULT_PINOUT, DEFAULTS, load_pinout
from companion.devices.gestures import BUTTONS
from tests import fuzzing

SHIPPED = DEFAULT_PINOUT.read_text(encoding="utf-8")
FUZZ = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


SCRATCH = Path(tempfile.mkdtemp(prefix="pinout-fuzz-"))   # one file, written again for each example
atexit.register(shutil.rmtree, SCRATCH, True)


def load(content: str | bytes):
    """load_pinout of a file holding ``content``: the pinout, or the ConfigError."""
    path = SCRATCH / "pinout.toml"
    path.unlink(missing_ok=True)    # a new file: ext4 flushes a file truncated and written again when it is closed
    path.write_bytes(content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content)
    try:
        pinout = load_pinout(path)
    except ConfigError as exc:
        message = str(exc)
        assert message.startswith(str(path)), message
        assert "\n" not in message and "\r" not in message, message
        return exc
    check_pinout(pinout)
    return pinout


def check_pinout(pinout) -> None:
    """A pinout that loaded is complete and usable: five distinct free GPIOs, sane timings."""
    assert isinstance(pinout, dict) and isinstance(pinout["printer"], dict)
    for table, defaults in DEFAULTS.items():
        assert set(pinout[table]) == set(defaults), table
    pins = [pinout["buttons"][name] for name in BUTTONS]
    assert all(type(pin) is int and 0 <= pin <= 27 for pin in pins) and len(set(pins)) == len(pins)
    assert not {2, 3, 14, 15} & set(pins)
    buttons = pinout["buttons"]
    assert buttons["bounce_ms"] < buttons["long_press_ms"] < buttons["stuck_ms"]
    assert pinout["display"]["driver"] in ("ssd1306", "sh1106")
    assert (pinout["display"]["width"], pinout["display"]["height"]) == (128, 64)
    buzzer = pinout["buzzer"]
    assert type(buzzer["active"]) is bool and type(buzzer["pin"]) is int and 0 <= buzzer["pin"] <= 27
    assert buzzer["pin"] not in {2, 3, 14, 15, *pins}


# -- TOML text from Python values --------------------------------------------------------

def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml_document(tables: dict) -> str:
    lines = []
    for name, table in tables.items():
        if isinstance(table, dict):
            lines.append(f"[{json.dumps(name)}]")
            lines += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in table.items()]
        else:
            lines.insert(0, f"{json.dumps(name)} = {toml_value(table)}")  # a top-level key
    return "\n".join(lines) + "\n"


PINOUT_VALUES = (0, 2, 3, 5, 14, 15, 27, 28, 0x3C, 0x78, "ssd1306", "sh1106", "SSD1306", "")
KNOWN_KEYS = [key for defaults in DEFAULTS.values() for key in defaults] + ["port", "baudrate", "line_ms"]


def scalar(rnd):
    """A TOML leaf, often one a pinout holds (a pin, an address, a driver's name)."""
    return fuzzing.scalar(rnd, PINOUT_VALUES)


def value(rnd):
    return fuzzing.nested(rnd, scalar, max_leaves=6)


def key(rnd):
    return rnd.choice(KNOWN_KEYS) if rnd.random() < 0.5 else fuzzing.text(rnd)


def random_tables(rnd) -> dict:
    """Up to four tables (the real ones or others) of up to eight keys, or top-level values."""
    tables = {}
    for _ in range(rnd.randint(0, 4)):
        name = rnd.choice(["buttons", "display", "printer", "buzzer"]) if rnd.random() < 0.5 else fuzzing.text(rnd)
        if rnd.random() < 0.8:
            tables[name] = {key(rnd): value(rnd) for _ in range(rnd.randint(0, 8))}
        else:
            tables[name] = value(rnd)
    return tables


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes(content):
    load(content)


@FUZZ
@given(st.text(max_size=300))
def test_random_text(content):
    load(content)


@FUZZ
@given(fuzzing.randoms())
def test_random_tables(rnd):
    load(toml_document(random_tables(rnd)))


@FUZZ
@given(fuzzing.randoms())
def test_mangled_shipped_file(rnd):
    lines = SHIPPED.splitlines()
    edits = [(rnd.randint(0, 200), rnd.choice(["drop", "repeat", "value", "junk"]), scalar(rnd))
             for _ in range(rnd.randint(0, 6))]
    for index, edit, value in edits:
        i = index % len(lines)
        if edit == "drop":
            del lines[i]
        elif edit == "repeat":
            lines.insert(i, lines[i])
        elif edit == "value" and "=" in lines[i]:
            lines[i] = lines[i].split("=", 1)[0] + "= " + toml_value(value)
        elif edit == "junk":
            lines[i] += str(value)
        if not lines:
            break
    load("\n".join(lines) + "\n")


def test_the_shipped_file_and_no_file_load():
    check_pinout(load(SHIPPED))
    check_pinout(load_pinout(None))


def test_known_mistakes_are_named():
    assert "buttons.OK" in str(load(SHIPPED.replace("OK   = 13", "OK   = 5")))             # two buttons on GPIO5
    assert "display.driver" in str(load(SHIPPED.replace('"ssd1306"  #', '"ssd1309"  #')))
    assert "not valid TOML" in str(load(SHIPPED + "\n[buttons\n"))
    assert "not UTF-8" in str(load(b"\xff\xfe[buttons]\n"))
    assert "buttons" in str(load('buttons = 5\n'))
    assert "buzzer.pin" in str(load(SHIPPED.replace("pin = 12", "pin = 13")))           # the OK button's
    assert "buzzer.pin" in str(load(SHIPPED.replace("pin = 12", "pin = 14")))           # the printer's TX
    assert "buzzer.pin" in str(load(SHIPPED.replace("pin = 12", "pin = 40")))           # a header pin number
    assert "buzzer.active" in str(load(SHIPPED.replace("active = false", 'active = "yes"')))
    assert "buzzer.volume" in str(load(SHIPPED.replace("active = false", "volume = 3")))
    fitted = load(SHIPPED.replace("active = false", "active = true").replace("pin = 12", "pin = 18"))
    assert fitted["buzzer"] == {"active": True, "pin": 18}
    assert load_pinout(None)["buzzer"] == {"pin": 12, "active": False}       # none fitted: the box works


BAD_FILES = {
    "syntax": "[buttons]\nUP = \n",
    "type": '[buttons]\nUP = "five"\n',
    "newline key": '[buttons]\n"U\\nP" = 5\n',
    "bytes": b"\x80\x81[display]\n",
}


def test_selftest_reports_a_bad_pinout_in_one_line(tmp_path):
    for name, content in BAD_FILES.items():
        path = tmp_path / f"{name.replace(' ', '-')}.toml"
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        done = subprocess.run([sys.executable, "-m", "companion.cli", "selftest", "--pinout", str(path),
                               "--state", str(tmp_path / "state"), "--skip", "display", "--skip", "buttons",
                               "--skip", "printer"], capture_output=True, text=True, timeout=60)
        assert done.returncode == 1, (name, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr, (name, done.stderr)
        fail = [line for line in done.stdout.splitlines() if line.startswith("[FAIL]")]
        assert fail == [line for line in done.stdout.splitlines() if str(path) in line], (name, done.stdout)
        assert len(fail) == 1 and fail[0].startswith(f"[FAIL] pinout: {path}: "), (name, done.stdout)
