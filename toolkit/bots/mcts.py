"""The `mcts:N` bot of the time-track games: UCT search over the kernel, N iterations per move.

The search tree lives in pre-allocated arrays (no Python object per node), all compiled:
- Nodes hold their action, parent, children range, visits, summed value and the seat that moved
  into them. The turn order is the kernel's (`current_player`), so a seat may move several times
  in a row and the tree simply follows it.
- A node's game state is materialised once, when the search first reaches it: its parent's
  state and quilts are copied into the node's slot and the node's action applied. Chance inside
  the search (the Express late-patch shuffle, the Automa deck) is drawn from the bot's generator,
  one sample per node.
- Action reduction: a node's children are advance plus, for each buyable patch of the market
  window, only its `top_k` best placements by the packing score (toolkit.bots.packing), and for a
  pending leather patch the `top_k` best cells. This keeps the branching factor near ten while
  keeping every placement a good player would consider. Children are tried in the order of the
  greedy bot's values before UCT takes over. A node's children are listed when the search comes
  back to it, not when it is first valued: most nodes are valued once and never need them, and
  listing them (every placement of the window scored) cost as much as the playout.
- A new node is valued by mixing two estimates of seat 0's chance to win: a static evaluation
  (each seat's buttons, the income still to come, the points lost to empty cells, the time left
  on the track, the bonus tile and how well the quilt is packed; the difference goes through a
  logistic curve) and the result of one random playout to the end (`rollout`: advance or an
  affordable window patch, equally likely, at a random free placement).
  The evaluation knows what a position is worth on average; the playout sees how the remaining
  patches and the track actually fall. Half and half (`M_ROLLOUT` = 0.5) beat either alone in
  seat-swapped matches against greedy at equal budgets (measured with the kernel's uniform random
  playouts, before this policy). Finished games are valued exactly.
- The move played is the most visited child of the root.

A budget is either a number of iterations (`mcts:2000`, reproducible: same seed, same game) or a
time per move (`mcts:0.5s`): the search then runs until that much wall-clock time has passed, so
how far it gets depends on the machine and its load, and a game is not reproducible. In the
compiled entry points a time budget travels as a negative `iterations`: -microseconds per move.

On several threads (`MctsBot(..., threads=N)`, `mcts:0.5s` with `--threads N`) the threads grow
one shared tree (`shared_root`, `shared_search`, driven by `SharedSearch`; one thread grows the
same tree alone, `search_root`, so both run the one descent and backup): a spin lock guards the
tree, the costly steps run outside it, and a thread counts its visit on the way down before the
value comes back (virtual loss), so the threads spread over different lines. Independent trees
on each thread with their root visits added up (root parallel, tried first) were no stronger than
one tree: 48.8 % of 400 seat-swapped games for 2 x 200 iterations against 200 on one thread, where
the shared tree wins 60.0 % (and 67.0 % for 2 x 1000 against 1000; docs/figures-speed.md).

`search_root` is the compiled search; `choose(t, s, q, rng, iterations) -> action` is its face for
a move, `choose_tuned(..., params)` takes the search parameters (`M_*`, `PARAMS` are the tuned values);
`MctsBot` is the Python face (toolkit.bots.registry builds it from `mcts:2000`).
"""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils

from toolkit.jit import intrinsic, jit_disabled, njit, no_alloc

from toolkit.bots.registry import (MAX_MCTS_ITERATIONS, MAX_SECONDS, MAX_THREADS, MIN_SECONDS,  # noqa: F401
                                   budget_name, time_budget)
from toolkit.bots.greedy import (
    G_PACK,
    WEIGHTS as GREEDY_WEIGHTS,
    advance_value,
    insert_top,
    marks_ahead,
    patch_economy,
    row_prefix,
    top_cells,
    top_placements,
    valuation_scratch,
    valuation_start,
)
from toolkit.bots.packing import (
    packing_score,
    quilt_rows,
    square_counts,
)
from toolkit.errors import UsageError
from toolkit.games.rng import next_u32, randbelow
from toolkit.games.timetrack import kernel as k
from toolkit.games.timetrack.kernel import (
    ADVANCE,
    AUTOMA_SEAT,
    S_AUTOMA_LEVEL,
    S_BONUS_OWNER,
    S_BUTTONS,
    S_CIRCLE,
    S_FILLED,
    S_INCOME,
    S_PENDING_LEATHER,
    S_PENDING_PLAYER,
    S_POS,
    STATE_SIZE,
)
from toolkit.games.timetrack.tables import (
    P_ACTION_LEATHER,
    P_ACTIONS,
    P_BONUS_POINTS,
    P_CELLS,
    P_FINAL,
    P_HEIGHT,
    P_PENALTY,
    P_WIDTH,
    P_WINDOW,
)

# ----- search parameters ---------------------------------------------------------------------
M_EXPLORE = 0
"""UCT exploration constant."""
M_TOP_K = 1
"""Placements kept per patch (and cells per leather patch)."""
M_TIME_LEFT = 2
"""Points one space of time still ahead is worth in the static evaluation."""
M_SHAPE = 3
"""Multiplier on the packing score in the static evaluation."""
M_SCALE = 4
"""Points of evaluated margin that make a 73% (logistic 1) win probability."""
M_INCOME = 5
"""Multiplier on the income still to come in the static evaluation."""
M_ROLLOUT = 6
"""Share of a new node's value that comes from a random playout to the end (0: static
evaluation only, 1: playout only)."""
N_PARAMS = 7

PARAMS = np.array([0.7, 2.0, 2.0, 1.0, 6.0, 1.0, 0.5], dtype=np.float64)
"""The tuned search parameters."""

DEFAULT_ITERATIONS = 1000
MAX_ITERATIONS = MAX_MCTS_ITERATIONS
"""The search keeps every node's state: about 3 KB per iteration, so 200,000 is some 600 MB."""
MAX_TIMED_ITERATIONS = 100_000
"""Iterations a time budget may reach at most (memory is committed only as the tree grows)."""
_CLOCK_ID = int(getattr(time, "CLOCK_MONOTONIC", 1))
_CHECK_EVERY = 8
"""Iterations between two looks at the clock."""


@intrinsic
def monotonic_ns(typingctx):
    """Nanoseconds of the monotonic clock (libc clock_gettime), callable from compiled code."""

    def codegen(context, builder, signature, args):
        i64, i32 = ir.IntType(64), ir.IntType(32)
        timespec = ir.LiteralStructType([i64, i64])
        ts = cgutils.alloca_once(builder, timespec)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i32, [i32, timespec.as_pointer()]),
                                            "clock_gettime")
        builder.call(fn, [ir.Constant(i32, _CLOCK_ID), ts])
        sec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
        nsec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
        return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)

    return types.int64(), codegen


# ----- candidate actions ----------------------------------------------------------------------


@no_alloc
def candidates(t, s, q, weights, top_k, actions, priors, rows, new_rows, prefix, counts, squares, keep_g, keep_v):
    """The reduced action set of the player to move with the greedy bot's value of each, into
    actions[:n] / priors[:n] sorted best first; returns n (0 when the game is over). The values
    are the greedy bot's (toolkit.bots.greedy), with a patch's or leather patch's `top_k` best
    placements kept instead of one and the bonus square counted in choosing them."""
    n, seat, bonus_open, kk, base = valuation_start(t, s, q, weights, actions, priors, rows, counts)
    if n >= 0:
        return n
    p = t.params
    pack = weights[G_PACK]
    bonus_bias = p[P_BONUS_POINTS] / pack if pack > 0 else 0.0
    if s[S_PENDING_LEATHER] > 0:
        kept = top_cells(t, rows, new_rows, weights, counts, kk, bonus_bias, top_k, keep_g, keep_v)
        for i in range(kept):
            actions[i] = p[P_ACTION_LEATHER] + keep_g[i]
            priors[i] = p[P_PENALTY] + pack * (keep_v[i] - base)
        return kept
    pos = s[S_POS + seat]
    opp = s[S_POS + 1 - seat]
    room = actions.shape[0]
    n = insert_top(actions, priors, 0, room, ADVANCE, advance_value(t, s, pos, opp, weights))
    buttons = s[S_BUTTONS + seat]
    ahead = marks_ahead(t, pos)
    row_prefix(rows, p[P_WIDTH], p[P_HEIGHT], weights, prefix)
    if bonus_open:
        square_counts(q[seat], t.bonus_masks, squares)
    for j in range(k.window_size(t, s)):
        patch = s[S_CIRCLE + j]
        if t.cost[patch] > buttons:
            continue
        econ = patch_economy(t, s, patch, pos, opp, ahead, weights)
        kept = top_placements(t, q, seat, patch, rows, new_rows, prefix, weights, squares, bonus_open, bonus_bias,
                              top_k, keep_g, keep_v)
        for i in range(kept):  # best first, the earlier of equal priors ahead
            n = insert_top(actions, priors, n, room, 1 + keep_g[i], econ + pack * (keep_v[i] - base))
    return n


# ----- static evaluation ----------------------------------------------------------------------


@no_alloc
def seat_estimate(t, s, q, seat, weights, params, rows, counts):
    """Points seat can expect at the end, judged from the state as it stands."""
    p = t.params
    final = p[P_FINAL]
    level = s[S_AUTOMA_LEVEL]
    pos = s[S_POS + seat]
    if level > 0 and seat == AUTOMA_SEAT:
        return k.score(t, s, seat) + params[M_TIME_LEFT] * 0.5 * (final - pos)
    est = float(s[S_BUTTONS + seat])
    est += params[M_INCOME] * s[S_INCOME + seat] * marks_ahead(t, pos)
    empty = p[P_CELLS] - s[S_FILLED + seat]
    if s[S_PENDING_LEATHER] > 0 and s[S_PENDING_PLAYER] == seat:
        empty -= s[S_PENDING_LEATHER]
    est -= p[P_PENALTY] * empty
    est += params[M_TIME_LEFT] * (final - pos)
    if s[S_BONUS_OWNER] == seat:
        est += p[P_BONUS_POINTS]
    quilt_rows(q[seat], p[P_WIDTH], p[P_HEIGHT], rows)
    est += params[M_SHAPE] * packing_score(rows, p[P_WIDTH], p[P_HEIGHT], 0, weights, counts)
    return est


@no_alloc
def evaluate(t, s, q, weights, params, rows, counts):
    """Seat 0's chance of winning, in [0, 1]: exact when the game is over, else estimated."""
    if k.is_over(t, s):
        return k.seat0_result(t, s)
    margin = seat_estimate(t, s, q, 0, weights, params, rows, counts) - seat_estimate(
        t, s, q, 1, weights, params, rows, counts
    )
    return 1.0 / (1.0 + np.exp(-margin / params[M_SCALE]))


# ----- playouts -------------------------------------------------------------------------------
# A playout plays both seats with a cheap random policy: advance or one of the affordable window
# patches, each equally likely, at a random placement where it fits. The kernel's random_action
# draws uniformly over every legal action instead, so a patch with hundreds of free placements all
# but always beats advancing, and it counts every free placement of the window on every move;
# this policy plays more like a game (it advances about as often as it buys) and costs a third
# of it. The actions it may play are exactly the kernel's legal actions (rollout_support; tested).


@no_alloc
def _plain_turn(t, s, seat):
    """The seat buys or advances (no leather patch pending, not Automa's turn): the turns whose
    legal actions are advance and every free placement of an affordable window patch."""
    return seat >= 0 and s[S_PENDING_LEATHER] == 0 and not (s[S_AUTOMA_LEVEL] > 0 and seat == AUTOMA_SEAT)


@no_alloc
def _affordable(t, s, seat, out):
    """The window patches the seat can pay for, into out; returns how many."""
    buttons = s[S_BUTTONS + seat]
    m = 0
    for j in range(k.window_size(t, s)):
        patch = s[S_CIRCLE + j]
        if t.cost[patch] <= buttons:
            out[m] = patch
            m += 1
    return m


@no_alloc
def _free_placement(t, q, seat, patch, rng):
    """A placement row of patch that fits seat's quilt (-1: none): a few random rows first, then
    the first free row from a random start."""
    count = t.place_count[patch]
    first = t.place_first[patch]
    for _ in range(4):
        g = first + randbelow(rng, count)
        if k.fits(t, q, seat, g):
            return g
    start = randbelow(rng, count)
    for i in range(count):
        g = first + start + i
        if g >= first + count:
            g -= count
        if k.fits(t, q, seat, g):
            return g
    return -1


@no_alloc
def rollout_action(t, s, q, rng, scratch):
    """The playout policy's action (see above); leather and Automa turns ask the kernel's
    random_action."""
    seat = k.current_player(t, s)
    if not _plain_turn(t, s, seat):
        return k.random_action(t, s, q, rng, scratch)
    m = _affordable(t, s, seat, scratch)
    while m > 0:
        r = randbelow(rng, m + 1)
        if r == 0:
            return ADVANCE
        g = _free_placement(t, q, seat, scratch[r - 1], rng)
        if g >= 0:
            return 1 + g
        # Fits nowhere: drop it and draw again.
        scratch[r - 1] = scratch[m - 1]
        m -= 1
    return ADVANCE


@no_alloc
def rollout_support(t, s, q, out):
    """Every action rollout_action may play, into out in the kernel's legal_actions order;
    returns how many (the tests compare it with legal_actions)."""
    seat = k.current_player(t, s)
    if not _plain_turn(t, s, seat):
        return k.legal_actions(t, s, q, out)
    out[0] = ADVANCE
    n = 1
    buttons = s[S_BUTTONS + seat]
    for j in range(k.window_size(t, s)):
        patch = s[S_CIRCLE + j]
        if t.cost[patch] <= buttons:
            first = t.place_first[patch]
            for g in range(first, first + t.place_count[patch]):
                if k.fits(t, q, seat, g):
                    out[n] = 1 + g
                    n += 1
    return n


@no_alloc
def rollout(t, s, q, rng, scratch):
    """rollout_action until the game ends."""
    while not k.is_over(t, s):
        k.apply(t, s, q, rollout_action(t, s, q, rng, scratch), rng)


# ----- the search -----------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def search_root(t, s, q, rng, iterations, weights, params, visits_out, actions_out):
    """Run `iterations` UCT iterations from (s, q), or for negative `iterations` as many as fit in
    -iterations microseconds; returns the chosen action (-1 if the game is over). The root's
    i-th candidate's visits go to visits_out[i] and its action to actions_out[i] (as far as they
    reach). Releases the GIL, so other threads (another bot, a progress bar) run meanwhile.

    The tree is the shared tree's (shared_root, shared_search), grown by this thread alone: with
    no other thread its lock is never contended, and the descent, listing and backup are the
    same code on one thread as on several."""
    deadline = -1
    if iterations < 0:
        deadline = monotonic_ns() - iterations * 1000
        iterations = MAX_TIMED_ITERATIONS
    top_k = max(int(params[M_TOP_K]), 1)
    capacity = (iterations + 1) * (1 + t.params[P_WINDOW] * top_k + top_k) + 1
    slots = iterations + 2
    nodes = np.empty((N_FIELDS, capacity), dtype=np.int64)
    value = np.empty(capacity, dtype=np.float64)
    states = np.empty((slots, STATE_SIZE), dtype=np.int64)
    quilts = np.empty((slots, 2, q.shape[1]), dtype=np.uint64)
    shared = np.zeros(T_FIELDS, dtype=np.int64)
    n = shared_root(t, s, q, weights, params, nodes, value, states, quilts, shared)
    if n <= 1:  # over, or a forced move: nothing to search
        return -1 if n == 0 else nodes[N_ACTION, 1]
    shared_search(t, rng, iterations, deadline, weights, params, nodes, value, states, quilts, shared)
    first = nodes[N_FIRST, 0]
    best = first
    for i in range(n):
        c = first + i
        if i < visits_out.shape[0]:
            visits_out[i] = nodes[N_VISITS, c]
        if i < actions_out.shape[0]:
            actions_out[i] = nodes[N_ACTION, c]
        if nodes[N_VISITS, c] > nodes[N_VISITS, best]:
            best = c
    return nodes[N_ACTION, best]


# The three entry points below are plain Python over the one compiled search: numba compiles the
# whole closure of every compiled function again (the search, the greedy valuation, the rules),
# so each compiled wrapper would cost as much to compile as the search itself.

def search(t, s, q, rng, iterations, weights, params, visits_out):
    """`search_root` without the candidates' actions (tests and reports)."""
    return search_root(t, s, q, rng, iterations, weights, params, visits_out, np.zeros(0, dtype=np.int64))


def choose_tuned(t, s, q, rng, iterations, weights, params):
    """`choose` with explicit greedy weights (for the candidate order and packing) and search
    parameters (float64[N_PARAMS])."""
    nothing = np.zeros(0, dtype=np.int64)
    return search_root(t, s, q, rng, iterations, weights, params, nothing, nothing)


def choose(t, s, q, rng, iterations):
    """The MCTS action of the player to move after `iterations` UCT iterations (-1 when over).

    t, s, q: the time-track kernel's tables, state and quilts (left unchanged); rng: the bot's
    own generator (int64[4]; ties and the search's chance events draw from it). The simulator's
    turn loop calls `search_root` with the same arrays."""
    return choose_tuned(t, s, q, rng, iterations, GREEDY_WEIGHTS, PARAMS)


# ----- the shared tree (one thread or several) ----------------------------------------------------
# The threads grow one tree (search_root is one thread growing it alone). A spin lock (one int64,
# swapped atomically) guards the tree's shape and statistics: selection, listing a node's new
# children into the arrays, materialising a new node's state and the backup happen under it; the
# two costly steps, listing a node's candidates (every placement of the window scored) and valuing
# a new node (evaluation and playout), run outside it. A thread descending through a node counts
# the visit at once with no value yet (a virtual loss), so the next thread sees that line as worse
# and searches another until the value arrives.

# One row of `nodes` per field, one column per node (nodes[N_VISITS, c]): a node's children are
# neighbours, so selection reads their visits from a cache line or two.
N_ACTION = 0
N_PARENT = 1
N_FIRST = 2
"""First child's column."""
N_CHILDREN = 3
"""Children listed: -1 not yet, -2 being listed by a thread, else how many."""
N_VISITS = 4
"""Visits, the ones still waiting for their value included."""
N_MOVER = 5
N_SLOT = 6
"""Row of the node's state in `states` (-1: not materialised yet)."""
N_FIELDS = 7

# `shared`: the lock and the tree's two allocation counters.
T_LOCK = 0
T_NODES = 1
T_SLOTS = 2
T_FIELDS = 3
_SPINS = 64
"""Failed tries at the lock before the thread gives its core away for a moment."""


@intrinsic
def _atomic_swap(typingctx, array, index, new):
    """array[index] = new, atomically; returns the old value (int64 arrays)."""

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, array_type, view, [args[1]], wraparound=False)
        return builder.atomic_rmw("xchg", ptr, args[2], "seq_cst")

    return types.int64(array, types.int64, types.int64), codegen


@intrinsic
def _sched_yield(typingctx):
    """Give the core to another thread for a moment (libc sched_yield)."""

    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i32, []), "sched_yield")
        builder.call(fn, [])
        return context.get_dummy_value()

    return types.void(), codegen



def _swap_in_python(array, index, new):
    """atomic_swap when numba's JIT is disabled (NUMBA_DISABLE_JIT: the searches run as plain
    Python, e.g. to check that they choose as the compiled ones do)."""
    with _PYTHON_LOCK:
        old = int(array[index])
        array[index] = new
        return old


def _yield_in_python():
    time.sleep(0)


_PYTHON_LOCK = threading.Lock()
atomic_swap = _swap_in_python if jit_disabled() else _atomic_swap
sched_yield = _yield_in_python if jit_disabled() else _sched_yield


@no_alloc
def _lock(shared):
    spins = 0
    while atomic_swap(shared, T_LOCK, 1) != 0:
        spins += 1
        if spins >= _SPINS:
            sched_yield()
            spins = 0


@no_alloc
def _unlock(shared):
    atomic_swap(shared, T_LOCK, 0)


@no_alloc
def _list_children(nodes, value, shared, node, n, seat, cand_a):
    """Append n children of node (actions cand_a[:n]) to the tree; the lock is held."""
    first = shared[T_NODES]
    for i in range(n):
        c = first + i
        nodes[N_ACTION, c] = cand_a[i]
        nodes[N_PARENT, c] = node
        nodes[N_FIRST, c] = 0
        nodes[N_CHILDREN, c] = -1
        nodes[N_VISITS, c] = 0
        nodes[N_MOVER, c] = seat
        nodes[N_SLOT, c] = -1
        value[c] = 0.0
    shared[T_NODES] = first + n
    nodes[N_FIRST, node] = first
    nodes[N_CHILDREN, node] = n


@njit(cache=True, nogil=True)
def shared_root(t, s, q, weights, params, nodes, value, states, quilts, shared):
    """Start a shared tree at (s, q): the root and its children; returns how many children
    (0: the game is over; 1: a forced move, nodes[N_ACTION, 1])."""
    p = t.params
    top_k = max(int(params[M_TOP_K]), 1)
    max_children = 1 + p[P_WINDOW] * top_k + top_k
    cand_a, cand_v, rows, new_rows, prefix, counts, squares, keep_g, keep_v = valuation_scratch(t, max_children, top_k)
    shared[T_LOCK] = 0
    shared[T_NODES] = 1
    shared[T_SLOTS] = 1
    states[0, :] = s
    quilts[0, :, :] = q
    nodes[N_ACTION, 0] = -1
    nodes[N_PARENT, 0] = -1
    nodes[N_CHILDREN, 0] = -1
    nodes[N_VISITS, 0] = 0
    nodes[N_MOVER, 0] = -1
    nodes[N_SLOT, 0] = 0
    value[0] = 0.0
    if k.is_over(t, s):
        return 0
    n = candidates(t, s, q, weights, top_k, cand_a, cand_v, rows, new_rows, prefix, counts, squares, keep_g, keep_v)
    _list_children(nodes, value, shared, 0, n, k.current_player(t, s), cand_a)
    return n


@njit(cache=True, nogil=True)
def shared_search(t, rng, iterations, deadline, weights, params, nodes, value, states, quilts, shared):
    """One thread's part of a shared-tree search started by shared_root: `iterations` iterations,
    or until the monotonic clock reaches `deadline` (ns, when >= 0); returns the iterations done.
    Every thread's generator is its own; the tree's arrays are everyone's."""
    p = t.params
    top_k = max(int(params[M_TOP_K]), 1)
    max_children = 1 + p[P_WINDOW] * top_k + top_k
    capacity = nodes.shape[1]
    slots = states.shape[0]
    words = quilts.shape[2]
    path = np.empty(slots + 1, dtype=np.int64)  # one node a level, each materialised
    cand_a, cand_v, rows, new_rows, prefix, counts, squares, keep_g, keep_v = valuation_scratch(t, max_children, top_k)
    mix = min(max(params[M_ROLLOUT], 0.0), 1.0)
    roll_s = np.empty(STATE_SIZE, dtype=np.int64)
    roll_q = np.empty((2, words), dtype=np.uint64)
    roll_scratch = np.empty(p[P_ACTIONS], dtype=np.int64)
    explore = params[M_EXPLORE]
    done = 0
    # The lock is taken once an iteration: the backup of one runs on into the selection of the next.
    _lock(shared)
    for it in range(iterations):
        if deadline >= 0 and it > 0 and it % _CHECK_EVERY == 0 and monotonic_ns() >= deadline:
            break
        if shared[T_SLOTS] >= slots:
            break
        node = 0
        depth = 0
        path[0] = 0
        nodes[N_VISITS, 0] += 1
        while True:
            nc = nodes[N_CHILDREN, node]
            if nc > 0:
                # Unvisited children first (best prior first), then UCT; the visits still waiting
                # for their value count as losses.
                fc = nodes[N_FIRST, node]
                best = -1
                best_score = -1e18
                log_n = np.log(nodes[N_VISITS, node] + 0.0)
                for i in range(nc):
                    c = fc + i
                    vc = nodes[N_VISITS, c]
                    if vc == 0:
                        best = c
                        break
                    sc = value[c] / vc + explore * np.sqrt(log_n / vc)
                    if sc > best_score:
                        best_score = sc
                        best = c
                node = best
                depth += 1
                path[depth] = node
                nodes[N_VISITS, node] += 1
                if nodes[N_SLOT, node] < 0:
                    break
                continue
            if nc == -1 and shared[T_NODES] + max_children <= capacity:
                # A leaf valued once: list its children outside the lock (other threads that
                # reach it meanwhile value it once more), then go on to its best-prior child.
                nodes[N_CHILDREN, node] = -2
                sl = nodes[N_SLOT, node]
                _unlock(shared)
                st = states[sl]
                n = 0
                seat = -1
                if not k.is_over(t, st):
                    n = candidates(t, st, quilts[sl], weights, top_k, cand_a, cand_v, rows, new_rows, prefix, counts,
                                   squares, keep_g, keep_v)
                    seat = k.current_player(t, st)
                _lock(shared)
                if n > 0 and shared[T_NODES] + n <= capacity:
                    _list_children(nodes, value, shared, node, n, seat, cand_a)
                    continue
                nodes[N_CHILDREN, node] = 0
            break
        # Materialise a new node's state from its parent's (cheap next to valuing it).
        if nodes[N_SLOT, node] < 0:
            sl = shared[T_SLOTS]
            if sl >= slots:  # the other threads took the last rows: take back this descent's visits
                for d in range(depth + 1):
                    nodes[N_VISITS, path[d]] -= 1
                break
            shared[T_SLOTS] = sl + 1
            ps = nodes[N_SLOT, nodes[N_PARENT, node]]
            states[sl, :] = states[ps, :]
            quilts[sl, :, :] = quilts[ps, :, :]
            k.apply(t, states[sl], quilts[sl], nodes[N_ACTION, node], rng)
            nodes[N_SLOT, node] = sl
        sl = nodes[N_SLOT, node]
        _unlock(shared)
        # A node's state never changes once materialised, so it is read without the lock.
        st = states[sl]
        qu = quilts[sl]
        if k.is_over(t, st):
            v0 = k.seat0_result(t, st)
        else:
            v0 = 0.0
            if mix < 1.0:
                v0 = (1.0 - mix) * evaluate(t, st, qu, weights, params, rows, counts)
            if mix > 0.0:
                roll_s[:] = st
                roll_q[:, :] = qu
                rollout(t, roll_s, roll_q, rng, roll_scratch)
                v0 += mix * k.seat0_result(t, roll_s)
        _lock(shared)
        for d in range(depth + 1):
            nd = path[d]
            if nodes[N_MOVER, nd] == 1:
                value[nd] += 1.0 - v0
            else:
                value[nd] += v0
        done += 1
    _unlock(shared)
    return done


# ----- memory --------------------------------------------------------------------------------

MEMORY_SHARE = 0.5
"""Share of the memory this process may still take that one search tree may claim: the game, the
other bots and the other workers' trees need the rest."""


def memory_left() -> int:
    """Bytes this process may still allocate: the machine's available memory (MemAvailable, or
    the free pages where /proc is missing), and under an address-space limit (RLIMIT_AS, `ulimit
    -v`) what is left of it beyond the process's present size, whichever is smaller."""
    import os
    import resource

    page = os.sysconf("SC_PAGE_SIZE")
    left = None
    try:
        with open("/proc/meminfo", "rb") as info:
            for line in info:
                if line.startswith(b"MemAvailable:"):
                    left = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
    if left is None:
        try:
            left = os.sysconf("SC_AVPHYS_PAGES") * page
        except (ValueError, OSError):
            left = 1 << 62
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        try:
            with open("/proc/self/statm", "rb") as statm:
                size = int(statm.read().split()[0]) * page
        except (OSError, ValueError, IndexError):
            size = 0
        left = min(left, max(soft - size, 0))
    return left


def shared_tree_bytes(iterations: int, max_children: int, words: int) -> int:
    """Bytes of a shared tree (SharedSearch._tree) with room for `iterations` in all."""
    capacity = (iterations + 1) * max_children + 1
    return capacity * (N_FIELDS + 1) * 8 + (iterations + 2) * (STATE_SIZE + 2 * words) * 8


def search_tree_bytes(iterations: int, max_children: int, words: int) -> int:
    """Bytes of the tree search_root allocates for `iterations` (a time budget: MAX_TIMED_ITERATIONS)."""
    return shared_tree_bytes(iterations if iterations > 0 else MAX_TIMED_ITERATIONS, max_children, words)


def _gib(size: int) -> str:
    return f"{size / 1024**3:.1f} GiB" if size >= 1024**3 else f"{size / 1024**2:,.0f} MiB"


class SharedSearch:
    """Searches on `threads` threads that grow one tree (shared_root, shared_search): the
    threads beyond the caller's own wait in a pool between moves, so a move pays no thread start.

    The tree is sized for the iterations the threads can reach, held to MEMORY_SHARE of the memory
    the process may still take (memory_left): a time budget on many threads (mcts:0.01s:64t would
    ask for 14.5 GiB) searches in the tree that fits, which stops growing when full; an iteration
    budget whose tree does not fit is refused with both figures."""

    def __init__(self, threads: int):
        if not 2 <= threads <= MAX_THREADS:
            raise UsageError(f"a shared search needs 2..{MAX_THREADS} threads, got {threads}")
        self.threads = threads
        self._pool: ThreadPoolExecutor | None = None
        self._arrays: tuple = ()

    def _tree(self, capacity: int, slots: int, words: int) -> tuple:
        """The tree's arrays, kept from move to move: the memory a search has written stays mapped,
        so the next one neither asks the system for it again nor waits for it to be zeroed page by
        page (the threads would queue for the process's memory map there)."""
        if not self._arrays or self._arrays[0].shape[1] < capacity or self._arrays[2].shape[0] < slots \
                or self._arrays[3].shape[2] != words:
            self._arrays = ()  # the old tree goes before the new one is taken, not after
            self._arrays = (np.empty((N_FIELDS, capacity), dtype=np.int64), np.empty(capacity, dtype=np.float64),
                            np.empty((slots, STATE_SIZE), dtype=np.int64), np.empty((slots, 2, words), dtype=np.uint64),
                            np.zeros(T_FIELDS, dtype=np.int64))
        return self._arrays

    def kept_bytes(self) -> int:
        """Bytes of the tree kept from the last move (reused, so not taken again)."""
        return sum(array.nbytes for array in self._arrays)

    def choose(self, t: Any, s: np.ndarray, q: np.ndarray, rng: np.ndarray, iterations: int,
               weights: np.ndarray, params: np.ndarray) -> tuple[int, int]:
        """(action, iterations searched) for the player to move: `iterations` > 0 per thread, < 0
        a time budget in microseconds of wall time for all of them together (-1: the game is over).
        The other threads' generators are drawn from `rng`, which the caller's thread searches with."""
        top_k = max(int(params[M_TOP_K]), 1)
        max_children = 1 + int(t.params[P_WINDOW]) * top_k + top_k
        total = (iterations if iterations > 0 else MAX_TIMED_ITERATIONS) * self.threads
        words = q.shape[1]
        budget = int((memory_left() + self.kept_bytes()) * MEMORY_SHARE)  # the kept tree is in use already
        if shared_tree_bytes(total, max_children, words) > budget:
            if iterations > 0:
                raise UsageError(f"{iterations} iterations on each of {self.threads} threads need "
                                 f"{_gib(shared_tree_bytes(total, max_children, words))} for the search tree; "
                                 f"{_gib(budget)} is free for it: give fewer iterations or threads")
            per_iteration = shared_tree_bytes(1, max_children, words) - shared_tree_bytes(0, max_children, words)
            total = max(self.threads, (budget - shared_tree_bytes(0, max_children, words)) // per_iteration)
        capacity = (total + 1) * max_children + 1
        nodes, value, states, quilts, shared = self._tree(capacity, total + 2, words)
        n = shared_root(t, s, q, weights, params, nodes, value, states, quilts, shared)
        if n <= 1:  # over, or a forced move: nothing to search
            return (-1 if n == 0 else int(nodes[N_ACTION, 1])), 0
        deadline = -1 if iterations > 0 else time.monotonic_ns() - iterations * 1000
        per_thread = iterations if iterations > 0 else MAX_TIMED_ITERATIONS
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads - 1, thread_name_prefix="mcts")
        others = [self._pool.submit(shared_search, t, _thread_rng(rng), per_thread, deadline, weights, params, nodes,
                                    value, states, quilts, shared) for _ in range(self.threads - 1)]
        done = shared_search(t, rng, per_thread, deadline, weights, params, nodes, value, states, quilts, shared)
        done += sum(other.result() for other in others)
        first = int(nodes[N_FIRST, 0])
        best = first + int(np.argmax(nodes[N_VISITS, first:first + n]))
        return int(nodes[N_ACTION, best]), done


class MctsBot:
    """The MCTS bot for a validated time-track game (toolkit.games.timetrack.TimeTrackGame).

    `threads` > 1 grows one search tree on that many threads at once (SharedSearch): with a time
    budget they share the wall time, so two threads on two free cores search about twice as much
    as one in the same time; with an iteration budget each thread searches that many. Which thread
    gets where first depends on the machine, so a bot with threads is not reproducible (the
    command line gives threads to time budgets only, which are not reproducible anyway)."""

    game_options: dict[str, Any] = {}
    seat = None

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, params: np.ndarray | None = None, threads: int = 1):
        """`iterations` > 0: iterations per move (per thread); < 0: a time budget (see `time_budget`)."""
        if iterations == 0 or iterations > MAX_ITERATIONS or iterations < time_budget(MAX_SECONDS):
            raise UsageError(f"the MCTS budget must be 1..{MAX_ITERATIONS} iterations or "
                             f"{MIN_SECONDS:g}..{MAX_SECONDS:g} seconds, got {iterations}")
        if not 1 <= int(threads) <= MAX_THREADS:
            raise UsageError(f"the MCTS threads must be 1..{MAX_THREADS}, got {threads}")
        self.iterations = int(iterations)
        self.threads = int(threads)
        self.name = budget_name(self.iterations, self.threads)
        self.params = np.ascontiguousarray(PARAMS if params is None else params, dtype=np.float64)
        if self.params.shape != (N_PARAMS,):
            raise UsageError(f"MCTS parameters must be {N_PARAMS} numbers, got shape {self.params.shape}")
        self._shared = SharedSearch(self.threads) if self.threads > 1 else None
        self.searched = 0
        """Iterations searched so far, summed over the threads (for benchmarks and reports)."""
        self.searches = 0
        """Moves searched so far (forced moves included)."""

    def choose(self, game: Any, rng: np.ndarray) -> Any:
        t = game.tables.arrays
        if self._shared is not None:
            code, done = self._shared.choose(t, game.state, game.quilts, rng, self.iterations, GREEDY_WEIGHTS,
                                             self.params)
        else:
            top_k = max(int(self.params[M_TOP_K]), 1)
            need = search_tree_bytes(self.iterations, 1 + int(t.params[P_WINDOW]) * top_k + top_k, game.quilts.shape[1])
            free = int(memory_left() * MEMORY_SHARE)
            if need > free:  # refused with the figures, not a MemoryError inside the compiled search
                raise UsageError(f"the {self.name} bot's search tree needs {_gib(need)}; {_gib(free)} is free for "
                                 "it: give it fewer iterations")
            width = 1 + int(t.params[P_WINDOW] + 1) * max(int(self.params[M_TOP_K]), 1)
            visits = np.zeros(width, dtype=np.int64)
            actions = np.zeros(0, dtype=np.int64)
            code = int(search_root(t, game.state, game.quilts, rng, self.iterations, GREEDY_WEIGHTS, self.params, visits,
                                   actions))
            done = int(visits.sum())
        if code < 0:
            raise UsageError(f"the {self.name} bot was asked to move in a finished game")
        self.searches += 1
        self.searched += done
        return game.decode(code)


def _thread_rng(rng: np.ndarray) -> np.ndarray:
    """A generator for another thread's search, drawn from the bot's own."""
    words = np.array([next_u32(rng) for _ in range(4)], dtype=np.int64)
    if not words.any():
        words[0] = 1
    return words
