"""TOML loading with errors that name the file, the key and the fix."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping


class ConfigError(ValueError):
    """A configuration or data file is wrong. ``str()`` is one line for a person."""

    def __init__(self, path: str | Path | None, key: str | None, problem: str, fix: str = ""):
        self.path = str(path) if path is not None else None
        self.key = key
        self.problem = problem
        self.fix = fix
        where = self.path or "<config>"
        if key:
            where += f": {key}"
        msg = f"{where}: {problem}"
        if fix:
            msg += f" ({fix})"
        super().__init__(_one_line(msg))


def _one_line(text: str) -> str:
    """``text`` with control characters escaped (a key can be any string, "\\n" too)."""
    return text if text.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def load_toml(path: str | Path, *, cache: str | Path | None = None) -> dict[str, Any]:
    """Read a TOML file; a missing file or a syntax error is a ConfigError.

    ``cache``: a JSON file keeping what the file held, read instead of the file while the
    file's size, times and inode are those it was made from (importing ``tomllib`` alone
    costs the appliance's start more than everything it reads from the pinout; JSON is
    loaded anyway). A cache that is missing, damaged, stale or cannot be written is
    simply made again from the file."""
    p = Path(path)
    stamp = None
    if cache is not None:
        try:
            stamp = _stamp(p)  # taken before reading: an edit while reading makes the cache stale
        except OSError:
            pass  # said below, when the file is read
        kept = _cached(Path(cache), stamp) if stamp is not None else None
        if kept is not None:
            return kept
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ConfigError(p, None, "file not found", "check the path") from None
    except OSError as exc:
        raise ConfigError(p, None, f"cannot read file: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(p, None, "not UTF-8 text", "save the file as UTF-8") from None
    import tomllib  # only when a file is parsed (not at a start with its pinout cached)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(p, None, f"not valid TOML: {exc}", "fix the syntax at that line") from None
    if stamp is not None:
        _keep(Path(cache), stamp, data)
    return data


def _stamp(path: Path) -> list:
    """What tells an edited file from the one a cache was made from."""
    st = os.stat(path)
    return [str(path.resolve()), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def _cached(cache: Path, stamp: list) -> dict[str, Any] | None:
    import json
    try:
        kept = json.loads(cache.read_bytes())
        if kept["stamp"] == stamp and isinstance(kept["data"], dict):
            return kept["data"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def _keep(cache: Path, stamp: list, data: dict[str, Any]) -> None:
    import json
    try:
        body = json.dumps({"stamp": stamp, "data": data}, ensure_ascii=False)
        if json.loads(body)["data"] != data:  # a TOML date or time: not kept
            return
        cache.parent.mkdir(parents=True, exist_ok=True)
        part = cache.with_name(f".{cache.name}.{os.getpid()}")
        part.write_text(body, encoding="utf-8")
        os.replace(part, cache)
    except (OSError, TypeError, ValueError):
        pass


def require(table: Mapping[str, Any], key: str, kind: type | tuple[type, ...], path, prefix: str = "") -> Any:
    """``table[key]``, checked to be of ``kind``; a ConfigError naming ``prefix.key`` otherwise."""
    full = f"{prefix}.{key}" if prefix else key
    if key not in table:
        raise ConfigError(path, full, "missing", f"add `{key} = ...`")
    value = table[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        ok = False
    else:
        ok = isinstance(value, kinds)
    if not ok:
        names = " or ".join(k.__name__ for k in kinds)
        raise ConfigError(path, full, f"must be {names}, not {type(value).__name__} {value!r}")
    return value


def deep_merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``override`` laid over it, tables merged key by key."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def dump_toml(table: Mapping[str, Any], header: str = "") -> str:
    """TOML text of one table of plain values (text, whole numbers, true/false, lists and
    inline tables of them), ``header`` as comment lines above it; ``load_toml`` reads it
    back equal (a value TOML cannot hold is a ValueError)."""
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    for key, value in table.items():
        lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    text = "\n".join(lines) + "\n"
    import tomllib  # not at import: the start reads the pinout from its cache

    if tomllib.loads(text) != dict(table):
        raise ValueError("these values cannot be written as TOML")
    return text


def _toml_key(key: Any) -> str:
    import json
    import re
    key = str(key)
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _toml_value(value: Any) -> str:
    import json
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)      # a TOML basic string: JSON's escapes are TOML's
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise ValueError(f"cannot write {type(value).__name__} {value!r} as TOML")
