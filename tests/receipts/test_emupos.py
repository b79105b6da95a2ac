"""The encoder checked by an independent ESC/POS interpreter: emupos (which follows
Epson's command reference), rendering the companion's receipts as an Epson-compatible
58 mm printer would.

emupos needs Python 3.13, and the companion runs on 3.11, so emupos runs in its own
interpreter: ``EMUPOS_PYTHON`` (a python that can ``import emupos``), else
``~/.cache/race-companion/emupos-venv/bin/python``. Without one the tests are skipped
(say so in CI output); to run them:

    python3.13 -m venv ~/.cache/race-companion/emupos-venv
    ~/.cache/race-companion/emupos-venv/bin/pip install emupos==0.4.0
    .venv/bin/python -m pytest tests/receipts/test_emupos.py
"""

from __future__ import annotations

import atexit
import json
import os
import select
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest

from companion.receipts.escpos import encode, layout
from companion.receipts.model import Columns, Line, Receipt, Rule
from tests.receipts.samples import results_receipt

HERE = Path(__file__).resolve().parent
PROFILE = HERE / "emupos-58mm.yaml"
RUNNER = HERE / "emupos_runner.py"
CONFIG = {"heat_dots": 7, "heat_time": 80, "heat_interval": 2, "chars_per_line": 32}


_runner: subprocess.Popen | None = None
"""emupos_runner.py, started once in each test process and given every job of it: starting
Python 3.13 and importing emupos (0.4 s of CPU) cost more than most jobs."""


def _start(python: str) -> subprocess.Popen | None:
    """The runner under ``python`` once it said it is ready (emupos imported), else None."""
    try:
        proc = subprocess.Popen([python, str(RUNNER), str(PROFILE)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=tempfile.TemporaryFile())
    except OSError:
        return None
    if _answer(proc, 60) == b"ready\n":
        atexit.register(_stop, proc)
        return proc
    _stop(proc)
    return None


def _answer(proc: subprocess.Popen, timeout: float) -> bytes:
    """The runner's next line ("" when it ended or said nothing in ``timeout`` seconds)."""
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    return proc.stdout.readline() if ready else b""


def _stop(proc: subprocess.Popen) -> None:
    proc.stdin.close()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@lru_cache(maxsize=1)
def emupos_python() -> str | None:
    """A python that runs emupos (its runner started: the first job's wait is spared)."""
    global _runner
    candidates = [os.environ.get("EMUPOS_PYTHON"),
                  str(Path.home() / ".cache" / "race-companion" / "emupos-venv" / "bin" / "python")]
    for python in filter(None, candidates):
        _runner = _start(python)
        if _runner is not None:
            return python
    return None


# looked for when a test needing it first runs (tests/conftest.py), not while every worker
# collects: the look starts Python 3.13 importing emupos, a second or more each time
needs_emupos = pytest.mark.usefixtures("emupos_or_skip")


def interpret(data: bytes) -> dict:
    """What emupos makes of the job ``data`` (a new printer for each job)."""
    global _runner
    if _runner is None or _runner.poll() is not None:
        _runner = _start(emupos_python())
        assert _runner is not None, "emupos's runner did not start again"
    _runner.stdin.write(len(data).to_bytes(4, "big") + data)
    _runner.stdin.flush()
    line = _answer(_runner, 120)
    if not line.endswith(b"\n"):
        failed, _runner = _runner, None
        _stop(failed)
        failed.stderr.seek(0)
        raise RuntimeError(f"emupos failed on a job: {failed.stderr.read().decode(errors='replace')[-2000:]}")
    return json.loads(line)


def paper(receipt: Receipt, encoding: str = "cp858") -> list[str]:
    """The lines the encoder means to print (``escpos.layout``: already made printable in
    the code page), without alignment padding (emupos's text has none)."""
    lines = [line.text.strip() for line in layout(receipt, encoding=encoding)]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def printed(text: str) -> list[str]:
    lines = [line.strip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


ACCENTS = Receipt("results", "Chloé & Björn", (
    Line("Ærø Müller Nuñez ß £ ¥ ½ ¿ « »"),
    Line("αßΓπΣσµτΦΘΩδ∞φε∩ ≡±≥≤⌠⌡÷≈°∙·√ⁿ²■"),
    Line("│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀░▒▓"),
    Rule("═"),
    Columns(("1", "Œdipe…", "10"), (3, 20, 9)),
    Line("decomposed: Chloe\u0301 Zoe\u0308"),
))


NAMES = Receipt("results", "Chloé & Zoë", (
    Line("éèêëàâäåáãçñöôòóõøüûùúïîìíýÿæß"),
    Line("ÉÈÊËÀÂÄÅÁÃÇÑÖÔÒÓÕØÜÛÙÚÏÎÌÍÝŸÆ"),
    Columns(("1", "Søren", "10"), (3, 20, 9)),
))


@needs_emupos
@pytest.mark.parametrize("receipt,page", [(results_receipt(), "cp858"), (ACCENTS, "cp437"), (NAMES, "cp858")],
                         ids=["results", "code-page-437", "code-page-858"])
def test_epson_profile_prints_exactly_the_text_with_no_unknown_command(receipt, page):
    result = interpret(encode(receipt, {**CONFIG, "model": "epson", "codepage": page}))
    assert result["unknown"] == []
    assert result["widths"] == [384]
    (text,) = result["receipts"]
    assert printed(text) == paper(receipt, page)
    if receipt is NAMES:       # every letter of the name wheel arrives as itself
        assert printed(text)[1:3] == [NAMES.items[0].text, NAMES.items[1].text.replace("Ÿ", "Y")]
        assert printed(text)[0] == "Chloé & Zoë"
    if receipt is ACCENTS:     # the code page 437 characters arrive as themselves
        assert "αßΓπΣσµτΦΘΩδ∞φε∩ ≡±≥≤⌠⌡÷≈°∙·√ⁿ²■" in printed(text)
        assert "Chloé Zoë" in printed(text)[-1] and printed(text)[-2].startswith("1  OEdipe...")


@needs_emupos
def test_esc_7_is_unknown_to_a_strict_epson_printer():
    """Why the epson profile leaves ESC 7 out: emupos does not know it either."""
    result = interpret(encode(results_receipt(), {**CONFIG, "model": "generic-58mm"}))
    assert result["unknown"][0]["bytes"] == "1b 37"
    assert printed(result["receipts"][0])[0] == "P" + results_receipt().title   # the heat time, as text


@needs_emupos
@pytest.mark.parametrize("raster,buffer", [("gs-v-0", 256), ("esc-star", 4096)])
def test_a_chart_prints_as_the_preview_draws_it(raster, buffer):
    """A drawn lap chart, sent as GS v 0 bands (or ESC * stripes), comes out of emupos dot
    for dot as the PNG preview shows it."""
    import base64
    import io

    from PIL import Image, ImageChops

    from companion import charts
    from companion.receipts import png
    from companion.receipts.escpos import PrintImage
    from companion.receipts.model import picture
    from tests.receipts.pictures import race_results

    chart = picture(charts.lap_chart_spec(race_results(6, 30)), (Line("text"),))
    receipt = Receipt("results", "Results", (Line("Lap chart"), chart))
    config = {**CONFIG, "model": "epson", "raster": raster, "buffer_bytes": buffer}
    result = interpret(encode(receipt, config))
    assert result["unknown"] == []
    assert printed(result["receipts"][0])[-1].startswith("[image 384x")
    drawn = PrintImage(chart, raster).image
    above = 48 + 24                     # the title (double height) and a line
    paper_image = Image.open(io.BytesIO(base64.b64decode(result["pngs"][0]))).convert("L")
    preview = png.render(receipt, config).convert("L")    # the preview also has a top margin

    def chart_at(image, top):
        return ImageChops.difference(image.crop((0, top, 384, top + drawn.height)), drawn.convert("L")).getbbox()

    assert chart_at(paper_image, above) is None
    assert chart_at(preview, png.TOP_MARGIN + above) is None


@needs_emupos
@pytest.mark.parametrize("chart", ["order", "wear"])
def test_formula_de_charts_read_on_the_interpreters_paper(chart):
    """Formula Dé's order chart and wear chart, sent as GS v 0 bands and rendered by emupos:
    the paper holds them dot for dot, axis numbers and laps at least 7 dots tall there."""
    import base64
    import io

    from PIL import Image, ImageChops

    from companion import charts
    from companion.receipts.escpos import PrintImage
    from companion.receipts.model import picture
    from tests.receipts.bitmap import components, digits_in_black_boxes, height
    from tests.receipts.pictures import ZONE_NAMES, ZONES, rounds_results, wear_cars

    spec = charts.lap_chart_spec(rounds_results(8, 45)) if chart == "order" else \
        charts.wear_spec(wear_cars(8), ZONES, ZONE_NAMES)
    item = picture(spec, (Line("text"),))
    receipt = Receipt("results", "Results", (Line("Chart"), item))
    result = interpret(encode(receipt, {**CONFIG, "model": "epson", "raster": "gs-v-0", "buffer_bytes": 256}))
    assert result["unknown"] == []
    drawn = PrintImage(item, "gs-v-0").image
    above = 48 + 24
    paper_image = Image.open(io.BytesIO(base64.b64decode(result["pngs"][0]))).convert("1")
    on_paper = paper_image.crop((0, above, 384, above + drawn.height))
    assert ImageChops.difference(on_paper.convert("L"), drawn.convert("L")).getbbox() is None
    chart_image = charts.draw(spec)
    if chart == "order":
        glyphs = [g for box in chart_image.info["axes"] for g in components(on_paper, box)]
        assert len(glyphs) > 45 and min(map(height, glyphs)) >= 7
    else:       # the laps: paper glyphs inside the black boxes
        digits = digits_in_black_boxes(on_paper, (0, 0, 384, chart_image.info["key"][1]), charts.BOX_H)
        spent = sum(n for car in spec["cars"] for _, _, n in car["log"] if n > 0)
        assert len(digits) >= spent and min(map(height, digits)) >= 7
