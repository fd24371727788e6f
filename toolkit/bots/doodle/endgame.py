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

from toolkit.bots.doodle.cover import (
    cover,
    cover_work,
    first_hole,
    holes,
    singles_left,
    turn_limits,
)
from toolkit.bots.doodle.features import circle_after_step
from toolkit.bots.doodle.shortlist import shortlist_insert
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
    PH_TURN,
    S_PHASE,
    S_ROUND,
    S_SEAT,
    S_TURN,
    S_USED_AT,
    SP_AGAIN,
    SP_CUT,
    SP_NEIGHBOUR,
    SRC_CUT,
    SRC_KIND,
    SRC_NB,
    SRC_PATCH,
    best_rectangle,
    die_faces,
    discard_card,
    first_copy,
    list_actions,
    max_sources,
    popcount,
    rectangle_points,
    rolled_turns,
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
"""Search nodes per cover when this step's cards join the search (see plan_first)."""


PLANNED = 24
"""Drawings of this step at most that the per-sequence plans add to the snug ones."""


# The weights of this step's choice (the search's own values are points of the last round).
SNUG_KEY_CONTACT = 1.0
"""The snug pre-filter's key of a drawing of this step: this much per cell side that meets a
shaded cell or the sheet's edge (the greedy bot's contact tables),"""
SNUG_KEY_CELL = 2.0
"""plus this much per cell it shades,"""
SNUG_KEY_SPECIAL = 3.0
"""less this much per special action it spends; the CANDIDATES best keys are valued."""
TIE_SHADED = 1e-3
"""Added to a drawing's expected points per cell it shades: among equal values, the drawing that
shades more wins (small enough never to outweigh a difference in points),"""
TIE_SPENT = 1e-4
"""and taken off per special action it spends: then the one that spends fewer."""
CUTOFF_MARGIN = 1.0
"""A drawing's valuation stops once even full sheets on every sequence left would leave it this
many points below the best drawing so far."""


@njit(cache=True)
def snug(aux, g, board, words):
    """Cell sides of placement g that meet a shaded cell or the sheet's edge (aux: the greedy
    bots' contact tables, toolkit.bots.doodle.features.greedy_tables)."""
    touch = aux.border_edges[g]
    for d in range(4):
        for w in range(words):
            touch += popcount(aux.contact_masks[g, d, w] & board[w])
    return touch


@njit(cache=True)
def patch_cells(tables, patch):
    return popcount(tables.place_masks[tables.shape_first[tables.patch_shape[patch]], 0]) + (
        popcount(tables.place_masks[tables.shape_first[tables.patch_shape[patch]], 1])
        if tables.params[P_WORDS] > 1 else 0)


@njit(cache=True)
def _rolled_options(c, nn, cur, opt_patch, opt_nb, opt_count, s, t):
    """Turn t of sequence s, a rolled turn whose token card is at cur in the circle c[:nn]: the
    token card and its neighbours (offered whether or not NEIGHBOUR is still open: the search
    spends it), each patch once."""
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


@njit(cache=True)
def _free_options(c, nn, opt_patch, opt_count, s, t):
    """Turn t of sequence s, the free choice among the circle c[:nn]: each patch once."""
    k = 0
    for i in range(nn):
        if first_copy(c, 0, i) and k < MAX_OPTIONS:
            opt_patch[s, t, k] = c[i]
            k += 1
    opt_count[s, t] = k


@njit(cache=True)
def _play_sequence(circ, m, nxt, rem, free, s, sample, count, faces, chance, nd, lcg, c, opt_patch, opt_nb,
                   opt_count):
    """Sequence s of the remaining rolls (digit by digit of s in base nd, or the next draws of the
    sample's generator lcg) played on the circle circ[:m]: writes the cards of its turns and
    returns (turns, weight, lcg)."""
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
        cur = token_card(nx, faces[face], nn)
        _rolled_options(c, nn, cur, opt_patch, opt_nb, opt_count, s, t)
        nn = discard_card(c, 0, nn, cur)
        nx = token_next(cur, nn)
        t += 1
    if free and nn > 0:
        _free_options(c, nn, opt_patch, opt_count, s, t)
        t += 1
    return t, w, lcg


@njit(cache=True)
def die_sequences(tables, st):
    """The turns still to come after this step, per die sequence: (weight[S], n_turns[S],
    opt_patch[S, T, MAX_OPTIONS], opt_nb[S, T, MAX_OPTIONS], opt_count[S, T]). Every sequence of
    the remaining rolls, weighted by the die's chances (the kernel's die_faces), or a fixed
    sample of MAX_SEQUENCES when there are more; the circle each roll sees is the kernel's token
    walk."""
    params = tables.params
    die = tables.die
    # The circle after this step: the token card leaves it, the token stays in its place.
    circ, m, nxt = circle_after_step(st)
    rem = 0
    if st[S_PHASE] == PH_TURN:
        rem = rolled_turns(params, st[S_ROUND]) - st[S_TURN] - 1
    else:
        m = 0
        nxt = 0
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
        t, w, lcg = _play_sequence(circ, m, nxt, rem, free, s, sample, count, faces, chance, nd, lcg, c, opt_patch,
                                   opt_nb, opt_count)
        n_turns[s] = t
        weight[s] = w
    return weight, n_turns, opt_patch, opt_nb, opt_count


@njit(cache=True)
def merge_sequences(weight, n_turns, opt_patch, opt_nb, opt_count):
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
def sheet_targets(tables, board):
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
            empty = holes(band[q], board, words)
            if best < 0 or empty < best_holes:
                best = q
                best_holes = empty
        taken[best] = True
        out[count] = band[best]
        points[count] = rectangle_points(height - 1, width) if best < 2 else rectangle_points(height, width - 1)
        count += 1
    best = 0
    for q in range(1, 4):
        if holes(corner[q], board, words) < holes(corner[best], board, words):
            best = q
    out[count] = corner[best]
    points[count] = rectangle_points(height - 1, width - 1)
    count += 1
    return out, points, count


@njit(cache=True)
def sequence_value(tables, board, used, targets, points, n_targets, n_turns, opt_patch, opt_nb, opt_count, cells,
                    work, work_used, same_as, opt_max, opt_max_nb, budget, cw, fx, s):
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
    turn_limits(n_turns, opt_patch, opt_nb, opt_count, cells, same_as, opt_max, opt_max_nb, True)
    # No more cards at all: the best rectangle now, SINGLE on the empty cells.
    filled = 0
    for x in range(words):
        filled += popcount(board[x])
    best = best_rectangle(tables, board)[0] - penalty * max(0, area - filled - singles_left(specials, used))
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
        if cover(tables, work, targets[q], n_turns, opt_patch, opt_nb, opt_count, opt_max, opt_max_nb, same_as,
                  work_used, budget, cw):
            shaded = 0
            for x in range(words):
                shaded += popcount(work[x])
            value = points[q] - penalty * max(0, area - shaded - singles_left(specials, work_used))
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
def _sheet_possible(tables, fx, s, target, cw):
    """False when no drawing of this step (nor passing) can lead to a full sheet (target) in
    sequence s: the cover search from this step's sheet, this step's cards one more turn, ended
    within its budget without one. Searched once per sequence; True when not known. (Only the
    whole sheet: a candidate drawing may stick out of a band or corner target, which the search
    from this step's sheet does not allow.)"""
    if fx.state[s] == 0:
        n_turns = fx.n_turns[s]
        turn_limits(n_turns, fx.patch[s], fx.nb[s], fx.count[s], fx.cells, fx.same_as, fx.opt_max, fx.opt_max_nb,
                    True)
        fx.board[:] = fx.base
        fx.work_used[:] = fx.used
        fx.budget[0] = PLAN_BUDGET
        found = cover(tables, fx.board, target, n_turns, fx.patch[s], fx.nb[s], fx.count[s], fx.opt_max,
                       fx.opt_max_nb, fx.same_as, fx.work_used, fx.budget, cw)
        fx.state[s] = 1 if not found and fx.budget[0] > 0 and cw.node.overflow[0] == 0 else 2
    return fx.state[s] == 2


@njit(cache=True)
def step_options(tables, st, opt_patch, opt_nb):
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
def plan_first(tables, board, used, targets, points, n_targets, n_turns, opt_patch, opt_nb, opt_count, cells, work,
                work_used, same_as, opt_max, opt_max_nb, budget, rows, cw, move):
    """The cover search over one sequence with this step's cards as its turn 0 (see
    sequence_value): when some target is covered, writes the move that turn 0 makes in it into
    move (int64[5]; move[0] = -1: the cover does not draw this step) and returns True."""
    params = tables.params
    words = params[P_WORDS]
    # Turns offering the same cards are not merged here: the replay below needs turn 0's own move.
    turn_limits(n_turns, opt_patch, opt_nb, opt_count, cells, same_as, opt_max, opt_max_nb, False)
    for q in range(min(n_targets, 1)):
        for x in range(words):
            work[x] = board[x]
        for i in range(4):
            work_used[i] = used[i]
        budget[0] = PLAN_BUDGET
        if not cover(tables, work, targets[q], n_turns, opt_patch, opt_nb, opt_count, opt_max, opt_max_nb, same_as,
                      work_used, budget, cw):
            continue
        moves = cw.node.moves
        at = cw.at
        # Replay the cover's stack from the sheet until the target is covered: the first move of
        # turn 0 on the way is this step's drawing.
        move[0] = -1
        for x in range(words):
            work[x] = board[x]
        for d in range(moves.shape[0]):
            if first_hole(targets[q], work, words) < 0:
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
def _uses(acts, i):
    """Special actions action row i spends (NEIGHBOUR, CUT, AGAIN)."""
    return (acts[i, A_NB] != 0) + (acts[i, A_CUT] >= 0) + (acts[i, A_AGAIN] != 0)


@njit(cache=True)
def _snug_candidates(tables, aux, acts, occ_k, size):
    """The `size` snuggest distinct drawings of this step, best first: (items, pass_i), items
    the rows of acts (-1 past the end; one per placement, from the source that spends the fewest
    special actions), pass_i the row of passing (-1: none)."""
    masks = tables.place_masks
    words = tables.params[P_WORDS]
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
        key = (SNUG_KEY_CONTACT * snug(aux, g, occ_k, words)
               + SNUG_KEY_CELL * (popcount(masks[g, 0]) + (popcount(masks[g, 1]) if words > 1 else 0))
               - SNUG_KEY_SPECIAL * _uses(acts, i))
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
        shortlist_insert(keys, items, size, key, i)
    return items, pass_i


@njit(cache=True)
def _futures(occ_k, used, keep, n_turns, opt_patch, opt_nb, opt_count, cells, step_patch, step_nb, step_count, words):
    """The Futures of the sequences kept: each with this step's cards (step_options) as its turn 0,
    then its own turns."""
    turns = opt_count.shape[1]
    n_seq = opt_count.shape[0]
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
    return fx


@njit(cache=True)
def _action_of_move(acts, move):
    """The row of acts that draws the cover's move (placement, through NEIGHBOUR and CUT as the
    move does), spending the fewest special actions; -1: none."""
    found = -1
    found_uses = 0
    for i in range(acts.shape[0]):
        if acts[i, A_KIND] != K_DRAW or acts[i, A_PLACE] != move[1]:
            continue
        if (acts[i, A_NB] != 0) != (move[2] != 0) or (acts[i, A_CUT] >= 0) != (move[3] != 0):
            continue
        uses = _uses(acts, i)
        if found < 0 or uses < found_uses:
            found = i
            found_uses = uses
    return found


@njit(cache=True)
def _planned(tables, occ_k, used, acts, items, keep, n_turns, opt_patch, opt_nb, opt_count, cells, step_patch, step_nb,
             step_count, fx, cw):
    """The drawings of this step that some sequence's cover makes when this step's cards join it
    as turn 0 (the snuggest drawings, items, need not include the one a full sheet needs), at most
    PLANNED and none of items: (their rows of acts, how many). Notes in fx.state each sequence
    whose full sheet that search proved impossible."""
    params = tables.params
    words = params[P_WORDS]
    turns = opt_count.shape[1]
    size = items.shape[0]
    plan_patch = np.zeros((turns + 1, MAX_OPTIONS), dtype=np.int64)
    plan_nb = np.zeros((turns + 1, MAX_OPTIONS), dtype=np.int64)
    plan_count = np.zeros(turns + 1, dtype=np.int64)
    plan_patch[0] = step_patch
    plan_nb[0] = step_nb
    plan_count[0] = step_count
    now_targets, now_points, now_n = sheet_targets(tables, occ_k)
    work = np.empty(words, dtype=np.int64)
    work_used = np.empty(4, dtype=np.int64)
    plan_same = np.empty(turns + 1, dtype=np.int64)
    plan_max = np.empty(turns + 1, dtype=np.int64)
    plan_max_nb = np.empty(turns + 1, dtype=np.int64)
    budget = np.zeros(1, dtype=np.int64)
    rows = np.empty(params[P_HEIGHT], dtype=np.int64)
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
        planned_cover = plan_first(tables, occ_k, used, now_targets, now_points, now_n, n_turns[s] + 1, plan_patch,
                                   plan_nb, plan_count, cells, work, work_used, plan_same, plan_max, plan_max_nb,
                                   budget, rows, cw, move)
        # The same search as _sheet_possible's, but for same_as (which only saves nodes): a sheet
        # it proves impossible is not searched again for any drawing.
        fx.state[s] = 1 if not planned_cover and budget[0] > 0 and cw.node.overflow[0] == 0 else 2
        if not planned_cover or move[0] < 0:
            continue
        found = _action_of_move(acts, move)
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
    return planned, n_planned


@njit(cache=True)
def _drawn(tables, occ_k, used, acts, i, board, cand_used):
    """The sheet and the special actions used (board, cand_used) once action row i is taken;
    returns (cells it shades, special actions it spends)."""
    masks = tables.place_masks
    words = tables.params[P_WORDS]
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
    return shaded, spent


@njit(cache=True)
def _expected_points(tables, board, cand_used, keep, kept_weight, n_turns, opt_patch, opt_nb, opt_count, cells, sw,
                     cw, fx, best_value):
    """(points, chance of a full sheet): the weighted mean over the kept sequences of the last
    round's points from `board` (sequence_value), and the weight of those with a full sheet. Stops
    early, with a lower figure, once even full sheets on every sequence left could not come within
    CUTOFF_MARGIN of best_value."""
    params = tables.params
    full_points = rectangle_points(params[P_HEIGHT], params[P_WIDTH])
    targets, points, n_targets = sheet_targets(tables, board)
    total = 0.0
    done = 0.0
    full = 0.0
    for x in range(keep.shape[0]):
        s = keep[x]
        v = sequence_value(
            tables, board, cand_used, targets, points, n_targets, n_turns[s], opt_patch[s], opt_nb[s],
            opt_count[s], cells, sw.work, sw.work_used, sw.same_as, sw.opt_max, sw.opt_max_nb, sw.budget, cw, fx, s)
        total += kept_weight[x] * v
        if v == full_points:
            full += kept_weight[x]
        done += kept_weight[x]
        # Even full sheets on every sequence left could not catch the best drawing so far.
        if total + (1.0 - done) * full_points < best_value - CUTOFF_MARGIN:
            break
    return total, full


SearchWork = namedtuple("SearchWork", ["work", "work_used", "same_as", "opt_max", "opt_max_nb", "budget"])
"""The cover searches' scratch arrays for one step: a sheet, specials used, and per turn
same_as, opt_max and opt_max_nb (see turn_limits), and the node budget left."""


@njit(cache=True)
def choose_endgame(tables, aux, st, occ, act, info):
    """The last round's chooser for a rolled turn or the free choice (see the module text);
    writes the action row into act, and into info (float64[3]) what it expects of it: the last
    round's points (final rectangle less empty cells), the chance of a full sheet, and the number
    of die sequences it looked at."""
    params = tables.params
    words = params[P_WORDS]
    k = st[S_SEAT]
    occ_k = occ[k]
    used = np.empty(4, dtype=np.int64)
    for s in range(4):
        used[s] = st[st[S_USED_AT] + 4 * k + s]
    acts = list_actions(tables, st, occ)
    # Distinct drawings keyed by how snugly they pack; passing is always a candidate.
    size = CANDIDATES if st[S_PHASE] == PH_TURN else 4 * CANDIDATES
    items, pass_i = _snug_candidates(tables, aux, acts, occ_k, size)
    weight, n_turns, opt_patch, opt_nb, opt_count = die_sequences(tables, st)
    keep, kept_weight = merge_sequences(weight, n_turns, opt_patch, opt_nb, opt_count)
    cells = np.empty(params[P_PATCHES], dtype=np.int64)
    for p in range(cells.shape[0]):
        cells[p] = patch_cells(tables, p)
    turns = opt_count.shape[1]
    sw = SearchWork(np.empty(words, dtype=np.int64), np.empty(4, dtype=np.int64), np.empty(turns, dtype=np.int64),
                    np.empty(turns, dtype=np.int64), np.empty(turns, dtype=np.int64), np.zeros(1, dtype=np.int64))
    cw = cover_work(tables, occ_k)
    # This step's cards, as one turn of the cover search.
    step_patch = np.zeros(MAX_OPTIONS, dtype=np.int64)
    step_nb = np.zeros(MAX_OPTIONS, dtype=np.int64)
    step_count = step_options(tables, st, step_patch, step_nb)
    fx = _futures(occ_k, used, keep, n_turns, opt_patch, opt_nb, opt_count, cells, step_patch, step_nb, step_count,
                  words)
    planned, n_planned = _planned(tables, occ_k, used, acts, items, keep, n_turns, opt_patch, opt_nb, opt_count,
                                  cells, step_patch, step_nb, step_count, fx, cw)
    board = np.empty(words, dtype=np.int64)
    cand_used = np.empty(4, dtype=np.int64)
    best_value = -1e18
    best_i = pass_i
    best_rank = -1
    for o in range(size + n_planned + 1):
        # The planned drawings first (most often the best: the others are then cut short by the
        # bound in _expected_points sooner), then passing and the snug ones. `j` is the canonical
        # order (passing, the snug ones, the planned ones) that settles exact ties.
        j = size + o if o < n_planned else o - n_planned - 1
        i = planned[j - size] if j >= size else (items[j] if j >= 0 else pass_i)
        if i < 0:
            continue
        shaded, spent = _drawn(tables, occ_k, used, acts, i, board, cand_used)
        total, full = _expected_points(tables, board, cand_used, keep, kept_weight, n_turns, opt_patch, opt_nb,
                                       opt_count, cells, sw, cw, fx, best_value)
        value = total + TIE_SHADED * shaded - TIE_SPENT * spent
        if value > best_value or (value == best_value and j < best_rank):
            best_value = value
            best_i = i
            best_rank = j
            info[0] = total
            info[1] = full
            info[2] = weight.shape[0]
    for c in range(NA):
        act[c] = acts[best_i, c]
