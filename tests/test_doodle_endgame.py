"""The strong Doodle bot's last-round search (toolkit.bots.doodle.endgame): the die sequences it
plays out, the exact cover search under the special-action rules (RULINGS 18), and the choice it
makes when one drawing completes the sheet."""
import numpy as np
import pytest

from toolkit.bots.doodle import cover as C
from toolkit.bots.doodle import endgame as E
from toolkit.bots.doodle.expert import choose_expert
from toolkit.bots.doodle.features import greedy_tables
from toolkit.games.doodle import DoodleGame
from toolkit.games.doodle import kernel as K
from toolkit.games.rng import derive_seed
from toolkit.geometry.board import Board, words_to_mask
from toolkit.specs import load_edition

from positions import arrange, set_cells

EDITION = load_edition("doodle")
BOARD = Board(EDITION.board_width, EDITION.board_height)
PATCH_IDS = [p.id for p in EDITION.patches]
"""Patch index (as the kernel tables number patches) -> patch id."""


@pytest.fixture(scope="module")
def tables():
    return K.build_tables(EDITION)


def _play_to(tables, seed, phase, rnd, turn=None) -> DoodleGame:
    """A seeded solo game (the deal of game 0 of a run seeded `seed`) played by the expert until
    the step (phase, 0-based round[, turn])."""
    game = DoodleGame(EDITION, derive_seed(seed, 0), 1)
    aux = greedy_tables(tables)
    act = np.zeros(K.NA, dtype=np.int64)
    while not (game.phase == phase and game.round == rnd and (turn is None or game.turn == turn)):
        assert not game.is_over
        _, st, occ = game.kernel_state()
        choose_expert(tables, aux, st, occ, np.zeros(4, dtype=np.int64), act)
        game.apply(game.action_of_row(act))
    return game


def _sheet_without(tables, g) -> list[tuple[int, int]]:
    """Every cell of the sheet but those of placement g."""
    placed = words_to_mask(tables.place_masks[g].view(np.uint64))
    return BOARD.cells_of(BOARD.full_mask & ~placed)


def _full(tables):
    words = [0] * int(tables.params[K.P_WORDS])
    for cell in range(81):
        words[cell >> 6] |= 1 << (cell & 63)
    return np.array(words, dtype=np.uint64).view(np.int64)


def _search(tables, board, patches, used=(0, 0, 0, 0), nb=None):
    """_cover on the whole sheet with one turn per patch (nb: per turn, a neighbour patch)."""
    turns = len(patches)
    opt_patch = np.zeros((max(turns, 1), E.MAX_OPTIONS), dtype=np.int64)
    opt_nb = np.zeros_like(opt_patch)
    opt_count = np.zeros(max(turns, 1), dtype=np.int64)
    cells = np.array([E.patch_cells(tables, p) for p in range(int(tables.params[K.P_PATCHES]))])
    opt_max = np.zeros(max(turns, 1), dtype=np.int64)
    opt_max_nb = np.zeros_like(opt_max)
    for t, patch in enumerate(patches):
        opt_patch[t, 0] = patch
        opt_count[t] = 1
        opt_max[t] = opt_max_nb[t] = cells[patch]
        if nb is not None and nb[t] is not None:
            opt_patch[t, 1] = nb[t]
            opt_nb[t, 1] = 1
            opt_count[t] = 2
            opt_max_nb[t] = max(cells[patch], cells[nb[t]])
    same_as = np.full(max(turns, 1), -1, dtype=np.int64)
    work = board.copy()
    found = C.cover(tables, work, _full(tables), turns, opt_patch, opt_nb, opt_count, opt_max, opt_max_nb, same_as,
                     np.array(used, dtype=np.int64), np.array([E.NODE_BUDGET]), C.cover_work(tables, board))
    return found, work


def _without(tables, board, g):
    return board & ~tables.place_masks[g]


def _patch_of_cells(tables, cells):
    return next(p for p in range(int(tables.params[K.P_PATCHES])) if E.patch_cells(tables, p) == cells)


@pytest.mark.slow
def test_the_die_sequences_are_every_roll_to_come_weighted_by_the_die(tables):
    _, st, _ = _play_to(tables, 3, "turn", 2, turn=0).kernel_state()
    weight, n_turns, opt_patch, opt_nb, opt_count = E.die_sequences(tables, st)
    # Turn 0 of the last round is being played: 4 rolled turns and the free choice are to come,
    # and the die [1, 1, 2, 2, 3, 3] has three faces, each a third.
    assert weight.shape[0] == 3 ** 4
    assert weight.sum() == pytest.approx(1.0)
    assert (n_turns == 5).all()
    # A rolled turn offers the token card and its two neighbours; the free choice the cards left.
    assert (opt_count[:, :4] == 3).sum() > 0 and (opt_nb[:, :4, 1:3] == 1).any()
    assert (opt_count[:, 4] <= 3).all() and (opt_nb[:, 4] == 0).all()


def test_the_cards_left_for_the_free_choice_follow_the_circle(tables):
    game = _play_to(tables, 3, "turn", 2, turn=4)
    weight, n_turns, opt_patch, _, opt_count = E.die_sequences(tables, game.kernel_state()[1])
    left = sorted({PATCH_IDS.index(pid) for i, pid in enumerate(game.circle()) if i != game.token_card})
    # The last rolled turn is being played: only the free choice is to come, among the others.
    assert weight.shape[0] == 1 and n_turns[0] == 1
    assert sorted(opt_patch[0, 0, : opt_count[0, 0]].tolist()) == left


def test_a_hole_shaped_like_a_card_is_covered_and_another_card_is_not(tables):
    big = _patch_of_cells(tables, 6)
    g = int(tables.shape_first[tables.patch_shape[big]])
    board = _without(tables, _full(tables), g)
    found, work = _search(tables, board, [big], used=(1, 1, 1, 1))
    assert found and (work == _full(tables)).all()
    small = _patch_of_cells(tables, 1)
    assert not _search(tables, board, [small], used=(1, 1, 1, 1))[0]
    # Two one-cell cards and SINGLE twice (SINGLE, then AGAIN) still fall short of 6 cells.
    assert not _search(tables, board, [small, small], used=(0, 0, 0, 0))[0]


def _cover_nodes(tables, board, patches, used, work_arrays, budget=E.NODE_BUDGET):
    """(found, nodes spent) of _cover on the whole sheet, one turn per patch, with the given
    working arrays (E.cover_work), so a test can search twice with what the first search learnt."""
    turns = len(patches)
    opt_patch = np.zeros((max(turns, 1), E.MAX_OPTIONS), dtype=np.int64)
    opt_count = np.zeros(max(turns, 1), dtype=np.int64)
    cells = np.array([E.patch_cells(tables, p) for p in range(int(tables.params[K.P_PATCHES]))])
    for t, patch in enumerate(patches):
        opt_patch[t, 0] = patch
        opt_count[t] = 1
    opt_max = np.array([cells[p] for p in patches] or [0], dtype=np.int64)
    left = np.array([budget])
    found = C.cover(tables, board.copy(), _full(tables), turns, opt_patch, np.zeros_like(opt_patch), opt_count,
                     opt_max, opt_max.copy(), np.full(max(turns, 1), -1, dtype=np.int64),
                     np.array(used, dtype=np.int64), left, work_arrays)
    return found, budget - int(left[0])


def test_a_cell_no_card_can_shade_needs_single(tables):
    # The sheet lacks one placement of a 6-cell card and, far from it, one corner cell: the card
    # cannot shade the corner, so without SINGLE the search ends at once, before any move.
    big = _patch_of_cells(tables, 6)
    first = int(tables.shape_first[tables.patch_shape[big]])
    g = next(first + i for i in range(int(tables.shape_count[tables.patch_shape[big]]))
             if not tables.place_masks[first + i, 1] and not int(tables.place_masks[first + i, 0]) & ((1 << 20) - 1))
    board = _without(tables, _full(tables), g)
    board[0] &= ~np.int64(1)
    assert _cover_nodes(tables, board, [big], (1, 1, 1, 1), C.cover_work(tables, board)) == (False, 0)
    assert _cover_nodes(tables, board, [big], (1, 0, 1, 1), C.cover_work(tables, board))[0]


def test_a_state_proved_hopeless_is_not_searched_again_in_the_step(tables):
    # The sheet lacks one placement of a 5-cell card and four cells in a row on the bottom edge,
    # and the turns offer that card twice and a one-cell card: the card fits its hole, but the
    # row needs four cells. The first search proves it within its budget; with the same working
    # arrays the same state, and the same cards in another order, cost no node, and a fresh
    # search gives the same answer.
    five = _patch_of_cells(tables, 5)
    one = _patch_of_cells(tables, 1)
    g = int(tables.shape_first[tables.patch_shape[five]])
    board = _without(tables, _full(tables), g)
    for cell in (73, 74, 75, 76):
        board[cell >> 6] &= ~np.int64(1 << (cell & 63))
    patches = [five, one, five]
    work_arrays = C.cover_work(tables, board)
    found, nodes = _cover_nodes(tables, board, patches, (1, 1, 1, 1), work_arrays, budget=10 ** 6)
    assert not found and 0 < nodes < 10 ** 6
    assert _cover_nodes(tables, board, patches, (1, 1, 1, 1), work_arrays) == (False, 0)
    assert _cover_nodes(tables, board, patches[::-1], (1, 1, 1, 1), work_arrays) == (False, 0)
    assert _cover_nodes(tables, board, patches, (1, 1, 1, 1), C.cover_work(tables, board), budget=10 ** 6)[0] is False


@pytest.mark.parametrize("seed", [1, 4])
def test_what_the_search_remembers_never_changes_an_answer(tables, seed):
    # Differential: the full-sheet search of every sequence of a seeded last round's first turn,
    # once with working arrays shared by all of them (as choose_endgame shares them) and once
    # with fresh ones, each with a budget that lets both searches end: the answers agree.
    _, st, occ = _play_to(tables, seed, "turn", 2, turn=0).kernel_state()
    board = occ[0].copy()
    weight, n_turns, opt_patch, opt_nb, opt_count = E.die_sequences(tables, st)
    keep, _ = E.merge_sequences(weight, n_turns, opt_patch, opt_nb, opt_count)
    cells = np.array([E.patch_cells(tables, p) for p in range(int(tables.params[K.P_PATCHES]))])
    used = st[st[K.S_USED_AT]:st[K.S_USED_AT] + 4].copy()
    shared = C.cover_work(tables, board)
    answers = {True: 0, False: 0}
    for s in keep[:12]:
        turns = int(n_turns[s])
        limits = [np.empty(turns, dtype=np.int64) for _ in range(3)]
        C.turn_limits(turns, opt_patch[s], opt_nb[s], opt_count[s], cells, *limits, True)
        results = []
        for work_arrays in (shared, C.cover_work(tables, board)):
            left = np.array([10 ** 6])
            found = C.cover(tables, board.copy(), _full(tables), turns, opt_patch[s], opt_nb[s], opt_count[s],
                             limits[1], limits[2], limits[0], used.copy(), left, work_arrays)
            results.append((found, int(left[0]) > 0))
        assert results[1][1], "the fresh search should end within its budget"
        assert results[0][0] == results[1][0]
        answers[bool(results[0][0])] += 1
    assert sum(answers.values()) == min(12, len(keep))


def test_single_and_again_fill_the_last_two_cells_only_while_unused(tables):
    board = _full(tables)
    board[0] &= ~np.int64(0b11)
    assert _search(tables, board, [], used=(0, 0, 0, 0))[0]  # SINGLE, then AGAIN repeats it
    assert not _search(tables, board, [], used=(0, 0, 0, 1))[0]  # AGAIN spent: one cell only
    assert not _search(tables, board, [], used=(0, 1, 0, 1))[0]  # both spent


def test_cut_and_neighbour_follow_the_special_action_rules(tables):
    # A 1x2 hole and only a 3-cell straight card: a cut (one full straight line) makes it fit.
    straight = next(p for p in range(int(tables.params[K.P_PATCHES]))
                    if E.patch_cells(tables, p) == 3 and tables.cut_count[p] > 0)
    board = _full(tables)
    board[0] &= ~np.int64(0b11)
    assert _search(tables, board, [straight], used=(0, 1, 0, 1))[0]
    assert not _search(tables, board, [straight], used=(0, 1, 1, 1))[0]  # CUT and AGAIN spent
    assert _search(tables, board, [straight], used=(0, 1, 1, 0))[0]  # AGAIN repeats CUT
    # A neighbour's card counts only while NEIGHBOUR (or AGAIN for it) is open.
    domino = _patch_of_cells(tables, 2)
    single = _patch_of_cells(tables, 1)
    assert _search(tables, board, [single], used=(0, 1, 1, 1), nb=[domino])[0]
    assert not _search(tables, board, [single], used=(1, 1, 1, 1), nb=[domino])[0]


@pytest.fixture(scope="module")
def free_choice(tables):
    return _play_to(tables, 5, "free-choice", 2)


@pytest.mark.slow
def test_the_free_choice_completes_the_sheet_when_a_card_left_can(tables, free_choice):
    game = free_choice.copy()
    # Make the sheet full but for one placement of the biggest card left.
    patch = max((PATCH_IDS.index(pid) for pid in game.circle()), key=lambda p: E.patch_cells(tables, p))
    g = int(tables.shape_first[tables.patch_shape[patch]]) + 7
    set_cells(game, 0, _sheet_without(tables, g))
    arrange(game, "specials used: neighbour,single,cut,again")  # no special action left to help
    _, st, occ = game.kernel_state()
    act = np.zeros(K.NA, dtype=np.int64)
    info = np.zeros(3)
    E.choose_endgame(tables, greedy_tables(tables), st, occ, act, info)
    assert K.check_action(tables, st, occ, act) == K.R_OK
    assert act[K.A_KIND] == K.K_DRAW and act[K.A_PLACE] == g
    assert info[1] == 1.0 and info[0] == 81


@pytest.mark.slow
def test_same_position_same_choice(tables):
    _, st, occ = _play_to(tables, 9, "turn", 2, turn=1).kernel_state()
    acts = []
    for _ in range(2):
        act = np.zeros(K.NA, dtype=np.int64)
        E.choose_endgame(tables, greedy_tables(tables), st.copy(), occ.copy(), act, np.zeros(3))
        acts.append(act.tolist())
    assert acts[0] == acts[1]


def test_the_same_cells_come_from_the_source_that_spends_the_fewest_special_actions(tables, free_choice):
    # Two isolated holes, AGAIN the only special action open, and a free choice of a 3-cell
    # straight card (its cut has a one-cell piece) before a one-cell card. Cutting the straight
    # card fills a hole as well as the one-cell card does, but spends AGAIN (to repeat CUT), which
    # SINGLE needs for the other hole: only the one-cell card completes the sheet.
    game = free_choice.copy()
    straight = next(p for p in range(int(tables.params[K.P_PATCHES]))
                    if E.patch_cells(tables, p) == 3 and tables.cut_count[p] > 0)
    single = _patch_of_cells(tables, 1)
    arrange(game, f"""
        circle: {PATCH_IDS[straight]} {PATCH_IDS[single]}
        specials used: neighbour,single,cut
        sheets:
          #########
          #.#######
          #########
          ###.#####
          #########
          #########
          #########
          #########
          #########
    """)
    _, st, occ = game.kernel_state()
    act = np.zeros(K.NA, dtype=np.int64)
    info = np.zeros(3)
    E.choose_endgame(tables, greedy_tables(tables), st, occ, act, info)
    assert K.check_action(tables, st, occ, act) == K.R_OK
    assert act[K.A_KIND] == K.K_DRAW and act[K.A_CARD] == 1 and act[K.A_CUT] < 0 and act[K.A_AGAIN] == 0
    assert info[1] == 1.0 and info[0] == 81


def test_a_plan_names_the_drawing_this_step_makes_in_the_cover(tables):
    # The sheet lacks one placement of a 6-cell card and one cell: this step offers the 6-cell
    # card, and SINGLE is open. The cover with this step as its turn 0 draws the card there.
    big = _patch_of_cells(tables, 6)
    g = int(tables.shape_first[tables.patch_shape[big]]) + 5
    board = _without(tables, _full(tables), g)
    hole = next(c for c in range(81) if (int(board[c >> 6]) >> (c & 63)) & 1)
    board[hole >> 6] &= ~np.int64(1 << (hole & 63))
    targets, points, n = E.sheet_targets(tables, board)
    opt_patch = np.zeros((1, E.MAX_OPTIONS), dtype=np.int64)
    opt_patch[0, 0] = big
    cells = np.array([E.patch_cells(tables, p) for p in range(int(tables.params[K.P_PATCHES]))])
    move = np.zeros(5, dtype=np.int64)
    args = (np.zeros((1, E.MAX_OPTIONS), dtype=np.int64), np.ones(1, dtype=np.int64), cells,
            np.empty(2, dtype=np.int64), np.empty(4, dtype=np.int64), *(np.empty(1, dtype=np.int64) for _ in range(3)),
            np.zeros(1, dtype=np.int64), np.empty(9, dtype=np.int64), C.cover_work(tables, board), move)
    assert E.plan_first(tables, board, np.zeros(4, dtype=np.int64), targets, points, n, 1, opt_patch, *args)
    assert move[0] == 0 and move[1] == g and move[3] == 0
    # With SINGLE spent the sheet cannot be completed: no plan.
    assert not E.plan_first(tables, board, np.array([0, 1, 0, 1]), targets, points, n, 1, opt_patch, *args)
