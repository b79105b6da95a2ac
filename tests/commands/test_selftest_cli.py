"""``companion selftest`` off a Pi: it says what it checks, and the emulated display,
buttons and printer (the real drivers on an emulated bus, mock pins, the simulated
printer) pass without being skipped."""

from companion.cli import main


def test_selftest_on_a_desktop_checks_the_emulated_parts_and_passes(state_dir, capsys):
    assert main(["selftest", "--state", str(state_dir), "--hardware", "emulated"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "emulated" in lines[0] and "Raspberry Pi" in lines[0]
    for part in ("display (emulated)", "buttons (emulated)", "printer (simulated)"):
        assert f"[ok] {part}:" in out
    assert "FAIL" not in out and lines[-1] == "All parts OK."


def test_selftest_of_the_real_parts_off_a_pi_says_what_is_missing(state_dir, capsys):
    assert main(["selftest", "--state", str(state_dir), "--hardware", "pi", "--skip", "buttons",
                 "--skip", "printer"]) == 1
    out = capsys.readouterr().out
    assert "real display" in out.splitlines()[0] and "[FAIL] display:" in out
