"""The facts of one shape that `patchwork shape` and the studio's shape editor report: size,
orientations, chirality, holes, straight cuts and placements on a board."""
from __future__ import annotations

import re
from typing import Any

from toolkit.errors import ShapeError, UsageError
from toolkit.geometry.board import Board, placements
from toolkit.geometry.shape import Cut, Shape

_BOARD_TEXT = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


def parse_board(text: str) -> Board:
    """Read `WxH` (width x height), e.g. `9x9` or `7X7`."""
    match = _BOARD_TEXT.match(text)
    if not match:
        raise UsageError(f"--board {text!r}: expected WIDTHxHEIGHT, e.g. 9x9")
    width, height = int(match.group(1)), int(match.group(2))
    try:
        return Board(width, height)
    except ShapeError as error:
        raise UsageError(f"--board {text!r}: {error}") from None


def draw_cut(shape: Shape, cut: Cut) -> list[str]:
    """The parent grid with the first piece as `A`, the second as `B` and the cut line drawn."""
    first, _ = cut.piece_cells
    grid = [
        ["." if (r, c) not in shape.cells else ("A" if (r, c) in first else "B") for c in range(shape.width)]
        for r in range(shape.height)
    ]
    if cut.axis == "v":
        return ["".join(row[: cut.index]) + "|" + "".join(row[cut.index :]) for row in grid]
    lines = ["".join(row) for row in grid]
    return lines[: cut.index] + ["-" * shape.width] + lines[cut.index :]



def describe_shape(shape: Shape, board: Board, allow_flip: bool = True) -> dict[str, Any]:
    """The facts reported by `patchwork shape`, as a JSON-ready dict."""
    cuts = shape.straight_cuts()
    return {
        "shape": shape.format(),
        "size": shape.size,
        "width": shape.width,
        "height": shape.height,
        "canonical": shape.canonical_key,
        "orientations": len(shape.orientations(allow_flip=True)),
        "rotations": len(shape.orientations(allow_flip=False)),
        "chiral": shape.is_chiral,
        "connected": shape.is_connected,
        "holes": shape.holes,
        "hole_cells": [list(cell) for cell in sorted(shape.hole_cells)],
        "cuts": [[piece.format() for piece in cut.pieces] for cut in cuts],
        "cut_lines": [
            {"axis": cut.axis, "index": cut.index, "pieces": [piece.format() for piece in cut.pieces]}
            for cut in cuts
        ],
        "board": str(board),
        "allow_flip": allow_flip,
        "placements": len(placements(shape, board, allow_flip)),
    }
