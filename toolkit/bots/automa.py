"""The `automa` bot: the official solo opponent of the classic editions (anniversary Automa deck).

Automa is part of the rules rather than a player of them: its turn (draw a card, filter the
market window, buy or pass) is computed by the kernel, so this bot only asks the game for that
turn. It therefore needs the game set up for it: `game_options` carries the level and deck, and
it always sits in seat 2 (index 1), since the human moves first.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.bots.base import register_bot
from toolkit.errors import UsageError
from toolkit.specs.models import Edition

DEFAULT_LEVEL = 3
DEFAULT_DECK = "normal"


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


def _factory(edition: Edition, arg: str | None, level: int | None = None, deck: str | None = None, **options: Any) -> AutomaBot:
    if edition.automa is None:
        raise UsageError(f"edition '{edition.name}' has no Automa deck (Automa plays 'anniversary')")
    if arg:
        try:
            level = int(arg)
        except ValueError:
            raise UsageError(f"'automa:{arg}': the argument is the level, 1 to 5") from None
    level = DEFAULT_LEVEL if level is None else int(level)
    known = sorted(lv.level for lv in edition.automa.levels)
    if level not in known:
        raise UsageError(f"Automa level must be one of {known}, got {level}")
    deck = deck or DEFAULT_DECK
    decks = [name for name, _ in edition.automa.decks]
    if deck not in decks:
        raise UsageError(f"unknown Automa deck '{deck}' (decks: {', '.join(decks)})")
    return AutomaBot(level, deck)


register_bot("automa", _factory)
