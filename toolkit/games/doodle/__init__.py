"""Patchwork Doodle: the compiled rules kernel, the validated Game layer and its notation.

toolkit.families.doodle registers the family that plays every Doodle edition.
"""
from toolkit.games.base import Engine
from toolkit.games.doodle.game import DoodleEngine, DoodleGame, Sheet
from toolkit.games.doodle.notation import DoodleAction, parse_action

ENGINE: Engine = DoodleEngine()
"""The family's engine; declared as the protocol so the type checker holds its games to
toolkit.games.base.Game."""

__all__ = ["ENGINE", "DoodleAction", "DoodleEngine", "DoodleGame", "Sheet", "parse_action"]
