"""``check_printer``: is the receipt printer usable right now? One line, with the fix."""

from __future__ import annotations

from typing import Mapping

from companion.core.config import ConfigError
from companion.devices.printer import PrinterFault, SerialLink, fault_paper_out, fault_silent, printer_settings


def check_printer(printer_config: Mapping, port: str | None = None) -> tuple[bool, str]:
    """Open the [printer] port and read the paper sensor. Never raises: returns
    ``(ok, message)`` where a failed message names the fix."""
    try:
        settings = printer_settings(printer_config)
    except ConfigError as exc:
        return False, str(exc)
    link = SerialLink(settings, port)
    try:
        paper = link.paper()
    except PrinterFault as fault:
        return False, f"{fault.message} ({fault.fix})"
    finally:
        link.close()
    if paper == "unknown":
        fault = fault_silent()
        return False, f"{fault.message} on {link.port} ({fault.fix})"
    if paper == "out":
        fault = fault_paper_out()
        return False, f"{fault.message} ({fault.fix})"
    note = "paper low, keep a roll at hand" if paper == "low" else "paper loaded"
    return True, f"Printer OK on {link.port} at {settings.baudrate} baud ({note})"
