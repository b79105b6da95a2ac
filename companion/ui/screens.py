"""Generic screens the app shows around an activity: menus, the setup wizard, confirm
dialogs, the history list, messages and the players list. No game rules here.

Each builder returns a :class:`View` with a hint in the footer; the app may replace the
footer (``dataclasses.replace(view, footer=...)``) with the selected move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

from companion.profile import BODY_LINES, MARGIN, WIDTH
from companion.ui import fonts
from companion.ui.view import Big, Menu, Text, View

if TYPE_CHECKING:                 # only the attributes are read; no import at run time
    from companion.kit.questions import Option

APP_TITLE = "Race Companion"
BODY_WIDTH = WIDTH - 2 * MARGIN   # px for body text


def main_menu(items: Iterable[str], selected: int = 0, title: str = APP_TITLE) -> View:
    """A list to pick from: activities, games, tools."""
    return View(title=title, body=(Menu(tuple(items), selected),), footer="OK: choose")


def options_wizard(option: Option, value: Any, step_index: int, step_count: int,
                   title: str | None = None) -> View:
    """One question of the setup wizard; ``step_index`` counts from 0. ``title``: the
    question's own label unless given (a per-car question names the car)."""
    last = step_index >= step_count - 1
    status = f"{step_index + 1}/{step_count}" if step_count > 1 else ""   # no "1/1"
    footer = "\u2191\u2193: change  OK: " + ("start" if last else "next")
    if option.kind == "choice":
        values = [v for v, _ in option.choices]
        selected = values.index(value) if value in values else 0
        body: tuple = (Menu(tuple(label for _, label in option.choices), selected),)
    elif option.kind == "split":   # points shared among parts: each part and its points
        from companion.kit.text import row
        from companion.profile import MENU_CHARS
        answer = value if isinstance(value, Mapping) else {}
        body = (Menu(tuple(row(label, str(answer.get(key, low)), MENU_CHARS)
                           for key, label, low, _ in option.parts), -1),)
        footer = "OK: edit  GO: next"
    else:
        what = f"{option.label.lower()} " if option.kind == "players" else ""   # "players 2-12"
        body = (Big(str(value), caption=f"{what}{option.low}-{option.high}"),)
    return View(title=title or option.label, status=status, body=body, footer=footer)


def confirm(question: str) -> View:
    """A yes/no question: OK answers yes, BACK answers no."""
    return View(title="Confirm", body=_paragraph(question, "center"), footer="OK: yes  BACK: no")


def history(entries: list[str], undone: set[int] = frozenset(), selected: int = -1) -> View:
    """The events so far, oldest first, the entry ``selected`` (the newest by default)
    selected; undone ones struck through. An entry wider than a menu line goes on under
    its words, indented past its number (``28 Red crossed:`` / ``   lap 3``): never cut."""
    if not entries:
        return message("History", "Nothing has happened yet.")
    items: list[str] = []
    first: list[int] = []          # each entry's first line
    for i, e in enumerate(entries):
        first.append(len(items))
        items += [fonts.struck(line) if i in undone else line for line in history_rows(e)]
    return View(title="History", status=str(len(entries)),
                body=(Menu(tuple(items), first[selected]),), footer="hold BACK: undo")


def history_rows(entry: str) -> list[str]:
    """``entry`` (``"28 Red crossed: lap 3"``) as menu lines: whole when it fits, else
    broken after its last colon or comma that leaves a line whole (the outcome kept
    together), else at spaces; the lines after the first indented past the number."""
    import textwrap
    from companion.profile import MENU_CHARS

    if len(entry) <= MENU_CHARS:
        return [entry]
    number = entry.split(" ", 1)[0]
    indent = " " * (len(number) + 1) if number.isdigit() else "  "
    cut = max(entry.rfind(sep, 0, MENU_CHARS) for sep in (": ", ", "))
    if cut > len(number):
        head, rest = entry[:cut + 1], entry[cut + 2:]
        return [head] + textwrap.wrap(rest, MENU_CHARS, initial_indent=indent, subsequent_indent=indent,
                                      break_on_hyphens=False)
    return textwrap.wrap(entry, MENU_CHARS, subsequent_indent=indent, break_on_hyphens=False)


END_STATUS = "END"
"""The title bar's status once a race is over, on every results screen."""


def title_fits(title: str, status: str) -> bool:
    """Whether the title bar shows ``title`` and ``status`` whole (the status at most half
    the width, the title in what it leaves)."""
    if fonts.truncate(status, 1, WIDTH // 2) != status:
        return False
    right = WIDTH - fonts.text_width(status) - 4 if status else WIDTH
    return fonts.truncate(title, 1, right - 4) == title


def with_timer(view: View, words: str) -> View:
    """``view`` with the turn timer's ``words`` at the head of its status (``45s L1/2``);
    where the title and both would not fit, the timer stands in for the status, so the
    title is never cut for it (the status comes back when the turn's time is over)."""
    from dataclasses import replace
    both = f"{words} {view.status}".strip()
    return replace(view, status=both if title_fits(str(view.title), both) else words)


THINKING_HEAD = "Thinking (longest)"


def thinking_lines(rows: Iterable[Mapping[str, Any]], width: int) -> list[str]:
    """The results' thinking times in lines of ``width``: a head, then a driver a line,
    their total and their longest turn (``Red      4:05 (45s)``)."""
    from companion.kit.text import duration, row
    lines = [row(str(r.get("name", "?")), f"{duration(r.get('total_s', 0))} ({duration(r.get('longest_s', 0))})", width)
             for r in rows]
    return [THINKING_HEAD, *lines] if lines else []


def with_thinking(view: View, rows: Iterable[Mapping[str, Any]]) -> View:
    """A race's results ``view`` with each driver's thinking time under its list (a list
    of its own when it has none), to scroll to."""
    from dataclasses import replace
    from companion.profile import MENU_CHARS
    lines = thinking_lines(rows, MENU_CHARS)
    if not lines:
        return view
    body = list(view.body)
    at = next((i for i, w in enumerate(body) if isinstance(w, Menu)), None)
    if at is None:
        return replace(view, body=(*body, Menu(tuple(lines), -1)))
    menu = body[at]
    body[at] = replace(menu, items=(*menu.items, *lines))
    return replace(view, body=tuple(body))


def standings(title: str, rows: Iterable[Mapping[str, Any]]) -> View:
    """A race's standings, one line a car (``1 Red        12 pts``; laps when nothing was
    scored), a menu to scroll; status ``END``."""
    from companion.kit.standings import result_line
    from companion.profile import MENU_CHARS

    rows = list(rows)
    scored = any(r.get("points") for r in rows)
    lines = []
    for r in rows:
        value = f"{r.get('points', 0)} pts" if scored else f"L{r['laps']}" if r.get("laps") is not None else ""
        lines.append(result_line(r.get("position", len(lines) + 1), str(r.get("name", "?")), value, MENU_CHARS))
    if not lines:
        return message(title, "No standings.")
    return View(title=title, status=END_STATUS, body=(Menu(tuple(lines), -1),), footer="OK: main menu")


def message(title: str, text: str) -> View:
    """A title and a few lines of wrapped text."""
    return View(title=title, body=_paragraph(text, "left"), footer="OK: next")


def journal_problem(read_only: bool, intact: bool = True) -> View:
    """Why the companion cannot race, on the screen where the table looks (the full
    message goes to stderr and the system log): a read-only card is intact, never damaged
    (``intact`` False: it holds no journal yet)."""
    if read_only:
        said = "Remount the card read-write to race."
        return View(title="Card read-only",
                    body=_paragraph(f"Races are intact. {said}" if intact else said, "left"))
    return View(title="Cannot start",
                body=_paragraph("The journal cannot be opened. companion selftest says why.", "left"))


def players(entries: list[Mapping[str, str]], selected: int = 0, title: str = "Players",
            status: str = "") -> View:
    """The players of a race ({"name", "colour"} dicts) to pick one to edit; ``title``
    and ``status`` as the setup step that asked how many (``Cars``, ``2/5``)."""
    items = tuple(_player_label(p) for p in entries)
    return View(title=title, status=status or str(len(items)), body=(Menu(items, selected),),
                footer="OK: name  GO: done")


def _player_label(player: Mapping[str, str]) -> str:
    name, colour = player.get("name", ""), player.get("colour", "")
    return name if not colour or name == colour else f"{colour}: {name}"


def _paragraph(text: str, align: str) -> tuple[Text, ...]:
    lines = fonts.wrap(text, 1, BODY_WIDTH, max_lines=BODY_LINES)
    return tuple(Text(line, align=align) for line in lines)
