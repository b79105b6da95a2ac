"""``companion selftest``: check each part, say what is missing and how to fix it."""

from __future__ import annotations

from companion import paths


def register(sub) -> None:
    p = sub.add_parser("selftest", help="check the display, buttons, printer, power, state directory and game data")
    p.add_argument("--state", metavar="DIR", help="the companion's state directory")
    p.add_argument("--pinout", metavar="FILE", help="the hardware description (default hardware/pinout.toml)")
    p.add_argument("--skip", action="append", default=[], choices=("display", "buttons", "printer"),
                   help="leave a device out")
    p.add_argument("--hardware", choices=("auto", "pi", "emulated"), default="auto",
                   help="pi: the real display, buttons and printer of the pinout; emulated: the same "
                        "drivers against an emulated I2C bus, mock GPIO pins and the simulated printer "
                        "(default: pi on a Raspberry Pi, emulated elsewhere)")
    p.set_defaults(func=selftest)


def checks(args):
    """(name, ok, message) for each part, in the order a person would fix them."""
    from companion.core.config import ConfigError
    from companion.devices.board import load_pinout

    path = paths.pinout_path(args.pinout)
    try:
        pinout = load_pinout(path)
        yield "pinout", True, f"{path}: OK"
    except ConfigError as exc:
        yield "pinout", False, str(exc)
        return
    yield ("state",) + _check_state(paths.state_dir(args.state))
    yield ("record",) + _check_record(paths.state_dir(args.state))
    yield ("game data",) + _check_game_data(paths.state_dir(args.state))
    from companion.devices.power import check_power
    yield ("power",) + check_power(pinout["power"])
    emulated = _emulated(args)
    if "display" not in args.skip:
        from companion.devices.selftest import check_display
        bus = None
        if emulated:
            from companion.devices.fake_i2c import FakeBus
            bus = FakeBus(pinout["display"].get("address", 0x3C))
        yield ("display (emulated)" if emulated else "display",) + check_display(pinout["display"], bus=bus)
    if "buttons" not in args.skip:
        from companion.devices.selftest import check_buttons
        factory = None
        if emulated:
            from gpiozero.pins.mock import MockFactory
            factory = MockFactory()
        yield ("buttons (emulated)" if emulated else "buttons",) + check_buttons(pinout["buttons"],
                                                                                 pin_factory=factory)
    if "printer" not in args.skip:
        from companion.devices.printer import check_printer
        if emulated:
            yield ("printer (simulated)",) + _check_simulated_printer(pinout["printer"])
        else:
            yield ("printer",) + check_printer(pinout["printer"])


def _emulated(args) -> bool:
    """Whether the devices are checked emulated (not on a Raspberry Pi, or asked)."""
    if args.hardware != "auto":
        return args.hardware == "emulated"
    from companion.devices.board import is_raspberry_pi
    return not is_raspberry_pi()


def _check_simulated_printer(config) -> tuple[bool, str]:
    """The printer driver asking the simulated printer (on a pseudo-terminal) how it is."""
    from companion.core.config import ConfigError
    from companion.devices.printer import check_printer, printer_settings
    from companion.devices.printer_sim import HARDWARE, PrinterSim
    try:
        settings = printer_settings(config)
    except ConfigError as exc:
        return False, str(exc)
    model = settings.profile.name if settings.profile.name in HARDWARE else "generic-58mm"
    sim = PrinterSim(baudrate=settings.baudrate, width=settings.chars_per_line, model=model)
    try:
        return check_printer(config, port=sim.path)
    finally:
        sim.close()


def _check_state(state_dir) -> tuple[bool, str]:
    from companion.commands.results import running as running_session
    from companion.core.journal import Journal, JournalError, JournalReadOnly
    from companion.core.names import counted
    try:
        with Journal(state_dir) as journal:
            running = journal.open_session()
            finished = len(journal.sessions(finished=True))
            problems = journal.problems_path
    except JournalReadOnly as exc:   # intact, readable: said as read-only, never as damage
        try:
            with Journal(state_dir, read_only=True) as journal:
                finished = len(journal.sessions(finished=True))
        except JournalError:
            return False, str(exc)
        return False, f"{exc} [{counted(finished, 'finished race')} readable]"
    except JournalError as exc:
        return False, str(exc)
    extra = f", {running_session(running)}" if running else ""
    try:
        told = problems.read_text("utf-8").strip().splitlines()
    except OSError:
        told = []
    if told:  # damage or lost history, found when the journal was opened
        return False, (f"{state_dir}: {told[-1]} [{counted(len(told), 'problem')} in {problems}; "
                       "check the SD card, then delete that file to clear this]")
    return True, f"{state_dir}: journal OK, {counted(finished, 'finished race')}{extra}"


def _check_record(state_dir) -> tuple[bool, str]:
    """Every stored row of the journal against its checksum (docs/record-integrity.md),
    read as it is: a damaged row is named, nothing is written."""
    from companion.core.journal import Journal, JournalError
    from companion.core.names import counted
    try:
        with Journal(state_dir, read_only=True) as journal:
            rows = journal.checked_rows()
    except JournalError as exc:
        return False, str(exc)
    if rows is None:
        return True, "the journal was written before rows carried checksums (the companion adds them when it starts)"
    return True, f"{counted(rows, 'stored row')}, each matching its checksum"


def _check_game_data(state_dir) -> tuple[bool, str]:
    from companion.games import data as game_data
    from companion.core.config import ConfigError
    from companion.games.registry import GAMES
    loaded = []
    for slug in GAMES:
        if not game_data.has_data(slug):
            continue
        try:
            game_data.load(slug, override_dir=state_dir)
        except ConfigError as exc:
            return False, str(exc)
        loaded.append(slug)
    return True, f"{len(loaded)} games' data OK ({', '.join(loaded)})"


def selftest(args) -> int:
    skipped = f" ({', '.join(args.skip)} left out)" if args.skip else ""
    if _emulated(args):
        print("Not on a Raspberry Pi: checking the pinout, the state directory and the game data, and the "
              "display, buttons and printer emulated (the OLED driver on an emulated I2C bus, mock GPIO "
              f"pins, the simulated printer){skipped}. On the Pi it checks the real parts.")
    else:
        print(f"Checking the pinout, the state directory, the game data, and the real display, buttons "
              f"and printer of the pinout{skipped}.")
    failed = 0
    for name, ok, message in checks(args):
        print(f"[{'ok' if ok else 'FAIL'}] {name}: {message}")
        failed += not ok
    print("All parts OK." if not failed else
          f"{'1 part needs' if failed == 1 else f'{failed} parts need'} attention (see above).")
    return 1 if failed else 0
