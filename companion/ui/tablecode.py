"""The pause menu's "Table screen": the page's address and its QR code on the OLED, so a
phone at the table opens it with its camera. Loaded only when the item is opened."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.profile import ADVANCE, WIDTH
from companion.ui.nav import Screen
from companion.ui.picture import Picture
from companion.ui.view import View

if TYPE_CHECKING:
    from companion.ui.host import Host


def address_lines(url: str, width: int) -> tuple[str, ...]:
    """The address in lines of ``width`` characters, broken after a dot or before a colon
    ("http://" left out: the QR code holds the whole address)."""
    rest = url.split("://", 1)[-1].rstrip("/")
    lines, line = [], ""
    for part in rest.replace(".", ".\0").replace(":", "\0:").split("\0"):
        if line and len(line) + len(part) > width:
            lines.append(line)
            line = ""
        while len(part) > width:
            lines.append(part[:width])
            part = part[width:]
        line += part
    return tuple(lines + [line] if line else lines)


@dataclass
class TableCode(Screen):
    shown: View | None = None      # made once: the code takes a moment to compute on a Pi

    def view(self, app: "Host") -> View:
        if self.shown is None:
            from companion import qr
            from companion.ui.render import picture_layout

            url = app.table_address()
            modules = qr.matrix(url)
            room = (WIDTH - picture_layout(len(modules))[2] - 3) // ADVANCE
            lines = ("Table", "screen:", *address_lines(url, room))
            self.shown = View("Table screen", (Picture(tuple(tuple(r) for r in modules), lines),))
        return self.shown

    def handle(self, app: "Host", gesture) -> None:
        app.pop()           # any button returns: UP and DOWN too, pressed or held
