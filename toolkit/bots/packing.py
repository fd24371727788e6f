"""How well a quilt is packed: the compiled evaluation the time-track bots use to place patches.

A quilt arrives as the kernel keeps it: uint64 words, bit `row * width + col` set for a covered
cell. The evaluation works on the quilt's rows (one small integer per row), where a cell's four
neighbours are one shift away, so a whole 9x9 quilt is scored in a few dozen integer operations.

What makes a quilt hard to finish is the shape of its empty area, not its size:
- the empty area's perimeter (edges between an empty cell and a covered cell or the board edge):
  a patch laid against the edge or other patches adds little, one laid in open cloth adds a lot;
- isolated empty cells: only a leather patch can ever fill them;
- isolated empty pairs and dead-end cells (one empty neighbour): few patches fit there;
- for editions with a k x k bonus square, how close the fullest k x k square is to complete.

`packing_score` turns these into one number (higher = better packed) with weights the bots pass
in; `PACK_*` name the entries of that weight vector and `DEFAULT_PACK_WEIGHTS` is the tuned set.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types

from toolkit.jit import intrinsic, jit_disabled, njit, no_alloc

# ----- the weight vector of packing_score -----------------------------------------------------
PACK_PERIMETER = 0
"""Cost of one edge of empty-area perimeter."""
PACK_ISOLATED = 1
"""Cost of one empty cell with no empty neighbour."""
PACK_PAIR = 2
"""Cost of one empty cell in an isolated empty pair (counted per cell)."""
PACK_DEAD_END = 3
"""Cost of one empty cell with exactly one empty neighbour."""
PACK_BONUS = 4
"""Value of each covered cell of the fullest bonus square (while the bonus is available)."""
N_PACK_WEIGHTS = 5

DEFAULT_PACK_WEIGHTS = np.array([0.5, 2.0, 1.0, 0.0, 0.15], dtype=np.float64)

# ----- the figures packing_score leaves in its counts scratch ---------------------------------
COUNT_EMPTY = 0
COUNT_PERIMETER = 1
COUNT_ISOLATED = 2
COUNT_PAIR = 3
COUNT_DEAD_END = 4
COUNT_SQUARE = 5
N_COUNTS = 6

MAX_ROWS = 32
"""Rows a quilt may have (the geometry layer's largest board side)."""


@intrinsic
def _ctpop(typingctx, x):
    """The CPU's population count (LLVM ctpop) on a 64-bit integer."""
    if not isinstance(x, types.Integer) or x.bitwidth != 64:  # type: ignore[attr-defined]  # absent from numba's stub
        return None

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, [args[0]])

    return x(x), codegen


if jit_disabled():
    # Interpreted (NUMBA_DISABLE_JIT=1, for debugging and coverage): plain Python, same results.
    def popcount(x):
        """Set bits of a non-negative integer."""
        return bin(int(x)).count("1")

    def popcount64(x):
        """Set bits of a uint64 word."""
        return bin(int(x)).count("1")

else:

    @njit(cache=True, inline="always")
    def popcount(x):
        """Set bits of a non-negative int64."""
        return _ctpop(np.int64(x))

    @njit(cache=True, inline="always")
    def popcount64(x):
        """Set bits of a uint64 word."""
        return np.int64(_ctpop(np.uint64(x)))


@no_alloc
def bit_range(words, start, length):
    """Bits start .. start+length-1 of a uint64 word array as an int64 (length <= 32)."""
    w = start >> 6
    off = start & 63
    v = words[w] >> np.uint64(off)
    if off + length > 64:
        v |= words[w + 1] << np.uint64(64 - off)
    return np.int64(v & np.uint64((1 << length) - 1))


@no_alloc
def quilt_rows(words, width, height, rows):
    """Write the covered cells of each row of a quilt (uint64 words) into rows[:height]."""
    for r in range(height):
        rows[r] = bit_range(words, r * width, width)


@no_alloc
def empty_shape(rows, width, height, counts):
    """Shape of the empty area into counts[COUNT_EMPTY .. COUNT_DEAD_END]: empty cells,
    perimeter, isolated cells, cells of isolated pairs, other dead-end cells."""
    full = (1 << width) - 1
    empty = 0
    pairs = 0
    isolated = 0
    pair_cells = 0
    dead = 0
    e_up = 0
    e_here = ~rows[0] & full
    one_up = 0
    for r in range(height):
        e_down = (~rows[r + 1] & full) if r + 1 < height else 0
        e = e_here
        left = (e << 1) & full
        right = e >> 1
        any_n = left | right | e_up | e_down
        two = (left & right) | ((left | right) & (e_up | e_down)) | (e_up & e_down)
        empty += popcount(e)
        pairs += popcount(e & (e >> 1)) + popcount(e & e_down)
        isolated += popcount(e & ~any_n)
        one = e & any_n & ~two
        dead += popcount(one)
        # Two dead ends that neighbour each other are a pair cut off from everything else.
        pair_cells += 2 * (popcount(one & (one >> 1)) + popcount(one & one_up))
        one_up = one
        e_up = e
        e_here = e_down
    counts[COUNT_EMPTY] = empty
    counts[COUNT_PERIMETER] = 4 * empty - 2 * pairs
    counts[COUNT_ISOLATED] = isolated
    counts[COUNT_PAIR] = pair_cells
    counts[COUNT_DEAD_END] = dead - pair_cells


@no_alloc
def fullest_square(rows, width, height, k):
    """Covered cells of the fullest k x k square of the quilt (0 when k == 0 or it does not fit)."""
    if k <= 0 or k > width or k > height:
        return 0
    line = (1 << k) - 1
    best = 0
    for top in range(height - k + 1):
        for left in range(width - k + 1):
            m = line << left
            c = 0
            for r in range(top, top + k):
                c += popcount(rows[r] & m)
            if c > best:
                best = c
    return best


@no_alloc
def square_counts(words, square_masks, out):
    """out[m] = covered cells of the quilt `words` inside square m (rows of square_masks)."""
    for m in range(square_masks.shape[0]):
        c = 0
        for w in range(words.shape[0]):
            c += popcount64(words[w] & square_masks[m, w])
        out[m] = c


@no_alloc
def fullest_index(counts):
    """Index of the square with the most covered cells (the first of equals)."""
    best = 0
    for m in range(1, counts.shape[0]):
        if counts[m] > counts[best]:
            best = m
    return best


@no_alloc
def fullest_square_with(counts, square_masks, masks):
    """Covered cells of the fullest square once the cells of `masks` (free cells) are added to
    a quilt whose per-square counts are `counts` (from square_counts)."""
    best = 0
    for m in range(square_masks.shape[0]):
        c = counts[m]
        for w in range(masks.shape[0]):
            c += popcount64(masks[w] & square_masks[m, w])
        if c > best:
            best = c
    return best


@no_alloc
def shape_score(rows, width, height, weights, counts):
    """How well packed the quilt `rows` is by the shape of its empty area (higher is better).

    `counts` is int64[N_COUNTS] scratch, left holding the figures of `empty_shape`."""
    empty_shape(rows, width, height, counts)
    return -(
        weights[PACK_PERIMETER] * counts[COUNT_PERIMETER]
        + weights[PACK_ISOLATED] * counts[COUNT_ISOLATED]
        + weights[PACK_PAIR] * counts[COUNT_PAIR]
        + weights[PACK_DEAD_END] * counts[COUNT_DEAD_END]
    )


@no_alloc
def shape_rows(rows, width, height, lo, hi, weights):
    """The part of `shape_score` owed to rows lo..hi (clipped to the board).

    Row r's part reads rows r-2 .. r+1 only, so a patch covering rows a..b changes the parts of
    rows a-1 .. b+2 and nothing else: the bots rescore just that band for each placement."""
    full = (1 << width) - 1
    lo = max(lo, 0)
    hi = min(hi, height - 1)
    w_perim = weights[PACK_PERIMETER]
    w_iso = weights[PACK_ISOLATED]
    w_pair = weights[PACK_PAIR]
    w_dead = weights[PACK_DEAD_END]
    e_up = (~rows[lo - 1] & full) if lo > 0 else 0
    one_up = 0
    if lo > 0:
        e_up2 = (~rows[lo - 2] & full) if lo > 1 else 0
        left = (e_up << 1) & full
        right = e_up >> 1
        any_n = left | right | e_up2 | (~rows[lo] & full)
        e_d = ~rows[lo] & full
        two = (left & right) | ((left | right) & (e_up2 | e_d)) | (e_up2 & e_d)
        one_up = e_up & any_n & ~two
    total = 0.0
    e = ~rows[lo] & full
    for r in range(lo, hi + 1):
        e_down = (~rows[r + 1] & full) if r + 1 < height else 0
        left = (e << 1) & full
        right = e >> 1
        any_n = left | right | e_up | e_down
        two = (left & right) | ((left | right) & (e_up | e_down)) | (e_up & e_down)
        one = e & any_n & ~two
        pair_cells = 2 * (popcount(one & (one >> 1)) + popcount(one & one_up))
        perimeter = 4 * popcount(e) - 2 * (popcount(e & (e >> 1)) + popcount(e & e_down))
        total -= (
            w_perim * perimeter
            + w_iso * popcount(e & ~any_n)
            + w_pair * pair_cells
            + w_dead * (popcount(one) - pair_cells)
        )
        one_up = one
        e_up = e
        e = e_down
    return total


@no_alloc
def packing_score(rows, width, height, bonus_k, weights, counts):
    """How well packed the quilt `rows` is (higher is better); bonus_k = 0 ignores the bonus.

    The shape of the empty area plus PACK_BONUS per covered cell of the fullest bonus square,
    which is left in counts[COUNT_SQUARE] (0 when bonus_k == 0)."""
    value = shape_score(rows, width, height, weights, counts)
    counts[COUNT_SQUARE] = 0
    if bonus_k > 0:
        counts[COUNT_SQUARE] = fullest_square(rows, width, height, bonus_k)
        value += weights[PACK_BONUS] * counts[COUNT_SQUARE]
    return value


def quilt_text(rows: np.ndarray, width: int, height: int) -> str:
    """The quilt as text rows (`#` covered, `.` empty); for test messages and debugging."""
    return "\n".join(
        "".join("#" if (int(rows[r]) >> c) & 1 else "." for c in range(width)) for r in range(height)
    )
