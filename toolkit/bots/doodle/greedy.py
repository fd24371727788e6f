"""The `greedy` Doodle bot, the fast tier: a packing pre-filter, a one-ply evaluation of the
shortlist, and a look-ahead at the next turn's card over the die faces.

Every legal drawing of the step (the token card whole or cut, the neighbours, the free choice) is
pre-filtered by cheap bit counts: the cell sides it lays against shaded cells or the board's edge,
its cells, how many fall inside the rectangle the coming scoring aims at, less the price of the
special actions it spends. The shortlist is valued one ply deep by `_evaluate`: the best corner
rectangle the coming scoring and the last scoring can still reach, discounted by the cells
missing against the turns left, the shaded cells, compactness and isolated holes. Drawings close
to the best are re-ranked by the expected value of the best drawing of the next turn's card over
the die faces (the circle is open information). SINGLE before a scoring when it completes a
better rectangle, and always in the last one; always the best rectangle. Deterministic: the bot
generator is never drawn from (ties go to the first action in the kernel's canonical order).

Speed is most of what makes this the fast tier, and it comes from not doing work: the chooser
asks the kernel for the step's drawing sources (walk_sources: the token card, the neighbours,
the cut pieces, the free choice, with the special actions each spends) and walks the fitting
placements of each source's shape itself, in the kernel's canonical order, rather than listing
every legal action (thousands when CUT and NEIGHBOUR are open); a shape already walked from a
source that spends no more special actions is not walked again; an orientation whose best
possible key cannot enter the shortlist is skipped whole. Contact is summed from three bit planes of the sheet (each cell's shaded-or-edge sides),
so a placement costs a few popcounts of its own mask, and the evaluation's helpers create no
arrays and compile without reference counting.

The weights (G_* indices into a float array) trade strength for speed; `GREEDY_WEIGHTS` are the
fast tier's, and the `expert` tier (toolkit.bots.doodle.expert) reuses the same machinery with a
wider search. `choose_greedy(tables, aux, st, occ, bot_rng, act)` is the compiled chooser the turn
loop (toolkit.families.doodle.loop) runs, `aux = greedy_tables(tables)`; `DoodleGreedyBot` is the
same chooser behind the Bot protocol for validated games (toolkit.bots.registry builds it as
`greedy` for the Doodle editions; the time-track `greedy` is toolkit.bots.greedy).
"""
from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from toolkit.bots.packing import popcount
from toolkit.errors import UsageError
from toolkit.games.doodle.kernel import (
    DoodleTables,
    K_PASS,
    K_SCORE,
    K_SINGLE,
    NA,
    NSRC,
    P_FREE_CHOICE,
    P_HEIGHT,
    P_ROUNDS,
    P_TURNS,
    P_WIDTH,
    P_WORDS,
    PH_OVER,
    PH_SCORE,
    PH_START,
    PH_TURN,
    S_CIRCLE_AT,
    S_CIRCLE_LEN,
    S_CUR,
    S_NEXT,
    S_PHASE,
    S_ROUND,
    S_SEAT,
    S_TURN,
    SP_CUT,
    SP_NEIGHBOUR,
    SP_SINGLE,
    SRC_AGAIN,
    SRC_CARD,
    SRC_CUT,
    SRC_KIND,
    SRC_NB,
    SRC_PIECE,
    SRC_SHAPE,
    best_in_rows,
    discard_card,
    max_sources,
    put_action,
    rectangle_points,
    rolled_turns,
    special_mode,
    token_card,
    token_next,
    walk_sources,
)
from toolkit.jit import njit, no_alloc


@no_alloc
def _rows_of(occ_k, width, height, rows):
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
def _roughness(rows, width, height):
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
def _isolated(rows, width, height):
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
def _paired(rows, width, height):
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
def _small_holes(rows, width, height, scratch):
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
def _best_points(rows, width, height):
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
def _prefix(rows, width, height, pre):
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
def _round_target(pre, width, height, turns_left, spare_single, gw):
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
def _round_potential(pre, width, height, turns_left, spare_single, gw):
    return _round_target(pre, width, height, turns_left, spare_single, gw)[0]


@no_alloc
def _rect_value(points, missing, turns_left, capacity, load, spare_single, gw):
    """A rectangle's value to a scoring `turns_left` draws away (see _round_target); -1: out of
    reach."""
    if missing == 0:
        return points
    if turns_left == 0:
        return points - 1.0 if missing <= spare_single else -1.0
    if missing > capacity:
        return -1.0
    return points - missing * (gw[G_MISSING] + load * missing)


@no_alloc
def _round_potentials(pre, width, height, turns_left, later, spare_single, gw):
    """_round_potential for the coming scoring and, when `later` > 0, for the last one (turns
    left + later) in one walk over the rectangles: the evaluation wants both of every sheet, and
    the walk, not the arithmetic, is their cost. Either value is the one _round_target finds (a
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
                value = _rect_value(points, missing, turns_left, capacity, load, spare_single, gw)
                if value > best:
                    best = value
                if later > 0:
                    value = _rect_value(points, missing, turns_left + later, capacity_last, load_last, spare_single,
                                        gw)
                    if value > best_last:
                        best_last = value
    return best, best_last


@no_alloc
def _target_mask(occ_k, width, height, words, turns_left, spare_single, gw, rows, pre, out):
    """The cells of the rectangle the coming scoring aims at (see _round_target), as mask words."""
    _rows_of(occ_k, width, height, rows)
    _prefix(rows, width, height, pre)
    _, r0, c0, h, w = _round_target(pre, width, height, turns_left, spare_single, gw)
    for i in range(words):
        out[i] = 0
    for r in range(r0, r0 + h):
        for c in range(c0, c0 + w):
            cell = r * width + c
            out[cell >> 6] |= 1 << (cell & 63)


# Weights of the fast tier, tuned with benchmarks/tune_doodle_greedy.py on seeded solo games of
# seeds 3, 5, 7 and 11 and confirmed with bench_doodle_bots.py on seed 1. Against the first tuned
# set: rougher quilts cost more and shaded cells count less (ROUGH 1, FILLED 0.5, less again in the
# last round), isolated holes cost 2, 5 cells a turn, and the search is wider (16 shortlisted,
# 7 looked ahead within 9 points of the best) but narrower on the next card (3). Then holes of one
# and two cells at 4 each (G_ISOLATED, G_PAIRED): +2.6 points on 1,000 seeded games of seed 1 and
# +2.2 on 2,000 of seed 3, at the same speed (6 each, or 3-cell holes priced too, scored less).
G_CELLS_PER_TURN = 0
G_MISSING = 1
G_MISSING_LOAD = 2
G_ROUND = 3
G_FILLED = 4
G_ROUGH = 5
G_ISOLATED = 6
G_SPECIAL = 7
G_SINGLE_GAIN = 8
G_BEST = 9
G_SPECIAL_HORIZON = 10
G_LOOKAHEAD = 11
G_SHORTLIST = 12
G_NEXT_SHORTLIST = 13
G_CONTACT = 14
G_TARGET = 15
G_MARGIN = 16
G_SIDES = 17
G_FUTURE = 18
G_PLIES = 19
G_SECOND_PLY = 20
G_LAST_FILLED = 21
"""Value of a shaded cell on top of G_FILLED when the coming scoring is the last one (every
empty cell then costs a point for certain); 0: the same value in every round."""
G_PRICE_NEIGHBOUR = 22
"""The price of spending NEIGHBOUR, as a multiple of G_SPECIAL's (likewise the next two)."""
G_PRICE_CUT = 23
G_PRICE_AGAIN = 24
"""The price of spending AGAIN to repeat NEIGHBOUR or CUT (the drawing then crosses off AGAIN
alone); the fast tier's 2 prices it as two actions, as it was tuned with."""
G_SINGLE_AGAIN_GAIN = 25
"""Like G_SINGLE_GAIN, for a SINGLE that spends AGAIN (SINGLE already used)."""
G_PAIRED = 26
"""The cost of a two-cell hole (see _paired); 0: not counted."""
G_HOLE3 = 27
"""The cost of a three-cell hole, then of a four-cell one (see _small_holes); 0: not counted."""
G_HOLE4 = 28
GREEDY_WEIGHTS = np.array([5.0, 0.5, 1.0, 1.0, 0.5, 1.0, 4.0, 6.0, 4.0, 0.5, 1.0, 7.0, 16.0, 3.0, 1.0, 1.0, 9.0, 0.0, 1.0, 1.0, 3.0,
                           -0.5, 1.0, 1.0, 2.0, 4.0, 4.0, 0.0, 0.0])
GREEDY_WEIGHTS.flags.writeable = False  # typed as compiled code types a global: one compile for both


@njit(cache=True)
def _turns_left_in_round(params, st):
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
def _turns_left_in_game(params, st):
    rnd = st[S_ROUND]
    after = (params[P_ROUNDS] - rnd - 1) * params[P_TURNS]
    return after + _turns_left_in_round(params, st)


@no_alloc
def _evaluate(rows, width, height, pre, turns_left, later, spare_single, gw):
    _prefix(rows, width, height, pre)
    filled = pre[height, width]
    # Cells score again later: the rectangle the last scoring can still reach counts too.
    later_on = later if gw[G_FUTURE] != 0.0 else 0
    coming, last = _round_potentials(pre, width, height, turns_left, later_on, spare_single, gw)
    value = gw[G_ROUND] * coming
    if later_on > 0:
        value += gw[G_FUTURE] * last
    if gw[G_BEST] != 0.0:
        value += gw[G_BEST] * _best_points(rows, width, height)
    value += gw[G_FILLED] * filled
    if later == 0:
        value += gw[G_LAST_FILLED] * filled
    value -= gw[G_ROUGH] * _roughness(rows, width, height)
    value -= gw[G_ISOLATED] * _isolated(rows, width, height)
    if gw[G_PAIRED] != 0.0:
        value -= gw[G_PAIRED] * _paired(rows, width, height)
    if gw[G_HOLE3] != 0.0 or gw[G_HOLE4] != 0.0:
        # The prefix table is done with: it serves as the flood fill's scratch rows.
        threes, fours = _small_holes(rows, width, height, pre.reshape(-1))
        value -= gw[G_HOLE3] * threes + gw[G_HOLE4] * fours
    return value


@njit(cache=True)
def _score_step(tables, st, occ, act, gw, single_mode):
    """The scoring step: SINGLE first when it grows the rectangle enough (always in the last
    scoring, where an unused SINGLE is a point thrown away), then the best rectangle."""
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    k = st[S_SEAT]
    rows = np.empty(height, dtype=np.int64)
    _rows_of(occ[k], width, height, rows)
    now = best_in_rows(rows, width, height)
    last_round = st[S_ROUND] == params[P_ROUNDS] - 1
    if single_mode != 0:
        best_gain = -1
        best_cell = -1
        for cell in range(width * height):
            r = cell // width
            c = cell % width
            if (rows[r] >> c) & 1:
                continue
            rows[r] |= 1 << c
            gain = _best_points(rows, width, height) - now[0]
            rows[r] &= ~(1 << c)
            if gain > best_gain:
                best_gain = gain
                best_cell = cell
        threshold = gw[G_SINGLE_AGAIN_GAIN] if single_mode == 2 else gw[G_SINGLE_GAIN]
        if best_cell >= 0 and (last_round or best_gain >= threshold):
            put_action(act.reshape(1, NA), 0, K_SINGLE, -1, 0, -1, 0, best_cell, 0, 0, 0,
                       SP_SINGLE + 1 if single_mode == 2 else 0)
            return
    put_action(act.reshape(1, NA), 0, K_SCORE, -1, 0, -1, 0, now[1], now[2], now[3], now[4], 0)


@no_alloc
def _contact_planes(rows, width, height, planes):
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


@no_alloc
def _shortlist_insert(keys, items, size, key, item):
    """Keep the `size` largest keys (first come first on ties) in descending order."""
    if key <= keys[size - 1]:
        return
    j = size - 1
    while j > 0 and keys[j - 1] < key:
        keys[j] = keys[j - 1]
        items[j] = items[j - 1]
        j -= 1
    keys[j] = key
    items[j] = item


@no_alloc
def _scan_shape(tables, aux, shape, rows, planes, target, gw, fill_weight, spend, tag, keys, items):
    """Offer every placement of `shape` that fits the sheet (`rows`, with its _contact_planes) to
    the shortlist (keys, items), in the kernel's canonical order (orientation, row, column:
    ascending placement rows), keyed by the packing pre-filter; an item is `tag + g`. Whole rows
    of anchors are tested at once, as the kernel's walker does, so placements that overlap cost
    no more than a few shifts."""
    masks = tables.place_masks
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    size = keys.shape[0]
    for o in range(tables.orient_first[shape], tables.orient_first[shape] + tables.orient_count[shape]):
        span = width - tables.orient_width[o] + 1
        anchors = (1 << span) - 1
        ncell = tables.orient_cell_count[o]
        # Sides and cells are the same for every placement of one orientation.
        sides = aux.sides[tables.orient_place[o]]
        cells = aux.cells[tables.orient_place[o]]
        fixed = -gw[G_SIDES] * sides + fill_weight * cells
        # No placement lays more sides against the sheet than it has, nor more cells in the
        # target: when even that cannot enter the shortlist, neither can any placement of this
        # orientation (the cut pieces and neighbours the special actions' price holds back).
        most_touch = max(gw[G_CONTACT], 0.0) * sides
        if most_touch + fixed + max(gw[G_TARGET], 0.0) * cells - spend <= keys[size - 1]:
            continue
        for r in range(height - tables.orient_height[o] + 1):
            bad = 0
            for i in range(ncell):
                cell = tables.orient_cells[o, i]
                bad |= rows[r + (cell >> 5)] >> (cell & 31)
            free = ~bad & anchors
            base = tables.orient_place[o] + r * span
            while free:
                low = free & -free
                g = base + popcount(low - 1)
                free ^= low
                inside = 0
                for w in range(words):
                    inside += popcount(masks[g, w] & target[w])
                if gw[G_CONTACT] >= 0.0 and most_touch + fixed + gw[G_TARGET] * inside - spend <= keys[size - 1]:
                    continue
                touch = 0
                for w in range(words):
                    m = masks[g, w]
                    touch += popcount(m & planes[0, w]) + 2 * popcount(m & planes[1, w]) + 4 * popcount(m & planes[2, w])
                key = gw[G_CONTACT] * touch + fixed + gw[G_TARGET] * inside - spend
                if key > keys[size - 1]:
                    _shortlist_insert(keys, items, size, key, tag + g)


@njit(cache=True)
def _scan_source(tables, aux, shape, price, seen_shape, seen_price, seen, rows, planes, target, gw, tag, keys, items):
    """Pre-filter the drawings of one source (a card whole or one piece of a cut, from the token
    card, a neighbour or the free choice) unless the same shape came earlier from a source whose
    special actions cost no more (`price`, see _source_price): its placements are the same rows,
    so only the cheapest source's are worth a look. Returns the new count of shapes seen."""
    for s in range(seen):
        if seen_shape[s] == shape and seen_price[s] <= price:
            return seen
    seen_shape[seen] = shape
    seen_price[seen] = price
    _scan_shape(tables, aux, shape, rows, planes, target, gw, gw[G_FILLED], price, tag, keys, items)
    return seen + 1


@no_alloc
def _source_price(src, s, gw, special_cost):
    """What the special actions that drawing source s spends cost: special_cost times each one's
    G_PRICE_* multiple (AGAIN alone when it repeats NEIGHBOUR or CUT)."""
    again = src[s, SRC_AGAIN]
    price = 0.0
    if src[s, SRC_NB] != 0 and again != SP_NEIGHBOUR + 1:
        price += gw[G_PRICE_NEIGHBOUR]
    if src[s, SRC_CUT] >= 0 and again != SP_CUT + 1:
        price += gw[G_PRICE_CUT]
    if again != 0:
        price += gw[G_PRICE_AGAIN]
    return price * special_cost


@njit(cache=True)
def shortlist(tables, aux, st, occ, gw):
    """The drawings of a turn or start step the greedy chooser weighs (see choose_greedy): the
    pre-filter's shortlist and passing, each valued one ply deep. Returns (src, nsrc, cand,
    places, values, costs, best_j): the step's drawing sources (rows of the kernel's
    walk_sources, SINGLE left out), the candidates (source * stride + placement row, in canonical
    order; nsrc * stride: passing), their placement rows (-1: passing), values less the price of
    the special actions they spend, those prices, and the best candidate (the first on ties)."""
    masks = tables.place_masks
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    k = st[S_SEAT]
    phase = st[S_PHASE]
    single_mode = special_mode(params, st, k, SP_SINGLE)
    turns_left = _turns_left_in_round(params, st)
    game_left = _turns_left_in_game(params, st)
    later = game_left - turns_left
    spare = 1 if single_mode != 0 else 0
    occ_k = occ[k]
    # A special action unused at the end is worth nothing, so its price falls as the game runs out.
    special_cost = gw[G_SPECIAL] * min(1.0, game_left / gw[G_SPECIAL_HORIZON]) if game_left > 2 else 0.25
    # Pre-filter: every drawing by how snugly it packs (shaded neighbours and board edges it
    # touches), its cells and how many fall in the rectangle the coming scoring aims at, less the
    # price of the special actions it spends; only the shortlist (and passing) is evaluated.
    size = int(gw[G_SHORTLIST])
    keys = np.full(size, -1e18)
    items = np.full(size, -1, dtype=np.int64)
    rows = np.empty(height, dtype=np.int64)
    pre = np.empty((height + 1, width + 1), dtype=np.int64)
    target = np.empty(words, dtype=np.int64)
    _target_mask(occ_k, width, height, words, turns_left, spare, gw, rows, pre, target)
    _rows_of(occ_k, width, height, rows)
    planes = np.empty((3, words), dtype=np.int64)
    _contact_planes(rows, width, height, planes)
    # The step's drawing sources, as the kernel walks them (SINGLE, the last row when it is
    # open, is weighed at the scoring step only).
    src = np.empty((max_sources(tables, st), NSRC), dtype=np.int64)
    nsrc = walk_sources(tables, st, src)
    if nsrc > 0 and src[nsrc - 1, SRC_KIND] == K_SINGLE:
        nsrc -= 1
    seen_shape = np.empty(nsrc, dtype=np.int64)
    seen_price = np.empty(nsrc)
    price = np.empty(nsrc)
    seen = 0
    stride = masks.shape[0]
    for s in range(nsrc):
        price[s] = _source_price(src, s, gw, special_cost)
        seen = _scan_source(tables, aux, src[s, SRC_SHAPE], price[s], seen_shape, seen_price, seen, rows, planes,
                            target, gw, s * stride, keys, items)
    # Candidates in canonical order (ties keep the first action); passing comes after every
    # drawing, and at the start only when the start patch fits nowhere.
    count = 0
    cand = np.empty(size + 1, dtype=np.int64)
    for j in range(size):
        if items[j] >= 0:
            cand[count] = items[j]
            count += 1
    if phase != PH_START or count == 0:
        cand[count] = nsrc * stride
        count += 1
    cand = np.sort(cand[:count])
    places = np.empty(count, dtype=np.int64)
    tmp = np.empty(words, dtype=np.int64)
    values = np.full(count, -1e18)
    costs = np.zeros(count)
    best_value = -1e18
    best_j = 0
    for j in range(count):
        s = cand[j] // stride
        for w in range(words):
            tmp[w] = occ_k[w]
        cost = 0.0
        places[j] = -1
        if s < nsrc:
            g = cand[j] - s * stride
            places[j] = g
            for w in range(words):
                tmp[w] |= masks[g, w]
            cost = price[s]
        _rows_of(tmp, width, height, rows)
        values[j] = _evaluate(rows, width, height, pre, turns_left, later, spare, gw) - cost
        costs[j] = cost
        if values[j] > best_value:
            best_value = values[j]
            best_j = j
    return src, nsrc, cand, places, values, costs, best_j


@njit(cache=True)
def put_choice(tables, st, src, nsrc, cand, places, j, act):
    """Write candidate j of a shortlist (see shortlist) into the action row act."""
    s = cand[j] // tables.place_masks.shape[0]
    out = act.reshape(1, NA)
    if s >= nsrc:
        put_action(out, 0, K_PASS, -1, 0, -1, 0, 0, 0, 0, 0, 0)
    else:
        put_action(out, 0, src[s, SRC_KIND], src[s, SRC_CARD], src[s, SRC_NB], src[s, SRC_CUT], src[s, SRC_PIECE],
                   places[j], 0, 0, 0, src[s, SRC_AGAIN])


@njit(cache=True)
def choose_greedy_weighted(tables, aux, st, occ, bot_rng, act, gw):
    """The greedy chooser with explicit weights (see choose_greedy)."""
    params = tables.params
    k = st[S_SEAT]
    phase = st[S_PHASE]
    if phase == PH_SCORE:
        _score_step(tables, st, occ, act, gw, special_mode(params, st, k, SP_SINGLE))
        return
    src, nsrc, cand, places, values, costs, best_j = shortlist(tables, aux, st, occ, gw)
    turns_left = _turns_left_in_round(params, st)
    later = _turns_left_in_game(params, st) - turns_left
    spare = 1 if special_mode(params, st, k, SP_SINGLE) != 0 else 0
    depth = int(gw[G_LOOKAHEAD])
    if depth > 0 and turns_left > 0 and (phase == PH_START or phase == PH_TURN):
        best_j = _look_ahead(tables, aux, st, occ[k], places, values, costs, depth, turns_left, later, spare, gw,
                             best_j)
    put_choice(tables, st, src, nsrc, cand, places, best_j, act)


@no_alloc
def _best_next(tables, aux, board, target, shape, pass_value, turns_left, later, spare, gw, rows, pre, trial, keys,
               items, planes):
    """The value of the best drawing of `shape` on `board` (or of passing, worth `pass_value`),
    by the same pre-filter and evaluation as the move itself."""
    masks = tables.place_masks
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    size = keys.shape[0]
    keys[:] = -1e18
    items[:] = -1
    _rows_of(board, width, height, rows)
    _contact_planes(rows, width, height, planes)
    _scan_shape(tables, aux, shape, rows, planes, target, gw, 0.0, 0.0, 0, keys, items)
    best = pass_value
    for j in range(size):
        g = items[j]
        if g < 0:
            break
        for w in range(words):
            trial[w] = board[w] | masks[g, w]
        _rows_of(trial, width, height, rows)
        v = _evaluate(rows, width, height, pre, turns_left, later, spare, gw)
        if v > best:
            best = v
    return best


@njit(cache=True)
def _expect_one(tables, aux, board, circ, n, nxt, turns_left, later, spare, gw):
    """Expected value, over the die faces, of the best plain drawing of the card each face makes
    the token card (circle `circ[:n]`, first card after the token at `nxt`); `turns_left` are the
    draws left after that one."""
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    die = tables.die
    rows = np.empty(height, dtype=np.int64)
    pre = np.empty((height + 1, width + 1), dtype=np.int64)
    if n <= 0:
        _rows_of(board, width, height, rows)
        return _evaluate(rows, width, height, pre, turns_left, later, spare, gw)
    trial = np.empty(words, dtype=np.int64)
    planes = np.empty((3, words), dtype=np.int64)
    target = np.empty(words, dtype=np.int64)
    size = int(gw[G_NEXT_SHORTLIST])
    keys = np.empty(size)
    items = np.empty(size, dtype=np.int64)
    _target_mask(board, width, height, words, turns_left, spare, gw, rows, pre, target)
    pass_value = _evaluate(rows, width, height, pre, turns_left, later, spare, gw)
    nfaces = die.shape[0]
    face_value = np.empty(nfaces)
    total = 0.0
    for f in range(nfaces):
        pos = token_card(nxt, die[f], n)
        done = -1
        for e in range(f):
            if circ[token_card(nxt, die[e], n)] == circ[pos]:
                done = e
                break
        if done >= 0:
            face_value[f] = face_value[done]
        else:
            face_value[f] = _best_next(tables, aux, board, target, tables.patch_shape[circ[pos]], pass_value,
                                       turns_left, later, spare, gw, rows, pre, trial, keys, items, planes)
        total += face_value[f]
    return total / nfaces


@njit(cache=True)
def _expect_two(tables, aux, board, circ, n, nxt, turns_left, later, spare, gw):
    """Like _expect_one, two turns deep: for each face, the best few drawings of its card (and
    passing) are valued by _expect_one on the circle that card leaves behind."""
    masks = tables.place_masks
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    die = tables.die
    if n <= 1 or turns_left <= 0:
        return _expect_one(tables, aux, board, circ, n, nxt, turns_left, later, spare, gw)
    rows = np.empty(height, dtype=np.int64)
    pre = np.empty((height + 1, width + 1), dtype=np.int64)
    target = np.empty(words, dtype=np.int64)
    trial = np.empty(words, dtype=np.int64)
    planes = np.empty((3, words), dtype=np.int64)
    size = int(gw[G_NEXT_SHORTLIST])
    keys = np.empty(size)
    items = np.empty(size, dtype=np.int64)
    keep = int(gw[G_SECOND_PLY])
    option_value = np.empty(size + 1)
    option_place = np.empty(size + 1, dtype=np.int64)
    circ2 = np.empty(n, dtype=np.int64)
    _target_mask(board, width, height, words, turns_left, spare, gw, rows, pre, target)
    nfaces = die.shape[0]
    face_value = np.empty(nfaces)
    total = 0.0
    for f in range(nfaces):
        pos = token_card(nxt, die[f], n)
        done = -1
        for e in range(f):
            if token_card(nxt, die[e], n) == pos:
                done = e
                break
        if done >= 0:
            face_value[f] = face_value[done]
            total += face_value[f]
            continue
        shape = tables.patch_shape[circ[pos]]
        keys[:] = -1e18
        items[:] = -1
        _rows_of(board, width, height, rows)
        _contact_planes(rows, width, height, planes)
        _scan_shape(tables, aux, shape, rows, planes, target, gw, 0.0, 0.0, 0, keys, items)
        # Options: passing, then the shortlisted drawings, each valued one ply deep.
        options = 0
        option_value[0] = _evaluate(rows, width, height, pre, turns_left, later, spare, gw)
        option_place[0] = -1
        options = 1
        for j in range(size):
            g = items[j]
            if g < 0:
                break
            for w in range(words):
                trial[w] = board[w] | masks[g, w]
            _rows_of(trial, width, height, rows)
            option_value[options] = _evaluate(rows, width, height, pre, turns_left, later, spare, gw)
            option_place[options] = g
            options += 1
        # The circle that card leaves behind, and the token's place in it.
        for i in range(n):
            circ2[i] = circ[i]
        n2 = discard_card(circ2, 0, n, pos)
        nxt2 = token_next(pos, n2)
        best = -1e18
        for _ in range(min(keep, options)):
            top = 0
            for j in range(1, options):
                if option_value[j] > option_value[top]:
                    top = j
            if option_value[top] < -1e17:
                break
            option_value[top] = -1e18
            g = option_place[top]
            for w in range(words):
                trial[w] = board[w] | (masks[g, w] if g >= 0 else 0)
            v = _expect_one(tables, aux, trial, circ2, n2, nxt2, turns_left - 1, later, spare, gw)
            if v > best:
                best = v
        face_value[f] = best
        total += best
    return total / nfaces


@njit(cache=True)
def _look_ahead(tables, aux, st, occ_k, places, values, costs, depth, turns_left, later, spare, gw, best_j):
    """Re-rank the `depth` best draws (placement rows `places`, -1: passing) by the expected
    value of the best plain drawing of the next turn's card, over the die faces (the circle is
    known, so the next card is too)."""
    # With a single drawing close to the best, the best it stays: nothing to look at.
    close = 0
    for j in range(values.shape[0]):
        if values[j] > -1e17 and values[j] >= values[best_j] - gw[G_MARGIN]:
            close += 1
    if close < 2 or depth < 2:
        return best_j
    masks = tables.place_masks
    patch_shape = tables.patch_shape
    die = tables.die
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    oc = st[S_CIRCLE_AT]
    n = st[S_CIRCLE_LEN]
    # The circle the next roll sees: the token card leaves it; the token stays in its place.
    circ = np.empty(max(n, 1), dtype=np.int64)
    for pos in range(n):
        circ[pos] = st[oc + pos]
    if st[S_PHASE] == PH_TURN:
        n_after = discard_card(circ, 0, n, st[S_CUR])
        nxt = token_next(st[S_CUR], n_after)
    else:
        n_after = n
        nxt = st[S_NEXT]
    if n_after <= 0:
        return best_j
    nfaces = die.shape[0]
    next_patch = np.empty(nfaces, dtype=np.int64)
    for f in range(nfaces):
        next_patch[f] = circ[token_card(nxt, die[f], n_after)]
    deep = gw[G_PLIES] >= 2 and turns_left >= 2
    rows = np.empty(height, dtype=np.int64)
    pre = np.empty((height + 1, width + 1), dtype=np.int64)
    board = np.empty(words, dtype=np.int64)
    trial = np.empty(words, dtype=np.int64)
    planes = np.empty((3, words), dtype=np.int64)
    target = np.empty(words, dtype=np.int64)
    size = int(gw[G_NEXT_SHORTLIST])
    keys = np.empty(size)
    items = np.empty(size, dtype=np.int64)
    face_value = np.empty(nfaces)
    count = values.shape[0]
    chosen = np.zeros(count, dtype=np.bool_)
    best_total = -1e18
    result = best_j
    for _ in range(depth):
        top = -1
        for j in range(count):
            if not chosen[j] and values[j] > -1e17 and (top < 0 or values[j] > values[top]):
                top = j
        # Only drawings close to the best one-ply value can overtake it.
        if top < 0 or values[top] < values[best_j] - gw[G_MARGIN]:
            break
        chosen[top] = True
        for w in range(words):
            board[w] = occ_k[w]
        if places[top] >= 0:
            for w in range(words):
                board[w] |= masks[places[top], w]
        if deep:
            total = _expect_two(tables, aux, board, circ, n_after, nxt, turns_left - 1, later, spare, gw) - costs[top]
        else:
            _target_mask(board, width, height, words, turns_left - 1, spare, gw, rows, pre, target)
            # Passing on the next card leaves this board: one value for every face.
            pass_value = _evaluate(rows, width, height, pre, turns_left - 1, later, spare, gw)
            total = 0.0
            for f in range(nfaces):
                done = -1
                for e in range(f):
                    if next_patch[e] == next_patch[f]:
                        done = e
                        break
                if done >= 0:
                    face_value[f] = face_value[done]
                else:
                    face_value[f] = _best_next(tables, aux, board, target, patch_shape[next_patch[f]], pass_value,
                                               turns_left - 1, later, spare, gw, rows, pre, trial, keys, items,
                                               planes)
                total += face_value[f]
            total = total / nfaces - costs[top]
        if total > best_total:
            best_total = total
            result = top
    return result


def choose_greedy(tables, aux, st, occ, bot_rng, act):
    """The fast Doodle bot. Every legal draw (whole, cut, neighbour, free pick) is pre-filtered by
    the cells it shades and how snugly it packs (shaded neighbours and board edges it touches,
    counted from bit planes of the sheet), less the price of the specials it spends; the shortlist is
    valued one ply deep by the coming rectangle, shaded cells, compactness and isolated holes,
    and its best few are re-ranked by the expected best drawing of the next turn's card over
    the die faces (the circle is open information). SINGLE before a scoring when it completes a
    better rectangle, and always in the last one; always the best rectangle. Deterministic:
    bot_rng is unused (ties go to the first action in canonical order). Plain Python over the compiled
    `choose_greedy_weighted` (the turn loops call that): a compiled wrapper would compile it all again."""
    choose_greedy_weighted(tables, aux, st, occ, bot_rng, act, GREEDY_WEIGHTS)


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


class DoodleGreedyBot:
    """Deterministic greedy Doodle player with a one-card look-ahead (ties: first legal action)."""

    name = "greedy"
    game_options: dict[str, Any] = {}
    seat = None

    def choose(self, game: Any, rng: np.ndarray) -> Any:
        tables, st, occ = game.kernel_state()
        if st[S_PHASE] == PH_OVER:
            raise UsageError("the greedy bot was asked to move in a finished game")
        act = np.zeros(NA, dtype=np.int64)
        choose_greedy(tables, greedy_tables(tables), st, occ, rng, act)
        return game.action_of_row(act)
