"""The OLED's byte planner: pure, frames in, I2C writes out (no luma, no bus).

A frame becomes the controller's RAM image (:func:`page_bytes`); two RAM images give the
changed runs of bytes (:func:`changed_runs`), the runs the windows that send them in about
the fewest bus bytes under page addressing (:func:`plan_windows`), and the windows the
writes, each a control byte and what follows it (:func:`plan_writes`). ``devices/oled.py``
sends them; ``devices/fake_i2c.py`` models the controllers from their datasheets and
replays them; bench/oled_ratio.py computes the exact optimum the windows are held to.
"""

from __future__ import annotations

import re

from PIL import Image

from companion.devices.display import image_bytes

def page_bytes(image: Image.Image) -> bytes:
    """The controller's RAM image of a mode "1" picture: ``pages`` rows of ``width``
    bytes, page-major; bit i of byte (page, x) is pixel (x, 8 * page + i)."""
    width, height = image.size
    pages = height // 8
    # Transposed, each picture column is a row of bytes; packed "1;R", the top pixel is bit 0.
    columns = image_bytes(image.transpose(Image.Transpose.TRANSPOSE), "1;R")
    return b"".join(columns[page::pages] for page in range(pages))


_RUNS: dict[int, re.Pattern] = {}
_MARKED = bytes([0] + [1] * 255)   # a byte of the XOR: 0 unchanged, 1 changed


def changed_runs(old: bytes, new: bytes, width: int, join: int = 0) -> list[tuple[int, int, int]]:
    """``(page, first_column, last_column)`` for every run of bytes where ``new`` differs
    from ``old`` (RAM images as page_bytes()), in RAM order; runs of a page apart by at
    most ``join`` unchanged bytes are one run; no run crosses a page."""
    if join not in _RUNS:
        _RUNS[join] = re.compile(b"\x01+(?:\x00{1,%d}\x01+)*" % join if join else b"\x01+")
    runs_in = _RUNS[join].finditer
    # changed bytes marked 1 (the pattern then starts with a byte the search skips to; one
    # that starts with "any byte but 0" is tried at every byte of the frame)
    marked = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big").translate(_MARKED)
    runs = []
    for start in range(0, len(new), width):
        if old[start:start + width] == new[start:start + width]:
            continue                   # an unchanged page
        for match in runs_in(marked, start, start + width):
            first, end = match.span()
            runs.append((start // width, first - start, end - 1 - start))
    return runs


COMMAND, DATA = 0x00, 0x40   # control bytes (Co=0): commands follow, data follow, to the STOP
CHAINED = 0x80                # Co=1: one command (or data byte, with DATA) and another control byte
DATA_RUN = bytes((DATA,))


def run_cost(n: int) -> int:
    """Bus bytes of ``n`` commands, or ``n`` data bytes, between runs of the other kind:
    a control byte each (Co=1) or a write of their own (its address byte, a control byte
    with Co=0, the bytes), whichever is fewer."""
    return n + min(n, 2)


def _nibbles(at: int | None, column: int) -> int:
    """Column-address commands needed to move the pointer from ``at`` to ``column``
    (page addressing: one command sets the low nibble, one the high)."""
    if at is None:
        return 2
    return ((at ^ column) & 0x0F != 0) + ((at ^ column) >> 4 != 0)


def control_runs(write: bytes) -> list[tuple[bool, bytes]]:
    """A write (its first control byte and what follows) as the controller takes it:
    ``(data?, bytes)`` for each control byte (D/C=1: data); one with Co=1 is followed by
    one byte and another control byte, one with Co=0 by bytes up to the end."""
    runs, i = [], 0
    while i < len(write):
        control = write[i]
        if not control & CHAINED:
            runs.append((bool(control & DATA), write[i + 1:]))
            break
        runs.append((bool(control & DATA), write[i + 1:i + 2]))
        i += 2
    return runs


JOINED = 4
"""Gaps of at most this many unchanged bytes are sent (joined in changed_runs()): another
window costs at least as much (its column commands with their control bytes, 2 at least,
and its data's control byte and address byte, 2), but for a one-byte window behind a gap
of 4 with one column command (3: its data byte goes with Co=1), which is left to save
the planner's time."""


def plan_windows(runs: list[tuple[int, int, int]], offset: int = 0, at: tuple = (None, None),
                 columns: int = 128) -> list[tuple[int, int, int]]:
    """The windows ``(page, first, last)`` that send ``runs`` (changed_runs(), gaps of
    JOINED bytes or fewer joined) under page addressing in about the fewest bus bytes
    (bench/oled_ratio.py computes the exact optimum, and how far this is from it): the
    pages in order from the one the pointer ``at`` (page, RAM column) is on; two runs of a
    page are one window when the unchanged bytes between them cost no more than another
    window there (its column commands and its data's overhead, run_cost()); a window
    starts a byte or two before its changes, or ends one after them, where that spares
    column commands. ``offset``: the RAM column of picture column 0; ``columns``: the
    RAM's (the pointer past the last one is not counted on)."""
    if at[0] is not None and runs and runs[0][0] != at[0]:
        split = next((i for i, run in enumerate(runs) if run[0] >= at[0]), len(runs))
        runs = runs[split:] + runs[:split]
    windows: list[tuple[int, int, int]] = []
    page = first = last = -1
    page_at, column_at = at
    for p, a, c in runs:
        if p == page:
            after, start = offset + last + 1, offset + a
            moves = after ^ start
            if moves < 16 or not moves & 0x0F:
                # one column command, 2 bytes with its control byte, and the data's 1-2 bytes
                # of overhead: never more than the gap (JOINED)
                windows.append((page, first, last))
                first, last = a, c
                continue
            # both column commands: 4 bytes, or 3 with a byte more before or after the gap
            gap = a - last - 1
            one = a == c
            trail = (after + 1) ^ start
            if trail < 16 or not trail & 0x0F:
                if gap <= 5 - one:
                    last = c
                    continue
                windows.append((page, first, last + 1))
                first, last = a, c
                continue
            lead = after ^ (start - 1)
            if lead < 16 or not lead & 0x0F:
                if gap <= 5:
                    last = c
                    continue
                a -= 1
            elif gap <= 6 - one:
                last = c
                continue
            windows.append((page, first, last))
            first, last = a, c
            continue
        if page >= 0:
            windows.append((page, first, last))
            page_at, column_at = page, offset + last + 1
            if column_at >= columns:
                column_at = None
        if column_at is not None and 0 < offset + a - column_at <= 2 and column_at >= offset:
            # a byte or two more spare both column commands (5 bytes with the page's, or
            # 4 without it, down to 2 or none)
            moves = (p != page_at) + _nibbles(column_at, offset + a)
            if offset + a - column_at + (a == c) < run_cost(moves) - run_cost(p != page_at):
                a = column_at - offset
        page, first, last = p, a, c
    if page >= 0:
        windows.append((page, first, last))
    return windows


def plan_writes(old: bytes | None, frame: bytes, width: int, offset: int = 0, at: tuple = (None, None),
                columns: int = 128, setup: tuple[int, ...] = ()) -> tuple[list[bytes], tuple]:
    """The writes that bring the controller's RAM from ``old`` to ``frame`` (RAM images as
    page_bytes(), ``width`` bytes a page), and where they leave the RAM pointer ``(page,
    column)``. ``old`` None (unknown): every page whole, after the commands ``setup`` (those
    that select page addressing); else the windows plan_windows() picks from the pointer
    ``at``. A window needs at most three commands (page, column low and high nibble, each
    left out when the pointer is there already) and its data. Runs of two or more commands
    or data bytes end a write of their own (a control byte with Co=0 and the bytes); a
    single command or data byte is chained into that write before them (a control byte
    with Co=1 and the byte: 2 bytes, where a write of its own takes 3). ``offset``: the RAM
    column of picture column 0; ``columns``: the RAM's."""
    if old is None:
        windows = [(page, 0, width - 1) for page in range(len(frame) // width)]
        page_at, column_at = None, None
    else:
        page_at, column_at = at
        windows = plan_windows(changed_runs(old, frame, width, JOINED), offset, at, columns)
        setup = ()
    # runs of commands and of data, one after the other: a run of one byte goes with
    # Co=1 (a control byte and the byte) into the write the next longer run ends
    writes, chained, final = [], b"", windows[-1] if windows else None
    for window in windows:
        page, first, last = window
        column = offset + first
        moves = 0xFF if column_at is None else column_at ^ column
        commands = [*setup]
        setup = ()
        if page != page_at:
            commands.append(0xB0 | page)
        if moves & 0x0F:
            commands.append(column & 0x0F)
        if moves >> 4:
            commands.append(0x10 | column >> 4)
        if len(commands) == 1:
            chained += bytes((CHAINED | COMMAND, commands[0]))
        elif commands:
            if chained:
                writes.append(chained + bytes((COMMAND, *commands)))
                chained = b""
            else:
                writes.append(bytes((COMMAND, *commands)))
        start = page * width
        if first == last and window is not final:
            chained += bytes((CHAINED | DATA, frame[start + first]))
        elif chained:
            writes.append(chained + DATA_RUN + frame[start + first:start + last + 1])
            chained = b""
        else:
            writes.append(DATA_RUN + frame[start + first:start + last + 1])
        # past the RAM's last column the pointer wraps (SSD1306): not counted on
        page_at, column_at = page, (offset + last + 1 if offset + last + 1 < columns else None)
    return writes, (page_at, column_at)
