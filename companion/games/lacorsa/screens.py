"""Lacorsa on the 128x64 screen and on paper.

The title says whose turn it is and the lap ("L3 Red" / "Red > Blue"); the body says what
just happened (the cards both cars played, who passed, an extend, a discard) and what the
table does now. An automated car's card stays face down ("card down") until both cars of
a challenge have played. Every challenge screen shows both cars' cards left, and "Cards
left" (a move on offer all race) shows every car's cards left and what it has played: the
rulebook lets anyone ask.
"""

from __future__ import annotations

from companion.core.names import counted
from companion.kit.standings import ordinal, player_totals, result_line
from companion.kit.text import car_name, first_fitting, fit, row
from companion.profile import LINE_CHARS, MENU_CHARS
from companion.ui.view import Menu, Text, View

from companion.games.lacorsa.rules import (BETWEEN, DEAL, DISCARD, DONE, GRID, PLAY, QUALIFY, START, Car,
                                           Outcome, State, championship_table, final_order, lap_chart, standings, ties,
                                           waiting)

GAME = "Lacorsa"
NAME = 8                     # characters of a car's name in a line
TITLE = MENU_CHARS           # the title and its status together (see companion.profile)
KEY = ("C2 = Champion 2", "D5 = Drafting 5", "E3 = Extend 3", "R = Redline", "L3 = lap 3",
       "A = automated car")
"""The cards' short names (``Blue C2 > Yellow 5``) and the lap (``L3 Blue``): pause menu > Key."""


def short(state: State, car: int, width: int = NAME) -> str:
    """A car's name in ``width`` characters, keeping a team car's number (``Bartho 2``)."""
    return car_name(state.name(car), width)


def card_text(state: State, name: str) -> str:
    """A card as the screen writes it: ``9``, ``R``, ``E1``, ``D3``, ``C12``."""
    if len(name) <= 3:
        return name
    d = state.settings.card(name)
    return f"{name[0]}{d.value}"


def cards(n: int) -> str:
    return counted(n, "card")


def cards_text(state: State, played) -> str:
    return "+".join(card_text(state, n) for n in played) if played else "-"


def _titled(title: str, body, status: str = "") -> View:
    title = fit(title, TITLE)
    if status and len(title) + len(status) > TITLE:
        status = ""
    return View(title, tuple(body), status=status)


def _race_status(state: State) -> str:
    return f"R{state.race}/{state.settings.races}" if state.championship else ""


def view(state: State) -> View:
    if state.show:
        return _table(state)
    if state.step == DEAL:
        return _deal(state)
    if state.step == QUALIFY:
        return _qualify(state)
    if state.step == GRID:
        return _grid(state)
    if state.step == START:
        return _grid_set(state)
    if state.step == BETWEEN:
        return _standings_view(state, f"After race {state.race}", championship_table(state))
    if state.step == DONE:
        title = "Championship" if state.championship else "Results"
        return _standings_view(state, title, standings(state))
    if state.stage == PLAY:
        return _challenge(state)
    if state.stage == DISCARD:
        return _discard(state)
    return _act(state)


# -- before the race --------------------------------------------------------------------

def _deal(state: State) -> View:
    """The split of the deck; with 2-3 players, who drives which cars (``Red: Red, Yellow``)
    under the deck that deals them, in one list read to its end."""
    humans, autos = state.humans, state.autos
    size = len(state.settings.suit)
    title = f"Deal race {state.race}" if state.championship else "Deal"
    drivers = drivers_lines(state)
    if drivers:
        table = drivers_lines(state, auto=False)
        if not autos:
            lines = [f"Shuffle {counted(len(humans), 'suit')}.", f"Deal {size} to each car:", *table]
        elif not humans:
            lines = ["All cars automated:", "hands are dealt on", "the device, secret.", *drivers]
        else:
            lines = [f"Table deck: {counted(len(humans), 'suit')}", f"Deal {size} to each car:", *table,
                     f"Device: {counted(len(autos), 'auto hand')}", *drivers_lines(state, auto=True)]
        return _titled(title, [Menu(tuple(fit(line, MENU_CHARS) for line in lines), selected=-1)],
                       _race_status(state))
    if not autos:
        body = [Text(f"Shuffle {counted(len(humans), 'suit')}"), Text(f"Deal {size} to each car"), Text("face down.")]
    elif not humans:
        body = [Text("All cars automated:"), Text("hands are dealt on"), Text("the device, secret.")]
    else:
        names = " ".join(short(state, c) for c in humans)
        body = [Text(f"Table deck: {counted(len(humans), 'suit')}"),
                Text(f"{cards(size)} each to:"), Text(first_fitting(names, "every human car")),
                Text(first_fitting(f"Device: {counted(len(autos), 'auto hand')}", "Auto hands: device"))]
    return _titled(title, body, _race_status(state))


def _team_note(state: State, a: int, b: int) -> list[Text]:
    if a != b and state.cars[a].owner == state.cars[b].owner and not state.cars[a].auto:
        return [Text(fit(f"Team orders: {state.cars[a].owner_name}"))]
    return []


def _qualify(state: State) -> View:
    pending = waiting(state)
    n = len(state.cars)
    status = f"{n - len(pending)}/{n}"
    autos = [c for c in pending if state.cars[c].auto]
    if autos:
        body = [Text("Automated cars pick"), Text("their cards now,"), Text("face down."),
                Text("Then humans enter.")]
        return _titled("Qualifying", body, status)
    car = pending[0]
    owner = owner_of(state, car)        # a player's second car: whose it is (the count is in the status)
    body = [Text(first_fitting(f"{state.name(car)}: card played?", f"{short(state, car)}: card played?")),
            Text(first_fitting(f"{state.name(car)} is {owner}'s car", f"{owner}'s car")) if owner
            else None, Text("One card, or two"), Text("with a Redline."),
            None if owner else Text(f"Entered: {n - len(pending)} of {n} cars")]
    body = [w for w in body if w is not None]
    return _titled("Qualifying", body, status)


def _grid(state: State) -> View:
    worth = {c: state.settings.worth(p) for c, p in state.quali}
    items = [row(short(state, c), cards_text(state, p) + (f" ={worth[c]}" if len(p) > 1 else ""), MENU_CHARS)
             for c, p in sorted(state.quali, key=lambda cp: -worth[cp[0]])]
    tied = ties(state)
    if tied:
        items.append(fit("Ties: " + ", ".join("/".join(short(state, c) for c in g) for g in tied), MENU_CHARS))
        items.append("GO rolls the tie die")
    else:
        items.append("No ties: GO for grid")
    return _titled("Qualified", [Menu(tuple(items), -1)], _race_status(state))


def grid_items(state: State) -> list[str]:
    """The grid, pole first: each car's qualifying worth and its tie die rolls in words
    (``7 tie 5``, rolled again: ``7 tie 1,6``)."""
    worth = {c: state.settings.worth(p) for c, p in state.quali}
    rolls = dict(state.rolls)
    items = []
    for i, c in enumerate(state.grid, start=1):
        roll = ",".join(str(r) for r in rolls.get(c, ()))
        items.append(row(f"{i} {state.name(c)}", f"{worth[c]}" + (f" tie {roll}" if roll else ""), MENU_CHARS))
    return items


def _grid_set(state: State) -> View:
    """The grid to set up on the board; the tie die's rolls beside the tied cars."""
    items = grid_items(state) + [fit(f"{short(state, state.grid[-1])} starts lap 1", MENU_CHARS)]
    items += [fit(line, MENU_CHARS) for line in drivers_lines(state)]   # who drives which cars
    return _titled("Grid", [Menu(tuple(items), -1)], _race_status(state))


# -- the race -----------------------------------------------------------------------------

def outcome_line(state: State, o: Outcome) -> str:
    """One thing that happened, in 21 characters at most."""
    a = short(state, o.car) if o.car >= 0 else ""
    if o.kind == "lap":
        return "Final lap!" if state.final and o.value == state.lap else f"Lap {o.value} from the back"
    if o.kind == "out":
        return first_fitting(f"Final lap: {state.name(o.car)} out", f"Final lap: {a} out", "Final lap!")
    if o.kind == "skip":
        return first_fitting(f"{state.name(o.car)} has no cards", f"{a} has no cards")
    if o.kind == "extend":
        return fit(f"{a} extends ({card_text(state, o.cards[0])})")
    if o.kind == "discard":
        return fit(f"{a} discards {cards_text(state, o.cards)}")
    d = short(state, o.other)
    ac, dc = cards_text(state, o.cards), cards_text(state, o.other_cards)
    if o.kind == "crash":
        return first_fitting(f"{a} {ac}={d} {dc}: crash", f"Crash: {a} + {d}", f"{a}+{d} crash",
                             f"Crash: {a[:5]}+{d[:5]}")
    if o.won:
        return first_fitting(f"{a} {ac} passes {d} {dc}", f"{a} {ac} > {d} {dc}", f"{a} passes {d}")
    return first_fitting(f"{d} {dc} holds {a} {ac}", f"{d} {dc} >= {a} {ac}", f"{d} holds {a}")


def _recent(state: State, room: int) -> list[Text]:
    lines = [outcome_line(state, o) for o in state.last]
    return [Text(t) for t in lines[-room:]] if room > 0 else []


def _act(state: State) -> View:
    car = state.actor
    pos = state.order.index(car) + 1
    ahead = state.ahead(car)
    title = f"L{state.lap} {state.name(car)}"
    info = []
    if ahead is None:
        info.append(Text("Leads: extend/discard"))
    else:
        tail = f" {state.left[ahead]} left"      # one wording; a long name is shortened
        info.append(Text(f"Ahead: {short(state, ahead, LINE_CHARS - len('Ahead: ') - len(tail))}{tail}"))
    passed = f"passed {state.passes}, " if state.passes else ""
    if state.cars[car].auto:
        info.append(Text(first_fitting(f"Auto: {passed}{cards(state.left[car])}", f"Auto: {cards(state.left[car])}")))
    else:
        mine = f"{passed.capitalize()}{cards(state.left[car])}" if passed else f"{cards(state.left[car])} left"
        info.append(Text(mine))
    body = _recent(state, 4 - len(info)) + info
    return _titled(title, body[-4:], ordinal(pos))


def _challenge(state: State) -> View:
    a, d = state.actor, state.defender
    plays = dict(state.plays)
    pending = waiting(state)
    lines = _team_note(state, a, d) or [Text(f"Challenge for {ordinal(state.order.index(d) + 1)}")]
    for c in (a, d):
        if state.left[c] == 0 and c not in plays:
            what = "no cards"
        elif c in plays:
            what = "card down"
        elif state.cars[c].auto:
            what = "choosing"
        else:
            what = "to enter"
        lines.append(Text(row(f"{short(state, c)} ({state.left[c]})", what)))
    humans = [c for c in pending if not state.cars[c].auto]
    if state.redline >= 0:
        lines.append(Text(first_fitting(f"{short(state, state.redline)}: R with which?", "R with which card?")))
    elif humans and len(pending) == len(humans):
        lines.append(Text(first_fitting(f"{state.name(humans[0])}: card played?",
                                        f"{short(state, humans[0])}: card?")))
    return _titled(f"{short(state, a)} > {short(state, d)}", lines[:4], f"L{state.lap}")


def _discard(state: State) -> View:
    car = state.actor
    body = [Text(first_fitting(f"{state.name(car)}: which card", f"{short(state, car)}: which card")),
            Text("is discarded?"),
            Text("R + a card: discard 2" if state.redline < 0 else "R with which card?"),
            Text(f"{cards(state.left[car])} left")]
    return _titled(f"L{state.lap} Discard", body, ordinal(state.order.index(car) + 1))


AUTO_TAG = " A"
"""After an automated car's name in the cards-left list (the list's key says so)."""


def table_items(state: State) -> list[str]:
    """The cards-left list: every car, front to back, its cards left (``2 Blue A   9 left``)
    and the cards it has played face up (``played 8 R 9 E2``); then their key."""
    order = final_order(state) if state.order else tuple(range(len(state.cars)))
    items = []
    for i, c in enumerate(order, start=1):
        left = f"{state.left[c]} left"
        tag = AUTO_TAG if state.cars[c].auto else ""
        room = MENU_CHARS - len(left) - 1 - len(f"{i} ") - len(tag)   # a long name is shortened, the tag kept
        items.append(row(f"{i} {short(state, c, room)}{tag}", left, MENU_CHARS))
        line = " played"
        for p in (card_text(state, n) for n in state.played[c]):
            if len(line) + len(p) + 1 > MENU_CHARS:
                items.append(line)
                line = "  "
            line += " " + p
        items.append(line if state.played[c] else " nothing played")
    return items + table_key(state)


def table_key(state: State) -> list[str]:
    """What the cards-left list writes short: ``A`` (when a car is automated), then each
    card whose name is shortened (``E1: Extend 1``) and the Redline (``R: Redline``)."""
    key = ["A: automated car"] if state.autos else []
    for d in state.settings.suit:
        code = card_text(state, d.name)
        if d.redline:
            key.append(fit(f"{code}: Redline", MENU_CHARS))
        elif code != d.name:
            key.append(fit(f"{code}: {d.name}", MENU_CHARS))
    return key


def _table(state: State) -> View:
    return _titled("Cards left", [Menu(tuple(table_items(state)), -1)], f"L{state.lap}" if state.lap else "")


def _standings_view(state: State, title: str, rows) -> View:
    items = [result_line(r["position"], r["name"], r["points"], MENU_CHARS) for r in rows]
    totals = player_totals(rows)
    if totals:      # 2-3 players run two cars each: each player's total too
        items += ["Players:"] + [result_line(r["position"], r["name"], r["points"], MENU_CHARS) for r in totals]
    return _titled(title, [Menu(tuple(items), -1)], _race_status(state))


def owner_of(state: State, car: int) -> str:
    """The player driving ``car`` when its name does not say so (``Yellow``, Red's second
    car: ``Red``), else ``""`` (``Red``, ``Ann 2``, any car of a one-car race)."""
    c = state.cars[car]
    return "" if c.name.startswith(c.owner_name) else c.owner_name


def drivers_lines(state: State, auto: bool | None = None) -> list[str]:
    """Who drives which cars, when a player runs more than one: ``Red: Red, Yellow``
    (``Yellow: Yellow White`` where a line is short of room); ``auto``: only
    the automated (True) or the human (False) players. A named player's cars say their colours,
    a line a car (``Ann 2: Yellow car``): the board holds colours, not names."""
    cars: dict[str, list[Car]] = {}
    for car in state.cars:
        if auto is None or car.auto == auto:
            cars.setdefault(car.owner_name, []).append(car)
    if len({car.owner for car in state.cars}) == len(state.cars):
        return []
    lines = []
    for who, own in cars.items():
        names = [c.name for c in own]
        if any(c.name != c.colour for c in own):
            lines += [first_fitting(f"{c.name}: {c.colour} car", f"{c.colour}: {c.name}", limit=MENU_CHARS)
                      for c in own]
            continue
        lines.append(first_fitting(f"{who}: {', '.join(names)}", f"{who}: {' '.join(names)}", limit=MENU_CHARS))
    return lines


# -- what the companion decided (pause menu) -------------------------------------------------

def decisions(state: State) -> View:
    items = [f"Race {state.race}" + (f" of {state.settings.races}" if state.championship else ""),
             fit(f"Table deck: {counted(len(state.humans), 'suit')}", MENU_CHARS),
             fit(f"Device: {counted(len(state.autos), 'auto hand')}", MENU_CHARS) if state.autos else "All hands at table"]
    if state.autos:
        items.append("Auto hands: secret")
    drivers = drivers_lines(state)
    if drivers:
        items += ["Who drives:"] + drivers
    if state.grid:
        items.append("Grid (qualifying):")
        items += grid_items(state)
    items += table_items(state)
    if state.championship and state.finishes:
        items.append(f"After race {len(state.finishes)}:")
        items += [result_line(r["position"], r["name"], r["points"], MENU_CHARS) for r in championship_table(state)]
    return _titled("Decisions", [Menu(tuple(fit(i, MENU_CHARS) for i in items), -1)])


# -- receipts --------------------------------------------------------------------------------

def receipts(state: State) -> dict:
    from companion.receipts import layouts

    out = {}
    if state.grid or state.finishes:
        out["program"] = _program(state, layouts)
    if state.step == DONE:
        out["results"] = _results(state, layouts)
    return out


def _car_lines(state: State) -> list[str]:
    lines = []
    for c, car in enumerate(state.cars):
        who = f"auto ({car.level})" if car.auto else "human"
        owner = owner_of(state, c)
        lines.append(f"{car.name}: {who}" + (f" ({owner}'s)" if owner else ""))
    return lines


def _program(state: State, layouts):
    each = state.settings.cars_each(len({c.owner for c in state.cars}))
    lines = [f"{len(state.cars)} cars, {each} per player",
             f"Table deck: {counted(len(state.humans), 'suit')} (humans)",
             f"Device: {counted(len(state.autos), 'suit')} (automated)"]
    if state.championship:
        lines.insert(0, f"Championship race {state.race} of {state.settings.races}")
    if state.tie_crash:
        lines.append("A tie in a challenge crashes both cars")
    lines += _car_lines(state)
    first = dict(state.quali)
    rolls = dict(state.rolls)
    grid = [{"name": state.name(c), "cards": cards_text(state, first.get(c, ())),
             "roll": "/".join(str(r) for r in rolls.get(c, ())) or "-"}
            for c in (state.grid or ())]
    cols = (layouts.Col("cards", "Card", 7, legend="qualifying card"), layouts.Col("roll", "Die", 5, legend="tie die"))
    return layouts.race_program(GAME, lines, grid, columns=cols)


def _results(state: State, layouts):
    from companion.receipts.model import Feed, Line, Receipt, Rule

    finish = state.finishes[-1] if state.finishes else final_order(state)
    pts = state.settings.points
    rows = [{"position": i + 1, "name": state.name(c), "start": state.grid.index(c) + 1 if c in state.grid else None,
             "left": state.left[c], "points": pts[i] if i < len(pts) else 0} for i, c in enumerate(finish)]
    cols = (layouts.Col("start", "Grid", 5, legend="starting place"), layouts.Col("left", "Left", 5, legend="cards left"),
            layouts.POINTS)
    head = ([f"Championship race {state.race} of {state.settings.races}"] if state.championship else []) + \
        [counted(state.lap, "lap")]
    items = [*(line for text in head for line in layouts.wrapped(text)), Rule(), *layouts.table(rows, cols),
             *layouts.legend(cols), Rule()]
    crashed = [state.name(c) for g in state.crashed for c in g]
    if crashed:
        items += layouts.wrapped("Crashed: " + ", ".join(crashed))
    chart = layouts.lap_chart_picture(rows, lap_chart(state))
    if chart:
        items += [*chart, Rule()]
    table = championship_table(state) if state.championship else standings(state)
    if state.championship:
        rows = [{**r, "results": r["races"]} for r in table]
        items += [Line("Championship", bold=True),
                  *layouts.championship_table(rows, layouts.Col("points", "Pts", 5, legend="championship points")),
                  Rule()]
    totals = player_totals(table)
    if totals:
        said = "championship points" if state.championship else "points"
        cols = (layouts.Col("points", "Pts", 5, legend=f"{said} of the player's cars"),)
        items += [*layouts.players_table(totals, cols), Rule()]
    items.append(Feed(2))
    return Receipt("results", f"{GAME} results", tuple(items))
