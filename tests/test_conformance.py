"""Every registered activity keeps the contract: checked the day it is registered.

For each playable activity (tools and game packs alike): set up from the options'
defaults and the demo's answers, then seeded random legal play until the race is over
(or a bound), through the real session runner and an SQLite journal. After every move:
the event survives a JSON round trip, the view renders inside 128x64 with nothing cut,
every move label fits; at the end: a replay from the journal equals the live state,
undoing the last event gives the state before it and making the same move again gives
the undone outcome back (never a re-roll), every history line reads as words (who, what,
the outcome: no part said twice, no bare button, no wrong plural), the standings have the results.json
shape, every receipt fits the printer's 32 columns; a damaged event of each kind is
refused with one of the companion's errors; and the demo runs through the whole stack.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from companion.core.journal import Journal
from companion.core.names import counted
from companion.games import data as game_data
from companion.games import registry
from companion.games.api import Activity, event_json
from companion.kit.keys import key_of as key_lines
from companion.kit.standings import is_standings
from companion.profile import HEIGHT, LABEL_CHARS, WIDTH
from companion.receipts.model import Columns, Receipt, overflows
from companion.session import SessionRunner, resolve_without_dice
from companion.ui.wizard import finish_options
from companion.devices.gestures import Gesture
from companion.ui import flow
from companion.ui.render import cut_texts, list_window, render, undo_toast
from companion.ui.view import Big, Menu, Row, Text, View
from tests.shared import demo_of, once_per_run

ACTIVITIES = [e.slug for e in registry.playable()]
DRAWN = {"laps", "3-wide", "formula-de", "lacorsa", "top-speed"}   # a lap chart on the results
MOVES = 1500          # a bound for activities that never end (a dice session) or end late
SEEDS = (1, 2)
OLED_BUS_PER_CHANGED_BYTE = 1.53
"""Bytes on the I2C bus per display RAM byte a frame changes, over a demo race: 1.21 to
1.51 now, within 0.3 % of the best any planner could send for the same frames under page
addressing (bench/oled_ratio.py computes that optimum exactly: 1.20 to 1.50)."""


def setup_of(act: Activity) -> tuple[dict, dict]:
    """The options and data of a default setup: the demo's answers over the defaults."""
    values = {o.key: act.demo.options.get(o.key, o.initial()) for o in act.options}
    cars = dict(enumerate(act.demo.options.get("cars", [])))
    options = finish_options(act.options, values, None, act.car_options, cars)
    if act.data == "own":
        data = game_data.load(act.slug)
    elif act.data == "game-option" and options.get("game") in registry.GAMES:
        data = game_data.load(options["game"])
    else:
        data = {}
    return options, data


CHECKED: set = set()
"""The screens this worker has checked whole: (activity, view, moves, decisions view, key).
What ``check_view`` checks is a function of these alone, so a screen a race shows again
(the same view with the same moves) passed already."""


def check_view(act: Activity, state) -> None:
    view, moves = act.view(state), tuple(act.moves(state))
    decided = act.decisions(state) if act.decisions is not None else None
    key = key_lines(act, state)
    shown = (act.slug, view, moves, decided, key)
    try:
        if shown in CHECKED:
            return
    except TypeError:           # a view or move holding a list: checked every time
        shown = None
    image = render(view)
    assert image.size == (WIDTH, HEIGHT)
    assert cut_texts(view) == [], f"{act.slug}: cut on screen in {view.title!r}"
    check_quiet(act, view)
    check_words(act, moves, view, key)
    check_scroll(act, view, moves)
    if decided is not None:
        assert render(decided).size == (WIDTH, HEIGHT)
        assert cut_texts(decided) == [], f"{act.slug}: cut in the decisions view"
        check_quiet(act, decided)
        faults = code_faults(decided, key)
        assert not faults, f"{act.slug}: the decisions view shows a code with no key: {faults}"
    if shown is not None:
        CHECKED.add(shown)


def check_quiet(act: Activity, view) -> None:
    """Nothing of a race view (or of the decisions view) looks chosen: the race screen's
    footer is a move and UP/DOWN choose the move, so an inverted row, heading or line
    would be a choice that is not one (docs/ui.md: an inverted row is a choice)."""
    chosen = [w.items[w.selected] for w in view.body
              if isinstance(w, Menu) and 0 <= w.selected < len(w.items)]
    chosen += [getattr(w, "text", None) or getattr(w, "left", "") for w in view.body
               if isinstance(w, (Text, Row)) and w.invert]
    assert not chosen, f"{act.slug}: {view.title!r} highlights {chosen[0]!r}, which no move acts on"


def check_words(act: Activity, moves, view, key) -> None:
    """The footer's moves say their words in small letters (``Draw``, ``Pit stop``, never
    ``DRAW``), and every code the view shows has its key (``code_faults``)."""
    for move in moves:
        shouting = capitals_faults(move.label)
        assert not shouting, f"{act.slug}: the move {move.label!r} shouts {shouting}"
    faults = code_faults(view, key)
    assert not faults, f"{act.slug}: {view.title!r} shows a code with no key: {faults}"


class AtTheTable:
    """What the race screen asks of the app: the activity's view and moves of a state."""

    def __init__(self, view, moves):
        self.view, self.move_list = view, list(moves)

    def race_view(self):
        return self.view

    def moves(self):
        return self.move_list


def check_scroll(act: Activity, view, moves) -> None:
    """A list longer than the screen is read to its last line with OK held, whatever
    the moves: the race screen as the app shows it, driven with gestures."""
    table = AtTheTable(view, moves)
    screen = flow.Race.on(table.moves())
    frame = screen.view(table)
    window = list_window(frame)
    if window is None or window[1] >= window[2]:
        return
    items = next(w for w in frame.body if isinstance(w, Menu)).items
    seen = set()
    for _ in range(window[2]):
        first, shown, n = list_window(frame)
        seen.update(range(first, first + shown))
        if first + shown == n:
            break
        screen.handle(table, Gesture("OK", "long"))
        frame = screen.view(table)
    assert seen == set(range(len(items))), f"{act.slug}: {frame.title!r} cannot be read to its end"


BUTTONS = {"ok", "go", "back", "up", "down", "next", "next round", "draw", "pass", "start",
           "race start", "qualify", "drive", "no lap", "roll", "deal", "resolve", "not possible", "attack again",
           "no card", "done", "show hand", "new hand"}
"""The names of the box's buttons and of the footer's bare commands: never a history line's
whole word for what was done (the history says ``Yellow: drew a card``, not ``DRAW``)."""
COUNTED = ("card", "car", "lap", "space", "hand", "roll", "tie roll", "player", "chip", "round")
"""Nouns the history counts: said with ``names.counted`` (``1 card``, ``2 cards``)."""
SINGULAR_S = {"pts", "pass", "press"}


def history_faults(line: str) -> list[str]:
    """What is wrong with a history line: a part that says another part again (``R: R``,
    ``Challenge: challenge``, ``extend Extend 2``), a part that is only a button's name
    (``OK``, ``NEXT ROUND``, ``Yellow: DRAW``), a count with the wrong noun (``1 cards``)."""
    faults = []
    parts = [p.strip() for p in re.split(r": |, ", line) if p.strip()]
    for i, part in enumerate(parts):
        if part.casefold() in BUTTONS or re.fullmatch(r"card \d+", part.casefold()):
            faults.append(f"{part!r} is a button's name")
        for other in parts[i + 1:]:
            if _says_again(part, other):
                faults.append(f"{other!r} says {part!r} again")
    for number, word in re.findall(r"(?<![\w.#+-])(\d+) ([A-Za-z]+)\b", line):
        noun = word[:-1] if word.endswith("s") and word[:-1].lower() in COUNTED else word
        if noun.lower() in COUNTED and word != counted(int(number), noun).split(" ", 1)[1]:
            faults.append(f"{number} {word}: say {counted(int(number), noun)!r}")
        elif int(number) == 1 and word.endswith("s") and word.lower() not in SINGULAR_S:
            faults.append(f"1 {word}: one of a plural")
    return faults


def _says_again(one: str, two: str) -> bool:
    """Whether one part's words are all said again, in order, in the other (case aside)."""
    a, b = (" ".join(p.casefold().split()) for p in (one, two))
    short, long = sorted((a, b), key=len)
    return re.search(rf"(?<!\w){re.escape(short)}(?!\w)", long) is not None


ACRONYMS = {"KERS", "BBBB"}
"""Capitals a footer may hold: a card's own name (KERS), the tire dice's fresh set (a code
with its key)."""


def capitals_faults(text: str) -> list[str]:
    """The words of a footer or a move written in capitals (``DRAW``, ``PIT STOP``): a
    button's name before its colon (``BACK: back``) is the button, not a word."""
    words = re.findall(r"[A-Za-z]+(?::)?", text)
    return [w for w in words if not w.endswith(":") and len(w) >= 3 and w.isupper() and w not in ACRONYMS]


CODE = re.compile(r"(?<![\w#+\-/])([A-Z]{1,4})\d+(\*?)(?![a-z])|(?<![\w#+\-.])\d{1,2}([xs!]+)(?!\w)"
                  r"|(?<!\w)([RBYG]{4})(?!\w)")
"""A code on screen: letters and a number (``DT2``, ``C2*``, ``L0``, ``T6``), a tire die's
face (``5xs``, ``3!``), a set of tire dice (``BBBB``)."""


def view_lines(view) -> list[str]:
    """Every text a view shows: the status, the body's lines and rows, a Big's caption."""
    lines = [view.status or ""]
    for w in view.body:
        if isinstance(w, Menu):
            lines += [str(i) for i in w.items]
        elif isinstance(w, Row):
            lines += [w.left, w.right]
        elif isinstance(w, Big):
            lines += [w.text, w.caption]
        elif hasattr(w, "text"):
            lines.append(w.text)
    return lines


def key_of(lines) -> set[str]:
    """What a key explains: ``DT = Drive Through`` explains ``DT``, ``C2 = corner 2`` ``C``,
    ``B G Y R = tire wear`` each letter."""
    return {re.sub(r"[\d/]+$", "", part) for line in lines if " = " in line
            for part in line.split(" = ", 1)[0].split()}


def code_faults(view, key=()) -> list[str]:
    """The codes ``view`` shows whose letters no key explains: neither a line of the view
    (``DT = Drive Through`` under a list) nor the activity's ``key`` (pause menu > Key)."""
    lines = view_lines(view)
    known = key_of(lines) | key_of(key)
    faults = []
    for line in lines:
        for letters, star, marks, chips in CODE.findall(line):
            parts = [letters] if letters else list(dict.fromkeys(marks)) if marks else list(dict.fromkeys(chips))
            parts += ["*"] if star else []
            faults += [f"{part} in {line!r}" for part in parts if part not in known]
    return faults


def test_the_word_checks_know_a_shout_and_a_code():
    """The checks fail what the screens used to show: a footer in capitals, a code with no
    key; a code with its key under the list passes."""
    assert capitals_faults("PIT STOP") and capitals_faults("DRAW") and capitals_faults("NEXT ROUND")
    assert not capitals_faults("OK: yes  BACK: no") and not capitals_faults("KERS 2")
    assert not capitals_faults("Pit stop") and not capitals_faults("Board: fix car")
    for shown in ("left: DT2 ENG6 OFF2 SC1 TIRE6 YF1", "Tires BBBB", "6xx 8xxx 5xs", "C2*", "T6 B3 G3"):
        assert code_faults(View("Race", (Text(shown),))), shown
    assert code_faults(View("Race", (), status="1/4 L0"))
    keyed = View("Race", (Menu(("left: DT2 SC1", "DT = Drive Through", "SC = Safety Car"), -1),))
    assert code_faults(keyed) == []
    assert code_faults(View("Race", (Text("Tires BBGY"),)), key=("B G Y R = tire chips",)) == []
    for toast in ("Undone: Yellow: DRAW: Engine Trouble", "Undone: Red: R: R", "Undone: Ann: Challenge: challenge"):
        assert history_faults(toast), toast           # a toast that repeats itself
    assert not history_faults(undo_toast("Black: 5th gear, 15 spaces"))


def check_history(act: Activity, runner: SessionRunner) -> None:
    """Every line of the session's history reads as words (``history_faults``), and the
    undo toast says it whole."""
    for entry in runner.history():
        faults = history_faults(entry.label)
        assert not faults, f"{act.slug}: history line {entry.label!r}: {'; '.join(faults)}"
        toast = View("Race", footer="< Roll >", alert=undo_toast(entry.label))
        assert cut_texts(toast, footer=True) == [], f"{act.slug}: the undo toast cuts {entry.label!r}"
        assert toast.alert != "Undone", f"{act.slug}: the undo toast cannot say {entry.label!r}"
        said_twice = history_faults(toast.alert)
        assert not said_twice, f"{act.slug}: the undo toast {toast.alert!r} repeats itself: {said_twice}"


def test_the_history_check_knows_a_line_that_is_not_words():
    """The lines the history used to write are refused; lines in words pass."""
    for line in ("OK", "NEXT ROUND", "Red: R: R", "Yellow: 8: 8", "Yellow: Challenge: challenge",
                 "Trigger card: 1 cards", "Black: DRIVE: gear 5: 15", "Yellow: DRAW: Engine Trouble",
                 "Red: Extend 2: extend Extend 2", "START: decks shuffled", "Yellow: Next: Green", "Next",
                 "Blue: 7xx go 7, 2 space", "Red: Resolve", "Red: Not possible", "Red: Card 40", "Blue: Attack again",
                 "Red: Done", "Red: Show hand"):
        assert history_faults(line), line
    for line in ("Black: 5th gear, 15 spaces", "Trigger card: 1 card", "Tire dice: 5xs 7xx 5x 6xx",
                 "Red: Board: 1 ahead", "Deal tactics: 15 cards", "Red crossed: lap 1", "Red: Pit stop",
                 "Red: Draft for #11 resolved", "Red: soft tires", "Yellow: attacks again"):
        assert not history_faults(line), line


def assumptions(data) -> list[str]:
    """Every ``assumption = "..."`` note of a game's data: words for the owner."""
    if isinstance(data, dict):
        return [n for k, v in data.items() for n in ([v] if k == "assumption" and isinstance(v, str)
                                                      else assumptions(v))]
    if isinstance(data, list):
        return [n for v in data for n in assumptions(v)]
    return []


def check_receipts(act: Activity, state) -> None:
    notes = [" ".join(n.split())[:24] for n in assumptions(setup_of(act)[1]) if len(n) > 24]
    for kind, receipt in act.receipts(state).items():
        assert isinstance(receipt, Receipt), kind
        assert overflows(receipt) == [], f"{act.slug}: {kind} receipt wider than the paper"
        text = " ".join(" ".join(receipt.text_lines()).split())
        told = [n for n in notes if n in text]
        assert not told, f"{act.slug}: a note for the owner on the {kind} receipt: {told}"
        keys = text.split("Key: ")[1:]
        for item in receipt.items:          # every column header is explained under its table
            if isinstance(item, Columns) and item.bold and item.cells[0].strip() in ("#", "Pos"):
                for header in (h.strip() for h in item.cells[2:]):
                    assert header and any(f"{header} =" in k or f"-{header} =" in k for k in keys), \
                        f"{act.slug}: column {header!r} of the {kind} receipt has no key"


def play(act: Activity, journal: Journal, seed: int, last: list | None = None):
    """A session played with random legal moves; (runner, the state before the last move).
    ``last`` gets the last move and its event."""
    options, data = setup_of(act)
    runner = SessionRunner.start(journal, act.slug, options, data)
    rng, pick = random.Random(seed), random.Random(seed * 7919)
    before = None
    check_view(act, runner.state)
    for _ in range(MOVES):
        moves = runner.moves()
        if not moves:
            break
        for move in moves:
            assert len(move.label) <= LABEL_CHARS, f"{act.slug}: label {move.label!r} too long"
        move = pick.choice(moves)
        before = runner.state
        event = runner.perform(move, rng)
        if last is not None:
            last[:] = [move, event]
        assert runner.state == act.apply(before, json.loads(event_json(event))), \
            f"{act.slug}: event {event.get('kind')!r} does not survive JSON"
        check_view(act, runner.state)
        if act.finished(runner.state):
            break
    check_history(act, runner)
    return runner, before


def played(journal: Journal, runner: SessionRunner) -> tuple[dict, dict, list[dict]]:
    """What the journal kept of a played session: its options, its data, its events."""
    session = journal.session(runner.session.id)
    return session.options, session.data, journal.replay(session.id).effective


def shared_play(slug: str) -> str:
    """The name under which the events of ``slug``'s play with the first seed are kept
    for the run (``tests.shared.once_per_run``): the damaged-event test damages them."""
    return f"conformance-play-{slug}-{SEEDS[0]}"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("slug", ACTIVITIES)
def test_random_legal_play_keeps_the_contract(slug, seed, tmp_path, tmp_path_factory):
    act = registry.activity(slug)
    journal = Journal(tmp_path)
    last: list = []
    live: list = []

    def play_here():
        live[:] = play(act, journal, seed, last)
        return played(journal, live[0])

    if seed == SEEDS[0]:        # its events, kept for the damaged-event test
        once_per_run(tmp_path_factory, shared_play(slug), play_here)
    if not live:                # (or that test played them first)
        play_here()
    runner, before = live
    state = runner.state

    resumed = SessionRunner.resume(journal, journal.session(runner.session.id))
    assert resumed.problems == []
    assert resumed.state == state, f"{slug}: the replay differs from the live state"

    check_receipts(act, state)
    standings = act.standings(state)
    assert is_standings(standings), f"{slug}: standings {standings!r}"
    results = runner.results()
    json.dumps(results)                            # results.json can hold them
    act.championship_entries(results)

    if before is not None:
        runner.undo()
        assert runner.state == before, f"{slug}: undo does not give the state before"
        move, event = last
        again = runner.perform(move, random.Random(seed + 1000))
        if resolve_without_dice(act, before, move) is None:      # a random outcome: kept
            assert again == event, f"{slug}: the undone {move.kind!r} made again rolled anew"
        assert runner.state == act.apply(before, again)
    journal.close()


def test_every_registered_game_and_tool_is_checked():
    assert {"dice", "deck", "laps", "street-illegal", "top-speed"} <= set(ACTIVITIES)
    for slug in ACTIVITIES:
        assert isinstance(registry.activity(slug), Activity)


@pytest.mark.parametrize("slug", ACTIVITIES)
def test_every_view_of_the_demo_race_can_be_read_whole(slug, tmp_path):
    act = registry.activity(slug)
    options, data = setup_of(act)
    runner = SessionRunner.start(Journal(tmp_path), act.slug, options, data)
    rng = random.Random(act.demo.seed)
    check_view(act, runner.state)
    for _ in range(MOVES):
        move = act.demo.script(runner.state)
        if move is None:
            break
        runner.perform(move, rng)
        check_view(act, runner.state)
    check_history(act, runner)


@pytest.mark.parametrize("slug", ACTIVITIES)
def test_the_demo_runs_through_the_whole_stack(slug, tmp_path_factory):
    """The scripted race through the real app and devices; no text of any screen it shows
    (titles, bodies, footers and moves) is cut by the display."""
    code, out, cut = demo_of(tmp_path_factory, slug)
    assert code == 0
    summary = json.loads((out / "results.json").read_text())
    assert not cut, f"{slug}: cut by the display: {sorted(cut)}"
    assert summary["moves"] > 0 and summary["frames"] > summary["moves"]
    # the OLED's partial updates near their optimum (docs/performance.md, bench/oled_ratio.py)
    assert summary["display_bus_bytes"] <= OLED_BUS_PER_CHANGED_BYTE * summary["display_changed_bytes"]
    assert summary["printer_overflow"] == 0
    # what the table would hear: every game's race writes its cues (docs/sound.md)
    cues = [json.loads(line) for line in (out / "cues.jsonl").read_text().splitlines()]
    assert [c["cue"] for c in cues] == summary["cues"]
    if slug in registry.GAMES:
        assert cues and cues[-1]["cue"] == "flag" and {c["game"] for c in cues} == {slug}
        assert [c["t"] for c in cues] == sorted(c["t"] for c in cues)
    if summary["standings"]:
        assert is_standings(summary["standings"])
    if slug in DRAWN:      # its results' chart reached the paper as a picture
        from companion.devices.printer_sim import decode, pictures
        (results,) = (out / "receipts").glob("*-results.bin")
        assert pictures(decode(results.read_bytes()).lines)


@pytest.mark.parametrize("slug", ACTIVITIES)
def test_a_damaged_event_is_refused_with_a_message(slug, tmp_path, tmp_path_factory):
    """A journal row that is not the activity's event (an unknown kind, its fields lost or
    of the wrong type) is refused with one of the companion's errors, which say what is
    wrong (RuleError, DeckError, DiceError), never a KeyError or TypeError from deep inside
    the rules. Each kind of event is damaged in the state it was played in."""
    act = registry.activity(slug)

    def play_here():
        journal = Journal(tmp_path)
        try:
            return played(journal, play(act, journal, SEEDS[0])[0])
        finally:
            journal.close()

    # the session the contract test plays with the first seed, played once for both
    options, data, events = once_per_run(tmp_path_factory, shared_play(slug), play_here)
    state, seen = act.setup(options, data), set()
    for event in events:
        if event["kind"] not in seen:
            seen.add(event["kind"])
            damaged = [{"kind": event["kind"]}, {"kind": "no-such-event"}, {}, {"kind": None}, {"kind": [1]}]
            damaged += [{**event, key: bad} for key in event if key != "kind" for bad in (None, "x", [[]])]
            for wrong in damaged:
                try:
                    act.apply(state, wrong)
                except Exception as exc:        # noqa: BLE001 - which error is the point
                    assert type(exc).__module__.startswith("companion."), f"{slug}: {wrong} gave {exc!r}"
                    assert str(exc), wrong
        state = act.apply(state, event)
