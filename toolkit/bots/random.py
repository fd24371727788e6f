"""The `random` bot: uniform over the legal actions of any Game.

For the time-track games the compiled chooser `choose_timetrack` (the kernel's random_action)
draws exactly the same action as the Python bot from the same generator state, because the Game
lists its legal actions in kernel order; the simulator can use either.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.errors import UsageError
from toolkit.games.rng import randbelow
from toolkit.games.timetrack.kernel import random_action as choose_timetrack

__all__ = ["RandomBot", "choose_timetrack"]


class RandomBot:
    """Picks each legal action with equal probability."""

    name = "random"
    game_options: dict[str, Any] = {}
    seat = None

    def choose(self, game: Any, rng: np.ndarray) -> Any:
        actions = game.legal_actions()
        if not actions:
            raise UsageError("the random bot was asked to move in a game with no legal action")
        return actions[int(randbelow(rng, len(actions)))]
