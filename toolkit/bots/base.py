"""The bot protocol, and `make_bot`: a bot's text -> the Python bot, through the one registry entry.

A bot chooses one action for the player to move in a validated Game (toolkit.games.base.Game).
It takes all its randomness from the `toolkit.games.rng` state it is given, so a seeded run is
reproducible. Which bots exist, how their text is read and which class plays each is
toolkit.bots.registry's; a bot module only defines its class.

A bot that needs the game itself to be set up differently (Automa: it is a seat of the rules, not
a player of them) says so with `game_options` (keyword arguments for Engine.new_game) and
`seat` (the only seat it can play, or None for any).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # annotations only: a bot's text is read without numpy (the command line refuses bots so)
    import numpy as np

from toolkit.bots import registry
from toolkit.specs.models import Edition


@runtime_checkable
class Bot(Protocol):
    """A player that picks actions (every bot class declares all of it)."""

    @property
    def name(self) -> str:
        """The spec it was built from, e.g. `mcts:2000`."""
        ...

    @property
    def seat(self) -> int | None:
        """The only seat the bot can play (Automa: 1), or None for any."""
        ...

    @property
    def game_options(self) -> dict[str, Any]:
        """Keyword arguments for Engine.new_game that a game it plays in needs ({} for most bots)."""
        ...

    def choose(self, game: Any, rng: np.ndarray) -> Any:
        """One legal action of `game` for `game.current_player`, drawn with `rng` only."""
        ...


@runtime_checkable
class Hinter(Protocol):
    """What answers `hint` at the prompt (RulesFamily.hinter): the hint bot, or a search of its own."""

    def explain(self, game: Any) -> str:
        """What it would play for `game.current_player` and why, in one line; the game is a copy
        it may change."""
        ...


def make_bot(text: str, edition: Edition, level: int | None = None, deck: str | None = None) -> Bot:
    """The bot `text` names (`greedy`, `mcts:2000`, `automa:3`) for games of `edition`; `level` and
    `deck` are the Automa's when the text names none (the prompt's defaults otherwise)."""
    level = registry.PROMPT_AUTOMA_LEVEL if level is None else level
    spec = registry.parse_bot(text, edition.family, level, deck or registry.AUTOMA_DECK)
    return registry.build_bot(spec, edition)
