"""A stand-in for the system commands install.sh calls (apt-get, dpkg-query, getent,
groupadd, useradd, usermod, python3 -m venv, pip, the venv's python), installed on PATH under each name.

Every call is appended to ``$SHIM_STATE/calls.log`` (one JSON list per line). The commands
keep their state in the same directory, in the formats of the real files: ``installed``
(one package a line), ``passwd`` and ``group`` (/etc/passwd and /etc/group lines), so a
second run of install.sh sees what the first one did.
"""

import json
import os
import sys
from pathlib import Path

STATE = Path(os.environ["SHIM_STATE"])


def lines(name: str) -> list[str]:
    path = STATE / name
    return path.read_text().splitlines() if path.exists() else []


def write(name: str, rows: list[str]) -> None:
    (STATE / name).write_text("".join(row + "\n" for row in rows))


def entry(table: str, key: str) -> str | None:
    return next((row for row in lines(table) if row.split(":")[0] == key), None)


def add_member(group: str, user: str) -> None:
    rows = lines("group")
    for i, row in enumerate(rows):
        name, pw, gid, members = row.split(":")
        if name == group:
            rows[i] = ":".join([name, pw, gid, ",".join(filter(None, [*members.split(","), user]))])
    write("group", rows)


def add_group(name: str) -> None:
    write("group", [*lines("group"), f"{name}:x:{900 + len(lines('group'))}:"])


def dpkg_query(args):
    if args[-1] not in lines("installed"):
        print(f"dpkg-query: no packages found matching {args[-1]}", file=sys.stderr)
        return 1
    print("install ok installed")
    return 0


def apt_get(args):
    if args[0] == "install":
        write("installed", [*lines("installed"), *[a for a in args[1:] if not a.startswith("-")]])
    return 0


def getent(args):
    table, key = args
    row = entry(table, key)
    if row is None:
        return 2
    print(row)
    return 0


def groupadd(args):
    add_group(args[-1])
    return 0


def useradd(args):
    user = args[-1]
    groups = args[args.index("--groups") + 1].split(",")
    for group in groups:
        if entry("group", group) is None:
            print(f"useradd: group '{group}' does not exist", file=sys.stderr)
            return 6
    add_group(user)
    write("passwd", [*lines("passwd"), f"{user}:x:990:990::/var/lib/race-companion:/usr/sbin/nologin"])
    for group in groups:
        add_member(group, user)
    return 0


def usermod(args):
    add_member(args[args.index("--groups") + 1], args[-1])
    return 0


def python3(args):
    assert args[:2] == ["-m", "venv"], args
    venv = Path(args[-1])
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("include-system-site-packages = true\n")
    for name in ("python", "pip"):
        (venv / "bin" / name).symlink_to(Path(__file__).parent / "pip")
    return 0


def pip(args):
    return 0


def python(args):
    assert args == ["-m", "companion.bytecode"], args
    return 0


COMMANDS = {"dpkg-query": dpkg_query, "apt-get": apt_get, "getent": getent, "groupadd": groupadd,
            "useradd": useradd, "usermod": usermod, "python3": python3, "pip": pip,
            "python": python}

if __name__ == "__main__":
    name = Path(sys.argv[0]).name
    with open(STATE / "calls.log", "a") as log:
        log.write(json.dumps([name, *sys.argv[1:]]) + "\n")
    sys.exit(COMMANDS[name](sys.argv[1:]))
