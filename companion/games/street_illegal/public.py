"""Street Illegal on the table screen: the field in race order, each car's hand limit
(how many tempo cards it holds: the most chips it may pay), duels and brakes, and the
race's track cards with the current one marked. The lap chart counts track cards. The Old
Pros' tempo deck stays face down: the page has the cards turned in a duel, never the
deck's order."""

from __future__ import annotations

from typing import Any, Mapping

from companion.games.street_illegal import rules as R
from companion.core.names import counted
from companion.kit.dashboard import FINISHED, car, cards, stat
from companion.kit.standings import ordinal
from companion.kit.turns import primary_index

PHASES = {1: "phase 1: tempo cards", 2: "phase 2: the speed limit", 3: "phase 3: duels"}
ASKS = {"speed": "enter the real speed", "bid": "enter the bid", "raise": "enter the tempo card raised",
        "seat": "seat a car"}
"""What the box asks where its moves are a list of answers (the highlighted one says nothing)."""
ORDER_NOTE = "Race order, front first; the Old Pros score once, at their best place."
"""What orders the standings: the Old Pros behind the best of them score nothing."""
STEPS = {"start": "before the race", "enter": "the track cards are entered", "track": "the track",
         "grid": "the grid", "lineup": "the line-up", "done": "finished"}


def public(state: R.State) -> dict[str, Any]:
    racing = state.step == "race"
    laps = (f"Track card {state.card + 1} of {len(state.track)}, {PHASES.get(state.phase, '')}"
            if racing else STEPS.get(state.step, state.step))
    notes = []
    if state.track:
        notes.append("Track: " + " \u00b7 ".join(label(state, i) for i in state.track))
        card = state.track_card
        if racing and card is not None:
            notes.append(f"Now: {card.limit_text.lower()}, {card.situation.label}")
    if state.duel is not None:
        duel = state.duel
        turned = " ".join(str(c.name) for c in duel.op_cards)
        notes.append(f"Duel: {state.name(duel.attacker)} attacks {state.name(duel.defender)}"
                     + (f" (Old Pro cards: {turned})" if turned else ""))
    moves = R.moves(state)
    move = moves[primary_index(moves)] if moves else None
    what = ASKS.get(move.kind, move.label) if move else ""
    turn = move.player if move and move.player else ""
    waiting = f"{turn}: {what}" if turn else what
    players = list(state.order or range(len(state.cars)))
    return {"laps": laps, "lap": chart(state)["lap"], "axis": "track card", "turn": turn, "waiting": waiting,
            "notes": notes, "cars": [dashboard(state, i) for i in players], "order_note": ORDER_NOTE}


def chart(state: R.State) -> dict[str, Any]:
    """The lap chart's part of the view: the track card being raced (all of them once done)."""
    racing = state.step == "race"
    return {"lap": state.card + 1 if racing else len(state.track) if state.step == "done" else 0}


def label(state: R.State, i: int) -> str:
    c = state.deck[i]
    return f"{c.limit or 'NL'} {c.situation.short or c.situation.label}"


def dashboard(state: R.State, i: int) -> dict[str, Any]:
    c = state.cars[i]
    widgets, row = [], []
    if state.hand:
        hand = shown_hand(state, i)
        widgets.append(stat("hand", f"{counted(hand, 'tempo card')} (pays {counted(hand, 'chip')} at most)"))
        if not c.old_pro:              # an Old Pro turns the cards of its own deck
            row.append(f"tempo {hand}")
    if state.won:
        widgets.append(stat("duels", f"won {state.won[i]}, lost {state.lost[i]}"))
        row.append(f"won {state.won[i]}/{state.won[i] + state.lost[i]}")
    if state.brakes and not c.old_pro:
        widgets.append(stat("brakes", state.brakes[i]))
        row.append(f"brakes {state.brakes[i]}")
    if state.track:
        widgets.append(cards("track", [str(k + 1) for k in range(len(state.track))],
                             current=state.card if state.step == "race" else -1))
    note = "Old Pro" if c.old_pro else "player"
    if i in state.order:
        note = f"{ordinal(state.position(i))}, {note}"
    if state.step == "done":
        note += ", finished"
    return car(c.name, c.colour, widgets, note=note, row=row,
               state=_state(state, i))


def _state(state: R.State, i: int) -> str:
    """Where car ``i`` stands, for the tower: in a duel, out for the phase, finished."""
    if state.step == "done":
        return FINISHED
    duel = state.duel
    if duel is not None and i in (duel.attacker, duel.defender):
        return "attacking" if i == duel.attacker else "defending"
    if state.step == "race" and state.phase == 3 and i in state.out:
        return "out this phase"
    return ""


def shown_hand(state: R.State, i: int) -> int:
    """How many tempo cards car ``i`` holds as the table sees it: a nitrous card raised
    face down is in the hand until both players have raised theirs."""
    duel = state.duel
    if duel is not None and state.stage == "nitrous":
        return state.hand[i] + sum(1 for c, v in duel.raised if c == i and v)
    return state.hand[i]


def secret(state: R.State) -> bool:
    """A face-down choice is being made: tempo cards put down for a starting position
    (Tactical bids) or raised for nitrous, while another player has still to choose."""
    return bool(state.bids) or (state.duel is not None and state.stage == "nitrous" and bool(state.duel.raised))


def public_words(before: R.State, event: Mapping[str, Any], after: R.State) -> str | None:
    """The table's words for an event: a bid or a nitrous card entered says who chose
    (``Ann: a tempo card face down``), never which; the last one turns them all (``Bids
    turned: Ann 30, Bob 20``, ``Nitrous turned: Ann 40, Bob none``). Anything else: the
    history's words."""
    kind = event.get("kind")
    if kind == "bid":
        if after.bids:
            return f"{before.name(int(event['car']))}: a tempo card face down"
        return "Bids turned: " + ", ".join(f"{after.name(c)} {v}" for c, v in after.last_bids)
    if kind == "raise" and after.duel is not None:
        if after.stage == "nitrous":
            return f"{before.name(int(event['car']))}: a nitrous card or none, face down"
        return "Nitrous turned: " + ", ".join(f"{after.name(c)} {v or 'none'}" for c, v in after.duel.raised)
    return None
