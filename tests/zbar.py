"""A QR code read back by a real decoder: zbarimg (Debian's zbar-tools), as a phone's camera
would read the OLED or the paper."""

import hashlib
import shutil
import subprocess

import pytest
from PIL import Image

needs_zbar = pytest.mark.skipif(shutil.which("zbarimg") is None,
                                reason="zbarimg is not installed (apt-get install zbar-tools)")


_read: dict[tuple, str] = {}
"""What zbarimg read from each picture this process gave it, by its mode, size and pixels:
the same picture is read once (the paper of four printer models is one picture)."""


def decode(image: Image.Image, path) -> str:
    """The text zbarimg reads from ``image`` (saved at ``path``, 4 times larger), or ""."""
    key = (image.mode, image.size, hashlib.sha256(image.tobytes()).digest())
    if key not in _read:
        image.convert("L").resize((image.width * 4, image.height * 4), Image.NEAREST).save(path)
        done = subprocess.run(["zbarimg", "-q", "--raw", str(path)], capture_output=True, text=True, timeout=30)
        _read[key] = done.stdout.strip()
    return _read[key]
