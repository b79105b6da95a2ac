"""systemd/companion-table.service and .socket: the table screen hardened to an exposure of
0.5 or lower, with no write access to the companion's state, no network of its own (the
socket unit listens and hands the socket over), valid as installed, and installed by
install.sh on the pinout's port, enabled unless switched off there."""

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.appliance.test_install import APP_DIR, install, pi  # noqa: F401 (the fixture)

REPO = Path(__file__).resolve().parents[2]
SERVICE = REPO / "systemd" / "companion-table.service"
SOCKET = REPO / "systemd" / "companion-table.socket"
COMPANION = REPO / "systemd" / "companion.service"
PINOUT = tomllib.loads((REPO / "hardware" / "pinout.toml").read_text())

needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="systemd-analyze is not installed (apt-get install systemd)")


def settings(unit: Path, key: str) -> list[str]:
    return [line.split("=", 1)[1] for line in unit.read_text().splitlines() if line.startswith(f"{key}=")]


@needs_analyze
def test_security_exposure_is_at_most_a_half():
    out = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", str(SERVICE)],
                         capture_output=True, text=True, check=True).stdout
    exposure = float(re.search(r"Overall exposure level for companion-table\.service: ([0-9.]+)", out)[1])
    assert exposure <= 0.5, out


@needs_analyze
def test_units_verify_cleanly_as_installed(tmp_path):
    app = tmp_path / "race-companion"
    (app / ".venv" / "bin").mkdir(parents=True)
    (app / ".venv" / "bin" / "companion").write_text("#!/bin/sh\n")
    (app / ".venv" / "bin" / "companion").chmod(0o755)
    for unit in (SERVICE, SOCKET):
        (tmp_path / unit.name).write_text(unit.read_text().replace("/opt/race-companion/", f"{app}/"))
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(tmp_path / SERVICE.name),
                           str(tmp_path / SOCKET.name)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "companion.service" not in done.stderr    # (a unit it only orders itself after)


def test_a_user_of_its_own_that_may_only_read_the_companions_state():
    """Not the companion's user: a dynamic one, in the companion's group, which the
    companion's files are readable by (tests/tablescreen/test_group_read.py follows a race
    with exactly these rights)."""
    assert not settings(SERVICE, "User") and not settings(SERVICE, "Group")
    assert settings(SERVICE, "DynamicUser") == ["yes"]
    assert settings(SERVICE, "SupplementaryGroups") == [settings(COMPANION, "Group")[0]] == ["companion"]
    assert settings(COMPANION, "StateDirectoryMode") == ["0750"]
    assert settings(COMPANION, "CacheDirectoryMode") == ["0750"]     # the bytecode it reads too
    assert settings(COMPANION, "UMask") == ["0027"]
    assert "/var/cache/race-companion" in settings(SERVICE, "ReadOnlyPaths")[0].split()
    pycache = "PYTHONPYCACHEPREFIX=/var/cache/race-companion/pycache"
    assert pycache in settings(SERVICE, "Environment")
    assert pycache.replace("/var/cache", "%C") in settings(COMPANION, "Environment")


def test_reads_the_state_and_writes_nothing():
    assert not settings(SERVICE, "StateDirectory") and not settings(SERVICE, "ReadWritePaths")
    assert "/var/lib/race-companion" in settings(SERVICE, "ReadOnlyPaths")[0].split()
    assert settings(SERVICE, "ProtectSystem") == ["strict"]
    assert "--if-enabled --state /var/lib/race-companion" in settings(SERVICE, "ExecStart")[0]
    assert settings(SERVICE, "PrivateNetwork") == ["yes"]
    assert settings(SERVICE, "Requires") == ["companion-table.socket"]


def test_the_socket_listens_on_the_pinouts_port_for_the_local_networks_only():
    assert settings(SOCKET, "ListenStream") == [str(PINOUT["table"]["port"])]
    assert settings(SOCKET, "IPAddressDeny") == ["any"]
    assert "192.168.0.0/16" in settings(SOCKET, "IPAddressAllow")[0]


def test_install_enables_the_table_screen_on_the_pinouts_port(pi):  # noqa: F811
    pinout = pi.root / "etc" / "race-companion" / "pinout.toml"
    pinout.parent.mkdir(parents=True)
    pinout.write_text((REPO / "hardware" / "pinout.toml").read_text().replace("port = 8080", "port = 8123"))
    done = install(pi)
    assert done.returncode == 0, done.stderr
    units = pi.root / "etc" / "systemd" / "system"
    assert f"ExecStart={APP_DIR}/.venv/bin/companion table --if-enabled" in (units / SERVICE.name).read_text()
    assert "ListenStream=8123" in (units / SOCKET.name).read_text()
    assert (units / "sockets.target.wants" / SOCKET.name).is_symlink()
    assert (units / "multi-user.target.wants" / SERVICE.name).is_symlink()

    pinout.write_text(pinout.read_text().replace("enabled = true", "enabled = false"))
    done = install(pi)
    assert done.returncode == 0, done.stderr
    assert not (units / "sockets.target.wants" / SOCKET.name).exists()
    assert not (units / "multi-user.target.wants" / SERVICE.name).exists()
