"""A yes/no question on the screen: OK says yes (GO does nothing: only a deliberate OK acts) and runs ``on_yes``, BACK says no.
Every screen that asks before it acts (ending a race, a merge, deleting an entry) pushes one."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable

from companion.ui import screens as ui
from companion.ui.nav import BACK, OK, Screen
from companion.ui.view import View

if TYPE_CHECKING:
    from companion.ui.host import Host


@dataclass
class Confirm(Screen):
    chooses = True
    question: str
    on_yes: Callable[[], None]

    def view(self, app: Host) -> View:
        return replace(ui.confirm(self.question), footer="OK: yes  BACK: no")

    def handle(self, app: Host, gesture) -> None:
        if gesture.kind != "press":
            return
        if gesture.button == OK:
            app.pop()
            self.on_yes()
        elif gesture.button == BACK:
            app.pop()
