"""The table screen's address on the race program as a QR code: drawn by the printer itself
(``GS ( k``) on the models that know it, sent as a raster image on the others, its text
alone where neither prints; read back by a real decoder (zbarimg) from the PNG preview,
from the project's printer interpreter and from an independent one (emupos)."""

import base64
import io

import pytest
from PIL import Image

from companion.core.config import ConfigError
from companion.devices.printer_sim import PrinterSim, decode, paper_text, pictures
from companion.devices.spool import receipt_from_json, receipt_to_json
from companion.receipts import escpos, layouts, png
from companion.receipts.model import Feed, Line, QRCode, Rule
from companion.receipts.printers import PROFILES, of_config
from tests.receipts.test_emupos import interpret, needs_emupos, printed
from tests.table import PaperTray, make_app
from tests.tablescreen.conftest import play
from tests.zbar import decode as zbar, needs_zbar

URL = "http://192.168.1.23:8080/"
CONFIG = {"heat_dots": 7, "heat_time": 80, "heat_interval": 2, "chars_per_line": 32}
# what each model's QR code is sent as (docs/printer.md, "QR codes"); esc-v with a buffer
# that holds an ESC * stripe (with the default 256 bytes it prints the address as text)
KINDS = {"generic-58mm": "gs-v-0", "epson": "gs-k", "csn-a2": "gs-v-0", "csn-a2-kanji": "gs-v-0",
         "esc-v": "esc-star"}


def config(model: str, **more) -> dict:
    return {**CONFIG, "model": model, **({"buffer_bytes": 4096} if model == "esc-v" else {}), **more}


def program(url: str = URL):
    grid = [{"name": "Ann", "colour": "Red"}, {"name": "Bob", "colour": "Blue"}]
    return layouts.with_address(layouts.race_program("Formula Dé", ["Monaco, 3 laps"], grid, (layouts.COLOUR,)),
                                url)


def qr_functions(data: bytes) -> list[bytes]:
    """The data (cn fn parameters) of every GS ( k command in ``data``, read by length."""
    out, at = [], 0
    while (at := data.find(b"\x1d(k", at)) >= 0:
        length = data[at + 3] | data[at + 4] << 8
        out.append(data[at + 5:at + 5 + length])
        at += 5 + length
    return out


def expect_functions(functions: list[bytes], url: str) -> None:
    """Model 2, module size, error correction M (49), the address stored, then printed."""
    assert functions == [b"1A2\x00", b"1C" + bytes([escpos.QR_MODULE_DOTS]), b"1E1",
                         b"1P0" + url.encode(), b"1Q0"]


# -- the receipt ---------------------------------------------------------------------------

def test_the_address_follows_the_programs_rule_with_no_blank_paper_before_it():
    plain = layouts.race_program("Formula Dé", ["Monaco"], [{"name": "Ann"}])
    assert plain.items[-2:] == (Rule(), Feed(2))
    items = layouts.with_address(plain, URL).items
    assert items[-4:] == (Rule(), Line("The race live on a phone:", align="center"), QRCode(URL), Feed(2))
    assert items[:len(plain.items) - 1] == plain.items[:-1]
    lines = program().text_lines()
    assert lines[-2:] == ["", ""] and lines[-5:-2] == ["-" * 32, "The race live on a phone:".center(32).rstrip(), URL.center(32).rstrip()]


def test_a_long_address_is_printed_whole_under_the_code():
    url = "http://a-much-longer-host-name-for-a-box.local:65535/"
    assert [line.text for line in QRCode(url).lines()] == [url[:32], url[32:]]
    text = [line.text for line in escpos.layout(program(url), code="gs-v-0") if isinstance(line, escpos.PrintLine)]
    assert text[-4:-2] == [url[:32], url[32:]]


@pytest.mark.parametrize("model", list(KINDS))
def test_text_too_long_for_a_code_prints_as_text_alone(model):
    text = "http://" + "h" * 120 + ".local:8080/"
    receipt = program(text)
    lines = paper_text(decode(escpos.encode(receipt, config(model)), model=model).lines)
    assert "".join(line.strip() for line in lines).endswith(text)
    assert not any(isinstance(line, escpos.PrintCode) for line in escpos.layout(receipt, code=KINDS[model]))
    text_only = png.render(receipt, config(model, raster="none", qr="raster"))       # the preview agrees
    assert png.render(receipt, config(model)).tobytes() == text_only.tobytes()


def test_the_code_survives_the_spool():
    receipt = program()
    assert receipt_from_json(receipt_to_json(receipt)) == receipt


def test_each_model_prints_the_code_its_own_way():
    assert {model: escpos.code_mode(config(model)) for model in PROFILES} == KINDS
    assert escpos.code_mode({**CONFIG, "model": "esc-v"}) is None          # a stripe does not fit 256 bytes
    assert escpos.code_mode(config("csn-a2", raster="none")) is None
    assert escpos.code_mode(config("epson", raster="none")) == "gs-k"       # the printer draws it, not us
    assert escpos.code_mode(config("generic-58mm", qr="gs-k")) == "gs-k"
    assert escpos.code_mode(config("epson", qr="raster")) == "gs-v-0"


def test_a_bad_qr_setting_is_one_clear_line():
    with pytest.raises(ConfigError) as err:
        of_config({"model": "epson", "qr": "yes"})
    assert "printer.qr" in str(err.value) and "gs-k" in str(err.value)


def test_gs_k_is_sent_centred_with_the_address_and_nothing_else_of_the_code():
    data = escpos.encode(program(), config("epson"))
    expect_functions(qr_functions(data), URL)
    start = data.index(b"\x1d(k")
    assert data[data.rindex(b"\x1ba", 0, start) + 2] == 1          # centred
    assert data.count(b"\x1dv0") == 0 and data.count(b"\x1b*") == 0
    # printed, a blank line (the quiet zone), the address under it, the end feed
    assert data.endswith(b"\x1d(k\x03\x001Q0\n" + URL.encode() + b"\n\n\n\x1bd\x04")
    assert escpos.code_mode(config("csn-a2")) != "gs-k" and b"\x1d(k" not in escpos.encode(program(), config("csn-a2"))


def test_without_raster_or_gs_k_the_address_prints_as_text_alone():
    cfg = {**CONFIG, "model": "esc-v"}
    data = escpos.encode(program(), cfg)
    assert b"\x1d(k" not in data and b"\x1b*" not in data and b"\x1dv0" not in data
    lines = "\n".join(paper_text(decode(data, model="esc-v").lines)).rstrip().splitlines()
    assert lines[-2:] == ["The race live on a phone:".center(32).rstrip(), URL.center(32).rstrip()]
    assert png.render(program(), cfg).height < png.render(program(), config("esc-v")).height


# -- read back by zbar ------------------------------------------------------------------------

@needs_zbar
@pytest.mark.parametrize("model", list(KINDS))
def test_the_preview_reads_back_as_the_address(tmp_path, model):
    assert zbar(png.render(program(), config(model)), tmp_path / "program.png") == URL


@needs_zbar
@pytest.mark.parametrize("url", ["http://racecompanion.local:8080/",
                                 "http://a-much-longer-host-name-for-a-box.local:65535/"])
def test_longer_addresses_read_back_too(tmp_path, url):
    assert zbar(png.render(program(url), config("generic-58mm")), tmp_path / "program.png") == url


@needs_zbar
@pytest.mark.parametrize("model", list(KINDS))
def test_the_printer_interpreter_prints_a_code_that_reads_as_the_address(tmp_path, model):
    """The bytes sent, read by the simulated printer of each model: GS ( k functions
    stored and printed, or raster bands; the paper's picture is the preview's."""
    cfg = config(model)
    data = escpos.encode(program(), cfg)
    printer = decode(data, model=model)
    assert printer.unknown == []
    (paper,) = pictures(printer.lines)
    assert zbar(paper, tmp_path / "paper.png") == URL
    (code,) = [line for line in escpos.layout(program(), 32, escpos.raster_mode(cfg), escpos.code_mode(cfg))
               if isinstance(line, escpos.PrintCode)]
    assert paper.tobytes() == code.image.crop((0, 0, 384, paper.height)).tobytes()
    if model == "epson":
        expect_functions(printer.qr_commands, URL)


def test_a_printer_without_gs_k_prints_its_bytes_as_text():
    """Why only the models that know GS ( k are sent it: a CSN-A2 prints the data."""
    data = escpos.encode(program(), config("csn-a2", qr="gs-k"))
    printer = decode(data, model="csn-a2")
    assert printer.unknown[0] == b"\x1d(" and pictures(printer.lines) == []
    assert any(URL in line for line in paper_text(printer.lines))


@needs_zbar
@pytest.mark.parametrize("model", ["generic-58mm", "epson"])
def test_a_program_with_its_code_prints_whole_on_a_slow_printer(tmp_path, model):
    """Over a real pty, the printer 25% slower with dark rows 30% slower: nothing lost,
    the code on paper reads as the address."""
    from companion.core.config import load_toml
    from companion.devices.printer import open_printer
    from tests.devices.conftest import PINOUT
    cfg = {**load_toml(PINOUT)["printer"], **config(model), "baudrate": 115200, "line_ms": 2, "buffer_bytes": 256,
           "status_timeout_ms": 200, "retry_s": 0.05}
    with PrinterSim(baudrate=115200, line_ms=2, model=model, slow=1.25, dark=0.3) as sim:
        with open_printer(cfg, "serial", tmp_path / "spool", port=sim.path) as printer:
            printer.submit(program())
            assert printer.wait_idle(60), printer.status
            assert sim.wait_printed()
        assert sim.overflow == 0
        (paper,) = pictures(sim.jobs[-1].lines)
        assert zbar(paper, tmp_path / "paper.png") == URL


@needs_zbar
def test_the_app_prints_the_program_with_the_code_of_its_address(tmp_path):
    app = make_app(tmp_path / "state")
    app.table = {"enabled": True, "port": 8080}
    app.printer = PaperTray()
    play(app, "formula-de", 40, until=lambda s: app.printer.receipts)
    (receipt,) = [r for r in app.printer.receipts if r.kind == "program"]
    url = app.table_address()
    assert QRCode(url) in receipt.items
    assert zbar(png.render(receipt, config("generic-58mm")), tmp_path / "program.png") == url


# -- read back by an independent interpreter (emupos) --------------------------------------------

@needs_emupos
@needs_zbar
@pytest.mark.parametrize("model", list(KINDS))
def test_emupos_prints_a_code_that_reads_as_the_address(tmp_path, model):
    result = interpret(escpos.encode(program(), config(model)))
    heat = [{"bytes": "1b 37"}, {"bytes": "07"}, {"bytes": "02"}]      # ESC 7 7 80 2: see test_emupos.py
    assert result["unknown"] == (heat if PROFILES[model].heat else [])
    (text,) = result["receipts"]
    paper = Image.open(io.BytesIO(base64.b64decode(result["pngs"][0])))
    assert zbar(paper, tmp_path / "paper.png") == URL
    assert printed(text)[-1] == URL
    if KINDS[model] == "gs-k":
        expect_functions([bytes.fromhex(c) for c in result["codes"]], URL)
        assert f"[qr {URL}]" in printed(text)
    else:
        assert result["codes"] == [] and any(line.startswith("[image 384x") for line in printed(text))
