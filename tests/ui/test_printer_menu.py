"""The Printer menu says what is wrong with the printer, whole: the pause menu's "P!" sends
the table there, so its words must not be cut by the display."""

import random

from companion.app import App
from companion.core.journal import Journal
from companion.devices.emulated import HeadlessDisplay
from companion.devices.printer import PrinterFault, fault_not_found
from companion.ui import flow
from companion.ui.render import cut_texts
from companion.ui.view import Menu, Text


class Faulty:
    """A printer that has a fault and keeps what it is given."""

    def __init__(self, fault: PrinterFault):
        self.fault = fault

    def pending(self):
        return []

    def close(self):
        pass


def menu_with(state_dir, fault):
    app = App(journal=Journal(state_dir), display=HeadlessDisplay(None), rng=random.Random(1),
              printer=Faulty(fault))
    app.boot()
    app.push(flow.PrinterMenu())
    return app.frame()


def test_a_long_printer_fault_is_read_whole(state_dir):
    fault = fault_not_found("/dev/serial0")
    view = menu_with(state_dir, fault)
    said = " ".join(w.text for w in view.body if isinstance(w, Text))
    assert said == fault.message
    assert cut_texts(view, footer=True) == []
    assert [w for w in view.body if isinstance(w, Menu)][0].items[1] == "Print last results"


def test_a_short_status_stays_in_the_footer(state_dir):
    view = menu_with(state_dir, PrinterFault("Printer: paper out"))
    assert view.footer == "Printer: paper out" and not [w for w in view.body if isinstance(w, Text)]
