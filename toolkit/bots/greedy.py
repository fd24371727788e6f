"""The `greedy` bot of the time-track games: the best action one ply ahead by a value heuristic.

Every buyable patch of the market window is valued as

    penalty * size                       cells it covers are points not lost at the end
  + income * income marks still ahead    the buttons it will pay
  - cost                                 buttons paid now
  - time value * spaces it costs         what advancing instead would have earned
  + leather patches picked up on the way
  + packing weight * (how much better or worse packed the quilt is with it)
  + bonus points when it completes the bonus square first

at its best placement: every legal placement is scored by `toolkit.bots.packing`, so the bot
lays patches against the edge and each other and avoids leaving holes only leather can fill.
Advancing is valued as the buttons it pays minus the time it spends. A pending leather patch goes
on the cell that packs the quilt best, usually a hole. Exact ties are broken by the bot's own
generator, so the same seed gives the same choices.

`choose(t, s, q, rng, weights) -> action` is the compiled entry point, called with the kernel's
tables, state and quilts; `choose_with(..., *choose_scratch(t))` is the same choice with scratch
allocated once (the simulator's turn loop); `GreedyBot` is the Python face (toolkit.bots.registry
builds it as `greedy`).
`WEIGHTS` holds the tuned weights; `G_*` name the entries that follow the packing weights.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from toolkit.jit import njit, no_alloc

from toolkit.bots.packing import (
    COUNT_SQUARE,
    DEFAULT_PACK_WEIGHTS,
    MAX_ROWS,
    N_COUNTS,
    N_PACK_WEIGHTS,
    PACK_BONUS,
    fullest_square_with,
    packing_score,
    quilt_rows,
    shape_rows,
    square_counts,
)
from toolkit.errors import UsageError
from toolkit.games.rng import randbelow
from toolkit.games.timetrack.kernel import (
    ADVANCE,
    AUTOMA_SEAT,
    S_AUTOMA_LEVEL,
    S_BONUS_OWNER,
    S_BUTTONS,
    S_CIRCLE,
    S_LEATHER_LEFT,
    S_PENDING_LEATHER,
    S_POS,
    current_player,
    fits,
    window_size,
)
from toolkit.games.timetrack.tables import (
    P_ACTION_AUTOMA,
    P_ACTION_LEATHER,
    P_BONUS_POINTS,
    P_BONUS_SIZE,
    P_FINAL,
    P_HEIGHT,
    P_PENALTY,
    P_WIDTH,
    P_WINDOW,
)

# ----- greedy's own weights, after the packing weights (toolkit.bots.packing.PACK_*) -----------
G_TIME = N_PACK_WEIGHTS
"""Buttons one space of time is worth."""
G_PACK = N_PACK_WEIGHTS + 1
"""Multiplier on the change of the packing score."""
G_INCOME = N_PACK_WEIGHTS + 2
"""Multiplier on the buttons a patch's income will still pay."""
G_LEATHER = N_PACK_WEIGHTS + 3
"""Value of a leather patch picked up on the way."""
G_TEMPO = N_PACK_WEIGHTS + 4
"""Value of ending the move still behind the opponent (another turn before they move)."""
N_WEIGHTS = N_PACK_WEIGHTS + 5

WEIGHTS = np.concatenate([DEFAULT_PACK_WEIGHTS, np.array([2.0, 0.5, 1.0, 3.0, 0.0])])
"""The tuned weights of the `greedy` bot."""


@no_alloc
def marks_ahead(t, pos):
    """Income marks strictly after space `pos` (the ones a patch bought now will still pay at)."""
    final = t.params[P_FINAL]
    n = 0
    for space in range(pos + 1, final + 1):
        n += t.income_flag[space]
    return n


@no_alloc
def leather_crossed(t, s, start, end):
    """Leather patches still on the time board on spaces start < space <= end."""
    n = 0
    for space in range(start + 1, end + 1):
        li = t.leather_at[space]
        if li >= 0 and s[S_LEATHER_LEFT + li] != 0:
            n += 1
    return n


@no_alloc
def row_prefix(rows, width, height, weights, prefix):
    """prefix[r] = the shape score owed to rows 0 .. r-1 of `rows` (prefix[height] = the total)."""
    prefix[0] = 0.0
    for r in range(height):
        prefix[r + 1] = prefix[r] + shape_rows(rows, width, height, r, r, weights)


@no_alloc
def placement_score(t, q, seat, g, rows, new_rows, prefix, weights, squares, bonus_open):
    """(packing score, fullest bonus square) of global placement `g` on seat's quilt: `rows`
    (with its row_prefix in `prefix`) and, while the bonus is open, its per-square counts
    `squares`. Score -1e18 when the placement overlaps the quilt. Only the rows the patch
    touches, and their neighbours, are rescored, from the placement's rows in the tables."""
    p = t.params
    width = p[P_WIDTH]
    height = p[P_HEIGHT]
    if not fits(t, q, seat, g):
        return -1e18, -1
    top = t.place_top[g]
    span = t.place_span[g]
    lo = max(top - 1, 0)
    hi = min(top + span + 1, height - 1)
    # shape_rows(lo..hi) reads rows lo-2 .. hi+1: those are the quilt's, with the patch's cells.
    for r in range(max(lo - 2, 0), min(hi + 2, height)):
        new_rows[r] = rows[r]
    for i in range(span):
        new_rows[top + i] |= t.place_rows[g, i]
    value = prefix[height] - (prefix[hi + 1] - prefix[lo]) + shape_rows(new_rows, width, height, lo, hi, weights)
    square = 0
    if bonus_open:
        square = fullest_square_with(squares, t.bonus_masks, t.place_masks[g])
        value += weights[PACK_BONUS] * square
    return value, square


@no_alloc
def best_placement(t, q, seat, patch, rows, new_rows, prefix, weights, squares, bonus_open):
    """(placement row, packing score, fullest bonus square) of the best free placement of
    `patch` on seat's quilt (see placement_score); row -1 when the patch fits nowhere."""
    first = t.place_first[patch]
    best_g = -1
    best_value = -1e18
    best_square = 0
    for g in range(first, first + t.place_count[patch]):
        value, square = placement_score(t, q, seat, g, rows, new_rows, prefix, weights, squares, bonus_open)
        if square < 0:
            continue
        if value > best_value:
            best_value = value
            best_g = g
            best_square = square
    return best_g, best_value, best_square


@no_alloc
def best_leather_cell(t, rows, new_rows, weights, counts, bonus_k):
    """(cell, packing score, fullest bonus square) of the best empty cell for a leather patch."""
    p = t.params
    width = p[P_WIDTH]
    height = p[P_HEIGHT]
    best_cell = -1
    best_value = -1e18
    best_square = 0
    for r in range(height):
        new_rows[r] = rows[r]
    for r in range(height):
        for c in range(width):
            bit = np.int64(1) << c
            if rows[r] & bit:
                continue
            new_rows[r] = rows[r] | bit
            value = packing_score(new_rows, width, height, bonus_k, weights, counts)
            if value > best_value:
                best_value = value
                best_cell = r * width + c
                best_square = counts[COUNT_SQUARE]
        new_rows[r] = rows[r]
    return best_cell, best_value, best_square


@no_alloc
def action_values(t, s, q, weights, actions, values, rows, new_rows, prefix, counts, squares):
    """Value every candidate action of the player to move (one per buyable window patch at its
    best placement, plus advance; or the best cell of a pending leather patch) into
    actions[:n], values[:n]; returns n (0 when the game is over)."""
    p = t.params
    seat = current_player(t, s)
    if seat < 0:
        return 0
    if s[S_AUTOMA_LEVEL] > 0 and seat == AUTOMA_SEAT and s[S_PENDING_LEATHER] == 0:
        actions[0] = p[P_ACTION_AUTOMA]
        values[0] = 0.0
        return 1
    width = p[P_WIDTH]
    height = p[P_HEIGHT]
    quilt_rows(q[seat], width, height, rows)
    bonus_k = p[P_BONUS_SIZE]
    bonus_open = bonus_k > 0 and s[S_BONUS_OWNER] < 0
    k = bonus_k if bonus_open else 0
    base = packing_score(rows, width, height, k, weights, counts)
    pack = weights[G_PACK]
    if s[S_PENDING_LEATHER] > 0:
        cell, value, square = best_leather_cell(t, rows, new_rows, weights, counts, k)
        actions[0] = p[P_ACTION_LEATHER] + cell
        values[0] = p[P_PENALTY] + pack * (value - base)
        if bonus_open and square == bonus_k * bonus_k:
            values[0] += p[P_BONUS_POINTS]
        return 1
    final = p[P_FINAL]
    pos = s[S_POS + seat]
    opp = s[S_POS + 1 - seat]
    time_value = weights[G_TIME]
    leather_value = weights[G_LEATHER]
    target = min(opp + 1, final)
    actions[0] = ADVANCE
    values[0] = (target - pos) * (1.0 - time_value) + leather_value * leather_crossed(t, s, pos, target)
    n = 1
    buttons = s[S_BUTTONS + seat]
    ahead = marks_ahead(t, pos)
    row_prefix(rows, width, height, weights, prefix)
    if bonus_open:
        square_counts(q[seat], t.bonus_masks, squares)
    for j in range(window_size(t, s)):
        patch = s[S_CIRCLE + j]
        if t.cost[patch] > buttons:
            continue
        g, value, square = best_placement(t, q, seat, patch, rows, new_rows, prefix, weights, squares, bonus_open)
        if g < 0:
            continue
        end = min(pos + t.time[patch], final)
        v = p[P_PENALTY] * t.size[patch] + weights[G_INCOME] * t.income[patch] * ahead
        v += -t.cost[patch] - time_value * (end - pos) + pack * (value - base)
        v += leather_value * leather_crossed(t, s, pos, end)
        if end < opp:
            v += weights[G_TEMPO]
        if bonus_open and square == bonus_k * bonus_k:
            v += p[P_BONUS_POINTS]
        actions[n] = 1 + g
        values[n] = v
        n += 1
    return n


@no_alloc
def choose_with(t, s, q, rng, weights, actions, values, rows, new_rows, prefix, counts, squares):
    """`choose` with caller-owned scratch (for callers that choose many times, e.g. rollouts)."""
    n = action_values(t, s, q, weights, actions, values, rows, new_rows, prefix, counts, squares)
    if n == 0:
        return -1
    best = 0
    ties = 1
    for i in range(1, n):
        if values[i] > values[best] + 1e-9:
            best = i
            ties = 1
        elif values[i] > values[best] - 1e-9:
            ties += 1
            # Reservoir choice among equal values: each tied action equally likely.
            if randbelow(rng, ties) == 0:
                best = i
    return actions[best]


@njit(cache=True)
def choose_scratch(t):
    """The scratch arrays of `choose_with`, for callers that allocate them once."""
    return (
        np.empty(2 + t.params[P_WINDOW], dtype=np.int64),
        np.empty(2 + t.params[P_WINDOW], dtype=np.float64),
        np.zeros(MAX_ROWS, dtype=np.int64),
        np.zeros(MAX_ROWS, dtype=np.int64),
        np.zeros(MAX_ROWS + 1, dtype=np.float64),
        np.zeros(N_COUNTS, dtype=np.int64),
        np.zeros(max(t.bonus_masks.shape[0], 1), dtype=np.int64),
    )


def choose(t, s, q, rng, weights):
    """The greedy action of the player to move (-1 when the game is over).

    t, s, q: the time-track kernel's tables, state and quilts; rng: the bot's own generator
    (int64[4], only used to break exact ties); weights: float64[N_WEIGHTS], normally WEIGHTS.
    Plain Python over the compiled `choose_with`: a compiled wrapper would compile it all again."""
    return choose_with(t, s, q, rng, weights, *choose_scratch(t))


class GreedyBot:
    """The greedy bot for a validated time-track game (toolkit.games.timetrack.TimeTrackGame)."""

    name = "greedy"
    game_options: dict[str, Any] = {}
    seat = None

    def __init__(self, weights: np.ndarray | None = None):
        self.weights = np.ascontiguousarray(WEIGHTS if weights is None else weights, dtype=np.float64)
        if self.weights.shape != (N_WEIGHTS,):
            raise UsageError(f"greedy weights must be {N_WEIGHTS} numbers, got shape {self.weights.shape}")

    def choose(self, game: Any, rng: np.ndarray) -> Any:
        code = int(choose(game.tables.arrays, game.state, game.quilts, rng, self.weights))
        if code < 0:
            raise UsageError("the greedy bot was asked to move in a finished game")
        return game.decode(code)
