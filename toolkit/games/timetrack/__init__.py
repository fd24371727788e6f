"""The time-track rules family: classic, classic-revised, Christmas, anniversary (with Automa),
Express and their variants. The compiled rules live in `kernel`, the edition tables in `tables`,
the validated action-by-action game and its notation in `game`;
toolkit.families.timetrack registers the family that plays them."""
from toolkit.games.base import Engine
from toolkit.games.timetrack.game import TimeTrackEngine, TimeTrackGame, parse_action

ENGINE: Engine = TimeTrackEngine()
"""The family's engine; declared as the protocol so the type checker holds its games to
toolkit.games.base.Game."""

__all__ = ["ENGINE", "TimeTrackEngine", "TimeTrackGame", "parse_action"]
