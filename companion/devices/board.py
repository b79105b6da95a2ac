"""The board: display, buttons and printer, built from hardware/pinout.toml for one backend.

``hardware``:

* ``pi``       — OLED over I2C (luma.oled), buttons on GPIO (gpiozero), the serial printer.
* ``desktop``  — a luma.emulator window; its keyboard is the buttons.
* ``terminal`` — the screen drawn in the terminal; the terminal's keys are the buttons.
* ``headless`` — frames saved as PNG files; input only from ``keys``.
* ``auto``     — ``pi`` on a Raspberry Pi, else ``desktop`` with a graphical display and
  the desktop extra installed, else ``terminal`` when stdin is a terminal, else ``headless``.

``keys`` (the ``--keys`` text) replaces the buttons with that script on any backend.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from companion.core.config import ConfigError, load_toml
from companion.devices.gestures import BUTTONS, Timing

HARDWARE = ("auto", "pi", "desktop", "terminal", "headless")
DEFAULT_PINOUT = Path(__file__).resolve().parents[2] / "hardware" / "pinout.toml"

# Every key of [buttons] and [display] and its default: what a missing key means.
DEFAULTS: dict[str, dict[str, Any]] = {
    "buttons": {
        "UP": 5, "DOWN": 6, "OK": 13, "BACK": 19, "GO": 26,
        "bounce_ms": 20, "long_press_ms": 700, "repeat_delay_ms": 400, "repeat_interval_ms": 120,
        "stuck_ms": 30_000,
    },
    "display": {
        "driver": "ssd1306", "i2c_port": 1, "address": 0x3C, "width": 128, "height": 64,
        "rotate": 0, "contrast": 255,
    },
    # checked in full when the printer is opened (companion.devices.printer.printer_settings)
    "printer": {
        "port": "/dev/serial0", "baudrate": 9600, "model": "generic-58mm", "dots_per_line": 384,
        "chars_per_line": 32, "heat_dots": 7, "heat_time": 80, "heat_interval": 2, "line_ms": 12,
        "buffer_bytes": 256, "flow_control": "none", "status_timeout_ms": 500, "retry_s": 3,
        "status": "auto",
    },
    # the table screen (companion/table): on or off, and the port it serves on
    "table": {"enabled": True, "port": 8080},
    # the backup after each finished race (companion/autobackup.py): "" is off
    "backup": {"dir": "", "keep": 5},
    # the Pi's under-voltage flag (companion/devices/power.py): "" is not read
    "power": {"throttled": "/sys/devices/platform/soc/soc:firmware/get_throttled"},
    # the piezo buzzer of the sound cues (companion/devices/buzzer.py): off unless fitted
    "buzzer": {"pin": 12, "active": False},
}
# (low, high) for the integer settings
_RANGES = {
    "bounce_ms": (0, 200), "long_press_ms": (200, 5000), "repeat_delay_ms": (100, 5000),
    "repeat_interval_ms": (20, 2000), "stuck_ms": (5000, 600_000),
    "i2c_port": (0, 22), "address": (0x03, 0x77), "contrast": (0, 255),
}
_RESERVED_PINS = {2: "I2C SDA (display)", 3: "I2C SCL (display)", 14: "UART TX (printer)", 15: "UART RX (printer)"}


PINOUT_CACHE = "pinout-cache.json"
"""In the state directory: the pinout as the last start read it (``load_toml``'s cache)."""


def load_pinout(path: str | Path | None = None, *, state_dir: str | Path | None = None) -> dict[str, Any]:
    """The checked pinout: ``[buttons]`` and ``[display]`` complete (defaults filled in),
    other tables as written (``[printer]`` always present, checked by the printer). ``path=None``: the defaults alone.
    ``state_dir``: keep the file's contents in ``PINOUT_CACHE`` there, for the next start.
    Every mistake is a ConfigError naming the file, the key and the fix."""
    cache = Path(state_dir) / PINOUT_CACHE if state_dir is not None else None
    raw = load_toml(path, cache=cache) if path is not None else {}
    where = path if path is not None else "<defaults>"
    for name, value in raw.items():
        if not isinstance(value, dict):
            raise ConfigError(where, name, "is not in a table",
                              "put it under [buttons], [display], [printer], [table], [backup], [power] or [buzzer]")
        if name not in DEFAULTS:
            raise ConfigError(where, name, "unknown table",
                              "the tables are [buttons], [display], [printer], [table], [backup], [power] and [buzzer]")
    pinout = {name: dict(value) for name, value in raw.items()}
    pinout.setdefault("printer", {})
    for table, defaults in DEFAULTS.items():
        given = pinout.get(table, {})
        for key in given:
            if key not in defaults:
                raise ConfigError(where, f"{table}.{key}", "unknown setting",
                                  f"valid keys: {', '.join(defaults)}")
        pinout[table] = {**defaults, **given}
    _check_buttons(pinout["buttons"], where)
    _check_display(pinout["display"], where)
    _check_printer_model(pinout["printer"], where)
    _check_table(pinout["table"], where)
    _check_backup(pinout["backup"], where)
    _check_buzzer(pinout["buzzer"], pinout["buttons"], where)
    return pinout


def _check_buzzer(buzzer: dict, buttons: dict, where) -> None:
    if not isinstance(buzzer["active"], bool):
        raise ConfigError(where, "buzzer.active", f"must be true or false, not {buzzer['active']!r}",
                          "true when a buzzer is wired to the pin, false without one")
    pin = buzzer["pin"]
    if isinstance(pin, bool) or not isinstance(pin, int):
        raise ConfigError(where, "buzzer.pin", f"must be a whole number, not {pin!r}", "for example `pin = 12`")
    if not 0 <= pin <= 27:
        raise ConfigError(where, "buzzer.pin", f"GPIO{pin} does not exist",
                          "use the BCM GPIO number (0-27), not the header pin number")
    if pin in _RESERVED_PINS:
        raise ConfigError(where, "buzzer.pin", f"GPIO{pin} is the {_RESERVED_PINS[pin]}",
                          "wire the buzzer to a free GPIO (e.g. 12)")
    taken = next((name for name in BUTTONS if buttons[name] == pin), None)
    if taken:
        raise ConfigError(where, "buzzer.pin", f"GPIO{pin} is also the {taken} button",
                          "give the buzzer its own GPIO (e.g. 12)")


def _check_backup(backup: dict, where) -> None:
    if not isinstance(backup["dir"], str):
        raise ConfigError(where, "backup.dir", f"must be a directory's path in quotes, not {backup['dir']!r}",
                          'for example `dir = "/media/usb/race-companion"`; "" turns the backup off')
    keep = backup["keep"]
    if isinstance(keep, bool) or not isinstance(keep, int) or not 1 <= keep <= 1000:
        raise ConfigError(where, "backup.keep", f"must be a whole number from 1 to 1000, not {keep!r}",
                          "the default is 5")


def _check_table(table: dict, where) -> None:
    if not isinstance(table["enabled"], bool):
        raise ConfigError(where, "table.enabled", f"must be true or false, not {table['enabled']!r}")
    port = table["port"]
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ConfigError(where, "table.port", f"must be a port number from 1 to 65535, not {port!r}")


def _check_printer_model(printer: dict, where) -> None:
    """The model and status keys now (the rest is checked when the printer opens)."""
    from companion.receipts.printers import of_config
    try:
        of_config(printer)
    except ConfigError as exc:
        raise ConfigError(where, exc.key, exc.problem, exc.fix) from None


def _int(table: dict, key: str, prefix: str, where) -> int:
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(where, f"{prefix}.{key}", f"must be a whole number, not {value!r}",
                          f"for example `{key} = {DEFAULTS[prefix][key]}`")
    if key in _RANGES:
        low, high = _RANGES[key]
        show = (lambda n: f"0x{n:02X}") if key == "address" else str
        if not low <= value <= high:
            raise ConfigError(where, f"{prefix}.{key}", f"{show(value)} is out of range",
                              f"use {show(low)} to {show(high)}; the default is {show(DEFAULTS[prefix][key])}")
    return value


def _check_buttons(buttons: dict, where) -> None:
    seen: dict[int, str] = {}
    for name in BUTTONS:
        pin = _int(buttons, name, "buttons", where)
        if not 0 <= pin <= 27:
            raise ConfigError(where, f"buttons.{name}", f"GPIO{pin} does not exist",
                              "use the BCM GPIO number (0-27), not the header pin number")
        if pin in _RESERVED_PINS:
            raise ConfigError(where, f"buttons.{name}", f"GPIO{pin} is the {_RESERVED_PINS[pin]}",
                              "wire the button to a free GPIO (e.g. 5, 6, 13, 19, 26)")
        if pin in seen:
            raise ConfigError(where, f"buttons.{name}", f"GPIO{pin} is also {seen[pin]}",
                              "give each button its own GPIO")
        seen[pin] = name
    timing = {key: _int(buttons, key, "buttons", where) for key in Timing.__dataclass_fields__}
    if timing["long_press_ms"] <= timing["bounce_ms"]:
        raise ConfigError(where, "buttons.long_press_ms", "must be longer than bounce_ms",
                          f"the default is {DEFAULTS['buttons']['long_press_ms']}")
    if timing["stuck_ms"] <= max(timing["long_press_ms"], timing["repeat_delay_ms"]):
        raise ConfigError(where, "buttons.stuck_ms", "must be longer than long_press_ms and repeat_delay_ms",
                          f"the default is {DEFAULTS['buttons']['stuck_ms']}")


def _check_display(display: dict, where) -> None:
    driver = display["driver"]
    if driver not in ("ssd1306", "sh1106"):
        raise ConfigError(where, "display.driver", f"unknown driver {driver!r}",
                          'use "ssd1306" or "sh1106" (1.3-inch modules are usually sh1106)')
    for key in ("i2c_port", "address", "contrast"):
        _int(display, key, "display", where)
    for key, size in (("width", 128), ("height", 64)):
        if _int(display, key, "display", where) != size:
            raise ConfigError(where, f"display.{key}", f"must be {size}",
                              "the screens are drawn for a 128x64 display")
    if _int(display, "rotate", "display", where) not in (0, 2):
        raise ConfigError(where, "display.rotate", f"{display['rotate']} would turn the screen on its side",
                          "use 0, or 2 for a display mounted upside down")


# -- choosing the backend ---------------------------------------------------------------

def is_raspberry_pi(model_path: str | Path = "/proc/device-tree/model") -> bool:
    try:
        return Path(model_path).read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False


def desktop_available(env=os.environ) -> bool:
    from companion.devices.emulated import graphical_display_available
    try:
        installed = all(importlib.util.find_spec(name) for name in ("pygame", "luma.emulator"))
    except (ImportError, ValueError):
        installed = False
    return installed and graphical_display_available(env)


def detect_hardware(model_path: str | Path = "/proc/device-tree/model", env=os.environ, stdin=None) -> str:
    """What ``auto`` means here (see the module docstring)."""
    if is_raspberry_pi(model_path):
        return "pi"
    if desktop_available(env):
        return "desktop"
    stdin = sys.stdin if stdin is None else stdin
    try:
        if stdin is not None and stdin.isatty():
            return "terminal"
    except (ValueError, OSError):
        pass
    return "headless"


# -- the board --------------------------------------------------------------------------

@dataclass
class Board:
    """What the app drives. ``buttons.get(timeout)`` gives gestures; ``display.show(image)``;
    ``open_printer()`` builds the printer when it is first needed."""
    hardware: str
    pinout: dict
    display: Any
    buttons: Any
    printer_factory: Callable[[], Any]
    sound_factory: Callable[[], list] = field(default=list, repr=False)
    _closed: bool = field(default=False, repr=False)

    def open_printer(self):
        return self.printer_factory()

    def open_sound(self) -> list:
        """The cues' outputs (the buzzer, the sound card; none at all is fine), opened by
        the cues' worker when the first cue plays."""
        return self.sound_factory()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self.buttons.close()
        finally:
            self.display.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


PRINTER_BACKENDS = {"pi": "serial", "desktop": "png", "terminal": "png", "headless": "png"}


def printer_factory(pinout: dict, backend: str, spool_dir: Path) -> Callable[[], Any]:
    """THE place where the board asks for its printer (built in companion/devices/printer.py,
    imported only when the printer is first opened)."""
    def open_board_printer():
        from companion.devices.printer import open_printer
        return open_printer(pinout["printer"], backend, spool_dir)
    return open_board_printer


def build_board(hardware: str = "auto", pinout_path: str | Path | None = DEFAULT_PINOUT, *,
                out_dir: str | Path | None = None, state_dir: str | Path | None = None,
                keys: str | None = None, printer: str | None = None, pin_factory=None, i2c_bus=None,
                note: str = "") -> Board:
    """The board for ``hardware`` (see the module docstring).

    ``pinout_path``: None = built-in defaults. ``out_dir``: where headless frames go
    (None = kept in memory). ``state_dir``: the app's state folder; the printer spools
    in ``<state_dir>/spool``. ``keys``: a --keys script (see ``buttons.parse_keys``);
    a bad one is a ValueError. ``printer``: the printer backend (see printer.py); by
    default "serial" on a Pi, "png" elsewhere (PRINTER_BACKENDS). ``pin_factory`` and
    ``i2c_bus``: a gpiozero pin factory and an smbus-like bus (tests, the demo). ``note``:
    a line the terminal display keeps in sight (the table screen's address).
    Raises ConfigError or DeviceError with a one-line message. The ``pi`` buttons' pins
    are not opened here: ``buttons.open()`` opens them (``App.run``, after its first
    frame), and can raise the DeviceError then.
    """
    if hardware not in HARDWARE:
        raise ValueError(f"unknown hardware {hardware!r}: use one of {', '.join(HARDWARE)}")
    if pinout_path is not None and not Path(pinout_path).exists() and Path(pinout_path) == DEFAULT_PINOUT:
        pinout_path = None  # an installed package without the repo's hardware/ folder
    pinout = load_pinout(pinout_path, state_dir=state_dir)
    from companion.devices.buttons import ScriptedButtons, parse_keys
    script = ScriptedButtons(parse_keys(keys)) if keys is not None else None
    if hardware == "auto":
        hardware = detect_hardware()
    timing = Timing.from_table(pinout["buttons"])
    spool_dir = Path(state_dir if state_dir is not None else ".") / "spool"
    display = _build_display(hardware, pinout, out_dir, i2c_bus, note)
    try:
        buttons = script if script is not None else _build_buttons(hardware, pinout, timing, pin_factory)
    except BaseException:
        display.close()
        raise
    backend = printer or PRINTER_BACKENDS[hardware]
    return Board(hardware, pinout, display, buttons, printer_factory(pinout, backend, spool_dir),
                 sound_factory(pinout, hardware, pin_factory))


def sound_factory(pinout: dict, hardware: str, pin_factory=None) -> Callable[[], list]:
    """THE place where the board finds its sound: on a Pi the buzzer when ``[buzzer] active``,
    in the desktop window the sound card when there is one; nothing in a terminal or headless.
    An output that cannot be opened is left out (said in the log): the box works without."""
    def open_sound() -> list:
        import logging
        from companion.devices import DeviceError
        if hardware == "pi" and pinout["buzzer"]["active"]:
            from companion.devices.buttons import lgpio_factory
            from companion.devices.buzzer import Buzzer
            try:
                return [Buzzer(pinout["buzzer"]["pin"], pin_factory=pin_factory or lgpio_factory())]
            except DeviceError as exc:
                logging.getLogger(__name__).warning("%s: cues are not played", exc)
        if hardware == "desktop":
            from companion.devices.soundcard import SoundCard, player_command
            command = player_command()
            if command:
                return [SoundCard(command)]
        return []
    return open_sound


def _build_display(hardware: str, pinout: dict, out_dir, i2c_bus, note: str = ""):
    if hardware == "pi":
        from companion.devices.oled import OledDisplay
        return OledDisplay(pinout["display"], bus=i2c_bus)
    from companion.devices import emulated
    if hardware == "desktop":
        return emulated.DesktopDisplay()
    if hardware == "terminal":
        from companion.devices.buttons import TERMINAL_HELP
        return emulated.TerminalDisplay(help_line=TERMINAL_HELP, note=note)
    return emulated.HeadlessDisplay(out_dir)


def _build_buttons(hardware: str, pinout: dict, timing: Timing, pin_factory):
    from companion.devices import buttons
    if hardware == "pi":
        pins = {name: pinout["buttons"][name] for name in BUTTONS}
        # opened by the app right after its first frame (GpioButtons.open)
        return buttons.GpioButtons(pins, timing, pin_factory=pin_factory, opened=False)
    if hardware == "desktop":
        return buttons.PygameKeys(timing)
    if hardware == "terminal":
        return buttons.TerminalKeys()
    return buttons.ScriptedButtons([])

