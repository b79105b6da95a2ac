"""companion.devices.watchdog against a real unix datagram socket standing in for systemd's
notify socket."""

import os
import socket
import subprocess
import sys

import pytest

from companion.devices.watchdog import Watchdog


def watchdog(now: list[float] | None = None) -> Watchdog:
    """A Watchdog whose clock reads ``now[0]`` (seconds)."""
    now = now if now is not None else [100.0]
    return Watchdog(clock=lambda: now[0])


@pytest.fixture
def systemd(tmp_path, monkeypatch):
    """A bound datagram socket named by $NOTIFY_SOCKET, like the one systemd listens on."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")  # WatchdogSec=10
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))

    def received() -> list[str]:
        out = []
        while True:
            try:
                out.append(sock.recv(4096).decode())
            except BlockingIOError:
                return out

    yield received
    sock.close()


def test_ready_sends_ready_watchdog_and_status(systemd):
    dog = watchdog()
    dog.ready("Street Illegal, lap 2")
    assert systemd() == ["READY=1\nWATCHDOG=1\nSTATUS=Street Illegal, lap 2"]


def test_pings_are_paced_at_half_the_interval(systemd):
    now = [100.0]
    dog = watchdog(now)
    assert dog.interval == 5.0
    dog.ready()
    systemd()
    sent = []
    for step in range(200):  # a loop turning every 0.1 s for 20 s
        now[0] = 100.0 + step * 0.1
        sent.append(dog.ping())
    assert systemd() == ["WATCHDOG=1"] * 3  # at 5, 10 and 15 s after READY
    assert [round(i * 0.1, 1) for i, s in enumerate(sent) if s] == [5.0, 10.0, 15.0]


def test_first_ping_without_ready_is_sent_at_once(systemd):
    dog = watchdog()
    assert dog.ping() is True
    assert dog.ping() is False
    assert systemd() == ["WATCHDOG=1"]


def test_status_and_stopping(systemd):
    dog = watchdog()
    dog.status("printing\nresults")
    dog.stopping("bye")
    assert systemd() == ["STATUS=printing results", "STOPPING=1\nSTATUS=bye"]


@pytest.mark.parametrize("usec", ["", "0", "ten"])
def test_no_watchdog_wanted_means_no_pings(systemd, monkeypatch, usec):
    monkeypatch.setenv("WATCHDOG_USEC", usec)
    dog = watchdog()
    assert dog.interval is None
    dog.ready()
    assert dog.ping() is False
    assert systemd() == ["READY=1"]


def test_watchdog_meant_for_another_process_is_left_alone(systemd, monkeypatch):
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    dog = watchdog()
    assert dog.ping() is False
    assert systemd() == []


def test_outside_systemd_does_nothing_and_never_imports_sdnotify():
    code = ("import sys; from companion.devices.watchdog import Watchdog\n"
            "dog = Watchdog(); dog.ready('x'); dog.status('y')\n"
            "print(dog.enabled, dog.interval, dog.ping(), 'sdnotify' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out == "False None False False\n"


def test_a_vanished_socket_does_not_stop_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    now = [100.0]
    dog = watchdog(now)
    dog.ready()
    now[0] += 1.0
    assert dog.ping() is True  # sent into nothing, and nothing raised


def test_the_app_tells_systemd_what_it_is_doing(systemd, state_dir):
    """READY with a status line once the first frame is up, then a new line when it changes."""
    import random

    from companion.app import App
    from companion.core.journal import Journal
    from companion.devices.buttons import ScriptedButtons
    from companion.devices.emulated import HeadlessDisplay

    app = App(journal=Journal(state_dir), display=HeadlessDisplay(), rng=random.Random(1),
              watchdog=watchdog())
    app.run(ScriptedButtons.from_keys("DOWN UP OK OK GO"))   # Dice roller: any dice, a roll
    said = systemd()
    assert said[0] == "READY=1\nWATCHDOG=1\nSTATUS=main menu"
    assert said[1:] == ["STATUS=Dice roller running"]           # once, not at every press
