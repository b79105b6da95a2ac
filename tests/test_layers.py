"""The layers of the package: nothing imports upwards, so there is no import cycle.

Every module's imports are read with ``ast`` (those inside functions and under
TYPE_CHECKING included) and held against what its layer may use (docs/architecture.md).
"""

import ast
from pathlib import Path

import pytest

import companion

ROOT = Path(companion.__file__).parent

# layer -> packages of companion it must never import
FORBIDDEN = {
    "core": ("games", "tools", "ui", "kit", "devices", "receipts", "app", "session", "demo", "commands"),
    "kit": ("games", "tools", "ui", "devices", "receipts", "app", "session", "demo", "commands"),
    "profile": ("core", "games", "tools", "ui", "kit", "devices", "receipts", "app", "session"),
    "ui": ("games.registry", "games.data", "tools", "devices", "app", "session", "demo", "commands"),
    "receipts": ("games", "tools", "ui", "devices", "app", "session", "kit"),
}


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return {name[len("companion."):] for name in found if name.startswith("companion.")}


def modules(layer: str) -> list[Path]:
    place = ROOT / layer
    return sorted(place.rglob("*.py")) if place.is_dir() else [place.with_suffix(".py")]


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_layer_imports_upwards(layer):
    bad = []
    for path in modules(layer):
        for name in imports(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[layer]):
                bad.append(f"{path.relative_to(ROOT)} imports companion.{name}")
    assert bad == []


def test_game_rules_import_only_core_kit_the_profile_the_contract_and_their_own_package():
    bad = []
    for rules in sorted((ROOT / "games").glob("*/rules.py")):
        own = f"games.{rules.parent.name}"
        for name in imports(rules):
            allowed = ("core", "kit", "profile", "games.api", own)
            if not any(name == a or name.startswith(a + ".") for a in allowed):
                bad.append(f"{rules.relative_to(ROOT)} imports companion.{name}")
    assert bad == []
