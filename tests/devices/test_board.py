"""The pinout file and the board built from it."""

import io
import subprocess
import sys
import textwrap

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image

from companion.core.config import ConfigError, load_toml
from companion.devices import DeviceError
from companion.devices.board import (DEFAULT_PINOUT, DEFAULTS, build_board, detect_hardware,
                                     is_raspberry_pi, load_pinout)
from companion.devices.buttons import GpioButtons, InputEnded, ScriptedButtons
from companion.devices.emulated import HeadlessDisplay
from companion.devices.oled import OledDisplay
from companion.devices.gestures import Gesture
from companion.devices.selftest import check_buttons, check_display

from companion.devices.fake_i2c import FakeBus, Ssd1306Ram


def write(tmp_path, text):
    path = tmp_path / "pinout.toml"
    path.write_text(textwrap.dedent(text))
    return path


def test_the_shipped_pinout_is_valid_and_matches_the_documented_defaults():
    pinout = load_pinout(DEFAULT_PINOUT)
    shipped = load_toml(DEFAULT_PINOUT)
    for table in ("buttons", "display", "printer"):
        for key, value in shipped[table].items():
            assert DEFAULTS[table][key] == value, f"{table}.{key}"
    assert pinout["printer"] == {**DEFAULTS["printer"], **shipped["printer"]}


def test_missing_keys_take_the_defaults(tmp_path):
    pinout = load_pinout(write(tmp_path, """
        [buttons]
        OK = 16
        [display]
        driver = "sh1106"
    """))
    assert pinout["buttons"]["OK"] == 16 and pinout["buttons"]["UP"] == 5
    assert pinout["buttons"]["stuck_ms"] == 30_000
    assert pinout["display"] == {**DEFAULTS["display"], "driver": "sh1106"}
    assert pinout["printer"] == DEFAULTS["printer"]


BAD = [
    ("[buttons]\nUP = 40\n", "buttons.UP", "header pin"),
    ("[buttons]\nUP = 2\n", "buttons.UP", "I2C SDA"),
    ("[buttons]\nGO = 14\n", "buttons.GO", "UART TX"),
    ("[buttons]\nDOWN = 5\n", "buttons.DOWN", "also UP"),
    ("[buttons]\nOK = \"13\"\n", "buttons.OK", "whole number"),
    ("[buttons]\nOK = true\n", "buttons.OK", "whole number"),
    ("[buttons]\nLEFT = 7\n", "buttons.LEFT", "valid keys: UP, DOWN"),
    ("[buttons]\nbounce_ms = -1\n", "buttons.bounce_ms", "0 to 200"),
    ("[buttons]\nlong_press_ms = 99999\n", "buttons.long_press_ms", "200 to 5000"),
    ("[buttons]\nrepeat_interval_ms = 1.5\n", "buttons.repeat_interval_ms", "whole number"),
    ("[buttons]\nstuck_ms = 5000\nlong_press_ms = 5000\n", "buttons.stuck_ms", "longer than"),
    ("[display]\ndriver = \"ssd1309\"\n", "display.driver", "sh1106"),
    ("[display]\naddress = 0x80\n", "display.address", "out of range"),
    ("[display]\nrotate = 1\n", "display.rotate", "upside down"),
    ("[display]\nwidth = 132\n", "display.width", "128x64"),
    ("[display]\ncontrast = 300\n", "display.contrast", "0 to 255"),
    ("[display]\ncolour = 1\n", "display.colour", "unknown setting"),
    ("UP = 5\n", "UP", "under [buttons]"),
]


@pytest.mark.parametrize("text, key, hint", BAD)
def test_each_bad_setting_is_one_clear_config_error(tmp_path, text, key, hint):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_pinout(path)
    message = str(err.value)
    assert err.value.key == key
    assert str(path) in message and key in message and hint in message
    assert "\n" not in message


def test_broken_files_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="file not found"):
        load_pinout(tmp_path / "nope.toml")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_pinout(write(tmp_path, "[buttons\nUP = 5\n"))


# -- choosing the hardware ---------------------------------------------------------------

class Tty(io.StringIO):
    def __init__(self, tty):
        super().__init__()
        self._tty = tty

    def isatty(self):
        return self._tty


def test_detect_hardware(tmp_path):
    pi = tmp_path / "model"
    pi.write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\x00")
    other = tmp_path / "other"
    other.write_bytes(b"Some Board\x00")
    assert is_raspberry_pi(pi) and not is_raspberry_pi(other) and not is_raspberry_pi(tmp_path / "none")
    assert detect_hardware(pi, env={}, stdin=Tty(False)) == "pi"
    assert detect_hardware(other, env={}, stdin=Tty(True)) in ("terminal", "desktop")
    assert detect_hardware(other, env={"DISPLAY": ":0"}, stdin=Tty(False)) == "desktop"
    if sys.platform not in ("darwin", "win32"):
        assert detect_hardware(other, env={}, stdin=Tty(True)) == "terminal"
        assert detect_hardware(other, env={}, stdin=Tty(False)) == "headless"


# -- building ----------------------------------------------------------------------------------

def test_headless_board_with_keys(tmp_path):
    with build_board("headless", out_dir=tmp_path / "frames", state_dir=tmp_path, keys="OK HOLD:BACK") as board:
        assert isinstance(board.display, HeadlessDisplay)
        assert isinstance(board.buttons, ScriptedButtons)
        assert board.buttons.get() == Gesture("OK")
        assert board.buttons.get() == Gesture("BACK", "long")
        with pytest.raises(InputEnded):
            board.buttons.get()
        board.display.show(Image.new("1", (128, 64)))
    assert (tmp_path / "frames" / "frame-00001.png").exists()


def test_headless_board_without_keys_ends_at_once():
    board = build_board("headless", pinout_path=None)
    with pytest.raises(InputEnded):
        board.buttons.get(timeout=0)
    board.close()
    board.close()


def test_bad_keys_fail_before_any_device_opens():
    with pytest.raises(ValueError, match="bad key 'JUMP'"):
        build_board("pi", keys="OK JUMP", pin_factory=MockFactory(), i2c_bus=FakeBus())


def test_unknown_hardware_is_refused():
    with pytest.raises(ValueError, match="auto, pi, desktop, terminal, headless"):
        build_board("arduino")


def test_pi_board_on_mock_pins_and_a_fake_bus(tmp_path):
    factory, bus = MockFactory(), FakeBus()
    board = build_board("pi", DEFAULT_PINOUT, state_dir=tmp_path, pin_factory=factory, i2c_bus=bus)
    try:
        assert isinstance(board.display, OledDisplay) and isinstance(board.buttons, GpioButtons)
        assert board.buttons.pins == {"UP": 5, "DOWN": 6, "OK": 13, "BACK": 19, "GO": 26}
        assert not board.buttons.opened and board.buttons.buttons == {}  # the app opens them after its first frame
        board.buttons.open()
        factory.pin(26).drive_low()
        factory.pin(26).drive_high()
        assert board.buttons.get(timeout=1) == Gesture("GO")
        frame = Image.new("1", (128, 64), 1)
        board.display.show(frame)
        ram = Ssd1306Ram()
        ram.replay(bus.writes)
        assert ram.image().tobytes() == frame.tobytes()
    finally:
        board.close()
    assert board.buttons.buttons == {}


def test_pi_board_without_a_display_closes_what_it_opened():
    factory = MockFactory()
    with pytest.raises(DeviceError, match="no I2C device at 0x3C"):
        build_board("pi", pin_factory=factory, i2c_bus=FakeBus(present=False))
    GpioButtons({"OK": 13}, pin_factory=factory).close()   # no pin left reserved


def test_printer_is_asked_for_only_when_opened(tmp_path, monkeypatch):
    calls = []
    fake = type(sys)("companion.devices.printer")
    fake.open_printer = lambda config, backend, spool_dir: calls.append((config, backend, spool_dir)) or "printer"
    monkeypatch.setitem(sys.modules, "companion.devices.printer", fake)
    board = build_board("headless", state_dir=tmp_path)
    assert calls == []
    assert board.open_printer() == "printer"
    config, backend, spool_dir = calls[0]
    assert backend == "png" and spool_dir == tmp_path / "spool"
    assert config["chars_per_line"] == 32
    build_board("headless", state_dir=tmp_path, printer="sim").open_printer()
    assert calls[1][1] == "sim"


def test_pi_board_prints_on_the_serial_port(tmp_path, monkeypatch):
    calls = []
    fake = type(sys)("companion.devices.printer")
    fake.open_printer = lambda config, backend, spool_dir: calls.append(backend)
    monkeypatch.setitem(sys.modules, "companion.devices.printer", fake)
    with build_board("pi", state_dir=tmp_path, pin_factory=MockFactory(), i2c_bus=FakeBus()) as board:
        board.open_printer()
    assert calls == ["serial"]


def test_headless_path_imports_neither_gpiozero_nor_luma(tmp_path):
    code = textwrap.dedent(f"""
        import sys
        from PIL import Image
        from companion.devices.board import build_board
        board = build_board("headless", out_dir={str(tmp_path)!r}, keys="OK")
        board.display.show(Image.new("1", (128, 64)))
        board.buttons.get()
        board.close()
        heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("gpiozero", "luma", "pygame"))
        print(heavy)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- selftest ------------------------------------------------------------------------------------

def test_check_display_ok_and_leaves_the_pattern_up():
    bus = FakeBus()
    ok, message = check_display(DEFAULTS["display"], bus=bus)
    assert ok and "OK" in message
    assert 0xAE not in bus.command_bytes()[-20:]          # not switched off at the end


def test_check_display_missing_gives_the_wiring_fix():
    ok, message = check_display(DEFAULTS["display"], bus=FakeBus(present=False))
    assert not ok
    assert message.startswith("no I2C device at 0x3C on bus 1: check wiring SDA=GPIO2 SCL=GPIO3")
    assert "firmware/config.txt" in message and "\n" not in message


def test_check_display_without_an_i2c_bus_says_enable_i2c():
    ok, message = check_display(dict(DEFAULTS["display"], i2c_port=21))
    assert not ok
    assert "I2C bus 21 not found (/dev/i2c-21): enable I2C" in message


def test_check_buttons_ok_and_pressed():
    from tests.devices.test_buttons import ShortedPin
    factory = MockFactory()
    ok, message = check_buttons(DEFAULTS["buttons"], pin_factory=factory)
    assert ok and "OK=GPIO13" in message
    factory.reset()
    factory.pin(13, pin_class=ShortedPin)
    ok, message = check_buttons(DEFAULTS["buttons"], pin_factory=factory)
    assert not ok
    assert message == "button OK (GPIO13) reads pressed: release it, or check that the wire is not shorted to ground"


def test_check_buttons_without_gpio_says_what_to_install(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nosuchfactory")
    ok, message = check_buttons(DEFAULTS["buttons"])
    assert not ok and "\n" not in message
    assert "GPIO" in message


def test_the_pi_buttons_get_the_lgpio_factory_made_directly_or_gpiozeros_choice(monkeypatch):
    import sys
    import types

    from companion.devices.buttons import lgpio_factory

    made = []
    fake = types.ModuleType("gpiozero.pins.lgpio")
    fake.LGPIOFactory = lambda: made.append("lgpio") or "lgpio factory"
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", fake)
    assert lgpio_factory({}) == "lgpio factory" and made == ["lgpio"]
    assert lgpio_factory({"GPIOZERO_PIN_FACTORY": "rpigpio"}) is None  # the owner's choice stands

    def no_chip():
        raise OSError("no GPIO chip")
    fake.LGPIOFactory = no_chip
    assert lgpio_factory({}) is None  # gpiozero searches, and its error says what is missing
