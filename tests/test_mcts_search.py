"""The MCTS search's own playout policy plays only the kernel's legal actions, and the search bot's
threads growing one tree (toolkit.bots.mcts). Nothing here times anything."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit.bots import mcts
from toolkit.bots.registry import time_budget
from toolkit.families import family_of
from toolkit.games.rng import seed_state
from toolkit.games.timetrack import kernel as k
from toolkit.games.timetrack.tables import P_ACTIONS, tables_for
from toolkit.specs import load_edition


@pytest.mark.parametrize("name, level", [("classic", 0), ("express", 0), ("anniversary", 3)])
def test_the_playout_policy_may_play_exactly_the_legal_actions(name, level):
    t = tables_for(load_edition(name)).arrays
    legal = np.zeros(t.params[P_ACTIONS], dtype=np.int64)
    support = np.zeros(t.params[P_ACTIONS], dtype=np.int64)
    scratch = np.zeros(t.params[P_ACTIONS], dtype=np.int64)
    for game in range(6):
        rng = seed_state(7, game)
        s, q = k.new_state_automa(t, rng, level, 0) if level else k.new_state(t, rng)
        bot_rng = seed_state(8, game)
        while not k.is_over(t, s):
            n = k.legal_actions(t, s, q, legal)
            m = mcts.rollout_support(t, s, q, support)
            assert sorted(support[:m].tolist()) == sorted(legal[:n].tolist())
            for _ in range(5):
                a = mcts.rollout_action(t, s, q, bot_rng, scratch)
                assert k.check_action(t, s, q, a) == k.R_OK
            k.apply(t, s, q, mcts.rollout_action(t, s, q, bot_rng, scratch), rng)


def test_threads_grow_one_tree_and_play_a_legal_move():
    edition = load_edition("classic")
    game = family_of(edition).new_game(edition, 5)
    one, three = mcts.MctsBot(200), mcts.MctsBot(200, threads=3)
    a = one.choose(game, seed_state(1))
    b = three.choose(game, seed_state(1))
    # An iteration budget is per thread: three threads search 600 iterations in the one tree.
    assert one.searched == 200 and three.searched == 600
    for action in (a, b):
        assert action in game.legal_actions()
    # The seeded single-thread search is unchanged by the shared one's existence.
    assert mcts.MctsBot(200).choose(game, seed_state(1)) == a
    timed = mcts.MctsBot(time_budget(0.01), threads=2)
    assert timed.choose(game, seed_state(2)) in game.legal_actions()
    assert timed.searched > 0
    assert timed.name == "mcts:0.01s:2t"


def test_a_shared_tree_keeps_its_visits_consistent():
    """However the threads interleave, both threads' iterations are all counted, the move is legal
    and the position searched is left as it was."""
    edition = load_edition("express")
    game = family_of(edition).new_game(edition, 9)
    t = game.tables.arrays
    search = mcts.SharedSearch(2)
    s, q = game.state.copy(), game.quilts.copy()
    code, done = search.choose(t, s, q, seed_state(4), 300, mcts.GREEDY_WEIGHTS, mcts.PARAMS)
    assert done == 600 and k.check_action(t, s, q, code) == k.R_OK
    assert (s == game.state).all() and (q == game.quilts).all()


@pytest.mark.slow
def test_the_threaded_loop_plays_the_compiled_loops_games_with_one_thread():
    from toolkit.bots import greedy
    from toolkit.bots.registry import Family, parse_bot
    from toolkit.families.timetrack.loop import _threaded_loop, play_time_track
    from toolkit.sim.shards import deal_generators

    t = tables_for(load_edition("classic")).arrays
    bots = (parse_bot("mcts:20", Family.TIME_TRACK), parse_bot("greedy", Family.TIME_TRACK))
    game_rngs, bot_rngs, swap = deal_generators(3, 0, 2, 2)
    compiled = play_time_track(t, bots, game_rngs, bot_rngs, swap)
    threaded = {key: np.zeros_like(v) for key, v in compiled.items()}
    _threaded_loop(t, game_rngs, bot_rngs, bots, greedy.WEIGHTS, swap, 0, 0, *threaded.values())
    for key in compiled:
        assert (compiled[key] == threaded[key]).all(), key
    # A bot on two threads goes through it and finishes every game.
    two = (parse_bot("mcts:0.002s:2t", Family.TIME_TRACK), parse_bot("random", Family.TIME_TRACK))
    out = play_time_track(t, two, game_rngs[:2], bot_rngs[:2], swap[:2])
    assert (out["plies"] > 0).all()


def test_threads_are_checked():
    from toolkit.errors import UsageError

    with pytest.raises(UsageError, match="threads"):
        mcts.MctsBot(100, threads=0)
    with pytest.raises(UsageError, match="threads"):
        mcts.SharedSearch(1)
