"""Top Speed on the 128x64 screen and on paper.

The body holds four small lines over the footer: the screens keep to that, with
``Big`` for what the table acts on ("move 7", "65 cards", "+7", the Safety Car counter).
The title bar says whose turn it is and how many laps are left ("RED", "14 to go").
"""

from __future__ import annotations

from companion.games.top_speed import circuit
from companion.games.top_speed import rules as R
from companion.receipts import layouts
from companion.receipts.layouts import COLOUR, LED, POINTS, Col
from companion.receipts.model import Receipt
from companion.core.names import counted
from companion.kit.standings import ordinal
from companion.kit.text import first_fitting, fit
from companion.profile import BODY_LINES, LINE_CHARS, MENU_CHARS
from companion.ui.view import Big, Menu, Row, Text, View

LINE = LINE_CHARS
CELL = LINE_CHARS // 2
"""Characters in half a line: a car of the race order ("1 Yellow"), two a line."""
NAME_CHARS = CELL - 2
"""A name in a title or a headline beside what the car does ("YELLOW: move 7")."""
KEY = ("DT = Drive Through", "ENG = Engine Trouble", "OFF = Off Track", "SC = Safety Car",
       "TIRE = Tire Trouble", "YF = Yellow Flag", "DT2 = 2 of them")
"""The trouble cards' short names (``left: DT2 ENG6``, the damage row): pause menu > Key."""


def _name(state: R.State, car: int) -> str:
    return fit(state.name(car), NAME_CHARS).upper()


def _laps(state: R.State) -> str:
    """The Laps Remaining, as the laps track shows them; at 1 the next lap off ends the
    race (the counter goes down as a round starts), so it says so: ``last lap``."""
    return "last lap" if state.laps_left == 1 else f"{state.laps_left} to go"


def view(state: R.State) -> View:
    return _VIEWS[state.phase](state)


# -- before the race ----------------------------------------------------------------------

def _start_view(state: R.State) -> View:
    s = state.settings
    lines = [Text(fit(f"{s.race_label} race, {counted(s.laps, 'lap')}")), Text(fit(s.circuit))]
    if state.qualified:
        ranked = sorted(range(len(state.cars)), key=lambda c: -state.cars[c].qual)
        lines.append(Text("Qualifying laps:"))
        lines.append(Text(fit(" ".join(f"{fit(state.name(c), CELL // 3)} {max(0, state.cars[c].qual)}" for c in ranked))))
    else:
        lines.append(Text("Grid: by qualifying" if s.grid == "qualifying" else "Grid: random"))
    return View(title="Top Speed", status=counted(len(state.cars), "player"), body=tuple(lines))


# -- a player's turn ----------------------------------------------------------------------

def row_text(cards, width: int = LINE) -> str:
    """The cards of a row as the screen writes them when the whole row fits ``width``;
    else how many cards and green points it holds (the whole row is under "My cards")."""
    green = sum(R.value(c) for c in cards)
    return first_fitting(" ".join(_short(c) for c in cards), f"{counted(len(cards), 'card')}, {green} green",
                         counted(len(cards), "card"), limit=width)


def _pit_text(cost: int, width: int) -> str:
    """What a pit stop costs, in words: "Pit: 8 spaces back"."""
    spaces = counted(cost, "space")
    return first_fitting(f"Pit stop: {spaces} back", f"Pit: {spaces} back", f"Pit: back {cost}",
                         limit=width)


def _grid_view(state: R.State) -> View:
    """The starting grid, pole first, until the table presses GO: without a printer the
    table still sees where to put the cars."""
    return View(title="Starting grid", status="1=pole", body=order_rows(state, state.grid))


def decisions(state: R.State) -> View:
    """What the companion decided, for the pause menu: the starting grid (and the
    qualifying laps behind it)."""
    lines = [fit(f"{state.settings.race_label} race, {counted(state.settings.laps, 'lap')}", MENU_CHARS), "Grid, pole first:"]
    if not state.grid:
        lines.append("by qualifying, soon" if state.settings.grid == "qualifying" else "not drawn yet")
    for p, c in enumerate(state.grid, start=1):
        lap = f" ({state.cars[c].qual})" if state.qualified and state.cars[c].qual >= 0 else ""
        lines.append(fit(f"{p} {state.name(c)}", MENU_CHARS - len(lap)) + lap)
    return View("Decisions", (Menu(tuple(lines), -1),))


def _drawn_view(state: R.State, title: str, status: str) -> View:
    """The card the player on turn just drew, large, and what it does to their round; shown
    to them until they press on."""
    c = state.turn
    car = state.cars[c]
    card = car.row[-1]
    big = card.name.upper() if R.is_trouble(card) else f"+{R.value(card)}"
    if car.status == R.BUST:
        caption = first_fitting(f"2nd {_short(card)}: round over", "2nd one: round over", limit=LINE)
        note = "no move this round"
        if card.get("damage"):
            note = "1 to the damage row"
    else:
        n = R.planned_move(state, car)
        if state.phase == R.QUALIFY:
            caption = f"lap so far: {max(0, n)}"
        elif state.sc:
            caption = "one card under SC"
        else:
            caption = f"if you stop: back {-n}" if n < 0 else f"if you stop: move {n}"
        risk = round(100 * R.bust_chance(car)) if car.pile.left else None
        note = f"next card: bust {risk}%" if risk is not None else "deck empty"
    body = [Big(big, caption=caption), Text(note)]
    flags = _flags(state, LINE)
    if flags and state.phase != R.QUALIFY:
        body.append(Text(flags))
    return View(title=title, status=status, body=tuple(body))


def _turn_view(state: R.State) -> View:
    """Whose turn (title), what the last player did and the flags on the table (line 1),
    this player's row and the exact chance the next card ends their round (line 2), and
    what the car would do if they stopped now ("move 7"). Before the first card: the
    damage, the cost of a pit stop and the cards left, for the pit-or-draw decision."""
    c = state.turn
    car = state.cars[c]
    qualifying = state.phase == R.QUALIFY
    title = _name(state, c)
    status = f"qual {state.qround}/{state.settings.qualifying_laps}" if qualifying else _laps(state)
    if state.show:
        return View(title=title, status=status, body=_cards_body(car) if state.show == 1 else _row_body(car))
    if state.drawn:
        return _drawn_view(state, first_fitting(f"{title} drew", title, limit=LINE - len(status) - 1), status)
    flags = "" if qualifying else _flags(state, LINE - 1)
    top = Row(flags or last_text(state, LINE - 1), "")      # a Row keeps a space at its right
    if state.sc:
        return View(title=title, status=status,
                    body=(top, Row("one card only", f"{car.pile.left} left"), Big(f"SC {state.sc}")))
    if not car.row and not car.kers_round:
        if qualifying:
            second = Row(f"best lap {car.qual}" if car.qual >= 0 else "no lap yet", "")
        else:
            damage = f"damage {len(car.damage)}: -{len(car.damage)} a round" if car.damage else ""
            pit = _pit_text(R.pit_cost(state, car), LINE)
            return View(title=title, status=status, body=(top, Text(pit), Big(counted(car.pile.left, "card"), caption=damage)))
        return View(title=title, status=status, body=(top, second, Big(counted(car.pile.left, "card"))))
    risk = f"bust {round(100 * R.bust_chance(car))}%" if car.pile.left else "deck empty"
    row = row_text(car.row, LINE - len(risk) - 1) if car.row else "no card yet"
    return View(title=title, status=status, body=(top, Row(row, risk), Big(_if_stopped(state, car))))


def _if_stopped(state: R.State, car: R.Car) -> str:
    n = R.planned_move(state, car)
    if state.phase == R.QUALIFY:
        return f"lap {max(0, n)}"
    return f"back {-n}" if n < 0 else f"move {n}"


def last_text(state: R.State, width: int = LINE) -> str:
    """What the last player did this round ("YELLOW: TIRE", "RED: ENG x2 OUT"), the name
    shortened to fit ``width``; at the start of a round, which round it is."""
    c, what = state.last
    if c < 0:
        return f"Qualifying lap {state.qround}" if state.phase == R.QUALIFY else f"Round {state.round}"
    car = state.cars[c]
    if what == "draw":
        words = [_short(car.row[-1])]
    elif what == "bust":
        words = [f"{_short(car.row[-1])} x2 OUT", f"{_short(car.row[-1])} x2"]
    elif what == "keep":
        words = [f"keeps {_short(car.kers)}"]
    elif what == "kers":
        words = [f"KERS {_short(car.row[-1])}"]
    else:
        words = [{"pass": "passes", "pit": "pit stop", "no-lap": "no lap"}.get(what, what)]
    word = next((w for w in words if len(w) + 5 <= width), words[-1])
    name = _name(state, c)
    if len(name) + len(word) + 2 > width:
        name = fit(name, CELL // 3)
    return f"{name}: {word}"


def _flags(state: R.State, width: int) -> str:
    """Yellow Flag and Safety Car cards on the table, in words: "Yellow flags 1 of 2",
    "2 Safety Cars: out!" ("" when there are none)."""
    need = state.settings.signal_cards
    yellow = R.signals(state, "yellow-flag")
    safety = 0 if state.sc else R.signals(state, "safety-car")
    long, short = [], []
    if yellow:
        long.append("no overtaking" if yellow >= need else f"yellow flags {yellow} of {need}")
        short.append("no passing" if yellow >= need else f"yellow {yellow}/{need}")
    if safety:
        long.append("Safety Car comes out" if safety >= need else f"Safety Car {safety} of {need}")
        short.append("SC comes out" if safety >= need else f"SC {safety}/{need}")
    if not long:
        return ""
    text = first_fitting(", ".join(long), ", ".join(short), limit=width)
    return text[0].upper() + text[1:]


def _cards_body(car: R.Car) -> tuple:
    """What no cardboard game can tell: the deck, the discard pile, the damage row and the
    trouble cards still in the deck (two lines)."""
    left: dict[str, int] = {}
    for c in car.pile.draw:
        if R.is_trouble(c):
            left[_short(c)] = left.get(_short(c), 0) + 1
    words = ["left:", *(f"{k}{n}" for k, n in sorted(left.items()))] if left else ["no trouble left"]
    lines = [""]
    for w in words:
        if lines[-1] and len(lines[-1]) + 1 + len(w) > LINE:
            lines.append("")
        lines[-1] = f"{lines[-1]} {w}".strip()
    damage = " ".join(_short(c) for c in car.damage) or "none"
    return (Row(f"Deck {car.pile.left}", f"Discard {len(car.pile.discard)}"), Row("Damage", damage),
            *(Text(t) for t in lines[:2]))


def _row_body(car: R.Car) -> tuple:
    """The second page of "My cards": the whole row of this round, wrapped, with the
    cards' names where they fit (their short names where not)."""
    if not car.row:
        return (Text("Row this round:"), Text("no card yet"))
    for name in (lambda c: c.name, _short):
        lines = _wrap([name(c) for c in car.row], ", ")
        if len(lines) < BODY_LINES:
            break
    return (Text(f"Row: {counted(len(car.row), 'card')}"), *(Text(t) for t in lines[:BODY_LINES - 1]))


def _wrap(words: list[str], sep: str) -> list[str]:
    lines = [""]
    for i, w in enumerate(words):
        w += sep.rstrip() if i + 1 < len(words) else ""
        if lines[-1] and len(lines[-1]) + 1 + len(w) > LINE:
            lines.append("")
        lines[-1] = f"{lines[-1]} {w}".strip()
    return lines


def _short(card) -> str:
    return str(card.get("short", card.name))


# -- the movement phase -------------------------------------------------------------------

def step_text(state: R.State, step: R.Step) -> tuple[str, str, str]:
    """(headline, big number, caption) of one step of the movement phase."""
    kind, n = step.kind, step.amount
    who = _name(state, step.car) if step.car >= 0 else ""
    if kind == R.MOVE:
        head, big = (f"{who}: move {n}", f"+{n}") if n else (f"{who}: stays", "0")
        return head, big, _move_caption(state, step)
    if kind == R.BONUS:
        return f"{who}: move {n}", f"+{n}", "fastest-lap bonus"
    if kind == R.BACK:
        return f"{who}: back {-n}", str(n), "Drive Through"
    if kind == R.PIT_BACK:
        return f"{who}: back {-n}", str(n), "pit stop"
    if kind == R.CLOSE:
        return f"{who}: close up {n}", f"+{n}", "behind the car ahead"
    if kind == R.LAP:
        return f"{who} crosses line", str(n), "laps to go"
    if kind == R.SC_OUT:
        return "SAFETY CAR OUT", str(n), f"counter on space {n}"
    if kind == R.SC_COUNT:
        return "Safety Car stays", str(n), f"{step.want} green: counter {n}"
    if kind == R.SC_IN:
        return "SAFETY CAR IN", "GO", "racing next round"
    if kind == R.QLAP:
        return f"{who}: lap of {n}", str(n), f"best {state.cars[step.car].qual}"
    if kind == R.FLAG:
        return "CHEQUERED FLAG", "END", f"{who} leads"
    return kind, str(n), ""


def _move_caption(state: R.State, step: R.Step) -> str:
    """Why a car moves what it moves: blocked, damage, yellow flags."""
    if step.amount < step.want:
        return f"{step.want} due: yellow flags" if state.yellow else f"{step.want} due: space taken"
    damage = len(state.cars[step.car].damage)
    if damage:
        return f"{step.want + damage} green -{damage} damage"
    return "yellow: no passing" if state.yellow else ""


_STEP_TITLES = {R.QLAP: "Qualifying", R.SC_OUT: "Safety Car", R.SC_COUNT: "Safety Car", R.SC_IN: "Safety Car",
                R.FLAG: "Finish", R.BONUS: "Finish"}


def _steps_view(state: R.State) -> View:
    step = state.steps[state.step]
    head, big, caption = step_text(state, step)
    return View(title=_STEP_TITLES.get(step.kind, "Movement"), status=f"{state.step + 1}/{len(state.steps)}",
                body=(Text(head, align="center"), Big(big, caption=caption)))


def order_rows(state: R.State, order) -> tuple[Row, ...]:
    """The race order two cars a line: "1 Red" ... "2 Blue -1L" (laps down)."""
    lead = state.cars[order[0]].distance
    spaces = state.settings.spaces

    def cell(k: int, c: int) -> str:
        down = circuit.laps_down(state.cars[c].distance, lead, spaces)
        tail = f" -{down}L" if down else ""
        room = CELL - len(str(k)) - 1 - len(tail)
        return f"{k} {fit(state.name(c), room)}{tail}"

    cells = [cell(k, c) for k, c in enumerate(order, start=1)]
    return tuple(Row(cells[i], cells[i + 1] if i + 1 < len(cells) else "") for i in range(0, len(cells), 2))


def _order(state: R.State) -> tuple[int, ...]:
    return circuit.race_order([c.distance for c in state.cars])


def _round_end_view(state: R.State) -> View:
    """The new race order (the next round's turn order), with the Safety Car counter."""
    title = f"Order, SC {state.sc}" if state.sc else "New order"
    return View(title=title, status=_laps(state), body=order_rows(state, _order(state)))


def _fix_view(state: R.State) -> View:
    c = state.fix_car
    car = state.cars[c]
    pos = _order(state).index(c) + 1
    return View(title=f"Fix {_name(state, c)}", status=ordinal(pos),
                body=(Text("space from the line:"),
                      Big(str(circuit.board_space(car.distance, state.settings.spaces)),
                          caption=f"of {state.settings.spaces} (0 = line)")))


def _over_view(state: R.State) -> View:
    """The finishing order with whole names (the points are on the results receipt)."""
    order = _order(state)
    return View(title=f"{_name(state, order[0])} WINS", status="final", body=order_rows(state, order))


_VIEWS = {R.START: _start_view, R.GRID: _grid_view, R.QUALIFY: _turn_view, R.DRAW: _turn_view, R.STEPS: _steps_view,
          R.ROUND_END: _round_end_view, R.FIX: _fix_view, R.OVER: _over_view}


# -- paper --------------------------------------------------------------------------------

LAPS_DOWN = Col("laps_down", "Dn", 3, lambda v: "-" if not v else f"-{v}", legend="laps down on the winner")
PITS = Col("pit_stops", "Pit", 4, legend="pit stops")
BEST = Col("best", "Best", 5, legend="fastest lap, in spaces")


def _heading(state: R.State) -> list[str]:
    s = state.settings
    lines = [f"{s.circuit}, {counted(s.laps, 'lap')}", f"{s.race_label} race"]
    extras = [name for name, on in (("qualifying", s.grid == "qualifying"), ("fastest lap", s.fastest_lap),
                                    ("KERS", s.kers)) if on]
    if extras:
        lines.append("Rules: " + ", ".join(extras))
    return lines


def program(state: R.State) -> Receipt:
    """The race program with the starting grid, pole first."""
    lines = _heading(state) + [f"{counted(len(state.settings.deck), 'card')} in every deck"]
    grid = [{"name": state.name(c), "colour": state.cars[c].colour} for c in state.grid]
    return layouts.race_program("Top Speed", lines, grid, (COLOUR,))


def results(state: R.State) -> Receipt:
    rows = R.race_standings(state)
    over = R.finished(state)
    title = "Top Speed results" if over else "Top Speed (running)"
    notes = []
    car, spaces, rnd = state.fastest
    if car >= 0:
        notes.append(f"Fastest lap: {state.name(car)}, {counted(spaces, 'space')} (round {rnd})")
    notes.append(f"Safety Car periods: {state.sc_periods}")
    notes.append(f"Pit stops: {sum(c.pits for c in state.cars)}")
    lines = _heading(state) + [counted(state.round, "round")]
    chart = layouts.lap_chart_picture(rows, R.lap_chart(state)) if over else ()
    return layouts.results(title, rows, lines, (LAPS_DOWN, LED, PITS, BEST, POINTS), notes, more=chart)


def receipts(state: R.State) -> dict[str, Receipt]:
    """The results (marked running before the finish); the program once the grid is set
    (the app prints it the moment it appears: after START)."""
    out = {"results": results(state)}
    if state.grid:
        out["program"] = program(state)
    return out
