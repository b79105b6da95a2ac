"""``companion selftest`` off a Pi: it says what it checks, and the emulated display,
buttons and printer (the real drivers on an emulated bus, mock pins, the simulated
printer) pass without being skipped."""

from companion.cli import main
from tests.commands.test_results_cli import race


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


def test_selftest_counts_in_words_and_names_the_running_session(state_dir, capsys):
    """"1 finished race", never "race(s)"; a session left running is named as the results
    command names it ("a session is running: Dice roller"), not by its slug."""
    from tests.table import make_app

    race(state_dir)                                  # one finished race, then a tool left running
    app = make_app(state_dir)
    app.boot()
    app.start_session("dice", {})
    app.journal.close()
    assert main(["selftest", "--state", str(state_dir), "--hardware", "emulated", "--skip", "display",
                 "--skip", "buttons", "--skip", "printer"]) == 0
    state_line = next(line for line in capsys.readouterr().out.splitlines() if "] state:" in line)
    assert "1 finished race," in state_line and "(s)" not in state_line
    assert "a session is running: Dice roller" in state_line and "(dice)" not in state_line
    assert main(["results", "--state", str(state_dir)]) == 0
    assert capsys.readouterr().out.startswith("A session is running: Dice roller (started ")
