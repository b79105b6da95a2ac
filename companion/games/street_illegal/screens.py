"""Street Illegal on the 128x64 screen and on paper.

Every race screen names whose turn it is in the title ("Red: phase 2") with the track
card in the status ("3/8"); positions are ordinals ("7th") so they never read as phases.
The body holds four lines (``companion.profile``); ``Big`` carries the fact the table needs at
arm's length: the speed limit, who attacks whom ("Red>OP4"), the Old Pro's cards.
"""

from __future__ import annotations

from companion.core.names import counted
from companion.kit.standings import ordinal, result_line
from companion.kit.text import first_fitting, fit, row
from companion.profile import LINE_CHARS, MENU_CHARS
from companion.ui.view import Big, Menu, Row, Text, View

from companion.games.street_illegal import old_pro, rules
from companion.games.street_illegal.rules import FIELD, RACE_LENGTH, TEAM, State, standings, summary, team_points

GAME = "Street Illegal"
NAME_CHARS = LINE_CHARS // 2 - 1
KEY = ("OP1 = Old Pro 1",)
"""An Old Pro's short name (``OP1 v Red 90``): pause menu > Key."""
"""A car's name on a line it shares with another name and a sign ("Purple>Yellow")."""


def short(state: State, car: int) -> str:
    """A car's name for a line shared with another: Old Pros as ``OP2``."""
    c = state.cars[car]
    return "OP" + c.name.rsplit(" ", 1)[-1] if c.old_pro else fit(c.name, NAME_CHARS)


def _fit(*candidates: str) -> str:
    """The first text that fits one line (the last one, fitted, when none does)."""
    return first_fitting(*candidates, limit=LINE_CHARS)


def _wrap(text: str, limit: int = LINE_CHARS) -> list[str]:
    """``text`` in lines of ``limit`` characters, broken between words (a word longer
    than a line is fitted)."""
    lines = [""]
    for word in text.split():
        if lines[-1] and len(lines[-1]) + 1 + len(word) > limit:
            lines.append("")
        lines[-1] = fit(f"{lines[-1]} {word}".strip(), limit)
    return lines


def _titled(title: str, body, status: str = "") -> View:
    """A view whose title keeps its whole text: the status goes when both do not fit."""
    if status and len(title) + 1 + len(status) > LINE_CHARS:
        status = ""
    return View(fit(title), tuple(body), status=status)


def _card_status(state: State) -> str:
    return f"{state.card + 1}/{len(state.track)}"


def view(state: State) -> View:
    if state.step == "start":
        return _start(state)
    if state.step == "enter":
        return _enter(state)
    if state.step == "track":
        return _track_review(state)
    if state.step == "lineup":
        return _lineup(state)
    if state.step == "grid":
        return _grid_by_age(state) if state.grid_mode == "age" else _bidding(state)
    if state.step == "done":
        return _results(state)
    if state.phase == 1:
        return _phase1(state)
    if state.phase == 2:
        return _drive(state, state.current_player)
    return _phase3(state)


def _start(state: State) -> View:
    players = len(state.players)
    grid = "by age" if state.grid_mode == "age" else "tactical bids"
    rules = [name for on, name in ((state.better, "Better OPs"), (state.nitrous, "Nitrous")) if on]
    first = f"Draw {RACE_LENGTH} track cards" if state.track_mode == "draw" else f"Enter {RACE_LENGTH} track cards"
    body = [Text(first), Text(f"{counted(players, 'player')}, "
                                             f"{counted(FIELD - players, 'Old Pro')}"), Text(f"Grid {grid}")]
    if rules:
        body.append(Text(" + ".join(rules)))
    return View(GAME, tuple(body))


# -- what the companion decided: the track and the grid --------------------------------

def track_row(state: State, k: int, limit: int = LINE_CHARS) -> tuple[str, str]:
    """Track card ``k`` (0-based) as (left, right): ("1 Obstacle left", "70"), the
    situation's short label where the whole one does not fit."""
    card = state.deck[state.track[k]]
    right = str(card.limit) if card.limit else "none"
    room = limit - len(right) - 1
    left = first_fitting(f"{k + 1} {card.situation.label}", f"{k + 1} {card.situation.short}", limit=room)
    return left, right


TRACK_TITLE = "Track: mph limit"


def _enter(state: State) -> View:
    """The table drew the track cards by hand: the companion asks for each in turn."""
    n = len(state.track)
    body = [Text("Pick the card drawn"), Text("UP/DOWN, then OK"), Text("NL: no speed limit")]
    if n:
        body.append(Row(*track_row(state, n - 1)))
    return _titled("Enter track", body, f"{n + 1}/{RACE_LENGTH}")


def _track_review(state: State) -> View:
    """The 8 track cards in one list to read (OK held: the next page, as on every screen;
    UP/DOWN scroll it): the table sees the track without a printer."""
    lines = tuple(row(*track_row(state, k, MENU_CHARS), MENU_CHARS) for k in range(len(state.track)))
    return _titled(TRACK_TITLE, [Menu(lines, -1)])


def _lineup(state: State) -> View:
    """The starting grid, front first, two cars a line."""
    half = LINE_CHARS // 2
    cells = [fit(f"{p} {short(state, c)}", half) for p, c in enumerate(state.grid, start=1)]
    body = [Row(cells[i], cells[i + 1] if i + 1 < len(cells) else "") for i in range(0, len(cells), 2)]
    return _titled("Starting grid", body, "1=pole")


def decisions(state: State) -> View:
    """What the companion decided, for the pause menu: the track and the grid (scrolled
    by the platform)."""
    lines = [TRACK_TITLE + ":"]
    lines += [row(*track_row(state, k, MENU_CHARS), MENU_CHARS) for k in range(len(state.track))] or ["not drawn yet"]
    if state.track and len(state.track) < RACE_LENGTH:
        lines.append(f"({len(state.track)} of {RACE_LENGTH} entered)")
    lines.append("Grid, front first:")
    lines += [fit(f"{p} {state.name(c)}", MENU_CHARS) for p, c in enumerate(state.grid, start=1)] or ["not set yet"]
    return View("Decisions", (Menu(tuple(lines), -1),))


def _seated_line(state: State) -> Text:
    """Who already has a place (``7th Blue 6th Red``), or where the Old Pros go."""
    if not state.seated:
        old = FIELD - len(state.players)
        return Text(f"Old Pros: 1st to {ordinal(old)}" if old > 1 else
                    "Old Pro starts 1st" if old else "No Old Pros")
    return Text(fit(" ".join(f"{ordinal(FIELD - i)} {short(state, c)}" for i, c in enumerate(state.seated))))


def _grid_by_age(state: State) -> View:
    """The table picks the colour of the youngest player still without a place: the
    youngest starts last, the next youngest in front of them, and so on."""
    position = ordinal(FIELD - len(state.seated))
    who = "the YOUNGEST player" if not state.seated else "the NEXT youngest"
    last = " (last)" if not state.seated else ""
    body = [Text("Pick the colour of"), Text(who), Text(f"It starts {position}{last}"), _seated_line(state)]
    return View("Grid by age", tuple(body), status=position)


def _bidding(state: State) -> View:
    position = FIELD - len(state.seated)
    car = state.current_player
    name = short(state, car)
    body = [Text(_fit(f"{name}: enter card bid", f"{name}: enter bid", f"Enter {name}")),
            Text(_fit(f"\u2191\u2193 card, slowest {ordinal(position)}", f"\u2191\u2193: change card"))]
    if state.last_bids:
        low = min(v for _, v in state.last_bids)
        slowest = [c for c, v in state.last_bids if v == low]
        if len(slowest) > 1:
            body.append(Text(f"Tie at {low}: bid again"))
        else:
            body.append(Text(f"{short(state, slowest[0])} {low}: {ordinal(position + 1)}"))
    if state.seated:
        body.append(Text("Seated: swap 1 card"))
    return View(f"Bid for {ordinal(position)}", tuple(body), status=f"{len(state.bids) + 1}/{len(state.bidders)}")


def _turn_title(state: State, car: int, what: str) -> str:
    return f"{short(state, car)}: {what}"


def _phase1(state: State) -> View:
    car = state.current_player
    card = state.track_card
    situation = card.situation
    room = LINE_CHARS - len(card.limit_text) - 1
    label = first_fitting(situation.label.upper(), situation.short.upper(), limit=room)
    body = [Row(label, card.limit_text), *(Text(line) for line in _wrap(" ".join(situation.effect))[:2]),
            Text("2 chips/matching icon")]
    return _titled(_turn_title(state, car, "phase 1"), body, _card_status(state))


def _chips_line(state: State, car: int) -> str:
    hand = state.hand[car]
    return f"1 chip/10 over, max {hand}" if state.limit is not None else f"Hand {hand}: {hand} chips max"


BRAKE_LINE = _fit("Brake: hand limit -1", "Brake: -1 card")
"""The emergency brake in a line: a card from the hand for good (and slow to the limit)."""


def _drive(state: State, car: int) -> View:
    """Phase 2, and the drive before a second pass: the limit and what being over costs."""
    if state.stage == "redrive":
        title, caption = _turn_title(state, car, "pass again"), "Slow by 10 or more"
    else:
        title = _turn_title(state, car, "phase 2")
        caption = "Over: chips or brake" if state.limit is not None else "Drive, no limit"
    body = [Big(state.track_card.limit_text, caption=caption), Text(_chips_line(state, car))]
    if state.limit is not None:
        body.append(Text(BRAKE_LINE))
    return _titled(title, body, _card_status(state))


def _phase3(state: State) -> View:
    if state.stage == "redrive":
        return _drive(state, state.actor)
    if state.stage == "speed":
        return _speed(state)
    if state.stage == "nitrous":
        return _nitrous(state)
    if state.stage == "after":
        return _after(state)
    return _attack(state)


def _versus(state: State) -> str:
    duel = state.duel
    return f"{short(state, duel.attacker)}>{short(state, duel.defender)}"


def _attack(state: State) -> View:
    """Who attacks whom, for which place, and how the duel is settled: against an Old
    Pro the companion turns its cards; between players the chips are bet in secret, at
    once, each at most the cards in their hand."""
    duel = state.duel
    a, d = short(state, duel.attacker), short(state, duel.defender)
    place = ordinal(state.position(duel.defender))
    title = _turn_title(state, duel.attacker, "phase 3")
    if rules.duel_old_pro(state) is not None:
        body = (Big(_versus(state), caption=f"attacks for {place}"), Text("GO: Old Pro's cards"))
        return _titled(title, body, _card_status(state))
    ha, hd = state.hand[duel.attacker], state.hand[duel.defender]
    tie = "Tie: nitrous cards" if state.nitrous else _fit(f"Tie: {d} holds", "Tie: front car holds")
    room = LINE_CHARS - len(f"for {place}") - 1
    versus = first_fitting(_versus(state), f"{fit(a, room // 2)}>{fit(d, room // 2)}", limit=room)
    body = (Row(versus, f"for {place}"), Text("Secret chips, at once"),
            Text(_fit(f"Max: {a} {ha}, {d} {hd}", "Max: cards in hand")), Text(tie))
    return _titled(title, body, _card_status(state))


def _third_card(state: State) -> str:
    """Whether the Old Pro will turn a third card, said before the player sets a speed."""
    duel = state.duel
    op = short(state, rules.duel_old_pro(state))
    total = old_pro.speed(duel.op_cards)
    if old_pro.needs_third(duel.op_cards, state.limit, state.better):
        return f"{op} {total} + a 3rd card"
    return f"{op} {total}: no 3rd card"


REAL_SPEED = _fit("Face-up cards + chips", "Cards + chips")
"""The speed a player enters against an Old Pro: the face-up cards' sum (the real speed,
not the one paid down in phase 2) plus the chips paid now (rulebook, phase 3)."""


def _speed(state: State) -> View:
    duel = state.duel
    player = rules.duel_player(state)
    a, d = short(state, duel.attacker), short(state, duel.defender)
    body = (Big(old_pro.cards_text(duel.op_cards), caption=_third_card(state)),
            Text(_fit(f"{a} attacks {d}", f"{a}>{d}")), Text(REAL_SPEED))
    return _titled(_turn_title(state, player, "speed+chips"), body, _card_status(state))


def _nitrous(state: State) -> View:
    duel = state.duel
    car = rules.nitrous_car(state)
    d = short(state, duel.defender)
    body = (Text(_fit(f"Tie {_versus(state)}: nitrous", f"Tie {_versus(state)}")), Text(_fit(f"{short(state, car)}: card raised?", f"{short(state, car)}: card?")),
            Text("No card counts 0"), Text(_fit(f"Higher wins; tie: {d}", "Higher card wins")))
    return _titled(_turn_title(state, car, "nitrous"), body, _card_status(state))


def outcome(state: State) -> str:
    """A decided duel in a line: ``Red passed OP4``, ``OP2 held Red``, ``Tie: front OP2 holds``."""
    duel = state.duel
    a, d = short(state, duel.attacker), short(state, duel.defender)
    if duel.winner == duel.attacker:
        return f"{a} passed {d}"
    return _fit(f"Tie: front {d} holds", f"Tie: {d} holds") if _tied(duel) else f"{d} held {a}"


def _tied(duel) -> bool:
    """Whether the known speeds of a decided duel were equal (players' chip bets are not
    entered: their duels show no speeds)."""
    if duel.op_cards:
        return old_pro.speed(duel.op_cards) == duel.speed
    return len(duel.raised) == 2 and duel.raised[0][1] == duel.raised[1][1]


def _after(state: State) -> View:
    """A duel's result, with why: the speeds (the front car holds a tie) and who is out."""
    duel = state.duel
    loser = rules.duel_loser(state)
    if duel.op_cards:
        o, p = short(state, rules.duel_old_pro(state)), short(state, rules.duel_player(state))
        speeds = _fit(f"{o} {old_pro.speed(duel.op_cards)} v {p} {duel.speed}",
                      f"{old_pro.speed(duel.op_cards)} v {duel.speed}")
        body = [Big(old_pro.cards_text(duel.op_cards), caption=speeds), Text(outcome(state))]
    else:
        body = [Big(outcome(state), caption=_fit(f"{short(state, loser)} out this phase", "Loser out this phase"))]
        if duel.raised:
            (_, a), (_, d) = duel.raised
            body.append(Text(f"Nitrous {a} v {d}"))
    if rules.may_pass_again(state):
        body.append(Text("Again: slow by 10+"))
    return _titled(_turn_title(state, state.actor, "result"), body, _card_status(state))


def _results(state: State) -> View:
    team, best = team_points(state)
    rows = standings(state)
    winner = TEAM if rows[0]["old_pro"] else rows[0]["name"]
    lines = [f"Winner: {winner}"]
    lines += [result_line(r["position"], r["name"], r["points"], MENU_CHARS - 1) + ("*" if r["old_pro"] else "")
              for r in rows]
    if best:
        lines.append(f"*{TEAM} {team} pts")
    return View("Results", (Menu(tuple(lines), -1),), status="end")


# -- receipts -----------------------------------------------------------------------------

def receipts(state: State) -> dict:
    """``program`` once the track is drawn and the grid is set; ``results`` always: the
    final ones at the end, the standings as they stand before (a race ended early)."""
    from companion.receipts import layouts

    out = {"results": _results_receipt(state, layouts)}
    if state.grid:
        out["program"] = _program(state, layouts)
    return out


def _rule_lines(state: State) -> list[str]:
    rules = [name for on, name in ((state.better, "Better Old Pros"), (state.nitrous, "Nitrous Oxide")) if on]
    grid = "by age" if state.grid_mode == "age" else "Tactical Starting Positions"
    return [f"Grid {grid}"] + ([f"Rules: {', '.join(rules)}"] if rules else [])


def _program(state: State, layouts):
    lines = ["Race program", *_rule_lines(state), "Track (speed limit, situation):"]
    for k, i in enumerate(state.track, start=1):
        card = state.deck[i]
        lines.append(f"{k}. {card.limit_text:<9}{card.situation.label}")
    grid = [{"position": p, "name": state.name(c), "colour": state.cars[c].colour or "Grey"}
            for p, c in enumerate(state.grid, start=1)]
    return layouts.race_program(GAME, lines, grid, columns=(layouts.COLOUR,))


def _results_receipt(state: State, layouts):
    rows = standings(state)
    team = summary(state)["teams"]
    first = rows[0]
    winner = f"{TEAM} ({first['name']})" if first["old_pro"] else first["name"]
    notes = [f"{'Winner' if state.step == 'done' else 'In front'}: {winner}"]
    notes += [f"{TEAM} team (best car): {team[0]['points']} pts"] if team else []
    cols = (layouts.Col("start", "Grid", 5, legend="starting place"),
            layouts.Col("duels_won", "Won", 4, legend="passing duels won"),
            layouts.Col("duels_lost", "Lost", 5, legend="passing duels lost"), layouts.POINTS)
    if state.step == "done":
        heading = ["Race results"]
    elif state.step == "race":
        heading = ["Standings as they stand", f"(ended on track card {state.card + 1}/{len(state.track)})"]
    else:
        heading = ["Standings as they stand", "(ended before the start)"]
    return layouts.results(f"{GAME} results", rows, [*heading, *_rule_lines(state)], columns=cols,
                           notes=notes)
