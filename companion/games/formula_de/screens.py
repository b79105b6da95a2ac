"""Formula Dé on the 128x64 screen and on paper: the words for the rules' facts.

The dashboard is one line: ``T6 B3 G3 C3 E3 H2`` (tires, brakes, gearbox, car body,
engine, road handling); the zone that changed last carries a ``*``. A gear's roll fills
the body in big digits; a turn's outcome (checks, WP lost, markers to place) has a
screen of its own; the round ends on every car's dashboard.
"""

from __future__ import annotations

from companion.games.formula_de import advisor
from companion.games.formula_de import qualifying
from companion.games.formula_de import results as FR
from companion.games.formula_de import rules as R
from companion.games.formula_de import tables as T
from companion.core.names import counted
from companion.kit.standings import ordinal
from companion.kit.text import first_fitting, fit, row
from companion.profile import ADVANCE, MENU_CHARS, WIDTH, chars
from companion.receipts import layouts
from companion.receipts.layouts import POINTS, Col
from companion.receipts.model import Line, Receipt, Rule, Feed
from companion.ui.view import Big, Menu, Text, View

TITLE_CHARS = MENU_CHARS   # the title and the status together
STATUS_CHARS = chars(WIDTH // 2)   # the status box takes at most half the title bar
STATUS_WEATHER = {T.GOOD: "dry", T.CHANGEABLE: "changeable", T.RAIN_CHANGEABLE: "rain/chg", T.RAINY: "rain"}
ZONE_LETTERS = {T.TIRES: "T", T.BRAKES: "B", T.GEARBOX: "G", T.BODY: "C", T.ENGINE: "E", T.HANDLING: "H"}
KEY = ("T6 B3 G3 C3 E3 H2:", "wear points left", "T = tires", "B = brakes", "G = gearbox", "C = body",
       "E = engine", "H = handling", "* = changed last", "C2 = corner 2", "L2/3 = lap 2 of 3")
"""The dashboard's zones, a corner, a lap (``C2*``, ``in C2: stop 1/2``): pause menu > Key."""
ZONE_WORDS = {T.TIRES: "tires", T.BRAKES: "brakes", T.GEARBOX: "gearbox", T.BODY: "body",
              T.ENGINE: "engine", T.HANDLING: "handling"}
WEATHER_WORDS = {T.GOOD: "good", T.CHANGEABLE: "changeable", T.RAIN_CHANGEABLE: "rain, may change",
                 T.RAINY: "rain"}
CHECK_WORDS = {"collision": "collision", "handling": "marker", "engine": "engine", "noise": "noise shot",
               "radio": "radio"}


DASHBOARD_WORDS = ("WP: wear points left", "T tires  B brakes", "G gearbox  C body", "E engine  H handling",
                   "*: changed last")
"""The dashboard in words, under the lists that show it (the grid, a round's end)."""


def name(state: R.State, c: int) -> str:
    """A car's name as it was entered, the same on every screen and on paper."""
    return state.cars[c].name[:R.NAME_CHARS]


def dashboard(car: R.Car) -> str:
    """``T6 B3 G3 C3 E3 H2``, ``*`` after the zone that changed last."""
    out = ""
    for zone, wp in zip(T.ZONES, car.wp):
        out += f"{ZONE_LETTERS[zone]}{wp}" + ("*" if zone == car.zone else " ")
    return out.rstrip()


def bar(title: str, status: str) -> tuple[str, str]:
    """The title and the status as the title bar shows them whole."""
    status = status[:STATUS_CHARS]
    room = min(TITLE_CHARS - len(status), chars(WIDTH - len(status) * ADVANCE - 8))
    return title[:room], status


def _title(state: R.State, c: int, status: str) -> tuple[str, str]:
    return bar(name(state, c), status)


def _where(state: R.State, c: int) -> str:
    """Where the car stands: the corner and its stops, or the distance to the next."""
    car = state.cars[c]
    corner, first, last = advisor.coming_corner(state, c)
    if first <= car.dist <= last and car.corner == corner.number:
        return f"in C{corner.number}: stop {car.stops}/{corner.stops}"
    return f"C{corner.number} ({counted(corner.stops, 'stop')}) in {first - car.dist}"


def place(state: R.State, dist: int, word: str = "sp") -> str:
    """Where ``dist`` is on the board, truthfully: ``sp 47`` (spaces from the line on the
    car's lap) on the track, ``grid 3`` (the grid's 3rd box; the pole's, on the line, is
    ``grid 1``) before the car has crossed the line, so no two places read alike."""
    if dist <= 0:
        return f"grid {1 - dist}"
    return f"{word} {dist % state.settings.circuit.length}"


def view(state: R.State) -> View:
    return _VIEWS[state.phase](state)


# -- before the race -------------------------------------------------------------------

def _start_view(state: R.State) -> View:
    s = state.settings
    weather = "weather: roll" if s.weather == "roll" else f"weather: {s.weather}"
    return View(title="Formula Dé", status=counted(len(state.cars), "player"), body=(
        Text(fit(s.circuit.label)), Text(fit(f"{counted(s.laps, 'lap')}, {weather}")),
        Text(fit("team race" if s.team else "single race")), Text("GO: weather and grid")))


def grid_lines(state: R.State) -> list[str]:
    """The weather and the grid with every roll (the decisions view, the grid screen)."""
    s = state.settings
    lines = []
    for rnd, roll, line in state.weather_log:
        when = "weather" if rnd == 0 else f"R{rnd}"
        rolled = f" ({roll})" if roll else ""
        lines.append(fit(f"{when}: {WEATHER_WORDS[line]}{rolled}", MENU_CHARS))
    for k, c in enumerate(state.grid, start=1):
        car = state.cars[c]
        rolls = "/".join(str(r) for r in car.grid_rolls)
        lines.append(row(f"{k} {car.name}", rolls, MENU_CHARS))
        effect = T.start_effect(car.start_roll)
        note = {"poor": "misses turn 1", "great": "+4 spaces", "normal": "normal start"}[effect]
        lines.append(fit(f"  start {car.start_roll}: {note}", MENU_CHARS))
        lines.append(fit(f"  {car.tires} tires" + (", auto" if car.driver != "human" else ""), MENU_CHARS))
        if car.card:
            lines.append(fit(f"  {car.card}: {car.skill}", MENU_CHARS))
    if state.markers:
        lines.append(fit("markers: " + " ".join(str(m) for m in state.markers), MENU_CHARS))
    if s.team:
        lines += [fit(f"team {t + 1} repairs {n} WP", MENU_CHARS) for t, n in enumerate(state.team_repair)]
    return lines


def qualifying_lines(state: R.State) -> list[str]:
    """The qualifying laps, best first: throws (minutes and overshoots included), time."""
    out = []
    for k, c in enumerate(qualifying.order(state), start=1):
        if not state.qual[c]:
            continue
        throws, seconds, back = state.qual[c]
        result = "no stop: back" if back else f"{throws} thr {layouts.format_seconds(seconds)}"
        out.append(row(f"{k} {state.cars[c].name}", result, MENU_CHARS))
    return out


def _qualified_view(state: R.State) -> View:
    tires = [fit(f"  {state.cars[c].tires} tires", MENU_CHARS) for c in range(len(state.cars))]
    lines = []
    for line, c in zip(qualifying_lines(state), qualifying.order(state)):
        lines += [line, tires[c]]
    return View(title="Qualifying", status="grid", body=(Menu(tuple(lines), -1),))


def _grid_view(state: R.State) -> View:
    if state.qualifying:             # the qualifying weather is known: tires, then the laps
        title, status = bar("Qualifying", STATUS_WEATHER[state.qweather])
        rolled = f" ({state.weather_roll})" if state.weather_roll else ""
        lines = [fit(f"weather: {WEATHER_WORDS[state.qweather]}{rolled}", MENU_CHARS)]
        lines += [fit(f"{car.name}: {car.tires} tires" + (", auto" if car.driver != "human" else ""), MENU_CHARS)
                  for car in state.cars]
        return View(title=title, status=status, body=(Menu(tuple(lines), -1),))
    title, status = bar("Grid", STATUS_WEATHER[state.weather])
    return View(title=title, status=status, body=(Menu((*grid_lines(state), *DASHBOARD_WORDS), -1),))


def circuit_lines(state: R.State) -> list[str]:
    """The circuit the companion follows, as the table can check it on the board: its
    name (a stand-in says so), the lap, each corner's spaces and stops, the pit entry."""
    c = state.settings.circuit
    lines = [fit(c.label, MENU_CHARS)]
    if c.assumption:          # the data marks its numbers as an assumption (the stand-ins)
        lines.append(fit("numbers assumed", MENU_CHARS))
    lines.append(fit(f"{c.length} sp a lap, pit {c.pit}", MENU_CHARS))
    chart = {name: (low, high) for name, low, high in c.weather}
    lines.append(fit("rain {}-{} chg {}-{}".format(*chart["rain"], *chart["changeable"]), MENU_CHARS))
    for corner in c.corners:
        lines.append(fit(f"C{corner.number} sp {corner.at}-{corner.end}: {counted(corner.stops, 'stop')}", MENU_CHARS))
    return lines


def decisions(state: R.State) -> View:
    """What the companion decided: the circuit, weather, grid, start rolls, markers (pause menu)."""
    lines = grid_lines(state) if state.grid else ["nothing yet: Start"]
    if state.qualified or state.qualifying:
        lines = (["qualifying:"] + qualifying_lines(state) if state.qualified else ["qualifying now"]) + \
            (lines if state.grid else [])
    return View(title="Decisions", body=(Menu(tuple(circuit_lines(state) + lines), -1),))


# -- a turn ------------------------------------------------------------------------------

def _last_line(state: R.State) -> str:
    t = state.last
    if t is None or t.car < 0:
        return f"Round {state.round}"
    who = name(state, t.car)
    if t.out:
        return fit(f"{who} is OUT")
    moved = t.final - t.start
    return first_fitting(f"{who} moved {moved} to {place(state, t.final, 'space')}",
                         f"{who} moved {moved} to {place(state, t.final)}", f"{who} moved {moved}, {place(state, t.final)}",
                         f"{who}: {moved} to {place(state, t.final)}")


def _gear_view(state: R.State) -> View:
    c = state.car_on
    car = state.cars[c]
    gear = ordinal(car.gear) if car.gear else "grid"   # a gear is an ordinal; G is the gearbox
    title, status = _title(state, c, f"L{state.lap(c)}/{state.settings.laps} {gear}")
    if state.advice:
        return View(title=title, status=status, body=(Menu(tuple(odds_lines(state, c)), -1),))
    if state.qualifying:
        title, status = _title(state, c, f"Q {gear}")
        third = "GO: the car drives" if car.driver != "human" else f"{'rain' if state.rain else 'dry'} lap, WP free"
        return View(title=title, status=status, body=(
            Text(fit(f"throws {state.qthrows}, sp {car.dist}")), Text(fit(_where(state, c))), Text(fit(third)),
            Text(fit("stopwatch running" if state.qthrows else "stopwatch: first throw"))))
    tires = f"{car.tires} tires, {'rain' if state.rain else 'dry'}"
    if car.skill:
        nitro = "" if car.nitro_lap == state.lap(c) else ", nitro"
        tires = f"{car.skill}{nitro}"
    third = "GO: the car drives" if car.driver != "human" else tires
    if car.cap < 6:
        third = f"{'spun: 1st gear' if car.cap == 1 else 'max 4th gear'}"
    return View(title=title, status=status, body=(
        Text(dashboard(car)), Text(fit(_where(state, c))), Text(fit(third)), Text(_last_line(state))))


ODDS_KEY = "gear stop over  out"
"""The odds table's heading: a gear's chance to stop in the corner, to overshoot it, to be out."""


def odds_lines(state: R.State, c: int) -> list[str]:
    """The coming corner, a heading, one line a gear: ``4th   33%  67%   0%`` (the
    chances to end inside the corner, to overshoot it, to be eliminated), under a gear
    that may overshoot how far and the tire WP it costs on average (``  by 1-4, tires
    -1.7``); then a key of those words. All for the full roll without braking."""
    corner = advisor.coming_corner(state, c)[0].number
    out = [fit(_where(state, c), MENU_CHARS), ODDS_KEY]
    pct = advisor.percent
    for o in advisor.odds(state, c):
        over = sum(p for _, p in o.over)
        out.append(f"{ordinal(o.gear):<4}{pct(o.stop):>4}%{pct(over):>4}%{pct(o.out):>4}%")
        if o.over or o.tire:
            spaces = [n for n, _ in o.over]
            by = (f"{spaces[0]}" if len(spaces) == 1 else f"{spaces[0]}-{spaces[-1]}") if spaces else "0"
            tires = f"{float(o.tire):.1f}"
            out.append(first_fitting(f"  by {by}, tires -{tires}", f" by {by} tires -{tires}",
                                     f"by {by} T-{tires}", limit=MENU_CHARS))
    return out + [fit(line, MENU_CHARS) for line in (
        f"stop: ends in C{corner}", f"over: overshoots C{corner}", f"else: ends before C{corner}",
        "by: spaces overshot",
        "tires: WP lost, avg", "out: eliminated", "full roll, no brakes")]


def _report_view(state: R.State) -> View:
    c = state.car_on
    r = state.report
    p = R.preview(state)
    title, status = _title(state, c, f"{ordinal(r.gear)}: {r.roll}")
    parts = [f"roll {r.roll}"]
    if p.slide:
        parts.append(f"+{p.slide} tires")
    if r.soft:
        parts.append("+1 soft")
    if r.slips:
        parts.append(f"+{3 * r.slips} slip")
    if r.brake:
        parts.append(f"-{r.brake} brake")
    if r.blocked:
        parts.append(f"-{r.blocked} blocked")
    if r.nitro:
        parts.append(f"+{r.nitro} nitro")
    if r.skid:
        parts.append(f"{r.skid:+d} skid")
    if r.board:
        parts.append(f"{r.board:+d} board")
    if p.final - p.start < r.roll + p.slide + r.soft + r.nitro + 3 * r.slips + r.skid - r.brake - r.blocked + r.board:
        parts.append("-1 sweet")
    said = " ".join(parts)
    return View(title=title, status=status, body=(Text(first_fitting(said, said.replace("roll ", "", 1))),
                                                  Big(str(p.moved), caption=fit(outcome_caption(state, p)))))


def outcome_caption(state: R.State, p) -> str:
    if p.pit:
        return "into the pit lane"
    if p.out:
        return f"OUT: {p.out}"
    if p.overshoots:
        corner, spaces = p.overshoots[-1]
        return f"overshoots C{corner} by {spaces}"
    to = f"to {place(state, p.final)}"
    if p.corner:
        stops = state.settings.circuit.corners[p.corner - 1].stops
        return f"{to}: C{p.corner} {p.stops}/{stops}"
    if p.finish:
        return f"{to}: FINISH"
    return to + (", car near" if p.contact else "")


def turn_lines(state: R.State, t: R.Turn) -> list[str]:
    """A turn's outcome line by line (the SHOW screen)."""
    lines = []
    if t.auto and t.why:
        lines.append(fit(f"{ordinal(t.gear)}: {t.why}", MENU_CHARS))
    lines.append(fit(f"{ordinal(t.gear)} rolled {t.roll}" + (f", slid {t.slide}" if t.slide else ""), MENU_CHARS))
    if t.pit:
        kind, roll, spaces = t.pit
        lines.append(fit(f"PIT: black {roll}", MENU_CHARS))
        lines.append(fit(f"quick: out {spaces} sp, 4th" if kind == "quick" else "slow: wait a round", MENU_CHARS))
    else:
        lines.append(fit(f"move {t.final - t.start} to {place(state, t.final, 'space')}", MENU_CHARS))
    if t.corner and not t.out:
        stops = state.settings.circuit.corners[t.corner - 1].stops
        lines.append(fit(f"C{t.corner}: stop {t.stops} of {stops}", MENU_CHARS))
    for corner, spaces in t.overshoots:
        lines.append(fit(f"overshot C{corner} by {spaces}", MENU_CHARS))
    for zone, n, cause in t.losses:
        lines.append(fit(f"{ZONE_WORDS[zone]} -{n} {cause}", MENU_CHARS))
    for kind, c, roll, hit in t.checks:
        what = CHECK_WORDS[kind]
        if c != t.car:       # another car's check: its name on a line of its own
            lines.append(fit(f"{name(state, c)}:", MENU_CHARS))
        if kind == "radio":
            lines.append(fit(f"radio {roll}: {ZONE_WORDS[T.radio_zone(roll)]} -1", MENU_CHARS))
            continue
        if kind == "noise":
            zone = T.noise_effect(roll)
            lines.append(fit(f"shot {roll}: " + (f"{ZONE_WORDS[zone]} -1" if zone else "missed"), MENU_CHARS))
            continue
        lines.append(fit(f"{what} {roll}: " + ("HIT -1" if hit else "ok"), MENU_CHARS))
    for c, zone, n, cause in t.gains:
        if c != t.car:
            lines.append(fit(f"{name(state, c)}:", MENU_CHARS))
        lines.append(first_fitting(f"{cause}: {ZONE_WORDS[zone]} +{n}", f"{cause}: {ZONE_LETTERS[zone]}+{n}",
                                   limit=MENU_CHARS))
    if t.spin:
        lines.append("SPIN: 1st gear next")
    for spot in t.markers:
        lines.append(fit(f"marker on space {spot}", MENU_CHARS))
    for c, cause in t.out:
        lines.append(fit(f"{name(state, c)} is OUT: {cause}", MENU_CHARS))
    if t.weather:
        roll, old, new = t.weather
        lines.append(fit(f"weather {roll}: {WEATHER_WORDS[new]}", MENU_CHARS))
    if t.finish:
        lines.append(fit(f"FINISHED {ordinal(t.finish)}", MENU_CHARS))
    return lines


def _show_view(state: R.State) -> View:
    t = state.last
    title, status = _title(state, t.car, "auto" if t.auto else f"L{state.lap(t.car)}")
    return View(title=title, status=status, body=(Menu(tuple(turn_lines(state, t)), -1),))


# -- between rounds and at the end --------------------------------------------------------

def round_lines(state: R.State) -> list[str]:
    out = []
    for k, c in enumerate(R.classification(state), start=1):
        car = state.cars[c]
        if car.out:
            out.append(first_fitting(f"{k} {car.name} out L{car.out_lap}", f"{k} {car.name} out", limit=MENU_CHARS))
            continue
        who = f"{k} {car.name}"       # the name whole: where it is gives way
        if car.place:
            out.append(row(who, "finished", MENU_CHARS))
        else:
            at, gear = place(state, car.dist), ordinal(car.gear)
            wheres = (f"L{state.lap(c)} {at} {gear}", f"{at} {gear}", at)
            out.append(next((row(who, w, MENU_CHARS) for w in wheres if len(who) + 1 + len(w) <= MENU_CHARS),
                            row(who, at, MENU_CHARS)))
        out.append(" " + dashboard(car))
    return out + list(DASHBOARD_WORDS)


def _round_view(state: R.State) -> View:
    title, status = bar(f"Round {state.round} done", STATUS_WEATHER[state.weather])
    return View(title=title, status=status,
                body=(Menu(tuple(round_lines(state)), -1),))


def _over_view(state: R.State) -> View:
    rows = R.standings(state)
    winner = rows[0]["name"][:R.NAME_CHARS] if rows and rows[0]["status"] == "finished" else "RACE"
    lines = []
    for r in rows:
        lines.append(row(f"{r['position']} {r['name']}", f"{r['points']} pts", MENU_CHARS))
        if r["status"] != "finished":
            lines.append(fit(f"  {r['status']}" + (f" L{r['out_lap']}" if "out_lap" in r else ""), MENU_CHARS))
    title, status = bar(f"{winner} wins" if winner != "RACE" else "Race over", "final")
    return View(title=title, status=status, body=(Menu(tuple(lines), -1),))


_VIEWS = {R.QDONE: _qualified_view, R.START: _start_view, R.GRID: _grid_view, R.GEAR: _gear_view, R.REPORT: _report_view,
          R.SHOW: _show_view, R.ROUND: _round_view, R.OVER: _over_view}


# -- paper --------------------------------------------------------------------------------

STATUS = Col("result", "Result", 10, legend="finished, or out and on which lap")
PITS = Col("pit_stops", "Pit", 4, legend="pit stops")


def _heading(state: R.State) -> list[str]:
    s = state.settings
    weather = ", ".join(dict.fromkeys(WEATHER_WORDS[line] for _, _, line in state.weather_log)) or "not rolled"
    return ([f"{s.circuit.label}, {counted(s.laps, 'lap')}", f"Weather: {weather}"] + (["Team race"] if s.team else [])
            + (["Road race: hard tires, no pits"] if s.road else []))


def program(state: R.State) -> Receipt:
    grid = [{"name": state.cars[c].name + (f" ({state.cars[c].card})" if state.cars[c].card else ""),
             "tires": state.cars[c].tires, "start": state.cars[c].start_roll} for c in state.grid]
    cols = (Col("tires", "Tires", 6, legend="tires fitted"),
            Col("start", "Start", 6, legend="start roll (1 misses turn 1, 20 +4 spaces)"))
    lines = _heading(state) + [f"Circuit: {len(state.settings.circuit.corners)} corners",   # a line each:
                               f"A lap: {state.settings.circuit.length} spaces"]             # never broken
    if state.qualified:
        lines += ["Stopwatch qualifying:"] + [" ".join(x.split()) for x in qualifying_lines(state)]
    return layouts.race_program("Formula Dé", lines, grid, cols)


def results(state: R.State) -> Receipt:
    rows = [{**r, "result": f"out L{r['out_lap']}" if "out_lap" in r else r["status"]} for r in R.standings(state)]
    title = "Formula Dé results" if R.finished(state) else "Formula Dé (running)"
    notes = []
    for r in rows:
        if "cause" in r:
            notes.append(f"{r['name']} out on lap {r['out_lap']}: {r['cause']}")
    notes.append("WP left (T tires, B brakes, G gearbox, C body, E engine, H handling):")
    for c in state.cars:
        notes.append(f"{c.name}: {dashboard(c).replace('*', ' ')}, {c.pits} pit")
    if state.settings.team:
        for t in R.team_standings(state):
            notes.append(f"{t['position']} {t['name']}: {t['points']} pts")
    chart = layouts.lap_chart_picture(rows, FR.lap_chart(state), (), "Order after each round")
    table = layouts.results(title, rows, _heading(state) + [counted(state.round, "round")], (STATUS, PITS, POINTS), notes,
                            more=chart)
    # the app prints "program" and "results" only: the wear follows the results, drawn
    # (each zone's WP and the lap it went on) or, on a printer without raster, as text
    timeline = wear(state)
    return Receipt("results", title, (*table.items[:-1], Line("Wear", bold=True, align="center"),
                                      wear_picture(state, timeline.items[:-1]), Feed(2)))


def wear_picture(state: R.State, text) -> "Picture":
    """The wear chart (``companion.charts.wear_chart``) with ``text`` as its text version."""
    from companion import charts
    from companion.receipts.model import picture
    data = FR.wear_chart(state)
    zones = [ZONE_LETTERS[z] for z in data["zones"]]
    return picture(charts.wear_spec(data["cars"], zones, [ZONE_WORDS[z] for z in data["zones"]]), text)


def wear(state: R.State) -> Receipt:
    """Every car's wear timeline: which zone lost what, when and why."""
    items = [Line("R = round, L = lap"), Rule()]
    for car in state.cars:
        items.append(Line(f"{car.name} ({car.tires})", bold=True))
        if not car.log:
            items.append(Line("  no wear"))
        for rnd, lap, zone, n, cause in car.log:
            change = f"+{-n}" if n < 0 else f"-{n}"
            items.append(Line(fit(f" R{rnd} L{lap} {ZONE_WORDS[zone]} {change} {cause}", layouts.WIDTH)))
        items.append(Line(f"  left: {dashboard(car).replace('*', ' ')}"))
        if car.out:
            items.append(Line(fit(f"  OUT lap {car.out_lap}: {car.out}", layouts.WIDTH)))
    return Receipt("wear", "Wear timeline", (*items, Feed(2)))


def receipts(state: R.State) -> dict[str, Receipt]:
    out = {"results": results(state)}
    if state.grid:
        out["program"] = program(state)
    if R.finished(state):
        out["wear"] = wear(state)
    return out
