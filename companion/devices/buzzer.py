"""The piezo buzzer: a cue's tune as PWM on one GPIO pin (``[buzzer]`` of hardware/pinout.toml).

gpiozero's ``PWMOutputDevice``: each note sets the PWM frequency to the note's and the duty
cycle to the volume (50 % is the loudest a piezo gets; a rest is 0 %). ``play`` takes the
tune's time (it sleeps between notes): it runs on the cues' worker, never on the loop.
"""

from __future__ import annotations

import time
from typing import Callable

from companion.devices import DeviceError

LOUDEST_DUTY = 0.5


class Buzzer:
    def __init__(self, pin: int, *, pin_factory=None, sleep: Callable[[float], None] = time.sleep):
        try:
            from gpiozero import PWMOutputDevice
            self._device = PWMOutputDevice(pin, initial_value=0, frequency=440, pin_factory=pin_factory)
        except Exception as exc:
            from companion.devices.buttons import gpio_problem
            raise DeviceError(f"buzzer on GPIO{pin}: {gpio_problem(exc)}") from None
        self.pin = pin
        self._sleep = sleep

    def play(self, cue, loudness: float) -> None:
        device = self._device
        try:
            for hz, ms in cue.tune:
                if hz > 0 and loudness > 0:
                    device.frequency = hz
                    device.value = LOUDEST_DUTY * min(1.0, loudness)
                else:
                    device.value = 0
                self._sleep(ms / 1000)
        finally:
            device.value = 0

    def close(self) -> None:
        self._device.close()
