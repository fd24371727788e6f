"""The time-track hint (toolkit.families.timetrack.hint): the search's move, what playing on from it
gives and why, for two players and against the Automa, knowing only what the player knows."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit.families.timetrack.hint import SearchHint
from toolkit.games.timetrack import kernel as k
from toolkit.play import hint, new_game, seat
from toolkit.specs import load_edition


@pytest.mark.slow
def test_the_hint_names_a_legal_move_with_what_it_expects_and_why():
    edition = load_edition("classic")
    game = new_game(edition, 3)
    text = hint(game)
    first = text.splitlines()[0]
    assert first.startswith("hint for player 1: ")
    move = game.parse_action(first.removeprefix("hint for player 1: "))
    assert move in game.legal_actions()
    assert "expects: player 1 wins " in text and "why: " in text
    assert game.history == []  # the hint looked at a copy


@pytest.mark.slow
def test_the_hint_does_not_know_the_order_of_the_automa_deck():
    edition = load_edition("anniversary")
    seats = seat(edition, "human,automa:3")
    game = new_game(edition, 5, None, seats)
    other = game.copy()
    left = int(other.state[k.S_DRAW_LEN])
    pile = other.state[k.S_DRAW:k.S_DRAW + left].copy()
    other.state[k.S_DRAW:k.S_DRAW + left] = pile[::-1]  # the same cards, another hidden order
    assert not np.array_equal(pile, pile[::-1])
    quick = SearchHint(iterations=300, playouts=20)
    assert quick.explain(game) == quick.explain(other)
