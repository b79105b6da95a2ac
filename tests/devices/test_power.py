"""Power health: the Pi's under-voltage flag, read from the file of ``[power] throttled``
(a file of the test's own here), shown as "Power low" on the OLED's title bar and on the
table screen, kept in the journal with the race then running, and said by selftest."""

import pytest

from companion.cli import main
from companion.devices.power import PowerWatch, read_power
from companion.table.source import Follower
from tests.table import make_app


@pytest.mark.parametrize("text,low,now", [
    ("0x0\n", False, False), ("throttled=0x50005\n", True, True), ("50000\n", True, False),
    ("0\n", False, False), ("1\n", True, True)])      # get_throttled's forms, then the hwmon alarm
def test_the_pis_forms_are_read(tmp_path, text, low, now):
    path = tmp_path / "throttled"
    path.write_text(text)
    assert (read_power(path).low, read_power(path).now) == (low, now)


def test_a_missing_or_garbled_file_is_not_known_never_ok(tmp_path):
    assert read_power(tmp_path / "none").low is None
    (tmp_path / "bad").write_text("warm\n")
    reading = read_power(tmp_path / "bad")
    assert reading.low is None and "neither" in reading.error


def pinout_with(tmp_path, throttled) -> str:
    pinout = tmp_path / "pinout.toml"
    pinout.write_text(f'[power]\nthrottled = "{throttled}"\n')
    return str(pinout)


def test_selftest_says_power_low(state_dir, tmp_path, capsys):
    flag = tmp_path / "get_throttled"
    flag.write_text("50005\n")
    assert main(["selftest", "--state", str(state_dir), "--pinout", pinout_with(tmp_path, flag),
                 "--hardware", "emulated", "--skip", "display", "--skip", "buttons", "--skip", "printer"]) == 1
    line = next(line for line in capsys.readouterr().out.splitlines() if "] power:" in line)
    assert line.startswith("[FAIL] power: Power low: under-voltage now") and "hardware/power.md" in line
    flag.write_text("0\n")
    assert main(["selftest", "--state", str(state_dir), "--pinout", pinout_with(tmp_path, flag),
                 "--hardware", "emulated", "--skip", "display", "--skip", "buttons", "--skip", "printer"]) == 0
    assert "[ok] power:" in capsys.readouterr().out


def test_the_box_shows_keeps_and_publishes_power_low(state_dir, tmp_path):
    flag = tmp_path / "get_throttled"
    flag.write_text("0\n")
    clock = [0.0]
    app = make_app(state_dir)
    app.power = PowerWatch(flag, every=5, clock=lambda: clock[0])
    app.boot()
    app.start_session("dice", {})
    app.step(None)
    assert "Power low" not in app.frame().status
    flag.write_text("0x50005\n")
    clock[0] = 6
    app.step(None)
    assert app.frame().status.startswith("Power low")
    assert app.toast == "Power low: check the supply"
    running = app.journal.open_session()
    events = [e for e in app.journal.club_events() if e["kind"] == "power"]
    assert [(e["low"], e["race"]) for e in events] == [(True, running.id)]

    follower = Follower(state_dir)
    try:
        follower.poll()
        assert any(p.startswith("Power low on the box") for p in follower.payload["problems"])
    finally:
        follower.close()

    flag.write_text("0\n")            # a new boot (the sticky bit gone) and a good supply
    clock[0] = 12
    app.step(None)
    assert "Power low" not in app.frame().status
    assert [e["low"] for e in app.journal.club_events() if e["kind"] == "power"] == [True, False]
