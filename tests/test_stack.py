"""The whole input-to-glass path: gpiozero Buttons on mock pins -> the gesture decoder ->
the app -> the renderer -> the luma ssd1306 driver on a recording I2C bus. What reached
the bus is replayed into a model of the controller's RAM and compared with reference
PNGs (regenerate with ``COMPANION_REGENERATE=1 make test ARGS=tests/test_stack.py``)."""

import os
import random
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image, ImageChops

from companion.app import App
from companion.core.journal import Journal
from companion.demo import Driver, FakeClock
from companion.devices.board import load_pinout
from companion.devices.buttons import GpioButtons
from companion.devices.oled import OledDisplay
from companion.devices.fake_i2c import FakeBus, Ssd1306Ram
from companion.devices.gestures import BUTTONS, Timing
from companion.paths import pinout_path

REFERENCE = Path(__file__).parent / "reference"


@pytest.fixture
def stack(state_dir):
    pinout = load_pinout(pinout_path())
    clock = FakeClock()
    buttons = GpioButtons({b: pinout["buttons"][b] for b in BUTTONS}, Timing.from_table(pinout["buttons"]),
                          pin_factory=MockFactory(), clock=clock)
    bus = FakeBus(pinout["display"]["address"])
    display = OledDisplay(pinout["display"], bus=bus)
    journal = Journal(state_dir)
    app = App(journal=journal, display=display, rng=random.Random(7))
    app.boot()
    app.refresh()
    yield Driver(app, buttons, clock), bus
    buttons.close()
    display.close()
    journal.close()


def glass(bus) -> Image.Image:
    """What the panel shows: every byte that reached the bus, replayed into the RAM model."""
    ram = Ssd1306Ram()
    ram.replay(bus.writes)
    return ram.image()


def check_reference(image: Image.Image, name: str) -> None:
    path = REFERENCE / f"{name}.png"
    if os.environ.get("COMPANION_REGENERATE"):
        REFERENCE.mkdir(exist_ok=True)
        image.save(path)
    with Image.open(path) as ref:
        diff = ImageChops.difference(image.convert("L"), ref.convert("L"))
        assert diff.getbbox() is None, f"{name}: the panel differs from {path} in {diff.getbbox()}"


def test_home_menu_reaches_the_panel(stack):
    driver, bus = stack
    check_reference(glass(bus), "stack-home")


def test_pressing_buttons_rolls_3wide_tire_dice(stack):
    driver, bus = stack
    driver.press("OK")                      # Dice roller
    driver.press("DOWN")
    driver.press("DOWN")                    # Dice of: 3-Wide
    driver.press("OK")
    driver.press("GO")                      # roll the four tire dice
    check_reference(glass(bus), "stack-3wide-roll")
    (entry,) = driver.app.runner.history()
    assert entry.label.startswith("Tire dice")


def test_a_new_roll_result_sends_at_most_a_quarter_frame(stack):
    driver, bus = stack
    for name in ("OK", "DOWN", "DOWN", "DOWN", "OK", "GO"):
        driver.press(name)                  # Formula Dé: roll a gear die
    sizes = []
    for _ in range(10):
        before = bus.data_bytes()
        driver.press("GO")
        sizes.append(bus.data_bytes() - before)
    # only the changed pages and columns go over the bus: at most 256 of 1,024 bytes
    assert driver.app.runner.state.game == "formula-de"
    assert max(sizes) <= 256, sizes


def test_long_press_back_undoes_on_the_panel(stack):
    driver, bus = stack
    for name in ("OK", "DOWN", "DOWN", "OK", "GO", "GO"):
        driver.press(name)
    driver.long_press("BACK")
    check_reference(glass(bus), "stack-undone")
    entries = driver.app.runner.history()
    assert [e.undone for e in entries] == [False, True, False]


def test_bounce_on_a_pin_is_one_press(stack):
    driver, bus = stack
    pin = driver.buttons.buttons["DOWN"].pin
    for _ in range(3):                      # a bouncy contact: three quick closures
        pin.drive_low()
        driver.clock.advance(2)
        pin.drive_high()
        driver.clock.advance(2)
    pin.drive_low()
    driver._settle(60)
    pin.drive_high()
    driver._settle(200)
    assert driver.app.screen.selected == 1  # moved down exactly once
