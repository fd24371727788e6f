"""The `greedy` Doodle bot: every legal draw valued one ply deep, the best re-ranked by the next
turn's card over the die faces.

It values every legal draw of the step (the token card whole or cut, the neighbours, the free
choice) by the coming rectangle score, shaded cells, compactness and isolated holes, then
re-ranks the best by the expected best drawing of the next turn's card over the die faces (the
circle is open, so the next card for each roll is known). It uses SINGLE before a scoring when
that completes a better rectangle (and always in the last scoring), and scores the best
rectangle. Deterministic: the bot generator is never drawn from (ties go to the first action in
the kernel's canonical order).

`choose_greedy(tables, st, occ, bot_rng, act)` is the compiled chooser the turn loop
(toolkit.bots.doodle.loop) runs; `DoodleGreedyBot` is the same chooser behind the Bot protocol
for validated games. For time-track editions the name `greedy` keeps meaning the time-track
greedy bot: the factory registered here hands those editions to the one registered before it.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from toolkit.bots import base
from toolkit.errors import UsageError
from toolkit.games.doodle.kernel import (
    A_AGAIN,
    A_CUT,
    A_KIND,
    A_NB,
    A_PLACE,
    K_DRAW,
    K_SCORE,
    K_SINGLE,
    K_START,
    NA,
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
    SP_SINGLE,
    best_in_rows,
    fits,
    list_actions,
    popcount,
    put_action,
    rectangle_points,
    rolled_turns,
    row_bits,
    special_mode,
)
from toolkit.specs.models import Edition, Family


@njit(cache=True)
def _rows_of(occ_k, width, height, rows):
    for r in range(height):
        rows[r] = row_bits(occ_k, r, width)


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def _round_potential(pre, width, height, turns_left, spare_single, gw):
    """How much the coming intermediate scoring can still be worth: the best corner-anchored
    rectangle, discounted by the cells still missing against what the remaining turns can bring."""
    best = 0.0
    capacity = gw[G_CELLS_PER_TURN] * turns_left
    for corner in range(4):
        for h in range(2, height + 1):
            r0 = 0 if corner < 2 else height - h
            for w in range(2, width + 1):
                if abs(h - w) > 2:
                    continue
                c0 = 0 if corner % 2 == 0 else width - w
                filled = pre[r0 + h, c0 + w] - pre[r0, c0 + w] - pre[r0 + h, c0] + pre[r0, c0]
                missing = h * w - filled
                value = 1.0 * rectangle_points(h, w)
                if missing > 0:
                    if turns_left == 0:
                        if missing > spare_single:
                            continue
                        value -= 1.0
                    else:
                        if missing > capacity:
                            continue
                        value -= missing * (gw[G_MISSING] + gw[G_MISSING_LOAD] * missing / capacity)
                if value > best:
                    best = value
    return best


# Greedy weights (tuned with benchmarks/bench_doodle.py).
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
GREEDY_WEIGHTS = np.array([4.0, 0.5, 1.0, 1.0, 1.0, 0.5, 3.0, 6.0, 4.0, 0.5, 1.0, 10.0])


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


@njit(cache=True)
def _evaluate(rows, width, height, pre, turns_left, spare_single, gw):
    _prefix(rows, width, height, pre)
    filled = pre[height, width]
    value = gw[G_ROUND] * _round_potential(pre, width, height, turns_left, spare_single, gw)
    if gw[G_BEST] != 0.0:
        value += gw[G_BEST] * best_in_rows(rows, width, height)[0]
    value += gw[G_FILLED] * filled
    value -= gw[G_ROUGH] * _roughness(rows, width, height)
    value -= gw[G_ISOLATED] * _isolated(rows, width, height)
    return value


@njit(cache=True)
def choose_greedy_weighted(tables, st, occ, bot_rng, act, gw):
    """The greedy chooser with explicit weights (see choose_greedy)."""
    masks = tables.place_masks
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    k = st[S_SEAT]
    phase = st[S_PHASE]
    rows = np.empty(height, dtype=np.int64)
    pre = np.empty((height + 1, width + 1), dtype=np.int64)
    single_mode = special_mode(params, st, k, SP_SINGLE)
    if phase == PH_SCORE:
        _rows_of(occ[k], width, height, rows)
        now = best_in_rows(rows, width, height)
        last_round = st[S_ROUND] == params[P_ROUNDS] - 1
        if single_mode != 0:
            # SINGLE before scoring: when it grows the rectangle enough, or always in the last
            # scoring, where an unused SINGLE (or AGAIN) is a point thrown away.
            best_gain = -1
            best_cell = -1
            for cell in range(width * height):
                r = cell // width
                c = cell % width
                if (rows[r] >> c) & 1:
                    continue
                rows[r] |= 1 << c
                gain = best_in_rows(rows, width, height)[0] - now[0]
                rows[r] &= ~(1 << c)
                if gain > best_gain:
                    best_gain = gain
                    best_cell = cell
            if best_cell >= 0 and (last_round or best_gain >= gw[G_SINGLE_GAIN]):
                put_action(act.reshape(1, NA), 0, K_SINGLE, -1, 0, -1, 0, best_cell, 0, 0, 0,
                     SP_SINGLE + 1 if single_mode == 2 else 0)
                return
        put_action(act.reshape(1, NA), 0, K_SCORE, -1, 0, -1, 0, now[1], now[2], now[3], now[4], 0)
        return
    acts = list_actions(tables, st, occ)
    turns_left = _turns_left_in_round(params, st)
    game_left = _turns_left_in_game(params, st)
    spare = 0
    if single_mode != 0:
        spare = 1
    occ_k = occ[k]
    tmp = np.empty(words, dtype=np.int64)
    best_value = -1e18
    best_i = 0
    # A special action unused at the end is worth nothing, so its price falls as the game runs out.
    special_cost = gw[G_SPECIAL] * min(1.0, game_left / gw[G_SPECIAL_HORIZON]) if game_left > 2 else 0.25
    # Many draws land on the same cells at the same price (the same piece from several cuts or
    # cards): evaluate each (placement, number of specials) once; the first in order keeps ties.
    seen = np.zeros(masks.shape[0], dtype=np.int64)
    values = np.full(acts.shape[0], -1e18)
    costs = np.zeros(acts.shape[0])
    for i in range(acts.shape[0]):
        kind = acts[i, A_KIND]
        if kind == K_SINGLE:
            continue
        if kind == K_DRAW:
            uses = (acts[i, A_NB] != 0) + (acts[i, A_CUT] >= 0) + (acts[i, A_AGAIN] != 0)
            g = acts[i, A_PLACE]
            if (seen[g] >> uses) & 1:
                continue
            seen[g] |= 1 << uses
        for w in range(words):
            tmp[w] = occ_k[w]
        cost = 0.0
        if kind == K_START or kind == K_DRAW:
            g = acts[i, A_PLACE]
            for w in range(words):
                tmp[w] |= masks[g, w]
            if acts[i, A_NB] != 0:
                cost += special_cost
            if acts[i, A_CUT] >= 0:
                cost += special_cost
            if acts[i, A_AGAIN] != 0:
                cost += special_cost
        _rows_of(tmp, width, height, rows)
        value = _evaluate(rows, width, height, pre, turns_left, spare, gw) - cost
        values[i] = value
        costs[i] = cost
        if value > best_value:
            best_value = value
            best_i = i
    depth = int(gw[G_LOOKAHEAD])
    if depth > 0 and turns_left > 0 and (phase == PH_START or phase == PH_TURN):
        best_i = _look_ahead(tables, st, occ_k, acts, values, costs, depth, turns_left, spare, gw, best_i)
    for j in range(NA):
        act[j] = acts[best_i, j]


@njit(cache=True)
def _look_ahead(tables, st, occ_k, acts, values, costs, depth, turns_left, spare, gw, best_i):
    """Re-rank the `depth` best draws by the expected value of the best plain drawing of the
    next turn's card, over the die faces (the circle is known, so the next card is too)."""
    masks = tables.place_masks
    sh_start = tables.shape_first
    sh_count = tables.shape_count
    patch_shape = tables.patch_shape
    die = tables.die
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    words = params[P_WORDS]
    oc = st[S_CIRCLE_AT]
    n = st[S_CIRCLE_LEN]
    if st[S_PHASE] == PH_TURN:
        # The token card leaves the circle; the token stays in its place.
        n_after = n - 1
        nxt = st[S_CUR] % n_after if n_after > 0 else 0
    else:
        n_after = n
        nxt = st[S_NEXT]
    if n_after <= 0:
        return best_i
    nfaces = die.shape[0]
    next_patch = np.empty(nfaces, dtype=np.int64)
    for f in range(nfaces):
        pos = (nxt + die[f] - 1) % n_after
        if st[S_PHASE] == PH_TURN and pos >= st[S_CUR]:
            pos += 1
        next_patch[f] = st[oc + pos]
    rows = np.empty(height, dtype=np.int64)
    pre = np.empty((height + 1, width + 1), dtype=np.int64)
    board = np.empty(words, dtype=np.int64)
    trial = np.empty(words, dtype=np.int64)
    face_value = np.empty(nfaces)
    chosen = np.zeros(acts.shape[0], dtype=np.bool_)
    best_total = -1e18
    result = best_i
    for _ in range(depth):
        top = -1
        for i in range(acts.shape[0]):
            if not chosen[i] and values[i] > -1e17 and (top < 0 or values[i] > values[top]):
                top = i
        if top < 0:
            break
        chosen[top] = True
        for w in range(words):
            board[w] = occ_k[w]
        kind = acts[top, A_KIND]
        if kind == K_START or kind == K_DRAW:
            for w in range(words):
                board[w] |= masks[acts[top, A_PLACE], w]
        total = 0.0
        for f in range(nfaces):
            done = -1
            for e in range(f):
                if next_patch[e] == next_patch[f]:
                    done = e
                    break
            if done >= 0:
                face_value[f] = face_value[done]
                total += face_value[f]
                continue
            shape = patch_shape[next_patch[f]]
            _rows_of(board, width, height, rows)
            best = _evaluate(rows, width, height, pre, turns_left - 1, spare, gw)
            for g in range(sh_start[shape], sh_start[shape] + sh_count[shape]):
                if not fits(masks, g, board, words):
                    continue
                for w in range(words):
                    trial[w] = board[w] | masks[g, w]
                _rows_of(trial, width, height, rows)
                v = _evaluate(rows, width, height, pre, turns_left - 1, spare, gw)
                if v > best:
                    best = v
            face_value[f] = best
            total += best
        total = total / nfaces - costs[top]
        if total > best_total:
            best_total = total
            result = top
    return result


@njit(cache=True)
def choose_greedy(tables, st, occ, bot_rng, act):
    """The strong Doodle bot: every legal draw (whole, cut, neighbour, free pick) is valued one
    ply deep by the coming rectangle, shaded cells, compactness and isolated holes; the ten best
    are then re-ranked by the expected best drawing of the next turn's card over the die faces
    (the circle is open information). SINGLE before a scoring when it completes a better
    rectangle, and always in the last one; always the best rectangle. Deterministic: bot_rng is
    unused (ties go to the first action in canonical order)."""
    choose_greedy_weighted(tables, st, occ, bot_rng, act, GREEDY_WEIGHTS)



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
        choose_greedy(tables, st, occ, rng, act)
        return game.action_of_row(act)


def _factory(edition: Edition, arg: str | None, **options: Any) -> Any:
    if arg:
        raise UsageError(f"the Doodle greedy bot takes no argument, got 'greedy:{arg}'")
    return DoodleGreedyBot()


base.register_bot("greedy", _factory, families=(Family.DOODLE,))
