"""Hardware checks for ``companion selftest``: each returns ``(ok, one line with the fix)``
and never raises."""

from __future__ import annotations

from PIL import Image, ImageDraw

from companion.core.config import ConfigError
from companion.devices import DeviceError
from companion.devices.display import SIZE
from companion.devices.gestures import BUTTONS, Timing


def test_pattern() -> Image.Image:
    """A frame that shows every edge of the panel: a border, a cross and a caption."""
    image = Image.new("1", SIZE, 0)
    draw = ImageDraw.Draw(image)
    w, h = SIZE
    draw.rectangle((0, 0, w - 1, h - 1), outline=1)
    draw.line((0, 0, w - 1, h - 1), fill=1)
    draw.line((0, h - 1, w - 1, 0), fill=1)
    draw.rectangle((30, 24, 97, 39), fill=0)
    draw.text((34, 27), "SELF TEST", fill=1)
    return image


def check_display(display_config: dict, *, bus=None) -> tuple[bool, str]:
    """Open the OLED of the ``[display]`` table and show the test pattern."""
    where = (f"{display_config.get('driver', '?')} display at 0x{display_config.get('address', 0):02X} "
             f"on I2C bus {display_config.get('i2c_port', '?')}")
    try:
        from companion.devices.oled import OledDisplay
        display = OledDisplay(display_config, bus=bus)
        try:
            display.show(test_pattern())
        finally:
            display.close(blank=False)  # the pattern stays up for a person to look at
    except (DeviceError, ConfigError) as exc:
        return False, str(exc)
    except Exception as exc:  # anything else is still one line, never a traceback
        return False, f"{where}: {type(exc).__name__}: {exc}"
    return True, f"{where}: OK (it shows a border, a cross and SELF TEST; if not, check the driver in hardware/pinout.toml)"


def check_buttons(buttons_config: dict, *, pin_factory=None) -> tuple[bool, str]:
    """Open the five button pins; a button that reads pressed now is held or shorted."""
    pins = {name: buttons_config[name] for name in BUTTONS if name in buttons_config}
    try:
        from companion.devices.buttons import GpioButtons
        source = GpioButtons(pins, Timing.from_table(buttons_config), pin_factory=pin_factory)
    except (DeviceError, ConfigError, ValueError) as exc:
        return False, str(exc)
    except Exception as exc:
        return False, f"buttons: {type(exc).__name__}: {exc}"
    try:
        held = source.held_at_start
    finally:
        source.close()
    wiring = ", ".join(f"{name}=GPIO{pin}" for name, pin in pins.items())
    if held:
        names = ", ".join(f"{name} (GPIO{pins[name]})" for name in held)
        return False, (f"button {names} reads pressed: release it, or check that the wire "
                       f"is not shorted to ground")
    return True, f"buttons {wiring}: OK, none pressed"
