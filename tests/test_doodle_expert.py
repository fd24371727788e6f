"""The strong Doodle tier: legal, deterministic choices, played by the one turn loop, registered
for Doodle only, and the play prompt's hint."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit.bots.base import make_bot
from toolkit.bots.doodle.expert import DoodleExpertBot
from toolkit.bots.doodle.loop import play_doodle
from toolkit.cli.game_cmds import play_game
from toolkit.errors import UsageError
from toolkit.games.doodle import DoodleGame
from toolkit.games.doodle import kernel as K
from toolkit.sim.botspec import EXPERT, GREEDY, RANDOM, BotSpec, parse_bot, parse_bots
from toolkit.specs import load_edition
from toolkit.specs.models import Family

EDITION = load_edition("doodle")
BOT = make_bot("expert", EDITION)


def test_registered_for_doodle_only():
    assert isinstance(BOT, DoodleExpertBot) and BOT.name == "expert"
    with pytest.raises(UsageError, match="bot 'expert' plays the doodle editions only"):
        make_bot("expert", load_edition("classic"))
    with pytest.raises(UsageError, match="takes no argument"):
        make_bot("expert:3", EDITION)
    assert parse_bot("expert", Family.DOODLE) == BotSpec("expert", EXPERT)
    with pytest.raises(UsageError, match="doodle editions only"):
        parse_bots("expert,greedy", load_edition("classic"))


def test_every_choice_is_legal_and_the_same_from_the_same_position():
    game = DoodleGame(EDITION, 5, 2)
    while not game.is_over:
        a = BOT.choose(game, np.zeros(4, dtype=np.int64))
        b = BOT.choose(game.copy(), np.ones(4, dtype=np.int64))
        assert a == b and a in game.legal_actions()
        game.apply(a)
    assert min(game.scores()) > 60


def test_the_turn_loop_plays_the_same_games_as_the_validated_layer():
    seeds = [21, 22]
    words = K.game_rng_words(seeds)
    out = play_doodle(EDITION, (BotSpec("expert", EXPERT), BotSpec("random", RANDOM)), words, words)
    for g, seed in enumerate(seeds):
        game = DoodleGame(EDITION, seed, 2)
        random_bot = make_bot("random", EDITION)
        rng = words[g].copy()
        while not game.is_over:
            bot = BOT if game.current_player == 0 else random_bot
            game.apply(bot.choose(game, rng))
        assert game.scores() == out["score"][g].tolist()
    again = play_doodle(EDITION, (BotSpec("expert", EXPERT), BotSpec("random", RANDOM)), words, words)
    assert all((out[key] == again[key]).all() for key in out), "same seed, same games"


def test_expert_does_at_least_as_well_as_greedy_on_a_small_sample():
    words = K.game_rng_words(range(8))
    expert = play_doodle(EDITION, (BotSpec("expert", EXPERT),), words, words)["score"]
    greedy = play_doodle(EDITION, (BotSpec("greedy", GREEDY),), words, words)["score"]
    assert expert.mean() >= 120 and expert.mean() > greedy.mean()


def test_hint_at_the_prompt_names_the_move_the_rectangle_and_the_specials():
    game = DoodleGame(EDITION, 7, 1)
    lines = iter(["hint", game.legal_actions()[0].__str__(), "hint", "quit"])
    said = []
    finished = play_game(game, [None], 7, echo=said.append, read_line=lambda prompt: next(lines))
    assert finished is False
    hints = [text for text in said if text.startswith("hint for player 1: ")]
    assert len(hints) == 2
    assert "best rectangle now: none (the sheet is empty)" in hints[0]
    assert "best rectangle now: 'score r" in hints[1]
    assert "value it puts on keeping a special action for later: " in hints[1]
    assert "NEIGHBOUR: " in hints[1] and "CUT: " in hints[1] and "AGAIN: " in hints[1]
    assert "SINGLE: shading (row " in hints[1]
    assert "small holes (walled-in empty cells, 1/2/3/4 together): " in hints[1]
    action = hints[1].splitlines()[0].removeprefix("hint for player 1: ")
    assert game.parse_action(action) in game.legal_actions()


def test_hint_for_an_edition_without_the_expert_says_so():
    from toolkit.cli.game_cmds import _hint_text
    from toolkit.games.base import engine_for

    classic = load_edition("classic")
    game = engine_for(classic).new_game(classic, 1)
    assert _hint_text(game).startswith("no hint for classic: bot 'expert' plays the doodle editions only")


def test_hint_in_the_last_round_gives_the_chance_of_a_full_sheet():
    game = DoodleGame(EDITION, 11, 1)
    rng = np.zeros(4, dtype=np.int64)
    while not (game.phase == "turn" and game.round == EDITION.rounds - 1):
        game.apply(BOT.choose(game, rng))
    text = BOT.explain(game)
    line = next(row for row in text.splitlines() if row.startswith("last round: over "))
    # Turn 1 of the last round: 4 rolls and the free choice to come, three die faces.
    assert "over 81 sequences of the rolls to come" in line and "full sheet in " in line
    assert text.splitlines()[0] == f"hint for player 1: {BOT.choose(game, rng)}"
    # The one-ply prices of the first rounds do not speak for the last round's search.
    assert "value it puts on keeping" not in text


def _expert_to(seed, rnd, turn):
    """A seeded solo game played by the expert to turn `turn` of round `rnd` (kernel state)."""
    from toolkit.bots.doodle.expert import choose_expert
    from toolkit.bots.doodle.greedy import greedy_tables

    tables = K.build_tables(EDITION)
    st, occ = K.new_state(tables, 1, K.game_rng_words([seed])[0])
    act = np.zeros(K.NA, dtype=np.int64)
    while not (st[K.S_PHASE] == K.PH_TURN and st[K.S_ROUND] == rnd and st[K.S_TURN] == turn):
        choose_expert(tables, greedy_tables(tables), st, occ, np.zeros(4, dtype=np.int64), act)
        K.apply_action(tables, st, occ, act)
    return tables, st, occ


def _rolls(tables, st, i, turns):
    """The die rolls rollout i sees: the kernel's generator as _rollout_state seeds it."""
    from toolkit.bots.doodle.expert import _rollout_state
    from toolkit.games.rng import randbelow

    copy = st.copy()
    _rollout_state(i, copy)
    words = copy[K.S_RNG:K.S_RNG + 4]
    return [int(tables.die[randbelow(words, tables.die.shape[0])]) for _ in range(turns)]


def test_rollout_i_sees_the_same_rolls_from_any_state_and_the_rollouts_cover_every_face():
    tables, st, _ = _expert_to(3, 0, 1)
    _, other, _ = _expert_to(4, 1, 2)
    assert _rolls(tables, st, 5, 6) == _rolls(tables, other, 5, 6)
    firsts = [_rolls(tables, st, i, 1)[0] for i in range(64)]
    assert sorted(set(firsts)) == [1, 2, 3]
    # Not one sequence over and over: the 64 rollouts see many different sequences of 4 rolls.
    assert len({tuple(_rolls(tables, st, i, 4)) for i in range(64)}) > 30


def test_rollouts_pick_the_drawing_that_completes_the_coming_rectangle():
    # Round 1, turn 4: one draw left after this one. The sheet is a full 5x5 corner square but
    # for one placement of the token card's shape: drawing it there scores 25 at the scoring.
    from toolkit.bots.doodle.expert import (EXPERT_WEIGHTS, ROLLOUT_WEIGHTS, choose_rollouts)
    from toolkit.bots.doodle.greedy import greedy_tables

    tables, st, occ = _expert_to(5, 0, 4)
    shape = tables.patch_shape[st[st[K.S_CIRCLE_AT] + st[K.S_CUR]]]
    corner = np.zeros_like(occ[0])
    for r in range(5):
        for c in range(5):
            corner[(r * 9 + c) >> 6] |= np.int64(1) << ((r * 9 + c) & 63)
    g = next(g for g in range(tables.shape_first[shape], tables.shape_first[shape] + tables.shape_count[shape])
             if ((tables.place_masks[g] & ~corner) == 0).all())
    occ[0] = corner & ~tables.place_masks[g]
    act = np.zeros(K.NA, dtype=np.int64)
    info = np.zeros(4)
    choose_rollouts(tables, greedy_tables(tables), st, occ, act, EXPERT_WEIGHTS, ROLLOUT_WEIGHTS, 8, 16, info)
    assert K.check_action(tables, st, occ, act) == K.R_OK
    assert act[K.A_KIND] == K.K_DRAW and ((occ[0] | tables.place_masks[act[K.A_PLACE]]) & corner == corner).all()
    assert info[2] == 8 and info[3] == 16 and info[0] >= info[1]


def test_hint_in_the_first_rounds_reports_the_rollouts():
    game = DoodleGame(EDITION, 13, 1)
    rng = np.zeros(4, dtype=np.int64)
    while not (game.phase == "turn" and game.round == 0):
        game.apply(BOT.choose(game, rng))
    text = BOT.explain(game)
    line = next(row for row in text.splitlines() if row.startswith("this round: the "))
    assert "were each played out over the same 64 seeded rolls" in line and "this one averages " in line
    assert text.splitlines()[0] == f"hint for player 1: {BOT.choose(game, rng)}"
