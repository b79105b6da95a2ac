"""GpioButtons on gpiozero's mock pins: pin edges -> gestures through the one decoder."""

import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from companion.devices import DeviceError
from companion.devices.buttons import GpioButtons, InputEnded
from companion.devices.gestures import Gesture, Timing

PINS = {"UP": 5, "DOWN": 6, "OK": 13, "BACK": 19, "GO": 26}
TIMING = Timing(bounce_ms=20, long_press_ms=700, repeat_delay_ms=400, repeat_interval_ms=120, stuck_ms=30_000)


class Clock:
    def __init__(self):
        self.t = 0

    def __call__(self):
        return self.t


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def rig(factory):
    clock = Clock()
    buttons = GpioButtons(PINS, TIMING, pin_factory=factory, clock=clock)
    yield buttons, clock, {name: factory.pin(pin) for name, pin in PINS.items()}
    buttons.close()


def at(clock, t, action):
    clock.t = t
    action()


def pump_until(buttons, clock, stop, step=10):
    """Run the loop every ``step`` ms up to ``stop``: [(t, gesture)]."""
    seen = []
    for t in range(clock.t + step, stop, step):
        clock.t = t
        seen += [(t, g) for g in buttons.pump()]
    return seen


def test_pins_are_inputs_with_pull_up(rig):
    buttons, _, pins = rig
    for name, pin in pins.items():
        assert pin.function == "input"
        assert pin.pull == "up"
        assert pin.bounce is None            # the decoder debounces, not gpiozero
    assert buttons.held_at_start == []


def test_short_press_through_the_pins(rig):
    buttons, clock, pins = rig
    at(clock, 1000, pins["OK"].drive_low)
    clock.t = 1050
    assert buttons.pump() == []
    at(clock, 1100, pins["OK"].drive_high)
    assert buttons.pump() == [Gesture("OK", "press")]


def test_bouncy_contact_gives_one_press(rig):
    buttons, clock, pins = rig
    for t, level in [(0, 0), (2, 1), (4, 0), (7, 1), (9, 0), (150, 1), (152, 0), (155, 1)]:
        at(clock, t, pins["GO"].drive_low if level == 0 else pins["GO"].drive_high)
    clock.t = 200
    assert buttons.pump() == [Gesture("GO", "press")]


def test_long_press_fires_while_held(rig):
    buttons, clock, pins = rig
    at(clock, 0, pins["BACK"].drive_low)
    seen = pump_until(buttons, clock, 1000)
    at(clock, 1000, pins["BACK"].drive_high)
    clock.t = 1100
    seen += buttons.pump()
    assert seen == [(700, Gesture("BACK", "long"))]


def test_held_down_repeats(rig):
    buttons, clock, pins = rig
    at(clock, 0, pins["DOWN"].drive_low)
    assert pump_until(buttons, clock, 700) == [(t, Gesture("DOWN", "repeat")) for t in (400, 520, 640)]
    at(clock, 700, pins["DOWN"].drive_high)
    assert buttons.pump() == []


def test_edges_are_stamped_when_they_happen_not_when_pumped(rig):
    buttons, clock, pins = rig
    at(clock, 0, pins["OK"].drive_low)
    at(clock, 100, pins["OK"].drive_high)
    clock.t = 5000              # the loop was busy: the hold was still 100 ms
    assert buttons.pump() == [Gesture("OK", "press")]


class ShortedPin(MockPin):
    """A pin wired to ground (button held or shorted): the pull-up cannot lift it."""

    def _set_pull(self, value):
        super()._set_pull(value)
        self.drive_low()


def test_button_held_at_start_is_reported_stuck_not_pressed(factory):
    factory.pin(19, pin_class=ShortedPin)
    clock = Clock()
    buttons = GpioButtons(PINS, TIMING, pin_factory=factory, clock=clock)
    try:
        assert buttons.held_at_start == ["BACK"]
        clock.t = 1000
        assert buttons.pump() == []                    # no long press (no undo) at boot
        clock.t = 30_000
        assert buttons.pump() == [Gesture("BACK", "stuck")]
        at(clock, 31_000, factory.pin(19).drive_high)
        assert buttons.pump() == []
    finally:
        buttons.close()


def test_get_returns_gestures_and_none_on_timeout(rig):
    buttons, clock, pins = rig
    assert buttons.get(timeout=0) is None
    at(clock, 0, pins["UP"].drive_low)
    at(clock, 50, pins["UP"].drive_high)
    clock.t = 100
    assert buttons.get(timeout=0.5) == Gesture("UP", "press")


def test_get_wakes_on_an_edge_from_another_thread(rig):
    buttons, clock, pins = rig

    def press():
        clock.t = 10
        pins["GO"].drive_low()
        clock.t = 60
        pins["GO"].drive_high()

    timer = threading.Timer(0.05, press)
    timer.start()
    try:
        assert buttons.get(timeout=5) == Gesture("GO", "press")
    finally:
        timer.join()


def test_close_is_idempotent_frees_the_pins_and_ends_input(factory):
    buttons = GpioButtons(PINS, TIMING, pin_factory=factory)
    buttons.close()
    buttons.close()
    with pytest.raises(InputEnded):
        buttons.get(timeout=0)
    again = GpioButtons(PINS, TIMING, pin_factory=factory)   # the pins were released
    again.close()


def test_pin_in_use_is_a_clear_device_error(factory):
    first = GpioButtons({"OK": 13}, TIMING, pin_factory=factory)
    try:
        with pytest.raises(DeviceError, match="already in use") as err:
            GpioButtons({"GO": 13}, TIMING, pin_factory=factory)
        assert "\n" not in str(err.value)
    finally:
        first.close()


def test_unknown_button_name_is_refused(factory):
    with pytest.raises(ValueError, match="unknown button 'LEFT'"):
        GpioButtons({"LEFT": 5}, TIMING, pin_factory=factory)


def test_pins_opened_later_open_once_and_a_button_down_then_is_held_not_pressed(factory):
    """``companion run`` opens the pins right after its first frame (``opened=False``)."""
    factory.pin(19, pin_class=ShortedPin)
    clock = Clock()
    buttons = GpioButtons(PINS, TIMING, pin_factory=factory, clock=clock, opened=False)
    try:
        assert not buttons.opened and buttons.buttons == {} and buttons.held_at_start == []
        clock.t = 5_000                                # the first frame took its time
        buttons.open()
        buttons.open()                                 # once
        assert buttons.opened and sorted(buttons.buttons) == sorted(PINS)
        assert buttons.held_at_start == ["BACK"]
        clock.t = 6_000
        assert buttons.pump() == []                    # no long press (no undo) at boot
        clock.t = 35_000                               # stuck_ms after the pins opened
        assert buttons.pump() == [Gesture("BACK", "stuck")]
    finally:
        buttons.close()


def test_a_press_right_after_the_pins_open_is_a_press(factory):
    clock = Clock()             # the press lasts 50 ms, however long the machine stalls
    buttons = GpioButtons(PINS, TIMING, pin_factory=factory, clock=clock, opened=False)
    try:
        buttons.open()
        at(clock, 0, factory.pin(PINS["DOWN"]).drive_low)
        at(clock, 50, factory.pin(PINS["DOWN"]).drive_high)
        clock.t = 100
        assert buttons.get(timeout=2) == Gesture("DOWN", "press")
    finally:
        buttons.close()


def test_get_opens_pins_nobody_opened_and_close_before_open_opens_nothing(factory):
    buttons = GpioButtons(PINS, TIMING, pin_factory=factory, opened=False)
    assert buttons.get(timeout=0) is None and buttons.opened
    buttons.close()
    never = GpioButtons(PINS, TIMING, pin_factory=factory, opened=False)
    never.close()
    never.open()
    assert never.buttons == {}
    with pytest.raises(InputEnded):
        never.get(timeout=0)


def test_pins_that_cannot_open_later_are_a_clear_device_error(factory):
    first = GpioButtons({"OK": 13}, TIMING, pin_factory=factory)
    try:
        late = GpioButtons({"GO": 13}, TIMING, pin_factory=factory, opened=False)   # nothing checked yet
        with pytest.raises(DeviceError, match="already in use"):
            late.open()
        with pytest.raises(InputEnded):
            late.get(timeout=0)
    finally:
        first.close()
