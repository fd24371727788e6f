"""QR codes of the studio's network links, drawn in the terminal: a phone on the same network
opens the studio by pointing its camera at the screen instead of typing a token.

A small encoder after ISO/IEC 18004: byte mode, error correction level M (about 15% of the code
may be lost), the smallest of versions 1 to 10 that holds the text (a link with its token needs
version 5), and the mask with the lowest penalty.
"""
from __future__ import annotations

Matrix = list[list[bool]]
"""Rows of modules, True for dark."""

# (data codewords per block, blocks) groups and error correction codewords per block, level M
_BLOCKS_M: dict[int, tuple[int, tuple[tuple[int, int], ...]]] = {
    1: (10, ((16, 1),)), 2: (16, ((28, 1),)), 3: (26, ((44, 1),)), 4: (18, ((32, 2),)),
    5: (24, ((43, 2),)), 6: (16, ((27, 4),)), 7: (18, ((31, 4),)), 8: (22, ((38, 2), (39, 2))),
    9: (22, ((36, 3), (37, 2))), 10: (26, ((43, 4), (44, 1))),
}
_ALIGNMENT = {1: (), 2: (6, 18), 3: (6, 22), 4: (6, 26), 5: (6, 30), 6: (6, 34), 7: (6, 22, 38),
              8: (6, 24, 42), 9: (6, 26, 46), 10: (6, 28, 50)}
_LEVEL_M_BITS = 0b00
MAX_VERSION = 10


def _gf_mul(x: int, y: int) -> int:
    """Product in GF(256) modulo x^8 + x^4 + x^3 + x^2 + 1."""
    z = 0
    for i in reversed(range(8)):
        z = (z << 1) ^ ((z >> 7) * 0x11D)
        z ^= ((y >> i) & 1) * x
    return z


def _rs_divisor(degree: int) -> list[int]:
    """Coefficients of the Reed-Solomon generator polynomial (highest power first, leading 1 left out)."""
    result = [0] * (degree - 1) + [1]
    root = 1
    for _ in range(degree):
        for j in range(degree):
            result[j] = _gf_mul(result[j], root)
            if j + 1 < degree:
                result[j] ^= result[j + 1]
        root = _gf_mul(root, 0x02)
    return result


def _rs_remainder(data: list[int], divisor: list[int]) -> list[int]:
    result = [0] * len(divisor)
    for byte in data:
        factor = byte ^ result.pop(0)
        result.append(0)
        for i, coefficient in enumerate(divisor):
            result[i] ^= _gf_mul(coefficient, factor)
    return result


def _data_capacity(version: int) -> int:
    return sum(size * count for size, count in _BLOCKS_M[version][1])


def _codewords(payload: bytes) -> tuple[int, list[int]]:
    """The version and every codeword (data, then error correction, interleaved by block)."""
    for version in range(1, MAX_VERSION + 1):
        count_bits = 8 if version < 10 else 16
        capacity = _data_capacity(version) * 8
        if 4 + count_bits + 8 * len(payload) <= capacity:
            break
    else:
        raise ValueError(f"{len(payload)} bytes do not fit a version {MAX_VERSION} QR code")
    bits: list[int] = []

    def put(value: int, width: int) -> None:
        bits.extend((value >> i) & 1 for i in reversed(range(width)))

    put(0b0100, 4)  # byte mode
    put(len(payload), count_bits)
    for byte in payload:
        put(byte, 8)
    put(0, min(4, capacity - len(bits)))  # terminator
    put(0, -len(bits) % 8)
    data = [int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8)]
    pad = 0xEC
    while len(data) < capacity // 8:
        data.append(pad)
        pad ^= 0xEC ^ 0x11
    ecc_length, groups = _BLOCKS_M[version]
    divisor = _rs_divisor(ecc_length)
    blocks, start = [], 0
    for size, count in groups:
        for _ in range(count):
            blocks.append(data[start:start + size])
            start += size
    eccs = [_rs_remainder(block, divisor) for block in blocks]
    out = [block[i] for i in range(max(map(len, blocks))) for block in blocks if i < len(block)]
    out += [ecc[i] for i in range(ecc_length) for ecc in eccs]
    return version, out


_MASKS = (
    lambda x, y: (x + y) % 2 == 0,
    lambda x, y: y % 2 == 0,
    lambda x, y: x % 3 == 0,
    lambda x, y: (x + y) % 3 == 0,
    lambda x, y: (x // 3 + y // 2) % 2 == 0,
    lambda x, y: x * y % 2 + x * y % 3 == 0,
    lambda x, y: (x * y % 2 + x * y % 3) % 2 == 0,
    lambda x, y: ((x + y) % 2 + x * y % 3) % 2 == 0,
)


class _Symbol:
    """One QR symbol being drawn: its modules and which of them are function patterns."""

    def __init__(self, version: int):
        self.version = version
        self.size = 17 + 4 * version
        self.dark = [[False] * self.size for _ in range(self.size)]
        self.function = [[False] * self.size for _ in range(self.size)]
        self._function_patterns()

    def set(self, x: int, y: int, dark: bool) -> None:
        self.dark[y][x] = dark
        self.function[y][x] = True

    def _function_patterns(self) -> None:
        size = self.size
        for i in range(size):  # timing patterns
            self.set(6, i, i % 2 == 0)
            self.set(i, 6, i % 2 == 0)
        for cx, cy in ((3, 3), (size - 4, 3), (3, size - 4)):  # finders and their separators
            for dy in range(-4, 5):
                for dx in range(-4, 5):
                    x, y = cx + dx, cy + dy
                    if 0 <= x < size and 0 <= y < size:
                        self.set(x, y, max(abs(dx), abs(dy)) not in (2, 4))
        centres = _ALIGNMENT[self.version]
        last = len(centres) - 1
        for i, cx in enumerate(centres):
            for j, cy in enumerate(centres):
                if (i, j) in ((0, 0), (0, last), (last, 0)):
                    continue  # under a finder
                for dy in range(-2, 3):
                    for dx in range(-2, 3):
                        self.set(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1)
        self.format_bits(0)  # reserved now, written with the chosen mask
        if self.version >= 7:
            remainder = self.version
            for _ in range(12):
                remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25)
            bits = self.version << 12 | remainder
            for i in range(18):
                dark = (bits >> i) & 1 == 1
                a, b = size - 11 + i % 3, i // 3
                self.set(a, b, dark)
                self.set(b, a, dark)

    def format_bits(self, mask: int) -> None:
        data = _LEVEL_M_BITS << 3 | mask
        remainder = data
        for _ in range(10):
            remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537)
        bits = (data << 10 | remainder) ^ 0x5412
        size = self.size

        def bit(i: int) -> bool:
            return (bits >> i) & 1 == 1

        for i in range(6):
            self.set(8, i, bit(i))
        self.set(8, 7, bit(6))
        self.set(8, 8, bit(7))
        self.set(7, 8, bit(8))
        for i in range(9, 15):
            self.set(14 - i, 8, bit(i))
        for i in range(8):
            self.set(size - 1 - i, 8, bit(i))
        for i in range(8, 15):
            self.set(8, size - 15 + i, bit(i))
        self.set(8, size - 8, True)  # the dark module

    def place(self, codewords: list[int]) -> None:
        """Codewords in the zigzag of two-module columns, right to left, skipping the timing column."""
        size, i, total = self.size, 0, len(codewords) * 8
        right = size - 1
        while right >= 1:
            if right == 6:
                right = 5
            upward = ((right + 1) & 2) == 0
            for vertical in range(size):
                y = size - 1 - vertical if upward else vertical
                for x in (right, right - 1):
                    if not self.function[y][x] and i < total:
                        self.dark[y][x] = (codewords[i >> 3] >> (7 - (i & 7))) & 1 == 1
                        i += 1
            right -= 2

    def masked(self, mask: int) -> Matrix:
        test = _MASKS[mask]
        self.format_bits(mask)
        return [[self.dark[y][x] ^ (not self.function[y][x] and test(x, y)) for x in range(self.size)]
                for y in range(self.size)]


def _penalty(modules: Matrix) -> int:
    """The standard's four penalties: long runs, 2x2 blocks, finder look-alikes, dark balance."""
    size = len(modules)
    score = 0
    lines = modules + [list(column) for column in zip(*modules)]
    finder_like = ([True, False, True, True, True, False, True, False, False, False, False],
                   [False, False, False, False, True, False, True, True, True, False, True])
    for line in lines:
        run = 1
        for a, b in zip(line, line[1:]):
            if a == b:
                run += 1
            else:
                score += 3 + run - 5 if run >= 5 else 0
                run = 1
        score += 3 + run - 5 if run >= 5 else 0
        for start in range(size - 10):
            if line[start:start + 11] in finder_like:
                score += 40
    for y in range(size - 1):
        for x in range(size - 1):
            if modules[y][x] == modules[y][x + 1] == modules[y + 1][x] == modules[y + 1][x + 1]:
                score += 3
    dark = sum(map(sum, modules))
    score += 10 * (abs(dark * 20 - size * size * 10) // (size * size))
    return score


def encode(text: str) -> Matrix:
    """The QR code of `text` (UTF-8 bytes), without its quiet zone."""
    version, codewords = _codewords(text.encode("utf-8"))
    symbol = _Symbol(version)
    symbol.place(codewords)
    return min((symbol.masked(mask) for mask in range(8)), key=_penalty)


QUIET = 2
"""Light modules around the code (phone cameras read a terminal's code with two)."""


def terminal(text: str) -> str:
    """The QR code of `text` as lines of half blocks, black on a bright white background (set
    explicitly, so that the code reads the same on a dark or a light terminal)."""
    modules = encode(text)
    size = len(modules) + 2 * QUIET
    light = [False] * size
    rows = [light] * QUIET + [[False] * QUIET + row + [False] * QUIET for row in modules] + [light] * QUIET
    if len(rows) % 2:
        rows.append(light)
    glyph = {(False, False): " ", (True, True): "\u2588", (True, False): "\u2580", (False, True): "\u2584"}
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2]):
        lines.append("\x1b[30;107m" + "".join(glyph[pair] for pair in zip(top, bottom)) + "\x1b[0m")
    return "\n".join(lines)


def svg(text: str, quiet: int = 4) -> str:
    """The QR code of `text` as an SVG picture (black modules on white, `quiet` light modules
    around, the standard's four by default), for a page to show beside its link."""
    modules = encode(text)
    size = len(modules) + 2 * quiet
    dark = "".join(f"M{x + quiet} {y + quiet}h1v1h-1z" for y, row in enumerate(modules) for x, on in enumerate(row) if on)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" shape-rendering="crispEdges">'
            f'<rect width="{size}" height="{size}" fill="#fff"/><path d="{dark}" fill="#000"/></svg>')
