"""A player at the box describing their board: reads each screen of the description and
presses the buttons to reach the numbers they want, as a person would (a few presses, or
UP/DOWN held and let go once the number is reached, then a press or two back), and counts
the presses (a hold is one)."""

from companion.ui.view import Row
from tests.table import press

MOST_PRESSES_A_STEP = 3     # further than this a player holds the button


def presses(keys: list[str]) -> int:
    """Buttons pressed: each press, each long press, each hold (a run of repeats)."""
    count, before = 0, None
    for key in keys:
        if not (key.startswith("REPEAT:") and key == before):
            count += 1
        before = key
    return count


class Player:
    def __init__(self, app):
        self.app = app
        self.keys: list[str] = []

    def do(self, keys: str) -> None:
        for key in keys.split():
            press(self.app, key)
            self.keys.append(key)

    @property
    def presses(self) -> int:
        return presses(self.keys)

    def rows(self) -> list[Row]:
        return [w for w in self.app.frame().body if isinstance(w, Row)]

    def shown(self) -> tuple[int, list[int]]:
        """(the highlighted answer, every answer) of the screen."""
        rows = self.rows()
        return next(i for i, r in enumerate(rows) if r.invert), [int(r.right) for r in rows]

    def turn_to(self, target: int) -> None:
        """UP/DOWN until the highlighted answer is ``target``."""
        at, values = self.shown()
        if abs(target - values[at]) > MOST_PRESSES_A_STEP:
            key = "REPEAT:UP" if target > values[at] else "REPEAT:DOWN"
            while (values[at] < target) if key == "REPEAT:UP" else (values[at] > target):
                before = values[at]
                self.do(key)
                at, values = self.shown()
                assert values[at] != before, f"held {key} stuck at {before}"
        while values[at] != target:
            before = values[at]
            self.do("UP" if target > values[at] else "DOWN")
            at, values = self.shown()
            assert values[at] != before, f"{target} is out of reach: {before} is as far as it goes"

    def fill(self, *targets: int) -> None:
        """The answers of the screen: turned where they differ, GO once the rest is right."""
        i = 0
        while True:
            at, values = self.shown()
            assert at == i
            if values[i:] == list(targets[i:]):
                self.do("GO")
                return
            if values[i] == targets[i]:
                self.do("OK")
                i += 1
            else:
                self.turn_to(targets[i])
