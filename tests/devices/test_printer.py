"""The printer driver over a real pseudo-terminal with the simulated printer at the other end.

Timing is checked on the simulator's own clock (wire, buffer and paper models), so the
assertions do not depend on how busy the test machine is.
"""

import json
import os

import pytest
import serial

from companion.core.config import ConfigError
from companion.devices.printer import SerialLink, check_printer, open_printer, paper_state, printer_settings
from companion.devices.printer_sim import PrinterSim, decode, fastest_time, paper_text
from companion.devices.spool import Spool, receipt_from_json, receipt_to_json
from companion.receipts.escpos import encode
from companion.receipts.model import Receipt
from tests.receipts.samples import results_receipt

from tests.devices.printing import Stalls, expected_paper, wait_for




def test_results_receipt_paced_to_paper_speed(config, tmp_path):
    receipt = results_receipt()
    with open_printer(config, "sim", tmp_path / "spool") as printer:
        with Stalls() as stalls:
            printer.submit(receipt)
            assert printer.wait_idle(30), printer.status
            sim = printer.sim
            assert sim.wait_printed()
        job = sim.jobs[-1]
        assert job.overflow == 0 and sim.overflow == 0
        assert job.text() == expected_paper(receipt)
        best = fastest_time(encode(receipt, config), baudrate=9600, line_ms=config["line_ms"])
        stalled = stalls.excused(job.started, job.finished)
        assert best - 1e-6 <= job.duration <= 1.15 * best + stalled, (job.duration, best, stalled)
        assert printer.status == "Printer ready" and printer.pending() == []


def test_wire_bound_printer_is_kept_busy(config, tmp_path):
    """A fast printer on a slow line: the wire, not the paper, sets the pace."""
    config = {**config, "line_ms": 0.5}
    receipt = results_receipt()
    with open_printer(config, "sim", tmp_path / "spool") as printer:
        with Stalls() as stalls:
            printer.submit(receipt)
            assert printer.wait_idle(30), printer.status
            assert printer.sim.wait_printed()
        job = printer.sim.jobs[-1]
        best = fastest_time(encode(receipt, config), baudrate=9600, line_ms=0.5)
        stalled = stalls.excused(job.started, job.finished)
        assert job.overflow == 0 and job.duration <= 1.15 * best + stalled, (job.duration, best, stalled)


def test_unpaced_receipt_overflows_the_simulated_buffer(config):
    """The simulator catches what pacing prevents: the whole receipt written at once."""
    receipt = results_receipt()
    with PrinterSim(baudrate=9600, buffer_bytes=256, line_ms=10) as sim:
        with serial.Serial(sim.path, 9600) as port:
            port.write(encode(receipt, config))
            assert sim.wait_printed()
        assert sim.overflow > 0
        assert sim.receipts()[-1] != expected_paper(receipt)


def test_missing_printer_keeps_the_receipt(config, tmp_path):
    missing = str(tmp_path / "no-printer")
    with open_printer(config, "serial", tmp_path / "spool", port=missing) as printer:
        entry = printer.submit(results_receipt())
        assert wait_for(lambda: printer.status == f"Printer not found: {missing}")
        assert [e.id for e in printer.pending()] == [entry]
        assert printer.fault.fix                     # the owner is told what to do
    # the next start finds it in the spool and prints it
    with open_printer(config, "sim", tmp_path / "spool") as printer:
        assert printer.wait_idle(30), printer.status
        assert printer.sim.receipts() == [expected_paper(results_receipt())]


def test_unplugged_mid_receipt_is_kept_and_reprinted(config, tmp_path):
    receipt = results_receipt()
    with open_printer(config, "sim", tmp_path / "spool") as printer:
        sim = printer.sim
        sim.unplug_after(200)
        printer.submit(receipt)
        assert wait_for(lambda: not sim.plugged)
        assert wait_for(lambda: printer.status.startswith(("Printer unplugged", "Printer not found")))
        assert len(printer.pending()) == 1
        sim.plug()
        assert printer.wait_idle(30), printer.status
        assert sim.wait_printed()
        cut, whole = sim.receipts()
        assert len(cut) < len(whole) and whole == expected_paper(receipt)
        assert sim.overflow == 0


def test_paper_out_waits_for_paper(config, tmp_path):
    receipt = results_receipt()
    with open_printer(config, "sim", tmp_path / "spool") as printer:
        sim = printer.sim
        sim.paper_out()
        printer.submit(receipt)
        assert wait_for(lambda: printer.status == "Printer: paper out")
        assert len(printer.pending()) == 1 and sim.jobs == []     # nothing sent into an empty printer
        sim.load_paper()
        printer.retry()
        assert printer.wait_idle(30), printer.status
        assert sim.wait_printed() and sim.receipts() == [expected_paper(receipt)]


def test_paper_running_out_during_the_receipt_prints_it_again(config, tmp_path):
    receipt = results_receipt()
    with open_printer(config, "sim", tmp_path / "spool") as printer:
        sim = printer.sim
        printer.submit(receipt)
        assert wait_for(lambda: sim.jobs and len(sim.jobs[-1].lines) >= 3)
        sim.paper_out()
        assert wait_for(lambda: printer.status == "Printer: paper out")
        assert len(printer.pending()) == 1
        sim.load_paper()
        assert printer.wait_idle(30), printer.status
        assert sim.wait_printed() and sim.receipts()[-1] == expected_paper(receipt)
        assert sim.overflow == 0          # the stalled printer was not fed past its buffer


def test_silent_printer_is_unknown_never_ok(config, tmp_path):
    with PrinterSim() as sim:
        sim.silent = True
        link = SerialLink(printer_settings(config), sim.path)
        try:
            assert link.paper() == "unknown"
            sim.silent = False
            assert link.paper() == "ok"
        finally:
            link.close()
    with open_printer(config, "sim", tmp_path / "spool") as printer:
        printer.sim.silent = True
        printer.submit(results_receipt())
        assert wait_for(lambda: printer.status == "Printer not answering")
        assert len(printer.pending()) == 1 and printer.sim.jobs == []
        printer.sim.silent = False
        assert printer.wait_idle(30), printer.status


@pytest.mark.parametrize("reply, state", [
    (b"\x12", "ok"), (b"\x1e", "low"), (b"\x72", "out"), (b"\x7e", "out"),
    (b"", "unknown"), (b"\x00", "unknown"), (b"\xff", "unknown"), (b"\x12\x12", "unknown"),
])
def test_paper_sensor_answers(reply, state):
    assert paper_state(reply) == state


def test_submit_returns_while_the_printer_is_busy(config, tmp_path):
    with open_printer({**config, "line_ms": 6}, "sim", tmp_path / "spool") as printer:
        first = printer.submit(results_receipt())
        assert wait_for(lambda: printer.status == "Printing...")
        second = printer.submit(Receipt("note", "Second"))
        assert printer.status == "Printing..."              # returned while the first is printing
        assert [e.id for e in printer.pending()] == [first, second]
        assert printer.wait_idle(60), printer.status
        assert printer.sim.wait_printed()
        assert printer.sim.receipts() == [expected_paper(results_receipt()), expected_paper(Receipt("note", "Second"))]


def test_reprint_prints_the_last_receipt_again(config, tmp_path):
    with open_printer(config, "sim", tmp_path / "spool") as printer:
        assert printer.reprint() is None
        printer.submit(results_receipt())
        assert printer.wait_idle(30)
        assert printer.reprint() is not None
        assert printer.wait_idle(30) and printer.sim.wait_printed()
        assert printer.sim.receipts() == [expected_paper(results_receipt())] * 2


def test_spool_files_are_whole_json_and_survive_damage(config, tmp_path):
    spool = Spool(tmp_path / "spool")
    (tmp_path / "spool" / "00000001-results.json.tmp").write_text("half a rec")   # a cut-short write
    spool = Spool(tmp_path / "spool")
    assert list((tmp_path / "spool").glob("*.tmp")) == []
    bad = spool.add(Receipt("results", "Broken"))
    (tmp_path / "spool" / bad).write_text("{not json")
    good = spool.add(results_receipt())
    assert json.loads((tmp_path / "spool" / good).read_text())["title"] == "Formula Dé - Results"
    with open_printer(config, "sim", tmp_path / "spool") as printer:
        assert printer.wait_idle(30), printer.status
        assert printer.sim.receipts() == [expected_paper(results_receipt())]
    assert (tmp_path / "spool" / (bad + ".bad")).read_text() == "{not json"   # kept for the owner


def test_receipt_json_round_trip():
    receipt = results_receipt()
    assert receipt_from_json(json.loads(json.dumps(receipt_to_json(receipt)))) == receipt


def test_png_backend_saves_preview_and_bytes(config, tmp_path):
    receipt = results_receipt()
    with open_printer(config, "png", tmp_path / "spool", out_dir=tmp_path / "out") as printer:
        printer.submit(receipt)
        assert printer.wait_idle(10), printer.status
    (png,), (raw,) = (list((tmp_path / "out").glob(f"*.{ext}")) for ext in ("png", "bin"))
    assert png.stem == raw.stem and png.stem.endswith("-results")
    assert paper_text(decode(raw.read_bytes()).lines) == expected_paper(receipt)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_check_printer_messages(config, tmp_path):
    with PrinterSim() as sim:
        ok, message = check_printer(config, port=sim.path)
        assert ok and message == (f"Printer OK on {sim.path} at 9600 baud (generic-58mm): "
                                  "online, paper loaded, answers status queries")
        sim.open_cover()
        assert check_printer(config, port=sim.path) == (
            False, f"Printer offline: cover open on {sim.path} at 9600 baud (generic-58mm); it says: offline, "
                   "paper loaded, answers status queries (close the printer's cover; the receipt prints then)")
        sim.close_cover()
        sim.paper_out()
        assert check_printer(config, port=sim.path) == (
            False, f"Printer: paper out on {sim.path} at 9600 baud (generic-58mm); it says: offline, "
                   "paper out, answers status queries (load a paper roll; the receipt prints then)")
        sim.silent = True
        ok, message = check_printer(config, port=sim.path)
        assert not ok and message.startswith(f"Printer not answering on {sim.path} at 9600 baud (generic-58mm) "
                                             "(check the printer's power")
        assert message.endswith('set [printer] model to its model, or status = "none")')
    ok, message = check_printer(config, port=str(tmp_path / "ttyNONE"))
    assert not ok and message.startswith(f"Printer not found: {tmp_path / 'ttyNONE'} (generic-58mm) (check the cable")
    ok, message = check_printer({**config, "baudrate": "fast"})
    assert not ok and "printer.baudrate" in message and "\n" not in message


def test_bad_config_or_backend_is_a_config_error(config, tmp_path):
    with pytest.raises(ConfigError, match="printer.flow_control"):
        open_printer({**config, "flow_control": "xon"}, "serial", tmp_path / "spool")
    with pytest.raises(ConfigError, match="unknown printer backend 'lp0'"):
        open_printer(config, "lp0", tmp_path / "spool")
    assert not os.path.exists(tmp_path / "spool" / "00000001-x.json")
