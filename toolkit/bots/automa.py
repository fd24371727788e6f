"""The `automa` bot: the official solo opponent of the classic editions (anniversary Automa deck).

Automa is part of the rules rather than a player of them: its turn (draw a card, filter the
market window, buy or pass) is computed by the kernel, so this bot only asks the game for that
turn. It therefore needs the game set up for it: `game_options` carries the level and deck, and
it always sits in seat 2 (index 1), since the human moves first.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.errors import UsageError


class AutomaBot:
    """Plays Automa's turns of a game created with its `game_options`."""

    seat = 1

    def __init__(self, level: int, deck: str):
        self.level = level
        self.deck = deck
        self.name = f"automa:{level}"
        self.game_options: dict[str, Any] = {"automa_level": level, "automa_deck": deck}

    def choose(self, game: Any, rng: np.ndarray) -> Any:
        actions = game.legal_actions()
        if len(actions) != 1 or str(actions[0]) != "automa":
            raise UsageError(
                "the automa bot can only play Automa's seat of a game set up for Automa"
                " (seat 2, with an Automa level)"
            )
        return actions[0]

