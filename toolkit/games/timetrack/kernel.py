"""The compiled rules of the time-track games: classic, Christmas, anniversary with Automa, Express.

This module is the one source of truth for the rules of the family. The Python layer
(toolkit.games.timetrack.game), the bots and the simulator all call these functions; nothing else
decides what is legal or what an action does. Every function is compiled and cached, and also runs
with NUMBA_DISABLE_JIT=1; those that create no arrays (all but new_state, new_state_automa and
play_random_games) are `no_alloc` (toolkit.jit), so passing them the tables costs nothing.

Arguments, always in this order
-------------------------------
- `t`: `KernelTables` of the edition (toolkit.games.timetrack.tables.tables_for(edition).arrays).
- `s`: the game state, `int64[STATE_SIZE]`, offsets below.
- `q`: the quilts, `uint64[2, words]`; bit `row * width + col` of seat p's row is a covered cell.
- `rng`: a `toolkit.games.rng` state (int64[4]); the game's chance (deal, Express late-patch
  shuffle, Automa deck). Bots draw their own choices from their own generator.

Functions
---------
- `new_state(t, rng) -> (s, q)`: a two-player deal. `new_state_automa(t, rng, level, deck) -> (s, q)`:
  seat 0 = the human, seat 1 = Automa (level 1..5, deck index into the edition's decks).
  `deal(t, s, q, rng, level, deck)` does the same in place (level 0 = no Automa).
- `current_player(t, s) -> int` (-1 when over); `is_over(t, s) -> bool`.
- `legal_actions(t, s, q, out) -> n`: writes the legal action ints into out[:n]
  (`out` is int64[t.params[P_ACTIONS]]).
- `check_action(t, s, q, action) -> reason`: R_OK or the R_* code of the rule it breaks.
- `fits(t, q, seat, g) -> bool`: placement row g covers no cell of seat's quilt.
- `apply(t, s, q, action, rng)`: plays a legal action (unchecked: call check_action first when
  the action comes from outside).
- `random_action(t, s, q, rng, scratch) -> action`: uniform over ALL legal actions (every
  orientation and position of every buyable patch, advance, every empty cell for leather).
- `playout(t, s, q, rng, scratch) -> plies`: random actions to the end.
- `score(t, s, seat)`, `winner(t, s)` (tie: the first to reach the final space),
  `empty_cells(t, s, seat)`, `n_circle(s)`, `window_size(t, s)`, `patch_in_window(t, s, patch)`.
- `play_random_games(t, rng, games, level, deck, out_scores) -> plies`: many random games in one
  call (benchmarks, tests).

Copying a position for search is `s.copy(), q.copy()` (and `rng.copy()` for the chance);
everything a game needs is in those arrays. Per-game results for the simulator's
RESULT_FIELDS_TIME_TRACK come straight from the state: S_BUTTONS, S_FILLED, S_FIRST_FINISHER,
S_BONUS_OWNER, S_PLIES, S_LEATHER_PLACED, S_INCOME_RECEIVED, S_BUY_SEAT, S_BUY_PLY.

Action encoding (ints)
----------------------
- `ADVANCE` = 0: action A, move directly in front of the opponent, one button per space moved.
- `1 + g` for g in [0, t.params[P_PLACEMENTS]): action B, buy and place placement row g
  (patch t.place_patch[g]; rows of one patch are ordered (orientation, row, col) as in
  toolkit.geometry.board.placements).
- `t.params[P_ACTION_LEATHER] + cell`: place a pending leather patch on empty cell
  (cell = row * width + col).
- `t.params[P_ACTION_AUTOMA]`: Automa's turn (draw a card, buy or pass); the only legal action
  when Automa is to move.

State offsets (S_*)
-------------------
Two-seat fields hold seat 0 at the offset and seat 1 at offset + 1.
S_POS, S_BUTTONS, S_INCOME (buttons printed on the quilt), S_FILLED (covered cells), S_TOP (seat
that arrived last; moves first on a shared space), S_FIRST_FINISHER, S_BONUS_OWNER (-1 none),
S_PENDING_LEATHER (leather patches the S_PENDING_PLAYER must place now), S_PLIES, S_LATE_ENTERED,
S_LEATHER_PLACED, S_INCOME_RECEIVED, S_AUTOMA_LEVEL (0 = two players), S_AUTOMA_DECK, S_CARD
(last Automa card drawn, -1), S_DRAW_LEN, S_DISCARD_LEN, S_AUTOMA_WITH_BUTTONS,
S_AUTOMA_WITHOUT_BUTTONS (patch piles, counts), S_AUTOMA_BUTTONS_ON_PATCHES, S_CIRCLE_LEN,
S_LAST_PATCH (last patch bought, -1); arrays: S_CIRCLE (patch indices clockwise starting with
the one directly after the neutral token, S_CIRCLE_LEN long), S_LEATHER_LEFT (1 while leather
patch i is on the board), S_DRAW (Automa draw pile, top = last), S_DISCARD, S_BUY_SEAT and
S_BUY_PLY per patch index (-1 = not bought).

Automa's 0-button card (normal deck card #12) never buys, as the reference notes, even when a
patch costing 0 buttons is in the window; it is a pass card.

Automa leather patches: Automa has no quilt and places no patches (ruling 13), so a leather
patch its token moves onto or past leaves play, out of the human's reach, and scores nothing
(the reference gives Automa no pile that could count it).
"""
from __future__ import annotations

import numpy as np
from toolkit.jit import njit, no_alloc

from toolkit.games.rng import randbelow, shuffle
from toolkit.games.timetrack.tables import (
    F_FURTHEST,
    F_LARGEST,
    F_MOST_BUTTONS,
    F_NO_OVERTAKE,
    MAX_CARDS,
    MAX_FILTERS,
    MAX_LEATHER,
    MAX_PATCHES,
    P_ACTION_AUTOMA,
    P_ACTION_LEATHER,
    P_AUTOMA_BONUS,
    P_AUTOMA_DISCARD,
    P_BONUS_POINTS,
    P_BONUS_SIZE,
    P_CELLS,
    P_FINAL,
    P_LATE,
    P_LATE_ENTER_AT,
    P_LEATHER,
    P_NEUTRAL_AFTER,
    P_PATCHES,
    P_PENALTY,
    P_TIE_BREAK,
    TIE_SHARED,
    P_PLACEMENTS,
    P_START,
    P_START_BUTTONS,
    P_WINDOW,
    P_WORDS,
)

# ----- state layout --------------------------------------------------------------------------
S_POS = 0
S_BUTTONS = 2
S_INCOME = 4
S_FILLED = 6
S_TOP = 8
S_FIRST_FINISHER = 9
S_BONUS_OWNER = 10
S_PENDING_LEATHER = 11
S_PENDING_PLAYER = 12
S_PLIES = 13
S_LATE_ENTERED = 14
S_LEATHER_PLACED = 15
S_INCOME_RECEIVED = 17
S_AUTOMA_LEVEL = 19
S_AUTOMA_DECK = 20
S_CARD = 21
S_DRAW_LEN = 22
S_DISCARD_LEN = 23
S_AUTOMA_WITH_BUTTONS = 24
S_AUTOMA_WITHOUT_BUTTONS = 25
S_AUTOMA_BUTTONS_ON_PATCHES = 26
S_CIRCLE_LEN = 27
S_LAST_PATCH = 28
S_CIRCLE = 32
S_LEATHER_LEFT = S_CIRCLE + MAX_PATCHES
S_DRAW = S_LEATHER_LEFT + MAX_LEATHER
S_DISCARD = S_DRAW + MAX_CARDS
S_BUY_SEAT = S_DISCARD + MAX_CARDS
S_BUY_PLY = S_BUY_SEAT + MAX_PATCHES
STATE_SIZE = S_BUY_PLY + MAX_PATCHES

AUTOMA_SEAT = 1
"""Automa always sits in seat 1; the human (seat 0) moves first."""
NO_WINNER = -1
"""winner() when equal scores share the victory (tie_break: shared)."""

NARROW_WORDS = 2
"""Quilts of up to two words (boards of up to 128 cells, every printed edition) take the fast
legality test: the placement's two words (t.place_lo, t.place_hi) ANDed with the quilt's."""

# ----- actions -------------------------------------------------------------------------------
ADVANCE = 0

# ----- reasons an action is illegal (check_action) ------------------------------------------
R_OK = 0
R_GAME_OVER = 1
R_BAD_ACTION = 2
R_LEATHER_PENDING = 3
R_NO_LEATHER = 4
R_CELL_COVERED = 5
R_AUTOMA_TURN = 6
R_NOT_AUTOMA_TURN = 7
R_NOT_IN_CIRCLE = 8
R_NOT_IN_WINDOW = 9
R_CANNOT_AFFORD = 10
R_OVERLAP = 11


@no_alloc
def deal(t, s, q, rng, automa_level, automa_deck):
    """Set up a game in place: shuffled circle, neutral token after the smallest patch, tokens on 0."""
    p = t.params
    s[:] = 0
    q[:, :] = 0
    for seat in range(2):
        s[S_BUTTONS + seat] = p[P_START_BUTTONS]
    s[S_TOP] = 0
    s[S_FIRST_FINISHER] = -1
    s[S_BONUS_OWNER] = -1
    s[S_PENDING_PLAYER] = -1
    s[S_CARD] = -1
    s[S_LAST_PATCH] = -1
    n = p[P_START]
    circle = s[S_CIRCLE : S_CIRCLE + n]
    for i in range(n):
        circle[i] = t.start_ids[i]
    shuffle(rng, circle)
    # Rotate so the patch the neutral token sits after comes last: it is the last one reachable.
    k = 0
    for i in range(n):
        if circle[i] == p[P_NEUTRAL_AFTER]:
            k = i
    _rotate_left(circle, 0, n, k + 1)
    s[S_CIRCLE_LEN] = n
    for i in range(MAX_PATCHES):
        s[S_BUY_SEAT + i] = -1
        s[S_BUY_PLY + i] = -1
    for i in range(p[P_LEATHER]):
        s[S_LEATHER_LEFT + i] = 1
    _maybe_add_late(t, s, rng)
    if automa_level > 0:
        s[S_AUTOMA_LEVEL] = automa_level
        s[S_AUTOMA_DECK] = automa_deck
        s[S_BUTTONS + AUTOMA_SEAT] = 0
        size = t.deck_size[automa_deck]
        for c in range(size):
            s[S_DRAW + c] = c
        shuffle(rng, s[S_DRAW : S_DRAW + size])
        # The top cards are discarded unseen; they come back at the first reshuffle.
        discard = min(p[P_AUTOMA_DISCARD], size)
        for i in range(discard):
            s[S_DISCARD + i] = s[S_DRAW + size - 1 - i]
        s[S_DRAW_LEN] = size - discard
        s[S_DISCARD_LEN] = discard


@njit(cache=True)
def new_state(t, rng):
    """A fresh two-player deal: returns (state, quilts)."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    q = np.zeros((2, t.params[P_WORDS]), dtype=np.uint64)
    deal(t, s, q, rng, 0, 0)
    return s, q


@njit(cache=True)
def new_state_automa(t, rng, level, deck):
    """A fresh solo deal against Automa (seat 1) at `level` with deck index `deck`."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    q = np.zeros((2, t.params[P_WORDS]), dtype=np.uint64)
    deal(t, s, q, rng, level, deck)
    return s, q


@no_alloc
def _reverse(a, lo, hi):
    hi -= 1
    while lo < hi:
        tmp = a[lo]
        a[lo] = a[hi]
        a[hi] = tmp
        lo += 1
        hi -= 1


@no_alloc
def _rotate_left(a, lo, hi, r):
    """Rotate a[lo:hi] left by r places."""
    if r <= 0 or r >= hi - lo:
        return
    _reverse(a, lo, lo + r)
    _reverse(a, lo + r, hi)
    _reverse(a, lo, hi)


@no_alloc
def _maybe_add_late(t, s, rng):
    """Late patches join, shuffled, as the last patches clockwise once few enough remain."""
    at = t.params[P_LATE_ENTER_AT]
    if at < 0 or s[S_LATE_ENTERED] != 0 or s[S_CIRCLE_LEN] > at:
        return
    n = s[S_CIRCLE_LEN]
    late = t.params[P_LATE]
    for i in range(late):
        s[S_CIRCLE + n + i] = t.late_ids[i]
    shuffle(rng, s[S_CIRCLE + n : S_CIRCLE + n + late])
    s[S_CIRCLE_LEN] = n + late
    s[S_LATE_ENTERED] = 1


@no_alloc
def is_over(t, s):
    """Both tokens on the final space and no leather patch left to place."""
    final = t.params[P_FINAL]
    return s[S_POS] == final and s[S_POS + 1] == final and s[S_PENDING_LEATHER] == 0


@no_alloc
def current_player(t, s):
    """The seat to act: a pending leather placement first, else the token furthest behind
    (on a shared space the one that arrived last); -1 when the game is over."""
    if s[S_PENDING_LEATHER] > 0:
        return s[S_PENDING_PLAYER]
    if is_over(t, s):
        return -1
    a = s[S_POS]
    b = s[S_POS + 1]
    if a < b:
        return 0
    if b < a:
        return 1
    return s[S_TOP]


@no_alloc
def n_circle(s):
    return s[S_CIRCLE_LEN]


@no_alloc
def window_size(t, s):
    """Patches that may be bought: the market window, fewer if fewer remain."""
    return min(t.params[P_WINDOW], s[S_CIRCLE_LEN])


@no_alloc
def patch_in_window(t, s, patch):
    """Index of `patch` in the window (0 = directly after the neutral token), -1 if not there."""
    for j in range(window_size(t, s)):
        if s[S_CIRCLE + j] == patch:
            return j
    return -1


@no_alloc
def fits(t, q, seat, g):
    """Placement row g covers no cell of seat's quilt."""
    if t.params[P_WORDS] <= NARROW_WORDS:
        return _free(t, g, _word(q, seat, 0), _word(q, seat, 1))
    for w in range(t.params[P_WORDS]):
        if q[seat, w] & t.place_masks[g, w]:
            return False
    return True


@no_alloc(inline="always")
def _word(q, seat, w):
    """Word w of seat's quilt, 0 past the end (a one-word board has no word 1)."""
    return q[seat, w] if w < q.shape[1] else np.uint64(0)


@no_alloc(inline="always")
def _free(t, g, lo, hi):
    """Placement row g misses a quilt of at most two words (lo, hi): one AND per word."""
    return ((t.place_lo[g] & lo) | (t.place_hi[g] & hi)) == 0


@no_alloc
def _free_placements(t, q, seat, first, count, out, n):
    """Append 1 + g for every placement row g in first .. first+count-1 that fits seat's quilt
    to out[n:]; returns the new n."""
    if t.params[P_WORDS] <= NARROW_WORDS:
        lo = _word(q, seat, 0)
        hi = _word(q, seat, 1)
        for g in range(first, first + count):
            # Branch-free: write every row, keep it only when it fits.
            out[n] = 1 + g
            n += _free(t, g, lo, hi)
        return n
    for g in range(first, first + count):
        if fits(t, q, seat, g):
            out[n] = 1 + g
            n += 1
    return n


@no_alloc
def _count_free(t, lo, hi, first, count):
    """How many placement rows first .. first+count-1 miss the two-word quilt (lo, hi)."""
    n = 0
    for g in range(first, first + count):
        n += _free(t, g, lo, hi)
    return n


@no_alloc
def _cell_covered(q, seat, cell):
    return (q[seat, cell >> 6] >> np.uint64(cell & 63)) & np.uint64(1)


@no_alloc
def legal_actions(t, s, q, out):
    """Write every legal action into out; return how many."""
    seat = current_player(t, s)
    if seat < 0:
        return 0
    p = t.params
    n = 0
    if s[S_PENDING_LEATHER] > 0:
        base = p[P_ACTION_LEATHER]
        for cell in range(p[P_CELLS]):
            if _cell_covered(q, seat, cell) == 0:
                out[n] = base + cell
                n += 1
        return n
    if s[S_AUTOMA_LEVEL] > 0 and seat == AUTOMA_SEAT:
        out[0] = p[P_ACTION_AUTOMA]
        return 1
    out[0] = ADVANCE
    n = 1
    buttons = s[S_BUTTONS + seat]
    for j in range(window_size(t, s)):
        patch = s[S_CIRCLE + j]
        if t.cost[patch] <= buttons:
            n = _free_placements(t, q, seat, t.place_first[patch], t.place_count[patch], out, n)
    return n


@no_alloc
def check_action(t, s, q, action):
    """R_OK when `action` is legal now, else the R_* code of the rule it breaks."""
    seat = current_player(t, s)
    if seat < 0:
        return R_GAME_OVER
    p = t.params
    if action < 0 or action > p[P_ACTION_AUTOMA]:
        return R_BAD_ACTION
    leather = p[P_ACTION_LEATHER]
    if s[S_PENDING_LEATHER] > 0:
        if action < leather or action >= p[P_ACTION_AUTOMA]:
            return R_LEATHER_PENDING
        if _cell_covered(q, seat, action - leather):
            return R_CELL_COVERED
        return R_OK
    automa_turn = s[S_AUTOMA_LEVEL] > 0 and seat == AUTOMA_SEAT
    if action == p[P_ACTION_AUTOMA]:
        return R_OK if automa_turn else R_NOT_AUTOMA_TURN
    if automa_turn:
        return R_AUTOMA_TURN
    if action >= leather:
        return R_NO_LEATHER
    if action == ADVANCE:
        return R_OK
    g = action - 1
    patch = t.place_patch[g]
    found = False
    for j in range(s[S_CIRCLE_LEN]):
        if s[S_CIRCLE + j] == patch:
            found = True
    if not found:
        return R_NOT_IN_CIRCLE
    if patch_in_window(t, s, patch) < 0:
        return R_NOT_IN_WINDOW
    if t.cost[patch] > s[S_BUTTONS + seat]:
        return R_CANNOT_AFFORD
    if not fits(t, q, seat, g):
        return R_OVERLAP
    return R_OK


@no_alloc
def _move(t, s, q, seat, steps, pays):
    """Advance seat's token, resolving every mark crossed (start < mark <= end) in track order."""
    p = t.params
    final = p[P_FINAL]
    start = s[S_POS + seat]
    end = min(start + steps, final)
    if pays:
        s[S_BUTTONS + seat] += end - start
    automa = s[S_AUTOMA_LEVEL] > 0 and seat == AUTOMA_SEAT
    for space in range(start + 1, end + 1):
        if t.income_flag[space]:
            if automa:
                gain = t.card_income[s[S_AUTOMA_DECK], s[S_CARD]]
            else:
                gain = s[S_INCOME + seat]
            s[S_BUTTONS + seat] += gain
            s[S_INCOME_RECEIVED + seat] += gain
        li = t.leather_at[space]
        if li >= 0 and s[S_LEATHER_LEFT + li] != 0:
            s[S_LEATHER_LEFT + li] = 0
            # Automa places nothing and a full quilt has no room: either way the patch leaves play.
            if not automa and s[S_FILLED + seat] + s[S_PENDING_LEATHER] < p[P_CELLS]:
                s[S_PENDING_LEATHER] += 1
                s[S_PENDING_PLAYER] = seat
    s[S_POS + seat] = end
    s[S_TOP] = seat
    if end == final and s[S_FIRST_FINISHER] < 0:
        s[S_FIRST_FINISHER] = seat
    if automa and s[S_BONUS_OWNER] < 0 and p[P_BONUS_SIZE] > 0:
        if end >= t.level_marker[s[S_AUTOMA_LEVEL]]:
            s[S_BONUS_OWNER] = seat


@no_alloc
def _check_bonus(t, s, q, seat):
    """The first quilt with a fully covered k x k square takes the bonus tile."""
    p = t.params
    k = p[P_BONUS_SIZE]
    if k == 0 or s[S_BONUS_OWNER] >= 0 or s[S_FILLED + seat] < k * k:
        return
    words = p[P_WORDS]
    for m in range(t.bonus_masks.shape[0]):
        full = True
        for w in range(words):
            if (q[seat, w] & t.bonus_masks[m, w]) != t.bonus_masks[m, w]:
                full = False
                break
        if full:
            s[S_BONUS_OWNER] = seat
            return


@no_alloc
def _take_from_circle(t, s, rng, j, seat):
    """Remove window patch j; the neutral token moves to its place. Returns the patch index."""
    n = s[S_CIRCLE_LEN]
    patch = s[S_CIRCLE + j]
    # The patches after the taken one now come first; those before it go to the end.
    _rotate_left(s, S_CIRCLE, S_CIRCLE + n, j + 1)
    s[S_CIRCLE_LEN] = n - 1
    s[S_BUY_SEAT + patch] = seat
    s[S_BUY_PLY + patch] = s[S_PLIES]
    s[S_LAST_PATCH] = patch
    _maybe_add_late(t, s, rng)
    return patch


@no_alloc
def _automa_turn(t, s, q, rng):
    p = t.params
    seat = AUTOMA_SEAT
    deck = s[S_AUTOMA_DECK]
    if s[S_DRAW_LEN] == 0:
        m = s[S_DISCARD_LEN]
        for i in range(m):
            s[S_DRAW + i] = s[S_DISCARD + i]
        shuffle(rng, s[S_DRAW : S_DRAW + m])
        s[S_DRAW_LEN] = m
        s[S_DISCARD_LEN] = 0
    s[S_DRAW_LEN] -= 1
    card = s[S_DRAW + s[S_DRAW_LEN]]
    s[S_CARD] = card
    budget = t.card_buttons[deck, card]
    final = p[P_FINAL]
    pos = s[S_POS + seat]
    human = s[S_POS + 1 - seat]
    window = window_size(t, s)
    cand = 0
    # A card without virtual buttons never buys, not even a patch that costs nothing.
    if budget > 0:
        for j in range(window):
            if t.cost[s[S_CIRCLE + j]] <= budget:
                cand |= 1 << j
    if cand == 0:
        # Pass: in front of the human, no buttons for the spaces (income marks still pay).
        _move(t, s, q, seat, min(human + 1, final) - pos, False)
    else:
        for f in range(MAX_FILTERS):
            if _count_bits(cand) <= 1:
                break
            code = t.card_filters[deck, card, f]
            if code < 0:
                continue
            kept = _apply_filter(t, s, cand, window, code, pos, human, final)
            if kept != 0:
                cand = kept
        if _count_bits(cand) > 1:
            cand = _apply_filter(t, s, cand, window, F_FURTHEST, pos, human, final)
        j = 0
        while (cand >> j) & 1 == 0:
            j += 1
        patch = _take_from_circle(t, s, rng, j, seat)
        if t.income[patch] > 0:
            s[S_AUTOMA_WITH_BUTTONS] += 1
            s[S_AUTOMA_BUTTONS_ON_PATCHES] += t.income[patch]
        else:
            s[S_AUTOMA_WITHOUT_BUTTONS] += 1
        _move(t, s, q, seat, t.time[patch], False)
    s[S_DISCARD + s[S_DISCARD_LEN]] = card
    s[S_DISCARD_LEN] += 1


@no_alloc
def _count_bits(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@no_alloc
def _apply_filter(t, s, cand, window, code, pos, human, final):
    """The candidates (bit j = window slot j) that survive one Automa filter; may be 0."""
    kept = 0
    if code == F_NO_OVERTAKE:
        for j in range(window):
            if (cand >> j) & 1 and min(pos + t.time[s[S_CIRCLE + j]], final) <= human:
                kept |= 1 << j
        return kept
    if code == F_FURTHEST:
        for j in range(window - 1, -1, -1):
            if (cand >> j) & 1:
                return 1 << j
        return 0
    best = -1
    for j in range(window):
        if (cand >> j) & 1:
            patch = s[S_CIRCLE + j]
            value = t.income[patch] if code == F_MOST_BUTTONS else t.size[patch]
            if value > best:
                best = value
                kept = 1 << j
            elif value == best:
                kept |= 1 << j
    return kept


@no_alloc
def apply(t, s, q, action, rng):
    """Play a legal action for the current player."""
    p = t.params
    seat = current_player(t, s)
    if action == ADVANCE:
        target = min(s[S_POS + 1 - seat] + 1, p[P_FINAL])
        _move(t, s, q, seat, target - s[S_POS + seat], True)
    elif action < p[P_ACTION_LEATHER]:
        g = action - 1
        patch = t.place_patch[g]
        j = patch_in_window(t, s, patch)
        _take_from_circle(t, s, rng, j, seat)
        s[S_BUTTONS + seat] -= t.cost[patch]
        for w in range(p[P_WORDS]):
            q[seat, w] |= t.place_masks[g, w]
        s[S_FILLED + seat] += t.size[patch]
        s[S_INCOME + seat] += t.income[patch]
        _check_bonus(t, s, q, seat)
        _move(t, s, q, seat, t.time[patch], False)
    elif action < p[P_ACTION_AUTOMA]:
        cell = action - p[P_ACTION_LEATHER]
        q[seat, cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)
        s[S_FILLED + seat] += 1
        s[S_LEATHER_PLACED + seat] += 1
        s[S_PENDING_LEATHER] -= 1
        if s[S_PENDING_LEATHER] == 0:
            s[S_PENDING_PLAYER] = -1
        _check_bonus(t, s, q, seat)
    else:
        _automa_turn(t, s, q, rng)
    s[S_PLIES] += 1


@no_alloc
def score(t, s, seat):
    """Final score of a seat: buttons + bonus - penalty per empty cell; Automa per its level."""
    p = t.params
    level = s[S_AUTOMA_LEVEL]
    if level > 0 and seat == AUTOMA_SEAT:
        total = p[P_AUTOMA_BONUS] if s[S_BONUS_OWNER] == seat else 0
        if t.level_scoring[level, 0]:
            total += s[S_BUTTONS + seat]
        if t.level_scoring[level, 1]:
            total += s[S_AUTOMA_WITH_BUTTONS]
        if t.level_scoring[level, 2]:
            total += s[S_AUTOMA_BUTTONS_ON_PATCHES]
        return total
    total = s[S_BUTTONS + seat] - p[P_PENALTY] * (p[P_CELLS] - s[S_FILLED + seat])
    if s[S_BONUS_OWNER] == seat:
        total += p[P_BONUS_POINTS]
    return total


@no_alloc
def winner(t, s):
    """Seat with the higher score; a tie is settled by the edition's tie_break: the first to reach
    the final space (ruling 7), or NO_WINNER (-1) when ties are shared."""
    a = score(t, s, 0)
    b = score(t, s, 1)
    if a > b:
        return 0
    if b > a:
        return 1
    if t.params[P_TIE_BREAK] == TIE_SHARED:
        return NO_WINNER
    return s[S_FIRST_FINISHER]


@no_alloc
def seat0_result(t, s):
    """Seat 0's result of a finished game: 1 win, 0.5 shared, 0 loss (what search bots back up)."""
    w = winner(t, s)
    if w == 0:
        return 1.0
    if w == NO_WINNER:
        return 0.5
    return 0.0


@no_alloc
def random_action(t, s, q, rng, scratch):
    """A legal action drawn uniformly from all legal actions (scratch: int64[P_ACTIONS]).

    The same draw as `legal_actions(...)[randbelow(rng, n)]`, but a buy or advance counts the
    free placements first (one AND per word, no writes) and then finds only the drawn one."""
    seat = current_player(t, s)
    p = t.params
    narrow = p[P_WORDS] <= NARROW_WORDS
    if seat < 0 or not narrow or s[S_PENDING_LEATHER] > 0 or (s[S_AUTOMA_LEVEL] > 0 and seat == AUTOMA_SEAT):
        n = legal_actions(t, s, q, scratch)
        return scratch[randbelow(rng, n)]
    lo = _word(q, seat, 0)
    hi = _word(q, seat, 1)
    buttons = s[S_BUTTONS + seat]
    window = window_size(t, s)
    # scratch[j] = free placements of window patch j (0 when it cannot be afforded).
    n = 1
    for j in range(window):
        patch = s[S_CIRCLE + j]
        scratch[j] = 0
        if t.cost[patch] <= buttons:
            scratch[j] = _count_free(t, lo, hi, t.place_first[patch], t.place_count[patch])
        n += scratch[j]
    r = randbelow(rng, n)
    if r == 0:
        return ADVANCE
    r -= 1
    j = 0
    while r >= scratch[j]:
        r -= scratch[j]
        j += 1
    g = t.place_first[s[S_CIRCLE + j]]
    while True:
        if _free(t, g, lo, hi):
            if r == 0:
                return 1 + g
            r -= 1
        g += 1


@no_alloc
def playout(t, s, q, rng, scratch):
    """Random actions until the game ends; returns the number of actions played."""
    plies = 0
    while not is_over(t, s):
        apply(t, s, q, random_action(t, s, q, rng, scratch), rng)
        plies += 1
    return plies


@no_alloc
def empty_cells(t, s, seat):
    return t.params[P_CELLS] - s[S_FILLED + seat]


@no_alloc
def placements_total(t):
    return t.params[P_PLACEMENTS]


@njit(cache=True)
def play_random_games(t, seed_rng, games, automa_level, automa_deck, out_scores):
    """Benchmark/test helper: play `games` random games from one generator; scores to out_scores."""
    scratch = np.zeros(t.params[P_ACTION_AUTOMA] + 1, dtype=np.int64)
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    q = np.zeros((2, t.params[P_WORDS]), dtype=np.uint64)
    plies = 0
    for i in range(games):
        deal(t, s, q, seed_rng, automa_level, automa_deck)
        plies += playout(t, s, q, seed_rng, scratch)
        out_scores[i, 0] = score(t, s, 0)
        out_scores[i, 1] = score(t, s, 1)
    return plies
