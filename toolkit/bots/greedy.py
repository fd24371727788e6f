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
The valuation's parts (valuation_start, advance_value, patch_economy, top_placements, top_cells)
are the MCTS bot's too: its candidates (toolkit.bots.mcts) are these values with a patch's few best
placements kept instead of one.
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


@no_alloc(inline="always")
def insert_top(keep_g, keep_v, kept, top_k, g, value):
    """Keep the top_k (item, value) pairs in keep_*[:kept] sorted best first, the earlier of equal
    values ahead (so inserting every item is a stable sort); returns the new kept."""
    if kept == top_k and value <= keep_v[kept - 1]:
        return kept
    i = kept if kept < top_k else top_k - 1
    while i > 0 and keep_v[i - 1] < value:
        keep_g[i] = keep_g[i - 1]
        keep_v[i] = keep_v[i - 1]
        i -= 1
    keep_g[i] = g
    keep_v[i] = value
    return kept + 1 if kept < top_k else kept


@no_alloc(inline="always")
def top_placements(t, q, seat, patch, rows, new_rows, prefix, weights, squares, bonus_open, bonus_bias, top_k,
                   keep_g, keep_v):
    """The top_k free placements of `patch` on seat's quilt by packing score (see placement_score),
    plus `bonus_bias` where one completes the bonus square: rows into keep_g, scores into keep_v,
    best first; returns how many (0: it fits nowhere)."""
    bonus_k = t.params[P_BONUS_SIZE]
    kept = 0
    first = t.place_first[patch]
    for g in range(first, first + t.place_count[patch]):
        value, square = placement_score(t, q, seat, g, rows, new_rows, prefix, weights, squares, bonus_open)
        if square < 0:
            continue
        if bonus_open and square == bonus_k * bonus_k:
            value += bonus_bias
        kept = insert_top(keep_g, keep_v, kept, top_k, g, value)
    return kept


@no_alloc(inline="always")
def top_cells(t, rows, new_rows, weights, counts, bonus_k, bonus_bias, top_k, keep_g, keep_v):
    """The top_k empty cells for a leather patch by packing score (with the bonus square of side
    bonus_k counted; 0: the bonus is gone), plus `bonus_bias` where one completes it: cells into
    keep_g, scores into keep_v, best first; returns how many. Leaves new_rows equal to rows."""
    p = t.params
    width = p[P_WIDTH]
    height = p[P_HEIGHT]
    kept = 0
    for r in range(height):
        new_rows[r] = rows[r]
    for r in range(height):
        for c in range(width):
            bit = np.int64(1) << c
            if rows[r] & bit:
                continue
            new_rows[r] = rows[r] | bit
            value = packing_score(new_rows, width, height, bonus_k, weights, counts)
            if bonus_k > 0 and counts[COUNT_SQUARE] == bonus_k * bonus_k:
                value += bonus_bias
            kept = insert_top(keep_g, keep_v, kept, top_k, r * width + c, value)
        new_rows[r] = rows[r]
    return kept


@no_alloc(inline="always")
def valuation_start(t, s, q, weights, actions, values, rows, counts):
    """What the greedy valuation and the search's candidates (toolkit.bots.mcts) start with:
    (n, seat, bonus open, bonus square side to count, packing score of seat's quilt), with the
    quilt's rows in `rows`. n >= 0 ends the valuation there: 0 when the game is over, 1 when
    it is Automa's turn (its action in actions[0], value 0); -1 when the seat's actions are to
    be valued."""
    p = t.params
    seat = current_player(t, s)
    if seat < 0:
        return 0, seat, False, 0, 0.0
    if s[S_AUTOMA_LEVEL] > 0 and seat == AUTOMA_SEAT and s[S_PENDING_LEATHER] == 0:
        actions[0] = p[P_ACTION_AUTOMA]
        values[0] = 0.0
        return 1, seat, False, 0, 0.0
    width = p[P_WIDTH]
    height = p[P_HEIGHT]
    quilt_rows(q[seat], width, height, rows)
    bonus_k = p[P_BONUS_SIZE]
    bonus_open = bonus_k > 0 and s[S_BONUS_OWNER] < 0
    k = bonus_k if bonus_open else 0
    return -1, seat, bonus_open, k, packing_score(rows, width, height, k, weights, counts)


@no_alloc(inline="always")
def advance_value(t, s, pos, opp, weights):
    """Value of advancing from `pos` past the opponent at `opp`: the buttons it pays less the
    time it spends, and the leather patches picked up on the way."""
    target = min(opp + 1, t.params[P_FINAL])
    return (target - pos) * (1.0 - weights[G_TIME]) + weights[G_LEATHER] * leather_crossed(t, s, pos, target)


@no_alloc(inline="always")
def patch_economy(t, s, patch, pos, opp, ahead, weights):
    """Value of buying `patch` from `pos` (`ahead` income marks still to come), all but how it
    packs and the bonus square: cells covered, income, cost, time, leather on the way, tempo."""
    p = t.params
    end = min(pos + t.time[patch], p[P_FINAL])
    econ = p[P_PENALTY] * t.size[patch] + weights[G_INCOME] * t.income[patch] * ahead
    econ += -t.cost[patch] - weights[G_TIME] * (end - pos) + weights[G_LEATHER] * leather_crossed(t, s, pos, end)
    if end < opp:
        econ += weights[G_TEMPO]
    return econ


@no_alloc
def action_values(t, s, q, weights, actions, values, rows, new_rows, prefix, counts, squares, keep_g, keep_v):
    """Value every candidate action of the player to move (one per buyable window patch at its
    best placement, plus advance; or the best cell of a pending leather patch) into
    actions[:n], values[:n]; returns n (0 when the game is over)."""
    n, seat, bonus_open, k, base = valuation_start(t, s, q, weights, actions, values, rows, counts)
    if n >= 0:
        return n
    p = t.params
    full = k * k
    pack = weights[G_PACK]
    if s[S_PENDING_LEATHER] > 0:
        cell = -1
        value = -1e18
        square = 0
        if top_cells(t, rows, new_rows, weights, counts, k, 0.0, 1, keep_g, keep_v) > 0:
            cell = keep_g[0]
            value = keep_v[0]
            if bonus_open:  # does the best cell complete the bonus square?
                r = cell // p[P_WIDTH]
                new_rows[r] = rows[r] | (np.int64(1) << (cell - r * p[P_WIDTH]))
                packing_score(new_rows, p[P_WIDTH], p[P_HEIGHT], k, weights, counts)
                new_rows[r] = rows[r]
                square = counts[COUNT_SQUARE]
        actions[0] = p[P_ACTION_LEATHER] + cell
        values[0] = p[P_PENALTY] + pack * (value - base)
        if bonus_open and square == full:
            values[0] += p[P_BONUS_POINTS]
        return 1
    pos = s[S_POS + seat]
    opp = s[S_POS + 1 - seat]
    actions[0] = ADVANCE
    values[0] = advance_value(t, s, pos, opp, weights)
    n = 1
    buttons = s[S_BUTTONS + seat]
    ahead = marks_ahead(t, pos)
    row_prefix(rows, p[P_WIDTH], p[P_HEIGHT], weights, prefix)
    if bonus_open:
        square_counts(q[seat], t.bonus_masks, squares)
    for j in range(window_size(t, s)):
        patch = s[S_CIRCLE + j]
        if t.cost[patch] > buttons:
            continue
        if top_placements(t, q, seat, patch, rows, new_rows, prefix, weights, squares, bonus_open, 0.0, 1,
                          keep_g, keep_v) == 0:
            continue
        g = keep_g[0]
        v = patch_economy(t, s, patch, pos, opp, ahead, weights) + pack * (keep_v[0] - base)
        if bonus_open and fullest_square_with(squares, t.bonus_masks, t.place_masks[g]) == full:
            v += p[P_BONUS_POINTS]
        actions[n] = 1 + g
        values[n] = v
        n += 1
    return n


@no_alloc
def choose_with(t, s, q, rng, weights, actions, values, rows, new_rows, prefix, counts, squares, keep_g, keep_v):
    """`choose` with caller-owned scratch (for callers that choose many times, e.g. rollouts)."""
    n = action_values(t, s, q, weights, actions, values, rows, new_rows, prefix, counts, squares, keep_g, keep_v)
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
def valuation_scratch(t, size, top_k):
    """Scratch for a valuation's actions and values (`size` of each) and its placement and
    packing work, with room for `top_k` placements a patch: the arguments of action_values (and
    of toolkit.bots.mcts.candidates) after the weights (and top_k), in their order."""
    return (
        np.empty(size, dtype=np.int64),
        np.empty(size, dtype=np.float64),
        np.zeros(MAX_ROWS, dtype=np.int64),
        np.zeros(MAX_ROWS, dtype=np.int64),
        np.zeros(MAX_ROWS + 1, dtype=np.float64),
        np.zeros(N_COUNTS, dtype=np.int64),
        np.zeros(max(t.bonus_masks.shape[0], 1), dtype=np.int64),
        np.empty(top_k, dtype=np.int64),
        np.empty(top_k, dtype=np.float64),
    )


@njit(cache=True)
def choose_scratch(t):
    """The scratch arrays of `choose_with`, for callers that allocate them once."""
    return valuation_scratch(t, 2 + t.params[P_WINDOW], 1)


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
