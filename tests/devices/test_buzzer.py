"""The buzzer on gpiozero's mock PWM pins: each note is the pin's PWM frequency and a duty
cycle that follows the volume; the board opens it only when the pinout says one is fitted."""

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.cues.catalogue import CUES
from companion.devices import DeviceError
from companion.devices.board import build_board, load_pinout, sound_factory
from companion.devices.buzzer import LOUDEST_DUTY, Buzzer


def heard(factory, pin, cue, loudness):
    """(frequency, duty) of the pin for each note of ``cue`` as the buzzer plays it."""
    notes = []
    buzzer = Buzzer(pin, pin_factory=factory, sleep=lambda s: notes.append((s, factory.pin(pin).frequency,
                                                                              factory.pin(pin).state)))
    buzzer.play(cue, loudness)
    after = factory.pin(pin).state
    buzzer.close()
    return notes, after


@pytest.mark.parametrize("name", sorted(CUES))
def test_every_cue_plays_its_notes_on_the_pin(name):
    cue, factory = CUES[name], MockFactory(pin_class=MockPWMPin)
    notes, after = heard(factory, 12, cue, 1.0)
    assert [round(s * 1000) for s, _, _ in notes] == [ms for _, ms in cue.tune]
    for (hz, _), (_, frequency, duty) in zip(cue.tune, notes):
        if hz:
            assert frequency == hz and duty == LOUDEST_DUTY
        else:
            assert duty == 0
    assert after == 0                       # silent between cues


def test_the_volume_is_the_duty_cycle():
    factory = MockFactory(pin_class=MockPWMPin)
    loud = {duty for _, _, duty in heard(factory, 18, CUES["flag"], 1.0)[0]}
    soft = {duty for _, _, duty in heard(factory, 18, CUES["flag"], 0.15)[0]}
    assert loud == {LOUDEST_DUTY} and [round(d, 4) for d in soft] == [round(LOUDEST_DUTY * 0.15, 4)]
    states = [round(s.state, 4) for s in factory.pin(18).states]
    assert 0.5 in states and 0.075 in states


def test_a_pin_without_pwm_is_a_clear_device_error():
    with pytest.raises(DeviceError, match="buzzer on GPIO12"):
        Buzzer(12, pin_factory=MockFactory())          # plain mock pins: no PWM


def test_the_board_opens_the_buzzer_only_when_fitted(tmp_path):
    pinout = load_pinout(None)
    factory = MockFactory(pin_class=MockPWMPin)
    assert sound_factory(pinout, "pi", factory)() == []                    # none fitted
    fitted = {**pinout, "buzzer": {"pin": 12, "active": True}}
    (buzzer,) = sound_factory(fitted, "pi", factory)()
    assert isinstance(buzzer, Buzzer) and buzzer.pin == 12
    buzzer.close()
    assert sound_factory(fitted, "headless")() == [] and sound_factory(fitted, "terminal")() == []
    board = build_board("headless", None, state_dir=tmp_path)
    assert board.open_sound() == []
    board.close()


def test_a_buzzer_that_cannot_be_opened_leaves_the_box_silent(caplog):
    fitted = {**load_pinout(None), "buzzer": {"pin": 12, "active": True}}
    assert sound_factory(fitted, "pi", MockFactory())() == []
    assert "buzzer on GPIO12" in caplog.text
