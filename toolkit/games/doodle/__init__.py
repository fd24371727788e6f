"""Patchwork Doodle: the compiled rules kernel, the validated Game layer and its notation.

toolkit.families.doodle registers the family that plays every Doodle edition.
"""
from toolkit.games.doodle.game import DoodleEngine, DoodleGame, Sheet
from toolkit.games.doodle.notation import DoodleAction, parse_action

ENGINE = DoodleEngine()

__all__ = ["ENGINE", "DoodleAction", "DoodleEngine", "DoodleGame", "Sheet", "parse_action"]
