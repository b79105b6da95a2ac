"""Mute and volume: the pause menu's Sound item and UP+DOWN held, kept across boots."""

import random

from gpiozero.pins.mock import MockFactory

from companion.app import App
from companion.core.journal import Journal
from companion.cues import settings
from companion.cues.player import Cues
from companion.devices.buttons import GpioButtons, parse_keys
from companion.devices.emulated import HeadlessDisplay
from companion.devices.gestures import Gesture, Timing
from companion.games import registry
from companion.ui import flow


def test_the_setting_steps_and_survives_a_bad_file(tmp_path, caplog):
    sound = settings.Sound()
    labels = []
    for _ in range(5):
        labels.append(sound.label())
        sound = sound.stepped()
    assert labels == ["Sound: loud", "Sound: medium", "Sound: soft", "Sound: off", "Sound: loud"]
    assert settings.Sound("soft").toggled() == settings.Sound("soft", True)
    assert settings.Sound("soft", True).loudness == 0 and settings.Sound("medium").loudness == 0.45
    settings.save(tmp_path, settings.Sound("medium", True))
    assert settings.load(tmp_path) == settings.Sound("medium", True)
    assert not (tmp_path / "sound.json.new").exists()
    for bad in ("{", '{"volume": "deafening", "muted": false}', '{"volume": "soft", "muted": "no"}', "[]"):
        (tmp_path / "sound.json").write_text(bad)
        assert settings.load(tmp_path) == settings.Sound()
    assert "sound.json unreadable" in caplog.text
    assert settings.load(tmp_path / "nowhere") == settings.Sound() and settings.load(None) == settings.Sound()


def app_on(state, cues=None):
    return App(journal=Journal(state), display=HeadlessDisplay(), rng=random.Random(1), data_dir=state, cues=cues)


def test_the_pause_menu_sets_the_volume_and_it_is_kept_across_boots(tmp_path):
    cues = Cues(logs=[tmp_path / "cues.jsonl"], state_dir=tmp_path)
    app = app_on(tmp_path, cues)
    act = registry.activity("top-speed")
    app.start_session("top-speed", dict(act.demo.options))
    app.push(flow.Pause())
    keys = [k for k, _ in app.screen.items(app)]
    app.screen.selected = keys.index("sound")
    assert dict(app.screen.items(app))["sound"] == "Sound: loud"
    app.handle(Gesture("OK"))
    app.handle(Gesture("OK"))
    assert isinstance(app.screen, flow.Pause) and dict(app.screen.items(app))["sound"] == "Sound: soft"
    cues.flush()
    assert [c["cue"] for c in cues.written] == ["line", "line"]     # each step is heard at its volume
    app.close()
    app.journal.close()
    again = app_on(tmp_path)                 # the next boot, even without cues
    assert again.sound_label() == "Sound: soft"
    again.journal.close()


def test_up_and_down_held_together_mute_on_any_screen(tmp_path):
    """Through the real buttons (gpiozero mock pins) and the gesture decoder."""
    now = [0]
    pins = {"UP": 5, "DOWN": 6, "OK": 13, "BACK": 19, "GO": 26}
    factory = MockFactory()
    buttons = GpioButtons(pins, Timing(), pin_factory=factory, clock=lambda: now[0])
    cues = Cues(state_dir=tmp_path)
    app = app_on(tmp_path, cues)
    app.refresh()

    def hold_both(ms):
        factory.pin(5).drive_low()
        now[0] += 30
        factory.pin(6).drive_low()
        got = []
        for _ in range(ms // 10):
            now[0] += 10
            got += buttons.pump(0)
        factory.pin(5).drive_high()
        factory.pin(6).drive_high()
        now[0] += 30
        got += buttons.pump(0)
        return got

    got = hold_both(1000)
    assert got == [Gesture("UP", "both")]             # no repeat, no press of either
    home = app.screen
    for gesture in got:
        app.step(gesture)
    assert app.toast == "Sound off" and app.screen is home and settings.load(tmp_path).muted
    assert hold_both(300) == []                       # too short: nothing
    app.step(Gesture("BACK"))                          # the alert closed
    for gesture in parse_keys("UP+DOWN"):
        app.step(gesture)
    assert app.toast == "Sound on: loud" and not settings.load(tmp_path).muted
    buttons.close()
    app.close()
    app.journal.close()


class NoPaper:
    """A printer whose paper runs out, then is loaded again."""

    def __init__(self):
        self.fault = None

    def pending(self):
        return []

    def close(self):
        pass


def test_the_printer_needing_paper_is_cued_once(tmp_path):
    from companion.devices.printer import fault_not_found, fault_paper_out
    now = [50.0]
    cues = Cues(clock=lambda: now[0])
    printer = NoPaper()
    app = App(journal=Journal(tmp_path), display=HeadlessDisplay(), printer=printer, data_dir=tmp_path, cues=cues)
    app.step(None)
    printer.fault = fault_paper_out()
    for _ in range(3):
        app.step(None)                                  # said once, while it lasts
    printer.fault = None
    app.step(None)
    printer.fault = fault_not_found("/dev/serial0")     # another fault: no paper cue
    app.step(None)
    cues.flush()
    assert cues.written == [{"t": 50.0, "cue": "paper", "game": None}]
    app.close()
    app.journal.close()
