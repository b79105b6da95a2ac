"""The headless display's PNG files, written without Pillow's PNG plugin, are the frames."""

import io
import random
import subprocess
import sys
import textwrap

from PIL import Image

from companion.devices.display import image_bytes
from companion.devices.emulated import HeadlessDisplay, png_bytes


def test_random_frames_read_back_exactly():
    rng = random.Random(5)
    for size in ((128, 64), (13, 5), (1, 1), (384, 3)):
        frame = Image.new("1", size)
        frame.putdata([rng.choice((0, 255)) for _ in range(size[0] * size[1])])
        back = Image.open(io.BytesIO(png_bytes(frame)))
        assert (back.mode, back.size, back.tobytes()) == ("1", size, frame.tobytes())


def test_headless_frames_are_pngs_pillow_reads(tmp_path):
    display = HeadlessDisplay(tmp_path)
    frame = Image.new("1", (128, 64))
    frame.paste(1, (10, 10, 60, 30))
    display.show(frame)
    with Image.open(tmp_path / "frame-00001.png") as saved:
        assert saved.format == "PNG" and saved.mode == "1" and saved.tobytes() == frame.tobytes()


def test_image_bytes_are_pillows_tobytes():
    rng = random.Random(8)
    for mode, size in (("1", (128, 64)), ("1", (13, 5)), ("1", (1, 1)), ("1", (384, 200)), ("L", (7, 3))):
        frame = Image.new(mode, size)
        frame.putdata([rng.choice((0, 255)) for _ in range(size[0] * size[1])])
        for image in (frame, frame.transpose(Image.Transpose.TRANSPOSE), frame.crop((0, 0, 1, 1))):
            assert image_bytes(image) == image.tobytes()
    assert image_bytes(Image.new("1", (0, 5))) == b"" == Image.new("1", (0, 5)).tobytes()
    wide = Image.new("L", (20_000, 2), 9)                  # rows longer than the encoder's 64 KB
    assert image_bytes(wide) == wide.tobytes()


def test_a_frame_to_png_and_to_the_oleds_ram_imports_neither_imagefile_nor_logging():
    """Pillow's tobytes() imports PIL.ImageFile, and with it logging, on its first call:
    19 M instructions of the start's first frame."""
    code = textwrap.dedent("""
        import sys
        from PIL import Image
        from companion.devices.display import same_frame
        from companion.devices.emulated import png_bytes
        from companion.devices.oled_plan import page_bytes
        frame = Image.new("1", (128, 64))
        frame.paste(1, (3, 5, 40, 20))
        assert png_bytes(frame).startswith(b"\\x89PNG") and len(page_bytes(frame)) == 1024
        assert same_frame(frame, frame.copy())
        print(sorted(m for m in ("PIL.ImageFile", "logging") if m in sys.modules))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
