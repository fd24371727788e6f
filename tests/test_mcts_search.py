"""The MCTS search's own playout policy plays only the kernel's legal actions, and the time-budget
bot's root-parallel threads (toolkit.bots.mcts). Nothing here times anything."""
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


def test_threads_add_up_their_searches_and_play_a_legal_move():
    edition = load_edition("classic")
    game = family_of(edition).new_game(edition, 5)
    one, three = mcts.MctsBot(200), mcts.MctsBot(200, threads=3)
    a = one.choose(game, seed_state(1))
    b = three.choose(game, seed_state(1))
    assert one.searched == 200 and three.searched == 600
    for action in (a, b):
        assert action in game.legal_actions()
    # The same seed plays the same move with an iteration budget, threads or not.
    assert mcts.MctsBot(200, threads=3).choose(game, seed_state(1)) == b
    timed = mcts.MctsBot(time_budget(0.01), threads=2)
    assert timed.choose(game, seed_state(2)) in game.legal_actions()
    assert timed.searched > 0


def test_threads_are_checked():
    from toolkit.errors import UsageError

    with pytest.raises(UsageError, match="threads"):
        mcts.MctsBot(100, threads=0)
