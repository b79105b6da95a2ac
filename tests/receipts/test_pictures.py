"""Charts drawn from a race's results, and printed as raster images: the bytes decoded
back into the picture the preview shows, bands that fit the printer's buffer, the text
version where a printer has no raster images."""

import json
import re

import pytest
from PIL import ImageChops

from companion import charts
from companion.devices.printer_sim import decode, paper_text, pictures
from companion.devices.spool import receipt_from_json, receipt_to_json
from companion.receipts import escpos, png
from companion.receipts.model import Line, Receipt, flat, picture
from tests.receipts.pictures import race_results

CONFIG = {"heat_dots": 7, "heat_time": 80, "heat_interval": 2, "chars_per_line": 32}


def ink(image) -> int:
    """Dots of ink (0) in a mode "1" image."""
    return image.convert("L").histogram()[0]


def same(a, b) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


def chart_receipt(cars=6, laps=30):
    spec = charts.lap_chart_spec(race_results(cars, laps))
    text = (Line("L1: text version"),)
    return Receipt("results", "Results", (Line("Lap chart"), picture(spec, text), Line("after"))), spec


# -- the charts --------------------------------------------------------------------------

def test_lap_chart_spec_reads_the_results():
    results = {"standings": [{"name": "Blue", "number": 7}, {"name": "Red"}, {"name": "Black"}],
               "lap_chart": {"laps": [["Red", "Blue", "Black"], ["Blue", "Red", "Black"], ["Blue", "Red"]],
                             "pits": [["Red", 2]], "out": [["Black", 3]]}}
    spec = charts.lap_chart_spec(results)
    assert spec["names"] == ["Blue", "Red", "Black"]          # the winner first
    assert spec["labels"] == ["7", "Red", "BLA"]              # a number, a short name, its first letters
    assert spec["laps"] == [[1, 0, 2], [0, 1, 2], [0, 1]]
    assert spec["pits"] == [[1, 2]] or spec["pits"] == [(1, 2)]
    assert json.loads(json.dumps(spec))["out"] == [[2, 3]]
    assert charts.lap_chart_spec({"standings": [], "lap_chart": {"laps": []}}) is None


def test_a_car_out_is_not_drawn_after_its_lap():
    results = {"standings": [{"name": "A"}, {"name": "B"}],
               "lap_chart": {"laps": [["A", "B"], ["A", "B"], ["A", "B"]], "out": [["B", 2]]}}
    assert charts.lap_chart_spec(results)["laps"] == [[0, 1], [0], [0]]


def test_labels_are_distinct_and_short():
    names = ["Black", "Blue", "Brown", "Bl", "Yellow", "Yellowish"]
    labels = charts._label(names)
    assert len(set(labels)) == len(labels) and max(map(len, labels)) <= charts.MAX_LABEL


@pytest.mark.parametrize("cars,laps", [(2, 2), (4, 12), (10, 40), (12, 200)])
def test_lap_chart_fits_the_paper_for_any_race(cars, laps):
    spec = charts.lap_chart_spec(race_results(cars, laps))
    image = charts.draw(spec)
    assert image.mode == "1" and image.width == charts.WIDTH
    assert image.height <= 540      # 12 cars: the key of 3-letter labels takes a row more
    assert 0.02 < ink(image) / (image.width * image.height) < 0.5   # drawn, not a blot


def test_long_races_are_grouped_not_taller():
    room = 280
    assert charts.lap_columns(40, room) == 1
    assert charts.lap_columns(200, room) == 5
    short = charts.draw(charts.lap_chart_spec(race_results(12, 20, out=False)))
    long = charts.draw(charts.lap_chart_spec(race_results(12, 200, out=False)))
    assert long.height - short.height <= 24       # a legend line says how laps are grouped


def test_the_winners_line_is_the_heaviest():
    """Two cars side by side all race: the winner's row carries more ink than the other's."""
    results = {"standings": [{"name": "A"}, {"name": "B"}],
               "lap_chart": {"laps": [["A", "B"]] * 10}}
    image = charts.draw(charts.lap_chart_spec(results)).convert("L")
    rows = [sum(1 for x in range(60, 320) if image.getpixel((x, y)) == 0) for y in range(image.height)]
    first, second = sorted(range(len(rows)), key=lambda y: -rows[y])[:2]
    assert rows[first] > 200 and abs(first - second) <= 2            # a line three dots thick
    other = max(rows[y] for y in range(first + 10, first + 40))     # the second car's row
    assert sum(sorted(rows[first - 2:first + 3])[-3:]) > 2 * other


def test_wear_and_championship_charts():
    wear = charts.wear_spec([{"name": "Red", "start": [6, 3, 3, 3, 3, 2],
                              "log": [[1, 0, 2], [2, 0, -2], [2, 4, 1]]}], list("TBGCEH"))
    assert charts.draw(wear).width == charts.WIDTH
    spec = charts.championship_spec([[{"name": "A", "points": 10}, {"name": "B", "points": 6}],
                                     [{"name": "B", "points": 10}]], ["B", "A"])
    assert spec["points"] == [[0, 6, 16], [0, 10, 10]]
    assert charts.draw(spec).width == charts.WIDTH
    with pytest.raises(ValueError, match="unknown chart"):
        charts.draw({"chart": "pie"})


# -- printing the picture ------------------------------------------------------------------

@pytest.mark.parametrize("model,buffer,mode", [("generic-58mm", 256, "gs-v-0"), ("csn-a2", 1024, "gs-v-0"),
                                               ("esc-v", 4096, "esc-star")])
def test_the_printer_gets_the_preview_dot_for_dot(model, buffer, mode):
    receipt, spec = chart_receipt()
    config = {**CONFIG, "model": model, "buffer_bytes": buffer}
    assert escpos.raster_mode(config) == mode
    data = escpos.encode(receipt, config)
    paper = decode(data, model=model)
    assert paper.unknown == []
    (printed,) = pictures(paper.lines)
    image = next(line for line in escpos.layout(receipt, 32, mode) if isinstance(line, escpos.PrintImage)).image
    assert same(printed, image)
    drawn = charts.draw(spec)                           # the chart itself, padded to stripes for ESC *
    assert same(image.crop((0, 0, 384, drawn.height)), drawn) or mode == "gs-v-0"
    preview = png.render(receipt, config)
    top = png.TOP_MARGIN + 48 + 24
    assert same(preview.crop((0, top, 384, top + image.height)), image)
    text = paper_text(paper.lines)
    assert "L1: text version" not in text and text[-5] == "after"


def test_bands_fit_half_the_buffer_and_pace_by_their_rows():
    receipt, _ = chart_receipt(12, 60)
    for buffer in (128, 256, 4096):
        config = {**CONFIG, "buffer_bytes": buffer}
        bands = [(data, dots) for data, dots in escpos.encode_lines(receipt, config) if data.startswith(b"\x1dv0")]
        assert bands
        for data, dots in bands:
            assert len(data) <= buffer // 2 - 3
            assert dots == data[6] | data[7] << 8 and len(data) == 8 + 48 * dots
            assert dots <= 24


@pytest.mark.parametrize("config", [{"model": "esc-v", "buffer_bytes": 256}, {"raster": "none"},
                                    {"buffer_bytes": 64}])
def test_without_raster_the_text_version_prints(config):
    receipt, _ = chart_receipt()
    config = {**CONFIG, **config}
    assert escpos.raster_mode(config) is None
    data = escpos.encode(receipt, config)
    model = config.get("model", "generic-58mm")
    paper = decode(data, model=model)
    assert pictures(paper.lines) == []
    assert paper_text(paper.lines)[:4] == receipt.text_lines()[:4]
    assert "L1: text version" in receipt.text_lines()
    assert png.render(receipt, config).height == png.render(Receipt("results", "Results",
                                                                    tuple(flat(receipt.items)))).height


def test_picture_data_never_holds_a_real_time_command():
    """DLE EOT n inside a picture would be answered by the printer and the job misread."""
    from PIL import Image
    image = Image.new("1", (384, 48), 1)
    for x in range(0, 384, 16):        # bytes 0x10 0x04 across the image
        image.putpixel((x + 3, 5), 0)
        image.putpixel((x + 13, 5), 0)
    for mode in ("gs-v-0", "esc-star"):
        safe = escpos.without_realtime(image, mode)
        data = b"".join(d for d, _ in escpos.raster_chunks(safe, mode, 2))
        assert not re.search(rb"\x10[\x04\x05\x14]", data)
        assert (mode == "esc-star" or ink(image) > ink(safe)) and ink(image) - ink(safe) <= 24   # a dot each


def test_a_picture_survives_the_spool():
    receipt, _ = chart_receipt()
    again = receipt_from_json(json.loads(json.dumps(receipt_to_json(receipt))))
    assert again == receipt


def test_raster_setting_is_checked():
    from companion.core.config import ConfigError
    with pytest.raises(ConfigError, match="printer.raster"):
        escpos.raster_mode({**CONFIG, "raster": "yes"})


def test_a_chart_without_a_text_version_leaves_no_heading_on_a_text_printer():
    from companion.receipts import layouts
    rows = [{"name": "A"}, {"name": "B"}]
    items = layouts.lap_chart_picture(rows, {"laps": [["A", "B"]]}, (), "Order after each round")
    receipt = Receipt("results", "Results", tuple(items))
    assert [line.strip() for line in receipt.text_lines()] == ["Results"]
    lines = escpos.layout(receipt, 32, "gs-v-0")
    assert [line.text for line in lines[1:2]] == ["Order after each round"]
    assert isinstance(lines[2], escpos.PrintImage)
    assert receipt_from_json(json.loads(json.dumps(receipt_to_json(receipt)))) == receipt


def test_a_field_of_twelve_is_printed_as_two_lap_charts_of_six_clear_lines():
    """A 12-car lap chart is split: "Lap chart, places 1-6" draws the front of the field
    and "places 7-12" the rest, each on all twelve place rows in the six clearest line
    styles, each line labelled at both ends; the bytes printed hold both pictures under
    their headings, and the text version once."""
    from companion.receipts import layouts
    results = race_results(12, 40)
    items = layouts.lap_chart_picture(results["standings"], results["lap_chart"], (Line("L1: text"),))
    specs = [json.loads(p.spec) for p in items]
    assert [p.head[0].text for p in items] == ["Lap chart, places 1-6", "Lap chart, places 7-12"]
    assert [s["only"] for s in specs] == [list(range(6)), list(range(6, 12))]
    assert [len(flat([p])) for p in items] == [2, 0]                  # the text version once
    receipt = Receipt("results", "Results", tuple(items))
    paper = decode(escpos.encode(receipt, CONFIG))
    text = [line.strip() for line in paper_text(paper.lines)]
    assert "Lap chart, places 1-6" in text and "Lap chart, places 7-12" in text
    printed = pictures(paper.lines)
    previews = [line.image for line in escpos.layout(receipt, 32, escpos.raster_mode(CONFIG))
                if isinstance(line, escpos.PrintImage)]
    assert len(printed) == 2 and all(same(a, b) for a, b in zip(printed, previews))
    whole = charts.draw(charts.lap_chart_spec(results))
    for image in printed:            # half the lines: less ink in the plot than the whole field's
        assert ink(image) < ink(whole)
    key_styles = [charts._car_entries(s["names"], s["labels"], s["only"]) for s in specs]
    assert all(len(k) == 6 for k in key_styles)
    assert all(same(a[0], b[0]) for a, b in zip(*key_styles))        # the same six styles in each


def test_a_field_of_six_is_one_lap_chart():
    from companion.receipts import layouts
    results = race_results(6, 20)
    items = layouts.lap_chart_picture(results["standings"], results["lap_chart"])
    assert len(items) == 1 and items[0].head[0].text == "Lap chart" and "only" not in json.loads(items[0].spec)
