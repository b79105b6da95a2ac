"""A scripted race through the whole stack.

The buttons are gpiozero ``Button`` objects on mock pins that the script presses and
releases (with a simulated clock, so long presses and bounce are exact); the screen is
the luma.oled driver on a recording I2C bus; receipts go over a real pseudo-terminal to
the printer simulator. Each frame handed to the display is saved as a PNG, each receipt
as a PNG and as the ESC/POS bytes the simulated printer received, and the results as
``results.json``.

Every activity declares its demo (``Activity.demo``): the setup wizard's answers (per-car
answers under "cars", one dict per car), a seed, and ``script(state) -> Move | None``
(the move the scripted table makes now; None when it is done). A session the script
leaves unfinished (a tool's) is ended from the pause menu, as a player would.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games import registry

PRESS_MS = 80        # how long the script holds a button for a press
LONG_MS = 1200       # ... for a long press
GAP_MS = 150         # between two gestures
MAX_STEPS = 20000    # a scripted race that has not finished by then is a bug


class DemoError(Exception):
    pass


@dataclass
class FakeClock:
    """Milliseconds that pass only when the script says so."""
    now: int = 0

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


class FrameRecorder:
    """The real display driver, with every frame it is handed also saved as a PNG. With
    the recording ``bus`` it also counts, over the frames after the first (sent whole),
    the bytes the bus carried (``bus_bytes``) and the bytes of the controller's RAM that
    changed (``changed_bytes``: 8-pixel columns of a page that differ from the frame
    before, counted on the pictures, not by the driver)."""

    def __init__(self, inner, out_dir: Path, bus=None):
        self.inner = inner
        self.out_dir = out_dir
        self.count = 0
        self.bus = bus
        self.bus_bytes = self.changed_bytes = 0
        self._last = None
        out_dir.mkdir(parents=True, exist_ok=True)

    def show(self, image) -> None:
        before = self.bus.bus_bytes() if self.bus is not None else 0
        self.inner.show(image)
        self.count += 1
        image.save(self.out_dir / f"frame-{self.count:05d}.png")
        if self.bus is None:
            return
        if self._last is not None:
            from PIL import Image, ImageChops
            # turned, each byte of a row is one RAM byte: 8 pixels of a column in one page
            turned = ImageChops.logical_xor(self._last, image).transpose(Image.Transpose.TRANSPOSE).tobytes()
            self.changed_bytes += len(turned) - turned.count(0)
            self.bus_bytes += self.bus.bus_bytes() - before
        self._last = image.copy()

    def close(self) -> None:
        self.inner.close()


@dataclass
class ReceiptRecorder:
    """The real printer, with every receipt handed to it kept for the demo's output."""
    inner: Any
    receipts: list = field(default_factory=list)

    def submit(self, receipt) -> None:
        self.receipts.append(receipt)
        self.inner.submit(receipt)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def demo_target(game: str | None) -> str:
    """The activity the demo of ``game`` runs (UnknownName or NotPlayable when there is none)."""
    slug = game or "top-speed"
    if slug not in registry.TOOLS:
        registry.game_package(slug)  # UnknownName naming the games
    registry.activity(slug)          # NotPlayable for a game the companion does not play
    return slug


class Driver:
    """Presses the mock pins the way a player would, and lets the app see each gesture."""

    def __init__(self, app, buttons, clock: FakeClock):
        self.app = app
        self.buttons = buttons
        self.clock = clock
        self.gestures = 0

    def press(self, name: str, hold_ms: int = PRESS_MS) -> None:
        pin = self.buttons.buttons[name].pin
        pin.drive_low()
        self._settle(hold_ms)
        pin.drive_high()
        self._settle(GAP_MS)

    def long_press(self, name: str) -> None:
        self.press(name, LONG_MS)

    def _settle(self, ms: int) -> None:
        """Let ``ms`` pass in 10 ms ticks, handing every gesture decoded to the app."""
        for _ in range(max(1, ms // 10)):
            self.clock.advance(10)
            for gesture in self.buttons.pump(0):
                self.gestures += 1
                self.app.step(gesture)

    # -- navigation -----------------------------------------------------------------

    def choose_home(self, slug: str) -> None:
        from companion.ui import flow
        home = self.app.screen
        assert isinstance(home, flow.Home)
        keys = [k for k, _ in home.items(self.app)]
        if slug not in keys:
            raise DemoError(f"'{slug}' is not on the home menu ({', '.join(keys)})")
        self._walk(home.selected, keys.index(slug), len(keys))
        self.press("OK")

    def answer_wizard(self, answers: dict[str, Any]) -> None:
        from companion.ui import wizard
        from companion.ui.players import Players
        cars = answers.get("cars", [])
        while isinstance(self.app.screen, (wizard.Wizard, Players, wizard.SplitEntry)):
            screen = self.app.screen
            if isinstance(screen, Players):
                self.press("GO")  # the cars keep their colours as names
                continue
            if isinstance(screen, wizard.SplitEntry):
                self.press("GO")  # the split as the wizard offered it
                continue
            question = screen.current(self.app)
            if question is None:
                break
            option = question.option
            wanted = answers if question.car is None else (cars[question.car] if question.car < len(cars) else {})
            if option.key in wanted:
                self._set(screen, question, wanted[option.key])
            self.press("OK")

    def _set(self, wizard, question, target: Any) -> None:
        option = question.option
        for _ in range(1000):
            value = wizard.value(option, question.car)
            if value == target:
                return
            if option.kind == "choice":
                self.press("DOWN")
            else:
                self.press("DOWN" if value > target else "UP")
        raise DemoError(f"cannot set '{option.key}' to {target!r}")

    def end_from_pause(self) -> None:
        """End an unfinished session as a player would: BACK, "End ...", OK to confirm."""
        from companion.ui import flow
        self.press("BACK")
        pause = self.app.screen
        if not isinstance(pause, flow.Pause):
            raise DemoError("BACK did not open the pause menu")
        keys = [k for k, _ in pause.items(self.app)]
        if "end" not in keys:
            self.press("BACK")
            return
        self._walk(pause.selected, keys.index("end"), len(keys))
        self.press("OK")
        self.press("OK")

    def perform(self, move) -> None:
        from companion.ui import flow
        race = self.app.screen
        assert isinstance(race, flow.Race), race
        moves = self.app.runner.moves()
        if move not in moves:
            raise DemoError(f"scripted move {move.label!r} is not on offer")
        if move.primary:
            self.press("GO")
            return
        self._walk(race.highlighted % len(moves), moves.index(move), len(moves))
        self.press("OK")
        if move.confirm:          # the move's question (ending a race early): yes
            self.press("OK")

    def _walk(self, start: int, target: int, n: int) -> None:
        down = (target - start) % n
        up = (start - target) % n
        for _ in range(min(down, up)):
            self.press("DOWN" if down <= up else "UP")


def think_ms(step: int) -> int:
    """How long the scripted table thinks before its ``step``-th move when the race runs a
    turn timer: 1 to 13 s, the same every run."""
    return ((step * 7) % 13 + 1) * 1000


def run_demo(game: str | None, out: str | Path, seed: int | None = None, timer: str | None = None) -> dict:
    """Play a scripted race into ``out``; returns the results (also in results.json).
    ``timer``: the race's turn timer (``core.turnclock.CHOICES``); the table then thinks
    before each move (:func:`think_ms`), a frame shown as the time is taken."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.cues.player import LOG, Cues
    from companion.devices.buzzer import Buzzer

    from companion.app import App
    from companion.core.journal import Journal
    from companion.core.rng import make_rng
    from companion.devices.board import load_pinout
    from companion.devices.buttons import GpioButtons
    from companion.devices.oled import OledDisplay
    from companion.devices.fake_i2c import FakeBus
    from companion.devices.gestures import BUTTONS, Timing
    from companion.devices.printer import open_printer
    from companion.paths import pinout_path

    slug = demo_target(game)
    demo = registry.activity(slug).demo
    answers = dict(demo.options)
    if timer is not None:
        from companion.core import turnclock
        turnclock.setting(timer)          # ValueError naming the timers there are
        answers[turnclock.KEY] = timer
    if seed is None:
        seed = demo.seed

    out = Path(out)
    for sub in ("frames", "receipts", "state"):
        shutil.rmtree(out / sub, ignore_errors=True)
    (out / "receipts").mkdir(parents=True, exist_ok=True)
    (out / LOG).write_text("")   # what the table would hear: empty for a tool with no cue
    pinout = load_pinout(pinout_path())
    # the simulated printer is fed at 115200 baud and prints six times faster than a real
    # one, so the demo takes seconds, not minutes; the driver paces itself to it all the same
    printer_config = {**pinout["printer"], "baudrate": 115200,
                      "line_ms": max(1, pinout["printer"].get("line_ms", 12) // 6)}

    clock = FakeClock()
    buttons = GpioButtons({b: pinout["buttons"][b] for b in BUTTONS}, Timing.from_table(pinout["buttons"]),
                          pin_factory=MockFactory(), clock=clock)
    bus = FakeBus(pinout["display"].get("address", 0x3C), keep_writes=False)
    display = FrameRecorder(OledDisplay(pinout["display"], bus=bus), out / "frames", bus)
    printer = ReceiptRecorder(open_printer(printer_config, "sim", out / "state" / "spool"))
    sim = printer.sim
    journal = Journal(out / "state")
    # the cues as the table would hear them, at the script's time: in cues.jsonl, and played
    # on a buzzer of mock PWM pins (the tune's pauses not waited for)
    buzzer = Buzzer(pinout["buzzer"]["pin"], pin_factory=MockFactory(pin_class=MockPWMPin), sleep=lambda s: None)
    cues = Cues(outputs=[buzzer], logs=[out / LOG], clock=lambda: clock.now / 1000)
    app = App(journal=journal, display=display, printer=printer, rng=make_rng(seed), data_dir=out / "state",
              table=pinout.get("table"), cues=cues,
              clock=lambda: clock.now / 1000)     # as on the box: the program prints the table screen's address
    try:
        driver = Driver(app, buttons, clock)
        app.boot()
        app.refresh()
        app.after_first_frame()   # as App.run does once the first frame is shown
        driver.choose_home(slug)
        driver.answer_wizard(answers)
        runner = app.runner
        if runner is None:
            raise DemoError("the setup wizard did not start a race")
        steps = 0
        while runner.session.finished is None:
            move = demo.script(runner.state)
            if move is None:
                break
            if timer is not None:
                clock.advance(think_ms(steps))
                app.step(None)            # the idle loop's frame: the time left
            driver.perform(move)
            steps += 1
            if steps > MAX_STEPS:
                raise DemoError(f"the scripted race did not finish in {MAX_STEPS} moves")
        results = runner.results()
        if runner.session.finished is None:
            driver.end_from_pause()   # a tool's session: ended as a player would end it
        else:
            driver.press("OK")        # leave the finished race for the home menu
        printer.wait_idle(timeout=120)
        sim.wait_printed(timeout=120)   # every byte the driver sent read by the printer: its receipts whole
        cues.flush()
        _write_receipts(out / "receipts", printer.receipts, sim.jobs, printer_config)
        summary = {**results, "seed": seed, "frames": display.count, "gestures": driver.gestures,
                   "moves": steps, "display_bytes": bus.data_bytes(), "display_bus_bytes": display.bus_bytes,
                   "display_changed_bytes": display.changed_bytes, "printer_overflow": sim.overflow,
                   "receipts": [r.kind for r in printer.receipts], "cues": [c["cue"] for c in cues.written]}
        (out / "results.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
        return summary
    finally:
        app.close()
        buttons.close()
        display.close()
        journal.close()


def _write_receipts(folder: Path, receipts: list, jobs: list, printer_config) -> None:
    """Each receipt as a PNG preview and as the ESC/POS bytes the printer's interpreter
    read for it (one job runs from one ESC @ to the next; a picture's data may hold the
    bytes of ESC @, so the printer's own reading tells where a job starts)."""
    from companion.receipts import png

    for i, receipt in enumerate(receipts, start=1):
        stem = folder / f"{i:02d}-{receipt.kind}"
        png.render(receipt, printer_config).save(stem.with_suffix(".png"))
        if i <= len(jobs):
            stem.with_suffix(".bin").write_bytes(bytes(jobs[i - 1].data))
