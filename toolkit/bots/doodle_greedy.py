"""The `greedy` bot of the Doodle editions: the kernel's compiled greedy chooser behind the Bot
protocol.

It values every legal draw of the step (the token card whole or cut, the neighbours, the free
choice) one ply deep by the coming rectangle score, shaded cells, compactness and isolated holes,
then re-ranks the ten best by the expected best drawing of the next turn's card over the die
faces (the circle is open, so the next card for each roll is known). It uses SINGLE before a
scoring when that completes a better rectangle (and always in the last scoring), and scores the
best rectangle. The strategy lives in
toolkit.games.doodle.kernel.choose_greedy so the simulator plays the very same bot compiled.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.bots import base
from toolkit.errors import UsageError
from toolkit.games.doodle import kernel as K
from toolkit.specs.models import Edition, Family


class DoodleGreedyBot:
    """Deterministic greedy Doodle player with a one-card look-ahead (ties: first legal action)."""

    name = "greedy"
    game_options: dict[str, Any] = {}
    seat = None

    def choose(self, game: Any, rng: np.ndarray) -> Any:
        tables, st, occ = game.kernel_state()
        if st[K.PHASE] == K.P_OVER:
            raise UsageError("the greedy bot was asked to move in a finished game")
        act = np.zeros(K.NA, dtype=np.int64)
        K.choose_greedy(tables, st, occ, rng, act)
        return game.action_of_row(act)


def _factory(edition: Edition, arg: str | None, **options: Any) -> Any:
    if arg:
        raise UsageError(f"the Doodle greedy bot takes no argument, got 'greedy:{arg}'")
    return DoodleGreedyBot()


base.register_bot("greedy", _factory, families=(Family.DOODLE,))
