"""The QR code (companion/qr.py, made by segno): every size it makes reads back with zbar,
the sizes are the OLED's (the smallest version at level M, at most 6), and segno is loaded
only when a code is made."""

import subprocess
import sys

import pytest
from PIL import Image

from companion import qr
from tests.zbar import decode, needs_zbar


def padded(modules: list[list[bool]], quiet: int = 4) -> Image.Image:
    n = len(modules)
    image = Image.new("1", (n + 2 * quiet, n + 2 * quiet), 1)
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                image.putpixel((x + quiet, y + quiet), 0)
    return image


@needs_zbar
@pytest.mark.parametrize("text", ["http://192.168.1.23:8080/", "x", "http://racecompanion.local:8080/",
                                  "http://a-much-longer-host-name-for-a-box.local:65535/", "h" * 100, "h" * 134])
def test_every_size_decodes(tmp_path, text):
    assert decode(padded(qr.matrix(text)), tmp_path / "qr.png") == text


@pytest.mark.parametrize("text, side", [("x", 21), ("http://192.168.1.23:8080/", 25),     # version 1, 2 at M
                                        ("http://racecompanion.local:8080/", 29),          # version 3
                                        ("h" * 106, 41), ("h" * 134, 41)])                 # version 6 at M, at L
def test_the_smallest_version_at_m_or_l(text, side):
    modules = qr.matrix(text)
    assert len(modules) == side and all(len(row) == side for row in modules)


def test_too_long_for_the_sizes_it_makes():
    assert qr.fits("h" * 134) and not qr.fits("h" * 135)
    with pytest.raises(qr.TooLong):
        qr.matrix("h" * 135)
    with pytest.raises(qr.TooLong):
        qr.matrix("x" * 3000)           # more than segno's largest version holds


def test_paper_draws_each_module_square_on_a_centred_strip():
    modules = qr.matrix("http://192.168.1.23:8080/")
    strip = qr.image("http://192.168.1.23:8080/", "M", 5, 384)
    assert strip.size == (384, 125) and strip.mode == "1"
    left = (384 - 125) // 2
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            assert (strip.getpixel((left + 5 * x + 2, 5 * y + 2)) == 0) == dark
    assert qr.image("x", module=3).size == (63, 63)


def test_segno_is_loaded_only_when_a_code_is_made_and_only_its_encoder():
    """The start (which imports the receipts' encoder) loads no segno; a code loads its
    encoder without the writers' ``urllib.request`` and ``ssl``, and ``import segno``
    afterwards still gives the whole package, whose ``make_qr`` makes the same code."""
    probe = """if True:
        import sys
        from companion import qr
        from companion.receipts import escpos
        print(any(name.startswith("segno") for name in sys.modules))
        modules = qr.matrix("http://192.168.1.23:8080/")
        print(sorted(name for name in sys.modules if name.startswith("segno")))
        print(any(name in sys.modules for name in ("urllib.request", "http.client", "ssl", "xml.sax")))
        import segno
        made = segno.make_qr("http://192.168.1.23:8080/", error="m", boost_error=True)
        print(segno.encoder is sys.modules["segno.encoder"], [[bool(m) for m in row] for row in made.matrix] == modules)
    """
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["False", "['segno.consts', 'segno.encoder']", "False", "True True"]
