"""The last-round search's exact cover: can these turns' cards (and SINGLE) shade every cell of a
target on this sheet, under the special-action rules?

`cover(tables, board, target, n_turns, opt_patch, opt_nb, opt_count, ...)` searches depth first
with an explicit stack: the empty cell of the target that the fewest placements still open can
shade is shaded first, by each of those placements with each unused turn whose card makes it
(whole, cut with CUT, a neighbour with NEIGHBOUR; a special only where the turn needs it), or by
SINGLE; a cell no placement can shade needs SINGLE, and turns may pass. An area bound (the most
cells the unused turns and SINGLE can still shade) ends a hopeless branch early, and a node
budget bounds the search (a cover not found within it counts as none). A state proved hopeless
(sheet, target, specials used, the cards of the unused turns) is remembered in `CoverWork` for
every later search of the position.

The special actions follow the kernel's rules, asked of it on the search's own use counts:
`used_mode` and `singles_left` are the kernel's special_mode_of and special_uses_left (each once,
AGAIN repeats one already used), and `special_ways` the modes of NEIGHBOUR, CUT, and CUT after
NEIGHBOUR on one turn. tests/test_doodle_bot_rules.py checks them against the drawing sources
and the SINGLE actions the kernel allows. toolkit.bots.doodle.endgame runs these searches for
every sequence of the rolls to come.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from toolkit.games.doodle.kernel import (
    P_HEIGHT,
    P_SPECIALS,
    P_WIDTH,
    P_WORDS,
    SP_AGAIN,
    SP_CUT,
    SP_NEIGHBOUR,
    SP_SINGLE,
    fits,
    popcount,
    special_mode_of,
    special_uses_left,
)
from toolkit.jit import njit


@njit(cache=True)
def used_mode(specials, used, s):
    """The kernel's special_mode_of on the search's own counts (used: int64[4], times each special
    action was used, SP_* order): 0 not available, 1 first use, 2 through AGAIN."""
    return special_mode_of(specials, used[s], used[SP_AGAIN], s)


@njit(cache=True)
def singles_left(specials, used):
    """The kernel's special_uses_left for SINGLE on the search's own counts: how many cells SINGLE
    can still shade."""
    return special_uses_left(specials, used[SP_SINGLE], used[SP_AGAIN], SP_SINGLE)


@njit(cache=True)
def spend_special(used, s, mode, sign):
    """Spend (sign 1) or give back (sign -1) one use of special s in mode `mode` (used_mode's):
    through AGAIN, AGAIN is crossed off too, as the kernel's apply_action does."""
    used[s] += sign
    if mode == 2:
        used[SP_AGAIN] += sign


@njit(cache=True)
def first_hole(target, board, words):
    """Lowest cell of target that board leaves empty, or -1."""
    for w in range(words):
        empty = target[w] & ~board[w]
        if empty != 0:
            low = empty & -empty
            return w * 64 + popcount(low - 1)
    return -1


@njit(cache=True)
def holes(target, board, words):
    count = 0
    for w in range(words):
        count += popcount(target[w] & ~board[w])
    return count


@njit(cache=True)
def _bound(specials, used, n_turns, opt_max, opt_max_nb, turns_used):
    """Most cells the unused turns and SINGLE can still shade."""
    nb = used_mode(specials, used, SP_NEIGHBOUR) != 0
    cells = 0
    for t in range(n_turns):
        if not (turns_used >> t) & 1:
            cells += opt_max_nb[t] if nb else opt_max[t]
    return cells + singles_left(specials, used)


MAX_MOVES = 1024
"""Moves generated at one node of the cover search at most (far more than a 9x9 sheet needs)."""


MAX_DEPTH = 16
"""Depth of the cover search at most: one level per turn, plus SINGLE."""


FAILED_SLOTS = 1 << 19
"""Entries of the table of positions the cover search has proved hopeless (see _state_key)."""


NodeWork = namedtuple(
    "NodeWork",
    [
        "offered",  # int64[S, 4] bits of the turns offering it: plain, by NEIGHBOUR, by CUT, by both
        "live",  # bool[S] some unused turn can still offer it, under the specials left
        "size",  # int64[S] its cells
        "placed",  # bool[S] it has an open placement at the node
        "most",  # int64[MAX_DEPTH] per turn, the most cells it can still shade at the node
        "open",  # int64[MAX_DEPTH + 1, placements] placements still possible at each depth
        "open_shape",  # int64[MAX_DEPTH + 1, placements] their local shapes
        "n_open",  # int64[MAX_DEPTH + 1] how many
        "count",  # int64[cells] open placements over each empty cell of the target
        "moves",  # int64[MAX_DEPTH, MAX_MOVES, 5] the moves of each depth (see _node_moves)
        "overflow",  # int64[1] set when a node had more than MAX_MOVES moves (the search left some out)
    ],
)
"""The working arrays the cover search reads at every node (CoverWork.node): the search passes
these alone to its per-node step, since a call counts a reference to each array it is given."""


CoverWork = namedtuple(
    "CoverWork",
    [
        "base",  # int64[words] the sheet every board searched from contains (this step's sheet)
        "fit_first",  # int64[S] first row in fit of each shape's placements that fit base, -1: not listed yet
        "fit_count",  # int64[S] how many
        "fit",  # int64[placements] the listed placements, shape after shape
        "fit_used",  # int64[1] rows of fit in use
        "local",  # int64[S] shape -> its index among the running search's shapes, or -1
        "shape_of",  # int64[S] that index -> shape
        "n_moves",  # int64[MAX_DEPTH] how many moves each depth has (node.moves)
        "at",  # int64[MAX_DEPTH] the next move to try at each depth
        "turn_key",  # int64[MAX_DEPTH] per turn of the running search, a hash of the cards it offers
        "target_key",  # int64[1] a hash of the running search's target
        "failed",  # int64[FAILED_SLOTS] keys of the states proved to have no cover (0: free)
        "node",  # NodeWork
    ],
)
"""The cover search's working arrays, made once per position by cover_work (a namedtuple, as the
kernel's tables are, so the compiled code reads it by field name)."""


@njit(cache=True)
def cover_work(tables, base):
    """Working arrays for cover searches on boards that contain `base`."""
    shapes = tables.shape_first.shape[0]
    total = tables.place_masks.shape[0]
    node = NodeWork(
        np.zeros((shapes, 4), dtype=np.int64),
        np.zeros(shapes, dtype=np.bool_),
        np.zeros(shapes, dtype=np.int64),
        np.zeros(shapes, dtype=np.bool_),
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.empty((MAX_DEPTH + 1, total), dtype=np.int64),
        np.empty((MAX_DEPTH + 1, total), dtype=np.int64),
        np.zeros(MAX_DEPTH + 1, dtype=np.int64),
        np.zeros(tables.params[P_WIDTH] * tables.params[P_HEIGHT], dtype=np.int64),
        np.empty((MAX_DEPTH, MAX_MOVES, 5), dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )
    return CoverWork(
        base.copy(),
        np.full(shapes, -1, dtype=np.int64),
        np.zeros(shapes, dtype=np.int64),
        np.empty(total, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.full(shapes, -1, dtype=np.int64),
        np.empty(shapes, dtype=np.int64),
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(FAILED_SLOTS, dtype=np.int64),
        node,
    )


@njit(cache=True)
def _mix(x):
    """A 64-bit hash of x (the splitmix64 finaliser, on int64 with logical shifts)."""
    x = (x ^ ((x >> 30) & 0x3FFFFFFFF)) * -4658895280553007687
    x = (x ^ ((x >> 27) & 0x1FFFFFFFFF)) * -7723592293110705685
    return x ^ ((x >> 31) & 0x1FFFFFFFF)


@njit(cache=True)
def _state_key(turn_key, target_key, board, used, turns_used, n_turns, words):
    """The key of a state of the cover search: its sheet, its target, the specials used and the
    cards of the unused turns (as a multiset: turns in another order, or another sequence's
    turns offering the same cards, give the same key). Whether a state has a cover depends on
    nothing else, so a state proved hopeless stays so for every search of the position. (turn_key,
    target_key: cw's, as are the arrays the search's other per-node helpers take: passing the whole
    CoverWork would count a reference to each of its 23 arrays at every call.)"""
    cards = 0
    for t in range(n_turns):
        if not (turns_used >> t) & 1:
            cards += turn_key[t]
    key = _mix(cards + 0x51ED27) ^ target_key[0]
    for x in range(words):
        key = _mix(key ^ board[x])
    key = _mix(key ^ (used[0] + 4 * used[1] + 16 * used[2] + 64 * used[3]))
    return key | 1


@njit(cache=True)
def _failed(failed, key):
    """True when the state of this key was proved hopeless (failed: cw.failed)."""
    slot = key & (FAILED_SLOTS - 1)
    for i in range(4):
        k = failed[(slot + i) & (FAILED_SLOTS - 1)]
        if k == key:
            return True
        if k == 0:
            return False
    return False


@njit(cache=True)
def _remember_failed(failed, key):
    slot = key & (FAILED_SLOTS - 1)
    for i in range(4):
        j = (slot + i) & (FAILED_SLOTS - 1)
        if failed[j] == 0 or failed[j] == key:
            failed[j] = key
            return
    failed[slot] = key


@njit(cache=True)
def _fitting(tables, cw, shape):
    """First row in cw.fit of the shape's placements that fit cw.base (listed on first use: every
    board searched contains base, so no other placement can fit one)."""
    if cw.fit_first[shape] < 0:
        words = tables.params[P_WORDS]
        start = cw.fit_used[0]
        n = 0
        for g in range(tables.shape_first[shape], tables.shape_first[shape] + tables.shape_count[shape]):
            if fits(tables.place_masks, g, cw.base, words):
                cw.fit[start + n] = g
                n += 1
        cw.fit_first[shape] = start
        cw.fit_count[shape] = n
        cw.fit_used[0] = start + n
    return cw.fit_first[shape]


@njit(cache=True)
def _local_shapes(tables, cw, n_turns, opt_patch, opt_nb, opt_count, used):
    """Number the shapes the turns offer (cards whole, through NEIGHBOUR, cut pieces through CUT,
    each only while that special is open) and note which turns offer each how; returns how many."""
    specials = tables.params[P_SPECIALS]
    nb_open = used_mode(specials, used, SP_NEIGHBOUR) != 0
    cut_open = used_mode(specials, used, SP_CUT) != 0
    n = 0
    for t in range(n_turns):
        for j in range(opt_count[t]):
            nb = opt_nb[t, j]
            if nb and not nb_open:
                continue
            patch = opt_patch[t, j]
            pieces = 1 + (2 * tables.cut_count[patch] if cut_open else 0)
            for q in range(pieces):
                if q == 0:
                    shape = tables.patch_shape[patch]
                else:
                    shape = tables.cut_piece[patch, (q - 1) >> 1, (q - 1) & 1]
                ls = cw.local[shape]
                if ls < 0:
                    ls = n
                    n += 1
                    cw.local[shape] = ls
                    cw.shape_of[ls] = shape
                    g = tables.shape_first[shape]
                    cw.node.size[ls] = 0
                    for x in range(tables.params[P_WORDS]):
                        cw.node.size[ls] += popcount(tables.place_masks[g, x])
                    for kind in range(4):
                        cw.node.offered[ls, kind] = 0
                cw.node.offered[ls, nb + (2 if q > 0 else 0)] |= 1 << t
    return n


@njit(cache=True)
def special_ways(specials, used):
    """(NEIGHBOUR mode, CUT mode, CUT mode after NEIGHBOUR) now: 0 when not available."""
    nb_mode = used_mode(specials, used, SP_NEIGHBOUR)
    cut_mode = used_mode(specials, used, SP_CUT)
    both = 0
    if nb_mode != 0:
        spend_special(used, SP_NEIGHBOUR, nb_mode, 1)
        both = used_mode(specials, used, SP_CUT)
        spend_special(used, SP_NEIGHBOUR, nb_mode, -1)
    return nb_mode, cut_mode, both


@njit(cache=True)
def turn_limits(n_turns, opt_patch, opt_nb, opt_count, cells, same_as, opt_max, opt_max_nb, find_same):
    """Per turn: the most cells it offers without and with NEIGHBOUR, and the first earlier turn
    that offers the same cards (-1: none; always -1 unless find_same)."""
    for t in range(n_turns):
        same_as[t] = -1
        opt_max[t] = 0
        opt_max_nb[t] = 0
        for j in range(opt_count[t]):
            size = cells[opt_patch[t, j]]
            if opt_nb[t, j] == 0 and size > opt_max[t]:
                opt_max[t] = size
            if size > opt_max_nb[t]:
                opt_max_nb[t] = size
        if not find_same:
            continue
        for e in range(t):
            if opt_count[e] != opt_count[t]:
                continue
            same = True
            for j in range(opt_count[t]):
                if opt_patch[e, j] != opt_patch[t, j] or opt_nb[e, j] != opt_nb[t, j]:
                    same = False
            if same:
                same_as[t] = e
                break


# The parts of _node_moves are inlined into it (numba's inline="always") and take the arrays they
# read, not the CoverWork or the tables: they run at every node (the two smallest for every shape
# or placement of it), and each pass of a bundle counts a reference to every one of its arrays.
@njit(cache=True, inline="always")
def _offered_now(offered, ls, nb_mode, cut_mode, both):
    """The turns (bits) that offer local shape ls (offered: cw.node.offered) under the special actions
    open now: whole, and through NEIGHBOUR, CUT or both while each way is open."""
    bits = offered[ls, 0]
    if nb_mode != 0:
        bits |= offered[ls, 1]
    if cut_mode != 0:
        bits |= offered[ls, 2]
    if both != 0:
        bits |= offered[ls, 3]
    return bits


@njit(cache=True, inline="always")
def _open_placements(masks, words, offered, live, open_, open_shape, n_open, count, placed, board, d, n_local,
                     nb_mode, cut_mode, both, free):
    """The open placements of the node at depth d (open_[d], n_open[d]; the arrays are cw's): its
    parent's that still fit and whose shape an unused turn (`free`) still offers (at depth 0 they
    are set already); then, per empty cell, how many of them cover it (count) and which shapes
    have one (placed). Returns how many."""
    for ls in range(n_local):
        live[ls] = (_offered_now(offered, ls, nb_mode, cut_mode, both) & free) != 0
    if d > 0:
        n = 0
        for i in range(n_open[d - 1]):
            ls = open_shape[d - 1, i]
            g = open_[d - 1, i]
            if live[ls] and fits(masks, g, board, words):
                open_[d, n] = g
                open_shape[d, n] = ls
                n += 1
        n_open[d] = n
    n = n_open[d]
    for i in range(count.shape[0]):
        count[i] = 0
    for ls in range(n_local):
        placed[ls] = False
    for i in range(n):
        g = open_[d, i]
        placed[open_shape[d, i]] = True
        for x in range(words):
            m = masks[g, x]
            while m != 0:
                low = m & -m
                count[x * 64 + popcount(low - 1)] += 1
                m ^= low
    return n


@njit(cache=True, inline="always")
def _reach(offered, placed, size, most, n_local, n_turns, nb_mode, cut_mode, both, free, singles):
    """The area bound again, counting for each unused turn only the shapes it offers that still
    have a place inside the target: the most cells the unused turns and SINGLE can shade (the
    arrays are cw's)."""
    for t in range(n_turns):
        most[t] = 0
    for ls in range(n_local):
        if not placed[ls]:
            continue
        bits = _offered_now(offered, ls, nb_mode, cut_mode, both) & free
        while bits != 0:
            low = bits & -bits
            t = popcount(low - 1)
            bits ^= low
            if size[ls] > most[t]:
                most[t] = size[ls]
    reach = singles
    for t in range(n_turns):
        reach += most[t]
    return reach


@njit(cache=True, inline="always")
def _tightest_cell(count, target, board, words):
    """(cell, fewest, bare): the empty cell of the target that the fewest open placements cover
    (count: node.count; the first on ties), how many cover it, and how many empty cells none
    covers."""
    cell = -1
    fewest = 0
    bare = 0
    for x in range(words):
        h = target[x] & ~board[x]
        while h != 0:
            low = h & -h
            c = x * 64 + popcount(low - 1)
            h ^= low
            if count[c] == 0:
                bare += 1
            if cell < 0 or count[c] < fewest:
                cell = c
                fewest = count[c]
    return cell, fewest, bare


@njit(cache=True, inline="always")
def _ways_of(offered, ls, bit, nb_mode, cut_mode, both):
    """How a turn (bit) may draw local shape ls (offered: node.offered): bit 0 whole, 1 through
    NEIGHBOUR, 2 through CUT, 3 through both. Spending a special never helps when the turn offers
    the shape without it; NEIGHBOUR and CUT together only when neither alone offers it."""
    ways = 0
    if offered[ls, 0] & bit:
        ways = 1
    else:
        if nb_mode != 0 and offered[ls, 1] & bit:
            ways |= 2
        if cut_mode != 0 and offered[ls, 2] & bit:
            ways |= 4
        if ways == 0 and both != 0 and offered[ls, 3] & bit:
            ways = 8
    return ways


@njit(cache=True, inline="always")
def _placement_moves(masks, offered, open_, open_shape, out, overflow, d, n, cell, n_turns, same_as, turns_used,
                     nb_mode, cut_mode, both):
    """Write into out (node.moves[d]) the moves that shade `cell` with an open placement: each
    placement over it by every unused turn that offers its shape, spending the fewest specials.
    Returns how many (at most MAX_MOVES; overflow, cw's, notes any left out)."""
    limit = out.shape[0]
    count = 0
    for i in range(n):
        g = open_[d, i]
        if not (masks[g, cell >> 6] >> (cell & 63)) & 1:
            continue
        ls = open_shape[d, i]
        for t in range(n_turns):
            if (turns_used >> t) & 1:
                continue
            # Turns that offer the same cards are interchangeable: try only the first unused one.
            if same_as[t] >= 0 and not (turns_used >> same_as[t]) & 1:
                continue
            ways = _ways_of(offered, ls, 1 << t, nb_mode, cut_mode, both)
            for way in range(4):
                if not (ways >> way) & 1:
                    continue
                if count >= limit:
                    overflow[0] = 1
                    continue
                out[count, 0] = t
                out[count, 1] = g
                out[count, 2] = nb_mode if (way == 1 or way == 3) else 0
                out[count, 3] = cut_mode if way == 2 else (both if way == 3 else 0)
                out[count, 4] = 0
                count += 1
    return count


@njit(cache=True)
def _node_moves(masks, words, specials, node, board, target, d, n_local, n_turns, opt_max, opt_max_nb, same_as, used,
                turns_used):
    """The moves of the node at depth d into node.moves[d] (rows: turn or -1 for SINGLE, placement
    row or cell, NEIGHBOUR mode, CUT mode, SINGLE mode); returns how many. node is cw.node; masks,
    words and specials are the tables' place_masks and params. The open placements of
    the node (node.open[d]) are its parent's that still fit and whose shape an unused turn still
    offers (at depth 0 they are set already). The moves shade the empty cell of the target that
    the fewest open placements cover (a cell none covers needs SINGLE; more such cells than
    SINGLE can shade end the branch), each placement by every unused turn that offers its shape,
    spending the fewest specials. 0 also when the unused turns cannot shade the empty cells."""
    if holes(target, board, words) > _bound(specials, used, n_turns, opt_max, opt_max_nb, turns_used):
        return 0
    nb_mode, cut_mode, both = special_ways(specials, used)
    free = ((1 << n_turns) - 1) & ~turns_used
    offered = node.offered
    open_ = node.open
    open_shape = node.open_shape
    n = _open_placements(masks, words, offered, node.live, open_, open_shape, node.n_open, node.count, node.placed,
                         board, d, n_local, nb_mode, cut_mode, both, free)
    singles = singles_left(specials, used)
    reach = _reach(offered, node.placed, node.size, node.most, n_local, n_turns, nb_mode, cut_mode, both, free, singles)
    if holes(target, board, words) > reach:
        return 0
    cell, fewest, bare = _tightest_cell(node.count, target, board, words)
    if bare > singles:
        return 0
    out = node.moves[d]
    count = 0
    if fewest > 0:
        count = _placement_moves(masks, offered, open_, open_shape, out, node.overflow, d, n, cell, n_turns, same_as,
                                 turns_used, nb_mode, cut_mode, both)
    single = used_mode(specials, used, SP_SINGLE)
    if single != 0 and count < out.shape[0]:
        out[count, 0] = -1
        out[count, 1] = cell
        out[count, 2] = 0
        out[count, 3] = 0
        out[count, 4] = single
        count += 1
    return count


@njit(cache=True)
def cover(tables, board, target, n_turns, opt_patch, opt_nb, opt_count, opt_max, opt_max_nb, same_as, used, budget,
           cw):
    """Exact search, depth first with an explicit stack (cw.node.moves, cw.n_moves, cw.at): shade every
    cell of target with the unused turns' cards (one each, whole or cut, a neighbour with
    NEIGHBOUR) and SINGLE, the most constrained empty cell first (see _node_moves). True when
    found (board and used then hold the cover); budget[0] counts down the nodes left. board must
    contain cw.base."""
    words = tables.params[P_WORDS]
    if first_hole(target, board, words) < 0:
        return True
    n_local = _local_shapes(tables, cw, n_turns, opt_patch, opt_nb, opt_count, used)
    masks = tables.place_masks
    cw.node.overflow[0] = 0
    for t in range(n_turns):
        key = 0
        for j in range(opt_count[t]):
            key += _mix(2 * opt_patch[t, j] + opt_nb[t, j] + 1)
        cw.turn_key[t] = _mix(key)
    key = 0x7A3
    for x in range(words):
        key = _mix(key ^ target[x])
    cw.target_key[0] = key
    # Depth 0's open placements: those of the offered shapes that fit inside the target's holes.
    n = 0
    for ls in range(n_local):
        shape = cw.shape_of[ls]
        first = _fitting(tables, cw, shape)
        for i in range(first, first + cw.fit_count[shape]):
            g = cw.fit[i]
            inside = True
            for x in range(words):
                if masks[g, x] & ~(target[x] & ~board[x]):
                    inside = False
            if inside:
                cw.node.open[0, n] = g
                cw.node.open_shape[0, n] = ls
                n += 1
    cw.node.n_open[0] = n
    found = _search(tables, cw, board, target, n_local, n_turns, opt_max, opt_max_nb, same_as, used, budget)
    for ls in range(n_local):
        cw.local[cw.shape_of[ls]] = -1
    return found


@njit(cache=True)
def _search(tables, cw, board, target, n_local, n_turns, opt_max, opt_max_nb, same_as, used, budget):
    """cover's depth-first loop from the open placements of depth 0."""
    words = tables.params[P_WORDS]
    specials = tables.params[P_SPECIALS]
    masks = tables.place_masks
    node = cw.node
    moves = node.moves
    n_moves = cw.n_moves
    at = cw.at
    failed = cw.failed
    turn_key = cw.turn_key
    target_key = cw.target_key
    turns_used = 0
    d = 0
    if _failed(failed, _state_key(turn_key, target_key, board, used, turns_used, n_turns, words)):
        return False
    n_moves[0] = _node_moves(masks, words, specials, node, board, target, 0, n_local, n_turns, opt_max, opt_max_nb,
                             same_as, used, turns_used)
    at[0] = 0
    while True:
        if at[d] > 0:
            turns_used ^= _play_move(masks, words, board, used, moves[d, at[d] - 1], -1)
        if at[d] >= n_moves[d]:
            # Every move of this node was searched to the end: it has no cover.
            if node.overflow[0] == 0:
                _remember_failed(failed, _state_key(turn_key, target_key, board, used, turns_used, n_turns, words))
            if d == 0:
                return False
            d -= 1
            continue
        turns_used ^= _play_move(masks, words, board, used, moves[d, at[d]], 1)
        at[d] += 1
        if first_hole(target, board, words) < 0:
            return True
        budget[0] -= 1
        if budget[0] <= 0 or d + 1 >= moves.shape[0]:
            turns_used ^= _play_move(masks, words, board, used, moves[d, at[d] - 1], -1)
            return False
        if _failed(failed, _state_key(turn_key, target_key, board, used, turns_used, n_turns, words)):
            continue
        d += 1
        at[d] = 0
        n_moves[d] = _node_moves(masks, words, specials, node, board, target, d, n_local, n_turns, opt_max, opt_max_nb,
                                 same_as, used, turns_used)


@njit(cache=True)
def _play_move(masks, words, board, used, move, sign):
    """Apply (sign 1) or undo (sign -1) one move of the cover search (masks: the tables'
    place_masks); returns the turn bit."""
    if move[0] < 0:
        cell = move[1]
        if sign > 0:
            board[cell >> 6] |= 1 << (cell & 63)
        else:
            board[cell >> 6] &= ~(1 << (cell & 63))
        spend_special(used, SP_SINGLE, move[4], sign)
        return 0
    g = move[1]
    for x in range(words):
        if sign > 0:
            board[x] |= masks[g, x]
        else:
            board[x] &= ~masks[g, x]
    if move[2] != 0:
        spend_special(used, SP_NEIGHBOUR, move[2], sign)
    if move[3] != 0:
        spend_special(used, SP_CUT, move[3], sign)
    return 1 << move[0]
