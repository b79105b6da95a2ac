"""The start does not grow with the number of game packs.

Nothing a pack holds is imported or read before the pack is chosen: the home menu's
titles come from the registry's entries, and an owner's rename from their own file in
the state directory (docs/game-data.md). Each start runs in a new process (``START``:
``companion run --hardware headless`` as far as its first frame, as bench/first_frame.py
measures it) with an audit hook recording every module imported and every file opened.
With 200 more packs registered (real packages, whose import would fail loudly) the start
imports the same modules and opens the same files as with none, and lists the 200 on its
home menu. The starts measured are second starts, as a device's every start but its first.
"""

import json
import os
import subprocess
import sys

from companion.games import registry
from tests.conftest import ROOT

START = r"""
import json, os, sys
from pathlib import Path

extra, fakes, state = int(sys.argv[1]), sys.argv[2], sys.argv[3]
sys.path.insert(0, fakes)
imported, opened, listed = [], [], []

def audit(event, args):
    if event == "import":
        imported.append(args[0])
    elif event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        opened.append(os.fsdecode(args[0]))
    elif event == "os.listdir":
        listed.append(os.fsdecode(args[0]))

from companion.games import registry
for i in range(extra):
    slug = f"pack-{i:03d}"
    registry.GAMES[slug] = registry.Entry(slug, f"fakepacks.pack_{i:03d}", "game", f"Pack {i:03d}")
sys.addaudithook(audit)

from companion.cli import build_parser
from companion.runtime import Runtime
os.environ["COMPANION_EXIT_AFTER_FIRST_FRAME"] = "1"
args = build_parser("run").parse_args(["run", "--hardware", "headless", "--state", state,
                                       "--out", str(Path(state) / "frames")])
with Runtime.open(hardware=args.hardware, state=args.state, out=args.out) as runtime:
    runtime.app.run(runtime.board.buttons)
    seen = (sorted(set(imported)), sorted(set(opened)), sorted(set(listed)))
    menu = [label for _, label in runtime.app.screen.items(runtime.app)]
print(json.dumps({"imported": seen[0], "opened": seen[1], "listed": seen[2], "menu": menu}))
"""


def fake_packs(folder, count):
    """``count`` game packages with a data file each; importing one fails."""
    root = folder / "fakepacks"
    root.mkdir(parents=True)
    (root / "__init__.py").write_text("")
    for i in range(count):
        pack = root / f"pack_{i:03d}"
        pack.mkdir()
        (pack / "__init__.py").write_text("raise ImportError('a game pack was imported before it was chosen')\n")
        (pack / "data.toml").write_text(f'[game]\nname = "Pack {i:03d} from its data"\nplayers = [2, 4]\n')
    return folder


def start(tmp_path, extra, name):
    state = tmp_path / name
    state.mkdir()
    (state / "games").mkdir()
    (state / "games" / "top-speed.toml").write_text('[game]\nname = "Le Mans"\n')  # the owner's rename
    env = {**os.environ, "COMPANION_PINOUT": str(ROOT / "hardware" / "pinout.toml")}
    for _ in range(2):  # the second start: a device's every start but its first
        done = subprocess.run([sys.executable, "-c", START, str(extra), str(tmp_path / "packs"), str(state)],
                              capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
        assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    # the same start in another state folder: compare files by their place in it
    seen["opened"] = sorted({p.replace(str(state), "STATE") for p in seen["opened"]})
    seen["listed"] = sorted({p.replace(str(state), "STATE") for p in seen["listed"]})
    return seen


def test_the_start_reads_and_imports_nothing_of_any_pack_however_many_there_are(tmp_path):
    fake_packs(tmp_path / "packs", 200)
    alone = start(tmp_path, 0, "alone")
    crowded = start(tmp_path, 200, "crowded")

    assert crowded["imported"] == alone["imported"]
    assert crowded["opened"] == alone["opened"]
    assert [f"Pack {i:03d}" for i in range(200)] == [t for t in crowded["menu"] if t.startswith("Pack ")]

    packages = [e.package for e in (*registry.GAMES.values(), *registry.TOOLS.values())]
    assert [m for m in crowded["imported"] if m.startswith("fakepacks")] == []
    assert [m for m in crowded["imported"] if any(m == p or m.startswith(p + ".") for p in packages)] == []
    assert [p for p in crowded["opened"] if p.endswith("data.toml")] == []
    # the owner's rename is on the menu: their file was the only game file read
    assert "Le Mans" in crowded["menu"] and "Top Speed" not in crowded["menu"]
    assert [p for p in crowded["opened"] if p.endswith(".toml")] == ["STATE/games/top-speed.toml"]
    assert "tomllib" in crowded["imported"]  # to read that file (the pinout was kept as JSON)


def test_without_owner_files_the_start_parses_no_toml_at_all(tmp_path):
    """The pinout is read from the JSON kept by the previous start (load_toml's cache)."""
    state = tmp_path / "state"
    state.mkdir()
    env = {**os.environ, "COMPANION_PINOUT": str(ROOT / "hardware" / "pinout.toml")}
    first = second = None
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", START, "0", str(tmp_path), str(state)],
                              capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
        assert done.returncode == 0, done.stderr
        first, second = second, json.loads(done.stdout)
    assert "tomllib" in first["imported"]           # the first start parses the pinout...
    assert "tomllib" not in second["imported"]      # ... the next ones read what it kept
    assert "Top Speed" in second["menu"]
