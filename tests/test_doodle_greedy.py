"""The Doodle greedy bot's decisions that the strategy promises: the best rectangle at every
scoring, SINGLE to complete a better rectangle or to spend it in the last scoring, specials
only when they pay, and the same choice from the same position."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit.bots.base import make_bot
from toolkit.bots.doodle.greedy import DoodleGreedyBot
from toolkit.families.doodle.loop import play_doodle
from toolkit.games.doodle import DoodleGame
from toolkit.games.doodle import kernel as K
from toolkit.games.rng import seed_state
from toolkit.bots.registry import GREEDY, BotSpec
from toolkit.specs import load_edition

from positions import set_cells

EDITION = load_edition("doodle")
BOT = make_bot("greedy", EDITION)


def rect_cells(row, col, width, height):
    return [(r, c) for r in range(row, row + height) for c in range(col, col + width)]


def to_scoring(game, rounds_done=0):
    while game.phase == "start":
        game.apply(game.legal_actions()[0])
    done = 0
    while True:
        if game.phase == "scoring":
            if done == rounds_done:
                return
            game.apply(game.best_rectangle(game.current_player))
            done += 1
        else:
            game.apply("pass")


def test_make_bot_builds_the_doodle_greedy():
    assert isinstance(BOT, DoodleGreedyBot) and BOT.name == "greedy"


def test_scores_the_best_rectangle():
    game = DoodleGame(EDITION, 1, 1)
    to_scoring(game)
    set_cells(game, 0, rect_cells(0, 0, 8, 3) + rect_cells(4, 0, 5, 4))
    action = BOT.choose(game, seed_state(1))
    assert str(action) == "score r4 c0 5x4"


def test_single_completes_a_much_better_rectangle_before_scoring():
    game = DoodleGame(EDITION, 1, 1)
    to_scoring(game)
    cells = [c for c in rect_cells(0, 0, 5, 5) if c != (4, 4)]
    set_cells(game, 0, cells)
    action = BOT.choose(game, seed_state(1))
    assert str(action) == "single r4 c4"
    game.apply(action)
    action = BOT.choose(game, seed_state(1))
    assert str(action) == "score r0 c0 5x5"


def test_single_is_kept_when_it_gains_little_mid_game():
    game = DoodleGame(EDITION, 1, 1)
    to_scoring(game)
    set_cells(game, 0, rect_cells(0, 0, 4, 4) + [(4, 0)])
    assert BOT.choose(game, seed_state(1)).kind == "score"


def test_last_scoring_spends_single_and_again():
    game = DoodleGame(EDITION, 1, 1)
    to_scoring(game, rounds_done=2)
    set_cells(game, 0, rect_cells(0, 0, 4, 4))
    first = BOT.choose(game, seed_state(1))
    assert first.kind == "single" and first.again is None
    game.apply(first)
    second = BOT.choose(game, seed_state(1))
    assert second.kind == "single" and second.again == "single"
    game.apply(second)
    assert BOT.choose(game, seed_state(1)).kind == "score"


@pytest.mark.slow
def test_every_choice_is_legal_and_the_same_from_the_same_position():
    game = DoodleGame(EDITION, 6, 2)
    while not game.is_over:
        a = BOT.choose(game, seed_state(3))
        b = BOT.choose(game.copy(), seed_state(4))
        assert a == b
        assert a in game.legal_actions()
        game.apply(a)
    assert min(game.scores()) > 60


@pytest.mark.slow
def test_specials_are_used_during_the_game_not_wasted():
    n = 20
    words = K.game_rng_words(range(n))
    out = play_doodle(EDITION, (BotSpec("greedy", GREEDY),), words, words)
    specials = out["specials"][:, 0, :]
    assert (specials[:, K.SP_AGAIN] == 1).all(), "AGAIN is always spent by the end"
    # SINGLE needs an empty cell: a sheet filled to the last cell has none left to shade.
    assert ((specials[:, K.SP_SINGLE] >= 1) | (out["empty"][:, 0] == 0)).all()
    assert specials[:, K.SP_CUT].mean() >= 1 and specials[:, K.SP_NEIGHBOUR].mean() >= 1


def _rows(picture: str) -> np.ndarray:
    """Row bit sets of a 9x9 sheet drawn with '#' (shaded) and '.' (empty); bit c = column c."""
    lines = picture.split()
    return np.array([sum(1 << c for c, ch in enumerate(line) if ch == "#") for line in lines], dtype=np.int64)


def test_the_evaluation_counts_walled_in_holes_by_size():
    from toolkit.bots.doodle.features import isolated_holes, paired_holes, small_holes

    sheet = _rows("""
        ..#######
        #########
        ####.####
        ####..###
        #########
        ...######
        #########
        ########.
        #....####
    """)
    # One 1-cell hole (bottom right), one 2-cell hole (top left), two 3-cell holes (the L in the
    # middle, the bar on the left), one 4-cell hole (the bottom bar).
    assert isolated_holes(sheet, 9, 9) == 1
    assert paired_holes(sheet, 9, 9) == 1
    assert small_holes(sheet, 9, 9, np.zeros(100, dtype=np.int64)) == (2, 1)
    # An open sheet has none: its empty cells are one large region.
    assert small_holes(np.zeros(9, dtype=np.int64), 9, 9, np.zeros(100, dtype=np.int64)) == (0, 0)
    assert paired_holes(np.zeros(9, dtype=np.int64), 9, 9) == 0


def test_the_expert_prices_each_small_hole_it_would_leave():
    from toolkit.bots.doodle import features as F
    from toolkit.bots.doodle import weights as W
    from toolkit.bots.doodle.expert import EXPERT_WEIGHTS

    pre = np.zeros((10, 10), dtype=np.int64)
    sheet = _rows("""
        #########
        ###..####
        #########
        .#.######
        #.#######
        .........
        .........
        .........
        .........
    """)
    # A 2-cell hole and two 1-cell holes (row 4's empty cell opens onto the empty rows below, so
    # it is no hole): the expert's evaluation charges each hole at its price.
    free = EXPERT_WEIGHTS.copy()
    for term in (W.G_ISOLATED, W.G_PAIRED, W.G_HOLE3, W.G_HOLE4):
        free[term] = 0.0
    priced = F.evaluate(sheet, 9, 9, pre, 3, 6, 1, EXPERT_WEIGHTS)
    unpriced = F.evaluate(sheet, 9, 9, pre, 3, 6, 1, free)
    assert unpriced - priced == EXPERT_WEIGHTS[W.G_PAIRED] + 2 * EXPERT_WEIGHTS[W.G_ISOLATED]
