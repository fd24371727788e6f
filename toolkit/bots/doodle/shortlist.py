"""The Doodle bots' shortlist: every legal drawing of a step, pre-filtered by cheap bit counts,
and the best few valued one ply deep.

The chooser asks the kernel for the step's drawing sources (walk_sources: the token card, the
neighbours, the cut pieces, the free choice, with the special actions each spends) and walks the
fitting placements of each source's shape itself (`scan_shape`), in the kernel's canonical order,
rather than listing every legal action (thousands when CUT and NEIGHBOUR are open); a shape
already walked from a source that spends no more special actions is not walked again; an
orientation whose best possible key cannot enter the shortlist is skipped whole. The key is the
packing pre-filter: the cell sides a drawing lays against shaded cells or the board's edge
(summed from the bit planes of features.contact_planes, a few popcounts of its own mask), its
cells, how many fall inside the rectangle the coming scoring aims at, less the price of the
special actions it spends (weights.special_price). `shortlist` values the survivors and passing one
ply deep (features.evaluate); `put_choice` writes one of them as an action row.
tests/test_doodle_move_walk.py checks that the walk lists exactly the kernel's legal drawings.
"""
from __future__ import annotations

import numpy as np

from toolkit.bots.doodle.features import (
    contact_planes,
    evaluate,
    sheet_rows,
    target_mask,
    turns_left_in_game,
    turns_left_in_round,
)
from toolkit.bots.doodle.weights import (
    G_CONTACT,
    G_FILLED,
    G_PRICE_AGAIN,
    G_PRICE_CUT,
    G_PRICE_NEIGHBOUR,
    G_SHORTLIST,
    G_SIDES,
    G_TARGET,
    special_price,
)
from toolkit.bots.packing import popcount
from toolkit.games.doodle.kernel import (
    K_PASS,
    K_SINGLE,
    NA,
    NSRC,
    P_HEIGHT,
    P_WIDTH,
    P_WORDS,
    PH_START,
    S_PHASE,
    S_SEAT,
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
    max_sources,
    put_action,
    special_mode,
    walk_sources,
)
from toolkit.jit import njit, no_alloc


@no_alloc
def shortlist_insert(keys, items, size, key, item):
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
def scan_shape(tables, aux, shape, rows, planes, target, gw, fill_weight, spend, tag, keys, items):
    """Offer every placement of `shape` that fits the sheet (`rows`, with its contact_planes) to
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
                    shortlist_insert(keys, items, size, key, tag + g)


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
    scan_shape(tables, aux, shape, rows, planes, target, gw, gw[G_FILLED], price, tag, keys, items)
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
def _prefilter(tables, aux, st, occ_k, gw, turns_left, spare, special_cost, rows, pre):
    """Every drawing of the step by how snugly it packs (shaded neighbours and board edges it
    touches), its cells and how many fall in the rectangle the coming scoring aims at, less the
    price of the special actions it spends. Returns (src, nsrc, price, items): the step's drawing
    sources as the kernel walks them (SINGLE, the last row when it is open, left out: it is
    weighed at the scoring step only), the price of each, and the shortlist (source * stride +
    placement row, best first; -1 past its end)."""
    masks = tables.place_masks
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    size = int(gw[G_SHORTLIST])
    keys = np.full(size, -1e18)
    items = np.full(size, -1, dtype=np.int64)
    target = np.empty(words, dtype=np.int64)
    target_mask(occ_k, width, height, words, turns_left, spare, gw, rows, pre, target)
    sheet_rows(occ_k, width, height, rows)
    planes = np.empty((3, words), dtype=np.int64)
    contact_planes(rows, width, height, planes)
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
    return src, nsrc, price, items


@njit(cache=True)
def _candidates(items, nsrc, stride, at_start):
    """The shortlist in canonical order (ties keep the first action); passing comes after every
    drawing, and at the start only when the start patch fits nowhere."""
    size = items.shape[0]
    count = 0
    cand = np.empty(size + 1, dtype=np.int64)
    for j in range(size):
        if items[j] >= 0:
            cand[count] = items[j]
            count += 1
    if not at_start or count == 0:
        cand[count] = nsrc * stride
        count += 1
    return np.sort(cand[:count])


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
    turns_left = turns_left_in_round(params, st)
    game_left = turns_left_in_game(params, st)
    later = game_left - turns_left
    spare = 1 if special_mode(params, st, k, SP_SINGLE) != 0 else 0
    occ_k = occ[k]
    rows = np.empty(height, dtype=np.int64)
    pre = np.empty((height + 1, width + 1), dtype=np.int64)
    src, nsrc, price, items = _prefilter(tables, aux, st, occ_k, gw, turns_left, spare,
                                         special_price(gw, game_left), rows, pre)
    stride = masks.shape[0]
    cand = _candidates(items, nsrc, stride, st[S_PHASE] == PH_START)
    count = cand.shape[0]
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
        sheet_rows(tmp, width, height, rows)
        values[j] = evaluate(rows, width, height, pre, turns_left, later, spare, gw) - cost
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

