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
from toolkit.bots import registry
from toolkit.specs.models import Edition, Family

BotFactory = Callable[..., "Bot"]
"""factory(edition, arg: str | None, **options) -> Bot."""


class Bot(Protocol):
    """A player that picks actions."""

    name: str
    """The spec it was built from, e.g. `mcts:2000`."""

    def choose(self, game: Any, rng: np.ndarray) -> Any:
        """One legal action of `game` for `game.current_player`, drawn with `rng` only."""
        ...


_FACTORIES: dict[tuple[Family, str], BotFactory] = {}

BOT_PROVIDERS: dict[tuple[Family, str], tuple[str, ...]] = {
    (Family.TIME_TRACK, "random"): ("toolkit.bots.random",),
    (Family.DOODLE, "random"): ("toolkit.bots.random",),
    (Family.TIME_TRACK, "automa"): ("toolkit.bots.automa",),
    (Family.TIME_TRACK, "greedy"): ("toolkit.bots.greedy",),
    (Family.DOODLE, "greedy"): ("toolkit.bots.doodle.greedy",),
    (Family.TIME_TRACK, "mcts"): ("toolkit.bots.mcts",),
    (Family.DOODLE, "expert"): ("toolkit.bots.doodle.expert",),
}
"""(family, bot name) -> the modules that register its Python bot, imported when it is first asked
for. Only the modules of the bots a command uses are imported: a broken module cannot break the
others. Which names exist, and their arguments, is toolkit.bots.registry's."""

BOT_MODULES: list[str] = []
"""Further bot modules, imported (all of them) only for a name BOT_PROVIDERS does not list."""

_failed: dict[str, str] = {}
"""Module -> why its import failed, reported when one of its bots is asked for."""

def register_bot(name: str, factory: BotFactory, families: tuple[Family, ...] = (Family.TIME_TRACK,)) -> BotFactory:
    """Make `make_bot(name...)` build bots with `factory` for the editions of these families."""
    for family in families:
        _FACTORIES[(family, name)] = factory
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


def _load_bots_named(name: str, family: Family) -> None:
    """Import the modules that register `name`; UsageError naming the module when one fails."""
    modules = BOT_PROVIDERS.get((family, name))
    if modules is None:
        _load_bot_modules()
        return
    for module in modules:
        if not _import(module):
            raise UsageError(
                f"bot '{name}' cannot be loaded: module {module} failed to import ({_failed[module]})"
            )


def _load_bot_modules() -> None:
    """Import every known bot module, skipping (and remembering) those that fail to import."""
    for modules in BOT_PROVIDERS.values():
        for module in modules:
            _import(module)
    for module in BOT_MODULES:
        _import(module)


def bot_names(family: Family | None = None) -> list[str]:
    """Names of the bots that can be built, sorted (a bot whose module fails to import is left out)."""
    _load_bot_modules()
    return sorted({name for fam, name in _FACTORIES if family is None or fam == family})


def make_bot(spec: str, edition: Edition, **options: Any) -> Bot:
    """The bot named by `spec` (`NAME` or `NAME:ARG`, e.g. `mcts:2000`) for `edition`."""
    text = spec.strip()
    name, _, arg = text.partition(":")
    name = name.strip().lower()
    registry.entry(name, edition.family, text)  # a clear error for names the family does not have
    _load_bots_named(name, edition.family)
    factory = _FACTORIES.get((edition.family, name))
    if factory is None:
        raise UsageError(f"bot '{spec}' has no player for the {edition.family.value} editions in this build")
    return factory(edition, arg.strip() if arg else None, **options)
