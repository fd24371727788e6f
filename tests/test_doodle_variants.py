"""The Doodle engine is parameterised by the edition spec: board size, rounds, turns, refill, the
free choice and the special actions come from the spec, not from code."""
from __future__ import annotations


import numpy as np
import pytest

from toolkit.families.doodle.loop import play_doodle
from toolkit.errors import IllegalAction
from toolkit.games.doodle import DoodleGame
from toolkit.games.doodle import kernel as K
from toolkit.games.rng import seed_state
from toolkit.bots.registry import GREEDY, BotSpec
from toolkit.specs import load_edition

BASE = load_edition("doodle")


def variant(**changes):
    return BASE.changed(name="doodle-test-variant", **changes)


def play_random(edition, seed, players=1):
    game = DoodleGame(edition, seed, players)
    tables, st, occ = game.kernel_state()
    rng = seed_state(seed, 5)
    act = np.zeros(K.NA, dtype=np.int64)
    while not game.is_over:
        K.choose_random(tables, st, occ, rng, act)
        game.apply(game.action_of_row(act))
    return game


@pytest.mark.parametrize("size", [(8, 8), (12, 10), (5, 4)])
@pytest.mark.slow
def test_other_board_sizes_play_to_the_end_inside_the_board(size):
    edition = variant(board_width=size[0], board_height=size[1])
    game = play_random(edition, 3, players=2)
    for seat in range(2):
        sheet = game.sheet(seat)
        assert all(0 <= r < size[1] and 0 <= c < size[0] for r, c in sheet.shaded)
        assert sheet.empty == size[0] * size[1] - len(sheet.shaded)
    words = K.game_rng_words([1, 2])
    empty = play_doodle(edition, (BotSpec("greedy", GREEDY),), words, words)["empty"]
    assert (empty >= 0).all() and (empty <= size[0] * size[1]).all()


def test_rounds_turns_and_no_free_choice_from_the_spec():
    edition = variant(rounds=2, turns_per_round=4, refill=4, final_free_choice=False)
    game = DoodleGame(edition, 9, 1)
    while game.phase == "start":
        game.apply(game.legal_actions()[0])
    phases = []
    while not game.is_over:
        phases.append((game.phase, game.round, game.turn))
        if game.phase == "scoring":
            game.apply(game.best_rectangle(0))
        else:
            game.apply("pass")
    assert phases.count(("scoring", 0, 4)) == 1 and phases.count(("scoring", 1, 4)) == 1
    assert [p for p in phases if p[0] == "turn"] == [("turn", r, t) for r in range(2) for t in range(4)]
    assert len(game.sheet(0).round_scores) == 2


def test_a_variant_without_special_actions_refuses_them():
    edition = variant(special_actions=("single",))
    game = DoodleGame(edition, 4, 1)
    while game.phase == "start":
        game.apply(game.legal_actions()[0])
    assert not any(a.neighbour or a.cut for a in game.legal_actions())
    with pytest.raises(IllegalAction, match="has no NEIGHBOUR special action"):
        game.apply("neighbour left draw o0 r8 c8")
    game.apply("single r8 c8")
    with pytest.raises(IllegalAction, match="SINGLE already used"):
        game.apply("single r8 c7")
    assert "AGAIN" not in game.render_text()


def test_small_circle_and_pile_running_out_still_end_the_game():
    edition = variant(circle_size=3, turns_per_round=6, refill=20)
    game = play_random(edition, 2)
    assert game.is_over
    assert all(score is not None for score in game.sheet(0).round_scores)


def test_empty_penalty_changes_the_score_of_the_same_seeded_games():
    # No silent field: a variant that makes empty cells cost 2 scores the same seeded games lower
    # by one more point per empty cell, in the turn loop and in the validated game alike.
    dearer = variant(empty_penalty=2)
    words = K.game_rng_words(range(6))
    bots = (BotSpec("random", 0),)
    base_out = play_doodle(BASE, bots, words, words)
    dear_out = play_doodle(dearer, bots, words, words)
    assert (base_out["empty"] == dear_out["empty"]).all(), "the same games were played"
    assert (base_out["score"] - dear_out["score"] == base_out["empty"]).all()
    assert (base_out["score"] != dear_out["score"]).any()
    base_game, dear_game = play_random(BASE, 8), play_random(dearer, 8)
    empty = base_game.sheet(0).empty
    assert empty > 0 and base_game.history == dear_game.history
    assert dear_game.scores() == [base_game.scores()[0] - empty] == [dear_game.sheet(0).score]
