"""Patchwork Doodle: the compiled rules kernel, the validated Game layer and its notation.

Importing this package registers the Doodle engine for every edition of the Doodle family.
"""
from toolkit.games.base import register_engine
from toolkit.games.doodle.game import DoodleEngine, DoodleGame, Sheet
from toolkit.games.doodle.notation import DoodleAction, parse_action

ENGINE = register_engine(DoodleEngine())

__all__ = ["ENGINE", "DoodleAction", "DoodleEngine", "DoodleGame", "Sheet", "parse_action"]
