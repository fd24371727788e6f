"""Polyomino geometry: patch shapes (toolkit.geometry.shape) and quilt boards (toolkit.geometry.board);
also every free polyomino of a size (enumerate), exact cover of a board by pieces (cover) and the
outline of a set of cells (outline).

Pure functions and frozen values; imports nothing above toolkit.errors.
"""
from toolkit.geometry.board import (
    MAX_BOARD_SIDE,
    Board,
    Mask,
    Placement,
    Rect,
    best_rectangle,
    has_filled_square,
    is_filled_rectangle,
    legal_placements,
    mask_words,
    placement_array,
    placements,
    rectangle_score,
    words_to_mask,
)
from toolkit.geometry.shape import Cell, Cut, Shape

__all__ = [
    "MAX_BOARD_SIDE",
    "Board",
    "Cell",
    "Cut",
    "Mask",
    "Placement",
    "Rect",
    "Shape",
    "best_rectangle",
    "has_filled_square",
    "is_filled_rectangle",
    "legal_placements",
    "mask_words",
    "placement_array",
    "placements",
    "rectangle_score",
    "words_to_mask",
]
