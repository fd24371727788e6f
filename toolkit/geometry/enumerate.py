"""Every free polyomino of a given size: the shapes a designer can draw new patches from.

A free polyomino is a shape up to rotation and reflection. Size n is built from size n-1 by
adding one edge-adjacent cell to each shape in every possible way and keeping one copy of each
free shape (its canonical key). The lists come out in a fixed order (sorted by canonical key), so
a seeded draw from them is the same on every machine. Counts for n = 1..8: 1, 1, 2, 5, 12, 35,
108, 369.
"""
from __future__ import annotations

from functools import lru_cache

from toolkit.errors import UsageError
from toolkit.geometry.shape import Cell, Shape

MAX_ENUMERATED_SIZE = 10
"""Largest size enumerated (4,655 free decominoes); larger patches do not fit a patch deck."""

_NEIGHBOURS: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _images(cells: frozenset[Cell]) -> list[tuple[Cell, ...]]:
    """The 8 rotations/reflections of a cell set, each normalised and sorted."""
    out = []
    for flip in (False, True):
        pts = [(r, -c) if flip else (r, c) for r, c in cells]
        for _ in range(4):
            pts = [(c, -r) for r, c in pts]
            top = min(r for r, _ in pts)
            left = min(c for _, c in pts)
            out.append(tuple(sorted((r - top, c - left) for r, c in pts)))
    return out


def _key(cells: frozenset[Cell]) -> tuple[Cell, ...]:
    """A canonical form of the free shape, fast to compute (not the text key of Shape)."""
    return min(_images(cells))


@lru_cache(maxsize=None)
def _free_cells(n: int) -> tuple[tuple[Cell, ...], ...]:
    if n == 1:
        return (((0, 0),),)
    found: dict[tuple[Cell, ...], None] = {}
    for smaller in _free_cells(n - 1):
        base = frozenset(smaller)
        for r, c in smaller:
            for dr, dc in _NEIGHBOURS:
                cell = (r + dr, c + dc)
                if cell not in base:
                    found.setdefault(_key(base | {cell}), None)
    return tuple(found)


def check_size(n: int) -> None:
    """Raise UsageError unless 1 <= n <= MAX_ENUMERATED_SIZE."""
    if not 1 <= n <= MAX_ENUMERATED_SIZE:
        raise UsageError(
            f"polyomino size {n} is out of range: sizes 1 to {MAX_ENUMERATED_SIZE} can be enumerated")


@lru_cache(maxsize=None)
def free_polyominoes(n: int) -> tuple[Shape, ...]:
    """Every free n-omino once, in its canonical orientation, sorted by canonical key."""
    check_size(n)
    shapes = [Shape(frozenset(cells)).canonical() for cells in _free_cells(n)]
    return tuple(sorted(shapes, key=lambda shape: shape.canonical_key))


def orientation_classes(n: int) -> dict[int, int]:
    """How many free n-ominoes have 1, 2, 4 or 8 distinct orientations (rotations and reflections)."""
    classes = {1: 0, 2: 0, 4: 0, 8: 0}
    for shape in free_polyominoes(n):
        classes[len(shape.orientations())] += 1
    return classes


def fixed_count(n: int) -> int:
    """Number of fixed n-ominoes: every orientation of every free one counted apart."""
    return sum(len(shape.orientations()) for shape in free_polyominoes(n))


def one_sided_count(n: int) -> int:
    """Number of one-sided n-ominoes: mirror images counted apart, rotations not."""
    return sum(2 if shape.is_chiral else 1 for shape in free_polyominoes(n))
