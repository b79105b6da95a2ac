"""Putting a restored journal in place of the live one in one atomic step, and finishing
(or taking back) a swap that a power cut or a kill stopped half way.

``put_in_place(new, live, aside)``: ``new`` (a checked copy beside ``live``) becomes the
journal and the journal it replaces is kept as ``aside``. Before anything is renamed a note
(``MARKER``, synced) says which file is the new one (by its inode) and the name the old one
gets. Then one step swaps them:

- Linux's ``renameat2(RENAME_EXCHANGE)`` swaps the two names at once (ext4, f2fs, btrfs,
  tmpfs...); the old journal, now under the new one's temporary name, is renamed ``aside``;
- where the file system cannot exchange, the old journal is first linked as ``aside`` (a
  second name, nothing moves), then one ``rename`` puts the new one in its place.

Either way ``live`` always names a whole journal, the old or the new: there is no moment
without one. ``finish(state_dir)`` runs before the journal is opened (and before a restore):
with a note left behind it finishes a swap that was done (the old journal to ``aside``, its
note of the last event with it) or takes back one that was not (the new copy removed).
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
from pathlib import Path

from companion.core.journal import SWAP_MARKER as MARKER
PART = ".journal.sqlite3.restoring"
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _step(name: str) -> None:
    """Called between the swap's steps (tests stop the process here)."""


def _exchange(a: Path, b: Path) -> bool:
    """Swap the names ``a`` and ``b`` atomically; False where the system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint)
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EPERM):
        return False
    raise OSError(code, os.strerror(code), str(b))


def fsync(path: Path) -> None:
    """Sync a file, or a directory's entries, to the card."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sidecar(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def put_in_place(new: Path, live: Path, aside: Path | None) -> None:
    """Make ``new`` the journal at ``live`` in one step; the journal there before is kept
    as ``aside`` (None: there is none). ``live`` has no write-ahead log (merged first)."""
    state = live.parent
    marker = state / MARKER
    with open(marker, "w", encoding="utf-8") as fh:
        json.dump({"new": new.stat().st_ino, "aside": aside.name if aside else None}, fh)
        fh.flush()
        os.fsync(fh.fileno())
    fsync(state)
    _step("marked")
    if aside is None or not live.exists():
        os.replace(new, live)                    # nothing to keep: one rename
    elif _exchange(new, live):
        _step("exchanged")
        os.replace(new, aside)                   # the old journal, under the new one's name
    else:
        os.link(live, aside)
        _step("linked")
        os.replace(new, live)
    _step("swapped")
    _move_note(live, aside)
    fsync(state)
    _step("done")
    marker.unlink()
    fsync(state)


def _move_note(live: Path, aside: Path | None) -> None:
    """The note of the old journal's last event goes with it (the new one has its own)."""
    note = _sidecar(live, ".last")
    if not note.exists():
        return
    if aside is not None:
        os.replace(note, _sidecar(aside, ".last"))
    else:
        note.unlink()


def finish(state_dir: str | Path, live_name: str = "journal.sqlite3") -> str | None:
    """Finish or take back a swap a cut stopped (see the module's notes); what was done,
    or None when no swap was under way."""
    state = Path(state_dir)
    marker, live, part = state / MARKER, state / live_name, state / PART
    if not marker.exists():
        return None
    try:
        note = json.loads(marker.read_text("utf-8"))
        new = int(note["new"])
        aside = state / note["aside"] if note.get("aside") else None
    except (OSError, ValueError, KeyError, TypeError):   # cut while the note was written:
        new, aside = None, None                          # nothing was renamed yet
    said = None
    if new is not None and live.exists() and live.stat().st_ino == new:
        if part.exists() and aside is not None and not aside.exists():
            os.replace(part, aside)              # exchanged: the old journal goes aside
        _move_note(live, aside)
        said = "a restore cut short was finished: the restored journal is in place"
    elif live.exists():
        if part.exists() and (new is None or part.stat().st_ino == new):
            part.unlink()                        # not swapped: the new copy goes
        if aside is not None and aside.exists() and aside.stat().st_ino == live.stat().st_ino:
            aside.unlink()                       # the second name of the journal kept
        said = "a restore cut short was taken back: the journal is the one it was to replace"
    elif part.exists():
        os.replace(part, live)
        said = "a restore cut short was finished: the restored journal is in place"
    elif aside is not None and aside.exists():
        os.replace(aside, live)
        said = "a restore cut short was taken back: the journal is the one it was to replace"
    marker.unlink()
    fsync(state)
    return said
