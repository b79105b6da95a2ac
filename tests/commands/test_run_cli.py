"""``companion run`` as a person runs it: a scripted race on the headless hardware."""

import os
import re
import subprocess
import sys

# Lap counter, default answers, start, one crossing, then pause > End race > yes
END_A_LAP_RACE = "DOWN DOWN OK OK OK GO OK OK OK GO GO BACK DOWN DOWN DOWN DOWN OK OK"


def run(state_dir, *args):
    env = {**os.environ, "COMPANION_STATE": str(state_dir)}
    return subprocess.run([sys.executable, "-m", "companion.cli", "run", "--hardware", "headless",
                           "--state", str(state_dir), "--seed", "1", *args],
                          capture_output=True, text=True, env=env, timeout=120)


def test_a_scripted_run_waits_for_its_last_receipt(state_dir):
    result = run(state_dir, "--keys", END_A_LAP_RACE)
    assert result.returncode == 0, result.stderr
    printed = sorted(p.name.split("-", 2)[-1] for p in (state_dir / "receipts").glob("*.png"))
    assert printed == ["program.png", "results.png"]
    assert not list((state_dir / "spool").glob("*-results.json"))


def test_a_receipt_that_cannot_print_in_time_is_said_to_wait(state_dir):
    result = run(state_dir, "--keys", END_A_LAP_RACE, "--print-wait", "0")
    assert result.returncode == 0
    assert "(s)" not in result.stderr
    if list((state_dir / "spool").glob("0*.json")):
        assert re.search(r"\b(1 receipt|[02-9]\d* receipts) still waiting for the printer", result.stderr)


def test_run_help_says_where_receipts_go(capsys):
    from companion.cli import main
    try:
        main(["run", "--help"])
    except SystemExit:
        pass
    out = " ".join(capsys.readouterr().out.split())
    assert "receipts go to STATE/receipts" in out and "frames and receipts go" not in out
