"""A state directory on a card remounted read-only: the journal is intact. It is said to be
read-only (never damaged, never to be moved aside), and ``results`` and ``print`` read it.

The directory is made read-only for real: a read-only bind mount when the tests run as
root (whom file permissions do not stop), the write permissions taken away otherwise."""

import contextlib
import os
import subprocess

import pytest

from companion.cli import main
from companion.core.journal import Journal, JournalReadOnly
from tests.commands.test_results_cli import race


@contextlib.contextmanager
def read_only(folder, tmp_path):
    """``folder`` seen read-only: the path to use while it is."""
    if os.geteuid() == 0:
        view = tmp_path / "read-only-view"
        view.mkdir()
        mounted = subprocess.run(["mount", "--bind", str(folder), str(view)], capture_output=True)
        if mounted.returncode != 0:
            pytest.skip("root without mount: cannot make a directory read-only for root")
        try:
            if subprocess.run(["mount", "-o", "remount,ro,bind", str(view)], capture_output=True).returncode:
                pytest.skip("cannot remount a bind read-only here")
            yield view
        finally:
            subprocess.run(["umount", str(view)], capture_output=True)
        return
    modes = {p: p.stat().st_mode for p in [folder, *folder.iterdir()]}
    for p in modes:
        p.chmod(modes[p] & ~0o222)
    try:
        yield folder
    finally:
        for p, mode in modes.items():
            p.chmod(mode)


def written(folder):
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}


def test_a_read_only_journal_is_said_to_be_read_only_and_left_as_it_is(state_dir, tmp_path, capsys):
    race(state_dir)
    before = written(state_dir)
    with read_only(state_dir, tmp_path) as view:
        with pytest.raises(JournalReadOnly) as told:
            Journal(view)
        message = str(told.value)
        assert "read-only" in message and "intact" in message
        assert "damaged" not in message and "aside" not in message

        assert main(["run", "--hardware", "headless", "--state", str(view), "--keys", "OK"]) != 0
        err = capsys.readouterr().err
        assert "read-only" in err and "damaged" not in err and "aside" not in err

        assert main(["results", "--state", str(view)]) == 0
        captured = capsys.readouterr()
        assert "Last race: Lap counter, Formula Dé" in captured.out and "read-only" in captured.err

        out_dir = tmp_path / "png"
        assert main(["print", "results", "--state", str(view), "--to", "png", "--out", str(out_dir)]) == 0
        assert "Printed 1 receipt to " in capsys.readouterr().out
        assert [p.name.split("-", 2)[-1] for p in out_dir.glob("*.png")] == ["results.png"]

        assert main(["selftest", "--state", str(view), "--skip", "display", "--skip", "buttons",
                     "--skip", "printer"]) == 1
        out = capsys.readouterr().out
        state_line = next(line for line in out.splitlines() if "] state:" in line)
        assert "read-only" in state_line and "1 finished race readable" in state_line
        assert "damaged" not in state_line
    assert written(state_dir) == before                  # nothing moved aside, nothing added
    with Journal(state_dir) as journal:                   # writable again: the same races
        assert len(journal.sessions(finished=True)) == 1


def test_run_on_a_read_only_card_says_so_on_the_screen(state_dir, tmp_path, capsys):
    """The appliance's screen is where the table looks (stderr reaches only the system
    log): a start on a read-only card leaves its reason on the display."""
    from PIL import Image

    from companion.ui import screens
    from companion.ui.render import cut_texts, render

    race(state_dir)
    frames = tmp_path / "frames"
    with read_only(state_dir, tmp_path) as view:
        assert main(["run", "--hardware", "headless", "--state", str(view), "--out", str(frames),
                     "--keys", "OK"]) != 0
    assert "read-only" in capsys.readouterr().err
    told = screens.journal_problem(read_only=True)
    assert told.title == "Card read-only" and cut_texts(told, footer=True) == []
    said = " ".join(t.text for t in told.body)
    assert "intact" in said and "read-write" in said and "damaged" not in said
    shown = sorted(frames.glob("frame-*.png"))
    assert len(shown) == 1
    drawn = Image.open(shown[0]).convert("1")
    assert drawn.tobytes() == render(told).convert("1").tobytes()


def test_on_the_pi_the_message_stays_on_the_oled_after_the_exit(state_dir, tmp_path):
    """The OLED's own bytes, replayed into the controller's RAM: the message is on the
    glass, and the panel is not switched off (0xAE) when the companion exits."""
    from gpiozero.pins.mock import MockFactory

    from companion.devices.fake_i2c import FakeBus, Ssd1306Ram
    from companion.runtime import Runtime, StartupError
    from companion.ui import screens
    from companion.ui.render import render
    from tests.conftest import ROOT

    race(state_dir)
    bus = FakeBus()
    with read_only(state_dir, tmp_path) as view:
        with pytest.raises(StartupError, match="read-only"):
            Runtime.open(hardware="pi", state=str(view), pinout=str(ROOT / "hardware" / "pinout.toml"),
                         pin_factory=MockFactory(), i2c_bus=bus)
    ram = Ssd1306Ram()
    ram.replay(bus.writes)
    told = render(screens.journal_problem(read_only=True)).convert("1")
    assert ram.image().tobytes() == told.tobytes()
    last_data = max(i for i, (_, control, _) in enumerate(bus.writes) if control == 0x40)
    assert all(0xAE not in values for _, control, values in bus.writes[last_data:] if control == 0x00)


def test_a_read_only_card_without_a_journal_yet_is_said_read_only_on_the_screen(state_dir, tmp_path):
    from PIL import Image

    from companion.ui import screens
    from companion.ui.render import render

    empty = state_dir / "new-card"
    empty.mkdir()
    frames = tmp_path / "frames"
    with read_only(empty, tmp_path) as view:
        assert main(["run", "--hardware", "headless", "--state", str(view), "--out", str(frames),
                     "--keys", "OK"]) != 0
    told = screens.journal_problem(read_only=True, intact=False)
    said = " ".join(t.text for t in told.body)
    assert told.title == "Card read-only" and "read-write" in said and "intact" not in said
    shown = sorted(frames.glob("frame-*.png"))
    assert len(shown) == 1
    assert Image.open(shown[0]).convert("1").tobytes() == render(told).convert("1").tobytes()
