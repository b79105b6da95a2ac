"""The rooms of the package and their floors: no room reaches itself through another.

A room is a top-level module or sub-package of ``companion`` (``core``, ``league``,
``app``...). Every import of every module is counted: at the top, inside functions, under
TYPE_CHECKING, relative ones, ``tools/*/rules.py`` as much as any other. From them the
room graph is made (room -> the rooms it imports); it must have no cycle, and each room
imports only the rooms below its floor (docs/architecture.md draws the same table).
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

import pytest

import companion

ROOT = Path(companion.__file__).parent

# What each room may import: the "may import" column of docs/architecture.md's table of
# rooms (test_the_architecture_table_says_the_same). Every room of the package is named.
MAY_IMPORT: dict[str, tuple[str, ...]] = {
    "profile": (),
    "paths": (),
    "core": (),
    "bytecode": (),
    "qr": (),
    "cues": (),
    "kit": ("core", "profile"),
    "charts": ("core",),
    "autobackup": ("core",),
    "ui": ("kit", "profile", "qr"),
    "receipts": ("core", "charts", "qr"),
    "games": ("core", "profile", "kit", "charts", "ui", "receipts"),
    "devices": ("core", "receipts", "qr", "cues"),
    "tools": ("core", "profile", "kit", "charts", "ui", "receipts", "games"),
    "session": ("core", "kit", "games"),
    "league": ("core", "kit", "charts", "receipts", "games", "session"),
    "table": ("core", "kit", "games", "league", "devices"),
    "app": ("core", "profile", "kit", "ui", "receipts", "games", "session", "league", "table", "devices", "cues"),
    "demo": ("core", "paths", "ui", "receipts", "games", "devices", "app", "cues"),
    "runtime": ("core", "paths", "ui", "devices", "autobackup", "app", "cues"),
    "commands": ("core", "paths", "games", "league", "table", "devices", "demo", "runtime"),
    "cli": ("core", "games", "commands"),
}

@dataclass(frozen=True)
class Edge:
    source: str          # the importing room
    target: str          # the imported room
    where: str           # file:line of the import


def rooms(root: Path = ROOT) -> list[str]:
    """Every room of the package: its top-level modules and sub-packages."""
    out = [p.stem for p in root.glob("*.py") if p.stem != "__init__"]
    out += [p.name for p in root.iterdir() if p.is_dir() and (p / "__init__.py").exists()]
    return sorted(out)


def room_of(path: Path, root: Path = ROOT) -> str:
    rel = path.relative_to(root)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _package_of(path: Path, root: Path) -> list[str]:
    """``companion.x.y`` as parts for a module's package (for relative imports)."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return parts if path.name == "__init__.py" else parts[:-1]


@functools.cache
def imported(path: Path, root: Path = ROOT) -> tuple[tuple[str, int], ...]:
    """Every module of ``companion`` a file imports, with the line (each file parsed once a
    run: several tests read the same graph): ``import``, ``from``
    (relative ones resolved, ``from companion import x`` as ``companion.x``), anywhere in
    the file, and ``importlib.import_module("companion....")`` with a literal name."""
    out: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = _package_of(path, root)
                base = package[:len(package) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.append((module, node.lineno))
            out += [(f"{module}.{a.name}", node.lineno) for a in node.names]
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            out.append((node.args[0].value, node.lineno))
    return tuple((name, line) for name, line in out if name == "companion" or name.startswith("companion."))


def edges(root: Path = ROOT) -> list[Edge]:
    """Every import from one room into another, with where it is made."""
    names = set(rooms(root))
    out = []
    for path in sorted(root.rglob("*.py")):
        source = room_of(path, root)
        for name, line in imported(path, root):
            parts = name.split(".")
            if len(parts) < 2 or parts[1] not in names or parts[1] == source:
                continue
            out.append(Edge(source, parts[1], f"companion/{path.relative_to(root)}:{line}"))
    return sorted(set(out), key=lambda e: (e.source, e.target, e.where))


def graph(found: list[Edge]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for e in found:
        out.setdefault(e.source, set()).add(e.target)
        out.setdefault(e.target, set())
    return out


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one room (Tarjan's algorithm),
    each sorted, and any room importing itself: every cycle of the graph lies in one."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1 or v in g.get(v, ()):
                out.append(sorted(part))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return sorted(out)


def cycle_report(found: list[Edge]) -> str:
    """Each cycle, and the file:line of every import between its rooms."""
    lines = []
    for part in cycles(graph(found)):
        lines.append("cycle: " + " <-> ".join(part))
        lines += [f"  {e.source} -> {e.target}  {e.where}" for e in found
                  if e.source in part and e.target in part]
    return "\n".join(lines)


def floors(allowed: dict[str, tuple[str, ...]] = MAY_IMPORT) -> dict[str, int]:
    """Each room's floor: 0 for a room that imports none of the others, else one above the
    highest floor it may import (the allowed graph has no cycle: test below)."""
    out: dict[str, int] = {}

    def floor(room: str) -> int:
        if room not in out:
            out[room] = 1 + max((floor(r) for r in allowed[room]), default=-1)
        return out[room]

    for room in allowed:
        floor(room)
    return out


# -- the checks -------------------------------------------------------------------------

def test_every_room_is_named():
    assert sorted(MAY_IMPORT) == rooms()
    assert all(r in MAY_IMPORT for allowed in MAY_IMPORT.values() for r in allowed)


def test_no_room_is_in_an_import_cycle():
    report = cycle_report(edges())
    assert report == "", "import cycles between rooms:\n" + report


def test_what_the_rooms_may_import_has_no_cycle_either():
    """So every room has a floor, and a room only ever imports rooms on floors below it."""
    assert cycles({room: set(allowed) for room, allowed in MAY_IMPORT.items()}) == []
    assert all(floors()[r] < floors()[room] for room, allowed in MAY_IMPORT.items() for r in allowed)


def test_every_room_imports_only_what_it_may():
    bad = [f"{e.source} -> {e.target}  {e.where}" for e in edges()
           if e.target not in MAY_IMPORT[e.source]]
    assert bad == [], "imports a room may not make (docs/architecture.md):\n" + "\n".join(bad)


def test_the_cycle_check_finds_a_cycle_and_the_imports_behind_it():
    made = [Edge("ui", "games", "companion/ui/wizard.py:3"), Edge("games", "kit", "companion/games/api.py:9"),
            Edge("games", "receipts", "companion/games/x.py:1"), Edge("receipts", "ui", "companion/receipts/y.py:2"),
            Edge("core", "core", "companion/core/z.py:4"), Edge("kit", "core", "companion/kit/a.py:5")]
    assert cycles(graph(made)) == [["core"], ["games", "receipts", "ui"]]
    report = cycle_report(made)
    assert "cycle: games <-> receipts <-> ui" in report
    assert "ui -> games  companion/ui/wizard.py:3" in report and "kit" not in report
    assert cycles(graph(made[1:])) == [["core"]]           # one edge less: that cycle is gone


def test_every_kind_of_import_is_counted(tmp_path):
    """Inside a function, under TYPE_CHECKING, relative, ``from companion import x`` and a
    literal ``import_module``: each is an edge."""
    pkg = tmp_path / "companion"
    (pkg / "ui").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "ui" / "__init__.py").write_text("")
    (pkg / "ui" / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from companion.games.api import Activity\n"
        "def f():\n    from .. import league\n    from ..kit import text\n"
        "    import companion.session\n"
        "import importlib\nimportlib.import_module('companion.table.qr')\n")
    for room in ("games", "league", "kit", "table"):
        (pkg / room).mkdir()
        (pkg / room / "__init__.py").write_text("")
    (pkg / "session.py").write_text("")
    got = {(e.source, e.target, e.where.rsplit(":", 1)[1]) for e in edges(pkg)}
    assert got == {("ui", "games", "3"), ("ui", "league", "5"), ("ui", "kit", "6"), ("ui", "session", "7"),
                   ("ui", "table", "9")}


# -- what a layer must never import, whatever its floor --------------------------------

def imports(path: Path) -> set[str]:
    return {name[len("companion."):] for name, _ in imported(path) if name.startswith("companion.")}


def test_game_and_tool_rules_import_only_core_kit_the_profile_the_contract_and_their_own_package():
    """A tool's rules also read a game's data (its dice, decks and points): ``games.data``."""
    bad = []
    for rules in sorted([*(ROOT / "games").glob("*/rules.py"), *(ROOT / "tools").glob("*/rules.py")]):
        own = f"{rules.parent.parent.name}.{rules.parent.name}"
        allowed = ("core", "kit", "profile", "games.api", own)
        if rules.parent.parent.name == "tools":
            allowed += ("games.data",)
        for name in imports(rules):
            if name == "games" and "games.data" in allowed:      # from companion.games import data
                continue
            if not any(name == a or name.startswith(a + ".") for a in allowed):
                bad.append(f"{rules.relative_to(ROOT)} imports companion.{name}")
    assert bad == []


@pytest.mark.parametrize("room", ["ui", "kit", "core", "profile", "receipts"])
def test_no_game_is_known_below_the_games(room):
    """The screens, the kit and the receipts know no game: not the registry, not the contract."""
    place = ROOT / room
    paths = sorted(place.rglob("*.py")) if place.is_dir() else [place.with_suffix(".py")]
    bad = [f"{p.relative_to(ROOT)} imports companion.{n}" for p in paths for n in imports(p)
           if n == "games" or n.startswith("games.") or n == "tools" or n.startswith("tools.")]
    assert bad == []


def test_the_architecture_table_says_the_same():
    """docs/architecture.md's table of rooms: every room once, on its floor, allowed to
    import what MAY_IMPORT allows (the rooms named in backticks in its last column)."""
    import re

    text = (ROOT.parent / "docs" / "architecture.md").read_text()
    section = text[text.index("## Rooms and floors"):text.index("## The activity contract")]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].isdigit():
            room = cells[1].strip("`")
            named = [r for r in re.findall(r"`([a-z_]+)`", cells[3]) if r in MAY_IMPORT]
            rows[room] = (int(cells[0]), named)
    assert sorted(rows) == rooms()
    for room, (floor, named) in rows.items():
        assert floor == floors()[room], room
        assert set(named) >= set(MAY_IMPORT[room]), room
        assert set(named) <= set(MAY_IMPORT[room]) | {room}, room
