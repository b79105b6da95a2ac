"""The charts read at 384 dots, measured in the printed bitmap: axis numbers at least 7
dots tall, every round of Formula Dé's order numbered, the wear chart across the paper
with legible laps, every mark drawn in the key, and every car's line unlike the others."""

from __future__ import annotations

import itertools

import pytest

from companion import charts
from companion.receipts import png
from companion.receipts.model import Line, Receipt, picture
from tests.receipts.bitmap import components, digits_in_black_boxes, find, height, rows
from tests.receipts.pictures import ZONE_NAMES, ZONES, race_results, rounds_results, wear_cars

MIN_DIGIT = 7


def championship(drivers: int = 5, races: int = 6) -> dict:
    names = ["Anna", "Bjorn", "Chloe", "Dmitri", "Eve", "Farid", "Gus"][:drivers]
    standings = [[{"name": n, "points": (r * 3 + k * 5) % 11} for k, n in enumerate(names)] for r in range(races)]
    return charts.championship_spec(standings, names)


CHARTS = {
    "formula-de 6 cars 36 rounds": lambda: charts.lap_chart_spec(rounds_results(6, 36)),
    "formula-de 10 cars 55 rounds": lambda: charts.lap_chart_spec(rounds_results(10, 55)),
    "lap counter 12 cars 200 laps": lambda: charts.lap_chart_spec(race_results(12, 200)),
    "top speed 8 cars 30 laps": lambda: charts.lap_chart_spec(race_results(8, 30)),
    "3-wide turns at laps": lambda: charts.lap_chart_spec(
        {**race_results(6, 12), "lap_chart": {**race_results(6, 12)["lap_chart"], "at": list(range(3, 39, 3))}}),
    "championship": championship,
    "wear 6 cars": lambda: charts.wear_spec(wear_cars(6), ZONES, ZONE_NAMES),
}


@pytest.fixture(scope="module", params=list(CHARTS))
def drawn(request):
    spec = CHARTS[request.param]()
    return spec, charts.draw(spec)


def axis_glyphs(image) -> list[tuple[int, int, int, int]]:
    return [g for box in image.info.get("axes", ()) for g in components(image, box)]


@pytest.mark.parametrize("name", [name for name in CHARTS if not name.startswith("wear")])
def test_axis_numbers_are_at_least_seven_dots_tall(name):
    """(The wear chart has no axis: its laps are measured in their boxes below.)"""
    image = charts.draw(CHARTS[name]())
    glyphs = axis_glyphs(image)
    assert glyphs, "the chart has axis numbers"
    assert min(map(height, glyphs)) >= MIN_DIGIT     # every digit, not only the tallest one
    assert max(map(height, glyphs)) >= 14


def test_every_mark_drawn_has_a_key_entry(drawn):
    spec, image = drawn
    key = image.info["key"]
    above = (0, 0, image.width, key[1])
    if spec["chart"] == "wear":
        marks = wear_marks(image, spec)
    else:
        marks = [charts.sample(car) for car in range(len(spec["names"]))]
        for mark, kind, exact in ((charts.ring(), "pits", False), (charts.stamp(charts.OUT_MARK), "out", True)):
            drawn_in_chart = bool(find(image, mark, above, exact))   # a ring has its line through it
            assert drawn_in_chart == bool(spec.get(kind)), kind
            if drawn_in_chart:
                marks.append(mark)
            else:
                assert not find(image, mark, key), f"no {kind}: nothing in the key for it"
    for mark in marks:
        assert find(image, mark, key), f"a {mark.size} mark missing from the key"


def wear_marks(image, spec) -> list:
    """The marks the wear chart drew, as the chart drew them: the empty box (whatever
    width the chart chose), the spent box of the first lap, the new tires, the cross."""
    above = (0, 0, image.width, image.info["key"][1])
    box = next(b for b in range(8, charts.MAX_BOX + 1) if find(image, charts.left_box(b), above))
    laps = [lap for car in spec["cars"] for lap, _, n in car["log"] if n > 0]
    marks = [charts.left_box(box), charts.spent_box(box, min(laps))]
    if any(n < 0 for car in spec["cars"] for _, _, n in car["log"]):
        marks.append(charts.new_tires())
    if any(car["out"] for car in spec["cars"]):
        marks.append(charts.stamp(charts.OUT_MARK))
    for mark in marks:
        assert find(image, mark, above), "drawn in the chart"
    return marks


def test_the_chart_uses_the_paper_width(drawn):
    spec, image = drawn
    ink = image.crop((0, 0, image.width, image.info["key"][1])).convert("L").point(lambda v: 255 - v).getbbox()
    assert ink[2] - ink[0] >= 0.9 * charts.WIDTH


def test_wear_laps_are_legible_in_their_boxes():
    """Every spent wear point's lap is a glyph at least 7 dots tall in its black box, with
    two cars side by side as with one a line (a car that changed tires three times: 24
    boxes in a row)."""
    pitting = {"name": "Pit", "start": [6, 3, 3, 3, 3, 2], "out": None,
               "log": [[1, 0, 6], [1, 0, -6], [2, 0, 6], [2, 0, -6], [3, 0, 6], [3, 0, -6]]}
    for cars in (wear_cars(6), wear_cars(10, seed=7), [*wear_cars(3), pitting]):
        spec = charts.wear_spec(cars, ZONES, ZONE_NAMES)
        image = charts.draw(spec)
        digits = digits_in_black_boxes(image, (0, 0, image.width, image.info["key"][1]), charts.BOX_H)
        spent = sum(n for car in cars for _, _, n in car["log"] if n > 0)
        assert len(digits) >= spent and min(map(height, digits)) >= MIN_DIGIT
    assert image.info["key"][1] > 4 * (charts.LINE_H + 6 * (charts.BOX_H + 4))       # one car a line


def test_rounds_run_down_the_paper_every_one_numbered():
    spec = charts.lap_chart_spec(rounds_results(10, 55))
    image = charts.draw(spec)
    left = image.info["axes"][1]                      # the round numbers, down the left
    glyphs = components(image, left)
    lines: list[list[tuple]] = []
    for g in sorted(glyphs, key=lambda g: g[1]):       # digits on one line share their top
        if lines and abs(lines[-1][0][1] - g[1]) <= 1:
            lines[-1].append(g)
        else:
            lines.append([g])
    assert len(lines) == 55
    tops = [line[0][1] for line in lines]
    assert min(b - a for a, b in zip(tops, tops[1:])) >= 14 + 2          # apart, not touching
    assert [len(line) for line in lines] == [1] * 9 + [2] * 46           # 1-9, then 10-55
    assert min(height(g) for g in glyphs) >= MIN_DIGIT
    across = components(image, image.info["axes"][0])                   # places 1-10 along the top
    assert len(across) == 9 + 2 and min(map(height, across)) >= MIN_DIGIT


def test_a_label_at_both_ends_of_each_line():
    """Two cars: each label is written above its line's first point and below its last,
    the car out under its cross."""
    results = {"standings": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
               "lap_chart": {"laps": [["B", "A", "C"], ["A", "B", "C"], ["A", "B", "C"], ["A", "B"]],
                             "at": [1, 2, 3, 4], "across": "rounds", "out": [["C", 4]]}}
    image = charts.draw(charts.lap_chart_spec(results))
    plot_top, plot_bottom = image.info["axes"][1][1], image.info["axes"][1][3]
    chart = (0, 0, image.width, image.info["key"][1])
    label = {name: charts.stamp(" ".join("".join("#" if c == "0" else "." for c in row)
                                         for row in rows(text_image(name)))) for name in "ABC"}
    for name in "AB":
        ys = sorted(y for _, y in find(image, label[name], chart))
        assert len(ys) == 2 and ys[0] < plot_top and ys[1] > plot_bottom, name
    (cross,) = find(image, charts.stamp(charts.OUT_MARK), chart)
    ys = sorted(y for _, y in find(image, label["C"], chart))
    assert ys[0] < plot_top and plot_top < ys[1] < plot_bottom and ys[1] > cross[1]


def text_image(text: str):
    from PIL import Image
    img = Image.new("1", charts.text_size(text), charts.PAPER)
    charts._text(img, 0, 0, text)
    return img.crop(img.convert("L").point(lambda v: 255 - v).getbbox())


def test_lines_stay_distinct():
    styles = charts.STYLES
    assert len(set(styles)) == len(styles)
    assert styles[0] == (3, charts.SOLID, None)                          # the winner: solid, heaviest
    for width, pattern, marker in styles:
        assert pattern in (charts.SOLID, charts.DASHED, charts.DOTTED)   # three strokes, no more
        assert width >= 2 or marker                                       # a thin line is marked
    for n in range(1, len(styles) + 1):                                   # no tangle of dotted lines
        assert sum(s[1] == charts.DOTTED for s in styles[:n]) <= -(-n // 4)
    samples = [charts.sample(car) for car in range(len(styles))]
    for a, b in itertools.combinations(range(len(samples)), 2):
        differ = sum(p != q for p, q in zip(samples[a].get_flattened_data(), samples[b].get_flattened_data()))
        assert differ >= 8, (a, b)


def test_each_cars_line_is_drawn_in_its_own_stroke():
    """Ten cars that keep their places: down each place's column the printed strokes differ
    from every other's."""
    names = [f"Car {k}" for k in range(10)]
    results = {"standings": [{"name": n} for n in names],
               "lap_chart": {"laps": [names] * 20, "at": list(range(1, 21)), "across": "rounds"}}
    image = charts.draw(charts.lap_chart_spec(results))
    top, bottom = image.info["axes"][1][1], image.info["axes"][1][3]
    x0 = image.info["axes"][1][2] + 5
    colw = (charts.WIDTH - x0) / 10
    columns = [image.crop((round(x0 + (p + 0.5) * colw) - 4, top, round(x0 + (p + 0.5) * colw) + 5, bottom))
               for p in range(10)]
    for a, b in itertools.combinations(range(10), 2):
        differ = sum(p != q for p, q in zip(columns[a].get_flattened_data(), columns[b].get_flattened_data()))
        assert differ >= 20, (a, b)


def test_the_preview_shows_the_charts_as_drawn():
    """The PNG preview of a results receipt holds the order chart and the wear chart dot for
    dot, so what is measured above is what the paper shows."""
    from PIL import ImageChops
    lap = charts.lap_chart_spec(rounds_results(6, 36))
    wear = charts.wear_spec(wear_cars(6), ZONES, ZONE_NAMES)
    receipt = Receipt("results", "Results", (picture(lap, (Line("order"),)), picture(wear, (Line("wear"),))))
    preview = png.render(receipt, {"chars_per_line": 32, "heat_dots": 7, "heat_time": 80, "heat_interval": 2})
    y = png.TOP_MARGIN + 48
    for spec in (lap, wear):
        drawn = charts.draw(spec)
        part = preview.crop((0, y, 384, y + drawn.height)).convert("L")
        assert ImageChops.difference(part, drawn.convert("L")).getbbox() is None
        assert min(map(height, axis_glyphs(drawn) or [(0, 0, 0, 14)])) >= MIN_DIGIT
        y += drawn.height
