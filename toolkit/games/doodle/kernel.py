"""The compiled rules of Patchwork Doodle: state, legal actions, apply, scoring, choosers.

This module is the one source of truth for the Doodle rules. The Python layer
(toolkit.games.doodle.game) and the simulator's turn loop both drive these functions; every
function is `@njit(cache=True)` and also runs with NUMBA_DISABLE_JIT=1.

Public API for the simulator (all arrays are numpy; nothing here keeps global state)
-----------------------------------------------------------------------------------
- ``tables = build_tables(edition)`` (plain Python, cached per edition): a tuple of arrays with
  the placements of every shape the edition can draw (deck patches, their straight-cut pieces,
  start cards) as int64 mask words, an orientation table (cells of each orientation, for testing
  a whole row of anchors at once), the cut table, the deck, the die and the parameters (last
  element, PR_* indices). Pass it unchanged to every compiled function. ``tables_info(edition)``
  gives the Python-side lookups (shape objects, placement coordinates) the notation layer uses.
- ``st, occ = new_state(tables, players, rng)``: a fresh game. ``rng`` is an int64[4] generator
  state from ``toolkit.games.rng.seed_state(seed)``; it is copied into ``st`` and every chance
  event of the game (deck shuffle, token start, start cards, die rolls) draws from that copy,
  in that order. ``st`` is int64[...] (header + sections, offsets below), ``occ`` is
  int64[players, words], the shaded cells of each sheet (bit row*width+col).
- ``st[PHASE] == P_OVER`` ends the game; ``st[SEAT]`` is the seat to act.
- ``n = count_actions(tables, st, occ)``; ``acts = list_actions(tables, st, occ)`` ->
  int64[n, NA] in the canonical order; ``apply_action(tables, st, occ, act)`` applies one legal
  action row (unchecked); ``check_action(tables, st, occ, act)`` -> 0 or an ERR_* code.
- Choosers, each writing one action row into ``act`` (int64[NA]) from a bot generator state
  ``bot_rng`` (int64[4], separate from the game's): ``choose_random(tables, st, occ, bot_rng, act)``
  (uniform over the legal actions) and ``choose_greedy(tables, st, occ, bot_rng, act)``.
- ``play_game(tables, st, occ, bot_kinds, bot_rng, weights)`` plays a game to the end;
  ``bot_kinds`` is int64[players] of BOT_RANDOM / BOT_GREEDY, ``weights`` the greedy weights
  (normally GREEDY_WEIGHTS; ``choose_greedy_weighted`` takes them too, for tuning).
  ``play_games(tables, players, seed_words, bot_kinds, bot_words, weights)`` plays one game per
  row of ``seed_words`` (int64[n, 4] game generator states, e.g. ``game_rng_words(seeds)``), the
  bots drawing from the rows of ``bot_words``, and returns the arrays of
  ``RESULT_FIELDS_DOODLE`` (toolkit.games.base) in order: score, round_scores, empty,
  start_card, specials (times used: neighbour, single, cut, again), drawn (patch cards, the start
  card not counted).
- Readers of a finished (or running) state: ``final_scores(tables, st, occ)`` -> int64[players],
  ``empty_cells(tables, st, occ, seat)``, ``best_rectangle(tables, occ_row)`` -> (score, row,
  col, height, width).

Action rows (int64[NA]): A_KIND (K_START, K_DRAW, K_PASS, K_SINGLE, K_SCORE), A_CARD (circle
position of the card drawn), A_NB (0 none, 1 left = the card before the token, 2 right = the card
after it), A_CUT (-1 or the cut index in the patch's straight_cuts()), A_PIECE (0 = top/left
piece, 1 = the other), A_PLACE (global placement row for START/DRAW, cell index for SINGLE, top
row for SCORE), A_COL, A_H, A_W (rectangle for SCORE, A_H = 0 scores nothing on an empty sheet),
A_AGAIN (0, or 1 + the special action that AGAIN repeats).

Setup: the deck (each patch `copies` times) is shuffled into the pile, the first circle_size
cards form the circle, the token goes before a random one of them, and start cards are dealt from
a shuffled set; with more players than start cards a fresh shuffled set follows for the next
players, so a card repeats only after every card has been dealt once.

Rounds: rounds-1 rounds of turns_per_round rolled turns, then a last round of turns_per_round-1
rolled turns and the free choice (when final_free_choice; else all rolled). A roll of d makes the
d-th card clockwise after the token the token card. Between rounds the leftover cards, in order
from the token, are the next in line, followed by `refill` cards from the pile (fewer when it runs
out; a round whose circle is empty goes straight to scoring).

Serialisation of the simultaneous game: within each step (start drawing, each turn, the free
choice, each scoring) the seats act in order 0..K-1; SINGLE does not end a seat's step, every
other action does. Die rolls happen when a turn begins, from the game's generator.
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

import numpy as np
from toolkit.jit import njit

from toolkit.games.rng import randbelow, shuffle
from toolkit.geometry.board import Board, Placement, placement_array, placements
from toolkit.geometry.shape import Cut, Shape
from toolkit.specs.models import Edition

# ----- state header (st[...]) ---------------------------------------------------------------
PHASE = 0
ROUND = 1
TURN = 2
SEAT = 3
NPLAYERS = 4
NEXT = 5
"""Circle position of the first card clockwise after the token."""
CUR = 6
"""Circle position of the token card (the current patch) during a rolled turn, else -1."""
CIRCLE_N = 7
PILE_POS = 8
ROLL = 9
"""Last die roll (0 before the first)."""
RNG = 10
"""Four words of the game's generator: st[RNG:RNG + 4]."""
O_CIRCLE = 14
O_PILE = 15
O_START = 16
O_USED = 17
O_RSCORE = 18
O_DRAWN = 19
O_FILLED = 20
O_SCORED = 21
HEADER = 24

P_START = 0
P_TURN = 1
P_FREE = 2
P_SCORE = 3
P_OVER = 4

# ----- action rows -----------------------------------------------------------------------------
A_KIND = 0
A_CARD = 1
A_NB = 2
A_CUT = 3
A_PIECE = 4
A_PLACE = 5
A_COL = 6
A_H = 7
A_W = 8
A_AGAIN = 9
NA = 10

K_START = 0
K_DRAW = 1
K_PASS = 2
K_SINGLE = 3
K_SCORE = 4

S_NEIGHBOUR = 0
S_SINGLE = 1
S_CUT = 2
S_AGAIN = 3
SPECIAL_NAMES = ("neighbour", "single", "cut", "again")

BOT_RANDOM = 0
BOT_GREEDY = 1

# ----- parameters (tables[-1]) --------------------------------------------------------------
PR_W = 0
PR_H = 1
PR_WORDS = 2
PR_CIRCLE = 3
PR_ROUNDS = 4
PR_TPR = 5
PR_REFILL = 6
PR_FREE = 7
PR_SPECIALS = 8
PR_DECK = 9
PR_NSTART = 10
PR_NPATCH = 11

# ----- check_action codes -------------------------------------------------------------------
OK = 0
ERR_PHASE = 1
ERR_SPECIAL_USED = 2
ERR_AGAIN_USED = 3
ERR_AGAIN_NEEDLESS = 4
ERR_SPECIAL_OFF = 5
ERR_OVERLAP = 6
ERR_NO_NEIGHBOUR = 7
ERR_CARD = 8
ERR_SHAPE = 9
ERR_NOT_FILLED = 10
ERR_CELL_SHADED = 11
ERR_SCORE_NONE = 12
ERR_MUST_DRAW = 13
ERR_RECT = 14
ERR_TWO_AGAIN = 15


@dataclass(frozen=True)
class TableInfo:
    """The Python side of the tables: what each index of the compiled arrays stands for."""

    tables: tuple
    """The arrays handed to every compiled function."""
    board: Board
    shapes: tuple[Shape, ...]
    """Shape table: deck patches, start cards and cut pieces, each in one fixed orientation."""
    shape_start: tuple[int, ...]
    """First global placement row of each shape."""
    placements: tuple[tuple[Placement, ...], ...]
    """Per shape: geometry.placements(shape, board, allow_flip), aligned with the mask rows."""
    patch_ids: tuple[str, ...]
    """Deck patch ids by patch index."""
    cuts: tuple[tuple[Cut, ...], ...]
    """Per patch: its straight cuts (the CUT index is the position in this tuple)."""
    start_ids: tuple[str, ...]
    specials: tuple[str, ...]
    """Special actions this edition offers."""

    def placement_of(self, g: int) -> tuple[int, Placement]:
        """(shape index, placement) of a global placement row."""
        shape = bisect_right(self.shape_start, g) - 1
        return shape, self.placements[shape][g - self.shape_start[shape]]


_TABLES: dict[Edition, TableInfo] = {}


def build_tables(edition: Edition) -> tuple:
    """The compiled-function tables of a Doodle edition (cached per edition)."""
    return tables_info(edition).tables


def tables_info(edition: Edition) -> TableInfo:
    """Tables plus the lookups the notation layer needs (cached per edition)."""
    info = _TABLES.get(edition)
    if info is None:
        info = _build(edition)
        _TABLES[edition] = info
    return info


def _build(edition: Edition) -> TableInfo:
    board = Board(edition.board_width, edition.board_height)
    flip = edition.allow_flip
    shapes: list[Shape] = []
    index: dict[Shape, int] = {}

    def shape_index(shape: Shape) -> int:
        if shape not in index:
            index[shape] = len(shapes)
            shapes.append(shape)
        return index[shape]

    patches = edition.patches
    patch_shape = np.array([shape_index(p.shape) for p in patches], dtype=np.int64)
    cuts = tuple(p.shape.straight_cuts() for p in patches)
    cut_max = max([len(c) for c in cuts] + [1])
    cut_n = np.array([len(c) for c in cuts], dtype=np.int64)
    cut_piece = np.zeros((len(patches), cut_max, 2), dtype=np.int64)
    for p, patch_cuts in enumerate(cuts):
        for c, cut in enumerate(patch_cuts):
            cut_piece[p, c, 0] = shape_index(cut.pieces[0])
            cut_piece[p, c, 1] = shape_index(cut.pieces[1])
    start_shape = np.array([shape_index(s.shape) for s in edition.start_cards], dtype=np.int64)
    deck_card = np.array([p for p, patch in enumerate(patches) for _ in range(patch.copies)],
                         dtype=np.int64)
    arrays = []
    starts = []
    rows = 0
    for shape in shapes:
        array = placement_array(shape, board, flip)
        starts.append(rows)
        rows += array.shape[0]
        arrays.append(array)
    masks = np.ascontiguousarray(np.concatenate(arrays).view(np.int64).reshape(rows, board.words))
    sh_start = np.array(starts, dtype=np.int64)
    # Orientation table, in placements() order: the orientations that fit the board.
    or_start, or_count, or_h, or_w, or_base, or_ncell, cell_lists = [], [], [], [], [], [], []
    for shape, first in zip(shapes, starts):
        or_start.append(len(or_h))
        count = 0
        for image in shape.orientations(flip):
            if image.height > board.height or image.width > board.width:
                continue
            or_h.append(image.height)
            or_w.append(image.width)
            or_base.append(first)
            first += (board.height - image.height + 1) * (board.width - image.width + 1)
            cells = sorted(image.cells)
            or_ncell.append(len(cells))
            cell_lists.append([r * 32 + c for r, c in cells])
            count += 1
        or_count.append(count)
    or_cells = np.zeros((max(len(cell_lists), 1), max(or_ncell + [1])), dtype=np.int64)
    for o, cells in enumerate(cell_lists):
        or_cells[o, : len(cells)] = cells
    sh_count = np.array([a.shape[0] for a in arrays], dtype=np.int64)
    specials = 0
    for name in edition.special_actions:
        specials |= 1 << SPECIAL_NAMES.index(name)
    params = np.zeros(12, dtype=np.int64)
    params[PR_W] = board.width
    params[PR_H] = board.height
    params[PR_WORDS] = board.words
    params[PR_CIRCLE] = edition.circle_size
    params[PR_ROUNDS] = edition.rounds
    params[PR_TPR] = edition.turns_per_round
    params[PR_REFILL] = edition.refill
    params[PR_FREE] = 1 if edition.final_free_choice else 0
    params[PR_SPECIALS] = specials
    params[PR_DECK] = len(deck_card)
    params[PR_NSTART] = len(edition.start_cards)
    params[PR_NPATCH] = len(patches)
    die = np.array(edition.die, dtype=np.int64)
    def ints(values):
        return np.array(values, dtype=np.int64)

    tables = (masks, sh_start, sh_count, patch_shape, cut_n, cut_piece, start_shape, deck_card,
              ints(or_start), ints(or_count), ints(or_h), ints(or_w), ints(or_base), ints(or_ncell), or_cells,
              die, params)
    return TableInfo(
        tables=tables,
        board=board,
        shapes=tuple(shapes),
        shape_start=tuple(starts),
        placements=tuple(placements(shape, board, flip) for shape in shapes),
        patch_ids=tuple(p.id for p in patches),
        cuts=cuts,
        start_ids=tuple(s.id for s in edition.start_cards),
        specials=tuple(name for name in SPECIAL_NAMES if (specials >> SPECIAL_NAMES.index(name)) & 1),
    )


def game_rng_words(seeds) -> np.ndarray:
    """The game generator states (int64[n, 4]) for a list of integer seeds."""
    from toolkit.games.rng import seed_state

    return np.array([seed_state(int(s)) for s in seeds], dtype=np.int64).reshape(len(seeds), 4)


# ============================================================================================
# Small helpers
# ============================================================================================


@njit(cache=True)
def _popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True)
def _row_bits(occ_k, r, width):
    """The shaded cells of row r as a width-bit number (bit c = column c)."""
    b = r * width
    w = b >> 6
    off = b & 63
    val = occ_k[w] >> off
    if off > 0:
        # The words are signed: clear the copies of bit 63 that the arithmetic shift brought in.
        val &= (1 << (64 - off)) - 1
    if off + width > 64:
        val = val | (occ_k[w + 1] << (64 - off))
    return val & ((1 << width) - 1)


@njit(cache=True)
def _fits(masks, g, occ_k, words):
    for w in range(words):
        if masks[g, w] & occ_k[w]:
            return False
    return True


@njit(cache=True)
def _cell_set(occ_k, cell):
    return (occ_k[cell >> 6] >> (cell & 63)) & 1


@njit(cache=True)
def _special_mode(params, st, k, s):
    """0: not available, 1: first use, 2: second use through AGAIN."""
    if not (params[PR_SPECIALS] >> s) & 1:
        return 0
    used = st[st[O_USED] + 4 * k + s]
    if used == 0:
        return 1
    if used == 1 and (params[PR_SPECIALS] >> S_AGAIN) & 1 and st[st[O_USED] + 4 * k + S_AGAIN] == 0:
        return 2
    return 0


@njit(cache=True)
def _put(out, row, kind, card, nb, cut, piece, place, col, h, w, again):
    out[row, A_KIND] = kind
    out[row, A_CARD] = card
    out[row, A_NB] = nb
    out[row, A_CUT] = cut
    out[row, A_PIECE] = piece
    out[row, A_PLACE] = place
    out[row, A_COL] = col
    out[row, A_H] = h
    out[row, A_W] = w
    out[row, A_AGAIN] = again


@njit(cache=True)
def _rolled_turns(params, rnd):
    if rnd == params[PR_ROUNDS] - 1 and params[PR_FREE]:
        return params[PR_TPR] - 1
    return params[PR_TPR]


# ============================================================================================
# Setup and the flow of a game
# ============================================================================================


@njit(cache=True)
def new_state(tables, players, rng):
    """A fresh game for `players` seats; chance comes from a copy of `rng` (int64[4])."""
    (masks, sh_start, sh_count, patch_shape, cut_n, cut_piece, start_shape, deck_card,
     or_start, or_count, or_h, or_w, or_base, or_ncell, or_cells, die, params) = tables
    deck = params[PR_DECK]
    rounds = params[PR_ROUNDS]
    o_circle = HEADER
    o_pile = o_circle + deck
    o_start = o_pile + deck
    o_used = o_start + players
    o_rscore = o_used + 4 * players
    o_drawn = o_rscore + rounds * players
    o_filled = o_drawn + players
    o_scored = o_filled + players
    size = o_scored + players
    st = np.zeros(size, dtype=np.int64)
    st[O_CIRCLE] = o_circle
    st[O_PILE] = o_pile
    st[O_START] = o_start
    st[O_USED] = o_used
    st[O_RSCORE] = o_rscore
    st[O_DRAWN] = o_drawn
    st[O_FILLED] = o_filled
    st[O_SCORED] = o_scored
    st[NPLAYERS] = players
    for i in range(4):
        st[RNG + i] = rng[i]
    g = st[RNG:RNG + 4]
    order = np.arange(deck)
    shuffle(g, order)
    for i in range(deck):
        st[o_pile + i] = deck_card[order[i]]
    n = min(params[PR_CIRCLE], deck)
    for i in range(n):
        st[o_circle + i] = st[o_pile + i]
    st[CIRCLE_N] = n
    st[PILE_POS] = n
    st[NEXT] = randbelow(g, n) if n > 0 else 0
    st[CUR] = -1
    nstart = params[PR_NSTART]
    # Start cards are dealt from a shuffled set; past the last card a fresh shuffled set follows,
    # so cards repeat only once every player before has one (more players than start cards).
    cards = np.arange(nstart)
    for k in range(players):
        if k % nstart == 0:
            for i in range(nstart):
                cards[i] = i
            shuffle(g, cards)
        st[o_start + k] = cards[k % nstart]
    st[PHASE] = P_START
    st[SEAT] = 0
    occ = np.zeros((players, params[PR_WORDS]), dtype=np.int64)
    return st, occ


@njit(cache=True)
def _roll(tables, st):
    """Begin a rolled turn, or go on to the free choice / scoring when the round has no more."""
    params = tables[-1]
    die = tables[-2]
    rnd = st[ROUND]
    n = st[CIRCLE_N]
    if st[TURN] >= _rolled_turns(params, rnd) or n == 0:
        st[CUR] = -1
        if rnd == params[PR_ROUNDS] - 1 and params[PR_FREE] and n > 0:
            st[PHASE] = P_FREE
        else:
            st[PHASE] = P_SCORE
        return
    g = st[RNG:RNG + 4]
    d = die[randbelow(g, die.shape[0])]
    st[ROLL] = d
    st[CUR] = (st[NEXT] + d - 1) % n
    st[PHASE] = P_TURN


@njit(cache=True)
def _new_round(tables, st):
    """The leftover cards become the next in line after the token; refill from the pile."""
    params = tables[-1]
    n = st[CIRCLE_N]
    oc = st[O_CIRCLE]
    tmp = np.empty(n, dtype=np.int64)
    for i in range(n):
        tmp[i] = st[oc + (st[NEXT] + i) % n]
    for i in range(n):
        st[oc + i] = tmp[i]
    added = 0
    while added < params[PR_REFILL] and st[PILE_POS] < params[PR_DECK]:
        st[oc + n + added] = st[st[O_PILE] + st[PILE_POS]]
        st[PILE_POS] += 1
        added += 1
    st[CIRCLE_N] = n + added
    st[NEXT] = 0
    st[TURN] = 0


@njit(cache=True)
def _end_step(tables, st):
    """The seat to act has finished its step; move to the next seat or the next step."""
    st[SEAT] += 1
    if st[SEAT] < st[NPLAYERS]:
        return
    st[SEAT] = 0
    phase = st[PHASE]
    params = tables[-1]
    if phase == P_START:
        st[ROUND] = 0
        st[TURN] = 0
        _roll(tables, st)
    elif phase == P_TURN:
        # Only the token card is discarded; the token keeps its place between its neighbours.
        oc = st[O_CIRCLE]
        n = st[CIRCLE_N]
        cur = st[CUR]
        for i in range(cur, n - 1):
            st[oc + i] = st[oc + i + 1]
        n -= 1
        st[CIRCLE_N] = n
        st[NEXT] = cur % n if n > 0 else 0
        st[TURN] += 1
        _roll(tables, st)
    elif phase == P_FREE:
        st[CUR] = -1
        st[PHASE] = P_SCORE
    elif phase == P_SCORE:
        st[ROUND] += 1
        if st[ROUND] >= params[PR_ROUNDS]:
            st[PHASE] = P_OVER
        else:
            _new_round(tables, st)
            _roll(tables, st)


# ============================================================================================
# Legal actions: one walker, three modes
# ============================================================================================


@njit(cache=True)
def _walk_shape(tables, shape, rows, out, idx, target, kind, card, nb, cut, piece, again):
    """Visit the placements of one shape that fit, in placements() order (orientation, row,
    col). Whole rows of anchors are tested at once: an anchor column is free when no cell of
    the orientation, shifted there, meets a shaded cell."""
    or_start = tables[8]
    or_count = tables[9]
    or_h = tables[10]
    or_w = tables[11]
    or_base = tables[12]
    or_ncell = tables[13]
    or_cells = tables[14]
    params = tables[-1]
    width = params[PR_W]
    height = params[PR_H]
    for o in range(or_start[shape], or_start[shape] + or_count[shape]):
        h = or_h[o]
        span = width - or_w[o] + 1
        anchors = (1 << span) - 1
        for r in range(height - h + 1):
            bad = 0
            for i in range(or_ncell[o]):
                cell = or_cells[o, i]
                bad |= rows[r + (cell >> 5)] >> (cell & 31)
            free = ~bad & anchors
            if free == 0:
                continue
            if target == -2:
                idx += _popcount(free)
                continue
            if target >= 0:
                count = _popcount(free)
                if idx + count <= target:
                    idx += count
                    continue
            base = or_base[o] + r * span
            while free:
                low = free & -free
                c = 0
                while not (low >> c) & 1:
                    c += 1
                if target == -1:
                    _put(out, idx, kind, card, nb, cut, piece, base + c, 0, 0, 0, again)
                elif target == idx:
                    _put(out, 0, kind, card, nb, cut, piece, base + c, 0, 0, 0, again)
                    return idx + 1
                idx += 1
                free ^= low
    return idx


@njit(cache=True)
def _walk_card(tables, rows, out, idx, target, card_pos, patch, nb, nb_again, cut_mode):
    """Draws of one card: whole, then (when CUT is available) every piece of every cut."""
    (masks, sh_start, sh_count, patch_shape, cut_n, cut_piece, start_shape, deck_card,
     or_start, or_count, or_h, or_w, or_base, or_ncell, or_cells, die, params) = tables
    words = params[PR_WORDS]
    again = S_NEIGHBOUR + 1 if nb_again else 0
    idx = _walk_shape(tables, patch_shape[patch], rows, out, idx, target, K_DRAW, card_pos, nb, -1, 0, again)
    if target >= 0 and idx > target:
        return idx
    if cut_mode == 0 or (cut_mode == 2 and nb_again):
        return idx
    if cut_mode == 2:
        again = S_CUT + 1
    for c in range(cut_n[patch]):
        for piece in range(2):
            idx = _walk_shape(tables, cut_piece[patch, c, piece], rows, out, idx, target, K_DRAW, card_pos,
                              nb, c, piece, again)
            if target >= 0 and idx > target:
                return idx
    return idx


@njit(cache=True)
def _walk(tables, st, occ, target, out):
    """Visit the legal actions of the seat to act in canonical order.

    target == -2: only count; -1: write every action into out; >= 0: write action number
    `target` into out[0]. Returns the number of actions visited.
    """
    (masks, sh_start, sh_count, patch_shape, cut_n, cut_piece, start_shape, deck_card,
     or_start, or_count, or_h, or_w, or_base, or_ncell, or_cells, die, params) = tables
    phase = st[PHASE]
    if phase == P_OVER:
        return 0
    k = st[SEAT]
    occ_k = occ[k]
    words = params[PR_WORDS]
    width = params[PR_W]
    height = params[PR_H]
    oc = st[O_CIRCLE]
    n = st[CIRCLE_N]
    rows = np.empty(height, dtype=np.int64)
    for r in range(height):
        rows[r] = _row_bits(occ_k, r, width)
    idx = 0
    if phase == P_START:
        shape = start_shape[st[st[O_START] + k]]
        idx = _walk_shape(tables, shape, rows, out, idx, target, K_START, -1, 0, -1, 0, 0)
        if target >= 0 and idx > target:
            return idx
        if idx == 0:
            if target == -1 or target == idx:
                _put(out, 0 if target >= 0 else idx, K_PASS, -1, 0, -1, 0, 0, 0, 0, 0, 0)
                if target >= 0:
                    return idx + 1
            idx += 1
    elif phase == P_TURN:
        cut_mode = _special_mode(params, st, k, S_CUT)
        nb_mode = _special_mode(params, st, k, S_NEIGHBOUR) if n >= 2 else 0
        cur = st[CUR]
        for nb in range(3):
            if nb > 0 and nb_mode == 0:
                continue
            if nb == 0:
                pos = cur
            elif nb == 1:
                pos = (cur - 1 + n) % n
            else:
                pos = (cur + 1) % n
            idx = _walk_card(tables, rows, out, idx, target, pos, st[oc + pos], nb,
                             nb > 0 and nb_mode == 2, cut_mode)
            if target >= 0 and idx > target:
                return idx
    elif phase == P_FREE:
        cut_mode = _special_mode(params, st, k, S_CUT)
        for pos in range(n):
            patch = st[oc + pos]
            seen = False
            for q in range(pos):
                if st[oc + q] == patch:
                    seen = True
                    break
            if seen:
                continue
            idx = _walk_card(tables, rows, out, idx, target, pos, patch, 0, False, cut_mode)
            if target >= 0 and idx > target:
                return idx
    elif phase == P_SCORE:
        if st[st[O_FILLED] + k] == 0:
            if target == -1 or target == idx:
                _put(out, 0 if target >= 0 else idx, K_SCORE, -1, 0, -1, 0, 0, 0, 0, 0, 0)
                if target >= 0:
                    return idx + 1
            idx += 1
        else:
            for r0 in range(height):
                for c0 in range(width):
                    if not (rows[r0] >> c0) & 1:
                        continue
                    # Widest run from c0 in the band r0..r0+h-1, shrinking as rows are added.
                    limit = width - c0
                    for h in range(1, height - r0 + 1):
                        bits = rows[r0 + h - 1] >> c0
                        run = 0
                        while run < limit and (bits >> run) & 1:
                            run += 1
                        limit = run
                        if limit == 0:
                            break
                        for w in range(1, limit + 1):
                            if target == -1:
                                _put(out, idx, K_SCORE, -1, 0, -1, 0, r0, c0, h, w, 0)
                            elif target == idx:
                                _put(out, 0, K_SCORE, -1, 0, -1, 0, r0, c0, h, w, 0)
                                return idx + 1
                            idx += 1
    if phase != P_START and phase != P_SCORE:
        if target == -1 or target == idx:
            _put(out, 0 if target >= 0 else idx, K_PASS, -1, 0, -1, 0, 0, 0, 0, 0, 0)
            if target >= 0:
                return idx + 1
        idx += 1
    single_mode = _special_mode(params, st, k, S_SINGLE)
    if single_mode:
        again = S_SINGLE + 1 if single_mode == 2 else 0
        if target == -2:
            return idx + width * height - st[st[O_FILLED] + k]
        for cell in range(width * height):
            if not _cell_set(occ_k, cell):
                if target == -1:
                    _put(out, idx, K_SINGLE, -1, 0, -1, 0, cell, 0, 0, 0, again)
                elif target == idx:
                    _put(out, 0, K_SINGLE, -1, 0, -1, 0, cell, 0, 0, 0, again)
                    return idx + 1
                idx += 1
    return idx


@njit(cache=True)
def count_actions(tables, st, occ):
    """Number of legal actions of the seat to act (0 when the game is over)."""
    dummy = np.zeros((1, NA), dtype=np.int64)
    return _walk(tables, st, occ, -2, dummy)


@njit(cache=True)
def list_actions(tables, st, occ):
    """Every legal action of the seat to act, int64[n, NA], in canonical order."""
    dummy = np.zeros((1, NA), dtype=np.int64)
    n = _walk(tables, st, occ, -2, dummy)
    out = np.zeros((n, NA), dtype=np.int64)
    _walk(tables, st, occ, -1, out)
    return out


@njit(cache=True)
def nth_action(tables, st, occ, i, act):
    """Write legal action number i (canonical order) into act (int64[NA])."""
    out = act.reshape(1, NA)
    _walk(tables, st, occ, i, out)


# ============================================================================================
# Validation and apply
# ============================================================================================


@njit(cache=True)
def _check_special(params, st, k, s, again_flag):
    """Whether seat k may use special s now, given whether the action says AGAIN for it."""
    if not (params[PR_SPECIALS] >> s) & 1:
        return ERR_SPECIAL_OFF
    mode = _special_mode(params, st, k, s)
    if mode == 0:
        if st[st[O_USED] + 4 * k + s] >= 1 and again_flag:
            return ERR_AGAIN_USED
        return ERR_SPECIAL_USED
    if mode == 1 and again_flag:
        return ERR_AGAIN_NEEDLESS
    if mode == 2 and not again_flag:
        return ERR_SPECIAL_USED
    return OK


@njit(cache=True)
def check_action(tables, st, occ, act):
    """OK when `act` is legal for the seat to act, else the ERR_* code of the broken rule."""
    (masks, sh_start, sh_count, patch_shape, cut_n, cut_piece, start_shape, deck_card,
     or_start, or_count, or_h, or_w, or_base, or_ncell, or_cells, die, params) = tables
    phase = st[PHASE]
    if phase == P_OVER:
        return ERR_PHASE
    k = st[SEAT]
    occ_k = occ[k]
    kind = act[A_KIND]
    again = act[A_AGAIN]
    words = params[PR_WORDS]
    width = params[PR_W]
    height = params[PR_H]
    if again != 0 and (kind == K_START or kind == K_PASS or kind == K_SCORE):
        return ERR_SHAPE
    if kind == K_SINGLE:
        if again != 0 and again != S_SINGLE + 1:
            return ERR_SHAPE
        code = _check_special(params, st, k, S_SINGLE, again != 0)
        if code != OK:
            return code
        cell = act[A_PLACE]
        if cell < 0 or cell >= width * height:
            return ERR_RECT
        if _cell_set(occ_k, cell):
            return ERR_CELL_SHADED
        return OK
    if kind == K_START:
        if phase != P_START:
            return ERR_PHASE
        g = act[A_PLACE]
        shape = start_shape[st[st[O_START] + k]]
        if g < sh_start[shape] or g >= sh_start[shape] + sh_count[shape]:
            return ERR_SHAPE
        if not _fits(masks, g, occ_k, words):
            return ERR_OVERLAP
        return OK
    if kind == K_PASS:
        if phase == P_SCORE:
            return ERR_PHASE
        if phase == P_START:
            shape = start_shape[st[st[O_START] + k]]
            for g in range(sh_start[shape], sh_start[shape] + sh_count[shape]):
                if _fits(masks, g, occ_k, words):
                    return ERR_MUST_DRAW
        return OK
    if kind == K_SCORE:
        if phase != P_SCORE:
            return ERR_PHASE
        h = act[A_H]
        w = act[A_W]
        if h == 0:
            if st[st[O_FILLED] + k] != 0:
                return ERR_SCORE_NONE
            return OK
        r0 = act[A_PLACE]
        c0 = act[A_COL]
        if h < 0 or w <= 0 or r0 < 0 or c0 < 0 or r0 + h > height or c0 + w > width:
            return ERR_RECT
        line = ((1 << w) - 1) << c0
        for r in range(r0, r0 + h):
            if _row_bits(occ_k, r, width) & line != line:
                return ERR_NOT_FILLED
        return OK
    if kind != K_DRAW:
        return ERR_SHAPE
    if phase != P_TURN and phase != P_FREE:
        return ERR_PHASE
    n = st[CIRCLE_N]
    oc = st[O_CIRCLE]
    pos = act[A_CARD]
    nb = act[A_NB]
    if again != 0 and again != S_NEIGHBOUR + 1 and again != S_CUT + 1:
        return ERR_SHAPE
    if phase == P_TURN:
        cur = st[CUR]
        if nb == 0:
            if pos != cur:
                return ERR_CARD
        else:
            code = _check_special(params, st, k, S_NEIGHBOUR, again == S_NEIGHBOUR + 1)
            if code != OK:
                return code
            if n < 2:
                return ERR_NO_NEIGHBOUR
            if nb == 1:
                want = (cur - 1 + n) % n
            elif nb == 2:
                want = (cur + 1) % n
            else:
                return ERR_CARD
            if pos != want:
                return ERR_CARD
    else:
        if nb != 0:
            return ERR_NO_NEIGHBOUR
        if pos < 0 or pos >= n:
            return ERR_CARD
    if again == S_NEIGHBOUR + 1 and nb == 0:
        return ERR_AGAIN_NEEDLESS
    patch = st[oc + pos]
    cut = act[A_CUT]
    if cut >= 0:
        code = _check_special(params, st, k, S_CUT, again == S_CUT + 1)
        if code == ERR_SPECIAL_USED and again == S_NEIGHBOUR + 1 and _special_mode(params, st, k, S_CUT) == 2:
            return ERR_TWO_AGAIN
        if code != OK:
            return code
        if cut >= cut_n[patch] or act[A_PIECE] < 0 or act[A_PIECE] > 1:
            return ERR_SHAPE
        shape = cut_piece[patch, cut, act[A_PIECE]]
    elif cut != -1:
        return ERR_SHAPE
    else:
        if again == S_CUT + 1:
            return ERR_AGAIN_NEEDLESS
        if act[A_PIECE] != 0:
            return ERR_SHAPE
        shape = patch_shape[patch]
    g = act[A_PLACE]
    if g < sh_start[shape] or g >= sh_start[shape] + sh_count[shape]:
        return ERR_SHAPE
    if not _fits(masks, g, occ_k, words):
        return ERR_OVERLAP
    return OK


@njit(cache=True)
def rectangle_points(h, w):
    """b*b + (a - b) for an a x b rectangle with a >= b; 0 for no rectangle."""
    if h <= 0 or w <= 0:
        return 0
    a = max(h, w)
    b = min(h, w)
    return b * b + (a - b)


@njit(cache=True)
def _use_special(st, k, s):
    st[st[O_USED] + 4 * k + s] += 1


@njit(cache=True)
def apply_action(tables, st, occ, act):
    """Apply one legal action of the seat to act (validate first with check_action)."""
    masks = tables[0]
    params = tables[-1]
    words = params[PR_WORDS]
    k = st[SEAT]
    kind = act[A_KIND]
    again = act[A_AGAIN]
    if again != 0:
        _use_special(st, k, S_AGAIN)
    if kind == K_SINGLE:
        cell = act[A_PLACE]
        occ[k, cell >> 6] |= 1 << (cell & 63)
        st[st[O_FILLED] + k] += 1
        _use_special(st, k, S_SINGLE)
        return
    if kind == K_START or kind == K_DRAW:
        g = act[A_PLACE]
        added = 0
        for w in range(words):
            occ[k, w] |= masks[g, w]
            added += _popcount(masks[g, w])
        st[st[O_FILLED] + k] += added
        if kind == K_DRAW:
            st[st[O_DRAWN] + k] += 1
            if act[A_NB] != 0:
                _use_special(st, k, S_NEIGHBOUR)
            if act[A_CUT] >= 0:
                _use_special(st, k, S_CUT)
    elif kind == K_SCORE:
        st[st[O_RSCORE] + st[ROUND] * st[NPLAYERS] + k] = rectangle_points(act[A_H], act[A_W])
    _end_step(tables, st)


# ============================================================================================
# Scores
# ============================================================================================


@njit(cache=True)
def empty_cells(tables, st, occ, k):
    params = tables[-1]
    return params[PR_W] * params[PR_H] - st[st[O_FILLED] + k]


@njit(cache=True)
def final_scores(tables, st, occ):
    """Intermediate scores so far minus one per empty cell, per seat."""
    players = st[NPLAYERS]
    rounds = tables[-1][PR_ROUNDS]
    out = np.zeros(players, dtype=np.int64)
    for k in range(players):
        total = 0
        for r in range(rounds):
            total += st[st[O_RSCORE] + r * players + k]
        out[k] = total - empty_cells(tables, st, occ, k)
    return out


@njit(cache=True)
def _best_in_rows(rows, width, height):
    """(score, area, row, col, height, width) of the best fully shaded rectangle of a row set.

    Ties as toolkit.geometry.board.best_rectangle: larger area, then topmost, leftmost, taller.
    """
    best_s = 0
    best_a = 0
    br = 0
    bc = 0
    bh = 0
    bw = 0
    for top in range(height):
        common = (1 << width) - 1
        for bottom in range(top, height):
            common &= rows[bottom]
            if common == 0:
                break
            h = bottom - top + 1
            runs = common
            while runs:
                low = runs & -runs
                run = runs & ~(runs + low)
                start = 0
                while not (low >> start) & 1:
                    start += 1
                length = _popcount(run)
                s = rectangle_points(h, length)
                a = h * length
                better = s > best_s or (s == best_s and a > best_a)
                if not better and s == best_s and a == best_a and top == br:
                    better = start < bc or (start == bc and h > bh)
                if better:
                    best_s = s
                    best_a = a
                    br = top
                    bc = start
                    bh = h
                    bw = length
                runs &= ~run
    return best_s, br, bc, bh, bw


@njit(cache=True)
def best_rectangle(tables, occ_k):
    """(score, row, col, height, width) of the best fully shaded rectangle of one sheet."""
    params = tables[-1]
    width = params[PR_W]
    height = params[PR_H]
    rows = np.empty(height, dtype=np.int64)
    for r in range(height):
        rows[r] = _row_bits(occ_k, r, width)
    return _best_in_rows(rows, width, height)


# ============================================================================================
# Choosers (bots) and whole games
# ============================================================================================


@njit(cache=True)
def choose_random(tables, st, occ, bot_rng, act):
    """Uniform over the legal actions of the seat to act; writes the choice into act."""
    n = count_actions(tables, st, occ)
    nth_action(tables, st, occ, randbelow(bot_rng, n), act)


@njit(cache=True)
def _rows_of(occ_k, width, height, rows):
    for r in range(height):
        rows[r] = _row_bits(occ_k, r, width)


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
        edges += _popcount((padded ^ (padded >> 1)) & ((1 << (width + 1)) - 1))
        above = rows[r - 1] if r > 0 else full
        edges += _popcount(row ^ above)
    edges += _popcount(rows[height - 1] ^ full)
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
        count += _popcount(empty & left & right & up & down & full)
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
    rnd = st[ROUND]
    phase = st[PHASE]
    free = 1 if (rnd == params[PR_ROUNDS] - 1 and params[PR_FREE]) else 0
    rolled = _rolled_turns(params, rnd)
    if phase == P_START:
        return rolled + free if params[PR_ROUNDS] == 1 else params[PR_TPR]
    if phase == P_TURN:
        return rolled - st[TURN] - 1 + free
    return 0


@njit(cache=True)
def _turns_left_in_game(params, st):
    rnd = st[ROUND]
    after = (params[PR_ROUNDS] - rnd - 1) * params[PR_TPR]
    return after + _turns_left_in_round(params, st)


@njit(cache=True)
def _evaluate(rows, width, height, pre, turns_left, spare_single, gw):
    _prefix(rows, width, height, pre)
    filled = pre[height, width]
    value = gw[G_ROUND] * _round_potential(pre, width, height, turns_left, spare_single, gw)
    if gw[G_BEST] != 0.0:
        value += gw[G_BEST] * _best_in_rows(rows, width, height)[0]
    value += gw[G_FILLED] * filled
    value -= gw[G_ROUGH] * _roughness(rows, width, height)
    value -= gw[G_ISOLATED] * _isolated(rows, width, height)
    return value


@njit(cache=True)
def choose_greedy_weighted(tables, st, occ, bot_rng, act, gw):
    """The greedy chooser with explicit weights (see choose_greedy)."""
    (masks, sh_start, sh_count, patch_shape, cut_n, cut_piece, start_shape, deck_card,
     or_start, or_count, or_h, or_w, or_base, or_ncell, or_cells, die, params) = tables
    width = params[PR_W]
    height = params[PR_H]
    words = params[PR_WORDS]
    k = st[SEAT]
    phase = st[PHASE]
    rows = np.empty(height, dtype=np.int64)
    pre = np.empty((height + 1, width + 1), dtype=np.int64)
    single_mode = _special_mode(params, st, k, S_SINGLE)
    if phase == P_SCORE:
        _rows_of(occ[k], width, height, rows)
        now = _best_in_rows(rows, width, height)
        last_round = st[ROUND] == params[PR_ROUNDS] - 1
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
                gain = _best_in_rows(rows, width, height)[0] - now[0]
                rows[r] &= ~(1 << c)
                if gain > best_gain:
                    best_gain = gain
                    best_cell = cell
            if best_cell >= 0 and (last_round or best_gain >= gw[G_SINGLE_GAIN]):
                _put(act.reshape(1, NA), 0, K_SINGLE, -1, 0, -1, 0, best_cell, 0, 0, 0,
                     S_SINGLE + 1 if single_mode == 2 else 0)
                return
        _put(act.reshape(1, NA), 0, K_SCORE, -1, 0, -1, 0, now[1], now[2], now[3], now[4], 0)
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
    if depth > 0 and turns_left > 0 and (phase == P_START or phase == P_TURN):
        best_i = _look_ahead(tables, st, occ_k, acts, values, costs, depth, turns_left, spare, gw, best_i)
    for j in range(NA):
        act[j] = acts[best_i, j]


@njit(cache=True)
def _look_ahead(tables, st, occ_k, acts, values, costs, depth, turns_left, spare, gw, best_i):
    """Re-rank the `depth` best draws by the expected value of the best plain drawing of the
    next turn's card, over the die faces (the circle is known, so the next card is too)."""
    masks, sh_start, sh_count, patch_shape = tables[0], tables[1], tables[2], tables[3]
    die = tables[-2]
    params = tables[-1]
    width = params[PR_W]
    height = params[PR_H]
    words = params[PR_WORDS]
    oc = st[O_CIRCLE]
    n = st[CIRCLE_N]
    if st[PHASE] == P_TURN:
        # The token card leaves the circle; the token stays in its place.
        n_after = n - 1
        nxt = st[CUR] % n_after if n_after > 0 else 0
    else:
        n_after = n
        nxt = st[NEXT]
    if n_after <= 0:
        return best_i
    nfaces = die.shape[0]
    next_patch = np.empty(nfaces, dtype=np.int64)
    for f in range(nfaces):
        pos = (nxt + die[f] - 1) % n_after
        if st[PHASE] == P_TURN and pos >= st[CUR]:
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
                if not _fits(masks, g, board, words):
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


@njit(cache=True)
def play_game(tables, st, occ, bot_kinds, bot_rng, gw):
    """Play the game in (st, occ) to the end with one bot kind per seat."""
    act = np.zeros(NA, dtype=np.int64)
    while st[PHASE] != P_OVER:
        kind = bot_kinds[st[SEAT]]
        if kind == BOT_GREEDY:
            choose_greedy_weighted(tables, st, occ, bot_rng, act, gw)
        else:
            choose_random(tables, st, occ, bot_rng, act)
        apply_action(tables, st, occ, act)


@njit(cache=True)
def play_games(tables, players, seed_words, bot_kinds, bot_words, gw):
    """One game per row of seed_words (int64[n, 4] game generator states), bots seeded by the
    rows of bot_words (int64[n, 4]). Returns the RESULT_FIELDS_DOODLE arrays in that order:
    score, round_scores, empty, start_card, specials, drawn."""
    n = seed_words.shape[0]
    rounds = tables[-1][PR_ROUNDS]
    score = np.zeros((n, players), dtype=np.int32)
    round_scores = np.zeros((n, players, rounds), dtype=np.int32)
    empty = np.zeros((n, players), dtype=np.int32)
    start_card = np.zeros((n, players), dtype=np.int16)
    specials = np.zeros((n, players, 4), dtype=np.int8)
    drawn = np.zeros((n, players), dtype=np.int32)
    bot_rng = np.zeros(4, dtype=np.int64)
    for i in range(n):
        st, occ = new_state(tables, players, seed_words[i])
        for j in range(4):
            bot_rng[j] = bot_words[i, j]
        play_game(tables, st, occ, bot_kinds, bot_rng, gw)
        final = final_scores(tables, st, occ)
        for k in range(players):
            score[i, k] = final[k]
            for r in range(rounds):
                round_scores[i, k, r] = st[st[O_RSCORE] + r * players + k]
            empty[i, k] = empty_cells(tables, st, occ, k)
            start_card[i, k] = st[st[O_START] + k]
            for s in range(4):
                specials[i, k, s] = st[st[O_USED] + 4 * k + s]
            drawn[i, k] = st[st[O_DRAWN] + k]
    return score, round_scores, empty, start_card, specials, drawn
