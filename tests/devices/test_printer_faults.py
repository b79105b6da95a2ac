"""The faults real printers have, over a real pseudo-terminal with the simulated printer:
offline with paper in, printers that answer other status commands or none, printers
slower than their setting, a restart while the printer still holds a killed job, and
the models' command quirks (ESC 7, Kanji mode).
"""

import math

import pytest

from companion.core.config import ConfigError
from companion.devices.printer import open_printer, printer_settings
from companion.devices.printer_sim import KANJI_GLYPH, PrinterSim, decode, paper_text
from companion.receipts.escpos import END_FEED, encode
from companion.receipts.model import Columns, Line, Receipt
from tests.receipts.samples import results_receipt

from tests.devices.conftest import PINOUT
from tests.devices.printing import Stalls, expected_paper, wait_for




def print_on(sim, config, tmp_path, receipt, timeout=60):
    """Print ``receipt`` with the serial driver on ``sim``; the printer's status after."""
    with open_printer(config, "serial", tmp_path / "spool", port=sim.path) as printer:
        printer.submit(receipt)
        assert printer.wait_idle(timeout), printer.status
        assert sim.wait_printed()
        return printer.status


# -- offline ---------------------------------------------------------------------------------

@pytest.mark.parametrize("model", ["generic-58mm", "epson"])
def test_cover_open_keeps_the_receipt_in_the_spool(config, tmp_path, model):
    """Offline with paper in: the paper sensor says "ok", the printer holds the data."""
    config = {**config, "model": model}
    receipt = results_receipt()
    with PrinterSim(line_ms=3, model=model) as sim:
        sim.open_cover()
        with open_printer(config, "serial", tmp_path / "spool", port=sim.path) as printer:
            printer.submit(receipt)
            assert wait_for(lambda: printer.status == "Printer offline: cover open")
            asked = sim.status_queries          # a few tries more, not a fixed time: still nothing
            assert wait_for(lambda: sim.status_queries >= asked + 6)
            assert len(printer.pending()) == 1 and printer.printed == 0
            assert "close the printer's cover" in printer.fault.fix
            sim.close_cover()
            printer.retry()
            assert printer.wait_idle(60), printer.status
            assert sim.wait_printed()
        assert sim.receipts()[-1] == expected_paper(receipt)
        assert sim.overflow == 0


@pytest.mark.parametrize("model, says", [("generic-58mm", "Printer offline: cover open"),
                                         ("epson", "Printer offline: cover open"),
                                         ("csn-a2", "Printer not answering")])   # GS r waits behind the data
def test_cover_opened_during_the_receipt_prints_it_again(config, tmp_path, model, says):
    receipt = results_receipt()
    config = {**config, "model": model}
    with PrinterSim(line_ms=3, model=model) as sim:
        with open_printer(config, "serial", tmp_path / "spool", port=sim.path) as printer:
            printer.submit(receipt)
            assert wait_for(lambda: sim.jobs and len(sim.jobs[-1].lines) >= 3, 30)
            sim.open_cover()
            assert wait_for(lambda: printer.status == says, 20)
            assert len(printer.pending()) == 1
            sim.close_cover()
            assert printer.wait_idle(60), printer.status
            assert sim.wait_printed()
        assert sim.receipts()[-1] == expected_paper(receipt) and sim.overflow == 0


# -- status commands by model ------------------------------------------------------------------

def test_ttl_printer_answers_gs_r_and_prints_with_its_model(config, tmp_path):
    receipt = results_receipt()
    with PrinterSim(line_ms=3, model="csn-a2") as sim:
        status = print_on(sim, {**config, "model": "csn-a2"}, tmp_path, receipt)
        assert status == "Printer ready"
        assert sim.receipts() == [expected_paper(receipt)] and sim.overflow == 0


def test_ttl_printer_with_the_generic_model_is_not_answering_and_says_what_to_set(config, tmp_path):
    with PrinterSim(line_ms=3, model="csn-a2") as sim:
        with open_printer(config, "serial", tmp_path / "spool", port=sim.path) as printer:
            printer.submit(results_receipt())
            assert wait_for(lambda: printer.status == "Printer not answering")
            assert "set [printer] model" in printer.fault.fix and 'status = "none"' in printer.fault.fix
            assert len(printer.pending()) == 1


def test_ttl_printer_paper_out_keeps_the_receipt(config, tmp_path):
    with PrinterSim(line_ms=3, model="csn-a2") as sim:
        sim.paper_out()
        with open_printer({**config, "model": "csn-a2"}, "serial", tmp_path / "spool", port=sim.path) as printer:
            printer.submit(results_receipt())
            assert wait_for(lambda: printer.status == "Printer: paper out")
            assert len(printer.pending()) == 1 and sim.jobs == []
            sim.load_paper()
            assert printer.wait_idle(60), printer.status


def test_esc_v_printer(config, tmp_path):
    receipt = results_receipt()
    with PrinterSim(line_ms=3, model="esc-v") as sim:
        assert print_on(sim, {**config, "model": "esc-v"}, tmp_path, receipt) == "Printer ready"
        assert sim.receipts() == [expected_paper(receipt)] and sim.overflow == 0


def test_printer_without_status_prints_with_status_none(config, tmp_path):
    receipt = results_receipt()
    with PrinterSim(line_ms=3, model="mute") as sim:
        status = print_on(sim, {**config, "status": "none"}, tmp_path, receipt)
        assert status == "Printed (this printer gives no status)"
        assert sim.receipts() == [expected_paper(receipt)] and sim.overflow == 0


# -- speed -----------------------------------------------------------------------------------

@pytest.mark.parametrize("model", ["generic-58mm", "epson", "csn-a2", "mute"])
def test_printer_25_percent_slower_with_dark_lines_loses_nothing(config, tmp_path, model):
    """The printer is 25% slower than line_ms says and a line full of ink takes 30% longer
    again: paced with margin (no in-order status) or synchronised (GS r), nothing is lost."""
    config = {**config, "model": "generic-58mm" if model == "mute" else model, "line_ms": 4}
    if model == "mute":
        config["status"] = "none"
    receipt = results_receipt()
    with PrinterSim(line_ms=4, model=model, slow=1.25, dark=0.3) as sim:
        print_on(sim, config, tmp_path, receipt)
        assert sim.overflow == 0
        assert sim.receipts() == [expected_paper(receipt)]


@pytest.mark.parametrize("model", ["generic-58mm", "epson", "csn-a2", "mute"])
def test_a_picture_on_a_printer_25_percent_slower_loses_nothing(config, tmp_path, model):
    """A drawn chart sent as raster bands, fast enough on the wire that the printer's paper
    speed is what limits it (115200 baud): 25% slower than line_ms and dark rows 30%
    slower again, nothing is lost and the paper shows the picture the preview shows."""
    from companion import charts
    from companion.devices.printer_sim import pictures
    from companion.receipts.escpos import PrintImage
    from companion.receipts.model import picture
    from tests.receipts.pictures import race_results

    chart = picture(charts.lap_chart_spec(race_results(2, 4)), (Line("text"),))
    receipt = Receipt("results", "Results", (Line("Lap chart"), chart))
    config = {**config, "model": "generic-58mm" if model == "mute" else model, "line_ms": 2, "baudrate": 115200}
    if model == "mute":
        config["status"] = "none"
    with PrinterSim(baudrate=115200, line_ms=2, model=model, slow=1.25, dark=0.3) as sim:
        print_on(sim, config, tmp_path, receipt)
        assert sim.overflow == 0
        (printed,) = pictures(sim.jobs[-1].lines)
        assert printed.tobytes() == PrintImage(chart, "gs-v-0").image.tobytes()


def test_synchronised_printing_keeps_the_paper_moving(config, tmp_path):
    """With GS r the printer is kept fed: at most 15% over the fastest the printer allows."""
    from companion.devices.printer_sim import fastest_time
    config = {**config, "model": "epson"}
    receipt = results_receipt()
    with PrinterSim(line_ms=3, model="epson") as sim:
        with Stalls() as stalls:
            print_on(sim, config, tmp_path, receipt)
        job = sim.jobs[-1]
        best = fastest_time(encode(receipt, config), baudrate=9600, line_ms=3)
        stalled = stalls.excused(job.started, job.finished)
        assert job.overflow == 0 and job.duration <= 1.15 * best + stalled, (job.duration, best, stalled)


# -- a restart while the printer still prints a killed job ----------------------------------

@pytest.mark.parametrize("model", ["generic-58mm", "csn-a2"])
def test_first_job_after_a_start_waits_for_the_killed_job(config, tmp_path, model):
    config = {**config, "model": model, "line_ms": 3}
    receipt = results_receipt()
    with PrinterSim(line_ms=3, model=model) as sim:
        with open_printer(config, "serial", tmp_path / "killed", port=sim.path) as printer:
            printer.submit(receipt)
            assert wait_for(lambda: len(sim.received) > 300, 30)
        # the service restarts at once and prints what its spool holds (the killed receipt)
        with open_printer(config, "serial", tmp_path / "killed", port=sim.path) as printer:
            assert printer.wait_idle(60), printer.status
            assert printer.status == "Printer ready"
        assert sim.wait_printed()
        assert sim.overflow == 0
        assert sim.receipts()[-1] == expected_paper(receipt)


def test_only_a_spooled_receipt_makes_the_first_job_wait(config, tmp_path):
    """A killed run leaves its receipt in the spool; with none there the printer holds
    nothing of ours, and the first receipt goes at once."""
    receipt = Receipt("results", "Results", (Line("1 Anna"), Line("2 Björn")))
    with PrinterSim(line_ms=3) as sim:
        with open_printer(config, "serial", tmp_path / "empty", port=sim.path) as printer:
            assert printer.output.link.drained
            printer.submit(receipt)
            assert printer.wait_idle(60), printer.status
        # a receipt left waiting by a stopped run: the next start waits for the printer to drain
        with open_printer({**config, "retry_s": 60}, "serial", tmp_path / "left", port=sim.path) as printer:
            sim.paper_out()
            printer.submit(receipt)
            assert wait_for(lambda: printer.status == "Printer: paper out")
        sim.load_paper()
        with open_printer(config, "serial", tmp_path / "left", port=sim.path) as printer:
            assert not printer.output.link.drained
            assert printer.wait_idle(60), printer.status
        assert sim.wait_printed() and sim.overflow == 0
        assert sim.receipts() == [expected_paper(receipt)] * 2


# -- commands only for the models that know them -------------------------------------------------

def test_strict_epson_printer_gets_no_esc_7(config, tmp_path):
    receipt = results_receipt()
    data = encode(receipt, {**config, "model": "epson"})
    assert b"\x1b7" not in data
    printed = decode(data, model="epson")
    assert printed.unknown == []
    assert paper_text(printed.lines)[:-END_FEED] == receipt.text_lines()
    assert printed.lines[0].align == "center"
    # what the generic profile does to that printer: a stray "P" and the title's centring lost
    wrong = decode(encode(receipt, config), model="epson")
    assert wrong.lines[0].text.startswith("P") and wrong.lines[0].align == "left"


def test_kanji_mode_printer_gets_fs_dot(config, tmp_path):
    receipt = Receipt("results", "Chloé", (Line("Zoë à l'arrivée"),))
    data = encode(receipt, {**config, "model": "csn-a2-kanji"})
    assert data.startswith(b"\x1b@\x1c.")
    assert paper_text(decode(data, model="csn-a2-kanji").lines)[:2] == ["Chloé".center(32).rstrip(),
                                                                        "Zoë à l'arrivée"]
    wrong = decode(encode(receipt, config), model="csn-a2-kanji")   # without FS .
    assert any(KANJI_GLYPH in line.text for line in wrong.lines)
    with PrinterSim(line_ms=3, model="csn-a2-kanji") as sim:
        print_on(sim, {**config, "model": "csn-a2-kanji"}, tmp_path, receipt)
        assert sim.receipts() == [expected_paper(receipt)]


# -- settings the checks used to let through -------------------------------------------------------

@pytest.mark.parametrize("key, value", [
    ("line_ms", math.nan), ("line_ms", math.inf), ("line_ms", 0), ("line_ms", -1),
    ("buffer_bytes", 1e12), ("buffer_bytes", 100.5), ("buffer_bytes", math.nan),
    ("baudrate", math.inf), ("status_timeout_ms", math.nan), ("retry_s", math.inf), ("retry_s", 0),
    ("chars_per_line", 1e9), ("model", "tm-t88-unknown"), ("model", 7), ("status", "sometimes"),
])
def test_settings_that_would_lose_bytes_or_spin_are_refused(config, tmp_path, key, value):
    with pytest.raises(ConfigError, match=rf"printer\.{key}") as err:
        printer_settings({**config, key: value})
    assert "\n" not in str(err.value)
    with pytest.raises(ConfigError):
        open_printer({**config, key: value}, "sim", tmp_path / "spool")


def test_unknown_table_in_the_pinout_is_refused(tmp_path):
    from companion.devices.board import load_pinout
    path = tmp_path / "pinout.toml"
    path.write_text(PINOUT.read_text() + "\n[evil]\nx = 1\n")
    with pytest.raises(ConfigError, match=r"evil: unknown table \(the tables are \[buttons\], \[display\], "
                                          r"\[printer\], \[table\], \[backup\], \[power\] and \[buzzer\]\)"):
        load_pinout(path)


def test_unknown_model_in_the_pinout_is_refused_at_load(tmp_path):
    from companion.devices.board import load_pinout
    path = tmp_path / "pinout.toml"
    path.write_text(PINOUT.read_text().replace('model    = "generic-58mm"', 'model    = "tm-t20"'))
    with pytest.raises(ConfigError, match=r"printer\.model: unknown printer model 'tm-t20' \(use one of "):
        load_pinout(path)


def test_columns_are_padded_after_replacements():
    """Œ -> OE and … -> ... lengthen a cell: padding must come after, or the points move."""
    receipt = Receipt("results", "R", (Columns(("1", "Œdipe…", "10"), (3, 20, 9)),
                                       Columns(("2", "Anna", "8"), (3, 20, 9))))
    lines = paper_text(decode(encode(receipt, {"heat_dots": 7, "heat_time": 80, "heat_interval": 2})).lines)
    assert lines[1] == "1".ljust(3) + "OEdipe...".ljust(20) + "10".rjust(9)
    assert lines[1].index("10") == lines[2].index(" 8") and len(lines[1]) == len(lines[2])


def test_decomposed_accents_print_as_accents():
    import unicodedata
    nfd = unicodedata.normalize("NFD", "Chloé Dvořák Zoë")
    receipt = Receipt("x", "T", (Line(nfd),))
    printed = decode(encode(receipt, {"heat_dots": 7, "heat_time": 80, "heat_interval": 2}))
    assert printed.lines[1].text == "Chloé Dvorák Zoë"


# -- selftest: the printer as it reports itself ---------------------------------------------------

def test_check_printer_reports_each_model_as_it_reports_itself(config):
    from companion.devices.printer import check_printer
    with PrinterSim(model="csn-a2") as sim:
        assert check_printer({**config, "model": "csn-a2"}, port=sim.path) == (
            True, f"Printer OK on {sim.path} at 9600 baud (csn-a2): paper loaded, answers status queries")
        ok, message = check_printer(config, port=sim.path)     # the wrong model: DLE EOT unanswered
        assert not ok and message.startswith("Printer not answering") and "set [printer] model" in message
        sim.paper_out()
        ok, message = check_printer({**config, "model": "csn-a2"}, port=sim.path)
        assert not ok and message.startswith("Printer: paper out") and "it says: paper out" in message
    with PrinterSim(model="mute") as sim:
        ok, message = check_printer({**config, "status": "none"}, port=sim.path)
        assert ok and message.startswith(f"Printer port open on {sim.path} at 9600 baud (generic-58mm): "
                                         'status = "none", so paper and cover are not checked')
