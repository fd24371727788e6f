"""The bank of the time-track games: the button tiles each published box holds (the rulebooks'
component lists), which a printed kit reproduces.

The rules never count tiles (a player's buttons are a number), so this is component data of the
box, not a rule. A box is known by its time board: the board an edition is played on decides
which tiles its kit prints, so a variant of Express gets Express's buttons, and a board of a new
design gets the classic box's. Until the time board's spec carries its box's tiles, this table
is where they are written; nothing else in the toolkit names a board to choose them.
"""
from __future__ import annotations

from toolkit.specs.models import TimeTrack

ButtonTiles = tuple[tuple[int, int], ...]
"""(value, count) of each kind of button tile, smallest value first."""

CLASSIC_BUTTON_TILES: ButtonTiles = ((1, 32), (5, 12), (10, 5), (20, 1))
"""Classic Patchwork (and its Christmas and anniversary editions): 162 buttons in all."""
EXPRESS_BUTTON_TILES: ButtonTiles = ((1, 12), (2, 9), (5, 8))
"""Patchwork Express: 70 buttons in all."""

BOX_OF_BOARD: dict[str, ButtonTiles] = {"express": EXPRESS_BUTTON_TILES}
"""Time board id -> the tiles of the box it is printed in; any other board: CLASSIC_BUTTON_TILES."""


def button_tiles(track: TimeTrack) -> ButtonTiles:
    """The button tiles of the box whose time board is `track`."""
    return BOX_OF_BOARD.get(track.id, CLASSIC_BUTTON_TILES)
