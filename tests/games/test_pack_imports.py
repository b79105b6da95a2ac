"""No import cycle inside a pack: a game's or a tool's modules import each other one way
(Formula Dé's road, qualifying, automaton and results build on its state.py and
moving.py, and rules.py on all of them). Every import is counted, those inside
functions too."""

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKS = sorted(p.parent for p in (ROOT / "companion").glob("*/*/pack.py"))


def imports_inside(folder: Path, package: str) -> dict[str, set[str]]:
    """Each module of the package ``folder`` and the modules of the same package it imports."""
    modules = {p.stem for p in folder.glob("*.py")}
    edges = {}
    for path in folder.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == package:
                found |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith(package + "."):
                found.add(node.module[len(package) + 1:].split(".")[0])
            elif isinstance(node, ast.ImportFrom) and node.level:
                raise AssertionError(f"{path}: a relative import (the packs import by full name)")
            elif isinstance(node, ast.Import):
                found |= {a.name[len(package) + 1:].split(".")[0] for a in node.names
                          if a.name.startswith(package + ".")}
        edges[path.stem] = found - {path.stem}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Each module that reaches itself, with the way round (shortest first)."""
    found = []
    for start in sorted(edges):
        ways = [[start]]
        seen = set()
        while ways:
            way = ways.pop(0)
            for nxt in sorted(edges.get(way[-1], ())):
                if nxt == start:
                    found.append(way + [start])
                    ways = []
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    ways.append(way + [nxt])
    return found


def test_every_pack_is_looked_at():
    assert {p.name for p in PACKS} >= {"formula_de", "three_wide", "top_speed", "lacorsa", "street_illegal",
                                       "dice_roller", "deck_shuffler", "lap_counter"}


@pytest.mark.parametrize("folder", PACKS, ids=lambda p: p.name)
def test_no_import_cycle_inside_a_pack(folder):
    package = ".".join(folder.relative_to(ROOT).parts)
    assert cycles(imports_inside(folder, package)) == []


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path):
    folder = tmp_path / "rally"
    folder.mkdir()
    (folder / "rules.py").write_text("from companion.games.rally import road\n")
    (folder / "road.py").write_text("def sweet():\n    from companion.games.rally import rules as R\n")
    (folder / "tables.py").write_text("import companion.games.rally.rules\n")
    edges = imports_inside(folder, "companion.games.rally")
    assert edges == {"rules": {"road"}, "road": {"rules"}, "tables": {"rules"}}
    assert cycles(edges) == [["road", "rules", "road"], ["rules", "road", "rules"]]
