"""The outline of a set of cells: the cut line of a tile, the border of a patch in a drawing.

Cells are (row, col). Outlines are given in page coordinates: x runs along a row (x = col), y down
the page (y = row), scaled by the side of a cell and shifted by an origin, so a drawing turns them
into lines without doing the arithmetic again (the same arithmetic, so the same bytes).
"""
from __future__ import annotations

from collections.abc import Iterable

from toolkit.geometry.shape import Cell

Point = tuple[float, float]
Segment = tuple[float, float, float, float]
"""A straight piece of outline: (x0, y0, x1, y1)."""


def outline_segments(cells: Iterable[Cell], x: float = 0.0, y: float = 0.0,
                     cell: float = 1.0) -> list[Segment]:
    """Every side of a cell that borders no other cell of the set, one segment a side: cells in
    (row, col) order, each cell's sides top, bottom, left, right."""
    cells = set(cells)
    out: list[Segment] = []
    for r, c in sorted(cells):
        x0, y0 = x + c * cell, y + r * cell
        if (r - 1, c) not in cells:
            out.append((x0, y0, x0 + cell, y0))
        if (r + 1, c) not in cells:
            out.append((x0, y0 + cell, x0 + cell, y0 + cell))
        if (r, c - 1) not in cells:
            out.append((x0, y0, x0, y0 + cell))
        if (r, c + 1) not in cells:
            out.append((x0 + cell, y0, x0 + cell, y0 + cell))
    return out


def outline_loops(cells: Iterable[Cell], cell: float = 1.0) -> tuple[tuple[Point, ...], ...]:
    """The outline as closed loops of corners (straight runs merged), the cells on each loop's
    right: an outer boundary runs clockwise on the page, a hole's boundary the other way."""
    cells = set(cells)
    edges: dict[tuple[int, int], list[tuple[int, int]]] = {}

    def add(a, b):
        edges.setdefault(a, []).append(b)

    for r, c in sorted(cells):
        if (r - 1, c) not in cells:
            add((c, r), (c + 1, r))
        if (r, c + 1) not in cells:
            add((c + 1, r), (c + 1, r + 1))
        if (r + 1, c) not in cells:
            add((c + 1, r + 1), (c, r + 1))
        if (r, c - 1) not in cells:
            add((c, r + 1), (c, r))
    loops: list[tuple[Point, ...]] = []
    while edges:
        start = min(edges)
        loop = [start]
        here = start
        while True:
            nexts = edges[here]
            there = nexts.pop(0)
            if not nexts:
                del edges[here]
            if there == start:
                break
            loop.append(there)
            here = there
        corners = [p for i, p in enumerate(loop)
                   if (loop[i - 1][0] - p[0], loop[i - 1][1] - p[1]) !=
                   (p[0] - loop[(i + 1) % len(loop)][0], p[1] - loop[(i + 1) % len(loop)][1])]
        loops.append(tuple((px * cell, py * cell) for px, py in corners))
    return tuple(loops)
