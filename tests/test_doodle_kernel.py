"""The Doodle kernel against its contracts: notation round-trips, the validator agrees with the
list of legal actions, the compiled rectangle search agrees with geometry's reference, the game
is the same with the JIT disabled, and the bots only ever play legal actions."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.bots.base import make_bot
from toolkit.bots.doodle.greedy import DoodleGreedyBot, choose_greedy, greedy_tables
from toolkit.families.doodle.loop import play_doodle
from toolkit.errors import NotationError
from toolkit.games.doodle import DoodleAction, DoodleGame, parse_action
from toolkit.games.doodle import kernel as K
from toolkit.games.base import RESULT_FIELDS_DOODLE
from toolkit.games.rng import seed_state
from toolkit.geometry.board import Board, best_rectangle, mask_words
from toolkit.bots.registry import GREEDY, RANDOM, BotSpec
from toolkit.specs import load_edition

EDITION = load_edition("doodle")
BOARD = Board(9, 9)
TABLES = K.build_tables(EDITION)
GREEDY_BOT = BotSpec("greedy", GREEDY)
RANDOM_BOT = BotSpec("random", RANDOM)

# ----- notation ------------------------------------------------------------------------------------

small = st.integers(min_value=0, max_value=40)
draws = st.builds(
    lambda o, r, c, card, nb, cut, again: DoodleAction(
        "draw", o, r, c, card=card, neighbour=nb,
        cut=None if cut is None else cut[0], piece=None if cut is None else cut[1],
        again=again if (again == "neighbour" and nb) or (again == "cut" and cut) else None,
    ),
    small, small, small,
    st.one_of(st.none(), st.from_regex(r"[A-Z][0-9]{2}", fullmatch=True)),
    st.one_of(st.none(), st.sampled_from(["left", "right"])),
    st.one_of(st.none(), st.tuples(st.from_regex(r"[hv][1-9]", fullmatch=True), st.sampled_from("ab"))),
    st.sampled_from([None, "neighbour", "cut"]),
)
actions = st.one_of(
    draws,
    st.builds(lambda o, r, c: DoodleAction("start", o, r, c), small, small, small),
    st.just(DoodleAction("pass")),
    st.just(DoodleAction("score")),
    st.builds(lambda r, c, again: DoodleAction("single", row=r, col=c, again=again), small, small,
              st.sampled_from([None, "single"])),
    st.builds(lambda r, c, w, h: DoodleAction("score", row=r, col=c, width=w, height=h), small, small,
              st.integers(1, 40), st.integers(1, 40)),
)


@given(actions)
@pytest.mark.slow
def test_notation_round_trips(action):
    assert parse_action(str(action)) == action
    assert parse_action("  " + str(action).upper() + " ").kind == action.kind


@pytest.mark.parametrize("text", [
    "", "draw", "draw o1 r2", "draw x1 r2 c3", "jump o1 r1 c1", "score r0 c0 5by4", "cut h1 c draw o0 r0 c0",
    "again draw o0 r0 c0", "again pass", "pass now", "cut h1 a cut v1 a draw o0 r0 c0", "free", "neighbour up draw o0 r0 c0",
    "again again single r0 c0",
])
def test_bad_notation_says_what_is_expected(text):
    with pytest.raises(NotationError, match="expected|only|once|unknown|missing|empty|must|takes"):
        parse_action(text)


@pytest.mark.slow
def test_legal_actions_round_trip_through_text():
    game = DoodleGame(EDITION, 44, players=2)
    rng = seed_state(1)
    for _ in range(12):
        legal = game.legal_actions()
        for action in legal[:: max(1, len(legal) // 50)]:
            assert parse_action(str(action)) == action
        game.apply(legal[int(np.asarray(K.randbelow(rng, len(legal))))])


# ----- validator against the legal list -----------------------------------------------------------


def _random_states(count, seed):
    """Kernel states reached by random play (including scoring and free-choice steps)."""
    rng = seed_state(seed)
    act = np.zeros(K.NA, dtype=np.int64)
    out = []
    for g in range(count):
        st_, occ = K.new_state(TABLES, 1 + g % 3, seed_state(seed, g))
        while st_[K.S_PHASE] != K.PH_OVER:
            if K.randbelow(rng, 4) == 0:
                out.append((st_.copy(), occ.copy()))
            K.choose_random(TABLES, st_, occ, rng, act)
            K.apply_action(TABLES, st_, occ, act)
    return out


# The fields each kind of action row uses; the others are ignored by the kernel.
RELEVANT = {
    K.K_START: (K.A_PLACE, K.A_AGAIN),
    K.K_DRAW: (K.A_CARD, K.A_NB, K.A_CUT, K.A_PIECE, K.A_PLACE, K.A_AGAIN),
    K.K_PASS: (K.A_AGAIN,),
    K.K_SINGLE: (K.A_PLACE, K.A_AGAIN),
    K.K_SCORE: (K.A_PLACE, K.A_COL, K.A_H, K.A_W, K.A_AGAIN),
}


@pytest.mark.slow
def test_check_action_accepts_exactly_the_listed_actions():
    rng = seed_state(99)
    states = _random_states(6, 5)
    assert {int(s[K.S_PHASE]) for s, _ in states} >= {K.PH_START, K.PH_TURN, K.PH_SCORE}
    for st_, occ in states:
        legal = K.list_actions(TABLES, st_, occ)
        assert legal.shape[0] == K.count_actions(TABLES, st_, occ) > 0
        listed = {tuple(row) for row in legal.tolist()}
        assert len(listed) == legal.shape[0], "no action is listed twice"
        for row in legal[:: max(1, legal.shape[0] // 40)]:
            assert K.check_action(TABLES, st_, occ, row) == K.R_OK
        # Perturbed rows: legal exactly when they are in the list.
        for _ in range(60):
            row = legal[K.randbelow(rng, legal.shape[0])].copy()
            fields = RELEVANT[int(row[K.A_KIND])]
            if not fields:
                continue
            field = fields[K.randbelow(rng, len(fields))]
            row[field] += (-1, 1, 2, 7)[K.randbelow(rng, 4)]
            code = K.check_action(TABLES, st_, occ, row)
            assert (code == K.R_OK) == (tuple(row.tolist()) in listed), (row, field)
            assert code == K.R_OK or code in K.REASONS


def test_every_reason_code_has_one_message_and_rule():
    codes = {value for name, value in vars(K).items() if name.startswith("R_") and name != "R_OK"}
    assert codes == set(K.REASONS) and len(codes) == len([n for n in vars(K) if n.startswith("R_")]) - 1
    assert all(message and rule for message, rule in K.REASONS.values())


def test_nth_action_matches_the_list():
    for st_, occ in _random_states(2, 8)[:10]:
        legal = K.list_actions(TABLES, st_, occ)
        act = np.zeros(K.NA, dtype=np.int64)
        for i in (0, legal.shape[0] // 2, legal.shape[0] - 1):
            K.nth_action(TABLES, st_, occ, i, act)
            assert (act == legal[i]).all()


# ----- rectangle search -----------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=(1 << 81) - 1), st.integers(0, 3))
@pytest.mark.slow
def test_compiled_best_rectangle_matches_geometry(mask, density):
    # Denser boards have larger rectangles: OR a few random masks together.
    rng = np.random.default_rng(mask % 1000)
    for _ in range(density):
        mask |= int(rng.integers(0, 1 << 62)) | int(rng.integers(0, 1 << 19)) << 62
    words = mask_words(mask, BOARD).view(np.int64)
    score, row, col, height, width = K.best_rectangle(TABLES, words)
    ref = best_rectangle(mask, BOARD)
    if ref is None:
        assert height == 0 and score == 0
    else:
        assert (score, row, col, height, width) == (ref.score, ref.row, ref.col, ref.height, ref.width)


# ----- whole games ------------------------------------------------------------------------------------


def _play_checked(seed, players, kinds):
    """A whole game with compiled choosers, every choice validated by the kernel and the Game."""
    game = DoodleGame(EDITION, seed, players)
    bots = [make_bot(k, EDITION) for k in kinds]
    rng = seed_state(seed, 7)
    while not game.is_over:
        action = bots[game.current_player].choose(game, rng)
        assert parse_action(str(action)) == action
        game.apply(str(action))
    return game


@pytest.mark.slow
def test_random_and_greedy_only_play_legal_actions_and_reach_the_end():
    for seed in range(2):
        game = _play_checked(seed, 2, ["greedy", "random"])
        assert game.is_over and len(game.scores()) == 2
        assert game.sheet(0).round_scores[2] is not None


def test_the_turn_loop_fields_match_the_contract_and_the_game_layer():
    seeds = [3, 4, 5]
    out = play_doodle(EDITION, (GREEDY_BOT, RANDOM_BOT), K.game_rng_words(seeds), K.game_rng_words([10, 11, 12]))
    assert list(out) == list(RESULT_FIELDS_DOODLE)
    score, round_scores, empty, start_card, specials, drawn = out.values()
    assert score.shape == (3, 2) and round_scores.shape == (3, 2, 3) and specials.shape == (3, 2, 4)
    assert (score == round_scores.sum(axis=2) - empty).all()
    # The same game replayed through the validating layer with the same choosers.
    game = DoodleGame(EDITION, seeds[0], 2)
    tables, st_, occ = game.kernel_state()
    act = np.zeros(K.NA, dtype=np.int64)
    rng = K.game_rng_words([10])[0].copy()
    while not game.is_over:
        if game.current_player == 0:
            choose_greedy(tables, greedy_tables(tables), st_, occ, rng, act)
        else:
            K.choose_random(tables, st_, occ, rng, act)
        game.apply(game.action_of_row(act))
    assert game.scores() == score[0].tolist()
    assert [game.sheet(k).drawn for k in range(2)] == drawn[0].tolist()
    assert [game.sheet(k).start_card for k in range(2)] == [EDITION.rules.start_cards[i].id for i in start_card[0]]


def test_greedy_is_strong_on_a_small_sample():
    n = 12
    words = K.game_rng_words(range(n))
    greedy = play_doodle(EDITION, (GREEDY_BOT,), words, words)["score"]
    rand = play_doodle(EDITION, (RANDOM_BOT,), words, words)["score"]
    assert greedy.mean() >= 100, greedy.ravel()  # the rulebook calls 100+ a good score
    assert (greedy > rand).all()


def test_bot_registry_gives_the_doodle_greedy_for_doodle_editions():
    assert isinstance(make_bot("greedy", EDITION), DoodleGreedyBot)


_JIT_SCRIPT = """
import json, sys
import numpy as np
from toolkit.games.doodle import DoodleGame
from toolkit.games.doodle import kernel as K
from toolkit.games.rng import seed_state
from toolkit.specs import load_edition
e = load_edition('doodle')
game = DoodleGame(e, 5, 2)
tables, st, occ = game.kernel_state()
rng = seed_state(77)
act = np.zeros(K.NA, dtype=np.int64)
while not game.is_over:
    K.choose_random(tables, st, occ, rng, act)
    game.apply(game.action_of_row(act))
print(json.dumps({"history": [str(a) for a in game.history], "scores": game.scores(), "deal": game.deal()}))
"""


@pytest.mark.slow
def test_same_game_with_the_jit_disabled():
    results = []
    for disable in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable)
        proc = subprocess.run([sys.executable, "-c", _JIT_SCRIPT], env=env, capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr
        results.append(json.loads(proc.stdout))
    assert results[0] == results[1]
    assert len(results[0]["history"]) > 20


@pytest.mark.slow
def test_compiled_random_chooser_draws_what_the_python_random_bot_draws():
    # Both pick index randbelow(rng, n) of the same canonically ordered legal list.
    bot = make_bot("random", EDITION)
    game = DoodleGame(EDITION, 13, players=2)
    tables, st_, occ = game.kernel_state()
    rng = seed_state(21)
    act = np.zeros(K.NA, dtype=np.int64)
    while not game.is_over:
        python_rng = rng.copy()
        expected = bot.choose(game, python_rng)
        K.choose_random(tables, st_, occ, rng, act)
        assert game.action_of_row(act) == expected
        assert (rng == python_rng).all()
        game.apply(expected)
