"""``make bench``: the appliance's performance budgets, each measured beside its budget.

    .venv/bin/python bench/run.py [--only cold,plain,press,resume,rss,oled,draw,season,largest] [--game dice,3-wide]
                                  [--jobs 2] [--python PATH]

A Pi Zero 2 W is about ten times slower than a desktop, and wall-clock times are noisy,
so speed is counted in instructions with valgrind's callgrind (the same count on every
run, give or take a fraction of a percent). Python runs with its bytecode cached, as on the device,
where the service sets PYTHONPYCACHEPREFIX: this script unsets PYTHONDONTWRITEBYTECODE,
points PYTHONPYCACHEPREFIX at a folder of its own, compiles the bytecode there first
(``python -m companion.bytecode``, as firmware/install.sh does) and runs every cold start
once before measuring it. PYTHONHASHSEED is fixed so that runs repeat. The callgrind runs,
and the demos whose peak RSS is measured, go ``--jobs`` at a time (neither instruction counts
nor a process's own peak depend on it). Method and results:
docs/performance.md. The exit status is 1 when a budget is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
PYTHON = sys.executable
CALLGRIND = ["valgrind", "--tool=callgrind"]
M = 1_000_000
PARTS = ("cold", "plain", "press", "resume", "rss", "oled", "draw", "season", "largest")
PINOUT = ROOT / "hardware" / "pinout.toml"
COLD_BUDGET = {"headless": 340 * M, "pi": 540 * M}
PRESS_MEDIAN, PRESS_P90 = 2.5 * M, 6 * M
RSS_BUDGET = 42
"""MB, a whole demo race of every game and tool, each in a process of its own: 40 until the
results receipts drew their charts in the box's own process (Pillow's drawing and its
built-in bitmap font, about 1.5 MB more), 41 while only Top Speed's was measured."""
SEASON_RACES = 100
SEASON_FIRST, SEASON_AGAIN = 80 * M, 2.5 * M
"""The championship of a 100-race season (bench/season.py): made once after a race
finishes (its races read from the journal and counted: on the press that also prints the
race's results), then taken from the journal's cache for every frame of the screen, which
is a press's budget."""
LARGEST_ANSWER = 1000 * M
"""The table screen's answer after a race on the largest season the box accepts (bench/season.py
fill: 200 races of 40 cars): its page made again, every race read and counted, in the table
screen's own process; paid once a race (about 3 s on a Pi Zero 2 W), every answer after it
is the page already made."""
RESUME_BUDGET = 250 * M
RESUME_FIT = 1000
"""A race longer than twice this is also resumed after this many events (the fixed cost
and the cost per event of a resume, in the notes)."""

sys.path.insert(0, str(BENCH))


@dataclass
class Figure:
    name: str
    measured: str
    budget: str = ""
    ok: bool | None = None   # None: shown for reference, no budget


class Bench:
    def __init__(self, work: Path, jobs: int = 2):
        self.work = work
        self.jobs = max(1, jobs)
        self.env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        self.env.update(PYTHONPYCACHEPREFIX=str(work / "pycache"), PYTHONHASHSEED="0")
        self.env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(BENCH), os.environ.get("PYTHONPATH")]))
        self.figures: list[Figure] = []
        self.notes: list[str] = []
        self._runs = 0
        self._lock = threading.Lock()
        self._compiled: set[str] = set()

    def folder(self, name: str) -> Path:
        with self._lock:
            self._runs += 1
            path = self.work / f"{self._runs:03d}-{name}"
        path.mkdir(parents=True)
        return path

    def run(self, args: list[str], env: dict | None = None, **kw) -> subprocess.CompletedProcess:
        kw.setdefault("cwd", ROOT)
        done = subprocess.run(args, env=env or self.env, capture_output=True, text=True, **kw)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(map(str, args[:6]))}... failed:\n{done.stderr[-2000:]}")
        return done

    def compile(self, python: str = PYTHON) -> None:
        """The bytecode of everything the companion loads, in the bench's pycache (as
        firmware/install.sh does on the device), compiled once per interpreter."""
        with self._lock:
            if python in self._compiled:
                return
            self._compiled.add(python)
            self.run([python, "-m", "companion.bytecode"], cwd=self.work)  # the interpreter's own companion

    def parallel(self, fn, items: list) -> list:
        """``fn(item)`` for each item, ``--jobs`` at a time; the results in order."""
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            return list(pool.map(fn, items))

    def callgrind(self, args: list[str], options: list[str] = (), warm: bool = True,
                  python: str = PYTHON) -> list[int]:
        """Instructions of each callgrind dump of ``args`` (a Python command), in order,
        the final one (to the end of the process) last. ``warm``: run it once before,
        so that what it caches (bytecode, the pinout) is there, as on a device's every
        start but the first."""
        self.compile(python)
        if warm:
            self.run([python, *args])
        out = self.folder("callgrind")
        self.run([*CALLGRIND, f"--callgrind-out-file={out}/cg.out", *options, python, *args])
        dumps = sorted(out.glob("cg.out.*"), key=lambda p: int(p.suffix[1:]))
        totals = [_totals(p) for p in [*dumps, out / "cg.out"]]
        shutil.rmtree(out)
        return totals

    def add(self, *figures: Figure) -> None:
        for figure in figures:
            self.figures.append(figure)
            print(f"  {figure.name}: {figure.measured}", file=sys.stderr, flush=True)

    # -- 1. cold start --------------------------------------------------------------------

    def first_frame(self, hardware: str, state: Path, python: str = PYTHON) -> int:
        """Instructions from the process's start to the first frame (bench/first_frame.py)."""
        return self.start(hardware, state, python)[0]

    def start(self, hardware: str, state: Path, python: str = PYTHON) -> list[int]:
        """bench/first_frame.py's dumps: to the first frame; with ``pi`` then the buttons'
        opening, which follows it; the exit."""
        out = self.folder("frames")
        args = [str(BENCH / "first_frame.py"), "--hardware", hardware, "--state", str(state), "--out", str(out),
                "--pinout", str(PINOUT)]
        return self.callgrind(args, ["--dump-before=os_getppid"], python=python)

    def cold(self, python: str = PYTHON, label: str = "") -> int:
        """Python itself and the cold start of both backends with ``python``; returns the
        headless figure (the resume figures are measured against it)."""
        bare = self.callgrind(["-c", "pass"], python=python)[-1]
        state = self.folder("state")
        self.run([python, str(BENCH / "first_frame.py"), "--hardware", "headless", "--state", str(state),
                  "--out", str(self.folder("frames")), "--pinout", str(PINOUT)])  # a device boots with a journal
        (headless, *_), (pi, buttons, *_) = self.parallel(lambda hw: self.start(hw, state, python),
                                                           ["headless", "pi"])
        self.add(Figure(f"Python itself (python -c pass){label}", _m(bare)),
                 Figure(f"cold start to first frame, --hardware headless{label}", _m(headless),
                        f"<= {_m(COLD_BUDGET['headless'])}", headless <= COLD_BUDGET["headless"]),
                 Figure(f"cold start to first frame, pi (mock pins, fake I2C){label}", _m(pi),
                        f"<= {_m(COLD_BUDGET['pi'])}", pi <= COLD_BUDGET["pi"]),
                 Figure(f"then the buttons open, pi (gpiozero's import, 5 Buttons on mock pins){label}",
                        _m(buttons)))
        return headless

    def plain(self, python: str | None) -> None:
        """The cold start with the companion installed as a device installs it: ``pip
        install .`` (not editable) into a new virtual environment, or ``python`` given."""
        if python is None:
            venv = self.work / "plain-venv"
            self.run([sys.executable, "-m", "venv", str(venv)])
            python = str(venv / "bin" / "python")
            self.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(ROOT)])
            label = " (plain pip install .)"
        else:
            label = f" ({python})"
        self.cold(python, label)

    # -- 2. button press to frame ---------------------------------------------------------

    def press_one(self, game: str) -> tuple[list[int], list[dict]]:
        out = self.folder(f"press-{game}")
        options = ["--collect-atstart=no", "--toggle-collect=sys_call_tracing", "--zero-before=sys_call_tracing",
                   "--dump-after=os_getppid", "--dump-line=no"]
        totals = self.callgrind([str(BENCH / "press_to_frame.py"), str(out), "--game", game], options,
                                warm=False)[:-1]
        frames = json.loads((out / "gestures.json").read_text())
        if len(totals) != len(frames):
            raise RuntimeError(f"{game}: {len(totals)} callgrind dumps for {len(frames)} frames")
        shutil.rmtree(out)
        return totals, frames

    def press(self, games: list[str]) -> None:
        from companion.games.data import title

        done = self.parallel(self.press_one, games)
        for game, (totals, frames) in zip(games, done):
            name = title(game)
            median = statistics.median(totals)
            p90 = statistics.quantiles(totals, n=10)[-1] if len(totals) > 1 else totals[0]
            worst = max(range(len(totals)), key=totals.__getitem__)
            self.add(Figure(f"press to frame, {name} demo: median of {len(totals)}", _m(median, 2),
                            f"<= {_m(PRESS_MEDIAN, 1)}", median <= PRESS_MEDIAN),
                     Figure(f"press to frame, {name} demo: 90th percentile", _m(p90, 2),
                            f"<= {_m(PRESS_P90)}", p90 <= PRESS_P90),
                     Figure(f"press to frame, {name} demo: worst ({_named(frames[worst])})", _m(totals[worst], 2)))
            by_kind: dict[str, list[int]] = {}
            for frame, total in zip(frames, totals):
                by_kind.setdefault(f"{frame['gesture']} on {frame['screen']}", []).append(total)
            slowest = sorted(by_kind.items(), key=lambda kv: -statistics.median(kv[1]))[:4]
            self.notes.append(f"press to frame, {name}: slowest kinds (median, count): " + ", ".join(
                f"{kind} {_m(statistics.median(v), 2)} x{len(v)}" for kind, v in slowest)
                + "; over 6 M: " + (", ".join(f"{_named(f)} {_m(t, 1)}" for f, t in zip(frames, totals)
                                              if t > PRESS_P90)[:600] or "none"))

    # -- 3. resuming a race ---------------------------------------------------------------

    def resume(self, empty: int | None, games: list[str]) -> None:
        """Each journal is written by bench/resume.py in a process of its own: the races
        played in this one would stay in its memory, and every process it starts (the
        peak RSS figures') would begin as a copy of it."""
        from companion.games.data import title

        if empty is None:
            state = self.folder("state")
            self.run([PYTHON, str(BENCH / "first_frame.py"), "--hardware", "headless", "--state", str(state),
                      "--out", str(self.folder("frames")), "--pinout", str(PINOUT)])
            empty = self.first_frame("headless", state)

        def measure(run):
            game, events = run
            state = self.folder(f"resume-{game}")
            told = json.loads(self.run([PYTHON, str(BENCH / "resume.py"), str(state), "--game", game,
                                        *(["--events", str(events)] if events else [])]).stdout)
            return told, self.first_frame("headless", state) - empty

        longest = dict(zip(games, self.parallel(measure, [(game, None) for game in games])))
        fits = [(g, RESUME_FIT) for g in games if longest[g][0]["events"] > 2 * RESUME_FIT]
        partial = dict(zip([g for g, _ in fits], self.parallel(measure, fits)))
        for game in games:
            told, extra = longest[game]
            n = told["written"]
            self.add(Figure(f"resume {title(game)}'s longest race, {n:,} events (more than empty)", _m(extra),
                            f"<= {_m(RESUME_BUDGET)}", extra <= RESUME_BUDGET))
            self.notes.append(f"resume {title(game)}: the longest race is {told['race']}")
            if game in partial:
                (n0, x0), (n1, x1) = (partial[game][0]["written"], partial[game][1]), (n, extra)
                per_event = (x1 - x0) / (n1 - n0)
                self.notes.append(f"resume {title(game)}: about {(x0 - per_event * n0) / M:.0f} M + "
                                  f"{per_event / 1000:.1f} k per event (linear fit of {n0:,} and {n1:,} events)")

    # -- 3b. the championship of a long season ------------------------------------------

    def season(self) -> None:
        """What the box's championship screen (and the receipt, the table screen, a
        driver's record) costs with a season of ``SEASON_RACES`` races in the journal."""
        state = self.folder("season")
        self.run([PYTHON, str(BENCH / "season.py"), "write", str(state), "--races", str(SEASON_RACES)])
        options = ["--collect-atstart=no", "--toggle-collect=sys_call_tracing"]
        runs = [(what, again) for what in ("lines", "receipt", "table", "record") for again in (False, True)]
        counted = self.parallel(lambda run: self.callgrind(
            [str(BENCH / "season.py"), "measure", str(state), "--what", run[0], *(["--again"] if run[1] else [])],
            options, warm=False)[-1], runs)
        names = {"lines": "championship screen", "receipt": "championship receipt",
                 "table": "table screen's championship", "record": "every driver's record"}
        totals, pressed = self.club_presses(state, "club")
        median, p90 = statistics.median(totals), statistics.quantiles(totals, n=10)[-1]
        worst = sorted(range(len(totals)), key=totals.__getitem__)[-2:]
        self.add(Figure(f"press to frame, the club's screens, {SEASON_RACES}-race season: median of {len(totals)}",
                        _m(median, 2), f"<= {_m(PRESS_MEDIAN, 1)}", median <= PRESS_MEDIAN),
                 Figure(f"press to frame, the club's screens: 90th percentile", _m(p90, 2),
                        f"<= {_m(PRESS_P90)}", p90 <= PRESS_P90))
        over = [f"{pressed[k]} {_m(totals[k], 1)}" for k in range(len(totals)) if totals[k] > PRESS_P90]
        self.notes.append("press to frame, the club's screens: the slowest: " + ", ".join(
            f"{pressed[k]} {_m(totals[k], 1)}" for k in reversed(worst)) + " (the races read and counted once)"
            + (f"; over {_m(PRESS_P90)}: " + ", ".join(over) if over else ""))
        for (what, again), total in zip(runs, counted):
            name = f"{names[what]}, {SEASON_RACES}-race season, " + ("again, nothing changed" if again else "after a race")
            if what == "lines":
                budget = SEASON_AGAIN if again else SEASON_FIRST
                self.add(Figure(name, _m(total, 2), f"<= {_m(budget, 1)}", total <= budget))
            else:
                self.add(Figure(name, _m(total, 2)))

    def club_presses(self, state: Path, keys: str) -> tuple[list[int], list[str]]:
        """Each press of bench/season.py's ``keys`` on the journal in ``state``: its
        instructions, and what it was ("OK on Pick"), in order."""
        names_file = state / f"presses-{keys}.json"
        totals = self.callgrind([str(BENCH / "season.py"), "presses", str(state), "--out", str(names_file),
                                 "--keys", keys],
                                ["--collect-atstart=no", "--toggle-collect=sys_call_tracing",
                                 "--zero-before=sys_call_tracing", "--dump-after=os_getppid", "--dump-line=no"],
                                warm=False)[:-1]
        pressed = json.loads(names_file.read_text())
        if len(totals) != len(pressed):
            raise RuntimeError(f"{keys} presses: {len(totals)} callgrind dumps for {len(pressed)} presses")
        return totals, pressed

    # -- 3c. the largest season the box accepts -------------------------------------------

    def largest(self) -> None:
        """The page of the largest season the box accepts (``seasons.MAX_RACES`` races of
        ``exchange.MAX_CARS`` cars, bench/season.py fill) on the box, a press each, and the
        table screen's answer on it after a race."""
        from companion.league import exchange, seasons
        races, cars = seasons.MAX_RACES, exchange.MAX_CARS
        state = self.folder("largest")
        self.run([PYTHON, str(BENCH / "season.py"), "fill", str(state), "--races", str(races), "--cars", str(cars)])
        totals, pressed = self.club_presses(state, "page")
        size = f"{races} races of {cars} cars"
        page = totals[pressed.index("OK on Pick")]
        down = statistics.median(t for t, p in zip(totals, pressed) if p == "DOWN on Lines")
        answer = self.callgrind([str(BENCH / "season.py"), "measure", str(state), "--what", "answer"],
                                ["--collect-atstart=no", "--toggle-collect=sys_call_tracing"], warm=False)[-1]
        self.add(Figure(f"the largest season's page on the box ({size}): the press that opens it", _m(page, 2),
                        f"<= {_m(PRESS_P90)}", page <= PRESS_P90),
                 Figure("the largest season's page: a press down it, median", _m(down, 2),
                        f"<= {_m(PRESS_MEDIAN, 1)}", down <= PRESS_MEDIAN),
                 Figure(f"the table screen's answer on it, after a race ({size})", _m(answer, 2),
                        f"<= {_m(LARGEST_ANSWER)}", answer <= LARGEST_ANSWER))
        first = totals[pressed.index("OK on Home")]
        self.notes.append(f"the largest season ({size}): OK on the home menu's Results, the races read and "
                          f"counted once, {_m(first, 1)} (a race finishing pays as much, on the press that prints "
                          f"its results)")

    # -- 4. memory ------------------------------------------------------------------------

    def rss(self, games: list[str]) -> None:
        """Peak RSS of a whole demo race of each game and tool: with the bytecode cached
        (every start but the first), and on the first start after firmware/install.sh
        (which compiles the bytecode with ``python -m companion.bytecode``), each within
        the budget; with no bytecode at all for Top Speed (for reference). ``--jobs``
        demos at a time: each is a process of its own, measured alone."""
        from companion.games.data import title

        self.compile()

        def demo(run: tuple[str, str]) -> float:
            game, case = run
            env = self.env
            if case != "cached":
                env = {**self.env, "PYTHONPYCACHEPREFIX": str(self.work / f"pycache-rss-{case}-{game}")}
            args = [PYTHON, "-m", "companion.cli", "demo", "--game", game, "--out", str(self.folder("demo"))]
            if case == "cached":
                self.run(args, env=env)       # the bytecode of what the demo loads, cached
            elif case == "installed":
                self.run([PYTHON, "-m", "companion.bytecode"], env=env)
            return _peak_rss(args, env)

        runs = [(game, case) for case in ("cached", "installed") for game in games]
        runs += [("top-speed", "none")] if "top-speed" in games else []
        for (game, case), peak in zip(runs, self.parallel(demo, runs)):
            name = f"companion demo --game {game}"
            if case == "cached":
                self.add(Figure(f"peak RSS of a whole demo race, {title(game)} ({name})",
                                f"{peak:.1f} MB", f"<= {RSS_BUDGET} MB", peak <= RSS_BUDGET))
            elif case == "installed":
                self.add(Figure(f"peak RSS, first start after install (bytecode from companion.bytecode), "
                                f"{title(game)}", f"{peak:.1f} MB", f"<= {RSS_BUDGET} MB", peak <= RSS_BUDGET))
            else:
                self.add(Figure(f"peak RSS, first start with no bytecode at all, {title(game)} "
                                "(not the device's case)", f"{peak:.1f} MB"))

    # -- 5. display traffic ---------------------------------------------------------------

    def oled(self, valgrind: bool) -> None:
        partial = _bytes(self.run([PYTHON, "bench/oled_update.py", "partial", "200"]).stdout)
        full = _bytes(self.run([PYTHON, "bench/oled_update.py", "full", "200"]).stdout)
        self.add(Figure(f"OLED bytes on the bus per roll change (luma's full frame: {full:,})", f"{partial:,}",
                        f"<= {full // 4} (1/4 frame)", partial <= full // 4))
        if valgrind:
            none, frames = (self.callgrind(["bench/oled_update.py", "partial", str(n)])[-1] for n in (0, 200))
            self.add(Figure("OLED partial update, instructions per frame", _m((frames - none) / 200, 2)))
        from oled_ratio import BUDGET, OPTIMUM_MARGIN, budget   # bus bytes per changed RAM byte
        # in a process of its own: the demo races would stay in this one's memory, and every
        # process started after (the big draws' peak RSS) would begin as a copy of it
        measured = json.loads(self.run([PYTHON, str(BENCH / "oled_ratio.py"), "--json"]).stdout)
        margin = f"{OPTIMUM_MARGIN:.2f} x optimum"
        for slug, m in measured.items():
            limit = budget(m)
            held = f"<= {limit:.3f}" + ("" if limit == BUDGET else f" ({margin})")
            self.add(Figure(f"OLED bus bytes / changed RAM bytes, {slug} demo (optimum {m['optimum_ratio']:.3f}, "
                            f"bound {m['bound_ratio']:.2f})", f"{m['ratio']:.3f}", held, m["ratio"] <= limit))


    # -- 6. the toolkit's big draws ----------------------------------------------------------

    def draw(self, valgrind: bool) -> None:
        """``companion draw ... -n 1000000 --json``: peak RSS for the game's track deck and
        for an owner's deck of the largest size the data allows (500 entries x 1000 = 500,000
        cards); with valgrind, the instructions each further card costs in both (drawing
        one by one used to copy the whole pile for every card)."""
        state = self.folder("draw-state")
        games = state / "games"
        games.mkdir()
        entries = ", ".join(f'{{ name = "c{i}", count = 1000, v = {i} }}' for i in range(500))
        (games / "street-illegal.toml").write_text(f'[decks.huge]\nlabel = "Huge"\ncards = [{entries}]\n')
        decks = (("track", "the track deck"), ("huge", "an owner deck of 500,000 cards"))

        def args(deck: str, n: int) -> list[str]:
            return ["-m", "companion.cli", "draw", "street-illegal", deck, "-n", str(n), "--json", "--seed", "1",
                    "--state", str(state)]

        self.compile()
        for deck, label in decks:
            self.run([PYTHON, *args(deck, 10)])          # bytecode cached
            peaks = {}
            for n in (1_000, 1_000_000):
                peaks[n] = _peak_rss([PYTHON, *args(deck, n)], self.env)
            small, big = peaks[1_000], peaks[1_000_000]
            # -n adds nothing that grows with it: at most one reshuffle's copies of the pile
            limit = min(40.0, small + 2) if deck == "track" else small + 8
            self.add(Figure(f"peak RSS, draw -n 1000000 --json from {label} (-n 1000: {small:.1f} MB)",
                            f"{big:.1f} MB", f"<= {limit:.1f} MB", big <= limit))
        if not valgrind:
            return
        per_card = {}
        for deck, label in decks:
            few, many = (self.callgrind(args(deck, n), warm=False)[-1] for n in (20_000, 60_000))
            per_card[deck] = (many - few) / 40_000
            self.add(Figure(f"instructions per card drawn (-n 20,000 to 60,000), {label}",
                            f"{per_card[deck]:,.0f}"))
        ratio = per_card["huge"] / per_card["track"]
        self.add(Figure("per-card cost, 500,000-card deck / track deck", f"{ratio:.2f}", "<= 2", ratio <= 2))


def _peak_rss(args: list[str], env: dict) -> float:
    """Peak RSS in MB of the command ``args`` (``ru_maxrss``, measured by bench/peak_rss.py
    so that the bench's own size is not counted), its output discarded. stderr goes to a
    file, not a pipe: a child saying much there would block on a full pipe."""
    with open(os.devnull, "w") as sink, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", suffix=".kb") as peak:
        done = subprocess.run([sys.executable, str(BENCH / "peak_rss.py"), peak.name, "--", *map(str, args)],
                              env=env, cwd=ROOT, stdout=sink, stderr=err)
        if done.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"{' '.join(map(str, args[:6]))}... failed:\n{err.read().decode()[-2000:]}")
        return int(peak.read()) / 1024  # kB on Linux


def _totals(path: Path) -> int:
    match = re.search(r"^totals:\s+(\d+)", path.read_text(errors="replace"), re.M)
    if not match:
        raise RuntimeError(f"no totals in {path}")
    return int(match.group(1))


def _named(frame: dict) -> str:
    """A measured press as a person finds it: the gesture, the screen, what it showed."""
    shown = " ".join(filter(None, [repr(frame["title"]) if frame["title"] else "", f"[{frame['footer']}]"
                                   if frame["footer"] else ""]))
    return f"{frame['gesture']} on {frame['screen']} {shown}".strip()


def _bytes(output: str) -> int:
    return int(re.search(r"(\d+) bytes", output).group(1))


def _m(instructions: float, digits: int = 0) -> str:
    return f"{instructions / M:,.{digits}f} M"


def table(figures: list[Figure]) -> str:
    rows = [("figure", "measured", "budget", "ok")]
    rows += [(f.name, f.measured, f.budget or "-", {True: "yes", False: "NO", None: ""}[f.ok]) for f in figures]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [" | ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
             for r in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    from companion.games import registry

    every = [e.slug for e in registry.playable()]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(PARTS), help=f"comma-separated parts: {','.join(PARTS)}")
    parser.add_argument("--game", default="all",
                        help=f"comma-separated activities for the press, resume and rss parts "
                             f"(default all: {','.join(every)})")
    parser.add_argument("--jobs", type=int, default=2,
                        help="callgrind runs, and demos measured for peak RSS, at a time (default 2)")
    parser.add_argument("--python", help="part plain: measure the cold start with this interpreter (a companion "
                                         "installed in its environment) instead of a new `pip install .`")
    args = parser.parse_args(argv)
    parts = set(args.only.split(","))
    unknown = parts - set(PARTS)
    if unknown:
        parser.error(f"unknown part {sorted(unknown)[0]!r}: use {', '.join(PARTS)}")
    games = every if args.game == "all" else args.game.split(",")
    for game in games:
        if game not in every:
            parser.error(f"unknown activity {game!r}: use {', '.join(every)}")
    from resume import GAMES as RESUMABLE
    valgrind = shutil.which("valgrind") is not None
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        bench = Bench(Path(tmp), args.jobs)
        print("Instructions counted with callgrind, bytecode cached (PYTHONPYCACHEPREFIX), "
              "PYTHONHASHSEED=0; a Pi Zero 2 W runs about 10x slower than this machine.", file=sys.stderr)
        if not valgrind:
            print("valgrind not installed: apt-get install valgrind (measuring what needs no valgrind)",
                  file=sys.stderr)
        empty = None
        if valgrind and "cold" in parts:
            empty = bench.cold()
        if valgrind and "plain" in parts:
            bench.plain(args.python)
        if valgrind and "press" in parts:
            bench.press(games)
        if valgrind and "resume" in parts:
            bench.resume(empty, [g for g in games if g in RESUMABLE])
        if valgrind and "season" in parts:
            bench.season()
        if valgrind and "largest" in parts:
            bench.largest()
        if "rss" in parts:
            bench.rss(games)
        if "oled" in parts:
            bench.oled(valgrind)
        if "draw" in parts:
            bench.draw(valgrind)
    print()
    print(table(bench.figures))
    for note in bench.notes:
        print(f"- {note}")
    if not valgrind:
        print("- skipped (need valgrind): cold start, plain install, button press to frame, resume, season, largest")
    missed = [f.name for f in bench.figures if f.ok is False]
    print(f"- {len(bench.figures)} figures, {len(missed)} over budget; {time.monotonic() - started:.0f} s "
          f"with --jobs {args.jobs}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
