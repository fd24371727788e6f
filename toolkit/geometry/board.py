"""Quilt boards as bitmasks: placements of shapes, legality by bit operations, region queries.

A board of width W and height H numbers its cells row by row; cell (row, col) is bit
`row * W + col` of a `Mask` (a Python int). Engines keep the covered cells of a quilt in one Mask
and test a placement with `placement.mask & occupied == 0`. The compiled kernels use the same
masks split into 64-bit words (`placement_array`, `mask_words`).

This module also answers the region questions of the scoring rules: is some k x k square fully
covered (the classic 7x7 bonus), and which fully covered rectangle scores best in Doodle.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy loads where masks become arrays, not with the geometry (the command line reads specs without it)
    import numpy as np

from toolkit.errors import ShapeError
from toolkit.geometry.shape import Cell, Shape

Mask = int
"""Set of board cells; bit `row * width + col` is cell (row, col)."""

MAX_BOARD_SIDE = 32
"""Largest supported board width or height (a 32x32 board is 16 words of 64 bits)."""

WORD_BITS = 64
"""Bits per word in the arrays handed to the compiled kernels."""


@dataclass(frozen=True)
class Board:
    """A rectangular quilt board of width x height cells."""

    width: int
    """Columns."""
    height: int
    """Rows."""

    def __post_init__(self) -> None:
        for name, value in (("width", self.width), ("height", self.height)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ShapeError(f"board {name} must be a whole number, got {value!r}")
            if not 1 <= value <= MAX_BOARD_SIDE:
                raise ShapeError(
                    f"board {name} {value} is out of range: boards from 1x1 up to"
                    f" {MAX_BOARD_SIDE}x{MAX_BOARD_SIDE} are supported"
                )

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def cells(self) -> int:
        """Number of cells."""
        return self.width * self.height

    @property
    def words(self) -> int:
        """64-bit words needed for one mask of this board."""
        return (self.cells + WORD_BITS - 1) // WORD_BITS

    @property
    def full_mask(self) -> Mask:
        """Every cell covered."""
        return (1 << self.cells) - 1

    @property
    def row_mask(self) -> Mask:
        """The cells of row 0; shift by `row * width` for another row."""
        return (1 << self.width) - 1

    def contains(self, row: int, col: int) -> bool:
        """True when (row, col) lies on the board."""
        return 0 <= row < self.height and 0 <= col < self.width

    def bit(self, row: int, col: int) -> Mask:
        """The mask of the single cell (row, col)."""
        if not self.contains(row, col):
            raise ShapeError(f"cell (row {row}, col {col}) is outside the {self} board")
        return 1 << (row * self.width + col)

    def mask_of(self, cells: Iterable[Cell]) -> Mask:
        """The mask of these cells (each must lie on the board)."""
        mask = 0
        for row, col in cells:
            mask |= self.bit(row, col)
        return mask

    def cells_of(self, mask: Mask) -> list[Cell]:
        """The cells of a mask, in row-major order."""
        cells = []
        mask &= self.full_mask
        while mask:
            low = mask & -mask
            index = low.bit_length() - 1
            cells.append(divmod(index, self.width))
            mask ^= low
        return cells

    def empty_cells(self, occupied: Mask) -> int:
        """Number of cells of the board not covered by `occupied`."""
        return self.cells - (occupied & self.full_mask).bit_count()

    def row_bits(self, occupied: Mask, row: int) -> int:
        """The covered cells of one row as a `width`-bit number (bit c = column c)."""
        return (occupied >> (row * self.width)) & self.row_mask

    def text(self, mask: Mask, fill: str = "#", empty: str = ".") -> str:
        """The board as rows of text, `fill` for cells of the mask, rows joined by newlines."""
        return "\n".join(
            "".join(fill if (self.row_bits(mask, r) >> c) & 1 else empty for c in range(self.width))
            for r in range(self.height)
        )


@dataclass(frozen=True)
class Placement:
    """One way to lay a shape on a board."""

    orientation: int
    """Index into `shape.orientations(allow_flip)`."""
    row: int
    """Top row of the orientation's bounding box."""
    col: int
    """Left column of the orientation's bounding box."""
    mask: Mask
    """The board cells the patch covers."""


@lru_cache(maxsize=4096)
def placements(shape: Shape, board: Board, allow_flip: bool = True) -> tuple[Placement, ...]:
    """Every orientation at every position fully inside the board, ordered (orientation, row, col).

    Empty when the shape fits nowhere (e.g. larger than the board).
    """
    result = []
    for index, image in enumerate(shape.orientations(allow_flip)):
        if image.height > board.height or image.width > board.width:
            continue
        # Shifting the top-left mask never wraps a row because the image fits the width.
        base = board.mask_of(image.cells)
        for row in range(board.height - image.height + 1):
            for col in range(board.width - image.width + 1):
                result.append(Placement(index, row, col, base << (row * board.width + col)))
    return tuple(result)


def mask_words(mask: Mask, board: Board) -> np.ndarray:
    """A mask as `board.words` little-endian uint64 words (word 0 holds cells 0..63)."""
    import numpy as np

    if mask < 0 or mask >> board.cells:
        raise ShapeError(f"mask has cells outside the {board} board")
    return np.array(
        [(mask >> (WORD_BITS * i)) & 0xFFFF_FFFF_FFFF_FFFF for i in range(board.words)],
        dtype=np.uint64,
    )


def words_to_mask(words: Iterable[int] | np.ndarray) -> Mask:
    """The inverse of mask_words."""
    import numpy as np

    mask = 0
    for i, word in enumerate(np.asarray(words, dtype=np.uint64).ravel().tolist()):
        mask |= int(word) << (WORD_BITS * i)
    return mask


@lru_cache(maxsize=4096)
def placement_array(shape: Shape, board: Board, allow_flip: bool = True) -> np.ndarray:
    """The masks of placements() as a read-only uint64 array of shape (n, board.words)."""
    import numpy as np

    rows = placements(shape, board, allow_flip)
    array = np.zeros((len(rows), board.words), dtype=np.uint64)
    for i, placement in enumerate(rows):
        array[i] = mask_words(placement.mask, board)
    array.setflags(write=False)
    return array


def legal_placements(
    shape: Shape, board: Board, occupied: Mask, allow_flip: bool = True
) -> list[Placement]:
    """The placements that cover no cell of `occupied`."""
    return [p for p in placements(shape, board, allow_flip) if not p.mask & occupied]


def _run_of(bits: int, length: int) -> int:
    """Bits b such that bits b .. b+length-1 are all set."""
    run = bits
    for shift in range(1, length):
        run &= bits >> shift
        if not run:
            break
    return run


def has_filled_square(occupied: Mask, board: Board, k: int) -> bool:
    """True when some k x k square of the board is fully covered."""
    if k < 1:
        raise ShapeError(f"square size must be at least 1, got {k}")
    if k > board.width or k > board.height:
        return False
    rows = [board.row_bits(occupied, r) for r in range(board.height)]
    for top in range(board.height - k + 1):
        common = rows[top]
        for r in range(top + 1, top + k):
            common &= rows[r]
            if not common:
                break
        if common and _run_of(common, k):
            return True
    return False


def rectangle_score(a: int, b: int) -> int:
    """Doodle score of a fully covered a x b rectangle: its largest square b*b plus 1 per extra
    row or column (a - b), where a >= b (the arguments are swapped if needed)."""
    if a < b:
        a, b = b, a
    if b < 1:
        raise ShapeError(f"a rectangle needs positive sides, got {a}x{b}")
    return b * b + (a - b)


@dataclass(frozen=True, order=True)
class Rect:
    """A rectangle of board cells."""

    row: int
    """Top row."""
    col: int
    """Left column."""
    height: int
    """Rows covered."""
    width: int
    """Columns covered."""

    @property
    def score(self) -> int:
        """Doodle score: b*b + (a - b) with a >= b the sides."""
        return rectangle_score(self.height, self.width)

    @property
    def area(self) -> int:
        return self.height * self.width

    def mask(self, board: Board) -> Mask:
        """The cells of the rectangle on `board`."""
        if (
            self.height < 1
            or self.width < 1
            or self.row < 0
            or self.col < 0
            or self.row + self.height > board.height
            or self.col + self.width > board.width
        ):
            raise ShapeError(f"rectangle {self} does not lie on the {board} board")
        line = ((1 << self.width) - 1) << self.col
        mask = 0
        for r in range(self.row, self.row + self.height):
            mask |= line << (r * board.width)
        return mask

    def __str__(self) -> str:
        return f"{self.width}x{self.height} at row {self.row}, col {self.col}"


def is_filled_rectangle(occupied: Mask, board: Board, rect: Rect) -> bool:
    """True when every cell of `rect` is covered."""
    mask = rect.mask(board)
    return occupied & mask == mask


def best_rectangle(occupied: Mask, board: Board) -> Rect | None:
    """The fully covered rectangle with the highest Doodle score, or None on an empty board.

    Ties: the larger area wins, then the topmost, then the leftmost, then the taller.

    The score grows with either side, so the best rectangle cannot be extended; the sweep
    visits every band of rows top..bottom and, within it, only the widest run of columns
    covered in all of them (the leftmost of equally wide runs), which is the band's best.
    """
    rows = [board.row_bits(occupied, r) for r in range(board.height)]
    best_rank: tuple[int, int, int, int, int, int] | None = None
    for top in range(board.height):
        if best_rank is not None and -best_rank[0] > rectangle_score(board.height - top, board.width):
            break  # no rectangle starting this low can reach the best score any more
        common = board.row_mask
        for bottom in range(top, board.height):
            common &= rows[bottom]
            if not common:
                break
            height = bottom - top + 1
            width = start = 0
            runs = common
            while runs:
                low = runs & -runs
                run = runs & ~(runs + low)
                run_start = low.bit_length() - 1
                run_width = run.bit_length() - run_start
                if run_width > width:
                    width, start = run_width, run_start
                runs ^= run
            a, b = (height, width) if height >= width else (width, height)
            rank = (-(b * b + a - b), -height * width, top, start, -height, -width)
            if best_rank is None or rank < best_rank:
                best_rank = rank
    if best_rank is None:
        return None
    _, _, row, col, height, width = best_rank
    return Rect(row, col, -height, -width)
