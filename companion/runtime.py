"""Everything ``companion run`` needs, opened in order and closed in reverse:
the state directory, the journal, the board (display, buttons, printer), the watchdog
and the app. Any failure becomes one line for a person (``StartupError``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import paths
from companion.app import App
from companion.core.config import ConfigError
from companion.core.journal import Journal, JournalError
from companion.core.rng import make_rng
from companion.devices import DeviceError


class StartupError(Exception):
    """The companion cannot start: ``str()`` says what is wrong and how to fix it."""


def _say_on_screen(exc: JournalError, hardware: str, pinout: str | None, out: str | None,
                   state_dir: Path, i2c_bus) -> None:
    """A journal the companion cannot race on is said on the display too, and the frame
    stays up after the exit: on the Pi the table reads the OLED, not the system log.
    Only on the Pi and headless (a desktop window or a terminal would vanish at once);
    a display that cannot be opened says nothing more than stderr."""
    from companion.core.journal import JournalReadOnly, read_only_reason
    from companion.devices.board import build_board, detect_hardware
    from companion.ui.render import render
    from companion.ui.screens import journal_problem

    resolved = detect_hardware() if hardware == "auto" else hardware
    if resolved not in ("pi", "headless"):
        return
    try:
        board = build_board(resolved, paths.pinout_path(pinout), out_dir=out, state_dir=state_dir,
                            keys="", i2c_bus=i2c_bus)
    except (ConfigError, DeviceError, ValueError):
        return
    display = board.display
    try:
        intact = isinstance(exc, JournalReadOnly)      # else: a read-only card without a journal yet?
        read_only = intact or read_only_reason(Path(state_dir) / Journal.FILENAME) is not None
        display.show(render(journal_problem(read_only, intact)))
    except DeviceError:
        pass
    finally:
        if resolved == "pi":
            display.close(blank=False)      # the message stays on the OLED
        else:
            display.close()


def _auto_backup(journal: Journal, pinout: dict):
    """The backup after each finished race, when ``[backup] dir`` is set (else None, and
    its module is not loaded)."""
    settings = pinout.get("backup") or {}
    if not settings.get("dir"):
        return None
    from companion.autobackup import AutoBackup
    return AutoBackup(journal.path, Path(settings["dir"]).expanduser(), settings["keep"])


def _power_watch(pinout: dict):
    """The under-voltage flag of ``[power] throttled``, watched (None when unset)."""
    path = (pinout.get("power") or {}).get("throttled")
    if not path:
        return None
    from companion.devices.power import PowerWatch
    return PowerWatch(path)


def _cues(state_dir: Path, board):
    """The sound cues: written to ``<state>/cues.jsonl``, played on the board's outputs
    (opened with the first cue), at the volume kept in ``<state>/sound.json``."""
    from companion.cues.player import LOG, Cues
    return Cues(outputs=board.open_sound, logs=[state_dir / LOG], state_dir=state_dir)


@dataclass
class Runtime:
    state_dir: Path
    journal: Journal
    board: Any
    app: App
    _closed: bool = field(default=False, repr=False)

    @classmethod
    def open(cls, *, hardware: str = "auto", state: str | None = None, pinout: str | None = None,
             keys: str | None = None, out: str | None = None, seed: int | None = None,
             pin_factory=None, i2c_bus=None, note: str = "") -> "Runtime":
        from companion.devices.board import build_board
        from companion.devices.watchdog import Watchdog

        state_dir = paths.state_dir(state)
        try:
            journal = Journal(state_dir)
        except JournalError as exc:
            _say_on_screen(exc, hardware, pinout, out, state_dir, i2c_bus)
            raise StartupError(str(exc)) from None
        frames = Path(out) if out else state_dir / "frames"
        try:
            board = build_board(hardware, paths.pinout_path(pinout), out_dir=frames,
                                state_dir=state_dir, keys=keys, pin_factory=pin_factory, i2c_bus=i2c_bus,
                                note=note)
        except (ConfigError, DeviceError, ValueError) as exc:
            journal.close()
            raise StartupError(str(exc)) from None
        try:
            app = App(journal=journal, display=board.display, printer_factory=board.open_printer,
                      rng=make_rng(seed), data_dir=state_dir, watchdog=Watchdog(),
                      table=board.pinout.get("table"), backup=_auto_backup(journal, board.pinout),
                      power=_power_watch(board.pinout), cues=_cues(state_dir, board))
        except JournalError as exc:   # a damaged row of the open race, met as it is replayed
            board.close()
            journal.close()
            _say_on_screen(exc, hardware, pinout, out, state_dir, i2c_bus)
            raise StartupError(str(exc)) from None
        if journal.notice:  # a damaged or shortened journal is said on the first frame
            app.toast = journal.notice
        return cls(state_dir, journal, board, app)

    def run(self) -> None:
        """The app on the board's buttons until their input ends. Buttons that cannot be
        opened (they open right after the first frame) are a StartupError too."""
        try:
            self.app.run(self.board.buttons)
        except DeviceError as exc:
            raise StartupError(str(exc)) from None

    def problems(self) -> list[str]:
        """What went wrong while running that a person should read on stderr."""
        out = [self.journal.notice] if self.journal.notice else []
        status = self.app.printer_status()
        if status:
            out.append(status)
        return out

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self.app.close()
        finally:
            try:
                self.board.close()
            finally:
                self.journal.close()

    def __enter__(self) -> "Runtime":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
