"""systemd/companion.service: hardened to an exposure of 1.0 or lower, valid, and in step
with hardware/pinout.toml."""

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "companion.service"
PINOUT = tomllib.loads((REPO / "hardware" / "pinout.toml").read_text())

needs_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (apt-get install systemd)")


def settings(key: str) -> list[str]:
    """Every value of KEY= in the unit, comments left out."""
    return [line.split("=", 1)[1] for line in UNIT.read_text().splitlines()
            if line.startswith(f"{key}=")]


@needs_analyze
def test_security_exposure_is_at_most_one():
    out = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", str(UNIT)],
                         capture_output=True, text=True, check=True).stdout
    exposure = float(re.search(r"Overall exposure level for companion\.service: ([0-9.]+)", out)[1])
    assert exposure <= 1.0, out


@needs_analyze
def test_unit_verifies_cleanly_as_installed(tmp_path):
    # install.sh points the unit at the clone; verify that rendering with a real executable.
    app = tmp_path / "race-companion"
    (app / ".venv" / "bin").mkdir(parents=True)
    companion = app / ".venv" / "bin" / "companion"
    companion.write_text("#!/bin/sh\n")
    companion.chmod(0o755)
    unit = tmp_path / "companion.service"
    unit.write_text(UNIT.read_text().replace("/opt/race-companion", str(app)))
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)],
                          capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")


def test_notify_and_watchdog_settings():
    assert settings("Type") == ["notify"]
    assert settings("NotifyAccess") == ["main"]
    assert settings("WatchdogSec") == ["10"]
    assert settings("Restart") == ["on-failure"]
    assert settings("User") == ["companion"]
    assert settings("StateDirectory") == ["race-companion"]
    assert settings("PrivateTmp") == ["yes"]
    assert "--hardware pi --state ${STATE_DIRECTORY}" in settings("ExecStart")[0]


def test_waits_for_and_may_open_the_devices_of_the_pinout():
    bus = f"i2c-{PINOUT['display']['i2c_port']}"
    port = Path(PINOUT["printer"]["port"]).name
    devices = {f"dev-{bus.replace('-', chr(92) + 'x2d')}.device", f"dev-{port}.device"}
    assert set(settings("Wants")[0].split()) == devices
    assert set(settings("After")[0].split()) == devices
    allowed = {value.split()[0] for value in settings("DeviceAllow")}
    assert settings("DevicePolicy") == ["closed"]
    # the I2C bus, both UARTs /dev/serial0 may point at, the GPIO chips
    assert {"char-i2c", "char-ttyAMA", "char-ttyS", "char-gpiochip"} <= allowed


def test_udev_rule_makes_the_i2c_bus_visible_to_systemd():
    rule = (REPO / "firmware" / "60-race-companion.rules").read_text()
    assert f'KERNEL=="i2c-{PINOUT["display"]["i2c_port"]}", TAG+="systemd"' in rule
