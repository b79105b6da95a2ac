"""The displays without an OLED, as luma.emulator's are: each shows the very frames the
OLED would.

* :class:`HeadlessDisplay` — each distinct frame to ``frame-00001.png`` ... (128x64), as
  luma.emulator's ``capture``; for CI, the tests and ``--hardware headless``.
* :class:`DesktopDisplay` — a luma.emulator pygame window, 4x.
* :class:`TerminalDisplay` — Unicode blocks in the terminal, the finest its size holds.

pygame and luma.emulator are imported by the desktop window alone.
"""

from __future__ import annotations

import os
import re
import sys
from collections import deque
from pathlib import Path

from PIL import Image

from companion.devices import DeviceError
from companion.devices.display import HEIGHT, WIDTH, check_frame, image_bytes, same_frame


# -- files ----------------------------------------------------------------------------

def png_bytes(image: Image.Image) -> bytes:
    """A mode "1" frame as a 1-bit greyscale PNG file, written here rather than by
    ``image.save``: importing Pillow's PNG plugin costs a headless start more than
    everything else it does to show its first frame (docs/performance.md)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    width, height = image.size
    stride = (width + 7) // 8
    pixels = image_bytes(image)  # rows of packed bits, MSB first, 1 = white: PNG's own layout
    rows = b"".join(b"\0" + pixels[y * stride:(y + 1) * stride] for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def hint_lines(text: str, width: int) -> list[str]:
    """``text``, hints parted by two spaces, as lines of at most ``width`` characters broken
    between hints (a hint is broken only when it is wider than a line)."""
    import textwrap

    lines: list[str] = []
    for hint in text.split("  "):
        if lines and len(lines[-1]) + 2 + len(hint) <= width:
            lines[-1] += "  " + hint
        else:
            lines += textwrap.wrap(hint, width) or [""]
    return lines


class HeadlessDisplay:
    """Each frame that differs from the one before is saved as ``frame-00001.png``...
    (128x64, exactly the OLED's pixels) in ``out_dir``; numbering continues after the
    frames already there. Only the newest ``keep`` frames are kept on disk (a long run
    would otherwise fill the disk: ~4 KB a frame); older ones are deleted as new ones
    come. ``out_dir=None`` keeps frames in memory only. ``last_image`` is the last frame
    shown; ``written`` the paths of the frames kept from this run."""

    KEEP = 500

    def __init__(self, out_dir: str | Path | None = None, keep: int = KEEP):
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self.keep = max(1, int(keep))
        self.last_image: Image.Image | None = None
        self.count = 0
        self._on_disk: deque[Path] = deque()
        if self.out_dir is not None:
            try:
                self.out_dir.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DeviceError(f"cannot create the frame folder {self.out_dir}: {exc.strerror}") from None
            found = sorted((int(m.group(1)), p) for p in self.out_dir.glob("frame-*.png")
                           if (m := re.fullmatch(r"frame-(\d+)\.png", p.name)))
            self.count = found[-1][0] if found else 0
            self._on_disk.extend(p for _, p in found)
            self._trim()
        self.written: deque[Path] = deque(maxlen=self.keep)

    def _trim(self) -> None:
        while len(self._on_disk) > self.keep:
            old = self._on_disk.popleft()
            try:
                old.unlink()
            except OSError:
                pass   # already gone, or not ours to delete: never a reason to stop the race

    def show(self, image: Image.Image) -> None:
        check_frame(image)
        if same_frame(self.last_image, image):
            return
        self.last_image = image.copy()
        if self.out_dir is None:
            return
        self.count += 1
        path = self.out_dir / f"frame-{self.count:05d}.png"
        try:
            path.write_bytes(png_bytes(self.last_image))
        except OSError as exc:
            raise DeviceError(f"cannot write {path}: {exc.strerror}") from None
        self.written.append(path)
        self._on_disk.append(path)
        self._trim()

    def close(self) -> None:
        pass


# -- desktop window ---------------------------------------------------------------------

def graphical_display_available(env=os.environ, platform: str = sys.platform) -> bool:
    if platform in ("darwin", "win32"):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


class DesktopDisplay:
    """A luma.emulator pygame window at ``scale`` x. Its keyboard is the buttons
    (``buttons.PygameKeys``); Esc is BACK there, not luma's "quit"."""

    def __init__(self, scale: int = 4):
        if not graphical_display_available():
            raise DeviceError("no graphical display here (DISPLAY and WAYLAND_DISPLAY are unset): "
                              "use --hardware terminal or --hardware headless")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            from luma.emulator.device import pygame as window
        except ImportError:
            raise DeviceError("the desktop window needs luma.emulator and pygame "
                              "(pip install 'race-companion[desktop]'): or use --hardware terminal") from None

        class Window(window):
            def _abort(self):
                return False  # Esc is BACK; closing the window ends the input instead

        try:
            self.device = Window(width=WIDTH, height=HEIGHT, mode="1",
                                 transform="identity", scale=scale)
            self.device._pygame.display.set_caption("Race Companion")
        except Exception as exc:
            raise DeviceError(f"cannot open a window ({exc}): use --hardware terminal or --hardware headless") from None
        self._last: Image.Image | None = None
        self._closed = False

    def show(self, image: Image.Image) -> None:
        check_frame(image)
        self._last = image.copy()
        self.device.display(self._last)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.device._pygame.quit()


# -- terminal ---------------------------------------------------------------------------

_HALF = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}
# 2x2 pixels -> a quadrant block; key = top-left, top-right, bottom-left, bottom-right
_QUADRANT = dict(zip(
    [(a, b, c, d) for a in (0, 1) for b in (0, 1) for c in (0, 1) for d in (0, 1)],
    " \u2597\u2596\u2584\u259d\u2590\u259e\u259f\u2598\u259a\u258c\u2599\u2580\u259c\u259b\u2588"))


def half_blocks(image: Image.Image) -> list[str]:
    """One line per two pixel rows, one character per pixel column: lit pixels are ink."""
    w, h = image.size
    px = image.load()
    return ["".join(_HALF[(px[x, y] > 0, y + 1 < h and px[x, y + 1] > 0)] for x in range(w))
            for y in range(0, h, 2)]


def quadrant_blocks(image: Image.Image) -> list[str]:
    """Half as wide: one character per 2x2 pixels (for terminals under 130 columns)."""
    w, h = image.size
    px = image.load()

    def lit(x, y):
        return int(x < w and y < h and px[x, y] > 0)

    return ["".join(_QUADRANT[(lit(x, y), lit(x + 1, y), lit(x, y + 1), lit(x + 1, y + 1))]
                    for x in range(0, w, 2)) for y in range(0, h, 2)]


_BRAILLE_DOTS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08),
                 (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def braille_blocks(image: Image.Image) -> list[str]:
    """A quarter as tall as wide blocks: one Braille character per 2x4 pixels, so the
    128x64 screen takes 64 columns and 16 lines (an 80x24 terminal holds it framed)."""
    w, h = image.size
    px = image.load()

    def cell(x, y):
        return chr(0x2800 + sum(bit for dx, dy, bit in _BRAILLE_DOTS
                                if x + dx < w and y + dy < h and px[x + dx, y + dy] > 0))

    return ["".join(cell(x, y) for x in range(0, w, 2)) for y in range(0, h, 4)]


MARKED_MIN_ROWS = 8     # an inverted field holds a line of text: 10 px or more


def marked(image: Image.Image) -> Image.Image:
    """``image`` with its inverted bands (the title bar, a highlighted row: a lit field with
    dark letters) drawn the other way round, lit letters on dark, with a marker bar at
    their left edge instead. At 2x4 pixels a Braille character an inverted field is a solid
    block with letters as gaps; letters drawn as dots stay legible.

    A band starts at a row lit over at least half the width (the padding row above the
    letters); its parts are that row's lit runs, and it runs down as long as the run's
    first column stays lit (the field's edge). The status box at the right of the title
    bar, lit letters already, is left as it is."""
    w, h = image.size
    im = image.convert("1").copy()
    px = im.load()
    y = 0
    while y < h:
        lit = [px[x, y] > 0 for x in range(w)]
        if sum(lit) * 2 < w:
            y += 1
            continue
        runs, x = [], 0
        while x < w:
            if lit[x]:
                start = x
                while x < w and lit[x]:
                    x += 1
                if x - start >= 8:
                    runs.append((start, x))
            else:
                x += 1
        bottom = y
        if runs:
            edge = runs[0][0]
            while bottom + 1 < h and px[edge, bottom + 1] > 0:
                bottom += 1
        if bottom - y + 1 < MARKED_MIN_ROWS:     # a rule, not a field of text
            y += 1
            continue
        for x0, x1 in runs:
            for yy in range(y, bottom + 1):
                for xx in range(x0, x1):
                    px[xx, yy] = 0 if px[xx, yy] else 1
            for yy in range(y, bottom + 1):          # the marker: a bar at the field's left
                px[x0, yy] = 1
        y = bottom + 1
    return im


def braille_marked(image: Image.Image) -> list[str]:
    """Braille with the inverted bands drawn as marked plain text (:func:`marked`)."""
    return braille_blocks(marked(image))


TERMINAL_DETAIL = (
    (half_blocks, "full detail"),
    (quadrant_blocks, "2x2 pixels a character"),
    (braille_marked, "Braille, 2x4 pixels a character"),
)
"""The drawings of the terminal display, finest first. Half blocks draw two pixel rows
per line, so full detail needs 130 columns and 35 lines (the frame and the key help
around 128x32 characters); quadrants 66x35; Braille 66x21, which an 80x24 terminal holds."""

FULL_DETAIL = (WIDTH + 2, HEIGHT // 2 + 3)
SMALLEST = (WIDTH // 2 + 2, HEIGHT // 4 + 5)   # the help on two lines and the note


def framed_top(note: str, width: int) -> str:
    """The frame's top edge, ``note`` in it when it fits whole (``┌─ Table screen: ... ─┐``)."""
    if note and len(note) + 3 <= width:
        return "\u250c\u2500 " + note + " " + "\u2500" * (width - len(note) - 3) + "\u2510"
    return "\u250c" + "\u2500" * width + "\u2510"


class TerminalDisplay:
    """The frame drawn with block characters in the terminal (alternate screen), framed,
    with the key help under it: the finest drawing the terminal's size holds
    (TERMINAL_DETAIL). A terminal too small for any says the size it needs instead of
    scrolling the title away."""

    def __init__(self, stream=None, help_line: str = "", note: str = ""):
        self.stream = stream or sys.stdout
        self.help_line = help_line
        self.note = note      # a line kept in sight (the table screen's address): in the frame's top edge
        self._last: Image.Image | None = None
        self._closed = False
        self._drawing = False
        self._resized = False
        self._old_winch = None
        self.stream.write("\x1b[?1049h\x1b[?25l\x1b[2J")  # alternate screen, hide cursor
        self.stream.flush()
        self._watch_resizes()

    def _watch_resizes(self) -> None:
        """Redraw the last frame at the new size when the terminal is resized (SIGWINCH),
        not at the next change of the screen. The handler runs in the main thread, as
        ``show`` does: inside ``show`` it only asks for one more drawing at its end."""
        import signal
        if not hasattr(signal, "SIGWINCH"):
            return
        try:
            self._old_winch = signal.signal(signal.SIGWINCH, self._on_resize)
        except ValueError:      # not the main thread: the next frame is drawn at the new size
            self._old_winch = None

    def _on_resize(self, signum=None, frame=None) -> None:
        self._resized = True
        if not self._drawing and not self._closed:
            self._draw()

    def lines_for(self, image: Image.Image, columns: int, lines: int | None = None) -> list[str]:
        """The text lines that show ``image`` in a terminal of ``columns`` x ``lines``
        (``lines`` None: as many as needed): the finest drawing that fits whole."""
        import textwrap

        for draw, name in TERMINAL_DETAIL:
            rows = draw(image)
            width = len(rows[0])
            if columns < width + 2:
                continue
            out = [framed_top(self.note, width)]
            out += ["\u2502" + row + "\u2502" for row in rows]
            out.append("\u2514" + "\u2500" * width + "\u2518")
            if self.help_line:
                out += hint_lines(self.help_line, max(columns - 1, 20))
            if self.note and self.note not in out[0]:   # wider than the frame: a line of its own
                out.append(self.note[:max(columns - 1, 1)])
            if draw is not half_blocks:
                out.append(f"({name}: {FULL_DETAIL[0]}x{FULL_DETAIL[1]} shows full detail)"[:max(columns - 1, 1)])
            if lines is None or len(out) <= lines:
                return out
        said = [line for text in (          # wrapped, not cut: the sizes are read whole
            f"Terminal {columns}x{lines}: too small for the screen.",
            f"Make it at least {SMALLEST[0]}x{SMALLEST[1]} "
            f"({FULL_DETAIL[0]}x{FULL_DETAIL[1]} for full detail).",
            "q quits") for line in textwrap.wrap(text, max(columns - 1, 1), break_on_hyphens=False)]
        return said if lines is None else said[:max(lines, 1)]

    def render(self, image: Image.Image, columns: int, lines: int | None = None) -> str:
        """The escape sequences that draw ``image`` (see :meth:`lines_for`)."""
        return "\x1b[H" + "\x1b[K\n".join(self.lines_for(image, columns, lines)) + "\x1b[K\x1b[J"

    def show(self, image: Image.Image) -> None:
        check_frame(image)
        if same_frame(self._last, image) and not self._resized:
            return
        self._last = image.copy()
        self._draw()

    def _draw(self) -> None:
        """Draw the last frame at the terminal's size now, again if it changed meanwhile."""
        if self._last is None:
            return
        self._drawing = True
        import shutil  # the terminal backend's alone: not loaded for a headless or OLED start

        try:
            self._resized = True
            while self._resized:
                self._resized = False
                size = shutil.get_terminal_size()
                self.stream.write(self.render(self._last, size.columns, size.lines))
                self.stream.flush()
        finally:
            self._drawing = False

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._old_winch is not None:
                import signal
                try:
                    signal.signal(signal.SIGWINCH, self._old_winch)
                except ValueError:
                    pass
            self.stream.write("\x1b[?25h\x1b[?1049l")  # cursor back, main screen back
            self.stream.flush()
