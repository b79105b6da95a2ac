"""Which cues a move made: read in one place from what the race already reports.

Every pack describes its race for the table screen (its ``public`` view: the laps in
words, the leader's lap, whose turn it is and what the box waits for, the notes, each
car's state; ``companion/kit/dashboard.py``). The cues are the differences between that
view before a move and after it, so no pack calls a cue and every game gets the same ones:

- ``flag``: the race is over; ``last-lap``: the laps say the last lap (``last lap``, ``Lap
  N of N``, ``Track card N of N``) or a car has played its last card; ``line``: the
  leader's lap grows, or a car finishes after the flag;
- ``car-out``: a car turns out of the race, bust, crashed, demolished or spun;
- ``sc-out`` / ``sc-in``: the Safety Car, a caution or a yellow flag is named, then no more;
- ``challenge``: a challenge is named in the notes (Lacorsa);
- ``turn`` / ``your-choice``: the turn passes to a human player (the box waits for an
  answer given face down: ``your-choice``); only when nothing else was cued, so a bust
  that passes the turn is one cue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

OUT_STATES = frozenset({"out", "bust", "crashed", "demolished", "spun", "out this phase"})
LAST_CARD = "no cards"
FINISHED = "finished"      # as kit.dashboard.FINISHED (the cues import nothing of the kit)
CAUTION_WORDS = ("safety car out", "yellow flag", "caution")
FACE_DOWN_WORDS = ("face down", "secret", "enter the bid", "tempo card")
_OF = re.compile(r"^(?:lap|track card) (\d+) of (\d+)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Moment:
    """What the cues read of a race at one moment (from its public view)."""
    laps: str = ""
    lap: int = 0
    turn: tuple[str, ...] = ()
    waiting: str = ""
    notes: tuple[str, ...] = ()
    cars: tuple[tuple[str, bool, str], ...] = ()     # (name, out, state)
    finished: bool = False


def moment(public: Mapping[str, Any] | None, finished: bool = False) -> Moment:
    """The cues' reading of a ``public`` view (None: the activity has none)."""
    if not public:
        return Moment(finished=finished)
    turn = tuple(str(n) for n in public.get("turn_cars") or ()) or ((str(public["turn"]),) if public.get("turn") else ())
    lap = public.get("lap")
    return Moment(laps=str(public.get("laps", "")), lap=lap if isinstance(lap, int) else 0, turn=turn,
                  waiting=str(public.get("waiting", "")), notes=tuple(str(n) for n in public.get("notes") or ()),
                  cars=tuple((str(c.get("name", "")), bool(c.get("out")), str(c.get("state", "")))
                             for c in public.get("cars") or () if isinstance(c, Mapping)),
                  finished=finished)


def last_lap(m: Moment) -> bool:
    laps = m.laps.lower()
    found = _OF.match(m.laps)
    return ("last lap" in laps or bool(found and found.group(1) == found.group(2) != "1")
            or any(state == LAST_CARD for _, _, state in m.cars))


def caution(m: Moment) -> bool:
    return any(word in text.lower() for text in (m.laps, *m.notes) for word in CAUTION_WORDS)


def challenge(m: Moment) -> str:
    return next((n for n in m.notes if n.lower().startswith("challenge")), "")


def _newly(before: Moment, after: Moment, test) -> bool:
    """A car of ``after`` passes ``test`` that did not before (a car new to the race: not before)."""
    was = {name: test(out, state) for name, out, state in before.cars}
    return any(test(out, state) and not was.get(name, False) for name, out, state in after.cars)


def cues_between(before: Moment, after: Moment, automated: Iterable[str] = ()) -> list[str]:
    """The cues of the move that led from ``before`` to ``after``, in the order played.
    ``automated``: the names of the cars the box drives (their turn is not cued)."""
    out: list[str] = []
    if _newly(before, after, lambda gone, state: gone or state in OUT_STATES):
        out.append("car-out")
    if after.finished and not before.finished:
        out.append("flag")
    elif last_lap(after) and not last_lap(before):
        out.append("last-lap")
    elif after.lap > before.lap or (before.finished and _newly(before, after, lambda _, s: s == FINISHED)):
        out.append("line")
    if caution(after) != caution(before):
        out.append("sc-out" if caution(after) else "sc-in")
    if challenge(after) and challenge(after) != challenge(before):
        out.append("challenge")
    if not out and after.turn and after.turn != before.turn and not after.finished:
        robots = set(automated)
        if any(name not in robots for name in after.turn):
            out.append("your-choice" if any(w in after.waiting.lower() for w in FACE_DOWN_WORDS) else "turn")
    return out
