"""Reading a printed picture back: its connected glyphs, and where a mark appears in it."""

from __future__ import annotations

import re


def rows(image, box=None) -> list[str]:
    """The image's rows as strings, ``"0"`` for ink and ``"1"`` for paper (mode "1")."""
    img = image.convert("1") if box is None else image.convert("1").crop(box)
    width, stride = img.width, (img.width + 7) // 8
    data = img.tobytes()
    return [format(int.from_bytes(data[y * stride:(y + 1) * stride], "big"), f"0{stride * 8}b")[:width]
            for y in range(img.height)]


def components(image, box, colour: str = "0") -> list[tuple[int, int, int, int]]:
    """The 8-connected runs of ``colour`` (ink ``"0"``, paper ``"1"``) inside ``box``, as
    bounding boxes ``(x0, y0, x1, y1)`` (exclusive ends) in the image's coordinates."""
    grid = rows(image, box)
    tall, wide = len(grid), len(grid[0]) if grid else 0
    seen: set[tuple[int, int]] = set()
    found = []
    for y, row in enumerate(grid):
        x = row.find(colour)
        while x >= 0:                   # each dot of the colour along the row, left to right
            if (x, y) in seen:
                x = row.find(colour, x + 1)
                continue
            stack, seen_here = [(x, y)], {(x, y)}
            while stack:
                px, py = stack.pop()
                for nx in (px - 1, px, px + 1):
                    for ny in (py - 1, py, py + 1):
                        if 0 <= ny < tall and 0 <= nx < wide and grid[ny][nx] == colour \
                                and (nx, ny) not in seen_here:
                            seen_here.add((nx, ny))
                            stack.append((nx, ny))
            seen |= seen_here
            xs, ys = [p[0] for p in seen_here], [p[1] for p in seen_here]
            found.append((box[0] + min(xs), box[1] + min(ys), box[0] + max(xs) + 1, box[1] + max(ys) + 1))
            x = row.find(colour, x + 1)
    return found


def height(bbox: tuple[int, int, int, int]) -> int:
    return bbox[3] - bbox[1]


def find(image, mark, box=None, exact: bool = True) -> list[tuple[int, int]]:
    """Top-left corners where ``mark`` is in ``image`` (within ``box``): every dot alike,
    or (``exact=False``) every ink dot of the mark inked (a ring with a line through it)."""
    box = box or (0, 0, image.width, image.height)
    grid, want = rows(image, box), rows(mark)
    patterns = [re.compile("(?=" + (row if exact else row.replace("1", ".")) + ")") for row in want]
    # the places are found along the mark's row with the most ink (a row of paper alone
    # matches all across the blank paper), then the other rows are checked there
    anchor = max(range(len(want)), key=lambda k: want[k].count("0"))
    others = [(k, patterns[k]) for k in range(len(want)) if k != anchor]
    hits = []
    for y in range(len(grid) - len(want) + 1):
        for m in patterns[anchor].finditer(grid[y + anchor]):
            x = m.start()
            if all(pattern.match(grid[y + k], x) for k, pattern in others):
                hits.append((box[0] + x, box[1] + y))
    return hits


def digits_in_black_boxes(image, area, box_height: int) -> list[tuple[int, int, int, int]]:
    """The paper glyphs (laps) inside the black boxes ``box_height`` dots tall within ``area``."""
    boxes = [b for b in components(image, area)
             if height(b) == box_height and b[2] - b[0] >= 8
             and image.crop(b).convert("L").histogram()[0] > (b[2] - b[0]) * height(b) // 2]
    return [g for b in boxes for g in components(image, (b[0] + 1, b[1] + 1, b[2] - 1, b[3] - 1), "1")]

