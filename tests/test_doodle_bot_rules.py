"""The Doodle bots ask the rules kernel, and where speed keeps a copy, the copy is the kernel's rule.

Over the positions of seeded games of the bundled Doodle editions and a few edited ones (fewer
special actions, a small sheet), each rule the bots use is compared with the kernel:
- the special actions: the last-round search's modes on its own use counts (cover.used_mode,
  special_ways, singles_left, built on the kernel's special_mode_of / special_uses_left) against
  the kernel's special_mode, the drawing sources walk_sources offers (NEIGHBOUR, CUT, both, and
  which of them come through AGAIN) and the SINGLE actions the kernel takes in a row;
- the best rectangle: the evaluation's rows and best_points (compiled without reference counting,
  so written out) against the kernel's row_bits and best_rectangle; the SINGLE the scoring step
  picks against shading each empty cell and asking the kernel;
- the turns left: features.turns_left_in_round / turns_left_in_game against the draws the kernel
  then deals the seat;
- the contact count of the packing pre-filter (features.contact_planes) and of the last-round
  candidates (the contact tables) against the cell sides counted on the sheet.
(toolkit.bots.doodle's move walk and chance model are checked in test_doodle_move_walk.py.)
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from toolkit.bots.doodle import cover as C
from toolkit.bots.doodle import features as F
from toolkit.bots.doodle.endgame import snug
from toolkit.bots.doodle.greedy import best_single
from toolkit.games.doodle import kernel as K
from toolkit.games.rng import seed_state
from toolkit.specs import load_edition

from tests.doodle_positions import seeded_positions

BASE = load_edition("doodle")
EDITIONS = {
    "doodle": BASE,
    "doodle-8x8": load_edition("doodle-8x8"),
    "doodle-4-rounds": load_edition("doodle-4-rounds"),
    "no-again": BASE.changed(name="doodle-test-no-again", special_actions=("neighbour", "cut", "single")),
    "no-single": BASE.changed(name="doodle-test-no-single", special_actions=("neighbour", "cut", "again")),
    "small": BASE.changed(name="doodle-test-small", board_width=5, board_height=4),
}
# (edition, players, seed, tenths of the steps that avoid special actions): mostly plain play
# keeps the special actions, and AGAIN, open late into the game.
GAMES = [
    ("doodle", 1, 21, 0), ("doodle", 1, 22, 9), ("doodle", 2, 23, 8), ("doodle", 3, 24, 6),
    ("doodle-8x8", 2, 25, 7), ("doodle-4-rounds", 1, 26, 9), ("no-again", 2, 27, 8),
    ("no-single", 2, 28, 8), ("small", 2, 29, 5), ("doodle", 1, 30, 10),
]


@pytest.fixture(scope="module")
def positions():
    """(name, tables, st, occ) of every position of the seeded games."""
    return seeded_positions(GAMES, EDITIONS)


def _used(st, seat):
    return st[st[K.S_USED_AT] + 4 * seat:st[K.S_USED_AT] + 4 * seat + 4].copy()


def _sources(tables, st):
    src = np.zeros((K.max_sources(tables, st), K.NSRC), dtype=np.int64)
    return src[:K.walk_sources(tables, st, src)]


def test_the_searchs_special_modes_are_the_kernels(positions):
    modes = set()
    for name, tables, st, occ in positions:
        specials = tables.params[K.P_SPECIALS]
        for seat in range(st[K.S_PLAYERS]):
            used = _used(st, seat)
            for s in range(4):
                mode = C.used_mode(specials, used, s)
                assert mode == K.special_mode(tables.params, st, seat, s), name
                modes.add((s, mode))
    # Play seldom keeps AGAIN for a second SINGLE: every count of uses, written into a state.
    for name in EDITIONS:
        tables = K.build_tables(EDITIONS[name])
        st, occ = K.new_state(tables, 1, seed_state(1))
        at = st[K.S_USED_AT]
        for counts in itertools.product(range(3), repeat=4):
            st[at:at + 4] = counts
            used = np.array(counts, dtype=np.int64)
            for s in range(4):
                mode = C.used_mode(tables.params[K.P_SPECIALS], used, s)
                assert mode == K.special_mode(tables.params, st, 0, s), (name, counts, s)
                modes.add((s, mode))
    assert {(s, m) for s in range(3) for m in range(3)} <= modes


def _check_ways(name, tables, st):
    """special_ways on the seat's counts against the drawing sources walk_sources offers at a
    rolled turn; returns the ways."""
    seat = st[K.S_SEAT]
    used = _used(st, seat)
    nb_mode, cut_mode, both = C.special_ways(tables.params[K.P_SPECIALS], used)
    assert (used == _used(st, seat)).all(), "special_ways gives back what it tries"
    src = _sources(tables, st)
    draws = src[src[:, K.SRC_KIND] == K.K_DRAW]
    n = st[K.S_CIRCLE_LEN]
    nb_rows = draws[(draws[:, K.SRC_NB] != 0) & (draws[:, K.SRC_CUT] < 0)]
    cut_rows = draws[(draws[:, K.SRC_NB] == 0) & (draws[:, K.SRC_CUT] >= 0)]
    both_rows = draws[(draws[:, K.SRC_NB] != 0) & (draws[:, K.SRC_CUT] >= 0)]
    if n >= 2:
        assert (len(nb_rows) > 0) == (nb_mode != 0), name
        assert all((r[K.SRC_AGAIN] == K.SP_NEIGHBOUR + 1) == (nb_mode == 2) for r in nb_rows), name
    if tables.cut_count[st[st[K.S_CIRCLE_AT] + st[K.S_CUR]]] > 0:
        assert (len(cut_rows) > 0) == (cut_mode != 0), name
        assert all((r[K.SRC_AGAIN] == K.SP_CUT + 1) == (cut_mode == 2) for r in cut_rows), name
    neighbours_cut = n >= 2 and any(
        tables.cut_count[st[st[K.S_CIRCLE_AT] + K.turn_card(st[K.S_CUR], n, nb)]] > 0 for nb in (1, 2))
    if nb_mode != 0 and neighbours_cut:
        assert (len(both_rows) > 0) == (both != 0), name
        assert all(r[K.SRC_AGAIN] == (K.SP_NEIGHBOUR + 1 if nb_mode == 2 else K.SP_CUT + 1 if both == 2 else 0)
                   for r in both_rows), name
    return nb_mode, cut_mode, both


def test_the_searchs_ways_to_draw_are_the_sources_the_kernel_offers(positions):
    seen = set()
    turns = [(name, tables, st) for name, tables, st, occ in positions if st[K.S_PHASE] == K.PH_TURN]
    for name, tables, st in turns:
        seen.add(_check_ways(name, tables, st))
    # Every count of uses of the four special actions, written into some of those positions.
    for name, tables, st in turns[::25]:
        st = st.copy()
        at = st[K.S_USED_AT] + 4 * st[K.S_SEAT]
        for counts in itertools.product(range(3), repeat=4):
            st[at:at + 4] = counts
            seen.add(_check_ways(name, tables, st))
    # NEIGHBOUR and CUT each open (first use or through AGAIN) and together only as the rules allow.
    assert {(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 1), (2, 1, 1), (1, 2, 2), (2, 2, 0)} <= seen


def test_singles_left_is_how_many_singles_the_kernel_takes_in_a_row(positions):
    counts = set()
    for name, tables, st, occ in positions:
        if st[K.S_PHASE] in (K.PH_START, K.PH_OVER):
            continue
        seat = st[K.S_SEAT]
        left = C.singles_left(tables.params[K.P_SPECIALS], _used(st, seat))
        st, occ = st.copy(), occ.copy()
        taken = 0
        while True:
            src = _sources(tables, st)
            if not len(src) or src[-1, K.SRC_KIND] != K.K_SINGLE or K.empty_cells(tables, st, occ, seat) == 0:
                break
            act = np.zeros(K.NA, dtype=np.int64)
            area = int(tables.params[K.P_WIDTH] * tables.params[K.P_HEIGHT])
            cell = next(c for c in range(area) if not K.cell_set(occ[seat], c))
            K.put_action(act.reshape(1, K.NA), 0, K.K_SINGLE, -1, 0, -1, 0, cell, 0, 0, 0, src[-1, K.SRC_AGAIN])
            assert K.check_action(tables, st, occ, act) == K.R_OK
            K.apply_action(tables, st, occ, act)
            taken += 1
        assert taken == min(left, K.empty_cells(tables, st, occ, seat) + taken), name
        counts.add(left)
    assert counts == {0, 1, 2}


def _sheets(positions):
    for name, tables, st, occ in positions:
        for seat in range(st[K.S_PLAYERS]):
            yield name, tables, occ[seat]


def test_the_bots_rows_and_best_rectangle_are_the_kernels(positions):
    checked = 0
    for name, tables, sheet in _sheets(positions):
        width, height = int(tables.params[K.P_WIDTH]), int(tables.params[K.P_HEIGHT])
        rows = np.empty(height, dtype=np.int64)
        F.sheet_rows(sheet, width, height, rows)
        assert rows.tolist() == [K.row_bits(sheet, r, width) for r in range(height)], name
        assert F.best_points(rows, width, height) == K.best_rectangle(tables, sheet)[0], name
        checked += K.best_rectangle(tables, sheet)[0] > 4
    assert checked > 100


def test_the_single_the_scoring_step_picks_is_the_best_by_the_kernels_rectangle(positions):
    for name, tables, st, occ in positions[::7]:
        sheet = occ[st[K.S_SEAT]]
        width, height = int(tables.params[K.P_WIDTH]), int(tables.params[K.P_HEIGHT])
        now = K.best_rectangle(tables, sheet)[0]
        gains = {}
        for cell in range(width * height):
            if not K.cell_set(sheet, cell):
                trial = sheet.copy()
                trial[cell >> 6] |= np.int64(1) << np.int64(cell & 63)
                gains[cell] = K.best_rectangle(tables, trial)[0] - now
        rows = np.empty(height, dtype=np.int64)
        F.sheet_rows(sheet, width, height, rows)
        cell, gain = best_single(rows, width, height, now)
        if not gains:
            assert (cell, gain) == (-1, -1)
            continue
        top = max(gains.values())
        assert gain == top and cell == min(c for c, g in gains.items() if g == top), name


def test_turns_left_are_the_draws_the_kernel_then_deals(positions):
    seen = set()
    for name, tables, st, occ in positions[::3]:
        phase = st[K.S_PHASE]
        if phase not in (K.PH_START, K.PH_TURN, K.PH_FREE):
            continue
        seat, rnd = st[K.S_SEAT], st[K.S_ROUND]
        in_round = F.turns_left_in_round(tables.params, st)
        in_game = F.turns_left_in_game(tables.params, st)
        # Play on and count the later drawing steps of this seat (a round whose circle runs out
        # deals fewer: then the bots' count is an upper bound).
        st, occ = st.copy(), occ.copy()
        rng = seed_state(int(st[K.S_ROUND]) * 100 + seat)
        act = np.zeros(K.NA, dtype=np.int64)
        steps, dealt_round, dealt_game, short = set(), 0, 0, False
        start = (rnd, st[K.S_TURN], phase)
        while st[K.S_PHASE] != K.PH_OVER:
            key = (st[K.S_ROUND], st[K.S_TURN], st[K.S_PHASE])
            if st[K.S_PHASE] in (K.PH_TURN, K.PH_FREE) and st[K.S_SEAT] == seat and key != start \
                    and key not in steps:
                steps.add(key)
                dealt_game += 1
                dealt_round += st[K.S_ROUND] == rnd
            if st[K.S_PHASE] == K.PH_SCORE and st[K.S_CIRCLE_LEN] == 0:
                short = True
            K.choose_random(tables, st, occ, rng, act)
            K.apply_action(tables, st, occ, act)
        assert dealt_round <= in_round and dealt_game <= in_game, name
        if not short:
            assert (dealt_round, dealt_game) == (in_round, in_game), name
            seen.add(phase)
    assert seen == {K.PH_START, K.PH_TURN, K.PH_FREE}


def test_the_contact_counts_are_the_cell_sides_against_shaded_cells_or_the_edge(positions):
    for name, tables, st, occ in positions[::11]:
        sheet = occ[st[K.S_SEAT]]
        width, height, words = (int(tables.params[p]) for p in (K.P_WIDTH, K.P_HEIGHT, K.P_WORDS))
        aux = F.greedy_tables(tables)
        rows = np.empty(height, dtype=np.int64)
        F.sheet_rows(sheet, width, height, rows)
        planes = np.empty((3, words), dtype=np.int64)
        F.contact_planes(rows, width, height, planes)
        shaded = np.array([[K.cell_set(sheet, r * width + c) for c in range(width)] for r in range(height)], bool)
        padded = np.ones((height + 2, width + 2), dtype=int)
        padded[1:-1, 1:-1] = shaded
        sides = (padded[:-2, 1:-1] + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:]).ravel()
        for g in range(0, tables.place_masks.shape[0], 37):
            if not K.fits(tables.place_masks, g, sheet, words):
                continue
            cells = [c for c in range(width * height) if K.cell_set(tables.place_masks[g], c)]
            # Sides a cell of the placement shares with another of its cells meet an empty cell.
            expect = int(sum(sides[c] for c in cells))
            from_planes = sum(int(K.popcount(int(tables.place_masks[g, w] & planes[b, w]))) << b
                              for w in range(words) for b in range(3))
            assert from_planes == expect, name
            assert snug(aux, g, sheet, words) == expect, name
