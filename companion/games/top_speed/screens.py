"""Top Speed on the 128x64 screen and on paper.

The body holds four small lines under the footer: the screens keep to that, with
``Big`` for the number the table acts on (green points, spaces to move, laps left).
"""

from __future__ import annotations

from typing import Any

from companion.games.top_speed import circuit
from companion.games.top_speed import rules as R
from companion.receipts import layouts
from companion.receipts.layouts import COLOUR, LED, POINTS, Col
from companion.receipts.model import Receipt
from companion.ui.view import Big, Row, Text, View

LINE = 21                     # characters in a size-1 line


def _name(state: R.State, car: int) -> str:
    return state.name(car)[:R.NAME_CHARS].upper()


def _laps(state: R.State) -> str:
    return f"L{state.laps_left}"


def view(state: R.State) -> View:
    return _VIEWS[state.phase](state)


# -- before the race ----------------------------------------------------------------------

def _start_view(state: R.State) -> View:
    s = state.settings
    lines = [Text(f"{s.race_label} race, {s.laps} laps"[:LINE]), Text(s.circuit[:LINE])]
    if state.qualified:
        ranked = sorted(range(len(state.cars)), key=lambda c: -state.cars[c].qual)
        lines.append(Text("Qualifying laps:"))
        lines.append(Text(" ".join(f"{state.name(c)[:3]} {max(0, state.cars[c].qual)}" for c in ranked)[:LINE]))
    else:
        lines.append(Text("Grid: by qualifying" if s.grid == "qualifying" else "Grid: random"))
        if s.races > 1:
            lines.append(Text(f"Race {state.race_no} of {s.races}"))
    return View(title="Top Speed", status=f"{len(state.cars)}P", body=tuple(lines))


# -- a player's turn ----------------------------------------------------------------------

def row_text(cards, width: int = LINE) -> str:
    """The cards of a row as the screen writes them, the newest kept when too long."""
    text = " ".join(_short(c) for c in cards)
    return text if len(text) <= width else "…" + text[-(width - 1):]


def _turn_view(state: R.State) -> View:
    car = state.cars[state.turn]
    qualifying = state.phase == R.QUALIFY
    if qualifying:
        title, status = f"{_name(state, state.turn)} Q{state.qround}", f"Q{state.qround}/{state.settings.qualifying_laps}"
    elif state.sc:
        title, status = f"{_name(state, state.turn)} SAFETY CAR", _laps(state)
    else:
        title, status = _name(state, state.turn), _laps(state)
    if state.show == "cards":
        return View(title=title, status=status, body=_cards_body(car))
    flags = "" if qualifying else _flags(state)
    row = row_text(car.row, LINE - len(flags) - 1 if flags else LINE) if car.row else "no card yet"
    body: list[Any] = [Row(row, flags) if flags else Text(row)]
    if state.show == "odds":
        bad, left = R.bust_cards(car), car.pile.left
        body.append(Big(f"{round(100 * bad / left) if left else 0}%", caption=f"{bad} of {left} cards end it"))
    elif state.sc:
        body.append(Big(str(state.sc), caption="Safety Car counter"))
    else:
        extra = f" -{len(car.damage)} dmg" if car.damage else ""
        body.append(Big(str(R.green(car)), caption=f"green{extra}, {car.pile.left} left"))
    return View(title=title, status=status, body=tuple(body))


def _flags(state: R.State) -> str:
    """Yellow Flag and Safety Car cards on the table: "YF1 SC2!" (! = the rule applies)."""
    need = state.settings.signal_cards
    parts = []
    for label, signal in (("YF", "yellow-flag"), ("SC", "safety-car")):
        n = R.signals(state, signal)
        if n and not (signal == "safety-car" and state.sc):
            parts.append(f"{label}{n}" + ("!" if n >= need else ""))
    return " ".join(parts)


def _cards_body(car: R.Car) -> tuple:
    """What no cardboard game can tell: the deck, the discard pile, the damage row and the
    trouble cards still in the deck (two lines)."""
    left: dict[str, int] = {}
    for c in car.pile.draw:
        if R.is_trouble(c):
            left[_short(c)] = left.get(_short(c), 0) + 1
    words = [f"{k}{n}" for k, n in sorted(left.items())] or ["no trouble left"]
    lines = [""]
    for w in words:
        if lines[-1] and len(lines[-1]) + 1 + len(w) > LINE:
            lines.append("")
        lines[-1] = f"{lines[-1]} {w}".strip()
    damage = " ".join(_short(c) for c in car.damage) or "none"
    return (Row(f"Deck {car.pile.left}", f"Discard {len(car.pile.discard)}"), Row("Damage", damage),
            *(Text(t) for t in lines[:2]))


def _short(card) -> str:
    return str(card.get("short", card.name))


# -- the movement phase -------------------------------------------------------------------

def step_text(state: R.State, step: R.Step) -> tuple[str, str, str]:
    """(headline, big number, caption) of one step of the movement phase."""
    kind, n = step.kind, step.amount
    who = _name(state, step.car) if step.car >= 0 else ""
    if kind in (R.MOVE, R.BONUS):
        why = "fastest-lap bonus" if kind == R.BONUS else ("yellow: no passing" if state.yellow else "")
        return f"{who}: move {n}", f"+{n}", why
    if kind == R.BACK:
        return f"{who}: back {-n}", str(n), "Drive Through"
    if kind == R.PIT_BACK:
        return f"{who}: back {-n}", str(n), "pit stop"
    if kind == R.CLOSE:
        return f"{who}: close up {n}", f"+{n}", "behind the car ahead"
    if kind == R.LAP:
        return f"{who} on a new lap", str(n), "laps remaining"
    if kind == R.SC_OUT:
        return "SAFETY CAR OUT", str(n), f"counter on space {n}"
    if kind == R.SC_COUNT:
        return "Safety Car stays", str(n), f"counter to space {n}"
    if kind == R.SC_IN:
        return "SAFETY CAR IN", "GO", "racing next round"
    if kind == R.QLAP:
        return f"{who}: lap of {n}", str(n), f"best {state.cars[step.car].qual}"
    if kind == R.FLAG:
        return "CHEQUERED FLAG", "END", f"{who} leads"
    return kind, str(n), ""


def _steps_view(state: R.State) -> View:
    step = state.steps[state.step]
    head, big, caption = step_text(state, step)
    title = "Qualifying" if step.kind == R.QLAP else "Movement"
    return View(title=title, status=f"{state.step + 1}/{len(state.steps)}",
                body=(Text(head, align="center"), Big(big, caption=caption)))


CELL = 10                     # characters in half a line


def order_rows(state: R.State, order, label=lambda c: "") -> tuple[Row, ...]:
    """The race order two cars a line: "1 Red" ... "2 Blue -1L" (laps down)."""
    lead = state.cars[order[0]].distance
    spaces = state.settings.spaces

    def cell(k: int, c: int) -> str:
        down = circuit.laps_down(state.cars[c].distance, lead, spaces)
        tail = label(c) + (f" -{down}L" if down else "")
        room = CELL - len(str(k)) - 1 - len(tail)
        return f"{k} {state.name(c)[:room]}{tail}"

    cells = [cell(k, c) for k, c in enumerate(order, start=1)]
    return tuple(Row(cells[i], cells[i + 1] if i + 1 < len(cells) else "") for i in range(0, len(cells), 2))


def _order(state: R.State) -> tuple[int, ...]:
    return circuit.race_order([c.distance for c in state.cars])


def _round_end_view(state: R.State) -> View:
    title = f"Round {state.round}" + (f" SC {state.sc}" if state.sc else "")
    return View(title=title, status=_laps(state), body=order_rows(state, _order(state)))


def _fix_view(state: R.State) -> View:
    c = state.fix_car
    car = state.cars[c]
    pos = _order(state).index(c) + 1
    return View(title=f"Fix {_name(state, c)}", status=f"P{pos}",
                body=(Text("space from the line:"),
                      Big(str(circuit.board_space(car.distance, state.settings.spaces)),
                          caption=f"of {state.settings.spaces} (0 = line)")))


def _over_view(state: R.State) -> View:
    rows = state.results[-1]
    points = {r["name"]: r["points"] for r in rows}
    order = [next(i for i, c in enumerate(state.cars) if c.name == r["name"]) for r in rows]
    title = "Finish" if state.settings.races == 1 else f"Race {state.race_no}/{state.settings.races}"
    return View(title=title, status=_laps(state),
                body=order_rows(state, order, lambda c: f" {points[state.name(c)]}"))


_VIEWS = {R.START: _start_view, R.QUALIFY: _turn_view, R.DRAW: _turn_view, R.STEPS: _steps_view,
          R.ROUND_END: _round_end_view, R.FIX: _fix_view, R.OVER: _over_view}


# -- paper --------------------------------------------------------------------------------

LAPS_DOWN = Col("laps_down", "Dn", 3, lambda v: "-" if not v else f"-{v}")
PITS = Col("pit_stops", "Pit", 4)
BEST = Col("best", "Best", 5)


def _heading(state: R.State) -> list[str]:
    s = state.settings
    lines = [f"{s.circuit}, {s.laps} laps", f"{s.race_label} race"]
    extras = [name for name, on in (("qualifying", s.grid == "qualifying"), ("fastest lap", s.fastest_lap),
                                    ("KERS", s.kers)) if on]
    if extras:
        lines.append("Rules: " + ", ".join(extras))
    if s.races > 1:
        lines.append(f"Race {state.race_no} of {s.races}")
    return lines


def program(state: R.State) -> Receipt:
    grid = [{"name": state.name(c), "colour": state.cars[c].colour} for c in state.grid or range(len(state.cars))]
    lines = _heading(state) + [f"{len(state.settings.deck)} cards in every deck"]
    if not state.grid:
        lines.append("Grid to be drawn at the start")
    return layouts.race_program("Top Speed", lines, grid, (COLOUR,))


def results(state: R.State) -> Receipt:
    rows = state.results[-1] if state.results else R.race_standings(state)
    title = "Top Speed results" if state.results else "Top Speed (running)"
    notes = []
    car, spaces, rnd = state.fastest
    if car >= 0:
        notes.append(f"Fastest lap: {state.name(car)}, {spaces} spaces (round {rnd})")
    notes.append(f"Safety Car periods: {state.sc_periods}")
    notes.append(f"Pit stops: {sum(c.pits for c in state.cars)}")
    if state.settings.points_note:
        notes.append(f"Points: {state.settings.points_note}")
    lines = _heading(state) + [f"{state.round} rounds"]
    return layouts.results(title, rows, lines, (LAPS_DOWN, LED, PITS, BEST, POINTS), notes)


def receipts(state: R.State) -> dict[str, Receipt]:
    out = {"program": program(state), "results": results(state)}
    if state.settings.races > 1 and state.results:
        out["championship"] = layouts.championship("Top Speed championship", R.championship(state),
                                                   [f"{state.settings.races} races"])
    return out
