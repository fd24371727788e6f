"""The bot protocol and the registry that builds bots from names like `random`, `mcts:2000`.

A bot chooses one action for the player to move in a validated Game (toolkit.games.base.Game).
It takes all its randomness from the `toolkit.games.rng` state it is given, so a seeded run is
reproducible. Bot modules register a factory under a name with `register_bot`; `make_bot` parses
`NAME[:ARG]` and calls the factory with the edition, the text after the colon (or None) and any
options (e.g. `level=3, deck="tactical"` for Automa).

A bot that needs the game itself to be set up differently (Automa: it is a seat of the rules, not
a player of them) says so with `game_options` (keyword arguments for Engine.new_game) and
`seat` (the only seat it can play, or None for any).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from toolkit.errors import UsageError
from toolkit.specs.models import Edition

BotFactory = Callable[..., "Bot"]
"""factory(edition, arg: str | None, **options) -> Bot."""


class Bot(Protocol):
    """A player that picks actions."""

    name: str
    """The spec it was built from, e.g. `mcts:2000`."""

    def choose(self, game: Any, rng: np.ndarray) -> Any:
        """One legal action of `game` for `game.current_player`, drawn with `rng` only."""
        ...


_FACTORIES: dict[str, BotFactory] = {}

BOT_MODULES: list[str] = [
    "toolkit.bots.random",
    "toolkit.bots.automa",
    "toolkit.bots.greedy",
    "toolkit.bots.mcts",
    "toolkit.bots.doodle",
]
"""Modules imported on first use so that they register their bots; append to add a bot module."""

_loaded = False


def register_bot(name: str, factory: BotFactory) -> BotFactory:
    """Make `make_bot(name...)` build bots with `factory`."""
    _FACTORIES[name] = factory
    return factory


def _load_bot_modules() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in BOT_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            # Only a missing bot module itself is tolerated; a broken import inside it is a bug.
            if error.name != module:
                raise


def bot_names() -> list[str]:
    """Registered bot names, sorted."""
    _load_bot_modules()
    return sorted(_FACTORIES)


def make_bot(spec: str, edition: Edition, **options: Any) -> Bot:
    """The bot named by `spec` (`NAME` or `NAME:ARG`, e.g. `mcts:2000`) for `edition`."""
    _load_bot_modules()
    text = spec.strip()
    name, _, arg = text.partition(":")
    name = name.strip().lower()
    factory = _FACTORIES.get(name)
    if factory is None:
        known = ", ".join(sorted(_FACTORIES)) or "none"
        raise UsageError(f"unknown bot '{spec}' (known bots: {known}; e.g. random, greedy, mcts:2000)")
    return factory(edition, arg.strip() if arg else None, **options)
