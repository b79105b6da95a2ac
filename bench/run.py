"""``make bench``: the appliance's performance budgets, each measured beside its budget.

    .venv/bin/python bench/run.py [--only cold,press,resume,rss,oled,draw] [--game top-speed]

A Pi Zero 2 W is about ten times slower than a desktop, and wall-clock times are noisy,
so speed is counted in instructions with valgrind's callgrind (the same count on every
run, give or take a fraction of a percent). Python runs with its bytecode cached, as on the device,
where the service sets PYTHONPYCACHEPREFIX: this script unsets PYTHONDONTWRITEBYTECODE,
points PYTHONPYCACHEPREFIX at a folder of its own and runs every command once before
measuring it. PYTHONHASHSEED is fixed so that runs repeat. Method and results:
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
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
PYTHON = sys.executable
CALLGRIND = ["valgrind", "--tool=callgrind"]
M = 1_000_000
PARTS = ("cold", "press", "resume", "rss", "oled", "draw")
RESUME_RUNS = (("top-speed", 1000), ("top-speed", 2500), ("top-speed", 5000), ("laps", 1000), ("laps", 5000))
"""(game, events): 5,000 or the longest race the game allows, whichever is shorter."""
GAME_NAMES = {"top-speed": "Top Speed", "laps": "lap counter"}


@dataclass
class Figure:
    name: str
    measured: str
    budget: str = ""
    ok: bool | None = None   # None: shown for reference, no budget


class Bench:
    def __init__(self, work: Path):
        self.work = work
        self.env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        self.env.update(PYTHONPYCACHEPREFIX=str(work / "pycache"), PYTHONHASHSEED="0")
        self.env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(BENCH), os.environ.get("PYTHONPATH")]))
        self.figures: list[Figure] = []
        self.notes: list[str] = []
        self._runs = 0

    def folder(self, name: str) -> Path:
        self._runs += 1
        path = self.work / f"{self._runs:02d}-{name}"
        path.mkdir(parents=True)
        return path

    def run(self, args: list[str], env: dict | None = None, **kw) -> subprocess.CompletedProcess:
        done = subprocess.run(args, env=env or self.env, cwd=ROOT, capture_output=True, text=True, **kw)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(map(str, args[:6]))}... failed:\n{done.stderr[-2000:]}")
        return done

    def callgrind(self, args: list[str], options: list[str] = (), warm: bool = True) -> list[int]:
        """Instructions of each callgrind dump of ``args`` (a Python command), in order,
        the final one (to the end of the process) last. ``warm``: run it once before,
        so every module's bytecode is cached."""
        if warm:
            self.run([PYTHON, *args])
        out = self.folder("callgrind")
        self.run([*CALLGRIND, f"--callgrind-out-file={out}/cg.out", *options, PYTHON, *args])
        dumps = sorted(out.glob("cg.out.*"), key=lambda p: int(p.suffix[1:]))
        totals = [_totals(p) for p in [*dumps, out / "cg.out"]]
        shutil.rmtree(out)
        return totals

    def add(self, *figures: Figure) -> None:
        for figure in figures:
            self.figures.append(figure)
            print(f"  {figure.name}: {figure.measured}", file=sys.stderr, flush=True)

    # -- 1. cold start --------------------------------------------------------------------

    def first_frame(self, hardware: str, state: Path) -> int:
        """Instructions from the process's start to the first frame (bench/first_frame.py)."""
        out = self.folder("frames")
        args = ["bench/first_frame.py", "--hardware", hardware, "--state", str(state), "--out", str(out)]
        return self.callgrind(args, ["--dump-before=os_getppid"])[0]

    def cold(self) -> int:
        bare = self.callgrind(["-c", "pass"])[-1]
        self.add(Figure("Python itself (python -c pass)", _m(bare)))
        state = self.folder("state")
        headless = self.first_frame("headless", state)
        pi = self.first_frame("pi", state)
        self.add(Figure("cold start to first frame, --hardware headless", _m(headless), "<= 400 M", headless <= 400 * M),
                 Figure("cold start to first frame, pi (mock pins, fake I2C)", _m(pi), "<= 600 M", pi <= 600 * M))
        return headless

    # -- 2. button press to frame ---------------------------------------------------------

    def press(self, game: str) -> None:
        out = self.folder("press")
        options = ["--collect-atstart=no", "--toggle-collect=sys_call_tracing", "--zero-before=sys_call_tracing",
                   "--dump-after=os_getppid", "--dump-line=no"]
        totals = self.callgrind(["bench/press_to_frame.py", str(out), "--game", game], options)[:-1]
        gestures = json.loads((out / "gestures.json").read_text())
        if len(totals) != len(gestures):
            raise RuntimeError(f"{len(totals)} callgrind dumps for {len(gestures)} frames")
        median = statistics.median(totals)
        p90 = statistics.quantiles(totals, n=10)[-1]
        self.add(Figure(f"button press to frame, median of {len(totals)} ({game} demo)", _m(median, 2),
                        "<= 3 M", median <= 3 * M),
                 Figure("button press to frame, 90th percentile / worst", f"{_m(p90, 2)} / {_m(max(totals), 2)}"))
        by_kind: dict[str, list[int]] = {}
        for gesture, total in zip(gestures, totals):
            by_kind.setdefault(gesture, []).append(total)
        self.notes.append("press to frame by gesture (median, count): " + ", ".join(
            f"{kind} {_m(statistics.median(v), 2)} x{len(v)}" for kind, v in sorted(by_kind.items())))

    # -- 3. resuming a race ---------------------------------------------------------------

    def resume(self, empty: int | None) -> None:
        from resume import write_journal

        if empty is None:
            empty = self.first_frame("headless", self.folder("state"))
        growth: dict[str, list[tuple[int, int]]] = {}
        for game, events in RESUME_RUNS:
            state = self.folder(f"resume-{game}")
            written = write_journal(state, game, events)
            if any(n == written for n, _ in growth.get(game, [])):
                continue  # the race has fewer events than asked: already measured
            extra = self.first_frame("headless", state) - empty
            growth.setdefault(game, []).append((written, extra))
            self.add(Figure(f"resume a {GAME_NAMES[game]} race of {written:,} events (more than empty)",
                            _m(extra), "<= 250 M", extra <= 250 * M))
        for game, points in growth.items():
            if len(points) >= 2:
                (n0, x0), (n1, x1) = points[0], points[-1]
                per_event = (x1 - x0) / (n1 - n0)
                fixed = x0 - per_event * n0
                self.notes.append(f"resume {GAME_NAMES[game]}: about {fixed / M:.0f} M + {per_event / 1000:.1f} k "
                                  f"per event (linear fit of {n0:,} and {n1:,} events)")

    # -- 4. memory ------------------------------------------------------------------------

    def rss(self) -> None:
        """Peak RSS of a whole demo race: with the bytecode cached (every start but the
        first), on the first start after firmware/install.sh (which compiles the bytecode
        with ``python -m companion.bytecode``), and with no bytecode at all (for reference)."""
        for case in ("cached", "installed", "none"):
            prefix = self.work / f"pycache-rss-{case}"
            env = {**self.env, "PYTHONPYCACHEPREFIX": str(prefix)}
            out = self.folder("demo")
            args = [PYTHON, "-m", "companion.cli", "demo", "--game", "top-speed", "--out", str(out)]
            if case == "cached":
                self.run(args, env=env)
            elif case == "installed":
                self.run([PYTHON, "-m", "companion.bytecode"], env=env)
            child = subprocess.Popen(args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            if child.returncode != 0:
                raise RuntimeError(f"companion demo failed:\n{child.stderr.read().decode()[-2000:]}")
            child.stderr.close()
            peak = usage.ru_maxrss / 1024  # kB on Linux
            if case == "cached":
                self.add(Figure("peak RSS of a whole demo race (companion demo --game top-speed)",
                                f"{peak:.1f} MB", "<= 40 MB", peak <= 40))
            elif case == "installed":
                self.add(Figure("peak RSS, first start after install (bytecode from companion.bytecode)",
                                f"{peak:.1f} MB", "<= 40 MB", peak <= 40))
            else:
                self.add(Figure("peak RSS, first start with no bytecode at all (not the device's case)",
                                f"{peak:.1f} MB"))

    # -- 5. display traffic ---------------------------------------------------------------

    def oled(self, valgrind: bool) -> None:
        partial = _bytes(self.run([PYTHON, "bench/oled_update.py", "partial", "200"]).stdout)
        full = _bytes(self.run([PYTHON, "bench/oled_update.py", "full", "200"]).stdout)
        self.add(Figure(f"OLED bytes on the bus per roll change (luma's full frame: {full:,})", f"{partial:,}",
                        f"<= {full // 4} (1/4 frame)", partial <= full // 4))
        if valgrind:
            none, frames = (self.callgrind(["bench/oled_update.py", "partial", str(n)])[-1] for n in (0, 200))
            self.add(Figure("OLED partial update, instructions per frame", _m((frames - none) / 200, 2)))
        from oled_ratio import BUDGET, ratios   # bus bytes per changed RAM byte, every demo race
        for slug, m in ratios().items():
            self.add(Figure(f"OLED bus bytes / changed RAM bytes, {slug} demo (floor {m['floor_ratio']:.2f})",
                            f"{m['ratio']:.2f}", f"<= {BUDGET}", m["ratio"] <= BUDGET))


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

        for deck, label in decks:
            self.run([PYTHON, *args(deck, 10)])          # bytecode cached
            peaks = {}
            for n in (1_000, 1_000_000):
                with open(os.devnull, "w") as sink:
                    child = subprocess.Popen([PYTHON, *args(deck, n)], env=self.env, cwd=ROOT, stdout=sink,
                                             stderr=subprocess.PIPE)
                    _, status, usage = os.wait4(child.pid, 0)
                if os.waitstatus_to_exitcode(status) != 0:
                    raise RuntimeError(f"companion draw failed:\n{child.stderr.read().decode()[-2000:]}")
                child.stderr.close()
                peaks[n] = usage.ru_maxrss / 1024
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


def _totals(path: Path) -> int:
    match = re.search(r"^totals:\s+(\d+)", path.read_text(errors="replace"), re.M)
    if not match:
        raise RuntimeError(f"no totals in {path}")
    return int(match.group(1))


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(PARTS), help=f"comma-separated parts: {','.join(PARTS)}")
    parser.add_argument("--game", default="top-speed", help="the demo race for the button presses")
    args = parser.parse_args(argv)
    parts = set(args.only.split(","))
    unknown = parts - set(PARTS)
    if unknown:
        parser.error(f"unknown part {sorted(unknown)[0]!r}: use {', '.join(PARTS)}")
    valgrind = shutil.which("valgrind") is not None
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        bench = Bench(Path(tmp))
        print("Instructions counted with callgrind, bytecode cached (PYTHONPYCACHEPREFIX), "
              "PYTHONHASHSEED=0; a Pi Zero 2 W runs about 10x slower than this machine.", file=sys.stderr)
        if not valgrind:
            print("valgrind not installed: apt-get install valgrind (measuring what needs no valgrind)",
                  file=sys.stderr)
        empty = None
        if valgrind and "cold" in parts:
            empty = bench.cold()
        if valgrind and "press" in parts:
            bench.press(args.game)
        if valgrind and "resume" in parts:
            bench.resume(empty)
        if "rss" in parts:
            bench.rss()
        if "oled" in parts:
            bench.oled(valgrind)
        if "draw" in parts:
            bench.draw(valgrind)
    print()
    print(table(bench.figures))
    for note in bench.notes:
        print(f"- {note}")
    if not valgrind:
        print("- skipped (need valgrind): cold start, button press to frame, resume")
    return 0 if all(f.ok is not False for f in bench.figures) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
