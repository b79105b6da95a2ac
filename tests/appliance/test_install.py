"""firmware/install.sh against a fresh Raspberry Pi OS Lite tree: its dry run prints the plan
and changes nothing, a real run sets everything up, and a second run changes nothing.

The tree lives under ROOT=; the package, user and venv commands are the recording stand-ins
of shim.sh; systemctl is the real one, working on the tree (--root).
"""

import json
import os
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "firmware" / "install.sh"
FRAGMENT = (REPO / "firmware" / "config.txt").read_text()
SHIMMED = ("apt-get", "dpkg-query", "getent", "groupadd", "useradd", "usermod", "python3", "pip")
READ_ONLY = {"dpkg-query", "getent"}
SHIM = (Path(__file__).parent / "shim.sh").read_text()
BASH = shutil.which("bash") or "/bin/bash"
APP_DIR = "/opt/race-companion"

STOCK_CONFIG = """\
# For more options and information see
# http://rptl.io/configtxt
#dtparam=i2c_arm=on
#dtparam=spi=on
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[all]
"""
STOCK_CMDLINE = ("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
                 "fsck.repair=yes rootwait cfg80211.ieee80211_regdom=GB\n")


def needs(tool: str):
    return pytest.mark.skipif(shutil.which(tool) is None, reason=f"{tool} is not installed")


LAYOUTS = {"params": ["boot/firmware", "boot"], "ids": ["bookworm", "bullseye-layout"]}


def fresh_pi(folder: Path, boot_dir: str) -> SimpleNamespace:
    """A fresh Pi OS Lite in FOLDER: stock boot files in BOOT_DIR, the gpio and dialout
    groups (no i2c yet), some of the packages, no companion user."""
    if shutil.which("systemctl") is None:
        pytest.skip("systemctl is not installed (apt-get install systemd)")
    root = folder / "root"
    boot = root / boot_dir
    boot.mkdir(parents=True)
    (boot / "config.txt").write_text(STOCK_CONFIG)
    (boot / "cmdline.txt").write_text(STOCK_CMDLINE)
    state = folder / "state"
    state.mkdir()
    (state / "group").write_text("dialout:x:20:pi\ngpio:x:993:pi\npi:x:1000:\n")
    (state / "passwd").write_text("pi:x:1000:1000:,,,:/home/pi:/bin/bash\n")
    (state / "installed").write_text("python3-venv\nzlib1g-dev\nlibtiff6\n")
    shims = folder / "bin"
    shims.mkdir()
    (shims / "shim").write_text(f"#!{BASH}\n{SHIM}")
    (shims / "shim").chmod(0o755)
    for name in SHIMMED:
        (shims / name).symlink_to("shim")
    env = {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}", "ROOT": str(root),
           "APP_DIR": APP_DIR, "SHIM_STATE": str(state)}
    return SimpleNamespace(root=root, boot=boot, state=state, env=env, boot_dir="/" + boot_dir)


@pytest.fixture(**LAYOUTS)
def pi(request, tmp_path):
    """A fresh Pi OS Lite, for one test."""
    return fresh_pi(tmp_path, request.param)


@pytest.fixture(scope="module", **LAYOUTS)
def installed(request, tmp_path_factory):
    """A fresh Pi OS Lite after one run of install.sh, and that run: shared by the tests of
    this file, which only read it or change a copy (copy_of)."""
    pi = fresh_pi(tmp_path_factory.mktemp("installed"), request.param)
    return pi, install(pi)


def copy_of(pi, folder: Path) -> SimpleNamespace:
    """PI's tree and its commands' state, copied to FOLDER (links as links, modes kept)."""
    root, state = folder / "root", folder / "state"
    shutil.copytree(pi.root, root, symlinks=True)
    shutil.copytree(pi.state, state)
    return SimpleNamespace(root=root, boot=root / pi.boot.relative_to(pi.root), state=state,
                           env={**pi.env, "ROOT": str(root), "SHIM_STATE": str(state)}, boot_dir=pi.boot_dir)


def install(pi, *args, env=None):
    return subprocess.run(["bash", str(SCRIPT), *args], env={**pi.env, **(env or {})},
                          capture_output=True, text=True, timeout=60)


def calls(pi) -> list[list[str]]:
    log = pi.state / "calls.log"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def changing_calls(pi) -> list[list[str]]:
    return [call for call in calls(pi) if call[0] not in READ_ONLY]


def snapshot(root: Path) -> dict:
    """Every file, directory and link under ROOT, with its content or target and mode."""
    out = {}
    for path in sorted(root.rglob("*")):
        key = str(path.relative_to(root))
        if path.is_symlink():
            out[key] = ("link", os.readlink(path))
        elif path.is_dir():
            out[key] = ("dir", path.stat().st_mode)
        else:
            out[key] = ("file", path.read_bytes(), path.stat().st_mode)
    return out


@needs("shellcheck")
def test_shellcheck_clean():
    done = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "")


def test_dry_run_prints_the_plan_and_changes_nothing(pi):
    before = snapshot(pi.root)
    done = install(pi, "--dry-run")
    assert done.returncode == 0, done.stderr
    plan = done.stdout
    for step in ("would run: apt-get install -y --no-install-recommends python3-dev gcc python3-lgpio",
                 "would run: groupadd --system i2c",
                 "would run: useradd --system --user-group --home-dir /var/lib/race-companion",
                 f"would run: python3 -m venv --system-site-packages {pi.root}{APP_DIR}/.venv",
                 f"--editable {APP_DIR}[pi]",
                 f"would write: {pi.boot_dir}/config.txt",
                 f"would write: {pi.boot_dir}/cmdline.txt",
                 "would write: /etc/modules-load.d/race-companion.conf",
                 "would write: /etc/udev/rules.d/60-race-companion.rules",
                 "would write: /etc/systemd/system/companion.service",
                 f"would run: systemctl --root={pi.root} enable companion.service",
                 "Dry run: nothing was changed."):
        assert step in plan
    assert snapshot(pi.root) == before
    assert changing_calls(pi) == []


def test_install_sets_everything_up(installed):
    pi, done = installed
    assert done.returncode == 0, done.stderr
    assert "nothing was started: the companion starts at the next boot" in done.stdout

    config = (pi.boot / "config.txt").read_text()
    assert config == STOCK_CONFIG.rstrip("\n") + "\n\n" + FRAGMENT
    cmdline = (pi.boot / "cmdline.txt").read_text()
    assert cmdline == STOCK_CMDLINE.replace("console=serial0,115200 ", "")
    assert (pi.boot / "config.txt.before-race-companion").read_text() == STOCK_CONFIG
    assert (pi.boot / "cmdline.txt.before-race-companion").read_text() == STOCK_CMDLINE

    etc = pi.root / "etc"
    assert (etc / "modules-load.d/race-companion.conf").read_text() == "i2c-dev\n"
    assert (etc / "udev/rules.d/60-race-companion.rules").read_text() == \
        (REPO / "firmware/60-race-companion.rules").read_text()
    unit = (etc / "systemd/system/companion.service").read_text()
    assert f"ExecStart={APP_DIR}/.venv/bin/companion run --hardware pi" in unit
    wants = etc / "systemd/system/multi-user.target.wants/companion.service"
    assert os.readlink(wants) == "/etc/systemd/system/companion.service"

    groups = {line.split(":")[0]: line.split(":")[3].split(",")
              for line in (pi.state / "group").read_text().splitlines()}
    assert all("companion" in groups[g] for g in ("gpio", "i2c", "dialout"))
    installed = (pi.state / "installed").read_text().split()
    assert {"python3-lgpio", "i2c-tools", "python3-dev"} <= set(installed)
    pip = [call for call in calls(pi) if call[0] == "pip"]
    assert pip == [["pip", "install", "--disable-pip-version-check", "--quiet", "--editable",
                    f"{APP_DIR}[pi]"]]
    # the bytecode is compiled at install, where the service looks for it (first-start memory)
    assert [call for call in calls(pi) if call[0] == "python"] == [["python", "-m", "companion.bytecode"]]
    assert f"+ env PYTHONPYCACHEPREFIX={pi.root}/var/cache/race-companion/pycache " in done.stdout
    assert "Environment=PYTHONPYCACHEPREFIX=%C/race-companion/pycache" in unit   # the same folder


def test_second_run_changes_nothing(installed, tmp_path):
    first, done = installed
    assert done.returncode == 0, done.stderr
    pi = copy_of(first, tmp_path)
    before, made = snapshot(pi.root), len(changing_calls(pi))
    again = install(pi)
    assert again.returncode == 0, again.stderr
    assert "Nothing to do" in again.stdout
    assert "would" not in again.stdout and "wrote" not in again.stdout
    assert snapshot(pi.root) == before
    assert len(changing_calls(pi)) == made


def test_existing_user_only_gets_its_missing_groups(pi):
    (pi.state / "group").write_text("dialout:x:20:pi,companion\ngpio:x:993:pi\ni2c:x:994:\n")
    (pi.state / "passwd").write_text("companion:x:990:990::/var/lib/race-companion:/usr/sbin/nologin\n")
    done = install(pi)
    assert done.returncode == 0, done.stderr
    accounts = [call for call in changing_calls(pi) if call[0] in ("useradd", "usermod", "groupadd")]
    assert accounts == [["usermod", "--append", "--groups", "gpio", "companion"],
                        ["usermod", "--append", "--groups", "i2c", "companion"]]


def test_rerun_replaces_an_older_block_and_keeps_the_owners_lines(pi):
    old_block = "# >>> race-companion >>>\ndtparam=i2c_arm=on\n# <<< race-companion <<<\n"
    (pi.boot / "config.txt").write_text(STOCK_CONFIG + "\n" + old_block + "dtoverlay=owner-thing\n")
    assert install(pi).returncode == 0
    config = (pi.boot / "config.txt").read_text()
    assert config.count("# >>> race-companion >>>") == 1
    assert config.endswith(FRAGMENT)
    assert "dtoverlay=owner-thing\n" in config


def test_refuses_a_clone_the_service_cannot_read(pi):
    done = install(pi, env={"APP_DIR": "/home/pi/race-companion"})
    assert done.returncode == 1
    assert done.stderr.startswith("install.sh: the service cannot read /home/pi/race-companion")
    assert len(done.stderr.splitlines()) == 1
    assert changing_calls(pi) == []


def test_unknown_option_is_one_line(pi):
    done = install(pi, "--frobnicate")
    assert (done.returncode, done.stderr) == (1, "install.sh: unknown option '--frobnicate' (try --help)\n")


def test_state_made_before_is_opened_to_the_table_screen_once(pi):
    """A box installed before the table screen had a user of its own: the companion's files
    were its user's alone (UMask=0077). install.sh lets the companion's group read them
    (the table screen's service reads through it), never write them, and then leaves them."""
    state = pi.root / "var" / "lib" / "race-companion"
    (state / "games").mkdir(parents=True)
    for name in ("journal.sqlite3", "journal.sqlite3-wal", "games/formula-de.toml"):
        (state / name).write_text("x")
        (state / name).chmod(0o600)
    (state / "games").chmod(0o700)
    state.chmod(0o700)
    cache = pi.root / "var" / "cache" / "race-companion" / "pycache"
    cache.mkdir(parents=True)
    (cache / "app.pyc").write_text("x")
    (cache / "app.pyc").chmod(0o600)
    done = install(pi)
    assert done.returncode == 0, done.stderr
    assert f"+ chmod -R g+rX,g-w {state}" in done.stdout
    modes = {str(p.relative_to(pi.root)): oct(p.stat().st_mode & 0o777) for p in [state, *state.rglob("*")]}
    assert modes == {"var/lib/race-companion": "0o750", "var/lib/race-companion/games": "0o750",
                     "var/lib/race-companion/journal.sqlite3": "0o640",
                     "var/lib/race-companion/journal.sqlite3-wal": "0o640",
                     "var/lib/race-companion/games/formula-de.toml": "0o640"}
    assert oct((cache / "app.pyc").stat().st_mode & 0o777) == "0o640"
    again = install(pi)
    assert again.returncode == 0, again.stderr
    assert "chmod" not in again.stdout
    assert "ok: /var/lib/race-companion readable by the group companion" in again.stdout


def test_offline_enables_but_starts_reloads_and_triggers_nothing(pi):
    """An image being built: no systemd runs for the tree, so units are enabled (links),
    nothing is reloaded, started or triggered, and the card carries no identity of its own."""
    etc = pi.root / "etc"
    (etc / "ssh").mkdir(parents=True)
    (etc / "machine-id").write_text("0123456789abcdef0123456789abcdef\n")
    for key in ("ssh_host_ed25519_key", "ssh_host_ed25519_key.pub", "ssh_config"):
        (etc / "ssh" / key).write_text("x")
    units = pi.root / "lib/systemd/system"
    units.mkdir(parents=True)
    (units / "apt-daily.timer").write_text("[Timer]\nOnCalendar=daily\n[Install]\nWantedBy=timers.target\n")
    shims = Path(pi.env["PATH"].split(":")[0])
    for name in ("udevadm", "systemctl"):   # any call of these but `systemctl --root` is recorded
        (shims / name).write_text(f"#!/bin/sh\necho {name} \"$@\" >> {pi.state}/online.log\n"
                                  f"exec {shutil.which(name) or 'false'} \"$@\"\n")
        (shims / name).chmod(0o755)
    done = install(pi, "--offline")
    assert done.returncode == 0, done.stderr
    online = (pi.state / "online.log").read_text().splitlines() if (pi.state / "online.log").exists() else []
    assert online and all(line.startswith(f"systemctl --root={pi.root} ") for line in online), online
    assert not any(verb in line for line in online for verb in ("daemon-reload", "restart", " start", "reload"))
    assert os.readlink(etc / "systemd/system/apt-daily.timer") == "/dev/null"
    assert (etc / "machine-id").read_text() == ""
    assert sorted(p.name for p in (etc / "ssh").iterdir()) == ["ssh_config"]
    assert "ConditionFirmware=device-tree-compatible(brcm,bcm2712)" in \
        (etc / "systemd/system/hciuart.service.d/race-companion.conf").read_text()
    assert "SystemMaxUse=32M" in (etc / "systemd/journald.conf.d/race-companion.conf").read_text()
    config = (pi.boot / "config.txt").read_text()
    assert "disable_splash=1\nboot_delay=0\n" in config
    assert done.stdout.rstrip().endswith("the companion starts at the next boot.")
    again = install(pi, "--offline")
    assert "Nothing to do" in again.stdout, again.stdout
