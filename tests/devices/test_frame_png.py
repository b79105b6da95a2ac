"""The headless display's PNG files, written without Pillow's PNG plugin, are the frames."""

import io
import random

from PIL import Image

from companion.devices.display import HeadlessDisplay, png_bytes


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
