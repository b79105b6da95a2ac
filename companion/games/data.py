"""Each game's data by slug: its built-in ``data.toml`` with the owner's overrides.

``load(slug)`` reads ``companion/games/<package>/data.toml``, lays the owner's
``<override_dir>/games/<slug>.toml`` over it (table by table) and checks it
(``companion.core.gamedata.validate``). A mistake is a ConfigError that names the file
(the owner's when the mistake is theirs), the key and the fix.
"""

from __future__ import annotations

import copy
import importlib.util
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.core import gamedata
from companion.games import registry

if TYPE_CHECKING:  # built only when dice or cards are asked for
    from companion.core.deck import Card
    from companion.core.dice import Die

_cache: dict[tuple[str, str], dict[str, Any]] = {}


def _signature(path: Path) -> str:
    """The owner's file as a cache key: an edited file is read again."""
    try:
        st = path.stat()
    except OSError:
        return f"{path}:absent"
    return f"{path}:{st.st_mtime_ns}:{st.st_size}"


def data_path(slug: str) -> Path:
    """Where the built-in data file of game ``slug`` lives (it may not exist yet)."""
    spec = importlib.util.find_spec(registry.game_package(slug))  # UnknownName for an unknown slug
    return Path(next(iter(spec.submodule_search_locations))) / "data.toml"


def override_path(slug: str, override_dir: str | Path) -> Path:
    """The owner's file for game ``slug`` under the state directory ``override_dir``."""
    return Path(override_dir) / "games" / f"{slug}.toml"


def entries_dir(slug: str, override_dir: str | Path) -> Path:
    """The owner's folder of entry files for game ``slug``: ``<state>/games/<slug>/``,
    one folder a table (``circuits/``), one file an entry (``my-circuit-1.toml``)."""
    return Path(override_dir) / "games" / slug


def pieces(slug: str, override_dir: str | Path | None) -> dict[tuple[str, str], Path]:
    """(table, id) -> file of every entry file the owner has for game ``slug``."""
    out: dict[tuple[str, str], Path] = {}
    if override_dir is None:
        return out
    folder = entries_dir(slug, override_dir)
    try:
        tables = sorted(p for p in folder.iterdir() if p.is_dir())
    except OSError:          # no folder: no entry files
        return out
    for table in tables:
        for path in sorted(table.glob("*.toml")):
            out[(table.name, path.stem)] = path
    return out


def has_data(slug: str) -> bool:
    return data_path(slug).is_file()


def games_with_data() -> list[str]:
    """Slugs of the games that have a data file, in menu order."""
    return [slug for slug in registry.game_slugs() if has_data(slug)]


def load(slug: str, override_dir: str | Path | None = None, *, check: bool = True) -> dict[str, Any]:
    """The data of game ``slug`` with the owner's overrides, checked: the common tables
    (dice, decks, points) here, and with ``check`` the pack's own tables by the pack
    (``Activity.check_data``; loads the pack). A mistake is a ConfigError naming the file
    the key came from. Cached per process (until the owner's file changes); the caller
    gets its own copy."""
    over = override_path(slug, override_dir) if override_dir is not None else None
    files = pieces(slug, override_dir)
    key = (slug, (_signature(over) if over is not None else "") + "".join(_signature(p) for p in files.values()))
    if key not in _cache:
        _cache[key] = gamedata.load_files(data_path(slug), over, files)
    if check and key not in _checked:
        _check_by_pack(slug, _cache[key], over, files)
        _checked.add(key)
    return copy.deepcopy(_cache[key])


_checked: set[tuple[str, str]] = set()


def _check_by_pack(slug: str, data: dict[str, Any], over: Path | None, files=None) -> None:
    from companion.core.config import ConfigError
    from companion.kit.errors import DataError

    entry = registry.entry(slug)
    if not entry.playable:
        return
    try:
        entry.load().check_data(data)
    except DataError as exc:
        raise ConfigError(gamedata.blame(exc.keys, data_path(slug), over, files), ".".join(exc.keys),
                          exc.problem, exc.fix) from None


def add_entry(slug: str, override_dir: str | Path, table: str, name: str, entry: dict[str, Any],
              label: str = "", entry_id: str | None = None) -> tuple[str, str]:
    """An entry of game ``slug``'s table ``table`` described on the box (a circuit),
    called ``label`` (blank: ``<name> <n>``, the first n free), checked by the pack with the
    data it joins and written to ``<state>/games/<slug>/<table>/<id>.toml``; with
    ``entry_id``, the owner's entry file of that id changed in place. Returns (id, label).
    An entry the pack refuses, or a label another entry has, is a RuleError saying why;
    nothing is written then."""
    from companion.core.config import dump_toml
    from companion.kit import entries
    from companion.kit.errors import DataError, RuleError

    data = load(slug, override_dir)
    folder = entries_dir(slug, override_dir) / table
    rows = dict(data.get(table) or {})
    if entry_id is not None:
        if (table, entry_id) not in pieces(slug, override_dir):
            raise RuleError(f"no {entry_id} among the entries described on the box")
        label = label or entries.labels(rows).get(entry_id, entry_id)
    else:
        rows.update({p.stem: {} for p in folder.glob("*.toml") if p.stem not in rows})
        entry_id, label = entries.new_name(rows, name, label)
    other = entries.taken_by(rows, label, but=entry_id)
    if other is not None:
        raise RuleError(f"{label} is the name of another one already: choose another name")
    entry = {"label": label, **entry}
    data[table] = {**(data.get(table) or {}), entry_id: entry}
    try:
        registry.entry(slug).load().check_data(data)
    except DataError as exc:
        raise RuleError(exc.problem + (f" ({exc.fix})" if exc.fix else "")) from None
    text = dump_toml(entry, f"{label}: described on the box. Change it here or on the box; delete the file "
                            "to forget it.")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{entry_id}.toml"
    part = path.with_suffix(".toml.part")
    with open(part, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(part, path)
    return entry_id, label


def owned_entries(slug: str, override_dir: str | Path | None, table: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(id, label, entry) of each entry file the owner has in game ``slug``'s ``table``
    (described on the box or written by hand), as the data has them."""
    ids = [entry_id for (t, entry_id) in pieces(slug, override_dir) if t == table]
    if not ids:
        return []
    rows = load(slug, override_dir).get(table) or {}
    return [(i, str(rows[i].get("label", i)), dict(rows[i])) for i in ids if isinstance(rows.get(i), dict)]


def remove_entry(slug: str, override_dir: str | Path, table: str, entry_id: str) -> None:
    """Delete the owner's entry file ``entry_id`` of ``table`` (a race already run keeps
    the data it started with)."""
    path = pieces(slug, override_dir).get((table, entry_id))
    if path is None:
        from companion.kit.errors import RuleError
        raise RuleError(f"no {entry_id} among the entries described on the box")
    path.unlink()


def clear_cache() -> None:
    """Forget loaded data."""
    _cache.clear()
    _checked.clear()
    _names.clear()


def load_any(slug: str, override_dir: str | Path | None = None) -> dict[str, Any]:
    """Like :func:`load`, with ``"any"`` (the plain dice) as a game that has no data."""
    return {} if slug == gamedata.ANY else load(slug, override_dir)


def dice(slug: str, override_dir: str | Path | None = None) -> dict[str, Die]:
    """The dice of game ``slug`` by id ({} for ``"any"``: only plain dN dice)."""
    return gamedata.dice_of(load_any(slug, override_dir))


def decks(slug: str, override_dir: str | Path | None = None) -> dict[str, list[Card]]:
    """The decks of game ``slug`` by id ({} for ``"any"``)."""
    return gamedata.decks_of(load_any(slug, override_dir))


def points_tables(slug: str, override_dir: str | Path | None = None) -> dict[str, dict[str, Any]]:
    """The points tables of game ``slug`` by id ({} for ``"any"``)."""
    return gamedata.points_of(load_any(slug, override_dir))


def game_choices() -> tuple[tuple[str, str], ...]:
    """(slug, name) of every game with a data file, by the registry's names: no data file
    is read (the tools ask this when they are loaded)."""
    return tuple((slug, registry.entry(slug).title) for slug in games_with_data())


def title(slug: str, data_dir: str | Path | None = None) -> str:
    """What menus, receipts and the championship call an activity: a tool's title, a
    game's name (the owner's when their file in ``data_dir`` renames it), else the slug.
    Only the owner's file is read, never the built-in data (whose ``[game] name`` is the
    registry's title)."""
    if slug in registry.TOOLS:
        return registry.TOOLS[slug].title
    if slug not in registry.GAMES:  # e.g. an older journal's championship key
        return slug
    builtin = registry.GAMES[slug].title
    if data_dir is None:
        return builtin
    return _owner_name(override_path(slug, data_dir)) or builtin


def titles(entries: list[registry.Entry], data_dir: str | Path | None = None) -> list[str]:
    """The titles of ``entries`` for a menu: the registry's, and the owner's names where
    their files rename a game. One listing of ``<data_dir>/games`` and a read of the
    owner's files there: the cost grows with the owner's files, not with the packs."""
    owned: set[str] = set()
    if data_dir is not None:
        try:
            owned = set(os.listdir(Path(data_dir) / "games"))
        except OSError:
            pass
    return [(_owner_name(override_path(e.slug, data_dir)) or e.title)
            if e.kind == "game" and f"{e.slug}.toml" in owned else e.title for e in entries]


_names: dict[str, str] = {}


def _owner_name(path: Path) -> str:
    """The ``[game] name`` of the owner's file ``path`` ("" when it has none or cannot be
    read: the wizard says what is wrong with it when the game is chosen)."""
    key = _signature(path)
    if key not in _names:
        from companion.core.config import ConfigError, load_toml
        try:
            name = load_toml(path).get("game", {}).get("name", "") if path.is_file() else ""
        except (ConfigError, OSError, AttributeError):
            name = ""
        _names[key] = name if isinstance(name, str) and name.strip() else ""
    return _names[key]
