"""The strong Doodle tier: legal, deterministic choices, played by the one turn loop, registered
for Doodle only, and the hint (toolkit.play.hint, what the prompt's `hint` prints)."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit.bots.base import make_bot
from toolkit.bots.doodle.expert import DoodleExpertBot
from toolkit.families.doodle.loop import play_doodle
from toolkit.errors import UsageError
from toolkit.games.doodle import DoodleGame
from toolkit.games.doodle import kernel as K
from toolkit.play import Seats, Session, hint
from toolkit.bots.registry import EXPERT, GREEDY, RANDOM, BotSpec, parse_bot
from toolkit.sim.botspec import parse_bots
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


@pytest.mark.slow
def test_every_choice_is_legal_and_the_same_from_the_same_position():
    game = DoodleGame(EDITION, 5, 2)
    while not game.is_over:
        a = BOT.choose(game, np.zeros(4, dtype=np.int64))
        b = BOT.choose(game.copy(), np.ones(4, dtype=np.int64))
        assert a == b and a in game.legal_actions()
        game.apply(a)
    assert min(game.scores()) > 60


@pytest.mark.slow
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


@pytest.mark.slow
def test_expert_does_at_least_as_well_as_greedy_on_a_small_sample():
    words = K.game_rng_words(range(8))
    expert = play_doodle(EDITION, (BotSpec("expert", EXPERT),), words, words)["score"]
    greedy = play_doodle(EDITION, (BotSpec("greedy", GREEDY),), words, words)["score"]
    assert expert.mean() >= 120 and expert.mean() > greedy.mean()


def test_hint_names_the_move_the_rectangle_and_the_specials():
    game = DoodleGame(EDITION, 7, 1)
    session = Session(game, Seats((None,)), 7)
    hints = [hint(game)]
    session.move(str(game.legal_actions()[0]))
    hints.append(hint(game))
    assert all(text.startswith("hint for player 1: ") for text in hints)
    assert "best rectangle now: none (the sheet is empty)" in hints[0]
    assert "best rectangle now: 'score r" in hints[1]
    assert "value it puts on keeping a special action for later: " in hints[1]
    assert "NEIGHBOUR: " in hints[1] and "CUT: " in hints[1] and "AGAIN: " in hints[1]
    assert "SINGLE: shading (row " in hints[1]
    assert "small holes (walled-in empty cells, 1/2/3/4 together): " in hints[1]
    action = hints[1].splitlines()[0].removeprefix("hint for player 1: ")
    assert game.parse_action(action) in game.legal_actions()


def test_hint_from_a_bot_that_cannot_explain_says_so_in_one_line(monkeypatch):
    from toolkit.families import RulesFamily, engine_for, family_of

    classic = load_edition("classic")
    game = engine_for(classic).new_game(classic, 1)
    assert family_of(classic).info.hint_bot == "mcts"
    # The time-track games hint through the search (toolkit.families.timetrack.hint); the family
    # default builds the hint bot through the registry, which refuses a bot not marked `explains`.
    monkeypatch.setattr(type(family_of(classic)), "hinter", RulesFamily.hinter)
    assert hint(game) == "no hint for classic: the mcts bot does not explain its moves"


@pytest.mark.slow
def test_hint_in_the_last_round_gives_the_chance_of_a_full_sheet():
    game = DoodleGame(EDITION, 11, 1)
    rng = np.zeros(4, dtype=np.int64)
    while not (game.phase == "turn" and game.round == EDITION.rules.rounds - 1):
        game.apply(BOT.choose(game, rng))
    text = BOT.explain(game)
    line = next(row for row in text.splitlines() if row.startswith("last round: over "))
    # Turn 1 of the last round: 4 rolls and the free choice to come, three die faces.
    assert "over 81 sequences of the rolls to come" in line and "full sheet in " in line
    assert text.splitlines()[0] == f"hint for player 1: {BOT.choose(game, rng)}"
    # The one-ply prices of the first rounds do not speak for the last round's search.
    assert "value it puts on keeping" not in text
