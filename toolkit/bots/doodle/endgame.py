"""The strong Doodle bot's last round: every die sequence played out, and an exact search for a
full sheet (or the best large rectangle) on each.

In the last round everything but the die is known: the circle holds every card still to come,
and the token's walk depends only on the rolls, never on what anyone draws. So for each sequence
of the remaining rolls (all of them, weighted by the die; a fixed sample when there are too many)
the cards each turn offers are known: the token card, its two neighbours for NEIGHBOUR, then the
free choice among the cards left. The last round's points are the final rectangle less the empty
cells, and a full sheet is worth far more than any other outcome (81 on a 9x9 sheet against 65
for the best 9x8), so each sequence is valued by the largest target that the offered cards can
exactly cover: the whole sheet, then the best sheet less one edge row or column, then the best
sheet less a corner row and column. The cover is an exact search: the empty cell of the target
that the fewest placements still open can shade is shaded first, by each of those placements with
each unused turn whose card makes it (whole, cut with CUT, a neighbour with NEIGHBOUR; a special
only where the turn needs it), or by SINGLE; a cell no placement can shade needs SINGLE, and turns
may pass. The specials follow the rules (once each, AGAIN repeats one already used, NEIGHBOUR and
CUT together on one turn). A node budget bounds the search; a cover not found within it counts as
none. A state the search proves hopeless (sheet, target, specials used, the cards of the unused
turns) is remembered for the whole step, so any other candidate or sequence that reaches it stops
there at once; and a sequence whose full sheet no drawing of this step can reach (searched once,
this step's cards one more turn) is not searched for a full sheet again.

Each candidate drawing of this step is valued by the weighted mean over the sequences of that
last-round value. The candidates are passing, the best few drawings by how snugly they pack, and
the drawings the plans make: for each sequence, the cover search is run once more with this
step's cards as its first turn, and the drawing that cover makes now joins the candidates (a full
sheet often needs a drawing that packs loosely now and snugly later). A drawing that several
sources offer (the token card whole, a neighbour, a cut piece of another card) is valued through
the source that spends the fewest special actions. The search knows each
sequence's cards before the rolls come, so it is optimistic (it may plan differently for futures
it cannot tell apart yet); it still ranks the drawings of this step well, because each is judged
against every future. Ties go to the drawing that shades more cells, then the one that spends
fewer special actions, then canonical order. Deterministic: nothing is drawn from a generator.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from toolkit.games.doodle.kernel import (
    A_AGAIN,
    A_CUT,
    A_KIND,
    A_NB,
    A_PLACE,
    K_DRAW,
    K_PASS,
    NA,
    NSRC,
    P_FREE_CHOICE,
    P_HEIGHT,
    P_PATCHES,
    P_PENALTY,
    P_SPECIALS,
    P_WIDTH,
    P_WORDS,
    PH_FREE,
    PH_TURN,
    S_CIRCLE_AT,
    S_CIRCLE_LEN,
    S_CUR,
    S_PHASE,
    S_ROUND,
    S_SEAT,
    S_TURN,
    S_USED_AT,
    SP_AGAIN,
    SP_CUT,
    SP_NEIGHBOUR,
    SP_SINGLE,
    SRC_CUT,
    SRC_KIND,
    SRC_NB,
    SRC_PATCH,
    best_in_rows,
    die_faces,
    discard_card,
    first_copy,
    fits,
    list_actions,
    max_sources,
    popcount,
    rectangle_points,
    rolled_turns,
    row_bits,
    token_card,
    token_next,
    turn_card,
    walk_sources,
)
from toolkit.jit import njit

MAX_SEQUENCES = 243
"""Die sequences enumerated at most; beyond that a fixed sample of this many is used."""
CANDIDATES = 40
"""Drawings of this step valued by the search (the snuggest, by the packing pre-filter), plus passing."""
NODE_BUDGET = 4000
"""Search nodes per cover; a cover not found within them counts as none."""
MAX_OPTIONS = 12
"""Cards a turn can offer: the token card and its two neighbours, or the free choice's cards."""
PLAN_BUDGET = 20000
"""Search nodes per cover when this step's cards join the search (see _plan_first)."""
PLANNED = 24
"""Drawings of this step at most that the per-sequence plans add to the snug ones."""


@njit(cache=True)
def _mode(specials, used, s):
    """0: special s is not available, 1: first use, 2: second use through AGAIN."""
    if not (specials >> s) & 1:
        return 0
    if used[s] == 0:
        return 1
    if used[s] == 1 and (specials >> SP_AGAIN) & 1 and used[SP_AGAIN] == 0:
        return 2
    return 0


@njit(cache=True)
def _spend(used, s, mode, sign):
    used[s] += sign
    if mode == 2:
        used[SP_AGAIN] += sign


@njit(cache=True)
def _first_hole(target, board, words):
    """Lowest cell of target that board leaves empty, or -1."""
    for w in range(words):
        holes = target[w] & ~board[w]
        if holes != 0:
            low = holes & -holes
            return w * 64 + popcount(low - 1)
    return -1


@njit(cache=True)
def _holes(target, board, words):
    count = 0
    for w in range(words):
        count += popcount(target[w] & ~board[w])
    return count


@njit(cache=True)
def _bound(specials, used, n_turns, opt_max, opt_max_nb, turns_used):
    """Most cells the unused turns and SINGLE can still shade."""
    nb = _mode(specials, used, SP_NEIGHBOUR) != 0
    cells = 0
    for t in range(n_turns):
        if not (turns_used >> t) & 1:
            cells += opt_max_nb[t] if nb else opt_max[t]
    single = _mode(specials, used, SP_SINGLE)
    if single == 1:
        cells += 1
        if (specials >> SP_AGAIN) & 1 and used[SP_AGAIN] == 0:
            cells += 1
    elif single == 2:
        cells += 1
    return cells


MAX_MOVES = 1024
"""Moves generated at one node of the cover search at most (far more than a 9x9 sheet needs)."""
MAX_DEPTH = 16
"""Depth of the cover search at most: one level per turn, plus SINGLE."""

FAILED_SLOTS = 1 << 19
"""Entries of the table of positions the cover search has proved hopeless (see _state_key)."""

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
        "n_moves",  # int64[MAX_DEPTH] how many
        "at",  # int64[MAX_DEPTH] the next move to try at each depth
        "overflow",  # int64[1] set when a node had more than MAX_MOVES moves (the search left some out)
        "turn_key",  # int64[MAX_DEPTH] per turn of the running search, a hash of the cards it offers
        "target_key",  # int64[1] a hash of the running search's target
        "failed",  # int64[FAILED_SLOTS] keys of the states proved to have no cover (0: free)
    ],
)
"""The cover search's working arrays, made once per position by cover_work (a namedtuple, as the
kernel's tables are, so the compiled code reads it by field name)."""


@njit(cache=True)
def cover_work(tables, base):
    """Working arrays for cover searches on boards that contain `base`."""
    shapes = tables.shape_first.shape[0]
    total = tables.place_masks.shape[0]
    return CoverWork(
        base.copy(),
        np.full(shapes, -1, dtype=np.int64),
        np.zeros(shapes, dtype=np.int64),
        np.empty(total, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.full(shapes, -1, dtype=np.int64),
        np.empty(shapes, dtype=np.int64),
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
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(FAILED_SLOTS, dtype=np.int64),
    )


@njit(cache=True)
def _mix(x):
    """A 64-bit hash of x (the splitmix64 finaliser, on int64 with logical shifts)."""
    x = (x ^ ((x >> 30) & 0x3FFFFFFFF)) * -4658895280553007687
    x = (x ^ ((x >> 27) & 0x1FFFFFFFFF)) * -7723592293110705685
    return x ^ ((x >> 31) & 0x1FFFFFFFF)


@njit(cache=True)
def _state_key(cw, board, used, turns_used, n_turns, words):
    """The key of a state of the cover search: its sheet, its target, the specials used and the
    cards of the unused turns (as a multiset: turns in another order, or another sequence's
    turns offering the same cards, give the same key). Whether a state has a cover depends on
    nothing else, so a state proved hopeless stays so for every search of the position."""
    cards = 0
    for t in range(n_turns):
        if not (turns_used >> t) & 1:
            cards += cw.turn_key[t]
    key = _mix(cards + 0x51ED27) ^ cw.target_key[0]
    for x in range(words):
        key = _mix(key ^ board[x])
    key = _mix(key ^ (used[0] + 4 * used[1] + 16 * used[2] + 64 * used[3]))
    return key | 1


@njit(cache=True)
def _failed(cw, key):
    """True when the state of this key was proved hopeless."""
    slot = key & (FAILED_SLOTS - 1)
    for i in range(4):
        k = cw.failed[(slot + i) & (FAILED_SLOTS - 1)]
        if k == key:
            return True
        if k == 0:
            return False
    return False


@njit(cache=True)
def _remember_failed(cw, key):
    slot = key & (FAILED_SLOTS - 1)
    for i in range(4):
        j = (slot + i) & (FAILED_SLOTS - 1)
        if cw.failed[j] == 0 or cw.failed[j] == key:
            cw.failed[j] = key
            return
    cw.failed[slot] = key


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
    nb_open = _mode(specials, used, SP_NEIGHBOUR) != 0
    cut_open = _mode(specials, used, SP_CUT) != 0
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
                    cw.size[ls] = 0
                    for x in range(tables.params[P_WORDS]):
                        cw.size[ls] += popcount(tables.place_masks[g, x])
                    for kind in range(4):
                        cw.offered[ls, kind] = 0
                cw.offered[ls, nb + (2 if q > 0 else 0)] |= 1 << t
    return n


@njit(cache=True)
def _ways(specials, used):
    """(NEIGHBOUR mode, CUT mode, CUT mode after NEIGHBOUR) now: 0 when not available."""
    nb_mode = _mode(specials, used, SP_NEIGHBOUR)
    cut_mode = _mode(specials, used, SP_CUT)
    both = 0
    if nb_mode != 0:
        _spend(used, SP_NEIGHBOUR, nb_mode, 1)
        both = _mode(specials, used, SP_CUT)
        _spend(used, SP_NEIGHBOUR, nb_mode, -1)
    return nb_mode, cut_mode, both


@njit(cache=True)
def _node_moves(tables, cw, board, target, d, n_local, n_turns, opt_max, opt_max_nb, same_as, used, turns_used):
    """The moves of the node at depth d into cw.moves[d] (rows: turn or -1 for SINGLE, placement
    row or cell, NEIGHBOUR mode, CUT mode, SINGLE mode); returns how many. The open placements of
    the node (cw.open[d]) are its parent's that still fit and whose shape an unused turn still
    offers (at depth 0 they are set already). The moves shade the empty cell of the target that
    the fewest open placements cover (a cell none covers needs SINGLE; more such cells than
    SINGLE can shade end the branch), each placement by every unused turn that offers its shape,
    spending the fewest specials. 0 also when the unused turns cannot shade the empty cells."""
    params = tables.params
    words = params[P_WORDS]
    specials = params[P_SPECIALS]
    masks = tables.place_masks
    if _holes(target, board, words) > _bound(specials, used, n_turns, opt_max, opt_max_nb, turns_used):
        return 0
    nb_mode, cut_mode, both = _ways(specials, used)
    free = ((1 << n_turns) - 1) & ~turns_used
    for ls in range(n_local):
        offered = cw.offered[ls, 0]
        if nb_mode != 0:
            offered |= cw.offered[ls, 1]
        if cut_mode != 0:
            offered |= cw.offered[ls, 2]
        if both != 0:
            offered |= cw.offered[ls, 3]
        cw.live[ls] = (offered & free) != 0
    if d > 0:
        n = 0
        for i in range(cw.n_open[d - 1]):
            ls = cw.open_shape[d - 1, i]
            g = cw.open[d - 1, i]
            if cw.live[ls] and fits(masks, g, board, words):
                cw.open[d, n] = g
                cw.open_shape[d, n] = ls
                n += 1
        cw.n_open[d] = n
    n = cw.n_open[d]
    for i in range(cw.count.shape[0]):
        cw.count[i] = 0
    for ls in range(n_local):
        cw.placed[ls] = False
    for i in range(n):
        g = cw.open[d, i]
        cw.placed[cw.open_shape[d, i]] = True
        for x in range(words):
            m = masks[g, x]
            while m != 0:
                low = m & -m
                cw.count[x * 64 + popcount(low - 1)] += 1
                m ^= low
    singles = _singles_left(specials, used)
    # The area bound again, counting for each unused turn only the shapes it offers that still
    # have a place inside the target.
    for t in range(n_turns):
        cw.most[t] = 0
    for ls in range(n_local):
        if not cw.placed[ls]:
            continue
        offered = cw.offered[ls, 0]
        if nb_mode != 0:
            offered |= cw.offered[ls, 1]
        if cut_mode != 0:
            offered |= cw.offered[ls, 2]
        if both != 0:
            offered |= cw.offered[ls, 3]
        offered &= free
        while offered != 0:
            low = offered & -offered
            t = popcount(low - 1)
            offered ^= low
            if cw.size[ls] > cw.most[t]:
                cw.most[t] = cw.size[ls]
    reach = singles
    for t in range(n_turns):
        reach += cw.most[t]
    if _holes(target, board, words) > reach:
        return 0
    cell = -1
    fewest = 0
    bare = 0
    for x in range(words):
        h = target[x] & ~board[x]
        while h != 0:
            low = h & -h
            c = x * 64 + popcount(low - 1)
            h ^= low
            if cw.count[c] == 0:
                bare += 1
            if cell < 0 or cw.count[c] < fewest:
                cell = c
                fewest = cw.count[c]
    if bare > singles:
        return 0
    out = cw.moves[d]
    limit = out.shape[0]
    count = 0
    if fewest > 0:
        for i in range(n):
            g = cw.open[d, i]
            if not (masks[g, cell >> 6] >> (cell & 63)) & 1:
                continue
            ls = cw.open_shape[d, i]
            for t in range(n_turns):
                if (turns_used >> t) & 1:
                    continue
                # Turns that offer the same cards are interchangeable: try only the first unused one.
                if same_as[t] >= 0 and not (turns_used >> same_as[t]) & 1:
                    continue
                bit = 1 << t
                # Spending a special never helps when the turn offers the shape without it;
                # NEIGHBOUR and CUT together only when neither alone offers it.
                ways = 0
                if cw.offered[ls, 0] & bit:
                    ways = 1
                else:
                    if nb_mode != 0 and cw.offered[ls, 1] & bit:
                        ways |= 2
                    if cut_mode != 0 and cw.offered[ls, 2] & bit:
                        ways |= 4
                    if ways == 0 and both != 0 and cw.offered[ls, 3] & bit:
                        ways = 8
                for way in range(4):
                    if not (ways >> way) & 1:
                        continue
                    if count >= limit:
                        cw.overflow[0] = 1
                        continue
                    out[count, 0] = t
                    out[count, 1] = g
                    out[count, 2] = nb_mode if (way == 1 or way == 3) else 0
                    out[count, 3] = cut_mode if way == 2 else (both if way == 3 else 0)
                    out[count, 4] = 0
                    count += 1
    single = _mode(specials, used, SP_SINGLE)
    if single != 0 and count < limit:
        out[count, 0] = -1
        out[count, 1] = cell
        out[count, 2] = 0
        out[count, 3] = 0
        out[count, 4] = single
        count += 1
    return count


@njit(cache=True)
def _cover(tables, board, target, n_turns, opt_patch, opt_nb, opt_count, opt_max, opt_max_nb, same_as, used, budget,
           cw):
    """Exact search, depth first with an explicit stack (cw.moves, cw.n_moves, cw.at): shade every
    cell of target with the unused turns' cards (one each, whole or cut, a neighbour with
    NEIGHBOUR) and SINGLE, the most constrained empty cell first (see _node_moves). True when
    found (board and used then hold the cover); budget[0] counts down the nodes left. board must
    contain cw.base."""
    words = tables.params[P_WORDS]
    if _first_hole(target, board, words) < 0:
        return True
    n_local = _local_shapes(tables, cw, n_turns, opt_patch, opt_nb, opt_count, used)
    masks = tables.place_masks
    cw.overflow[0] = 0
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
                cw.open[0, n] = g
                cw.open_shape[0, n] = ls
                n += 1
    cw.n_open[0] = n
    found = _search(tables, cw, board, target, n_local, n_turns, opt_max, opt_max_nb, same_as, used, budget)
    for ls in range(n_local):
        cw.local[cw.shape_of[ls]] = -1
    return found


@njit(cache=True)
def _search(tables, cw, board, target, n_local, n_turns, opt_max, opt_max_nb, same_as, used, budget):
    """_cover's depth-first loop from the open placements of depth 0."""
    words = tables.params[P_WORDS]
    moves = cw.moves
    n_moves = cw.n_moves
    at = cw.at
    turns_used = 0
    d = 0
    if _failed(cw, _state_key(cw, board, used, turns_used, n_turns, words)):
        return False
    n_moves[0] = _node_moves(tables, cw, board, target, 0, n_local, n_turns, opt_max, opt_max_nb, same_as, used,
                             turns_used)
    at[0] = 0
    while True:
        if at[d] > 0:
            turns_used ^= _play_move(tables, board, used, moves[d, at[d] - 1], -1)
        if at[d] >= n_moves[d]:
            # Every move of this node was searched to the end: it has no cover.
            if cw.overflow[0] == 0:
                _remember_failed(cw, _state_key(cw, board, used, turns_used, n_turns, words))
            if d == 0:
                return False
            d -= 1
            continue
        turns_used ^= _play_move(tables, board, used, moves[d, at[d]], 1)
        at[d] += 1
        if _first_hole(target, board, words) < 0:
            return True
        budget[0] -= 1
        if budget[0] <= 0 or d + 1 >= moves.shape[0]:
            turns_used ^= _play_move(tables, board, used, moves[d, at[d] - 1], -1)
            return False
        if _failed(cw, _state_key(cw, board, used, turns_used, n_turns, words)):
            continue
        d += 1
        at[d] = 0
        n_moves[d] = _node_moves(tables, cw, board, target, d, n_local, n_turns, opt_max, opt_max_nb, same_as, used,
                                 turns_used)



@njit(cache=True)
def _play_move(tables, board, used, move, sign):
    """Apply (sign 1) or undo (sign -1) one move of the cover search; returns the turn bit."""
    words = tables.params[P_WORDS]
    if move[0] < 0:
        cell = move[1]
        if sign > 0:
            board[cell >> 6] |= 1 << (cell & 63)
        else:
            board[cell >> 6] &= ~(1 << (cell & 63))
        _spend(used, SP_SINGLE, move[4], sign)
        return 0
    g = move[1]
    for x in range(words):
        if sign > 0:
            board[x] |= tables.place_masks[g, x]
        else:
            board[x] &= ~tables.place_masks[g, x]
    if move[2] != 0:
        _spend(used, SP_NEIGHBOUR, move[2], sign)
    if move[3] != 0:
        _spend(used, SP_CUT, move[3], sign)
    return 1 << move[0]



@njit(cache=True)
def _snug(aux, g, board, words):
    """Cell sides of placement g that meet a shaded cell or the sheet's edge (aux: the greedy
    bot's contact tables, toolkit.bots.doodle.greedy.greedy_tables)."""
    touch = aux.border_edges[g]
    for d in range(4):
        for w in range(words):
            touch += popcount(aux.contact_masks[g, d, w] & board[w])
    return touch


@njit(cache=True)
def _patch_cells(tables, patch):
    return popcount(tables.place_masks[tables.shape_first[tables.patch_shape[patch]], 0]) + (
        popcount(tables.place_masks[tables.shape_first[tables.patch_shape[patch]], 1])
        if tables.params[P_WORDS] > 1 else 0)


@njit(cache=True)
def _sequences(tables, st):
    """The turns still to come after this step, per die sequence: (weight[S], n_turns[S],
    opt_patch[S, T, MAX_OPTIONS], opt_nb[S, T, MAX_OPTIONS], opt_count[S, T])."""
    params = tables.params
    die = tables.die
    oc = st[S_CIRCLE_AT]
    n = st[S_CIRCLE_LEN]
    circ = np.empty(max(n, 1), dtype=np.int64)
    m = 0
    rem = 0
    nxt = 0
    if st[S_PHASE] == PH_TURN:
        # The token card leaves the circle; the token stays in its place.
        cur = st[S_CUR]
        for pos in range(n):
            circ[pos] = st[oc + pos]
        m = discard_card(circ, 0, n, cur)
        nxt = token_next(cur, m)
        rem = rolled_turns(params, st[S_ROUND]) - st[S_TURN] - 1
    free = 1 if (st[S_PHASE] == PH_TURN and params[P_FREE_CHOICE]) else 0
    # The die's distinct faces and their chances.
    faces = np.empty(die.shape[0], dtype=np.int64)
    chance = np.empty(die.shape[0])
    nd = die_faces(die, faces, chance)
    total = 1
    for _ in range(rem):
        total *= nd
        if total > MAX_SEQUENCES:
            break
    sample = total > MAX_SEQUENCES
    count = MAX_SEQUENCES if sample else total
    turns = rem + free
    weight = np.empty(count)
    n_turns = np.zeros(count, dtype=np.int64)
    opt_patch = np.zeros((count, max(turns, 1), MAX_OPTIONS), dtype=np.int64)
    opt_nb = np.zeros((count, max(turns, 1), MAX_OPTIONS), dtype=np.int64)
    opt_count = np.zeros((count, max(turns, 1)), dtype=np.int64)
    c = np.empty(max(m, 1), dtype=np.int64)
    lcg = 0x2545F4914F6CDD1D
    for s in range(count):
        for i in range(m):
            c[i] = circ[i]
        nn = m
        nx = nxt
        digits = s
        w = 1.0
        t = 0
        for _ in range(rem):
            if nn == 0:
                break
            if sample:
                lcg = (lcg * 6364136223846793005 + 1442695040888963407) & 0x7FFFFFFFFFFFFFFF
                face = (lcg >> 33) % nd
                w = 1.0 / count
            else:
                face = digits % nd
                digits //= nd
                w *= chance[face]
            # The token card and its neighbours (offered whether or not NEIGHBOUR is still
            # open: the search spends it), each patch once.
            cur = token_card(nx, faces[face], nn)
            k = 0
            for nb in range(3):
                pos = turn_card(cur, nn, nb)
                if pos < 0:
                    continue
                dup = False
                for q in range(k):
                    if opt_patch[s, t, q] == c[pos]:
                        dup = True
                if not dup:
                    opt_patch[s, t, k] = c[pos]
                    opt_nb[s, t, k] = 1 if nb > 0 else 0
                    k += 1
            opt_count[s, t] = k
            nn = discard_card(c, 0, nn, cur)
            nx = token_next(cur, nn)
            t += 1
        if free and nn > 0:
            k = 0
            for i in range(nn):
                if first_copy(c, 0, i) and k < MAX_OPTIONS:
                    opt_patch[s, t, k] = c[i]
                    k += 1
            opt_count[s, t] = k
            t += 1
        n_turns[s] = t
        weight[s] = w
    return weight, n_turns, opt_patch, opt_nb, opt_count


@njit(cache=True)
def _merge_sequences(weight, n_turns, opt_patch, opt_nb, opt_count):
    """The sequences worth valuing: a sequence's value depends only on the cards its turns offer,
    not on their order (the cover search may use the turns in any order), so sequences whose
    turns offer the same cards are valued once, at their summed weight. Returns (indices of the
    first of each kind, their summed weights)."""
    count = weight.shape[0]
    turns = opt_count.shape[1]
    width = 1 + MAX_OPTIONS
    keys = np.full((count, turns * width + 1), -1, dtype=np.int64)
    row = np.empty(width, dtype=np.int64)
    for s in range(count):
        keys[s, 0] = n_turns[s]
        for t in range(n_turns[s]):
            # The turn's cards, sorted: (patch, neighbour flag) as one code each.
            n = opt_count[s, t]
            row[:] = -1
            row[0] = n
            for j in range(n):
                code = 2 * opt_patch[s, t, j] + opt_nb[s, t, j]
                i = j + 1
                while i > 1 and row[i - 1] > code:
                    row[i] = row[i - 1]
                    i -= 1
                row[i] = code
            # Insert the turn among the turns so far, in lexicographic order.
            i = t
            while i > 0:
                prev = keys[s, 1 + (i - 1) * width:1 + i * width]
                greater = False
                for x in range(width):
                    if prev[x] != row[x]:
                        greater = prev[x] > row[x]
                        break
                if not greater:
                    break
                keys[s, 1 + i * width:1 + (i + 1) * width] = prev
                i -= 1
            keys[s, 1 + i * width:1 + (i + 1) * width] = row
    keep = np.empty(count, dtype=np.int64)
    merged = np.zeros(count)
    kept = 0
    for s in range(count):
        found = -1
        for i in range(kept):
            same = True
            for x in range(keys.shape[1]):
                if keys[keep[i], x] != keys[s, x]:
                    same = False
                    break
            if same:
                found = i
                break
        if found < 0:
            keep[kept] = s
            merged[kept] = weight[s]
            kept += 1
        else:
            merged[found] += weight[s]
    return keep[:kept], merged[:kept]


@njit(cache=True)
def _targets(tables, board):
    """Target cell sets, largest rectangle first: the whole sheet, the two edge bands (the sheet
    less one edge row or column) with the fewest empty cells, and the corner square (less one
    row and one column) with the fewest. Returns (masks[T, words], points[T], count)."""
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    out = np.zeros((4, words), dtype=np.int64)
    points = np.zeros(4, dtype=np.int64)
    band = np.zeros((4, words), dtype=np.int64)
    corner = np.zeros((4, words), dtype=np.int64)
    for r in range(height):
        for col in range(width):
            cell = r * width + col
            bit = 1 << (cell & 63)
            out[0, cell >> 6] |= bit
            # Bands: without row 0, without the last row, without col 0, without the last col.
            if r > 0:
                band[0, cell >> 6] |= bit
            if r < height - 1:
                band[1, cell >> 6] |= bit
            if col > 0:
                band[2, cell >> 6] |= bit
            if col < width - 1:
                band[3, cell >> 6] |= bit
            for q in range(4):
                if (r > 0 if q < 2 else r < height - 1) and (col > 0 if q % 2 == 0 else col < width - 1):
                    corner[q, cell >> 6] |= bit
    points[0] = rectangle_points(height, width)
    count = 1
    # The two bands with the fewest holes (rows first on ties), then the best corner.
    taken = np.zeros(4, dtype=np.bool_)
    for _ in range(2):
        best = -1
        best_holes = 0
        for q in range(4):
            if taken[q]:
                continue
            holes = _holes(band[q], board, words)
            if best < 0 or holes < best_holes:
                best = q
                best_holes = holes
        taken[best] = True
        out[count] = band[best]
        points[count] = rectangle_points(height - 1, width) if best < 2 else rectangle_points(height, width - 1)
        count += 1
    best = 0
    for q in range(1, 4):
        if _holes(corner[q], board, words) < _holes(corner[best], board, words):
            best = q
    out[count] = corner[best]
    points[count] = rectangle_points(height - 1, width - 1)
    count += 1
    return out, points, count


@njit(cache=True)
def _singles_left(specials, used):
    mode = _mode(specials, used, SP_SINGLE)
    if mode == 1:
        return 2 if ((specials >> SP_AGAIN) & 1 and used[SP_AGAIN] == 0) else 1
    return 1 if mode == 2 else 0


@njit(cache=True)
def _sequence_value(tables, board, used, targets, points, n_targets, n_turns, opt_patch, opt_nb, opt_count, cells,
                    work, work_used, same_as, opt_max, opt_max_nb, budget, rows, cw, fx, s):
    """The last round's points (the final rectangle less the empty cells) that die sequence s
    allows from `board`: the largest target the turns can exactly cover (the whole sheet not
    searched when no drawing of this step can lead to it: see _sheet_possible)."""
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    specials = params[P_SPECIALS]
    penalty = params[P_PENALTY]
    area = width * height
    _turn_limits(n_turns, opt_patch, opt_nb, opt_count, cells, same_as, opt_max, opt_max_nb)
    # No more cards at all: the best rectangle now, SINGLE on the empty cells.
    filled = 0
    for x in range(words):
        filled += popcount(board[x])
    for r in range(height):
        rows[r] = row_bits(board, r, width)
    best = best_in_rows(rows, width, height)[0] - penalty * max(0, area - filled - _singles_left(specials, used))
    for q in range(n_targets):
        if points[q] <= best:
            break
        if q == 0 and not _sheet_possible(tables, fx, s, targets[q], cw):
            continue
        for x in range(words):
            work[x] = board[x]
        for i in range(4):
            work_used[i] = used[i]
        budget[0] = NODE_BUDGET
        if _cover(tables, work, targets[q], n_turns, opt_patch, opt_nb, opt_count, opt_max, opt_max_nb, same_as,
                  work_used, budget, cw):
            shaded = 0
            for x in range(words):
                shaded += popcount(work[x])
            value = points[q] - penalty * max(0, area - shaded - _singles_left(specials, work_used))
            if value > best:
                best = value
    return best


Futures = namedtuple(
    "Futures",
    [
        "base",  # int64[words] this step's sheet
        "used",  # int64[4] the specials used so far
        "patch",  # int64[S, T + 1, MAX_OPTIONS] per sequence: this step's cards as turn 0, then its turns
        "nb",  # int64[S, T + 1, MAX_OPTIONS] which of them need NEIGHBOUR
        "count",  # int64[S, T + 1] how many cards each turn offers
        "n_turns",  # int64[S] turns per sequence, this step's included
        "state",  # int64[S] per sequence: 0 not searched yet, 1 no full sheet (the search ended
        # within its budget), 2 a full sheet, or none found within the budget
        "cells",  # int64[patches] cells of each patch
        "board",  # the search's working arrays: sheet, specials used, same_as, opt_max, opt_max_nb, budget
        "work_used",
        "same_as",
        "opt_max",
        "opt_max_nb",
        "budget",
    ],
)
"""Each sequence of this step seen with this step's cards as one more turn: every candidate drawing
is one of what that turn offers (or passing), so a full sheet this cannot reach no candidate can
(see _sheet_possible)."""


@njit(cache=True)
def _turn_limits(n_turns, opt_patch, opt_nb, opt_count, cells, same_as, opt_max, opt_max_nb):
    """Per turn: the most cells it offers without and with NEIGHBOUR, and the first earlier turn
    that offers the same cards (-1: none)."""
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


@njit(cache=True)
def _sheet_possible(tables, fx, s, target, cw):
    """False when no drawing of this step (nor passing) can lead to a full sheet (target) in
    sequence s: the cover search from this step's sheet, this step's cards one more turn, ended
    within its budget without one. Searched once per sequence; True when not known. (Only the
    whole sheet: a candidate drawing may stick out of a band or corner target, which the search
    from this step's sheet does not allow.)"""
    if fx.state[s] == 0:
        n_turns = fx.n_turns[s]
        _turn_limits(n_turns, fx.patch[s], fx.nb[s], fx.count[s], fx.cells, fx.same_as, fx.opt_max, fx.opt_max_nb)
        fx.board[:] = fx.base
        fx.work_used[:] = fx.used
        fx.budget[0] = PLAN_BUDGET
        found = _cover(tables, fx.board, target, n_turns, fx.patch[s], fx.nb[s], fx.count[s], fx.opt_max,
                       fx.opt_max_nb, fx.same_as, fx.work_used, fx.budget, cw)
        fx.state[s] = 1 if not found and fx.budget[0] > 0 and cw.overflow[0] == 0 else 2
    return fx.state[s] == 2


@njit(cache=True)
def _step_options(tables, st, opt_patch, opt_nb):
    """This step's cards, as one turn of the cover search: the cards the kernel's drawing sources
    offer whole (walk_sources: the token card, its neighbours while NEIGHBOUR is open, or every
    card of the free choice), each patch once. Returns how many."""
    src = np.empty((max_sources(tables, st), NSRC), dtype=np.int64)
    nsrc = walk_sources(tables, st, src)
    k = 0
    for i in range(nsrc):
        if src[i, SRC_KIND] != K_DRAW or src[i, SRC_CUT] >= 0:
            continue
        patch = src[i, SRC_PATCH]
        dup = False
        for q in range(k):
            if opt_patch[q] == patch:
                dup = True
        if not dup and k < MAX_OPTIONS:
            opt_patch[k] = patch
            opt_nb[k] = 1 if src[i, SRC_NB] != 0 else 0
            k += 1
    return k


@njit(cache=True)
def _plan_first(tables, board, used, targets, points, n_targets, n_turns, opt_patch, opt_nb, opt_count, cells, work,
                work_used, same_as, opt_max, opt_max_nb, budget, rows, cw, move):
    """The cover search over one sequence with this step's cards as its turn 0 (see
    _sequence_value): when some target is covered, writes the move that turn 0 makes in it into
    move (int64[5]; move[0] = -1: the cover does not draw this step) and returns True."""
    params = tables.params
    words = params[P_WORDS]
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
    for q in range(min(n_targets, 1)):
        for x in range(words):
            work[x] = board[x]
        for i in range(4):
            work_used[i] = used[i]
        budget[0] = PLAN_BUDGET
        if not _cover(tables, work, targets[q], n_turns, opt_patch, opt_nb, opt_count, opt_max, opt_max_nb, same_as,
                      work_used, budget, cw):
            continue
        moves = cw.moves
        at = cw.at
        # Replay the cover's stack from the sheet until the target is covered: the first move of
        # turn 0 on the way is this step's drawing.
        move[0] = -1
        for x in range(words):
            work[x] = board[x]
        for d in range(moves.shape[0]):
            if _first_hole(targets[q], work, words) < 0:
                break
            m = moves[d, at[d] - 1]
            if m[0] == 0:
                for c in range(5):
                    move[c] = m[c]
                break
            if m[0] < 0:
                work[m[1] >> 6] |= 1 << (m[1] & 63)
            else:
                for x in range(words):
                    work[x] |= tables.place_masks[m[1], x]
        return True
    return False


@njit(cache=True)
def choose_endgame(tables, aux, st, occ, act, info):
    """The last round's chooser for a rolled turn or the free choice (see the module text);
    writes the action row into act, and into info (float64[3]) what it expects of it: the last
    round's points (final rectangle less empty cells), the chance of a full sheet, and the number
    of die sequences it looked at."""
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    masks = tables.place_masks
    k = st[S_SEAT]
    occ_k = occ[k]
    used = np.empty(4, dtype=np.int64)
    for s in range(4):
        used[s] = st[st[S_USED_AT] + 4 * k + s]
    acts = list_actions(tables, st, occ)
    # Distinct drawings (one per placement, from the source that spends the fewest specials),
    # keyed by how snugly they pack; passing is always a candidate.
    size = CANDIDATES if st[S_PHASE] == PH_TURN else 4 * CANDIDATES
    keys = np.full(size, -1e18)
    items = np.full(size, -1, dtype=np.int64)
    pass_i = -1
    for i in range(acts.shape[0]):
        kind = acts[i, A_KIND]
        if kind == K_PASS:
            pass_i = i
            continue
        if kind != K_DRAW:
            continue
        g = acts[i, A_PLACE]
        uses = (acts[i, A_NB] != 0) + (acts[i, A_CUT] >= 0) + (acts[i, A_AGAIN] != 0)
        key = 1.0 * _snug(aux, g, occ_k, words) + 2.0 * (popcount(masks[g, 0]) + (popcount(masks[g, 1]) if words > 1 else 0)) - 3.0 * uses
        dup = -1
        for j in range(size):
            if items[j] >= 0 and acts[items[j], A_PLACE] == g:
                dup = j
                break
        if dup >= 0:
            # The same cells from a source that spends fewer special actions replace it.
            if key <= keys[dup]:
                continue
            for j in range(dup, size - 1):
                keys[j] = keys[j + 1]
                items[j] = items[j + 1]
            keys[size - 1] = -1e18
            items[size - 1] = -1
        if key <= keys[size - 1]:
            continue
        j = size - 1
        while j > 0 and keys[j - 1] < key:
            keys[j] = keys[j - 1]
            items[j] = items[j - 1]
            j -= 1
        keys[j] = key
        items[j] = i
    weight, n_turns, opt_patch, opt_nb, opt_count = _sequences(tables, st)
    keep, kept_weight = _merge_sequences(weight, n_turns, opt_patch, opt_nb, opt_count)
    cells = np.empty(params[P_PATCHES], dtype=np.int64)
    for p in range(cells.shape[0]):
        cells[p] = _patch_cells(tables, p)
    full_points = rectangle_points(height, width)
    board = np.empty(words, dtype=np.int64)
    work = np.empty(words, dtype=np.int64)
    cand_used = np.empty(4, dtype=np.int64)
    work_used = np.empty(4, dtype=np.int64)
    turns = opt_count.shape[1]
    same_as = np.empty(turns, dtype=np.int64)
    opt_max = np.empty(turns, dtype=np.int64)
    opt_max_nb = np.empty(turns, dtype=np.int64)
    budget = np.zeros(1, dtype=np.int64)
    rows = np.empty(height, dtype=np.int64)
    cw = cover_work(tables, occ_k)
    # The drawings of this step that some sequence's cover makes when this step's cards join it:
    # the snuggest drawings need not include the one a full sheet needs.
    step_patch = np.zeros(MAX_OPTIONS, dtype=np.int64)
    step_nb = np.zeros(MAX_OPTIONS, dtype=np.int64)
    step_count = _step_options(tables, st, step_patch, step_nb)
    plan_patch = np.zeros((turns + 1, MAX_OPTIONS), dtype=np.int64)
    plan_nb = np.zeros((turns + 1, MAX_OPTIONS), dtype=np.int64)
    plan_count = np.zeros(turns + 1, dtype=np.int64)
    plan_same = np.empty(turns + 1, dtype=np.int64)
    plan_max = np.empty(turns + 1, dtype=np.int64)
    plan_max_nb = np.empty(turns + 1, dtype=np.int64)
    plan_patch[0] = step_patch
    plan_nb[0] = step_nb
    plan_count[0] = step_count
    now_targets, now_points, now_n = _targets(tables, occ_k)
    n_seq = weight.shape[0]
    fx = Futures(occ_k.copy(), used.copy(), np.zeros((n_seq, turns + 1, MAX_OPTIONS), dtype=np.int64),
                 np.zeros((n_seq, turns + 1, MAX_OPTIONS), dtype=np.int64), np.zeros((n_seq, turns + 1), dtype=np.int64),
                 n_turns + 1, np.zeros(n_seq, dtype=np.int64), cells, np.empty(words, dtype=np.int64),
                 np.empty(4, dtype=np.int64), np.empty(turns + 1, dtype=np.int64), np.empty(turns + 1, dtype=np.int64),
                 np.empty(turns + 1, dtype=np.int64), np.zeros(1, dtype=np.int64))
    for s in keep:
        fx.patch[s, 0] = step_patch
        fx.nb[s, 0] = step_nb
        fx.count[s, 0] = step_count
        fx.patch[s, 1:] = opt_patch[s]
        fx.nb[s, 1:] = opt_nb[s]
        fx.count[s, 1:] = opt_count[s]
    move = np.zeros(5, dtype=np.int64)
    planned = np.full(PLANNED, -1, dtype=np.int64)
    n_planned = 0
    for s in keep:
        if n_planned >= PLANNED:
            break
        for t in range(n_turns[s]):
            plan_patch[t + 1] = opt_patch[s, t]
            plan_nb[t + 1] = opt_nb[s, t]
            plan_count[t + 1] = opt_count[s, t]
        planned_cover = _plan_first(tables, occ_k, used, now_targets, now_points, now_n, n_turns[s] + 1, plan_patch,
                                    plan_nb, plan_count, cells, work, work_used, plan_same, plan_max, plan_max_nb,
                                    budget, rows, cw, move)
        # The same search as _sheet_possible's, but for same_as (which only saves nodes): a sheet
        # it proves impossible is not searched again for any drawing.
        fx.state[s] = 1 if not planned_cover and budget[0] > 0 and cw.overflow[0] == 0 else 2
        if not planned_cover or move[0] < 0:
            continue
        # The action that makes this move, spending the fewest special actions.
        found = -1
        found_uses = 0
        for i in range(acts.shape[0]):
            if acts[i, A_KIND] != K_DRAW or acts[i, A_PLACE] != move[1]:
                continue
            if (acts[i, A_NB] != 0) != (move[2] != 0) or (acts[i, A_CUT] >= 0) != (move[3] != 0):
                continue
            uses = (acts[i, A_NB] != 0) + (acts[i, A_CUT] >= 0) + (acts[i, A_AGAIN] != 0)
            if found < 0 or uses < found_uses:
                found = i
                found_uses = uses
        if found < 0:
            continue
        known = False
        for j in range(size):
            if items[j] >= 0 and acts[items[j], A_PLACE] == move[1]:
                known = True
        for j in range(n_planned):
            if acts[planned[j], A_PLACE] == move[1]:
                known = True
        if not known:
            planned[n_planned] = found
            n_planned += 1
    best_value = -1e18
    best_i = pass_i
    best_rank = -1
    for o in range(size + n_planned + 1):
        # The planned drawings first (most often the best: the others are then cut short by the
        # bound below sooner), then passing and the snug ones. `j` is the canonical order
        # (passing, the snug ones, the planned ones) that settles exact ties.
        j = size + o if o < n_planned else o - n_planned - 1
        if j >= size:
            i = planned[j - size]
        elif j >= 0:
            i = items[j]
            if i < 0:
                continue
        else:
            i = pass_i
            if i < 0:
                continue
        for x in range(words):
            board[x] = occ_k[x]
        for s in range(4):
            cand_used[s] = used[s]
        shaded = 0
        spent = 0
        if acts[i, A_KIND] == K_DRAW:
            g = acts[i, A_PLACE]
            for x in range(words):
                board[x] |= masks[g, x]
                shaded += popcount(masks[g, x])
            if acts[i, A_NB] != 0:
                cand_used[SP_NEIGHBOUR] += 1
                spent += 1
            if acts[i, A_CUT] >= 0:
                cand_used[SP_CUT] += 1
                spent += 1
            if acts[i, A_AGAIN] != 0:
                cand_used[SP_AGAIN] += 1
                spent += 1
        targets, points, n_targets = _targets(tables, board)
        total = 0.0
        done = 0.0
        full = 0.0
        for x in range(keep.shape[0]):
            s = keep[x]
            v = _sequence_value(
                tables, board, cand_used, targets, points, n_targets, n_turns[s], opt_patch[s], opt_nb[s],
                opt_count[s], cells, work, work_used, same_as, opt_max, opt_max_nb, budget, rows, cw, fx, s)
            total += kept_weight[x] * v
            if v == full_points:
                full += kept_weight[x]
            done += kept_weight[x]
            # Even full sheets on every sequence left could not catch the best drawing so far.
            if total + (1.0 - done) * full_points < best_value - 1.0:
                break
        value = total + 1e-3 * shaded - 1e-4 * spent
        if value > best_value or (value == best_value and j < best_rank):
            best_value = value
            best_i = i
            best_rank = j
            info[0] = total
            info[1] = full
            info[2] = weight.shape[0]
    for c in range(NA):
        act[c] = acts[best_i, c]
