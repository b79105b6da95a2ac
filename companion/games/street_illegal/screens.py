"""Street Illegal on the 128x64 screen and on paper.

The body holds four lines of 21 characters under the title; ``Big`` carries the fact
the table needs at arm's length: the speed limit, or the Old Pro's cards ("30+60").
"""

from __future__ import annotations

from companion.ui.view import Big, Menu, Text, View

from companion.games.street_illegal import old_pro
from companion.games.street_illegal.rules import FIELD, TEAM, State, standings, summary, team_points

GAME = "Street Illegal"


def short(state: State, car: int) -> str:
    """A car's name for a 21-character line: Old Pros as ``OP2``."""
    c = state.cars[car]
    return "OP" + c.name.rsplit(" ", 1)[-1] if c.old_pro else c.name[:9]


def outcome(state: State) -> str:
    """The last pass attempt in a line: ``Bob passed OP4``, ``OP2 held Chris``."""
    if not state.last:
        return ""
    what, car, other = state.last
    return f"{short(state, car)} {what}" if what == "stays" else f"{short(state, car)} {what} {short(state, other)}"


def _card_status(state: State) -> str:
    return f"{state.card + 1}/{len(state.track)}"


def view(state: State) -> View:
    if state.step == "start":
        return _start(state)
    if state.step == "grid":
        return _grid(state)
    if state.step == "done":
        return _results(state)
    if state.phase == 1:
        return _phase1(state)
    if state.phase == 2:
        return _drive(state, state.current_player, "P2")
    return _phase3(state)


def _start(state: State) -> View:
    players = len(state.players)
    grid = "by age" if state.grid_mode == "age" else "tactical bids"
    rules = [name for on, name in ((state.better, "Better OPs"), (state.nitrous, "Nitrous")) if on]
    body = [Text("Draw 8 track cards"), Text(f"{players} player{'s' if players > 1 else ''}, "
                                             f"{FIELD - players} Old Pros"), Text(f"Grid {grid}")]
    if rules:
        body.append(Text(" + ".join(rules)))
    return View(GAME, tuple(body))


def _grid(state: State) -> View:
    position = FIELD - len(state.seated)
    seated = " ".join(f"P{FIELD - i}:{short(state, c)}" for i, c in enumerate(state.seated))
    if state.grid_mode == "age":
        ask = "Who is youngest?" if not state.seated else "Next youngest?"
        body = [Text(ask), Text(f"Takes position {position}")]
        return View("Start grid", tuple(body + ([Text(seated)] if seated else [])), status=f"P{position}")
    car = state.current_player
    body = [Text(f"{short(state, car)}: card put down"), Text(f"Slowest: position {position}")]
    if state.last_bids:
        low = min(v for _, v in state.last_bids)
        slowest = [c for c, v in state.last_bids if v == low]
        if len(slowest) > 1:
            body.append(Text(f"Tie at {low}: bid again"))
        else:
            body.append(Text(f"{short(state, slowest[0])} {low}: P{position + 1}"))
    if state.seated:
        body.append(Text("Seated: swap 1 card"))
    return View(f"Bid for P{position}", tuple(body), status=f"{len(state.bids) + 1}/{len(state.bidders)}")


def _phase1(state: State) -> View:
    car = state.current_player
    situation = state.track_card.situation
    body = [Text(situation.label.upper(), invert=True), *(Text(line) for line in situation.effect[:2]),
            Text("+2 chips/icon card")]
    return View(f"P1 {state.name(car)}", tuple(body), status=_card_status(state))


def _drive(state: State, car: int, title: str) -> View:
    limit = state.limit
    if state.stage == "redrive":
        caption = "Slow by 10 or more"
    elif limit is None:
        caption = "Drive, no limit"
    else:
        caption = "Over: pay chips/brake"
    hand = state.hand[car]
    return View(f"{title} {state.name(car)}",
                (Big(state.track_card.limit_text, caption=caption), Text(f"Hand {hand}: {hand} chips max")),
                status=_card_status(state))


def _phase3(state: State) -> View:
    status = _card_status(state)
    duel = state.duel
    if state.stage == "redrive":
        return _drive(state, state.actor, "Again")
    a, d = duel.attacker, duel.defender
    vs = f"{short(state, a)} P{state.position(a)} > {short(state, d)} P{state.position(d)}"
    if state.stage == "speed":
        player = d if state.cars[a].old_pro else a
        return View(f"P3 {short(state, player)}: speed?",
                    (Big(old_pro.cards_text(duel.op_cards), caption=vs),), status=status)
    if state.stage == "nitrous":
        car = a if not duel.raised else d
        return View("P3 Nitrous", (Text(f"Tie {short(state, a)}>{short(state, d)}"),
                                   Text(f"{short(state, car)}: card raised"),
                                   Text("No card counts 0")), status=status)
    if state.stage == "after":
        return _after(state, status)
    hint = ("GO: Old Pro cards" if state.cars[a].old_pro or state.cars[d].old_pro
            else "Bet chips; who won?")
    body = [Big(f"{short(state, a)} > {short(state, d)}", caption=hint)]
    if state.last:
        body.append(Text(outcome(state)))
    return View(f"P3 Pass for P{state.position(d)}", tuple(body), status=status)


def _after(state: State, status: str) -> View:
    duel = state.duel
    a, d = duel.attacker, duel.defender
    if duel.op_cards:
        player = d if state.cars[a].old_pro else a
        caption = f"OP {old_pro.speed(duel.op_cards)} v {short(state, player)} {duel.speed}"
        body = [Big(old_pro.cards_text(duel.op_cards), caption=caption), Text(outcome(state))]
    else:
        body = [Text(outcome(state))]
    return View("P3 Result", tuple(body), status=status)


def _results(state: State) -> View:
    team, best = team_points(state)
    lines = [f"{r['position']} {r['name'][:12]:<12}{r['points']:>3}" + ("*" if r["old_pro"] else "")
             for r in standings(state)]
    if best:
        lines.append(f"*{TEAM} {team} pts")
    return View("Results", (Menu(tuple(lines), 0),), status="end")


# -- receipts -----------------------------------------------------------------------------

def receipts(state: State) -> dict:
    """``program`` once the track is drawn and the grid is set, ``results`` at the end."""
    if state.step in ("start", "grid"):
        return {}
    from companion.receipts import layouts

    out = {"program": _program(state, layouts)}
    if state.step == "done":
        out["results"] = _results_receipt(state, layouts)
    return out


def _rule_lines(state: State) -> list[str]:
    rules = [name for on, name in ((state.better, "Better Old Pros"), (state.nitrous, "Nitrous Oxide")) if on]
    grid = "by age" if state.grid_mode == "age" else "Tactical Starting Positions"
    return [f"Grid {grid}"] + ([f"Rules: {', '.join(rules)}"] if rules else [])


def _program(state: State, layouts):
    lines = ["Race program", *_rule_lines(state), "Track:"]
    for k, i in enumerate(state.track, start=1):
        card = state.deck[i]
        lines.append(f"{k}. {card.limit_text:<9}{card.situation.label}")
    grid = [{"position": p, "name": state.name(c), "colour": state.cars[c].colour or "Grey"}
            for p, c in enumerate(state.grid, start=1)]
    return layouts.race_program(GAME, lines, grid, columns=(layouts.COLOUR,))


def _results_receipt(state: State, layouts):
    rows = standings(state)
    team = summary(state)["teams"]
    notes = [f"{TEAM} team (best car): {team[0]['points']} pts"] if team else []
    cols = (layouts.Col("start", "Grid", 5), layouts.Col("duels_won", "Won", 4), layouts.Col("duels_lost", "Lost", 5),
            layouts.POINTS)
    return layouts.results(GAME, rows, ["Race results", *_rule_lines(state)], columns=cols,
                           notes=[*notes, "Grid: starting position", "Won/Lost: passing duels"])
