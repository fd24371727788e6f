"""Polyominoes as values: the patch shapes of every edition.

A Shape is one fixed orientation of a set of cloth cells, always normalised so that its top row
and left column are 0. This module owns the shape text notation (rows of `#` and `.`), the eight
rotations/reflections, distinct orientations, the canonical key of the free shape, chirality,
4-connectivity, holes, and the straight cuts of the Doodle CUT special action.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
import operator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from toolkit.errors import ShapeError

Cell = tuple[int, int]
"""(row, col) of one cell; row 0 is the top, col 0 the left."""

CLOTH = "#"
"""A cell covered by the patch."""
EMPTY = "."
"""A cell of the bounding box that the patch does not cover."""
ROW_SEPARATOR = "/"
"""Joins rows in the one-line form, e.g. `##./.##`."""
MAX_SIDE = 64
"""Largest bounding-box side a shape may have; far beyond any board the toolkit plays on."""

_NEIGHBOURS: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _normalise(cells: Iterable[Cell]) -> frozenset[Cell]:
    cells = frozenset(cells)
    if not cells:
        return cells
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def _as_cell(cell: Any) -> Cell:
    """A (row, col) pair of plain ints from any pair of integers (numpy ints, lists, ...)."""
    try:
        row, col = cell
        if isinstance(row, bool) or isinstance(col, bool):
            raise TypeError
        return (operator.index(row), operator.index(col))
    except (TypeError, ValueError):
        raise ShapeError(f"a shape cell must be a (row, col) pair of integers, got {cell!r}") from None


def _components(cells: frozenset[Cell]) -> list[frozenset[Cell]]:
    """The 4-connected components of a cell set, in order of their smallest cell."""
    remaining = set(cells)
    parts: list[frozenset[Cell]] = []
    for start in sorted(cells):
        if start not in remaining:
            continue
        remaining.discard(start)
        stack = [start]
        part = {start}
        while stack:
            r, c = stack.pop()
            for dr, dc in _NEIGHBOURS:
                nxt = (r + dr, c + dc)
                if nxt in remaining:
                    remaining.discard(nxt)
                    part.add(nxt)
                    stack.append(nxt)
        parts.append(frozenset(part))
    return parts


@dataclass(frozen=True, eq=True)
class Shape:
    """One fixed orientation of a polyomino; equal shapes have the same normalised cells."""

    cells: frozenset[Cell]
    """The cloth cells, normalised: the minimum row and the minimum column are 0."""

    def __post_init__(self) -> None:
        cells = self.cells
        if not isinstance(cells, frozenset) or not all(type(cell) is tuple for cell in cells):
            cells = frozenset(_as_cell(cell) for cell in cells)
        elif not all(
            len(cell) == 2 and type(cell[0]) is int and type(cell[1]) is int for cell in cells
        ):
            cells = frozenset(_as_cell(cell) for cell in cells)
        if not cells:
            raise ShapeError("a shape needs at least one cloth cell")
        cells = _normalise(cells)
        height = 1 + max(r for r, _ in cells)
        width = 1 + max(c for _, c in cells)
        if height > MAX_SIDE or width > MAX_SIDE:
            raise ShapeError(
                f"shape is {width}x{height} cells; at most {MAX_SIDE}x{MAX_SIDE} is supported"
            )
        object.__setattr__(self, "cells", cells)

    # ----- construction and notation -------------------------------------------------------

    @classmethod
    def from_cells(cls, cells: Iterable[Cell]) -> Shape:
        """The shape covering these cells, moved to the top-left corner."""
        return cls(frozenset(_as_cell(cell) for cell in cells))

    @classmethod
    def parse(cls, text: str | Sequence[str]) -> Shape:
        """Read rows of `#` (cloth) and `.` (empty) joined by `/` or newlines, or a list of rows.

        Surrounding whitespace of the whole text and of each row is ignored, so indented YAML
        block text works. Empty leading/trailing rows and columns of `.` are allowed and removed.
        """
        if isinstance(text, str):
            stripped = text.strip()
            if not stripped:
                raise ShapeError("empty shape text: expected rows of '#' and '.' joined by '/'")
            rows = [row.strip() for row in stripped.replace("\r\n", "\n").replace("\n", "/").split("/")]
            shown = stripped.replace("\n", "/")
        elif isinstance(text, Sequence) and all(isinstance(row, str) for row in text):
            rows = [row.strip() for row in text]
            shown = "/".join(rows)
            if not rows:
                raise ShapeError("empty shape: expected at least one row of '#' and '.'")
        else:
            raise ShapeError(
                f"a shape must be text or a list of row strings, got {type(text).__name__}"
            )
        if len(shown) > 60:
            shown = shown[:57] + "..."
        if len(rows) > MAX_SIDE:
            raise ShapeError(f"shape '{shown}' has {len(rows)} rows; at most {MAX_SIDE} are supported")
        cells = []
        for r, row in enumerate(rows):
            if not row:
                raise ShapeError(f"shape '{shown}': row {r + 1} is empty")
            for c, char in enumerate(row):
                if char == CLOTH:
                    cells.append((r, c))
                elif char != EMPTY:
                    raise ShapeError(
                        f"shape '{shown}': unexpected character {char!r} at row {r + 1}, column {c + 1}"
                        f" (only '{CLOTH}' for cloth and '{EMPTY}' for empty are allowed)"
                    )
        lengths = {len(row) for row in rows}
        if len(lengths) > 1:
            first = len(rows[0])
            bad = next(i for i, row in enumerate(rows) if len(row) != first)
            raise ShapeError(
                f"shape '{shown}': rows have different lengths (row 1 has {first} cells,"
                f" row {bad + 1} has {len(rows[bad])})"
            )
        if max(lengths) > MAX_SIDE:
            raise ShapeError(f"shape '{shown}' is {max(lengths)} cells wide; at most {MAX_SIDE} are supported")
        if not cells:
            raise ShapeError(f"shape '{shown}' has no cloth cell ('{CLOTH}')")
        return cls(frozenset(cells))

    def rows(self) -> tuple[str, ...]:
        """The shape as text rows, top to bottom."""
        return self._rows

    @cached_property
    def _rows(self) -> tuple[str, ...]:
        return tuple(
            "".join(CLOTH if (r, c) in self.cells else EMPTY for c in range(self.width))
            for r in range(self.height)
        )

    def format(self, sep: str = ROW_SEPARATOR) -> str:
        """The rows joined by `sep`; `Shape.parse(shape.format()) == shape`."""
        return sep.join(self._rows)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Shape.parse({self.format()!r})"

    # ----- measures ---------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of cloth cells."""
        return len(self.cells)

    @cached_property
    def height(self) -> int:
        """Rows of the bounding box."""
        return 1 + max(r for r, _ in self.cells)

    @cached_property
    def width(self) -> int:
        """Columns of the bounding box."""
        return 1 + max(c for _, c in self.cells)

    # ----- transforms -------------------------------------------------------------------------

    def rotate(self) -> Shape:
        """This shape turned 90 degrees clockwise."""
        h = self.height
        return Shape(frozenset((c, h - 1 - r) for r, c in self.cells))

    def mirror(self) -> Shape:
        """This shape reflected left-right."""
        w = self.width
        return Shape(frozenset((r, w - 1 - c) for r, c in self.cells))

    def transforms(self) -> tuple[Shape, ...]:
        """The 8 images, in this fixed order: identity, rotated 90, 180, 270 degrees clockwise,
        then the left-right mirror image and it rotated 90, 180, 270 degrees clockwise."""
        return self._transforms

    @cached_property
    def _transforms(self) -> tuple[Shape, ...]:
        images = [self]
        for _ in range(3):
            images.append(images[-1].rotate())
        images.append(self.mirror())
        for _ in range(3):
            images.append(images[-1].rotate())
        return tuple(images)

    def orientations(self, allow_flip: bool = True) -> tuple[Shape, ...]:
        """Distinct fixed orientations, in order of first occurrence in transforms().

        With allow_flip=False only the four rotations are considered.
        """
        return self._orientations_flip if allow_flip else self._orientations_rotate

    @staticmethod
    def _distinct(images: Iterable[Shape]) -> tuple[Shape, ...]:
        seen: dict[Shape, None] = {}
        for image in images:
            seen.setdefault(image, None)
        return tuple(seen)

    @cached_property
    def _orientations_flip(self) -> tuple[Shape, ...]:
        return self._distinct(self._transforms)

    @cached_property
    def _orientations_rotate(self) -> tuple[Shape, ...]:
        return self._distinct(self._transforms[:4])

    @cached_property
    def canonical_key(self) -> str:
        """Text of the free shape: the smallest formatted text over the 8 transforms.

        Equal for every rotation and reflection of the same polyomino, different otherwise.
        """
        return min(image.format() for image in self._transforms)

    def canonical(self) -> Shape:
        """The orientation whose text is the canonical key."""
        return Shape.parse(self.canonical_key)

    @cached_property
    def is_chiral(self) -> bool:
        """True when the mirror image cannot be obtained by rotating the shape."""
        return self.mirror() not in self._transforms[:4]

    @property
    def symmetry(self) -> int:
        """Order of the shape's symmetry group (1, 2, 4 or 8): 8 / number of orientations."""
        return 8 // len(self._orientations_flip)

    # ----- topology ---------------------------------------------------------------------------

    @cached_property
    def is_connected(self) -> bool:
        """True when every cloth cell reaches every other through edge-adjacent cloth cells."""
        return len(_components(self.cells)) == 1

    @cached_property
    def components(self) -> tuple[Shape, ...]:
        """The 4-connected pieces of the cloth, in order of their top-left-most cell."""
        return tuple(Shape(part) for part in _components(self.cells))

    @cached_property
    def hole_cells(self) -> frozenset[Cell]:
        """Empty cells of the bounding box that cannot reach its border through empty cells."""
        empty = frozenset(
            (r, c)
            for r in range(self.height)
            for c in range(self.width)
            if (r, c) not in self.cells
        )
        enclosed: set[Cell] = set()
        for region in _components(empty):
            if not any(
                r == 0 or c == 0 or r == self.height - 1 or c == self.width - 1 for r, c in region
            ):
                enclosed |= region
        return frozenset(enclosed)

    @cached_property
    def holes(self) -> int:
        """Number of separate enclosed empty regions (4-connected)."""
        return len(_components(self.hole_cells))

    # ----- Doodle CUT -------------------------------------------------------------------------

    def straight_cuts(self) -> tuple[Cut, ...]:
        """Every valid single straight cut of this patch (the Doodle CUT special action).

        A cut runs along one full grid line across the patch: between two adjacent rows
        (axis "h") or two adjacent columns (axis "v"). It is valid only when it leaves exactly
        two pieces and each piece is 4-connected; a line that would leave three or more pieces
        is not a cut, and two lines are never combined. A disconnected shape has no cuts, since
        it is not one patch to begin with. Order: horizontal lines top to bottom, then vertical
        lines left to right.
        """
        return self._cuts

    @cached_property
    def _cuts(self) -> tuple[Cut, ...]:
        if not self.is_connected:
            return ()
        cuts: list[Cut] = []
        for axis, lines in (("h", range(1, self.height)), ("v", range(1, self.width))):
            for index in lines:
                axis_of = (lambda cell: cell[0]) if axis == "h" else (lambda cell: cell[1])
                first = frozenset(cell for cell in self.cells if axis_of(cell) < index)
                second = self.cells - first
                if len(_components(first)) == 1 and len(_components(second)) == 1:
                    cuts.append(
                        Cut(
                            axis=axis,
                            index=index,
                            pieces=(Shape(first), Shape(second)),
                            piece_cells=(first, second),
                        )
                    )
        return tuple(cuts)


@dataclass(frozen=True)
class Cut:
    """One straight cut of a patch into exactly two connected pieces."""

    axis: str
    """`h`: a horizontal line between rows; `v`: a vertical line between columns."""
    index: int
    """The line lies between row (or column) index-1 and index of the parent."""
    pieces: tuple[Shape, Shape]
    """The two pieces, normalised; the top (axis h) or left (axis v) piece first."""
    piece_cells: tuple[frozenset[Cell], frozenset[Cell]] = field(repr=False)
    """The same pieces in the parent's coordinates, for drawing."""

    def describe(self) -> str:
        """Where the line runs, in words, e.g. `between rows 1 and 2` (1-based)."""
        kind = "rows" if self.axis == "h" else "columns"
        return f"between {kind} {self.index} and {self.index + 1}"
