"""The compiled rules of Patchwork Doodle: state, legal actions, apply, scoring, the random chooser.

This module is the one source of truth for the Doodle rules. The Python layer
(toolkit.games.doodle.game), the bots (toolkit.bots.doodle) and the one Doodle turn loop
(toolkit.families.doodle.loop) drive these functions; every function is `@njit(cache=True)` and also
runs with NUMBA_DISABLE_JIT=1.

Public API (all arrays are numpy; nothing here keeps global state)
------------------------------------------------------------------
- ``tables = build_tables(edition)`` (plain Python, cached per edition): a ``DoodleTables``
  namedtuple, read by field name: the placements of every shape the edition can draw (deck
  patches, their straight-cut pieces, start cards) as int64 mask words, an orientation table
  (cells of each orientation, for testing a whole row of anchors at once), the cut table, the
  deck, the die and ``params`` (scalars, P_* indices). Pass it unchanged to every compiled
  function. ``tables_info(edition)`` gives the Python-side lookups (shape objects, placement
  coordinates) the notation layer uses.
- ``st, occ = new_state(tables, players, rng)``: a fresh game. ``rng`` is an int64[4] generator
  state from ``toolkit.games.rng.seed_state(seed)``; it is copied into ``st`` and every chance
  event of the game (deck shuffle, token start, start cards, die rolls) draws from that copy,
  in that order. ``st`` is int64[...] (header slots S_*, then per-seat sections whose offsets
  the S_*_AT slots hold), ``occ`` is int64[players, words], the shaded cells of each sheet (bit
  row*width+col).
- ``st[S_PHASE] == PH_OVER`` ends the game; ``st[S_SEAT]`` is the seat to act.
- ``n = count_actions(tables, st, occ)``; ``acts = list_actions(tables, st, occ)`` ->
  int64[n, NA] in the canonical order; ``apply_action(tables, st, occ, act)`` applies one legal
  action row (unchecked); ``check_action(tables, st, occ, act)`` -> R_OK or the R_* code of the
  one rule the action breaks; REASONS words each code.
- The step's drawing sources, which the listing above is built on and the bots walk too:
  ``walk_sources(tables, st, src)`` writes one row per source (columns SRC_*: kind, card, A_NB,
  A_CUT, A_PIECE, A_AGAIN, shape, patch) into ``src`` (int64[max_sources(tables, st), NSRC]) and
  returns how many; a legal START / DRAW action is a source plus a fitting placement of its
  shape. ``turn_card(cur, n, nb)`` (token card or neighbour) and ``first_copy(cards, at, pos)``
  (the free choice's cards) are its parts that hold for any circle.
- The chance model: ``die_faces(die, faces, chance)`` (the die's distinct faces and their
  chances); the token's walk ``token_card(nxt, roll, n)`` (where a roll lands),
  ``discard_card(cards, at, n, pos)`` and ``token_next(cur, n_left)`` (the circle and the token
  once the token card is discarded). apply_action moves the token with these very functions.
- ``choose_random(tables, st, occ, bot_rng, act)`` writes a uniform legal action row into
  ``act`` (int64[NA]) from a bot generator state ``bot_rng`` (int64[4], separate from the game's).
- The special actions: ``special_mode(params, st, seat, s)`` (0 not available, 1 first use, 2
  through AGAIN), and on bare use counts, for a search that spends them itself,
  ``special_mode_of(specials, uses, again_uses, s)`` and ``special_uses_left(...)``.
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
from collections import namedtuple
from dataclasses import dataclass

import numpy as np
from toolkit.jit import njit

from toolkit.games.rng import randbelow, shuffle
from toolkit.geometry.board import Board, Placement, placement_array, placements
from toolkit.geometry.shape import Cut, Shape
from toolkit.specs.models import Edition

# ----- state slots (st[S_*]) -----------------------------------------------------------------
# Same convention as the time-track kernel: S_* names a slot of the state array. The per-seat
# sections follow the header at offsets that depend on the number of players; the S_*_AT slots
# hold where each section starts (st[st[S_USED_AT] + 4 * seat + special], ...).
S_PHASE = 0
"""PH_* of the step in play."""
S_ROUND = 1
"""0-based round (= rounds once the game is over)."""
S_TURN = 2
"""0-based rolled turn within the round."""
S_SEAT = 3
"""Seat to act."""
S_PLAYERS = 4
S_NEXT = 5
"""Circle position of the first card clockwise after the token."""
S_CUR = 6
"""Circle position of the token card (the current patch) during a rolled turn, else -1."""
S_CIRCLE_LEN = 7
"""Cards in the circle."""
S_PILE_POS = 8
"""Position in the pile of the next card to come face up."""
S_ROLL = 9
"""Last die roll (0 before the first)."""
S_RNG = 10
"""Four words of the game's generator: st[S_RNG:S_RNG + 4]."""
S_CIRCLE_AT = 14
"""-> patch index of each circle position, clockwise (deck-size slots, S_CIRCLE_LEN used)."""
S_PILE_AT = 15
"""-> the shuffled deck, top first (deck-size slots)."""
S_START_AT = 16
"""-> start card index of each seat."""
S_USED_AT = 17
"""-> times each seat used each special action (4 slots per seat, SP_* order)."""
S_ROUND_SCORES_AT = 18
"""-> rectangle score of round r, seat k at r * players + k."""
S_DRAWN_AT = 19
"""-> patch cards drawn by each seat (the start card not counted)."""
S_FILLED_AT = 20
"""-> shaded cells of each seat."""
S_SCORED_AT = 21
"""-> one spare slot per seat (kept so the state layout, and every seeded game, is unchanged)."""
HEADER_SIZE = 24

PH_START = 0
PH_TURN = 1
PH_FREE = 2
PH_SCORE = 3
PH_OVER = 4

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

SP_NEIGHBOUR = 0
SP_SINGLE = 1
SP_CUT = 2
SP_AGAIN = 3
SPECIAL_NAMES = ("neighbour", "single", "cut", "again")

# ----- drawing sources (rows written by walk_sources) ------------------------------------------
# A legal drawing is a source (which card, through which special actions, which shape) and a
# placement of its shape that fits the sheet; walk_sources lists the step's sources, and the
# kernel's own listing of actions is built on it.
SRC_KIND = 0
"""K_START (the start card), K_DRAW (a card of the circle) or K_SINGLE (one empty cell)."""
SRC_CARD = 1
"""Circle position of the card (A_CARD); -1 for the start card and SINGLE."""
SRC_NB = 2
"""A_NB: 0 the token card or the free choice, 1 the card before the token card, 2 the one after."""
SRC_CUT = 3
"""A_CUT: -1 the whole card, else the cut index (CUT)."""
SRC_PIECE = 4
"""A_PIECE: 0 / 1, the piece of the cut drawn (0 for a whole card)."""
SRC_AGAIN = 5
"""A_AGAIN: 0, or 1 + the special action AGAIN repeats."""
SRC_SHAPE = 6
"""Shape drawn (rows shape_first.. of the placement table); -1 for SINGLE."""
SRC_PATCH = 7
"""Deck patch index (K_DRAW), start card index (K_START), -1 (K_SINGLE)."""
NSRC = 8

# ----- parameters (tables.params) --------------------------------------------------------------
P_WIDTH = 0
P_HEIGHT = 1
P_WORDS = 2
P_CIRCLE = 3
P_ROUNDS = 4
P_TURNS = 5
P_REFILL = 6
P_FREE_CHOICE = 7
P_SPECIALS = 8
P_DECK = 9
P_START_CARDS = 10
P_PATCHES = 11
P_PENALTY = 12
"""Points lost per empty cell at the end (the edition's empty_penalty)."""
N_PARAMS = 13

# ----- check_action reasons: one code per rule broken, worded by REASONS ---------------------
R_OK = 0
R_GAME_OVER = 1
R_START_FIRST = 2
R_START_DONE = 3
R_SCORING_NOW = 4
R_NOT_SCORING = 5
R_UNKNOWN_KIND = 6
R_SPECIAL_OFF = 7
R_SPECIAL_USED = 8
R_AGAIN_USED = 9
R_AGAIN_NEEDLESS = 10
R_AGAIN_MISMATCH = 11
R_TWO_AGAIN = 12
R_OFF_BOARD = 13
R_OVERLAP = 14
R_MUST_DRAW_START = 15
R_NOT_TOKEN_CARD = 16
R_NO_NEIGHBOUR = 17
R_NEIGHBOUR_FREE_CHOICE = 18
R_PICK_A_CARD = 19
R_NOT_IN_CIRCLE = 20
R_NOT_A_CUT = 21
R_NO_SUCH_PIECE = 22
R_CELL_OFF_BOARD = 23
R_CELL_SHADED = 24
R_RECT_OFF_BOARD = 25
R_NOT_FILLED = 26
R_SCORE_NONE = 27

_SPECIALS_RULE = "RULINGS 18: each special action once per game, AGAIN repeats one other"
_DRAW_RULE = "drawing rules: a patch goes on empty spaces, fully inside the drawing board"
_SCORE_RULE = "RULINGS 19: score exactly one fully shaded rectangle"
_TURN_RULE = "RULINGS 14-15: the token card (or a neighbour, or the free choice on the final turn)"
_FREE_RULE = "RULINGS 15: final turn, each player picks any card left"
_START_RULE = "RULINGS 17: each player starts by drawing the start card's patch"
_CUT_RULE = "RULINGS 18: CUT is one full straight line leaving exactly two connected pieces"
_SINGLE_RULE = "RULINGS 18: SINGLE shades one empty space"

REASONS: dict[int, tuple[str, str]] = {
    R_GAME_OVER: ("the game is over", "game end"),
    R_START_FIRST: ("player {player} first draws the start card's patch ('start oO rR cC'); the start card is"
                    " drawn at setup, before any turn or special action", _START_RULE),
    R_START_DONE: ("the start card's patch is drawn only at setup", _START_RULE),
    R_SCORING_NOW: ("intermediate scoring after round {round}: player {player} names a rectangle"
                    " ('score rR cC WxH')", _SCORE_RULE),
    R_NOT_SCORING: ("{step}: rectangles are scored only after the round's last turn", _SCORE_RULE),
    R_UNKNOWN_KIND: ("not a Doodle action", _TURN_RULE),
    R_SPECIAL_OFF: ("the {edition} edition has no {special} special action", _SPECIALS_RULE),
    R_SPECIAL_USED: ("{special} already used{again_hint}", _SPECIALS_RULE),
    R_AGAIN_USED: ("AGAIN already used", _SPECIALS_RULE),
    R_AGAIN_NEEDLESS: ("{special} has not been used yet; AGAIN only repeats a special action already used",
                       _SPECIALS_RULE),
    R_AGAIN_MISMATCH: ("AGAIN repeats the special action the action itself uses", _SPECIALS_RULE),
    R_TWO_AGAIN: ("AGAIN repeats only one special action; NEIGHBOUR and CUT both need it here", _SPECIALS_RULE),
    R_OFF_BOARD: ("{what} in orientation o{orientation} at row {row}, col {col} does not fit inside the"
                  " {board} board ({orientations} orientation(s): o0..o{last})", _DRAW_RULE),
    R_OVERLAP: ("cell (row {overlap_row}, col {overlap_col}) is already shaded", _DRAW_RULE),
    R_MUST_DRAW_START: ("the start card's patch fits, so it must be drawn", _START_RULE),
    R_NOT_TOKEN_CARD: ("{step}: player {player} draws the token card (or a neighbour with NEIGHBOUR)",
                       _TURN_RULE),
    R_NO_NEIGHBOUR: ("the circle has only the token card: it has no neighbour", _SPECIALS_RULE),
    R_NEIGHBOUR_FREE_CHOICE: ("NEIGHBOUR needs a token card; on the final turn any card may be picked with"
                              " 'free ID'", _SPECIALS_RULE),
    R_PICK_A_CARD: ("the final turn has no token card: pick one of {circle} with 'free ID draw ...'", _FREE_RULE),
    R_NOT_IN_CIRCLE: ("{card} is not in the circle (cards left: {circle})", _FREE_RULE),
    R_NOT_A_CUT: ("{cut} is not a cut of {patch}: a cut is one full straight line leaving exactly two"
                  " connected pieces (its cuts: {cuts})", _CUT_RULE),
    R_NO_SUCH_PIECE: ("a cut leaves two pieces, a and b", _CUT_RULE),
    R_CELL_OFF_BOARD: ("cell (row {row}, col {col}) is outside the {board} board", _SINGLE_RULE),
    R_CELL_SHADED: ("cell (row {row}, col {col}) is already shaded", _SINGLE_RULE),
    R_RECT_OFF_BOARD: ("rectangle {width}x{height} at row {row}, col {col} does not lie on the {board} board",
                       _SCORE_RULE),
    R_NOT_FILLED: ("rectangle {width}x{height} at row {row}, col {col} has an empty cell at (row {empty_row},"
                   " col {empty_col})", _SCORE_RULE),
    R_SCORE_NONE: ("the sheet has shaded cells: name a rectangle to score (the best is '{best}')", _SCORE_RULE),
}
"""Reason code -> (message, rule). The message's {fields} are filled by the game layer from the
position and the action (toolkit.games.doodle.game.DoodleGame.explain)."""


DoodleTables = namedtuple(
    "DoodleTables",
    [
        "place_masks",  # int64[T, words] every placement of every shape, by global placement row
        "shape_first",  # int64[S] first placement row of each shape
        "shape_count",  # int64[S] placements of each shape
        "patch_shape",  # int64[N] shape of each deck patch
        "cut_count",  # int64[N] straight cuts of each deck patch
        "cut_piece",  # int64[N, C, 2] shape of piece a / b of each cut
        "start_shape",  # int64[starts] shape of each start card
        "deck_card",  # int64[deck] patch index of each card of the deck (copies repeated)
        "orient_first",  # int64[S] first orientation row of each shape
        "orient_count",  # int64[S] orientations of each shape that fit the board
        "orient_height",  # int64[O] rows of each orientation
        "orient_width",  # int64[O] columns of each orientation
        "orient_place",  # int64[O] placement row of the orientation at row 0, col 0
        "orient_cell_count",  # int64[O] cells of each orientation
        "orient_cells",  # int64[O, max cells] row * 32 + col of each cell
        "die",  # int64[faces] die faces
        "params",  # int64[N_PARAMS] scalars, by P_* index
    ],
)
"""The arrays of one Doodle edition that every compiled function reads (a namedtuple numba
accepts as an argument, read by field name)."""


@dataclass(frozen=True)
class TableInfo:
    """The Python side of the tables: what each index of the compiled arrays stands for."""

    tables: DoodleTables
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


def build_tables(edition: Edition) -> DoodleTables:
    """The compiled-function tables of a Doodle edition (cached per edition)."""
    return tables_info(edition).tables


def tables_info(edition: Edition) -> TableInfo:
    """Tables plus the lookups the notation layer needs (cached per edition)."""
    info = _TABLES.get(edition)
    if info is None:
        info = _build(edition)
        _TABLES[edition] = info
    return info


def _orientation_table(shapes: list[Shape], starts: list[int], board: Board, flip: bool) -> dict[str, np.ndarray]:
    """The orientation table, in placements() order: per shape its orientations that fit the
    board (first row, count), and per orientation its size, first placement row and cells."""
    or_start: list[int] = []
    or_count: list[int] = []
    or_h: list[int] = []
    or_w: list[int] = []
    or_base: list[int] = []
    or_ncell: list[int] = []
    cell_lists: list[list[int]] = []
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
    for o, offsets in enumerate(cell_lists):
        or_cells[o, : len(offsets)] = offsets

    def ints(values):
        return np.array(values, dtype=np.int64)

    return dict(orient_first=ints(or_start), orient_count=ints(or_count), orient_height=ints(or_h),
                orient_width=ints(or_w), orient_place=ints(or_base), orient_cell_count=ints(or_ncell),
                orient_cells=or_cells)


def _params(edition: Edition, board: Board, specials: int, deck: int) -> np.ndarray:
    """tables.params: the edition's scalars by P_* index."""
    rules = edition.doodle_rules
    params = np.zeros(N_PARAMS, dtype=np.int64)
    params[P_WIDTH] = board.width
    params[P_HEIGHT] = board.height
    params[P_WORDS] = board.words
    params[P_CIRCLE] = rules.circle_size
    params[P_ROUNDS] = rules.rounds
    params[P_TURNS] = rules.turns_per_round
    params[P_REFILL] = rules.refill
    params[P_FREE_CHOICE] = 1 if rules.final_free_choice else 0
    params[P_SPECIALS] = specials
    params[P_DECK] = deck
    params[P_START_CARDS] = len(rules.start_cards)
    params[P_PATCHES] = len(edition.patches)
    params[P_PENALTY] = edition.empty_penalty
    return params


def _build(edition: Edition) -> TableInfo:
    rules = edition.doodle_rules
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
    start_shape = np.array([shape_index(s.shape) for s in rules.start_cards], dtype=np.int64)
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
    specials = 0
    for name in rules.special_actions:
        specials |= 1 << SPECIAL_NAMES.index(name)
    tables = DoodleTables(
        place_masks=masks, shape_first=np.array(starts, dtype=np.int64),
        shape_count=np.array([a.shape[0] for a in arrays], dtype=np.int64), patch_shape=patch_shape,
        cut_count=cut_n, cut_piece=cut_piece, start_shape=start_shape, deck_card=deck_card,
        **_orientation_table(shapes, starts, board, flip), die=np.array(rules.die, dtype=np.int64),
        params=_params(edition, board, specials, len(deck_card)),
    )
    return TableInfo(
        tables=tables,
        board=board,
        shapes=tuple(shapes),
        shape_start=tuple(starts),
        placements=tuple(placements(shape, board, flip) for shape in shapes),
        patch_ids=tuple(p.id for p in patches),
        cuts=cuts,
        start_ids=tuple(s.id for s in rules.start_cards),
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
def popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True)
def row_bits(occ_k, r, width):
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
def sheet_row_bits(occ_k, width, height):
    """Every row of a sheet as row_bits gives it: int64[height]."""
    rows = np.empty(height, dtype=np.int64)
    for r in range(height):
        rows[r] = row_bits(occ_k, r, width)
    return rows


@njit(cache=True)
def fits(masks, g, occ_k, words):
    for w in range(words):
        if masks[g, w] & occ_k[w]:
            return False
    return True


@njit(cache=True)
def cell_set(occ_k, cell):
    return (occ_k[cell >> 6] >> (cell & 63)) & 1


@njit(cache=True)
def special_mode_of(specials, uses, again_uses, s):
    """The mode of special action s for a player who has used it `uses` times and AGAIN
    `again_uses` times, in an edition whose special actions are the bits of `specials`
    (params[P_SPECIALS]): 0 not available, 1 first use, 2 second use through AGAIN (RULINGS 18).
    special_mode reads the counts from a state; a search that spends special actions on its own
    counts asks this."""
    if not (specials >> s) & 1:
        return 0
    if uses == 0:
        return 1
    if uses == 1 and (specials >> SP_AGAIN) & 1 and again_uses == 0:
        return 2
    return 0


@njit(cache=True)
def special_uses_left(specials, uses, again_uses, s):
    """How many more times special action s may be used at most, on the counts of
    special_mode_of: twice while it is unused and AGAIN is open, once through AGAIN, else 0."""
    mode = special_mode_of(specials, uses, again_uses, s)
    if mode == 1:
        return 2 if ((specials >> SP_AGAIN) & 1 and again_uses == 0) else 1
    return 1 if mode == 2 else 0


@njit(cache=True)
def special_mode(params, st, k, s):
    """0: not available, 1: first use, 2: second use through AGAIN (special_mode_of on seat k's counts)."""
    at = st[S_USED_AT] + 4 * k
    return special_mode_of(params[P_SPECIALS], st[at + s], st[at + SP_AGAIN], s)


@njit(cache=True)
def put_action(out, row, kind, card, nb, cut, piece, place, col, h, w, again):
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
def rolled_turns(params, rnd):
    if rnd == params[P_ROUNDS] - 1 and params[P_FREE_CHOICE]:
        return params[P_TURNS] - 1
    return params[P_TURNS]


# ============================================================================================
# The chance model: the die and the token's walk over the circle
# ============================================================================================


@njit(cache=True)
def die_faces(die, faces, chance):
    """The die's distinct faces, in the order they first appear in the die table (tables.die,
    each side equally likely), and the chance of each: the sides that show it over all sides.
    Writes faces[:m] (int64) and chance[:m] (float64), arrays of at least die.shape[0] entries,
    and returns m."""
    sides = die.shape[0]
    m = 0
    for f in range(sides):
        seen = False
        for e in range(m):
            if faces[e] == die[f]:
                seen = True
                break
        if seen:
            continue
        count = 0
        for e in range(f, sides):
            if die[e] == die[f]:
                count += 1
        faces[m] = die[f]
        chance[m] = count / sides
        m += 1
    return m


@njit(cache=True)
def token_card(nxt, roll, n):
    """Circle position of the card a roll makes the token card: the roll-th card clockwise after
    the token, among the n cards of the circle (nxt: position of the first card after the token,
    st[S_NEXT]). RULINGS 14."""
    return (nxt + roll - 1) % n


@njit(cache=True)
def token_next(cur, n_left):
    """st[S_NEXT] once the token card, at position cur, has left the circle (discard_card) and
    n_left cards stay: the token keeps its place, so the first card after it is the one that
    followed the token card, now at position cur (position 0 past the end). RULINGS 14."""
    return cur % n_left if n_left > 0 else 0


@njit(cache=True)
def discard_card(cards, at, n, pos):
    """Take the card at circle position pos out of the circle cards[at:at + n] (the cards after
    it move down one place, clockwise order kept); returns the new number of cards, n - 1."""
    for i in range(pos, n - 1):
        cards[at + i] = cards[at + i + 1]
    return n - 1


@njit(cache=True)
def turn_card(cur, n, nb):
    """Circle position of the card a rolled turn offers through nb (A_NB): 0 the token card at
    cur, 1 the card before it, 2 the card after it (NEIGHBOUR, RULINGS 18); -1 when the circle of
    n cards has only the token card, so no neighbour."""
    if nb == 0:
        return cur
    if n < 2:
        return -1
    if nb == 1:
        return (cur - 1 + n) % n
    return (cur + 1) % n


@njit(cache=True)
def first_copy(cards, at, pos):
    """Whether the card at circle position pos of cards[at:] is the first copy of its patch in
    the circle: the free choice offers each patch once, at its first position (RULINGS 15)."""
    for q in range(pos):
        if cards[at + q] == cards[at + pos]:
            return False
    return True


# ============================================================================================
# Setup and the flow of a game
# ============================================================================================


@njit(cache=True)
def new_state(tables, players, rng):
    """A fresh game for `players` seats; chance comes from a copy of `rng` (int64[4])."""
    deck_card = tables.deck_card
    params = tables.params
    deck = params[P_DECK]
    rounds = params[P_ROUNDS]
    o_circle = HEADER_SIZE
    o_pile = o_circle + deck
    o_start = o_pile + deck
    o_used = o_start + players
    o_rscore = o_used + 4 * players
    o_drawn = o_rscore + rounds * players
    o_filled = o_drawn + players
    o_scored = o_filled + players
    size = o_scored + players
    st = np.zeros(size, dtype=np.int64)
    st[S_CIRCLE_AT] = o_circle
    st[S_PILE_AT] = o_pile
    st[S_START_AT] = o_start
    st[S_USED_AT] = o_used
    st[S_ROUND_SCORES_AT] = o_rscore
    st[S_DRAWN_AT] = o_drawn
    st[S_FILLED_AT] = o_filled
    st[S_SCORED_AT] = o_scored
    st[S_PLAYERS] = players
    for i in range(4):
        st[S_RNG + i] = rng[i]
    g = st[S_RNG:S_RNG + 4]
    order = np.arange(deck)
    shuffle(g, order)
    for i in range(deck):
        st[o_pile + i] = deck_card[order[i]]
    n = min(params[P_CIRCLE], deck)
    for i in range(n):
        st[o_circle + i] = st[o_pile + i]
    st[S_CIRCLE_LEN] = n
    st[S_PILE_POS] = n
    st[S_NEXT] = randbelow(g, n) if n > 0 else 0
    st[S_CUR] = -1
    nstart = params[P_START_CARDS]
    # Start cards are dealt from a shuffled set; past the last card a fresh shuffled set follows,
    # so cards repeat only once every player before has one (more players than start cards).
    cards = np.arange(nstart)
    for k in range(players):
        if k % nstart == 0:
            for i in range(nstart):
                cards[i] = i
            shuffle(g, cards)
        st[o_start + k] = cards[k % nstart]
    st[S_PHASE] = PH_START
    st[S_SEAT] = 0
    occ = np.zeros((players, params[P_WORDS]), dtype=np.int64)
    return st, occ


@njit(cache=True)
def _roll(tables, st):
    """Begin a rolled turn, or go on to the free choice / scoring when the round has no more."""
    params = tables.params
    die = tables.die
    rnd = st[S_ROUND]
    n = st[S_CIRCLE_LEN]
    if st[S_TURN] >= rolled_turns(params, rnd) or n == 0:
        st[S_CUR] = -1
        if rnd == params[P_ROUNDS] - 1 and params[P_FREE_CHOICE] and n > 0:
            st[S_PHASE] = PH_FREE
        else:
            st[S_PHASE] = PH_SCORE
        return
    g = st[S_RNG:S_RNG + 4]
    d = die[randbelow(g, die.shape[0])]
    st[S_ROLL] = d
    st[S_CUR] = token_card(st[S_NEXT], d, n)
    st[S_PHASE] = PH_TURN


@njit(cache=True)
def _new_round(tables, st):
    """The leftover cards become the next in line after the token; refill from the pile."""
    params = tables.params
    n = st[S_CIRCLE_LEN]
    oc = st[S_CIRCLE_AT]
    tmp = np.empty(n, dtype=np.int64)
    for i in range(n):
        tmp[i] = st[oc + (st[S_NEXT] + i) % n]
    for i in range(n):
        st[oc + i] = tmp[i]
    added = 0
    while added < params[P_REFILL] and st[S_PILE_POS] < params[P_DECK]:
        st[oc + n + added] = st[st[S_PILE_AT] + st[S_PILE_POS]]
        st[S_PILE_POS] += 1
        added += 1
    st[S_CIRCLE_LEN] = n + added
    st[S_NEXT] = 0
    st[S_TURN] = 0


@njit(cache=True)
def _end_step(tables, st):
    """The seat to act has finished its step; move to the next seat or the next step."""
    st[S_SEAT] += 1
    if st[S_SEAT] < st[S_PLAYERS]:
        return
    st[S_SEAT] = 0
    phase = st[S_PHASE]
    params = tables.params
    if phase == PH_START:
        st[S_ROUND] = 0
        st[S_TURN] = 0
        _roll(tables, st)
    elif phase == PH_TURN:
        # Only the token card is discarded; the token keeps its place between its neighbours.
        cur = st[S_CUR]
        n = discard_card(st, st[S_CIRCLE_AT], st[S_CIRCLE_LEN], cur)
        st[S_CIRCLE_LEN] = n
        st[S_NEXT] = token_next(cur, n)
        st[S_TURN] += 1
        _roll(tables, st)
    elif phase == PH_FREE:
        st[S_CUR] = -1
        st[S_PHASE] = PH_SCORE
    elif phase == PH_SCORE:
        st[S_ROUND] += 1
        if st[S_ROUND] >= params[P_ROUNDS]:
            st[S_PHASE] = PH_OVER
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
    or_start = tables.orient_first
    or_count = tables.orient_count
    or_h = tables.orient_height
    or_w = tables.orient_width
    or_base = tables.orient_place
    or_ncell = tables.orient_cell_count
    or_cells = tables.orient_cells
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
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
                idx += popcount(free)
                continue
            if target >= 0:
                count = popcount(free)
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
                    put_action(out, idx, kind, card, nb, cut, piece, base + c, 0, 0, 0, again)
                elif target == idx:
                    put_action(out, 0, kind, card, nb, cut, piece, base + c, 0, 0, 0, again)
                    return idx + 1
                idx += 1
                free ^= low
    return idx


@njit(cache=True)
def max_sources(tables, st):
    """Rows walk_sources may write for this state (an upper bound): a rolled turn offers three
    cards, the free choice at most the circle's; each whole or either piece of each of its cuts;
    then SINGLE."""
    return max(3, st[S_CIRCLE_LEN]) * (1 + 2 * tables.cut_piece.shape[1]) + 1


@njit(cache=True)
def _put_source(src, i, kind, card, nb, cut, piece, again, shape, patch):
    src[i, SRC_KIND] = kind
    src[i, SRC_CARD] = card
    src[i, SRC_NB] = nb
    src[i, SRC_CUT] = cut
    src[i, SRC_PIECE] = piece
    src[i, SRC_AGAIN] = again
    src[i, SRC_SHAPE] = shape
    src[i, SRC_PATCH] = patch
    return i + 1


@njit(cache=True)
def _card_sources(tables, src, i, card, patch, nb, nb_again, cut_mode):
    """The sources of one card: whole, then (when CUT is open) both pieces of every cut; AGAIN
    repeats one special action only, so a neighbour drawn through AGAIN is not cut through it."""
    again = SP_NEIGHBOUR + 1 if nb_again else 0
    i = _put_source(src, i, K_DRAW, card, nb, -1, 0, again, tables.patch_shape[patch], patch)
    if cut_mode == 0 or (cut_mode == 2 and nb_again):
        return i
    if cut_mode == 2:
        again = SP_CUT + 1
    for c in range(tables.cut_count[patch]):
        for piece in range(2):
            i = _put_source(src, i, K_DRAW, card, nb, c, piece, again, tables.cut_piece[patch, c, piece], patch)
    return i


@njit(cache=True)
def walk_sources(tables, st, src):
    """The sources of the seat to act's drawings, in canonical order, as rows of src (int64[at
    least max_sources(tables, st), NSRC], columns SRC_*); returns how many rows.

    At setup the start card (RULINGS 17). On a rolled turn the token card, then with NEIGHBOUR the
    card before it and the card after it (turn_card); on the final free choice each patch of the
    circle once (first_copy); each card whole, then with CUT both pieces of each of its cuts; a
    special action already used once comes through AGAIN (SRC_AGAIN), and AGAIN repeats only one
    special action per drawing (RULINGS 18). After the drawings, when SINGLE is open (any step but
    setup), one K_SINGLE row. A legal action of kind START / DRAW / SINGLE is exactly one source
    and a placement of its shape that fits the sheet (an empty cell for SINGLE): list_actions
    walks these rows so, and so may any chooser."""
    params = tables.params
    phase = st[S_PHASE]
    k = st[S_SEAT]
    oc = st[S_CIRCLE_AT]
    n = st[S_CIRCLE_LEN]
    if phase == PH_OVER:
        return 0
    if phase == PH_START:
        # The start card's patch comes before every special action.
        card = st[st[S_START_AT] + k]
        return _put_source(src, 0, K_START, -1, 0, -1, 0, 0, tables.start_shape[card], card)
    i = 0
    if phase == PH_TURN:
        cut_mode = special_mode(params, st, k, SP_CUT)
        nb_mode = special_mode(params, st, k, SP_NEIGHBOUR)
        cur = st[S_CUR]
        for nb in range(3):
            if nb > 0 and nb_mode == 0:
                continue
            pos = turn_card(cur, n, nb)
            if pos < 0:
                continue
            i = _card_sources(tables, src, i, pos, st[oc + pos], nb, nb > 0 and nb_mode == 2, cut_mode)
    elif phase == PH_FREE:
        cut_mode = special_mode(params, st, k, SP_CUT)
        for pos in range(n):
            if first_copy(st, oc, pos):
                i = _card_sources(tables, src, i, pos, st[oc + pos], 0, False, cut_mode)
    single_mode = special_mode(params, st, k, SP_SINGLE)
    if single_mode:
        i = _put_source(src, i, K_SINGLE, -1, 0, -1, 0, SP_SINGLE + 1 if single_mode == 2 else 0, -1, -1)
    return i


@njit(cache=True)
def _walk_one(out, idx, target, kind):
    """Visit one action with no card, place or rectangle (passing, or scoring nothing on an
    empty sheet) as action number idx. Returns (actions visited, whether it was the target)."""
    if target == -1 or target == idx:
        put_action(out, 0 if target >= 0 else idx, kind, -1, 0, -1, 0, 0, 0, 0, 0, 0)
        if target >= 0:
            return idx + 1, True
    return idx + 1, False


@njit(cache=True)
def _walk_rectangles(rows, width, height, out, idx, target):
    """Visit the fully shaded rectangles a scoring may name, by top-left cell, then height, then
    width. Returns (actions visited, whether the target was among them)."""
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
                        put_action(out, idx, K_SCORE, -1, 0, -1, 0, r0, c0, h, w, 0)
                    elif target == idx:
                        put_action(out, 0, K_SCORE, -1, 0, -1, 0, r0, c0, h, w, 0)
                        return idx + 1, True
                    idx += 1
    return idx, False


@njit(cache=True)
def _walk_singles(occ_k, cells, out, idx, target, again):
    """Visit SINGLE on each empty cell of the sheet; returns the number of actions visited."""
    for cell in range(cells):
        if not cell_set(occ_k, cell):
            if target == -1:
                put_action(out, idx, K_SINGLE, -1, 0, -1, 0, cell, 0, 0, 0, again)
            elif target == idx:
                put_action(out, 0, K_SINGLE, -1, 0, -1, 0, cell, 0, 0, 0, again)
                return idx + 1
            idx += 1
    return idx


@njit(cache=True)
def _walk(tables, st, occ, target, out):
    """Visit the legal actions of the seat to act in canonical order: the drawings of each
    source of walk_sources in turn (its shape's placements that fit), passing (at setup only
    when the start card's patch fits nowhere) or, at a scoring, the rectangles; then SINGLE.

    target == -2: only count; -1: write every action into out; >= 0: write action number
    `target` into out[0]. Returns the number of actions visited.
    """
    params = tables.params
    phase = st[S_PHASE]
    if phase == PH_OVER:
        return 0
    k = st[S_SEAT]
    occ_k = occ[k]
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    rows = sheet_row_bits(occ_k, width, height)
    src = np.empty((max_sources(tables, st), NSRC), dtype=np.int64)
    nsrc = walk_sources(tables, st, src)
    idx = 0
    s = 0
    while s < nsrc and src[s, SRC_KIND] != K_SINGLE:
        idx = _walk_shape(tables, src[s, SRC_SHAPE], rows, out, idx, target, src[s, SRC_KIND], src[s, SRC_CARD],
                          src[s, SRC_NB], src[s, SRC_CUT], src[s, SRC_PIECE], src[s, SRC_AGAIN])
        if target >= 0 and idx > target:
            return idx
        s += 1
    found = False
    if phase == PH_START:
        if idx == 0:
            idx, found = _walk_one(out, idx, target, K_PASS)
    elif phase == PH_SCORE:
        if st[st[S_FILLED_AT] + k] == 0:
            idx, found = _walk_one(out, idx, target, K_SCORE)
        else:
            idx, found = _walk_rectangles(rows, width, height, out, idx, target)
    else:
        idx, found = _walk_one(out, idx, target, K_PASS)
    if found:
        return idx
    # SINGLE any time after setup (the last source when it is open).
    if s < nsrc:
        if target == -2:
            return idx + width * height - st[st[S_FILLED_AT] + k]
        return _walk_singles(occ_k, width * height, out, idx, target, src[s, SRC_AGAIN])
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
    if not (params[P_SPECIALS] >> s) & 1:
        return R_SPECIAL_OFF
    mode = special_mode(params, st, k, s)
    if mode == 0:
        if st[st[S_USED_AT] + 4 * k + s] >= 1 and again_flag:
            return R_AGAIN_USED
        return R_SPECIAL_USED
    if mode == 1 and again_flag:
        return R_AGAIN_NEEDLESS
    if mode == 2 and not again_flag:
        return R_SPECIAL_USED
    return R_OK


@njit(cache=True)
def _check_step(phase, kind):
    """R_OK when an action of this kind belongs to the step in play."""
    if phase == PH_OVER:
        return R_GAME_OVER
    if phase == PH_START:
        # The start card's patch is drawn at setup, before any special action (RULINGS 17, 18).
        return R_OK if kind == K_START or kind == K_PASS else R_START_FIRST
    if kind == K_START:
        return R_START_DONE
    if phase == PH_SCORE:
        return R_OK if kind == K_SCORE or kind == K_SINGLE else R_SCORING_NOW
    if kind == K_SCORE:
        return R_NOT_SCORING
    return R_OK


@njit(cache=True)
def _check_single(params, st, occ_k, k, act, again):
    """check_action for K_SINGLE: SINGLE open (first use or through AGAIN), an empty cell."""
    if again != 0 and again != SP_SINGLE + 1:
        return R_AGAIN_MISMATCH
    code = _check_special(params, st, k, SP_SINGLE, again != 0)
    if code != R_OK:
        return code
    cell = act[A_PLACE]
    if cell < 0 or cell >= params[P_WIDTH] * params[P_HEIGHT]:
        return R_CELL_OFF_BOARD
    if cell_set(occ_k, cell):
        return R_CELL_SHADED
    return R_OK


@njit(cache=True)
def _check_placement(tables, shape, g, occ_k):
    """R_OK when placement row g is a placement of `shape` that fits the sheet."""
    sh_start = tables.shape_first
    if g < sh_start[shape] or g >= sh_start[shape] + tables.shape_count[shape]:
        return R_OFF_BOARD
    if not fits(tables.place_masks, g, occ_k, tables.params[P_WORDS]):
        return R_OVERLAP
    return R_OK


@njit(cache=True)
def _check_pass(tables, st, occ_k, k, phase):
    """check_action for K_PASS: at setup only when the start card's patch fits nowhere."""
    if phase == PH_START:
        shape = tables.start_shape[st[st[S_START_AT] + k]]
        for g in range(tables.shape_first[shape], tables.shape_first[shape] + tables.shape_count[shape]):
            if fits(tables.place_masks, g, occ_k, tables.params[P_WORDS]):
                return R_MUST_DRAW_START
    return R_OK


@njit(cache=True)
def _check_score(params, st, occ_k, k, act):
    """check_action for K_SCORE: a fully shaded rectangle on the board (none on an empty sheet)."""
    h = act[A_H]
    w = act[A_W]
    if h == 0:
        if st[st[S_FILLED_AT] + k] != 0:
            return R_SCORE_NONE
        return R_OK
    r0 = act[A_PLACE]
    c0 = act[A_COL]
    width = params[P_WIDTH]
    if h < 0 or w <= 0 or r0 < 0 or c0 < 0 or r0 + h > params[P_HEIGHT] or c0 + w > width:
        return R_RECT_OFF_BOARD
    line = ((1 << w) - 1) << c0
    for r in range(r0, r0 + h):
        if row_bits(occ_k, r, width) & line != line:
            return R_NOT_FILLED
    return R_OK


@njit(cache=True)
def _check_card(params, st, k, act, phase, again):
    """The card of a K_DRAW: the token card or, with NEIGHBOUR, a neighbour on a rolled turn; any
    card of the circle on the free choice."""
    n = st[S_CIRCLE_LEN]
    pos = act[A_CARD]
    nb = act[A_NB]
    if phase == PH_TURN:
        cur = st[S_CUR]
        if nb == 0:
            if pos != cur:
                return R_NOT_TOKEN_CARD
        else:
            code = _check_special(params, st, k, SP_NEIGHBOUR, again == SP_NEIGHBOUR + 1)
            if code != R_OK:
                return code
            if n < 2:
                return R_NO_NEIGHBOUR
            if (nb != 1 and nb != 2) or pos != turn_card(cur, n, nb):
                return R_NOT_TOKEN_CARD
    else:
        if nb != 0:
            return R_NEIGHBOUR_FREE_CHOICE
        if pos == -1:
            return R_PICK_A_CARD
        if pos < 0 or pos >= n:
            return R_NOT_IN_CIRCLE
    if again == SP_NEIGHBOUR + 1 and nb == 0:
        return R_AGAIN_NEEDLESS
    return R_OK


@njit(cache=True)
def _check_cut(tables, st, k, act, patch, again):
    """The shape a K_DRAW draws of its card: whole, or with CUT one piece of one of its cuts.
    Returns (R_OK and the shape) or (the R_* code, -1)."""
    params = tables.params
    cut = act[A_CUT]
    if cut >= 0:
        code = _check_special(params, st, k, SP_CUT, again == SP_CUT + 1)
        if code == R_SPECIAL_USED and again == SP_NEIGHBOUR + 1 and special_mode(params, st, k, SP_CUT) == 2:
            return R_TWO_AGAIN, -1
        if code != R_OK:
            return code, -1
        if cut >= tables.cut_count[patch]:
            return R_NOT_A_CUT, -1
        if act[A_PIECE] < 0 or act[A_PIECE] > 1:
            return R_NO_SUCH_PIECE, -1
        return R_OK, tables.cut_piece[patch, cut, act[A_PIECE]]
    if cut != -1:
        return R_NOT_A_CUT, -1
    if again == SP_CUT + 1:
        return R_AGAIN_NEEDLESS, -1
    if act[A_PIECE] != 0:
        return R_NO_SUCH_PIECE, -1
    return R_OK, tables.patch_shape[patch]


@njit(cache=True)
def _check_draw(tables, st, occ_k, k, act, phase, again):
    """check_action for K_DRAW, on a rolled turn or the final free choice."""
    if again != 0 and again != SP_NEIGHBOUR + 1 and again != SP_CUT + 1:
        return R_AGAIN_MISMATCH
    code = _check_card(tables.params, st, k, act, phase, again)
    if code != R_OK:
        return code
    code, shape = _check_cut(tables, st, k, act, st[st[S_CIRCLE_AT] + act[A_CARD]], again)
    if code != R_OK:
        return code
    return _check_placement(tables, shape, act[A_PLACE], occ_k)


@njit(cache=True)
def check_action(tables, st, occ, act):
    """R_OK when `act` is legal for the seat to act, else the R_* code of the rule it breaks."""
    params = tables.params
    kind = act[A_KIND]
    if kind < K_START or kind > K_SCORE:
        return R_UNKNOWN_KIND
    phase = st[S_PHASE]
    code = _check_step(phase, kind)
    if code != R_OK:
        return code
    k = st[S_SEAT]
    occ_k = occ[k]
    again = act[A_AGAIN]
    if again != 0 and (kind == K_START or kind == K_PASS or kind == K_SCORE):
        return R_AGAIN_MISMATCH
    if kind == K_SINGLE:
        return _check_single(params, st, occ_k, k, act, again)
    if kind == K_START:
        return _check_placement(tables, tables.start_shape[st[st[S_START_AT] + k]], act[A_PLACE], occ_k)
    if kind == K_PASS:
        return _check_pass(tables, st, occ_k, k, phase)
    if kind == K_SCORE:
        return _check_score(params, st, occ_k, k, act)
    return _check_draw(tables, st, occ_k, k, act, phase, again)


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
    st[st[S_USED_AT] + 4 * k + s] += 1


@njit(cache=True)
def apply_action(tables, st, occ, act):
    """Apply one legal action of the seat to act (validate first with check_action)."""
    masks = tables.place_masks
    params = tables.params
    words = params[P_WORDS]
    k = st[S_SEAT]
    kind = act[A_KIND]
    again = act[A_AGAIN]
    if again != 0:
        _use_special(st, k, SP_AGAIN)
    if kind == K_SINGLE:
        cell = act[A_PLACE]
        occ[k, cell >> 6] |= 1 << (cell & 63)
        st[st[S_FILLED_AT] + k] += 1
        _use_special(st, k, SP_SINGLE)
        return
    if kind == K_START or kind == K_DRAW:
        g = act[A_PLACE]
        added = 0
        for w in range(words):
            occ[k, w] |= masks[g, w]
            added += popcount(masks[g, w])
        st[st[S_FILLED_AT] + k] += added
        if kind == K_DRAW:
            st[st[S_DRAWN_AT] + k] += 1
            if act[A_NB] != 0:
                _use_special(st, k, SP_NEIGHBOUR)
            if act[A_CUT] >= 0:
                _use_special(st, k, SP_CUT)
    elif kind == K_SCORE:
        st[st[S_ROUND_SCORES_AT] + st[S_ROUND] * st[S_PLAYERS] + k] = rectangle_points(act[A_H], act[A_W])
    _end_step(tables, st)


# ============================================================================================
# Scores
# ============================================================================================


@njit(cache=True)
def empty_cells(tables, st, occ, k):
    params = tables.params
    return params[P_WIDTH] * params[P_HEIGHT] - st[st[S_FILLED_AT] + k]


@njit(cache=True)
def final_scores(tables, st, occ):
    """Intermediate scores so far minus the edition's empty_penalty per empty cell, per seat."""
    players = st[S_PLAYERS]
    rounds = tables.params[P_ROUNDS]
    out = np.zeros(players, dtype=np.int64)
    for k in range(players):
        total = 0
        for r in range(rounds):
            total += st[st[S_ROUND_SCORES_AT] + r * players + k]
        out[k] = total - tables.params[P_PENALTY] * empty_cells(tables, st, occ, k)
    return out


@njit(cache=True)
def best_in_rows(rows, width, height):
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
                length = popcount(run)
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
    params = tables.params
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    rows = sheet_row_bits(occ_k, width, height)
    return best_in_rows(rows, width, height)


# ============================================================================================
# The random chooser (the bots with a strategy live in toolkit.bots.doodle)
# ============================================================================================


@njit(cache=True)
def choose_random(tables, st, occ, bot_rng, act):
    """Uniform over the legal actions of the seat to act; writes the choice into act.
    (count_actions then nth_action, spelled out: each compiled call would compile the walk again.)"""
    n = _walk(tables, st, occ, -2, np.zeros((1, NA), dtype=np.int64))
    _walk(tables, st, occ, randbelow(bot_rng, n), act.reshape(1, NA))
