"""3-Wide on the 128x64 screen and on paper.

The title names the car (and its owner) or the phase; the status shows the leader's lap
of the race's laps ("L12/40") or the flag. The body's four lines give the car's
dashboard at a glance (tire chips as letters B G Y R, fuel, damage and handling, its
markers) and what the last press did (the roll, the trigger card, a wreck, the pace).
"""

from __future__ import annotations

from typing import Any

from companion.core.names import counted
from companion.kit import keys
from companion.kit.text import first_fitting, fit, row
from companion.profile import LINE_CHARS, MENU_CHARS
from companion.receipts import layouts
from companion.receipts.model import Feed, Line, Receipt, Rule
from companion.ui.view import Big, Menu, Row, Text, View

from companion.games.three_wide import dice, rules as R, tables

GAME = "3-Wide"
TITLE_ROOM = MENU_CHARS          # title and status together
CHIP = "BGYR"
KEY = (*keys.TIRE_DICE, "F3 = fuel 3", "D1 = damage 1", "H2 = handling 2", "L2 = lap 2",
       "1/4 = 1st car of 4")
"""The dashboard's codes (``Tires BBGB``, ``F3 D0H1``), a die's face (``6xx``) and the
status (``1/4 L0``: the car rolling, its lap): pause menu > Key."""
SHORT_STOP = {"splash": "Splash", "one-side": "1 Side", "full": "Full", "major-repair": "Major"}


def num(state: R.State, c: int) -> str:
    return f"#{state.cars[c].number}"


def chips(car: R.Car) -> str:
    return "".join(CHIP[w] for w in car.tires)


def _status(state: R.State) -> str:
    lead = max((c.lap for c in state.cars if not c.out), default=0)
    if state.yellow:
        return "YELLOW"
    if state.gwc:
        return "G-W-C"
    return f"L{lead}/{state.settings.laps}"


def _view(title: str, body, state: R.State, status: str | None = None) -> View:
    status = _status(state) if status is None else status
    title = fit(title, TITLE_ROOM - (len(status) + 1 if status else 0))
    return View(title, tuple(body), status=status)


def _line(text: str) -> Text:
    return Text(fit(text, LINE_CHARS))


def dashboard(state: R.State, c: int) -> list[Any]:
    """Two lines: tires and fuel; damage, handling and markers."""
    car = state.cars[c]
    tank = state.settings.tank
    fuel = "F+" if car.fuel > tank else "E" if car.fuel == 0 else f"{car.fuel}/{tank}"
    first = Row(f"Tires {chips(car)}", f"Fuel {fuel}")
    marks = " ".join(car.markers + (("Sling",) if any(x[0] == c for x in state.slings) else ()))
    state_word = "ROOF" if car.roof else "PITS" if car.stuck else "OUT" if car.out else ""
    second = row(f"Dmg {car.damage} Hnd {car.handling}", " ".join(x for x in (state_word, marks) if x))
    return [first, _line(second)]


# -- what the last press did --------------------------------------------------------

def news_lines(state: R.State, news=None) -> list[str]:
    out: list[str] = []
    for item in (state.news if news is None else news):
        out.extend(_news(state, item))
    return [fit(x, LINE_CHARS) for x in out]


def _news(state: R.State, item: tuple) -> list[str]:
    kind = item[0]
    if kind == "deal":
        return ["Dealt " + " ".join(str(n) for n in item[1]) + " cards"]
    if kind == "reveal":
        return ["Tactics revealed"] if state.played else ["No tactics played"]
    if kind == "tactic":
        cd = R.card(state, item[1])
        return [f"{num(state, item[2])} {cd.name}"]
    if kind == "skip":
        return [f"{num(state, item[2])} {R.card(state, item[1]).name}: no"]
    if kind == "returned":
        return [f"{num(state, item[2])} {R.card(state, item[1]).short}: to hand"]
    if kind == "blocked":
        return [f"{num(state, item[1])} blocked: {R.card(state, item[2]).short} off"]
    if kind == "sling":
        _, c, front, ok = item
        return [f"{num(state, c)} sling on {num(state, front)}" if ok else "No Slingshot left"]
    if kind == "slingshot":
        return [f"{num(state, item[1])} slingshot: 2"]
    if kind == "skill":
        return [f"{num(state, item[1])} {tables.SKILL_NAMES[item[2]]}"]
    if kind == "reshuffle":
        return ["Discards reshuffled"]
    if kind == "short":
        return [f"Deck empty: {item[1]} short"]
    if kind == "no-card":
        return ["No card left: forgiven"]
    if kind == "no-front":
        return [f"{num(state, item[1])}: nobody in line"]
    if kind == "debris":
        return ["Debris: yellow at check"]
    if kind == "grid":
        return ["Grid: " + " ".join(num(state, c) for c in state.grid[:4])]
    if kind == "roll":
        _, c, faces, marker, placed = item
        line = [f"{num(state, c)} " + " ".join(faces)]
        if marker:
            bangs = dice.trouble(faces)
            what = "Tire marker" if marker == "Tire" else "INCIDENT"
            line.append(f"{bangs} '!': {what}" if placed else f"{bangs} '!': no {marker} left")
        return line
    if kind == "die":
        _, c, face, want, save, wear = item
        extra = (" +1 fuel" if save else "") + (f" wear {wear}" if wear else "")
        return [f"{num(state, c)} {face}: go {want}{extra}"]
    if kind == "land":
        _, c, space, gained = item
        return [f"{num(state, c)} at {space}" + (" +1 lap" if gained else "")]
    if kind == "marker":
        _, c, m, ok = item
        return [f"{num(state, c)} {m} marker" if ok else f"No {m} marker left"]
    if kind == "trigger":
        cd = R.card(state, item[1])
        return [f"Trigger {cd.name}", "Yellow box: " + (" ".join(cd.trigger) or "none")]
    if kind == "brake":
        return [f"{num(state, item[1])} brake: -1 damage"]
    if kind == "engine":
        return [f"{num(state, item[1])} engine: -1 handling"]
    if kind == "wreck":
        _, c, marker, res, wreck = item
        cd = R.card(state, res)
        return [f"{num(state, c)} {marker}: {cd.flag}",
                f"Wreck -{cd.damage}: " + " ".join(num(state, w) for w in wreck)]
    if kind == "flag":
        return ["YELLOW FLAG" if item[1] == "yellow" else "Track stays green"]
    if kind == "pace":
        _, face, fuel, wear, laps, first = item
        lead = [f"{num(state, first)} leads a lap"] if first >= 0 else []
        return [f"Pace {face}: {fuel}F {wear}T {counted(laps, 'lap')}"] + lead
    if kind == "dry":
        return [f"{num(state, item[1])} out of fuel -1 lap"]
    if kind == "catch-up":
        return [f"{num(state, item[1])} catches up a lap"]
    if kind == "gwc":
        return ["Final lap under yellow", "Green-white-checker!"]
    if kind == "to-pit":
        return [f"{num(state, item[1])} pits"]
    if kind == "stop":
        _, c, stop, extra, rolls, fixed, stuck = item
        name = SHORT_STOP.get(stop, stop) + ("+Adj" if extra else "")
        adjust = (" " + " ".join(map(str, rolls)) + ":") if rolls else ""
        fix = f" -{fixed}" if fixed or rolls else ""
        words = [f"{num(state, c)} {name}{adjust}{fix}"]
        if stuck:
            words.append(f"{num(state, c)} stays in pit lane")
        return words
    if kind == "back":
        _, c, time, space, lost = item
        return [f"{num(state, c)} time {time}: to {space} -{lost}L"]
    if kind == "boxes":
        return ["Boxes " + " ".join(num(state, c) for c in state.boxes)] if state.boxes else ["All stay out"]
    if kind == "restart":
        grid, waved = state.restarts[item[1] - 1]
        lines = ["Restart: " + " ".join(num(state, c) for c in grid)]
        if waved:
            lines.append("Waved round " + " ".join(num(state, c) for c in waved))
        return lines
    return []


# -- the views ----------------------------------------------------------------------

def view(state: R.State) -> View:
    p = state.phase
    if p == R.START:
        n = len(state.players)
        per = R.team_size(n)
        body = [_line(state.settings.race_label), _line(f"{state.settings.track_label} {counted(state.settings.laps, 'lap')}"),
                _line(f"{counted(n, 'team')} of {counted(per, 'car')}"), _line("GO: draw the grid")]
        return _view(GAME, body, state, status="")
    if p == R.OVER:
        return _over(state)
    if p in (R.ROLL, R.CHOOSE, R.PLACE):
        return _racing(state)
    if p == R.DEAL and state.fill and state.grid:
        return _grid_view(state)
    if p == R.DEAL:
        body = [_line(x) for x in news_lines(state)[-2:]]
        fill = "hands to 5" if state.fill else "1 card each"
        body += [_line(f"Turn {state.turn}: tactics"), _line(f"GO: deal, {fill}")]
        return _view("Tactics", body, state)
    if p == R.TACTICS:
        return _tactics(state)
    if p == R.TACTIC:
        return _tactic(state)
    if p == R.CHECK:
        body = [_line(x) for x in news_lines(state)[-2:]]
        marked = [f"{num(state, i)} {'+'.join(c.markers)}" for i, c in enumerate(state.cars) if c.markers]
        body.append(_line(first_fitting("Markers: " + " ".join(marked), " ".join(marked)) if marked else "No markers"))
        body.append(_line("GO: turn trigger card"))
        return _view("Incidents", body, state)
    if p == R.WRECK:
        c, marker, res = state.todo[0]
        cd = R.card(state, res)
        body = [Text(fit(f"{num(state, c)} {marker}: {cd.flag.upper()} flag", LINE_CHARS)),
                _line(f"{counted(cd.cars, 'car')}, -{cd.damage} each"),
                _line("Wreck " + " ".join(num(state, w) for w in state.wreck_cars)),
                _line("GO: OK, or correct it")]
        return _view("Incident", body, state, f"{len(state.todo)} left")
    if p == R.LEADER:
        body = [_line(x) for x in _check_lines(state, 3)] + [_line("GO: leader rolls pace")]
        return _view("Leader", body, state)
    if p == R.CAUTION:
        body = [Text("YELLOW FLAG")] + [_line(x) for x in _check_lines(state, 2)]
        body.append(_line("GO: caution pace"))
        return _view("Caution", body, state)
    if p == R.PITS:
        forced = [num(state, c) for c in R.race_order(state, R._with_stuck(state))
                  if R.must_pit(state, c) and c not in state.pitted and not state.cars[c].roof]
        body = [_line(x) for x in news_lines(state)[-2:]]
        body.append(_line("Must pit: " + " ".join(forced)) if forced else _line("Green-flag pit stops?"))
        declared = " ".join(num(state, c) for c in state.pitted)
        body.append(_line(f"Pitting: {declared}" if declared else "Declare in race order"))
        return _view("Pit stops", body, state)
    if p == R.YPIT:
        left = [num(state, c) for c in R.race_order(state)
                if c not in state.boxes and not state.cars[c].roof]
        roofs = [num(state, c) for c in R.race_order(state) if state.cars[c].roof]
        body = [_line("Pit or stay out?"), _line("Pitting: " + (" ".join(num(state, c) for c in state.boxes) or "none")),
                _line("Out: " + " ".join(left))]
        body.append(_line("Roof, to pits: " + " ".join(roofs)) if roofs else _line(news_lines(state)[-1] if state.news else ""))
        return _view("Caution", body, state)
    if p in (R.SERVICE, R.YSERVICE):
        c = state.car
        where = (f"box {state.boxes.index(c) + 1}" if p == R.YSERVICE
                 else f"green {state.boxes.index(c) + 1}/{len(state.boxes)}")
        body = dashboard(state, c) + [_line(f"Pit stop, {where}")]
        news = news_lines(state)
        body.append(_line(news[-1]) if news else _line("Choose the stop"))
        return _view(f"{num(state, c)} {state.players[state.cars[c].owner]}", body, state)
    return _view(GAME, [], state)


def _check_lines(state: R.State, n: int) -> list[str]:
    """The incident check's outcome in ``n`` lines: the trigger card, then what it did
    (the yellow box only when nothing happened, the flag only under green)."""
    lines = news_lines(state, [x for x in state.news if x[0] != "flag" or not state.yellow])
    if len(lines) > n:
        lines = [x for x in lines if not x.startswith("Yellow box")]
    if len(lines) > n:
        lines = [x for x in lines if x != "Track stays green"]
    return lines[:n]


EFFECT_WORDS = {
    "move": "moves {n}", "move-now": "rolls dice now", "push": "pushes: both {n}",
    "bump-draft": "draft: both {n}", "draft-front": "+ line ahead: {n}", "draft-behind": "+ line behind: {n}",
    "block": "blocks behind", "bump-and-run": "bumps out, go {n}", "slingshot": "2 when front goes",
    "debris": "yellow at check",
}
"""What a tactic does, after the car number (16 characters at most)."""


def grid_lines(state: R.State, grid, width: int = LINE_CHARS) -> list[str]:
    """Car numbers in grid order, as many to a line as fit."""
    lines, line = [], ""
    for c in grid:
        word = str(state.cars[c].number)
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + ([line] if line else [])


def _grid_view(state: R.State) -> View:
    """The grid the table lines up on: the start, or the latest restart, pole first."""
    if state.restarts:
        grid, waved = state.restarts[-1]
        head = f"Restart {len(state.restarts)}, pole first"
    else:
        grid, waved, head = state.grid, (), "Grid, pole first"
    body = [_line(head)] + [_line(x) for x in grid_lines(state, grid)]
    if waved:
        body.append(_line("Waved round " + " ".join(str(state.cars[c].number) for c in waved)))
    body.append(_line("GO: deal, hands to 5"))
    return _view("Line up", body[:4] if len(body) > 4 else body, state)


def _tactics(state: R.State) -> View:
    p = state.actor
    who = state.players[p]
    cars = " ".join(num(state, c) for c in R.race_order(state, range(len(state.cars))) if state.cars[c].owner == p)
    deck = news_lines(state, [n for n in state.news if n[0] in ("reshuffle", "short")])
    if not state.show:
        body = [_line(f"{who}: your tactics"), _line(deck[0] if deck else f"Cars {cars}"), _line("Others look away"),
                _line(f"GO: show {counted(len(state.hands[p]), 'card')}")]
        return _view(f"Tactics {p + 1}/{len(state.players)}", body, state)
    hand = [R.card(state, i) for i in state.hands[p]]
    items = [fit(f"{cd.number:>2} {cd.name}", MENU_CHARS) for cd in sorted(hand, key=lambda c: c.number)]
    played = [f"{R.card(state, i).short}>{num(state, c)}" for i, c in state.played if state.cars[c].owner == p]
    if played:
        items.append(fit("Played " + " ".join(played), MENU_CHARS))
    items += [fit(x, MENU_CHARS) for x in deck]
    return _view(f"{who}: hand", [Menu(tuple(items) or ("No cards",), -1)], state)


def _tactic(state: R.State) -> View:
    i, c = state.played[state.step]
    cd = R.card(state, i)
    words = EFFECT_WORDS.get(cd.effect, "table applies it").format(n=cd.move)
    body = [Text(fit(cd.name, LINE_CHARS)), _line(f"{num(state, c)} {words}")]
    body += [_line(x) for x in news_lines(state)[-1:]]
    body.append(_line("GO: resolve"))
    return _view(f"Tactic {cd.number}", body, state, f"{state.step + 1}/{len(state.played)}")


def _racing(state: R.State) -> View:
    c = state.mover
    car = state.cars[c]
    title = f"{num(state, c)} {state.players[car.owner]}"
    status = (f"{state.k + 1}/{len(state.rollers)} L{car.lap}" if state.stage == "racing" else f"TAC L{car.lap}")
    if state.phase == R.PLACE:
        news = news_lines(state)
        body = [Big(str(state.proposal), caption=fit(f"go {state.want}: land here?", LINE_CHARS))]
        return _view(title, body + [_line(news[-1] if news else "")], state, status)
    body = dashboard(state, c)
    if state.phase == R.ROLL:
        body = [_line(x) for x in news_lines(state)[-2:]] + body
        return _view(title, body[-3:] + [_line(f"GO: roll {chips(car)}")], state, status)
    body = [_line(x) for x in news_lines(state)] + body
    body.append(_line("Pick a die: go/fuel/x"))
    return _view(title, body[:4], state, status)


def _over(state: R.State) -> View:
    items = tuple(fit(f"{r['position']} {r['name']}", MENU_CHARS - 4).ljust(MENU_CHARS - 4)
                  + str(r["points"]).rjust(4) for r in R.standings(state))
    players = tuple(fit(f"{r['name']}", MENU_CHARS - 4).ljust(MENU_CHARS - 4) + str(r["points"]).rjust(4)
                    for r in R.player_scores(state))
    return View("Results", (Menu(items + ("Players:",) + players, -1),), status="END")


def track_lines(state: R.State) -> list[str]:
    """The track the companion follows, as the table can check it on the poster: its
    spaces, each corner's spaces, each brake zone."""
    s = state.settings
    lines = [f"{s.track_label}: {s.spaces} sp"]
    rows = sorted(s.corners)
    runs: list[list[int]] = []
    for r in rows:
        if runs and r == runs[-1][-1] + 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    lines += [f"corner sp {3 * run[0] + 1}-{3 * run[-1] + 3}" for run in runs]
    lines += [f"brake sp {space}: max {limit}" for space, limit in s.brakes]
    return lines


def decisions(state: R.State) -> View:
    """What the companion decided: the grid, every restart grid, the cards it turned."""
    items = [f"{state.settings.race_label}", f"{counted(state.settings.laps, 'lap')}, turn {state.turn}", *track_lines(state)]
    if state.grid:
        items.append("Starting grid:")
        items.extend(f"{i + 1:>2} {num(state, c)} {state.players[state.cars[c].owner]}" for i, c in enumerate(state.grid))
    for n, (grid, waved) in enumerate(state.restarts, start=1):
        items.append(f"Restart {n}:")
        items.extend(f"{i + 1:>2} {num(state, c)}" + (" waved" if c in waved else "") for i, c in enumerate(grid))
    items.append("Last turn:")
    items.extend(news_lines(state))
    items.append("Skills:")
    for p, tokens in enumerate(state.skills):
        held = " ".join(f"{n}{k[0].upper()}" for k, n in zip(tables.SKILLS, tokens) if n)
        items.append(f"{state.players[p]} {held or '-'}")
    items.append("Cars:")
    for i, car in enumerate(state.cars):
        items.append(f"{num(state, i)} {chips(car)} F{car.fuel} D{car.damage}H{car.handling} L{car.lap}")
    return View("Decisions", (Menu(tuple(fit(x, MENU_CHARS) for x in items), -1),))


# -- paper --------------------------------------------------------------------------

def _heading(state: R.State) -> list[str]:
    s = state.settings
    return [f"{s.track_label}, {counted(s.laps, 'lap')}",
            f"{counted(len(state.players), 'team')}, {counted(len(state.cars), 'car')}"]


ROLE = layouts.Col("role", "Role", 7, legend="team: a team car; assoc.: an associated car, "
                                                  "half its points to its player")


def _grid_items(state: R.State, grid, key: bool = True) -> list:
    """A grid in the results' layout; ``key``: with the key to its columns."""
    rows = [{"name": R.car_name(state, c), "role": "team" if state.cars[c].team else "assoc."} for c in grid]
    cols = (ROLE,) if any(not car.team for car in state.cars) else ()   # every car a team car: no role to say
    return [*layouts.table(rows, cols), *(layouts.legend(cols) if key else ())]


def program(state: R.State) -> Receipt:
    """The race program: the starting grid; after a caution the latest restart grid comes
    first, so the pause menu's "Print program" gives the table the grid to line up."""
    items: list = [*(Line(x) for x in _heading(state)), Rule()]
    if state.restarts:
        n = len(state.restarts)
        items += [Line(f"Restart {n} grid (turn {state.turn})", bold=True), *restart(state, n).items[:-1], Rule()]
        items.append(Line("Starting grid", bold=True))
    items += [*_grid_items(state, state.grid), Rule(), Feed(2)]
    return Receipt("program", state.settings.race_label, tuple(items))


def restart(state: R.State, n: int, key: bool = True) -> Receipt:
    grid, waved = state.restarts[n - 1]
    items = [*_grid_items(state, grid, key)]
    if waved:
        items.extend(layouts.wrapped("Waved around (+1 lap): " + " ".join(num(state, c) for c in waved)))
    return Receipt("restart", f"Restart {n}", (*items, Feed(2)))


def lap_chart(state: R.State) -> Receipt:
    items: list = [Line("Car numbers in race order"), Rule()]
    for lap, order in state.chart:
        text = f"L{lap}: " + " ".join(str(state.cars[c].number) for c in order)
        items.extend(layouts.wrapped(text))
    return Receipt("lap-chart", "Lap chart", (*items, Feed(2)))


PLAYER_COLUMNS = (
    layouts.Col("team", "Team", 5, legend="team cars' points"),
    layouts.Col("associated", "Assoc", 6, legend="associated cars' points"),
    layouts.Col("points", "Pts", 5, legend="the player's score, Team + half of Assoc (rounded down)"),
)
"""The players' table (4.1): a player scores their team cars' points and half their
associated cars' points; where every car is a team car, only the points."""
TEAM_POINTS = layouts.Col("points", "Pts", 5, legend="the player's score, their cars' points")


def results(state: R.State) -> Receipt:
    rows = R.standings(state)
    base = layouts.results(f"{GAME} results", rows, lines=[state.settings.race_label, *_heading(state)],
                           columns=(layouts.LAPS, layouts.LED, layouts.POINTS))
    items = list(base.items[:-1])
    if not isinstance(items[-1], Rule):     # the bonuses earned
        items.append(Rule())
    cols = PLAYER_COLUMNS if any(not car.team for car in state.cars) else (TEAM_POINTS,)
    items.extend(layouts.players_table(R.player_scores(state), cols))
    items.append(Rule())
    summary = R.summary(state)
    items.extend(layouts.wrapped(f"Cautions {summary['cautions']}, pit stops {summary['pit_stops']}, "
                                 f"demolished {summary['demolished']}"))
    for n in range(1, len(state.restarts) + 1):
        items.append(Rule())
        items.append(Line(f"Restart {n}", bold=True))
        items.extend(restart(state, n, key=n == 1).items[:-1])     # the key once
    items.append(Rule())
    drawn = layouts.lap_chart_picture(rows, R.lap_chart(state), lap_chart(state).items[:-1])
    items.extend(drawn or [Line("Lap chart", bold=True), *lap_chart(state).items[:-1]])
    return Receipt("results", base.title, (*items, Feed(2)))


def receipts(state: R.State) -> dict[str, Receipt]:
    out: dict[str, Receipt] = {}
    if state.grid:
        out["program"] = program(state)
    if state.restarts:
        out["restart"] = restart(state, len(state.restarts))
    if state.chart:
        out["lap-chart"] = lap_chart(state)
    if R.finished(state):
        out["results"] = results(state)
    return out
