"""The Doodle bots' look-ahead: the expected value of the next turns' best drawings, over the die.

Within a round the circle is open information, so the card each die face makes the token card
next turn is known. `look_ahead` re-ranks the best drawings of the shortlist
(toolkit.bots.doodle.shortlist) by what the next turn's card is worth after each: `expect_one`
(the mean over the die faces of the best drawing of the card each face brings, or passing) or,
two turns deep, `expect_two` (for each face, the best few drawings of its card valued by
expect_one on the circle that card leaves behind). The drawings of a card are found and valued as
the move itself is: the pre-filter's scan (shortlist.scan_shape), then the one-ply evaluation
(features.evaluate). The token's walk is the kernel's (token_card, discard_card, token_next).
"""
from __future__ import annotations

import numpy as np

from toolkit.bots.doodle.features import circle_after_step, contact_planes, evaluate, sheet_rows, target_mask
from toolkit.bots.doodle.shortlist import scan_shape
from toolkit.bots.doodle.weights import G_MARGIN, G_NEXT_SHORTLIST, G_PLIES, G_SECOND_PLY
from toolkit.games.doodle.kernel import (
    P_HEIGHT,
    P_WIDTH,
    P_WORDS,
    discard_card,
    token_card,
    token_next,
)
from toolkit.jit import njit, no_alloc


@no_alloc
def _scan_card(tables, aux, board, target, shape, gw, rows, planes, keys, items):
    """The pre-filter's shortlist (keys, items: placement rows, -1 past the end) of the drawings
    of `shape` on `board`, whole and without special actions."""
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    keys[:] = -1e18
    items[:] = -1
    sheet_rows(board, width, height, rows)
    contact_planes(rows, width, height, planes)
    scan_shape(tables, aux, shape, rows, planes, target, gw, 0.0, 0.0, 0, keys, items)


@no_alloc
def _value_with(tables, board, g, turns_left, later, spare, gw, rows, pre, trial):
    """The one-ply value of `board` with placement row g drawn on it."""
    masks = tables.place_masks
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    for w in range(params[P_WORDS]):
        trial[w] = board[w] | masks[g, w]
    sheet_rows(trial, width, height, rows)
    return evaluate(rows, width, height, pre, turns_left, later, spare, gw)


@no_alloc
def _best_next(tables, aux, board, target, shape, pass_value, turns_left, later, spare, gw, rows, pre, trial, keys,
               items, planes):
    """The value of the best drawing of `shape` on `board` (or of passing, worth `pass_value`),
    by the same pre-filter and evaluation as the move itself."""
    _scan_card(tables, aux, board, target, shape, gw, rows, planes, keys, items)
    best = pass_value
    for j in range(keys.shape[0]):
        g = items[j]
        if g < 0:
            break
        v = _value_with(tables, board, g, turns_left, later, spare, gw, rows, pre, trial)
        if v > best:
            best = v
    return best


@njit(cache=True)
def expect_one(tables, aux, board, circ, n, nxt, turns_left, later, spare, gw):
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
        sheet_rows(board, width, height, rows)
        return evaluate(rows, width, height, pre, turns_left, later, spare, gw)
    trial = np.empty(words, dtype=np.int64)
    planes = np.empty((3, words), dtype=np.int64)
    target = np.empty(words, dtype=np.int64)
    size = int(gw[G_NEXT_SHORTLIST])
    keys = np.empty(size)
    items = np.empty(size, dtype=np.int64)
    target_mask(board, width, height, words, turns_left, spare, gw, rows, pre, target)
    # Passing on the card leaves this board: one value for every face.
    pass_value = evaluate(rows, width, height, pre, turns_left, later, spare, gw)
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
def _face_options(tables, aux, board, target, shape, turns_left, later, spare, gw, rows, pre, trial, planes, keys,
                  items, option_value, option_place):
    """The options of one card on `board`: passing (placement -1), then the pre-filter's
    shortlisted drawings of `shape`, each valued one ply deep. Returns how many."""
    params = tables.params
    _scan_card(tables, aux, board, target, shape, gw, rows, planes, keys, items)
    option_value[0] = evaluate(rows, params[P_WIDTH], params[P_HEIGHT], pre, turns_left, later, spare, gw)
    option_place[0] = -1
    options = 1
    for j in range(keys.shape[0]):
        g = items[j]
        if g < 0:
            break
        option_value[options] = _value_with(tables, board, g, turns_left, later, spare, gw, rows, pre, trial)
        option_place[options] = g
        options += 1
    return options


@njit(cache=True)
def _best_option(tables, aux, board, option_value, option_place, options, keep, circ2, n2, nxt2, turns_left,
                 later, spare, gw, trial):
    """The best expect_one value, one turn on, of the `keep` best options of a card (highest
    one-ply value first; option_value is spent)."""
    masks = tables.place_masks
    words = tables.params[P_WORDS]
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
        v = expect_one(tables, aux, trial, circ2, n2, nxt2, turns_left - 1, later, spare, gw)
        if v > best:
            best = v
    return best


@njit(cache=True)
def expect_two(tables, aux, board, circ, n, nxt, turns_left, later, spare, gw):
    """Like expect_one, two turns deep: for each face, the best few drawings of its card (and
    passing) are valued by expect_one on the circle that card leaves behind."""
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    die = tables.die
    if n <= 1 or turns_left <= 0:
        return expect_one(tables, aux, board, circ, n, nxt, turns_left, later, spare, gw)
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
    target_mask(board, width, height, words, turns_left, spare, gw, rows, pre, target)
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
        options = _face_options(tables, aux, board, target, tables.patch_shape[circ[pos]], turns_left, later, spare,
                                gw, rows, pre, trial, planes, keys, items, option_value, option_place)
        # The circle that card leaves behind, and the token's place in it.
        for i in range(n):
            circ2[i] = circ[i]
        n2 = discard_card(circ2, 0, n, pos)
        nxt2 = token_next(pos, n2)
        best = _best_option(tables, aux, board, option_value, option_place, options, keep, circ2, n2, nxt2,
                            turns_left, later, spare, gw, trial)
        face_value[f] = best
        total += best
    return total / nfaces


@njit(cache=True)
def look_ahead(tables, aux, st, occ_k, places, values, costs, depth, turns_left, later, spare, gw, best_j):
    """Re-rank the `depth` best draws (placement rows `places`, -1: passing) by the expected
    value of the best plain drawing of the next turn's card, over the die faces (the circle is
    known, so the next card is too); two turns deep when the weights' G_PLIES says so."""
    # With a single drawing close to the best, the best it stays: nothing to look at.
    close = 0
    for j in range(values.shape[0]):
        if values[j] > -1e17 and values[j] >= values[best_j] - gw[G_MARGIN]:
            close += 1
    if close < 2 or depth < 2:
        return best_j
    masks = tables.place_masks
    words = tables.params[P_WORDS]
    # The circle the next roll sees.
    circ, n_after, nxt = circle_after_step(st)
    if n_after <= 0:
        return best_j
    deep = gw[G_PLIES] >= 2 and turns_left >= 2
    board = np.empty(words, dtype=np.int64)
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
            total = expect_two(tables, aux, board, circ, n_after, nxt, turns_left - 1, later, spare, gw) - costs[top]
        else:
            total = expect_one(tables, aux, board, circ, n_after, nxt, turns_left - 1, later, spare, gw) - costs[top]
        if total > best_total:
            best_total = total
            result = top
    return result
