"""The bot protocol and the registry that builds bots from names like `random`, `mcts:2000`.

A bot chooses one action for the player to move in a validated Game (toolkit.games.base.Game).
It takes all its randomness from the `toolkit.games.rng` state it is given, so a seeded run is
reproducible. Bot modules register a factory under a name with `register_bot`; `make_bot` parses
`NAME[:ARG]`, imports the module(s) of that name only (BOT_PROVIDERS), and calls the factory with
the edition, the text after the colon (or None) and any options (e.g. `level=3, deck="tactical"`
for Automa).

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

BOT_PROVIDERS: dict[str, tuple[str, ...]] = {
    "random": ("toolkit.bots.random",),
    "automa": ("toolkit.bots.automa",),
    "greedy": ("toolkit.bots.greedy", "toolkit.bots.doodle.greedy"),
    "mcts": ("toolkit.bots.mcts",),
    "expert": ("toolkit.bots.doodle.expert",),
}
"""Bot name -> the modules that register it, imported in this order when the name is first asked
for (the Doodle `greedy` wraps the time-track one, so that comes first). Only the modules of the
bots a command uses are imported: a broken module cannot break the others."""

BOT_MODULES: list[str] = []
"""Further bot modules, imported (all of them) only for a name BOT_PROVIDERS does not list."""

_failed: dict[str, str] = {}
"""Module -> why its import failed, reported when one of its bots is asked for."""

_in_order = False
"""True while the modules of one name are imported in BOT_PROVIDERS order: a module that asks
for the others to be loaded first (to wrap an earlier factory) is then already served."""


def register_bot(name: str, factory: BotFactory) -> BotFactory:
    """Make `make_bot(name...)` build bots with `factory`."""
    _FACTORIES[name] = factory
    return factory


def _import(module: str) -> bool:
    """Import a bot module once; False (and the reason kept) when its import fails."""
    if module in _failed:
        return False
    try:
        importlib.import_module(module)
    except Exception as error:  # any failure: the bot is unusable, the rest must still work
        _failed[module] = f"{type(error).__name__}: {error}"
        return False
    return True


def _load_bots_named(name: str) -> None:
    """Import the modules that register `name`; UsageError naming the module when one fails."""
    modules = BOT_PROVIDERS.get(name)
    if modules is None:
        _load_bot_modules()
        return
    global _in_order
    _in_order = True
    try:
        for module in modules:
            if not _import(module):
                raise UsageError(
                    f"bot '{name}' cannot be loaded: module {module} failed to import ({_failed[module]})"
                )
    finally:
        _in_order = False


def _load_bot_modules() -> None:
    """Import every known bot module, skipping (and remembering) those that fail to import."""
    if _in_order:
        return
    for modules in BOT_PROVIDERS.values():
        for module in modules:
            _import(module)
    for module in BOT_MODULES:
        _import(module)


def bot_names() -> list[str]:
    """Names of the bots that can be built, sorted (a bot whose module fails to import is left out)."""
    _load_bot_modules()
    return sorted(_FACTORIES)


def make_bot(spec: str, edition: Edition, **options: Any) -> Bot:
    """The bot named by `spec` (`NAME` or `NAME:ARG`, e.g. `mcts:2000`) for `edition`."""
    text = spec.strip()
    name, _, arg = text.partition(":")
    name = name.strip().lower()
    _load_bots_named(name)
    factory = _FACTORIES.get(name)
    if factory is None:
        known = ", ".join(sorted(set(_FACTORIES) | set(BOT_PROVIDERS))) or "none"
        raise UsageError(f"unknown bot '{spec}' (known bots: {known}; e.g. random, greedy, mcts:2000)")
    return factory(edition, arg.strip() if arg else None, **options)
