"""The backup the box makes by itself after each finished race ([backup] dir of the
pinout): on its own worker, the newest kept, passed over while no stick is there, and a
failure said on the screen once without losing the race."""

import subprocess
import sys

import pytest

from companion.autobackup import AutoBackup
from companion.core import backup
from companion.core.config import ConfigError
from companion.devices.board import DEFAULT_PINOUT, load_pinout
from tests.commands.test_backup_cli import record
from tests.commands.test_read_only_card import read_only
from tests.commands.test_run_cli import END_A_LAP_RACE, run
from tests.tablescreen.conftest import play
from tests.table import PaperTray, make_app, press


def pinout_with_backup(tmp_path, settings: str):
    """The shipped pinout with ``settings`` in its [backup] table (the last one)."""
    shipped = DEFAULT_PINOUT.read_text()
    assert shipped.rindex("\n[") == shipped.index("\n[backup]")
    pinout = tmp_path / "pinout.toml"
    pinout.write_text(f"{shipped}{settings}\n")
    return pinout


def app_backing_up_to(state_dir, stick, keep=5):
    app = make_app(state_dir)
    app.printer = PaperTray()
    app.backup = AutoBackup(app.journal.path, stick, keep)
    return app


def finish_a_race(app, slug="laps"):
    play(app, slug, 10_000)
    assert app.runner.session.finished is not None
    app.close_session()
    assert app.backup.wait(30)


def test_each_finished_race_is_backed_up_and_the_newest_five_kept(state_dir, tmp_path):
    stick = tmp_path / "stick"
    stick.mkdir()
    app = app_backing_up_to(state_dir, stick)
    play(app, "laps", 3)                                  # a race under way: no backup yet
    assert app.backup.wait(5) and backup.backups(stick) == []
    play(app, "laps", 10_000)
    app.close_session()
    assert app.backup.wait(30)
    [first] = backup.backups(stick)
    assert backup.check(first).finished == 1
    for game in ("formula-de", "laps", "top-speed", "laps", "laps", "formula-de"):
        finish_a_race(app, game)
    kept = backup.backups(stick)
    assert len(kept) == 5 and first not in kept and kept[-1] == app.backup.last
    assert backup.check(kept[-1]).finished == 7
    app.step(None)
    assert app.toast == ""                                # a backup that worked says nothing
    app.close()
    app.journal.close()
    restored = tmp_path / "new-card"
    backup.restore(kept[-1], restored)
    assert record(restored) == record(state_dir)


def test_a_race_ended_early_is_backed_up_too(state_dir, tmp_path):
    stick = tmp_path / "stick"
    stick.mkdir()
    app = app_backing_up_to(state_dir, stick)
    play(app, "formula-de", 5)
    app.end_session()
    assert app.backup.wait(30)
    assert backup.check(backup.backups(stick)[-1]).finished == 1


def test_no_stick_no_backup_and_no_word_then_the_next_race_once_it_is_there(state_dir, tmp_path):
    stick = tmp_path / "stick"
    app = app_backing_up_to(state_dir, stick)
    finish_a_race(app)
    app.step(None)
    assert app.toast == "" and not stick.exists()
    stick.mkdir()                                         # the stick is plugged in and mounted
    finish_a_race(app)
    assert backup.check(backup.backups(stick)[-1]).finished == 2


def test_a_failed_backup_is_said_once_and_the_race_is_kept(state_dir, tmp_path):
    stick = tmp_path / "stick"
    stick.mkdir()
    with read_only(stick, tmp_path) as view:
        app = app_backing_up_to(state_dir, view)
        finish_a_race(app)
        app.step(None)
        assert app.toast.startswith("Backup failed: ")
        assert app.toast in ("Backup failed: stick read-only", "Backup failed: no permission")
        frame = app.frame()
        assert frame.alert == app.toast
        press(app, "DOWN")                               # the next press clears it, for good
        app.step(None)
        assert app.toast == "" and app.backup.news() is None
    assert list(stick.iterdir()) == []
    assert [s.finished is not None for s in app.journal.sessions()] == [True]
    assert app.journal.replay(1).effective


def test_companion_run_backs_up_the_race_it_ends(state_dir, tmp_path):
    stick = tmp_path / "stick"
    stick.mkdir()
    pinout = pinout_with_backup(tmp_path, f'dir = "{stick}"\nkeep = 3')
    result = run(state_dir, "--keys", END_A_LAP_RACE, "--pinout", str(pinout))
    assert result.returncode == 0, result.stderr
    [made] = backup.backups(stick)
    assert backup.check(made).finished == 1


def test_companion_run_without_a_backup_dir_loads_no_backup_code(state_dir):
    probe = ("import sys; from companion.runtime import Runtime\n"
             "with Runtime.open(hardware='headless', keys='OK') as rt:\n"
             "    rt.run(); assert rt.app.backup is None\n"
             "print(sorted(m for m in sys.modules if 'backup' in m))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                         env={"COMPANION_STATE": str(state_dir), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("table, key, said", [
    ('dir = 5', "backup.dir", 'for example `dir = "/media/usb/race-companion"`'),
    ('dir = "/media/usb/x"\nkeep = 0', "backup.keep", "from 1 to 1000"),
    ('folder = "/media/usb"', "backup.folder", "valid keys: dir, keep"),
])
def test_a_wrong_backup_setting_names_the_file_the_key_and_the_fix(tmp_path, table, key, said):
    pinout = pinout_with_backup(tmp_path, table)
    with pytest.raises(ConfigError) as told:
        load_pinout(pinout)
    assert str(told.value).startswith(f"{pinout}: {key}: ") and said in str(told.value)


def test_the_backup_is_off_by_default():
    assert load_pinout(DEFAULT_PINOUT)["backup"] == {"dir": "", "keep": 5}
