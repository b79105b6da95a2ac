"""hardware/wiring.md says what hardware/pinout.toml says."""

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PINOUT = tomllib.loads((REPO / "hardware" / "pinout.toml").read_text())
WIRING = (REPO / "hardware" / "wiring.md").read_text()

# BCM GPIO -> header pin on the 40-pin header of every Pi since the B+.
HEADER = {2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11,
          18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13}
GROUND = {6, 9, 14, 20, 25, 30, 34, 39}
BUTTONS = [name for name in PINOUT["buttons"] if name.isupper()]


def button_rows() -> dict[str, tuple[int, int]]:
    rows = re.findall(r"^\| (\w+) \| (\d+) \| (\d+) \| GND \(pin (\d+)", WIRING, re.M)
    for *_, ground in rows:
        assert int(ground) in GROUND
    return {name: (int(bcm), int(pin)) for name, bcm, pin, _ in rows}


def test_every_button_on_its_pinout_gpio_and_header_pin():
    rows = button_rows()
    assert sorted(rows) == sorted(BUTTONS)
    for name in BUTTONS:
        bcm = PINOUT["buttons"][name]
        assert rows[name] == (bcm, HEADER[bcm]), name


def test_diagram_shows_each_button_on_its_pin():
    for name in BUTTONS:
        bcm = PINOUT["buttons"][name]
        assert re.search(rf"{name}\s+button ─── GPIO{bcm}\s+\({HEADER[bcm]}\)", WIRING), name


def test_display_and_printer_match_the_pinout():
    display, printer = PINOUT["display"], PINOUT["printer"]
    assert f"I2C address 0x{display['address']:02X}, bus {display['i2c_port']}" in WIRING
    assert display["driver"].upper() in WIRING
    assert f"on {printer['port']})" in WIRING
    assert "| SDA | 3 | GPIO 2 (SDA1) |" in WIRING and "| SCL | 5 | GPIO 3 (SCL1) |" in WIRING
    assert "| RX (data in) | header pin 8 | GPIO 14 (TXD) |" in WIRING
    assert "| TX (data out) | header pin 10" in WIRING


def test_the_buzzer_is_on_its_pinout_gpio_and_header_pin():
    pin = PINOUT["buzzer"]["pin"]
    assert f"| + (red, or the longer leg) | header pin {HEADER[pin]} **through a 100 Ω resistor** | GPIO {pin} " in WIRING
    assert re.search(rf"GPIO{pin} ── 100 Ω ── buzzer \+", WIRING)
    assert f"GPIO {pin} is the buzzer's" in WIRING and "| − (black) | header pin 34 | GND |" in WIRING
    assert 34 in GROUND
