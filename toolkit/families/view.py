"""A position as a person looks at it, in data: each seat's board with what lies on it and what is
marked (the last placement, the start patch, each round's scored rectangle, the specials used),
the time track with its tokens, and the pieces on offer.

Each rules family builds these from a game (`RulesFamily.view(game)`, `RulesFamily.views(game)`);
the play prompt draws them as text (toolkit.render.prompt_board) and `patchwork show` as a picture
(toolkit.render.record_view). The drawing code reads only this data, so it never asks which
family a game belongs to: what a board shows is what its family put here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Cell = tuple[int, int]
"""(row, column), from 0 at the top left."""

# What a placed piece is (how the boards draw it).
PATCH = "patch"
"""A bought patch, drawn in its own colour."""
LEATHER = "leather"
"""A 1x1 leather patch from the time track."""
START = "start"
"""The start card's patch (Doodle), drawn apart from the other drawings."""
DRAWING = "drawing"
"""A card's patch drawn in pencil (Doodle)."""
SINGLE = "single"
"""One cell shaded with SINGLE (Doodle)."""


@dataclass(frozen=True)
class Placed:
    """One piece placed or drawn on a board."""

    cells: frozenset[Cell]
    id: str
    """The patch or card it came from (`P17`, `D07`, `S03`), or `leather`, `single`."""
    kind: str
    """PATCH, LEATHER, START, DRAWING or SINGLE."""
    ply: int
    """Index in the game's history of the action that placed it."""
    colour: str | None = None
    """The colour the spec gives the patch (`#rrggbb`), if any."""
    colour_index: int = -1
    """The patch's position in the edition (for the palette of patches without a colour); -1: none."""


@dataclass(frozen=True)
class Scored:
    """A rectangle scored at an intermediate scoring."""

    round: int
    """1-based round."""
    row: int
    col: int
    width: int
    height: int
    points: int


@dataclass(frozen=True)
class Board:
    """One seat's quilt or sheet."""

    seat: int
    name: str
    """How the game names the seat (`player 1`, `Automa`)."""
    width: int
    height: int
    placed: tuple[Placed, ...] = ()
    """In the order they were placed."""
    last: int | None = None
    """Index into `placed` of the seat's latest placement (None: nothing placed yet)."""
    scored: tuple[Scored, ...] = ()
    facts: tuple[str, ...] = ()
    """Short lines of figures (`5 buttons, income 3, 61 empty`)."""
    checks: tuple[tuple[str, int], ...] = ()
    """Check-off boxes (the special actions) and how often each was used."""
    has_board: bool = True
    """False for a seat that plays without a board of its own (Automa)."""
    to_move: bool = False

    def covered(self) -> dict[Cell, Placed]:
        """Each covered cell and the piece covering it."""
        return {cell: piece for piece in self.placed for cell in piece.cells}

    @property
    def last_cells(self) -> frozenset[Cell]:
        return self.placed[self.last].cells if self.last is not None else frozenset()


@dataclass(frozen=True)
class Token:
    seat: int
    name: str
    space: int


@dataclass(frozen=True)
class Track:
    """The time track: its spaces, marks still on it and the time tokens."""

    final: int
    """The last space (spaces run 0..final)."""
    income: tuple[int, ...]
    """Spaces with an income mark."""
    leather: tuple[int, ...]
    """Spaces whose leather patch is still on the track."""
    tokens: tuple[Token, ...]
    """Bottom first: a token that arrived later stands on top of one on the same space."""
    notes: tuple[str, ...] = ()
    """One line per seat: where its token is and what comes next."""


@dataclass(frozen=True)
class Offer:
    """A patch or card on offer: the market's circle, Doodle's circle of cards."""

    id: str
    shape: Any
    """toolkit.geometry.Shape as printed."""
    role: str
    """`window`, `circle`, `token card`, `neighbour left` ..."""
    details: str = ""
    can_take: bool = False
    """The player to move may take it now."""
    colour: str | None = None
    colour_index: int = -1


@dataclass(frozen=True)
class Position:
    """Everything a view of a position shows."""

    title: str
    ply: int
    """Actions played so far."""
    status: str
    """Whose turn it is and what is to do, or the result."""
    boards: tuple[Board, ...]
    last_action: str = ""
    """The latest action with its player (`player 2: buy P17 o3 r2 c4`), '' at the deal."""
    track: Track | None = None
    offers: tuple[Offer, ...] = ()
    offers_title: str = ""
    notes: tuple[str, ...] = ()
    """Lines about the whole game (the bonus tile open or taken, the neutral token, the round)."""
    over: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    """Facts a picture may use (`neutral_before`: the offer the neutral token stands before)."""


def new_cells(before: frozenset[Cell] | set[Cell], after: frozenset[Cell] | set[Cell]) -> frozenset[Cell]:
    return frozenset(set(after) - set(before))


def largest_square(cells: set[Cell] | frozenset[Cell], width: int, height: int) -> int:
    """The side of the largest square of covered cells (for the bonus tile's progress)."""
    best = 0
    side = [[0] * (width + 1) for _ in range(height + 1)]
    for r in range(height):
        for c in range(width):
            if (r, c) in cells:
                side[r + 1][c + 1] = 1 + min(side[r][c], side[r][c + 1], side[r + 1][c])
                best = max(best, side[r + 1][c + 1])
    return best
