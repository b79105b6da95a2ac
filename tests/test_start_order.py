"""The order of ``companion run``'s start on the Pi backend: the first frame, then the
buttons' pins (gpiozero is not imported before the frame), then systemd is told the
companion is ready. A press the moment the pins are open is a press; a pin that cannot
be opened is still one line (StartupError); a button down at start is held, not pressed.
Real parts: the Pi board with gpiozero's mock pins and the luma driver on a fake bus."""

import json
import os
import queue
import subprocess
import sys
import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from companion.app import App
from companion.core.journal import Journal
from companion.devices.buttons import GpioButtons, ScriptedButtons
from companion.devices.emulated import HeadlessDisplay
from companion.devices.fake_i2c import FakeBus
from companion.devices.gestures import monotonic_ms
from companion.runtime import Runtime, StartupError
from tests.conftest import ROOT

PINOUT = str(ROOT / "hardware" / "pinout.toml")


class Glass:
    """The OLED, telling the test of each frame and whether the pins were open for it."""

    def __init__(self, inner, buttons):
        self.inner, self.buttons = inner, buttons
        self.frames: queue.Queue = queue.Queue()

    def show(self, image) -> None:
        self.inner.show(image)
        self.frames.put(self.buttons.opened)

    def __getattr__(self, name):
        return getattr(self.inner, name)


class Held(MockPin):
    """A button held down: the pull-up set when its pin opens cannot lift it."""

    def _set_pull(self, value):
        super()._set_pull(value)
        self.drive_low()


@pytest.fixture
def pi(state_dir, monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    factory = MockFactory()
    runtime = Runtime.open(hardware="pi", state=str(state_dir), pinout=PINOUT, pin_factory=factory, i2c_bus=FakeBus())
    yield runtime, factory
    runtime.close()
    factory.reset()


class Clock:
    """The buttons' milliseconds, moved by the test alone: a press lasts what the test says,
    however long a loaded machine keeps the test's thread from its next line (the loop's
    thread, ticking meanwhile, would otherwise see a held button repeat)."""

    def __init__(self):
        self.t = monotonic_ms()

    def __call__(self) -> int:
        return self.t

    def press(self, pin) -> None:
        self.t += 30                    # past the last edge's bounce
        pin.drive_low()
        self.t += 50
        pin.drive_high()


def watched(runtime):
    """``runtime``'s buttons on a Clock, its display behind a Glass, and an event set once
    the pins open."""
    buttons = runtime.board.buttons
    buttons.decoder.clock = clock = Clock()
    glass = runtime.app.display = Glass(runtime.app.display, buttons)
    opened = threading.Event()
    open_pins = buttons.open
    buttons.open = lambda: (open_pins(), opened.set())
    return buttons, glass, opened, clock


def run_in_thread(runtime):
    """``Runtime.run`` on a thread of its own; what it raised, once it is joined."""
    raised = []

    def target():
        try:
            runtime.run()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            raised.append(exc)
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, raised


def test_the_first_frame_comes_before_the_pins_open_and_a_press_right_after_counts(pi):
    runtime, factory = pi
    buttons, glass, opened, clock = watched(runtime)
    thread, raised = run_in_thread(runtime)
    try:
        assert glass.frames.get(timeout=30) is False        # the first frame: no pin open yet
        assert opened.wait(timeout=30)
        clock.press(factory.pin(runtime.board.pinout["buttons"]["DOWN"]))   # the moment they are open
        assert glass.frames.get(timeout=30) is True
        assert runtime.app.screen.selected == 1              # the home menu's highlight moved down
    finally:
        buttons.close()                                      # input ends: the loop returns
        thread.join(timeout=30)
    assert not thread.is_alive() and raised == []
    assert runtime.app.frames == 2


def test_pins_that_cannot_be_opened_after_the_first_frame_are_a_one_line_startup_error(pi):
    runtime, factory = pi
    taken = GpioButtons({"OK": runtime.board.pinout["buttons"]["OK"]}, pin_factory=factory)
    try:
        with pytest.raises(StartupError, match="already in use") as err:
            runtime.run()
        assert "\n" not in str(err.value)
        assert runtime.app.frames == 1                       # the menu was up meanwhile
    finally:
        taken.close()


def test_a_button_held_at_start_is_held_when_the_pins_open_not_pressed(state_dir, monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    factory = MockFactory()
    back = factory.pin(19, pin_class=Held)                   # held down through the start
    with Runtime.open(hardware="pi", state=str(state_dir), pinout=PINOUT, pin_factory=factory,
                      i2c_bus=FakeBus()) as runtime:
        buttons, glass, opened, clock = watched(runtime)
        thread, raised = run_in_thread(runtime)
        try:
            assert glass.frames.get(timeout=30) is False
            assert opened.wait(timeout=30)
            assert buttons.held_at_start == ["BACK"]
            clock.t += 30
            back.drive_high()                                # let go: neither a press nor a long one (undo)
            clock.press(factory.pin(5))                      # UP
            assert glass.frames.get(timeout=30) is True
            items = runtime.app.screen.items(runtime.app)
            assert runtime.app.screen.selected == len(items) - 1   # UP from the top: the last item
        finally:
            buttons.close()
            thread.join(timeout=30)
        assert not thread.is_alive() and raised == []
        assert runtime.app.frames == 2                      # the first frame and UP's: nothing for BACK
    factory.reset()


START = r"""
import json, os, sys
from companion.devices.fake_i2c import FakeBus
from companion.runtime import Runtime
os.environ["COMPANION_EXIT_AFTER_FIRST_FRAME"] = "1"
os.environ["GPIOZERO_PIN_FACTORY"] = "mock"
with Runtime.open(hardware="pi", state=sys.argv[1], pinout=sys.argv[2], i2c_bus=FakeBus()) as runtime:
    runtime.app.run(runtime.board.buttons)
    before = sorted({m.split(".")[0] for m in sys.modules} & {"gpiozero", "lgpio", "colorzero"})
    runtime.board.buttons.open()
    factory = type(next(iter(runtime.board.buttons.buttons.values())).pin_factory).__name__
print(json.dumps({"frames": runtime.app.frames, "before": before, "factory": factory}))
"""


def test_the_pi_start_imports_no_gpio_library_before_its_first_frame(state_dir):
    done = subprocess.run([sys.executable, "-c", START, str(state_dir), PINOUT], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"frames": 1, "before": [], "factory": "MockFactory"}


def test_systemd_hears_ready_once_the_pins_are_open(state_dir):
    said = []

    class Pins(ScriptedButtons):
        def open(self):
            said.append(("open", app.frames))

    class Systemd:
        enabled = True

        def ready(self, status=None):
            said.append(("ready", status))

        def ping(self):
            pass

        def status(self, text):
            said.append(("status", text))

    journal = Journal(state_dir)
    try:
        app = App(journal=journal, display=HeadlessDisplay(None), watchdog=Systemd())
        app.run(Pins([]))
    finally:
        journal.close()
    assert said == [("open", 1), ("ready", "main menu")]   # after the first frame, before READY
