"""A QR code for the table screen's address: byte mode, versions 1 to 6, pure Python.

Small on purpose (a URL of at most 106 bytes); ``matrix(text)`` returns the modules, dark
True, without the quiet zone. The pause menu draws it on the OLED. The steps are the
standard's (ISO/IEC 18004): data codewords, Reed-Solomon error correction per block,
interleaving, the function patterns, the zigzag placement, the mask with the lowest
penalty and the format bits.
"""

from __future__ import annotations

# per version 1..6: total codewords, and per level (L, M): (EC codewords per block, blocks)
TOTAL = (26, 44, 70, 100, 134, 172)
EC = {"L": ((7, 1), (10, 1), (15, 1), (20, 1), (26, 1), (18, 2)),
      "M": ((10, 1), (16, 1), (26, 1), (18, 2), (24, 2), (16, 4))}
LEVEL_BITS = {"L": 1, "M": 0}
ALIGN = (None, 18, 22, 26, 30, 34)   # the second alignment position (the first is 6)


class TooLong(ValueError):
    pass


def capacity(version: int, level: str) -> int:
    """Bytes of text that fit (byte mode: 4 bits of mode and 8 of length)."""
    ec, blocks = EC[level][version - 1]
    return TOTAL[version - 1] - ec * blocks - 2


def matrix(text: str, level: str = "M") -> list[list[bool]]:
    """The smallest QR code of ``text`` at ``level`` (falling back to L when M is too big)."""
    data = text.encode("utf-8")
    for lv in dict.fromkeys((level, "L")):
        for version in range(1, 7):
            if len(data) <= capacity(version, lv):
                return _symbol(data, version, lv)
    raise TooLong(f"{len(data)} bytes do not fit a version 6 QR code")


def image(text: str, level: str = "M", module: int = 1, width: int = 0, x: int | None = None):
    """The code of ``text`` as a Pillow image (mode "1", 0 dark), each module ``module``
    dots square, no quiet zone; on a strip ``width`` dots wide at ``x`` (centred when None)
    when ``width`` is given. For paper: the receipt encoder and the printer simulator."""
    from PIL import Image
    modules = matrix(text, level)
    n, side = len(modules), len(modules) * module
    small = Image.new("1", (n, n), 1)
    small.putdata([0 if dark else 1 for row in modules for dark in row])
    code = small.resize((side, side), Image.NEAREST)
    if width <= side:
        return code
    strip = Image.new("1", (width, side), 1)
    strip.paste(code, ((width - side) // 2 if x is None else max(0, min(x, width - side)), 0))
    return strip


def _symbol(data: bytes, version: int, level: str, mask: int | None = None) -> list[list[bool]]:
    codewords = _codewords(data, version, level)
    size = 17 + 4 * version
    grid = [[False] * size for _ in range(size)]
    func = [[False] * size for _ in range(size)]

    def put(x: int, y: int, dark: bool) -> None:
        grid[y][x] = dark
        func[y][x] = True

    for i in range(size):                         # timing patterns
        put(6, i, i % 2 == 0)
        put(i, 6, i % 2 == 0)
    for cx, cy in ((3, 3), (size - 4, 3), (3, size - 4)):   # finders and their separators
        for dy in range(-4, 5):
            for dx in range(-4, 5):
                x, y = cx + dx, cy + dy
                if 0 <= x < size and 0 <= y < size:
                    put(x, y, max(abs(dx), abs(dy)) not in (2, 4))
    if ALIGN[version - 1]:
        a = ALIGN[version - 1]
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                put(a + dx, a + dy, max(abs(dx), abs(dy)) != 1)
    _format(put, size, level, 0)                  # reserve the format areas
    _place(grid, func, codewords)
    masks = range(8) if mask is None else (mask,)
    best = None
    for m in masks:
        candidate = [[grid[y][x] ^ (not func[y][x] and _MASKS[m](x, y)) for x in range(size)] for y in range(size)]
        _format(lambda x, y, d: candidate[y].__setitem__(x, d), size, level, m)
        score = _penalty(candidate)
        if best is None or score < best[0]:
            best = (score, candidate)
    return best[1]


def _codewords(data: bytes, version: int, level: str) -> list[int]:
    ec, blocks = EC[level][version - 1]
    total = TOTAL[version - 1]
    room = total - ec * blocks
    bits = [0, 1, 0, 0] + [(len(data) >> i) & 1 for i in range(7, -1, -1)]
    for byte in data:
        bits += [(byte >> i) & 1 for i in range(7, -1, -1)]
    bits += [0] * min(4, room * 8 - len(bits))
    bits += [0] * (-len(bits) % 8)
    words = [int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8)]
    pad = 0xEC
    while len(words) < room:
        words.append(pad)
        pad ^= 0xEC ^ 0x11
    divisor = _divisor(ec)
    short = blocks - total % blocks
    short_len = total // blocks
    out_blocks, k = [], 0
    for i in range(blocks):
        n = short_len - ec + (0 if i < short else 1)
        block = words[k:k + n]
        k += n
        out_blocks.append(block + ([0] if i < short else []) + _remainder(block, divisor))
    out = []
    for i in range(len(out_blocks[0])):
        for j, block in enumerate(out_blocks):
            if i != short_len - ec or j >= short:
                out.append(block[i])
    return out


def _mul(x: int, y: int) -> int:
    z = 0
    for i in range(7, -1, -1):
        z = (z << 1) ^ ((z >> 7) * 0x11D)
        z ^= ((y >> i) & 1) * x
    return z


def _divisor(degree: int) -> list[int]:
    result = [0] * (degree - 1) + [1]
    root = 1
    for _ in range(degree):
        for j in range(degree):
            result[j] = _mul(result[j], root)
            if j + 1 < degree:
                result[j] ^= result[j + 1]
        root = _mul(root, 2)
    return result


def _remainder(data: list[int], divisor: list[int]) -> list[int]:
    result = [0] * len(divisor)
    for b in data:
        factor = b ^ result.pop(0)
        result.append(0)
        for i, coef in enumerate(divisor):
            result[i] ^= _mul(coef, factor)
    return result


def _format(put, size: int, level: str, mask: int) -> None:
    data = LEVEL_BITS[level] << 3 | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    bits = (data << 10 | rem) ^ 0x5412

    def bit(i: int) -> bool:
        return bool((bits >> i) & 1)

    for i in range(6):
        put(8, i, bit(i))
    put(8, 7, bit(6))
    put(8, 8, bit(7))
    put(7, 8, bit(8))
    for i in range(9, 15):
        put(14 - i, 8, bit(i))
    for i in range(8):
        put(size - 1 - i, 8, bit(i))
    for i in range(8, 15):
        put(8, size - 15 + i, bit(i))
    put(8, size - 8, True)                        # the dark module


def _place(grid, func, codewords: list[int]) -> None:
    size = len(grid)
    i, total = 0, len(codewords) * 8
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        for vert in range(size):
            for j in range(2):
                x = right - j
                y = size - 1 - vert if ((right + 1) & 2) == 0 else vert
                if not func[y][x] and i < total:
                    grid[y][x] = bool((codewords[i >> 3] >> (7 - (i & 7))) & 1)
                    i += 1
        right -= 2


_MASKS = (lambda x, y: (x + y) % 2 == 0, lambda x, y: y % 2 == 0, lambda x, y: x % 3 == 0,
          lambda x, y: (x + y) % 3 == 0, lambda x, y: (x // 3 + y // 2) % 2 == 0,
          lambda x, y: x * y % 2 + x * y % 3 == 0, lambda x, y: (x * y % 2 + x * y % 3) % 2 == 0,
          lambda x, y: ((x + y) % 2 + x * y % 3) % 2 == 0)


def _penalty(grid) -> int:
    """The standard's penalty rules 1, 2 and 4 (runs, 2x2 blocks, balance); rule 3 (finder
    look-alikes) is left out: every mask decodes, the penalty only picks a clear one."""
    size = len(grid)
    score = 0
    for lines in (grid, list(zip(*grid))):
        for line in lines:
            run = 1
            for a, b in zip(line, line[1:]):
                if a == b:
                    run += 1
                else:
                    score += run - 2 if run >= 5 else 0
                    run = 1
            score += run - 2 if run >= 5 else 0
    for y in range(size - 1):
        for x in range(size - 1):
            if grid[y][x] == grid[y][x + 1] == grid[y + 1][x] == grid[y + 1][x + 1]:
                score += 3
    dark = sum(map(sum, grid))
    score += abs(dark * 20 - size * size * 10) // (size * size) * 10
    return score
