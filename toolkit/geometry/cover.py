"""Exact cover of a board by polyomino pieces: exact fills, solution counts, the largest coverable
area and how many board cells each piece can reach (`patchwork deck pack` asks it about a deck).

Filling a board with a subset of patches is an exact cover problem (Knuth's Algorithm X): every
board cell must be covered exactly once, every patch may be used at most once. The search here
is Algorithm X on bit masks with a fixed column choice, which for tiling problems is what makes
it fast: the column is always the first uncovered cell in scan order, and the rows that can
cover it are precomputed as the placements whose own first cell is that cell. Cells are scanned
along the board's shorter side, which keeps the frontier narrow and prunes early.

Counting uses the board's symmetry group G (4 elements for a rectangle, 8 for a square) twice:
- Total solutions: when every patch is needed, one patch S is restricted to one placement per
  G-orbit; then total = sum over those placements p of |G p| * N(p), where N(p) counts the
  solutions with S at p. This is exact (every symmetry maps the solutions with S at p one-to-one
  onto those with S at g p) and about |G| times faster.
- Solutions up to symmetry, by Burnside's lemma: (total + sum over g != id of Fix(g)) / |G|.
  Patches are distinct objects, so a solution fixed by g has every patch on a g-invariant
  placement; Fix(g) is a tiny search over those placements only.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from toolkit.errors import UsageError
from toolkit.geometry.shape import Cell, Shape

Mask = int
"""Board cells as bits, in the packer's scan order (not the engine's row-major order)."""

DEFAULT_MAX_NODES = 60_000_000
"""Search steps before `fill`, `largest_area` and `count` give up and say what they found so far (about
6 to 10 million steps a CPU-second, so the default is seconds of work). A step is
a node of the search or one placement tried there (a node of a deck of hundreds of patches tries
thousands), so the budget bounds the work, and the time, whatever the deck."""


@dataclass(frozen=True)
class Piece:
    """One patch to pack."""

    id: str
    shape: Shape


@dataclass(frozen=True)
class Placed:
    """One patch laid on the board in a solution."""

    id: str
    cells: frozenset[Cell]
    """Board cells (row, col) it covers."""


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a bounded search."""

    solution: tuple[Placed, ...] | None
    complete: bool
    """False when the node budget ran out before the search could decide."""
    nodes: int
    area: int = 0
    """Cells covered by `solution`."""


@dataclass(frozen=True)
class CountResult:
    """Solution counts of an exact fill."""

    total: int
    """Every solution; patches are distinct, rotated or reflected boards count apart."""
    up_to_symmetry: int | None
    """Solutions up to the board's rotations and reflections (Burnside); None if not computed."""
    symmetries: int
    """Order of the board's symmetry group."""
    fixed: dict[str, int]
    """Solutions fixed by each non-identity board symmetry."""
    limited: bool
    """True when counting stopped early, at the limit or the budget (the total is then a lower bound)."""
    seconds: float
    out_of_budget: bool = False
    """True when the search steps ran out: the total (limited) or the count up to symmetry is unknown."""
    nodes: int = 0
    """Search steps taken."""


class _Stop(Exception):
    pass


class _OutOfBudget(Exception):
    """The search took more steps than its budget allowed."""

    def __init__(self, steps: int):
        super().__init__(steps)
        self.steps = steps


def _deep_enough(levels: int) -> None:
    """Let the recursive search go one level per board cell plus one per patch."""
    if sys.getrecursionlimit() < levels + 200:
        sys.setrecursionlimit(levels + 200)


def board_symmetries(width: int, height: int) -> list[tuple[str, Callable[[int, int], Cell]]]:
    """The board's symmetries as (name, map of (row, col)), the identity first."""
    w, h = width, height
    out: list[tuple[str, Callable[[int, int], Cell]]] = [
        ("identity", lambda r, c: (r, c)),
        ("rotate 180", lambda r, c: (h - 1 - r, w - 1 - c)),
        ("mirror left-right", lambda r, c: (r, w - 1 - c)),
        ("mirror top-bottom", lambda r, c: (h - 1 - r, c)),
    ]
    if w == h:
        out += [
            ("rotate 90", lambda r, c: (c, w - 1 - r)),
            ("rotate 270", lambda r, c: (w - 1 - c, r)),
            ("transpose", lambda r, c: (c, r)),
            ("anti-transpose", lambda r, c: (w - 1 - c, h - 1 - r)),
        ]
    return out


class Packer:
    """A deck's patches on one board, ready for exact-cover searches."""

    def __init__(self, pieces: Sequence[Piece], width: int, height: int, allow_flip: bool = True):
        if not pieces:
            raise UsageError("the deck has no patches to pack")
        ids = [p.id for p in pieces]
        if len(set(ids)) != len(ids):
            raise UsageError("patch ids must be distinct to pack a deck")
        self.pieces = tuple(pieces)
        self.width, self.height = width, height
        self.allow_flip = allow_flip
        self.cells = width * height
        self.full: Mask = (1 << self.cells) - 1
        # scan along the shorter side: consecutive bits run down a column when the board is wide
        if width > height:
            self.bit_of = {(r, c): c * height + r for r in range(height) for c in range(width)}
        else:
            self.bit_of = {(r, c): r * width + c for r in range(height) for c in range(width)}
        self.cell_of = {bit: cell for cell, bit in self.bit_of.items()}
        laid_out: dict[Shape, list[Mask]] = {}
        for piece in self.pieces:
            if piece.shape not in laid_out:
                laid_out[piece.shape] = self._placements(piece.shape)
        self.placements: list[list[Mask]] = [laid_out[piece.shape] for piece in self.pieces]
        """Per patch, the masks of its placements; patches of one shape share one list (a deck of
        copies lays out each shape once), which nothing changes."""
        self.areas = [p.shape.size for p in self.pieces]
        self.symmetries = board_symmetries(width, height)
        sums = 1
        for area in self.areas:
            sums |= sums << area
        self.subset_sums: int = sums
        """Bit k is set when some subset of the patches covers exactly k cells."""

    def _best_total(self, cap: int) -> int:
        """The largest area <= cap that some subset of the patches covers exactly."""
        return (self.subset_sums & ((1 << (cap + 1)) - 1)).bit_length() - 1

    def _placements(self, shape: Shape) -> list[Mask]:
        masks: dict[Mask, None] = {}
        for image in shape.orientations(self.allow_flip):
            if image.height > self.height or image.width > self.width:
                continue
            for row in range(self.height - image.height + 1):
                for col in range(self.width - image.width + 1):
                    mask = 0
                    for r, c in image.cells:
                        mask |= 1 << self.bit_of[(r + row, c + col)]
                    masks.setdefault(mask, None)
        return sorted(masks)

    # ----- facts without search --------------------------------------------------------------

    def reach(self) -> list[int]:
        """Per patch, how many board cells at least one of its placements covers."""
        out = []
        for masks in self.placements:
            union = 0
            for mask in masks:
                union |= mask
            out.append(union.bit_count())
        return out

    def cells_of(self, mask: Mask) -> frozenset[Cell]:
        return frozenset(self.cell_of[b] for b in range(self.cells) if mask >> b & 1)

    def _image(self, mask: Mask, sym: Callable[[int, int], Cell]) -> Mask:
        out = 0
        for b in range(self.cells):
            if mask >> b & 1:
                out |= 1 << self.bit_of[sym(*self.cell_of[b])]
        return out

    def _anchors(self, allowed: list[list[Mask]]) -> list[list[tuple[int, int, tuple[Mask, ...]]]]:
        """Per cell: (piece index, piece bit, masks whose first cell is that cell)."""
        table: list[list[tuple[int, int, tuple[Mask, ...]]]] = [[] for _ in range(self.cells)]
        grouped: dict[int, list[tuple[int, tuple[Mask, ...]]]] = {}  # a list shared by patches of one shape: once
        for i, masks in enumerate(allowed):
            groups = grouped.get(id(masks))
            if groups is None:
                by_cell: dict[int, list[Mask]] = {}
                for mask in masks:
                    by_cell.setdefault((mask & -mask).bit_length() - 1, []).append(mask)
                groups = grouped[id(masks)] = [(cell, tuple(group)) for cell, group in by_cell.items()]
            for cell, group in groups:
                table[cell].append((i, 1 << i, group))
        return table

    # ----- exact fill ------------------------------------------------------------------------

    def _search(self, allowed: list[list[Mask]], occupied: Mask, used: int,
                on_solution: Callable[[list[tuple[int, Mask]]], None], max_nodes: int | None) -> int:
        """Algorithm X over the cells not in `occupied`; calls on_solution for each exact cover.
        Returns the search steps taken (see DEFAULT_MAX_NODES); _OutOfBudget past `max_nodes`."""
        anchors = self._anchors(allowed)
        full = self.full
        areas = self.areas
        free_area = sum(a for i, a in enumerate(areas) if not used >> i & 1)
        trail: list[tuple[int, Mask]] = []
        nodes = 0
        budget = max_nodes if max_nodes is not None else -1
        # area pruning is only needed when some patches can be left out
        prune_area = free_area != (full & ~occupied).bit_count()

        def rec(occ: Mask, used: int, left: int) -> None:
            nonlocal nodes
            free = full & ~occ
            if not free:
                nodes += 1
                on_solution(trail)
                return
            if prune_area and left < free.bit_count():
                nodes += 1
                return
            low = free & -free
            group = anchors[low.bit_length() - 1]
            nodes += 1 + len(group)
            if nodes > budget >= 0:
                raise _OutOfBudget(nodes)
            for i, bit, masks in group:
                if used & bit:
                    continue
                nodes += len(masks)
                for mask in masks:
                    if not occ & mask:
                        trail.append((i, mask))
                        rec(occ | mask, used | bit, left - areas[i])
                        trail.pop()

        _deep_enough(len(self.pieces))
        rec(occupied, used, free_area)
        return nodes

    def _placed(self, trail: Sequence[tuple[int, Mask]]) -> tuple[Placed, ...]:
        return tuple(sorted((Placed(self.pieces[i].id, self.cells_of(mask)) for i, mask in trail),
                            key=lambda p: min(p.cells)))

    def fill(self, max_nodes: int | None = DEFAULT_MAX_NODES) -> SearchResult:
        """One exact fill of the board by a subset of the patches, if there is one."""
        found: list[tuple[Placed, ...]] = []

        def keep(trail):
            found.append(self._placed(trail))
            raise _Stop

        nodes = 0
        if not self.subset_sums >> self.cells & 1:
            return SearchResult(None, True, 0)          # no subset of the patches has the board's area
        try:
            nodes = self._search(self.placements, 0, 0, keep, max_nodes)
        except _Stop:
            return SearchResult(found[0], True, 0, self.cells)
        except _OutOfBudget as stop:
            return SearchResult(None, False, stop.steps)
        return SearchResult(None, True, nodes)

    def solutions(self, limit: int | None = None) -> list[tuple[Placed, ...]]:
        """Every exact fill (up to `limit`), each as its placed patches; no symmetry breaking."""
        found: list[tuple[Placed, ...]] = []

        def keep(trail):
            found.append(self._placed(trail))
            if limit is not None and len(found) >= limit:
                raise _Stop

        try:
            self._search(self.placements, 0, 0, keep, None)
        except _Stop:
            pass
        return found

    def _required_piece(self) -> int | None:
        """A patch every exact fill uses: any, when the deck's area equals the board's."""
        if sum(self.areas) != self.cells:
            return None
        # fewest placements: its orbits are the fewest branches to start from
        return min(range(len(self.pieces)), key=lambda i: (len(self.placements[i]), i))

    def count(self, limit: int | None = None, symmetry: bool = True,
              max_nodes: int | None = None) -> CountResult:
        """Count exact fills, all of them and up to the board's symmetries; the symmetry-broken
        search is used when every patch is needed (the deck's area equals the board's). With
        `max_nodes`, the searches share that many steps; when they run out, the count so far is
        returned as a lower bound (`out_of_budget`)."""
        started = time.perf_counter()
        found = 0
        weight = 1
        spent = 0

        def left() -> int | None:
            return None if max_nodes is None else max_nodes - spent

        def tally(_trail):
            nonlocal found
            found += weight
            if limit is not None and found >= limit:
                raise _Stop

        required = self._required_piece() if symmetry else None
        limited = out_of_budget = False
        try:
            if required is None:
                spent += self._search(self.placements, 0, 0, tally, left())
            else:
                for mask, orbit in self._orbit_representatives(self.placements[required]):
                    weight = orbit
                    spent += self._search(self.placements, mask, 1 << required, tally, left())
        except _Stop:
            limited = True
        except _OutOfBudget as stop:
            spent += stop.steps
            limited = out_of_budget = True
        fixed: dict[str, int] = {}
        up_to = None
        if symmetry and not limited:
            try:
                for name, sym in self.symmetries[1:]:
                    fixed[name], steps = self._count_fixed(sym, left())
                    spent += steps
                up_to = (found + sum(fixed.values())) // len(self.symmetries)
            except _OutOfBudget as stop:  # the total is exact; only the count up to symmetry is not
                spent += stop.steps
                fixed, out_of_budget = {}, True
        return CountResult(found, up_to, len(self.symmetries), fixed, limited,
                           time.perf_counter() - started, out_of_budget, spent)

    def _orbit_representatives(self, masks: list[Mask]) -> list[tuple[Mask, int]]:
        """One placement per orbit under the board symmetries, with the orbit's size."""
        seen: set[Mask] = set()
        out = []
        for mask in masks:
            if mask in seen:
                continue
            orbit = {self._image(mask, sym) for _, sym in self.symmetries}
            seen |= orbit
            out.append((mask, len(orbit)))
        return out

    def _count_fixed(self, sym: Callable[[int, int], Cell], max_nodes: int | None = None) -> tuple[int, int]:
        """(solutions fixed by `sym`, search steps taken)."""
        allowed = [[m for m in masks if self._image(m, sym) == m] for masks in self.placements]
        total = 0

        def tally(_trail):
            nonlocal total
            total += 1

        steps = self._search(allowed, 0, 0, tally, max_nodes)
        return total, steps

    # ----- largest coverable area ------------------------------------------------------------

    def largest_area(self, max_nodes: int | None = DEFAULT_MAX_NODES,
                     exact: SearchResult | None = None) -> SearchResult:
        """The most board cells a subset of the patches covers without overlap (branch and bound:
        each cell in scan order is either covered by a patch whose first cell it is, or left
        empty; a branch is cut when even filling every undecided cell cannot beat the best, and
        a final area must be the area of some subset of the patches). The search stops, proven,
        once it covers the most any subset could (the largest subset area that fits the board).
        Steps are counted as in `fill`, and `max_nodes` bounds this search alone."""
        exact = exact or self.fill(max_nodes)
        if exact.solution is not None:
            return exact
        anchors = self._anchors(self.placements)
        full = self.full
        areas = self.areas
        best_total = self._best_total
        best_area = 0
        best_trail: list[tuple[int, Mask]] = []
        trail: list[tuple[int, Mask]] = []
        nodes = 0
        budget = max_nodes if max_nodes is not None else -1
        placeable = sum(a for a, masks in zip(areas, self.placements) if masks)
        ceiling = best_total(min(self.cells, placeable))
        """No packing covers more: found, the answer is proven."""

        def rec(decided: Mask, used: int, covered: int, left: int) -> None:
            nonlocal nodes, best_area, best_trail
            nodes += 1
            if nodes > budget >= 0:
                raise _OutOfBudget(nodes)
            if covered > best_area:
                best_area, best_trail = covered, list(trail)
                if best_area >= ceiling:
                    raise _Stop
            free = full & ~decided
            if not free or best_total(covered + min(left, free.bit_count())) <= best_area:
                return
            low = free & -free
            group = anchors[low.bit_length() - 1]
            nodes += len(group)
            for i, bit, masks in group:
                if used & bit:
                    continue
                nodes += len(masks)
                for mask in masks:
                    if not decided & mask:
                        trail.append((i, mask))
                        rec(decided | mask, used | bit, covered + areas[i], left - areas[i])
                        trail.pop()
            rec(decided | low, used, covered, left)

        complete = True
        _deep_enough(self.cells + len(self.pieces))
        try:
            if ceiling > 0:
                rec(0, 0, 0, placeable)
        except _Stop:
            pass
        except _OutOfBudget as stop:
            complete, nodes = False, stop.steps
        solution = self._placed(best_trail) if best_trail else ()
        return SearchResult(solution, complete, nodes, best_area)
