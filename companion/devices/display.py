"""What every display is: ``show(image)`` takes a PIL image, mode "1", 128x64; ``close()``
is idempotent. The backends, split as luma splits its own (luma.core, luma.oled,
luma.emulator):

* ``devices/oled_plan.py`` — the OLED's byte planner, pure: a frame and the one before it
  in, the I2C writes that bring the controller's RAM from one to the other out.
* ``devices/oled.py`` — :class:`~companion.devices.oled.OledDisplay`, the SSD1306/SH1106
  over I2C: luma.oled's drivers sending the planner's writes.
* ``devices/emulated.py`` — the displays without an OLED: headless (each distinct frame a
  PNG), the desktop window (luma.emulator, pygame) and the terminal (Unicode blocks).

This module holds what they share: the frame's size and check, and its bytes. luma and
pygame are imported inside the backends that need them: the headless path never loads them.
"""

from __future__ import annotations

from typing import Protocol

from PIL import Image


WIDTH, HEIGHT = 128, 64
SIZE = (WIDTH, HEIGHT)


class Display(Protocol):
    def show(self, image: Image.Image) -> None: ...
    def close(self) -> None: ...


def check_frame(image: Image.Image) -> None:
    if image.mode != "1" or image.size != SIZE:
        raise ValueError(f"a frame is a mode '1' {WIDTH}x{HEIGHT} image, not mode {image.mode!r} "
                         f"{image.size[0]}x{image.size[1]}")


def image_bytes(image: Image.Image, rawmode: str = "") -> bytes:
    """``image.tobytes("raw", rawmode or image.mode)``, through the raw encoder that
    ``tobytes`` itself uses, but without the import of ``PIL.ImageFile`` (and with it
    ``logging``) that Pillow's ``tobytes`` does on its first call: 22 M instructions of a
    headless start to its first frame, 16 M of the Pi's (docs/performance.md). Falls back
    to ``tobytes`` should a Pillow version encode otherwise."""
    rawmode = rawmode or image.mode
    if not image.width or not image.height:
        return b""
    try:
        encoder = Image.core.raw_encoder(image.mode, rawmode)
    except (AttributeError, TypeError, ValueError):
        return image.tobytes("raw", rawmode)
    image.load()
    chunks = []
    try:
        encoder.setimage(image.im, (0, 0, *image.size))
        status = 0
        while not status:
            _, status, data = encoder.encode(max(65536, image.size[0] * 4))  # as tobytes asks
            chunks.append(data)
    finally:
        encoder.cleanup()
    return b"".join(chunks) if status > 0 else image.tobytes("raw", rawmode)


def same_frame(a: Image.Image | None, b: Image.Image) -> bool:
    return a is not None and image_bytes(a) == image_bytes(b)
