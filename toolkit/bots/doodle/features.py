"""What the Doodle bots see of a sheet: the features the one-ply evaluation weighs, the turns
left, and the contact tables the packing pre-filter counts with.

A sheet is read as its rows (`sheet_rows`: bit c of row r = the cell at row r, column c) and a
prefix table of shaded cells (`prefix_counts`). `evaluate` values a sheet for the bot about to
draw: the rectangle the coming scoring can still reach (`round_potentials`: corner rectangles with
sides within 2 of each other, discounted by the cells still missing against the turns left), the
last scoring's likewise, the best rectangle now (`best_points`), the shaded cells, less roughness
(`roughness`) and small walled-in holes (`isolated_holes`, `paired_holes`, `small_holes`), each
weighed by its weight (toolkit.bots.doodle.weights). `target_mask` is the coming scoring's
rectangle as mask words, which the pre-filter counts cells inside; `contact_planes` is, for each
cell, how many of its sides meet a shaded cell or the edge, as three bit planes.

These functions create no arrays and compile without reference counting (`no_alloc`), which is
why two of them are specialised copies of kernel functions: `sheet_rows` of the kernel's
row_bits over every row, and `best_points` of the score of best_in_rows (without its position and
tie-breaks); tests/test_doodle_bot_rules.py checks both against the kernel on seeded sheets.
`turns_left_in_round` / `turns_left_in_game` count the draws still to come from the kernel's
rolled_turns.

`greedy_tables(tables)` builds, once per kernel table set, the contact tables (`GreedyTables`)
the pre-filter and the last-round search read per placement row.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from toolkit.bots.doodle.weights import (
    G_BEST,
    G_CELLS_PER_TURN,
    G_FILLED,
    G_FUTURE,
    G_HOLE3,
    G_HOLE4,
    G_ISOLATED,
    G_LAST_FILLED,
    G_MISSING,
    G_MISSING_LOAD,
    G_PAIRED,
    G_ROUGH,
    G_ROUND,
)
from toolkit.bots.packing import popcount
from toolkit.games.doodle.kernel import (
    DoodleTables,
    P_FREE_CHOICE,
    P_HEIGHT,
    P_ROUNDS,
    P_TURNS,
    P_WIDTH,
    P_WORDS,
    PH_START,
    PH_TURN,
    S_CIRCLE_AT,
    S_CIRCLE_LEN,
    S_CUR,
    S_NEXT,
    S_PHASE,
    S_ROUND,
    S_TURN,
    discard_card,
    rectangle_points,
    rolled_turns,
    token_next,
)
from toolkit.jit import njit, no_alloc


@no_alloc
def sheet_rows(occ_k, width, height, rows):
    """rows[r] = the shaded cells of row r of a sheet's mask words (bit c = column c), as the
    kernel's row_bits; written out here so that it compiles without reference counting."""
    full = (1 << width) - 1
    for r in range(height):
        b = r * width
        w = b >> 6
        off = b & 63
        val = occ_k[w] >> off
        if off > 0:
            # The words are signed: clear the copies of bit 63 that the arithmetic shift brought in.
            val &= (1 << (64 - off)) - 1
        if off + width > 64:
            val |= occ_k[w + 1] << (64 - off)
        rows[r] = val & full


@no_alloc
def roughness(rows, width, height):
    """Edges between a shaded and an empty cell; the border counts as shaded, so tight, compact
    quilts hugging the edges score low."""
    full = (1 << width) - 1
    edges = 0
    for r in range(height):
        row = rows[r]
        # Pad with shaded cells on both sides: bit 0 and bit width+1 of the shifted row.
        padded = (row << 1) | 1 | (1 << (width + 1))
        edges += popcount((padded ^ (padded >> 1)) & ((1 << (width + 1)) - 1))
        above = rows[r - 1] if r > 0 else full
        edges += popcount(row ^ above)
    edges += popcount(rows[height - 1] ^ full)
    return edges


@no_alloc
def isolated_holes(rows, width, height):
    """Empty cells whose four neighbours are all shaded or off the board: only a 1-cell patch or
    SINGLE can fill them."""
    full = (1 << width) - 1
    count = 0
    for r in range(height):
        row = rows[r]
        empty = ~row & full
        if empty == 0:
            continue
        left = (row << 1) | 1
        right = (row >> 1) | (1 << (width - 1))
        up = rows[r - 1] if r > 0 else full
        down = rows[r + 1] if r < height - 1 else full
        count += popcount(empty & left & right & up & down & full)
    return count


@no_alloc
def paired_holes(rows, width, height):
    """Two-cell holes: pairs of adjacent empty cells with no other empty neighbour (a domino, a
    cut piece or SINGLE twice can fill them; few cards can)."""
    full = (1 << width) - 1
    count = 0
    prev_one = 0
    prev_empty = 0
    for r in range(height):
        empty = ~rows[r] & full
        up = ~rows[r - 1] & full if r > 0 else 0
        down = ~rows[r + 1] & full if r < height - 1 else 0
        left = (empty << 1) & full
        right = empty >> 1
        odd = up ^ down ^ left ^ right
        two = (up & down) | (up & left) | (up & right) | (down & left) | (down & right) | (left & right)
        one = empty & odd & ~two
        count += popcount(one & (one >> 1) & empty & (empty >> 1))
        count += popcount(one & prev_one & empty & prev_empty)
        prev_one = one
        prev_empty = empty
    return count


@no_alloc
def small_holes(rows, width, height, scratch):
    """(3-cell holes, 4-cell holes): connected sets of empty cells of that size, found by
    growing each from its first cell (a set that grows past 4 cells is left at that). scratch:
    an int64 array of at least 2 * height entries (the evaluation's prefix table)."""
    full = (1 << width) - 1
    for r in range(height):
        scratch[r] = ~rows[r] & full
    threes = 0
    fours = 0
    for r in range(height):
        while scratch[r] != 0:
            for i in range(height):
                scratch[height + i] = 0
            scratch[height + r] = scratch[r] & -scratch[r]
            size = 1
            top = r
            bottom = r
            grew = True
            while grew and size <= 4:
                grew = False
                for i in range(max(top - 1, 0), min(bottom + 2, height)):
                    empty = ~rows[i] & full
                    comp = scratch[height + i]
                    near = (comp << 1) | (comp >> 1)
                    if i > 0:
                        near |= scratch[height + i - 1]
                    if i < height - 1:
                        near |= scratch[height + i + 1]
                    add = near & empty & ~comp
                    if add != 0:
                        scratch[height + i] = comp | add
                        size += popcount(add)
                        grew = True
                        top = min(top, i)
                        bottom = max(bottom, i)
            for i in range(top, bottom + 1):
                scratch[i] &= ~scratch[height + i]
            if size == 3:
                threes += 1
            elif size == 4 and not grew:
                fours += 1
    return threes, fours


@no_alloc
def best_points(rows, width, height):
    """The points of the best fully shaded rectangle of a row set: the score of the kernel's
    best_in_rows without its position and tie-breaks, which the evaluation never needs. Bands
    are walked from each top row down while some column stays shaded; a top row whose band can
    no longer beat the best ends the walk."""
    best = 0
    full = (1 << width) - 1
    for top in range(height):
        if rectangle_points(height - top, width) <= best:
            break
        common = full
        for bottom in range(top, height):
            common &= rows[bottom]
            if common == 0:
                break
            h = bottom - top + 1
            runs = common
            while runs:
                low = runs & -runs
                run = runs & ~(runs + low)
                points = rectangle_points(h, popcount(run))
                if points > best:
                    best = points
                runs &= ~run
    return best


@no_alloc
def prefix_counts(rows, width, height, pre):
    """pre[r, c] = shaded cells in rows < r and columns < c."""
    for r in range(height + 1):
        pre[r, 0] = 0
    for c in range(width + 1):
        pre[0, c] = 0
    for r in range(height):
        run = 0
        for c in range(width):
            run += (rows[r] >> c) & 1
            pre[r + 1, c + 1] = pre[r, c + 1] + run


@no_alloc
def round_target(pre, width, height, turns_left, spare_single, gw):
    """How much the coming intermediate scoring can still be worth: the best corner-anchored
    rectangle (sides within 2 of each other), discounted by the cells still missing against what
    the remaining turns can bring. Returns (value, row, col, height, width) of that rectangle
    (height 0: none). Larger rectangles are tried first, and a size whose full points cannot beat
    the best so far ends the search, since a rectangle's value never exceeds its points."""
    best = 0.0
    br = 0
    bc = 0
    bh = 0
    bw = 0
    capacity = gw[G_CELLS_PER_TURN] * turns_left
    load = gw[G_MISSING_LOAD] / capacity if capacity > 0 else 0.0
    for h in range(height, 1, -1):
        if h * h + 2 <= best:
            break
        for w in range(min(width, h + 2), max(1, h - 3), -1):
            points = 1.0 * rectangle_points(h, w)
            if points <= best:
                break
            for corner in range(4):
                r0 = 0 if corner < 2 else height - h
                c0 = 0 if corner % 2 == 0 else width - w
                filled = pre[r0 + h, c0 + w] - pre[r0, c0 + w] - pre[r0 + h, c0] + pre[r0, c0]
                missing = h * w - filled
                value = points
                if missing > 0:
                    if turns_left == 0:
                        if missing > spare_single:
                            continue
                        value -= 1.0
                    else:
                        if missing > capacity:
                            continue
                        value -= missing * (gw[G_MISSING] + load * missing)
                if value > best:
                    best = value
                    br = r0
                    bc = c0
                    bh = h
                    bw = w
    return best, br, bc, bh, bw


@no_alloc
def rect_value(points, missing, turns_left, capacity, load, spare_single, gw):
    """A rectangle's value to a scoring `turns_left` draws away (see round_target); -1: out of
    reach."""
    if missing == 0:
        return points
    if turns_left == 0:
        return points - 1.0 if missing <= spare_single else -1.0
    if missing > capacity:
        return -1.0
    return points - missing * (gw[G_MISSING] + load * missing)


@no_alloc
def round_potentials(pre, width, height, turns_left, later, spare_single, gw):
    """round_target's value for the coming scoring and, when `later` > 0, for the last one (turns
    left + later) in one walk over the rectangles: the evaluation wants both of every sheet, and
    the walk, not the arithmetic, is their cost. Either value is the one round_target finds (a
    size is passed over only when it can beat neither)."""
    best = 0.0
    best_last = 0.0 if later > 0 else 1e18
    capacity = gw[G_CELLS_PER_TURN] * turns_left
    load = gw[G_MISSING_LOAD] / capacity if capacity > 0 else 0.0
    capacity_last = gw[G_CELLS_PER_TURN] * (turns_left + later)
    load_last = gw[G_MISSING_LOAD] / capacity_last if capacity_last > 0 else 0.0
    for h in range(height, 1, -1):
        if h * h + 2 <= min(best, best_last):
            break
        for w in range(min(width, h + 2), max(1, h - 3), -1):
            points = 1.0 * rectangle_points(h, w)
            if points <= min(best, best_last):
                break
            for corner in range(4):
                r0 = 0 if corner < 2 else height - h
                c0 = 0 if corner % 2 == 0 else width - w
                filled = pre[r0 + h, c0 + w] - pre[r0, c0 + w] - pre[r0 + h, c0] + pre[r0, c0]
                missing = h * w - filled
                value = rect_value(points, missing, turns_left, capacity, load, spare_single, gw)
                if value > best:
                    best = value
                if later > 0:
                    value = rect_value(points, missing, turns_left + later, capacity_last, load_last, spare_single,
                                        gw)
                    if value > best_last:
                        best_last = value
    return best, best_last


@no_alloc
def target_mask(occ_k, width, height, words, turns_left, spare_single, gw, rows, pre, out):
    """The cells of the rectangle the coming scoring aims at (see round_target), as mask words."""
    sheet_rows(occ_k, width, height, rows)
    prefix_counts(rows, width, height, pre)
    _, r0, c0, h, w = round_target(pre, width, height, turns_left, spare_single, gw)
    for i in range(words):
        out[i] = 0
    for r in range(r0, r0 + h):
        for c in range(c0, c0 + w):
            cell = r * width + c
            out[cell >> 6] |= 1 << (cell & 63)


@njit(cache=True)
def turns_left_in_round(params, st):
    """Draws still to come in this round after the current step."""
    rnd = st[S_ROUND]
    phase = st[S_PHASE]
    free = 1 if (rnd == params[P_ROUNDS] - 1 and params[P_FREE_CHOICE]) else 0
    rolled = rolled_turns(params, rnd)
    if phase == PH_START:
        return rolled + free if params[P_ROUNDS] == 1 else params[P_TURNS]
    if phase == PH_TURN:
        return rolled - st[S_TURN] - 1 + free
    return 0


@njit(cache=True)
def turns_left_in_game(params, st):
    rnd = st[S_ROUND]
    after = (params[P_ROUNDS] - rnd - 1) * params[P_TURNS]
    return after + turns_left_in_round(params, st)


@njit(cache=True)
def circle_after_step(st):
    """The circle the next roll sees: (a copy of its cards, int64[at least 1], how many, the
    position of the first card after the token). On a rolled turn the token card leaves the
    circle and the token stays in its place (the kernel's discard_card and token_next, as its
    apply_action does); at any other step the circle is as it is."""
    oc = st[S_CIRCLE_AT]
    n = st[S_CIRCLE_LEN]
    circ = np.empty(max(n, 1), dtype=np.int64)
    for pos in range(n):
        circ[pos] = st[oc + pos]
    if st[S_PHASE] == PH_TURN:
        n_after = discard_card(circ, 0, n, st[S_CUR])
        nxt = token_next(st[S_CUR], n_after)
    else:
        n_after = n
        nxt = st[S_NEXT]
    return circ, n_after, nxt


@no_alloc
def evaluate(rows, width, height, pre, turns_left, later, spare_single, gw):
    prefix_counts(rows, width, height, pre)
    filled = pre[height, width]
    # Cells score again later: the rectangle the last scoring can still reach counts too.
    later_on = later if gw[G_FUTURE] != 0.0 else 0
    coming, last = round_potentials(pre, width, height, turns_left, later_on, spare_single, gw)
    value = gw[G_ROUND] * coming
    if later_on > 0:
        value += gw[G_FUTURE] * last
    if gw[G_BEST] != 0.0:
        value += gw[G_BEST] * best_points(rows, width, height)
    value += gw[G_FILLED] * filled
    if later == 0:
        value += gw[G_LAST_FILLED] * filled
    value -= gw[G_ROUGH] * roughness(rows, width, height)
    value -= gw[G_ISOLATED] * isolated_holes(rows, width, height)
    if gw[G_PAIRED] != 0.0:
        value -= gw[G_PAIRED] * paired_holes(rows, width, height)
    if gw[G_HOLE3] != 0.0 or gw[G_HOLE4] != 0.0:
        # The prefix table is done with: it serves as the flood fill's scratch rows.
        threes, fours = small_holes(rows, width, height, pre.reshape(-1))
        value -= gw[G_HOLE3] * threes + gw[G_HOLE4] * fours
    return value


@no_alloc
def contact_planes(rows, width, height, planes):
    """For each cell, how many of its four sides meet a shaded cell or the board's edge (0..4),
    as three bit planes of mask words (planes[b]: bit b of the count). The packing pre-filter's
    measure of a placement, the cell sides it lays against shaded cells or the edge, is then the
    sum of these counts over its cells (its own cells are empty, so they add nothing): three
    masked popcounts per word, whatever the shape."""
    full = (1 << width) - 1
    for b in range(3):
        for w in range(planes.shape[1]):
            planes[b, w] = 0
    for r in range(height):
        row = rows[r]
        up = rows[r - 1] if r > 0 else full
        down = rows[r + 1] if r < height - 1 else full
        left = ((row << 1) | 1) & full
        right = (row >> 1) | (1 << (width - 1))
        # Add the four one-bit rows column by column: two half adders, then the carries.
        s1 = up ^ down
        c1 = up & down
        s2 = left ^ right
        c2 = left & right
        carry = s1 & s2
        bits0 = s1 ^ s2
        bits1 = c1 ^ c2 ^ carry
        bits2 = (c1 & c2) | (c1 & carry) | (c2 & carry)
        start = r * width
        w = start >> 6
        off = start & 63
        for b in range(3):
            bits = bits0 if b == 0 else bits1 if b == 1 else bits2
            planes[b, w] |= bits << off
            if off + width > 64:
                planes[b, w + 1] |= bits >> (64 - off)


GreedyTables = namedtuple("GreedyTables", ["contact_masks", "border_edges", "sides", "cells"])
"""Per placement row of the kernel tables: the cells next to it in each of the four directions
(int64[T, 4, words]), how many of its cell sides lie on the board's edge, how many cell sides it
has in all, and its cells (int64[T] each). The chooser reads sides and cells; the neighbour
masks and edge counts describe the same contact its bit planes count, per placement."""


_GREEDY_TABLES: dict[int, tuple[DoodleTables, GreedyTables]] = {}


def greedy_tables(tables: DoodleTables) -> GreedyTables:
    """The greedy bot's contact tables for a kernel table set (built once per table set)."""
    cached = _GREEDY_TABLES.get(id(tables))
    if cached is not None and cached[0] is tables:
        return cached[1]
    params = tables.params
    width, height, words = int(params[P_WIDTH]), int(params[P_HEIGHT]), int(params[P_WORDS])
    masks = np.ascontiguousarray(tables.place_masks)
    count = masks.shape[0]
    bits = np.unpackbits(masks.view(np.uint8).reshape(count, words * 8), axis=1, bitorder="little")
    cells = bits[:, : width * height].reshape(-1, height, width).astype(bool)
    near = np.zeros((count, 4, height, width), dtype=bool)
    near[:, 0, 1:, :] = cells[:, :-1, :]
    near[:, 1, :-1, :] = cells[:, 1:, :]
    near[:, 2, :, 1:] = cells[:, :, :-1]
    near[:, 3, :, :-1] = cells[:, :, 1:]
    near &= ~cells[:, None, :, :]
    border = (cells[:, 0, :].sum(axis=1) + cells[:, -1, :].sum(axis=1)
              + cells[:, :, 0].sum(axis=1) + cells[:, :, -1].sum(axis=1)).astype(np.int64)
    inner = (cells[:, 1:, :] & cells[:, :-1, :]).sum(axis=(1, 2)) + (cells[:, :, 1:] & cells[:, :, :-1]).sum(axis=(1, 2))
    sides = (4 * cells.sum(axis=(1, 2)) - 2 * inner).astype(np.int64)
    flat = np.zeros((count, 4, words * 64), dtype=np.uint8)
    flat[:, :, : width * height] = near.reshape(count, 4, -1)
    contact = np.packbits(flat, axis=2, bitorder="little").view(np.int64).reshape(count, 4, words)
    aux = GreedyTables(np.ascontiguousarray(contact), border, sides, cells.sum(axis=(1, 2)).astype(np.int64))
    _GREEDY_TABLES[id(tables)] = (tables, aux)
    return aux

