"""A QR code read back by a real decoder: zbarimg (Debian's zbar-tools), as a phone's camera
would read the OLED or the paper."""

import shutil
import subprocess

import pytest
from PIL import Image

needs_zbar = pytest.mark.skipif(shutil.which("zbarimg") is None,
                                reason="zbarimg is not installed (apt-get install zbar-tools)")


def decode(image: Image.Image, path) -> str:
    """The text zbarimg reads from ``image`` (saved at ``path``, 4 times larger), or ""."""
    image.convert("L").resize((image.width * 4, image.height * 4), Image.NEAREST).save(path)
    done = subprocess.run(["zbarimg", "-q", "--raw", str(path)], capture_output=True, text=True, timeout=30)
    return done.stdout.strip()
