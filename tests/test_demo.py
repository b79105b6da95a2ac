"""``companion demo``: a scripted race through the whole stack (gpiozero mock pins, the app,
the luma driver on a recording I2C bus, the printer over a pseudo-terminal)."""

import json
import subprocess
import sys

from PIL import Image

from companion.devices.printer_sim import decode
from tests.shared import demo_of


def run_demo(tmp_path_factory, game):
    """``companion demo --game GAME``: its folder and results (the run's one demo of the
    game, which tests/test_conformance.py reads too)."""
    code, out, _ = demo_of(tmp_path_factory, game)
    assert code == 0
    return out, json.loads((out / "results.json").read_text())


def check_common(out, results, game):
    assert results["game"] == game
    standings = results["standings"]
    assert [r["position"] for r in standings] == list(range(1, len(standings) + 1))
    assert all(isinstance(r["points"], int) and r["name"] for r in standings)
    frames = sorted((out / "frames").glob("frame-*.png"))
    assert len(frames) == results["frames"] > 10
    with Image.open(frames[-1]) as im:
        assert im.size == (128, 64)
    assert results["printer_overflow"] == 0
    assert results["receipts"][:1] == ["program"] and results["receipts"][-1] == "results"
    for kind in ("program", "results"):
        (png,) = (out / "receipts").glob(f"*-{kind}.png")
        with Image.open(png) as im:
            assert im.size[0] == 384 and im.size[1] > 100
        (raw,) = (out / "receipts").glob(f"*-{kind}.bin")
        text = "\n".join(line.text for line in decode(raw.read_bytes()).lines)
        winner = standings[0]["name"]
        if kind == "results":
            assert winner in text
    return standings


def test_top_speed_demo(tmp_path_factory):
    out, results = run_demo(tmp_path_factory, "top-speed")
    standings = check_common(out, results, "top-speed")
    assert len(standings) >= 2


def test_street_illegal_demo_has_old_pros_and_team(tmp_path_factory):
    out, results = run_demo(tmp_path_factory, "street-illegal")
    standings = check_common(out, results, "street-illegal")
    assert any(r["old_pro"] for r in standings) and sum(not r["old_pro"] for r in standings) >= 2
    (team,) = results["teams"]
    assert team["points"] == max(r["points"] for r in standings if r["old_pro"])


def test_demo_unknown_game_is_one_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "demo", "--game", "monaco",
                           "--out", str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "unknown game 'monaco'" in proc.stderr and "top-speed" in proc.stderr
