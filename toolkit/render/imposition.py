"""Imposition as data: pieces (cards, tiles, boards) laid out on paper with bleed and crop marks.

A Piece is drawn in its own frame, (0, 0) at the top-left of the trim, with artwork running into
the bleed. Imposition places pieces n-up (a grid for equal cards, turned a quarter when that fits
more, shelves for tiles) or one per page for print shops, draws crop marks outside every trim line
(never scaling the content) and inside the printer's unprintable border, adds duplex backs pages
and the proof overlay, and returns plain scene Pages. Nothing here knows about a backend.

Every placement is an affine map from the piece's frame to the sheet; a back is placed by the same
map composed with the physical flip of the sheet, so registration holds for either flip edge, on
portrait or landscape paper, and for pieces turned on the sheet.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from toolkit.errors import UsageError
from toolkit.render.paper import Paper
from toolkit.render.scene import (
    Box,
    Circle,
    CutPath,
    Group,
    Item,
    Line,
    Matrix,
    Page,
    Point,
    Poly,
    Rect,
    Text,
    apply,
    compose,
    translate,
)

BLEED_MM = 3.0
"""Artwork runs this far past every cut line (the default of `--bleed`)."""
MAX_BLEED_MM = 5.0
"""Largest bleed accepted: print shops ask for 2 to 5 mm (1/8 in = 3.175 mm)."""
MM_PER_INCH = 25.4
SAFE_MM = 3.0
"""Text and key artwork stay this far inside the trim (shown by the proof overlay)."""
MARK_GAP_MM = 1.0
"""Crop marks start this far outside the bleed so a slightly late cut never shows them."""
MARK_LEN_MM = 5.0
"""Preferred crop-mark length; shortened down to MARK_MIN_MM when the margin is tight."""
MARK_MIN_MM = 2.0
PRINTABLE_MARGIN_MM = 5.0
"""Border of the sheet a home printer may leave unprinted (most leave 3-4.2 mm): no mark and no
bleed is placed in it."""
MAX_MARGIN_MM = 40.0
MAX_GUTTER_MM = 20.0
TILE_MARK_MM = 2.0
"""Corner marks of tiles, drawn in the gaps between tiles."""
MARK_WIDTH_MM = 0.25 * 25.4 / 72.0
MARK_COLOUR = "#000000"

PROOF_TRIM = "#d40000"
PROOF_BLEED = "#0057d4"
PROOF_SAFE = "#00a040"

FLIPS = ("long", "short")
LAYOUTS = ("sheet", "single")
"""`sheet`: n-up with crop marks for home printing; `single`: one piece per page at trim plus
bleed, with TrimBox and BleedBox, for print shops."""


@dataclass(frozen=True)
class Piece:
    """One cut piece: its trim size, front artwork and (optionally) its back."""

    width: float
    height: float
    front: tuple[Item, ...]
    back: tuple[Item, ...] | None = None
    """The back as seen after turning the piece over left-to-right (its vertical axis); for a
    tile that means the mirrored outline."""
    name: str = ""
    outline: tuple[CutPath, ...] | None = None
    """The cut line when it is not the w x h rectangle (a tile, a round token): closed loops in
    the piece's frame, clockwise on the page, or circles. Proof guides follow it; crop marks follow
    a loop's corners and a circle's bounding square."""
    seams: tuple[float | None, float | None] | None = None
    """(x, y) where a board too big for the paper is best cut in two (between two rows or columns
    of its squares); None (or a None coordinate): in the middle."""


@dataclass(frozen=True)
class Duplex:
    """How backs are printed: flip edge and a printer registration correction."""

    flip: str = "long"
    offset: tuple[float, float] = (0.0, 0.0)
    """Shift of every backs page in mm (x right, y down) to cancel printer misregistration."""

    def __post_init__(self) -> None:
        if self.flip not in FLIPS:
            raise UsageError(f"unknown flip edge '{self.flip}': expected long or short")


@dataclass(frozen=True)
class Layout:
    """Where pieces may go on a sheet."""

    margin: float = PRINTABLE_MARGIN_MM
    """Unprintable border of the printer in mm: marks and bleed stay inside it."""
    gutter: float | None = None
    """Space between neighbouring cards in mm, each card keeping bleed up to half of it; None:
    the widest of 2 x bleed, bleed or nothing that costs no cards on the sheet."""
    mode: str = "sheet"
    """`sheet` (n-up with crop marks) or `single` (one piece per page, for print shops)."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.margin <= MAX_MARGIN_MM:
            raise UsageError(f"--margin must be between 0 and {MAX_MARGIN_MM:g} mm, got {self.margin:g}")
        if self.gutter is not None and not 0.0 <= self.gutter <= MAX_GUTTER_MM:
            raise UsageError(f"--gutter must be between 0 and {MAX_GUTTER_MM:g} mm, got {self.gutter:g}")
        if self.mode not in LAYOUTS:
            raise UsageError(f"unknown layout '{self.mode}': expected sheet or single")


def parse_length(text: str, what: str) -> float:
    """`3mm`, `3` or `0` as millimetres; UsageError naming the option otherwise."""
    raw = text.strip().lower()
    if raw.endswith("mm"):
        raw = raw[:-2].strip()
    try:
        value = float(raw)
    except ValueError:
        raise UsageError(f"bad {what} '{text}': expected a length in mm such as 3mm") from None
    if value != value or value < 0:
        raise UsageError(f"bad {what} '{text}': expected a length in mm such as 3mm")
    return value


def parse_bleed(text: str) -> float:
    """`3mm`, `3`, `0`, `1/8in` or `0.125in` as millimetres, 0 to MAX_BLEED_MM; UsageError otherwise."""
    raw = text.strip().lower().replace(" ", "")
    expected = f"expected 0 to {MAX_BLEED_MM:g} mm, e.g. 3mm or 1/8in"
    unit = 1.0
    if raw.endswith("in"):
        raw, unit = raw[:-2], MM_PER_INCH
    elif raw.endswith("mm"):
        raw = raw[:-2]
    try:
        if "/" in raw:
            top, bottom = raw.split("/", 1)
            value = float(top) / float(bottom)
        else:
            value = float(raw)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"bad --bleed '{text}': {expected}") from None
    value *= unit
    if value != value or not 0.0 <= value <= MAX_BLEED_MM + 1e-9:
        raise UsageError(f"bad --bleed '{text}': {expected}")
    return min(value, MAX_BLEED_MM)


# ----- the physical flip -----------------------------------------------------------------------


def flip_matrix(paper: Paper, flip: str) -> Matrix:
    """Where a point of the front lands on the back, both seen from their printed side.

    Flipping over the long edge turns a portrait sheet about its vertical axis but a landscape
    sheet about its horizontal one (its long edge is the top); the short edge is the reverse.
    """
    portrait = paper.height >= paper.width
    about_vertical = (flip == "long") == portrait
    if about_vertical:
        return (-1.0, 0.0, 0.0, 1.0, paper.width, 0.0)
    return (1.0, 0.0, 0.0, -1.0, 0.0, paper.height)


def _mirror(width: float) -> Matrix:
    """The piece's own left-right turn: its front frame to the frame its back is drawn in."""
    return (-1.0, 0.0, 0.0, 1.0, width, 0.0)


def back_matrix(piece: Piece, placement: Matrix, paper: Paper, duplex: Duplex) -> Matrix:
    """The transform of a back drawn in its own frame, so it lies exactly behind its front."""
    shift = translate(*duplex.offset)
    return compose(shift, flip_matrix(paper, duplex.flip), placement, _mirror(piece.width))


def _back_group(piece: Piece, placement: Matrix, paper: Paper, duplex: Duplex,
                clip: tuple[float, float, float, float] | None) -> Group:
    assert piece.back is not None
    back_clip = None
    if clip is not None:
        cx, cy, cw, ch = clip
        # Turning over left-right swaps the left and right bleeds of the piece.
        back_clip = (piece.width - (cx + cw), cy, cw, ch)
    return Group(piece.back, back_matrix(piece, placement, paper, duplex), back_clip)


# ----- proof overlay ---------------------------------------------------------------------------


def offset_loop(loop: tuple[Point, ...], by: float) -> tuple[Point, ...]:
    """A right-angled loop (clockwise on the page) moved outward by `by` (inward when negative)."""
    n = len(loop)
    out: list[Point] = []
    for i in range(n):
        px, py = loop[i - 1]
        x, y = loop[i]
        nx, ny = loop[(i + 1) % n]
        d1 = (_sign(x - px), _sign(y - py))
        d2 = (_sign(nx - x), _sign(ny - y))
        # outward normal of an edge running d on a clockwise loop is (d.y, -d.x)
        out.append((x + by * (d1[1] + d2[1]), y - by * (d1[0] + d2[0])))
    return tuple(out)


def _sign(v: float) -> float:
    return 0.0 if abs(v) < 1e-9 else (1.0 if v > 0 else -1.0)


def _corners(path: CutPath) -> tuple[Point, ...]:
    """A cut loop itself; a circle's bounding square (where its crop marks go)."""
    if isinstance(path, Circle):
        x0, y0, x1, y1 = path.cx - path.r, path.cy - path.r, path.cx + path.r, path.cy + path.r
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return path


def _ring(circle: Circle, r: float, steps: int = 72) -> tuple[Point, ...]:
    """Points of a circle about `circle`'s centre with radius `r` (a proof guide)."""
    return tuple((circle.cx + r * math.cos(2 * math.pi * i / steps), circle.cy + r * math.sin(2 * math.pi * i / steps))
                 for i in range(steps))


def _proof_items(piece: Piece, bleed: float) -> list[Item]:
    """Trim, bleed and safe-area guides in the piece's own frame."""
    thin = MARK_WIDTH_MM
    w, h = piece.width, piece.height
    if piece.outline is None:
        return [
            Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, PROOF_BLEED, thin, None, (1.0, 1.0)),
            Rect(0, 0, w, h, PROOF_TRIM, thin),
            Rect(SAFE_MM, SAFE_MM, w - 2 * SAFE_MM, h - 2 * SAFE_MM, PROOF_SAFE, thin, None, (0.6, 0.8)),
        ]
    items: list[Item] = []
    for loop in piece.outline:
        if isinstance(loop, Circle):
            # dashed like the rectangles' guides, so the legend reads the same
            items += [Poly(_ring(loop, loop.r + bleed), True, PROOF_BLEED, thin, None, (1.0, 1.0)),
                      Circle(loop.cx, loop.cy, loop.r, PROOF_TRIM, thin, None),
                      Poly(_ring(loop, max(loop.r - SAFE_MM, thin)), True, PROOF_SAFE, thin, None, (0.6, 0.8))]
            continue
        items.append(Poly(offset_loop(loop, bleed), True, PROOF_BLEED, thin, None, (1.0, 1.0)))
        items.append(Poly(loop, True, PROOF_TRIM, thin))
        items.append(Poly(offset_loop(loop, -SAFE_MM), True, PROOF_SAFE, thin, None, (0.6, 0.8)))
    return items


def _proof_legend(page_width: float, y: float) -> Text:
    return Text(
        page_width / 2, y, "proof: red = trim, blue dashed = bleed, green dashed = safe area",
        6.0, "middle", False, "#555555",
    )


# ----- grid imposition (cards) -----------------------------------------------------------------


@dataclass(frozen=True)
class GridLayout:
    cols: int
    rows: int
    gutter: float
    left: float
    top: float
    mark_len: float
    turned: bool = False
    """Pieces lie a quarter turn clockwise on the sheet (slots are h x w)."""
    slot_w: float = 0.0
    slot_h: float = 0.0

    @property
    def per_page(self) -> int:
        return self.cols * self.rows


def _grid_fit(paper: Paper, w: float, h: float, bleed: float, gutter: float, margin: float,
              turned: bool) -> GridLayout | None:
    sw, sh = (h, w) if turned else (w, h)
    reserve = margin + MARK_MIN_MM + MARK_GAP_MM + bleed

    def count(space: float, size: float) -> int:
        usable = space - 2 * reserve + gutter
        return max(0, int((usable + 1e-9) // (size + gutter)))

    cols, rows = count(paper.width, sw), count(paper.height, sh)
    if cols == 0 or rows == 0:
        return None
    block_w = cols * sw + (cols - 1) * gutter
    block_h = rows * sh + (rows - 1) * gutter
    left = (paper.width - block_w) / 2
    top = (paper.height - block_h) / 2
    room = min(left, top) - bleed - MARK_GAP_MM - margin
    return GridLayout(cols, rows, gutter, left, top, min(MARK_LEN_MM, room), turned, sw, sh)


NARROW_MARGIN_MM = 3.0
"""The printer margin a gutter note suggests trying (many inkjets print 3 mm from the edge)."""
GUTTER_EXTRA_SHEETS = 1
"""A gutter may cost this many sheets more than the fewest: enough to stop butting cards on
Letter (40 cards: 5 sheets butted or with 1.8 mm gutters, 7 with 6 mm), never a stack more."""


def _fitted_gutter(paper: Paper, w: float, h: float, bleed: float, margin: float, turned: bool,
                   widest: float) -> float:
    """The widest gutter up to `widest` that keeps as many pieces on a sheet as butting them,
    rounded down to 0.1 mm (0 when none does)."""
    butted = _grid_fit(paper, w, h, bleed, 0.0, margin, turned)
    if butted is None:
        return 0.0
    reserve = margin + MARK_MIN_MM + MARK_GAP_MM + bleed
    room = widest
    for space, size, n in ((paper.width, butted.slot_w, butted.cols), (paper.height, butted.slot_h, butted.rows)):
        if n > 1:
            room = min(room, (space - 2 * reserve - n * size) / (n - 1))
    return max(0.0, int(room * 10 + 1e-6) / 10.0)


def grid_layout(paper: Paper, w: float, h: float, bleed: float = BLEED_MM,
                layout: Layout = Layout(), count: int | None = None) -> GridLayout:
    """How `count` pieces (a full sheet when None) lie on the paper, upright or turned a quarter.

    With a gutter asked for, the fewest sheets at that gutter. Otherwise the widest gutter up to
    2 x bleed (each piece keeping its full bleed), or the widest that keeps the sheet as full as
    butting does, that costs at most GUTTER_EXTRA_SHEETS sheets more than the fewest; among equal
    gutters the fewest sheets, then upright. `gutter_note` says when a gutter cost a sheet."""
    if layout.gutter is not None:
        gutters: tuple[float, ...] = (layout.gutter,)
    else:
        fitted = {_fitted_gutter(paper, w, h, bleed, layout.margin, turned, 2 * bleed) for turned in (False, True)}
        gutters = tuple(sorted({2 * bleed, bleed, 0.0} | fitted, reverse=True))
    fits = [fit for gutter in gutters for turned in (False, True)
            if (fit := _grid_fit(paper, w, h, bleed, gutter, layout.margin, turned)) is not None]
    if not fits:
        raise UsageError(
            f"a {w:g} x {h:g} mm piece with {bleed:g} mm bleed, crop marks and a {layout.margin:g} mm "
            f"printer margin does not fit on {paper.name} paper ({paper.width:g} x {paper.height:g} mm); "
            f"choose a larger paper"
        )

    def cost(fit: GridLayout) -> int:
        return -fit.per_page if count is None else -(-count // fit.per_page)

    fewest = min(cost(fit) for fit in fits)
    allowed = 0 if count is None or layout.gutter is not None else GUTTER_EXTRA_SHEETS
    return min((fit for fit in fits if cost(fit) <= fewest + allowed),
               key=lambda fit: (-fit.gutter, cost(fit), fit.turned))


def gutter_note(paper: Paper, w: float, h: float, bleed: float, layout: Layout, count: int,
                what: str = "cards") -> str | None:
    """One line when the default gutter is not a full one at no cost: it took an extra sheet, or
    the pieces are butted (or nearly) because a full gutter would take more; None otherwise."""
    if layout.gutter is not None or layout.mode != "sheet" or count <= 1:
        return None
    chosen = grid_layout(paper, w, h, bleed, layout, count)
    sheets = -(-count // chosen.per_page)
    tight = grid_layout(paper, w, h, bleed, Layout(layout.margin, 0.0, layout.mode), count)
    fewest = -(-count // tight.per_page)
    if sheets > fewest:
        return (f"{what}: {chosen.gutter:g} mm gutters (every piece keeps its {min(bleed, chosen.gutter / 2):g} mm "
                f"bleed) take {sheets} sheets of {paper.name} instead of {fewest}; --gutter 0 butts them on {fewest}")
    if chosen.gutter < 2 * bleed - 1e-9:
        full = grid_layout(paper, w, h, bleed, Layout(layout.margin, 2 * bleed, layout.mode), count)
        more = -(-count // full.per_page) - sheets
        kept = "butted edge to edge" if chosen.gutter == 0 else f"{chosen.gutter:g} mm apart"
        if more <= 0:
            return None
        # a printer that prints closer to the edge leaves room for a gutter with real bleed
        closer = ""
        if layout.margin > NARROW_MARGIN_MM:
            wider = max(_fitted_gutter(paper, w, h, bleed, NARROW_MARGIN_MM, chosen.turned, 2 * bleed), 0.0)
            if wider > chosen.gutter + 1e-9:
                closer = (f"; with --margin {NARROW_MARGIN_MM:g}mm, if your printer prints that close to the edge, "
                          f"they are {wider:g} mm apart ({wider / 2:g} mm bleed each) on the same sheets")
        inside = "no bleed between them" if chosen.gutter == 0 else f"{chosen.gutter / 2:g} mm of bleed each"
        return (f"{what}: {kept} on {sheets} sheets of {paper.name} ({inside}); a full {2 * bleed:g} mm gutter would take {more} more (--gutter "
                f"{2 * bleed:g}mm){closer}")
    return None


def _placement(piece: Piece, x: float, y: float, turned: bool) -> Matrix:
    if turned:
        # a quarter turn clockwise: the piece's top edge runs down the slot's right side
        return (0.0, 1.0, -1.0, 0.0, x + piece.height, y)
    return translate(x, y)


def _grid_marks(layout: GridLayout, bleed: float) -> list[Item]:
    w, h, g = layout.slot_w, layout.slot_h, layout.gutter
    xs = sorted({round(layout.left + c * (w + g) + dx, 4) for c in range(layout.cols) for dx in (0.0, w)})
    ys = sorted({round(layout.top + r * (h + g) + dy, 4) for r in range(layout.rows) for dy in (0.0, h)})
    block_right = layout.left + layout.cols * w + (layout.cols - 1) * g
    block_bottom = layout.top + layout.rows * h + (layout.rows - 1) * g
    off = bleed + MARK_GAP_MM
    ln = layout.mark_len
    marks: list[Item] = []
    for x in xs:
        marks.append(Line(x, layout.top - off, x, layout.top - off - ln, MARK_COLOUR, MARK_WIDTH_MM))
        marks.append(Line(x, block_bottom + off, x, block_bottom + off + ln, MARK_COLOUR, MARK_WIDTH_MM))
    for y in ys:
        marks.append(Line(layout.left - off, y, layout.left - off - ln, y, MARK_COLOUR, MARK_WIDTH_MM))
        marks.append(Line(block_right + off, y, block_right + off + ln, y, MARK_COLOUR, MARK_WIDTH_MM))
    return marks


def impose_grid(
    pieces: list[Piece],
    paper: Paper,
    *,
    bleed: float = BLEED_MM,
    backs: bool = False,
    duplex: Duplex = Duplex(),
    proof: bool = False,
    layout: Layout = Layout(),
    cut: bool = True,
) -> list[Page]:
    """Equal-size pieces n-up; each fronts page is followed by its backs page when `backs`. With
    `cut`, when any piece is die-cut (see `die_cut`), every fronts page carries the cut line of
    each piece on it."""
    if not pieces:
        raise UsageError("nothing to print: the spec has no pieces of this kind")
    cut = cut and die_cut(pieces)
    if layout.mode == "single":
        return impose_single(pieces, bleed=bleed, backs=backs, proof=proof, cut=cut)
    w = max(p.width for p in pieces)
    h = max(p.height for p in pieces)
    grid = grid_layout(paper, w, h, bleed, layout, len(pieces))
    pages: list[Page] = []
    per = grid.per_page
    sheets = (len(pieces) + per - 1) // per
    inner = min(bleed, grid.gutter / 2)
    for sheet in range(sheets):
        batch = pieces[sheet * per:(sheet + 1) * per]
        slots = {(i // grid.cols, i % grid.cols): piece for i, piece in enumerate(batch)}
        placed: list[tuple[Piece, Matrix, tuple[float, float, float, float]]] = []
        for (r, c), piece in slots.items():
            x = grid.left + c * (grid.slot_w + grid.gutter)
            y = grid.top + r * (grid.slot_h + grid.gutter)
            # Bleed on the sheet's sides: full where no neighbour, else up to half the gutter.
            left = inner if (r, c - 1) in slots else bleed
            right = inner if (r, c + 1) in slots else bleed
            top = inner if (r - 1, c) in slots else bleed
            bottom = inner if (r + 1, c) in slots else bleed
            if grid.turned:
                # the piece's own left side lies at the top of the slot, its top at the right
                left, top, right, bottom = top, right, bottom, left
            clip = (-left, -top, piece.width + left + right, piece.height + top + bottom)
            placed.append((piece, _placement(piece, x, y, grid.turned), clip))
        # marks only for the rows this sheet uses: no cut lines through empty paper
        used_rows = -(-len(batch) // grid.cols)
        marks = _grid_marks(replace(grid, rows=used_rows, cols=min(grid.cols, len(batch))), bleed)
        pages += _sheet_pages(sheet + 1, placed, marks, min(3.5, grid.top - bleed - 0.5), paper, bleed=bleed,
                              backs=backs, duplex=duplex, proof=proof, cut=cut)
    return pages


def _sheet_pages(number: int, placed: Sequence[tuple[Piece, Matrix, tuple[float, float, float, float] | None]],
                 marks: list[Item], legend_top: float, paper: Paper, *, bleed: float, backs: bool, duplex: Duplex,
                 proof: bool, cut: bool) -> list[Page]:
    """One sheet of n-up pieces, each (piece, placement, clip): its fronts page (the fronts, then
    `marks`, then with `proof` each piece's proof marks and the legend at `legend_top`; with `cut`
    each piece's cut line) and, with `backs`, its backs page."""
    fronts: list[Item] = []
    proof_items: list[Item] = []
    backs_items: list[Item] = []
    cuts: list[CutPath] = []
    for piece, placement, clip in placed:
        fronts.append(Group(piece.front, placement, clip))
        if cut:
            cuts += cut_loops(piece, placement)
        if proof:
            proof_items.append(Group(tuple(_proof_items(piece, bleed)), placement))
        if backs and piece.back is not None:
            backs_items.append(_back_group(piece, placement, paper, duplex, clip))
    legend: list[Item] = [_proof_legend(paper.width, legend_top)] if proof else []
    pages = [Page(paper.width, paper.height, tuple(fronts + marks + proof_items + legend), label=f"fronts {number}",
                  cut=tuple(cuts))]
    if backs:
        pages.append(Page(paper.width, paper.height, tuple(backs_items), label=f"backs {number}"))
    return pages


# ----- one piece per page (print shops) --------------------------------------------------------


def cut_loops(piece: Piece, placement: Matrix) -> tuple[CutPath, ...]:
    """The piece's cut line on the sheet: its outline (its rectangle when it has none) through
    `placement` (a move, quarter turn or mirror: no scaling), clockwise on the page as placed."""
    loops = piece.outline or (((0.0, 0.0), (piece.width, 0.0), (piece.width, piece.height), (0.0, piece.height)),)
    placed: list[CutPath] = []
    for loop in loops:
        if isinstance(loop, Circle):
            placed.append(Circle(*apply(placement, loop.cx, loop.cy), loop.r, None))
        else:
            placed.append(tuple(apply(placement, x, y) for x, y in loop))
    return tuple(placed)


def die_cut(pieces: list[Piece]) -> bool:
    """Whether any of the pieces has an outline other than its rectangle (a tile, a round token):
    then every piece on their pages gets a cut line, for a die, laser or cutting plotter."""
    return any(piece.outline is not None for piece in pieces)


def impose_single(pieces: list[Piece], *, bleed: float = BLEED_MM, backs: bool = False,
                  proof: bool = False, cut: bool = False) -> list[Page]:
    """Every piece on its own page the size of its bleed box, TrimBox and BleedBox set; with
    `backs` each front page is followed by the back as seen from its printed side; with `cut`
    each front page carries the piece's cut line (die-cut pieces)."""
    if not pieces:
        raise UsageError("nothing to print: the spec has no pieces of this kind")
    pages: list[Page] = []
    for piece in pieces:
        w, h = piece.width + 2 * bleed, piece.height + 2 * bleed
        trim = Box(bleed, bleed, piece.width, piece.height)
        clip = (-bleed, -bleed, w, h)
        items: list[Item] = [Group(piece.front, translate(bleed, bleed), clip)]
        if proof:
            items.append(Group(tuple(_proof_items(piece, bleed)), translate(bleed, bleed)))
        pages.append(Page(w, h, tuple(items), trim=trim, bleed=Box(0, 0, w, h),
                          label=f"{piece.name or 'piece'} front",
                          cut=cut_loops(piece, translate(bleed, bleed)) if cut else ()))
        if backs and piece.back is not None:
            pages.append(Page(w, h, (Group(piece.back, translate(bleed, bleed), clip),), trim=trim,
                              bleed=Box(0, 0, w, h), label=f"{piece.name or 'piece'} back"))
    return pages


# ----- shelf imposition (tiles) ----------------------------------------------------------------


def impose_shelves(
    pieces: list[Piece],
    paper: Paper,
    *,
    bleed: float = BLEED_MM,
    backs: bool = False,
    duplex: Duplex = Duplex(),
    proof: bool = False,
    layout: Layout = Layout(),
    cut: bool = True,
) -> list[Page]:
    """Irregular pieces (tiles) packed on shelves, tallest first, with crop marks at the corners
    of each piece's outline drawn in the gaps between pieces; with `cut` every fronts page carries
    the cut line of each piece on it (for a die, laser or cutting plotter)."""
    if not pieces:
        raise UsageError("nothing to print: the spec has no pieces of this kind")
    if layout.mode == "single":
        return impose_single(pieces, bleed=bleed, backs=backs, proof=proof, cut=cut)
    reach = bleed + MARK_GAP_MM + TILE_MARK_MM
    gap = 2 * reach
    margin = reach + layout.margin
    usable_w = paper.width - 2 * margin
    usable_h = paper.height - 2 * margin
    for piece in pieces:
        if piece.width > usable_w + 1e-9 or piece.height > usable_h + 1e-9:
            raise UsageError(
                f"piece {piece.name or '?'} ({piece.width:g} x {piece.height:g} mm) does not fit on "
                f"{paper.name} paper with bleed, marks and a {layout.margin:g} mm printer margin; "
                f"choose a larger paper"
            )
    order = sorted(range(len(pieces)), key=lambda i: (-pieces[i].height, -pieces[i].width, i))
    placed_pages: list[list[tuple[Piece, float, float]]] = [[]]
    x = y = 0.0
    shelf_h = 0.0
    for i in order:
        piece = pieces[i]
        if x > 0 and x + piece.width > usable_w + 1e-9:
            x = 0.0
            y += shelf_h + gap
            shelf_h = 0.0
        if y + piece.height > usable_h + 1e-9:
            placed_pages.append([])
            x = y = shelf_h = 0.0
        placed_pages[-1].append((piece, margin + x, margin + y))
        x += piece.width + gap
        shelf_h = max(shelf_h, piece.height)
    pages: list[Page] = []
    for number, on_page in enumerate(placed_pages, start=1):
        placed = [(piece, translate(px, py), None) for piece, px, py in on_page]
        marks = [mark for piece, placement, _ in placed for mark in piece_marks(piece, placement, bleed, TILE_MARK_MM)]
        pages += _sheet_pages(number, placed, marks, 3.0, paper, bleed=bleed, backs=backs, duplex=duplex, proof=proof,
                              cut=cut)
    return pages


def piece_marks(piece: Piece, placement: Matrix, bleed: float, length: float) -> list[Item]:
    """Two ticks at every outer corner of the piece's cut line, on the extension of its edges,
    outside the bleed (a rectangle's four corners when it has no outline)."""
    loops = [_corners(path) for path in piece.outline] if piece.outline else \
        [((0.0, 0.0), (piece.width, 0.0), (piece.width, piece.height), (0.0, piece.height))]
    off = bleed + MARK_GAP_MM
    items: list[Item] = []
    for loop in loops:
        n = len(loop)
        for i in range(n):
            px, py = loop[i - 1]
            x, y = loop[i]
            nx, ny = loop[(i + 1) % n]
            d1 = (_sign(x - px), _sign(y - py))
            d2 = (_sign(nx - x), _sign(ny - y))
            if d1[0] * d2[1] - d1[1] * d2[0] <= 0:
                continue  # an inner corner: its extensions would run into the piece
            for (dx, dy) in (d1, (-d2[0], -d2[1])):
                a = apply(placement, x + dx * off, y + dy * off)
                b = apply(placement, x + dx * (off + length), y + dy * (off + length))
                items.append(Line(a[0], a[1], b[0], b[1], MARK_COLOUR, MARK_WIDTH_MM))
    return items


def corner_marks(trim: Box, bleed: float, length: float) -> list[Item]:
    """Two ticks at each corner of `trim`, on the extension of its edges, outside the bleed."""
    piece = Piece(trim.width, trim.height, ())
    return piece_marks(piece, translate(trim.x, trim.y), bleed, length)


# ----- one piece per page (boards) -------------------------------------------------------------


def one_up(piece: Piece, paper: Paper, *, bleed: float = BLEED_MM, proof: bool = False,
           label: str = "", margin: float = PRINTABLE_MARGIN_MM) -> Page:
    """A single piece centred on the page, with TrimBox/BleedBox and corner crop marks."""
    need = 2 * (bleed + MARK_GAP_MM + MARK_MIN_MM + margin)
    if piece.width + need > paper.width + 1e-9 or piece.height + need > paper.height + 1e-9:
        raise UsageError(
            f"{piece.name or 'the piece'} is {piece.width:.0f} x {piece.height:.0f} mm and does not "
            f"fit on {paper.name} paper ({paper.width:g} x {paper.height:g} mm) with {bleed:g} mm "
            f"bleed, crop marks and a {margin:g} mm printer margin; choose a larger paper "
            f"(e.g. a custom WxHmm size)"
        )
    x = (paper.width - piece.width) / 2
    y = (paper.height - piece.height) / 2
    room = min(x, y) - bleed - MARK_GAP_MM - margin
    trim = Box(x, y, piece.width, piece.height)
    placement = translate(x, y)
    items: list[Item] = [Group(piece.front, placement,
                               (-bleed, -bleed, piece.width + 2 * bleed, piece.height + 2 * bleed))]
    items += piece_marks(piece, placement, bleed, min(MARK_LEN_MM, room))
    if proof:
        items.append(Group(tuple(_proof_items(piece, bleed)), placement))
        items.append(_proof_legend(paper.width, min(3.5, y - bleed - 0.5)))
    return Page(paper.width, paper.height, tuple(items), trim=trim, bleed=trim.grow(bleed),
                label=label or piece.name)


def fits_one_up(piece: Piece, paper: Paper, bleed: float = BLEED_MM,
                margin: float = PRINTABLE_MARGIN_MM) -> bool:
    need = 2 * (bleed + MARK_GAP_MM + MARK_MIN_MM + margin)
    return piece.width + need <= paper.width + 1e-9 and piece.height + need <= paper.height + 1e-9


def split_to_fit(piece: Piece, paper: Paper, bleed: float = BLEED_MM,
                 margin: float = PRINTABLE_MARGIN_MM) -> list[Piece]:
    """The piece whole when it fits the paper one-up, else its two halves (cut across its longer
    side, else across the shorter) when they fit; one UsageError when neither does. A board is
    never scaled: its squares must stay the size of the pieces placed on them."""
    if fits_one_up(piece, paper, bleed, margin):
        return [piece]
    for across_longer in (True, False):
        parts = halves(piece, bleed, across_longer)
        if all(fits_one_up(part, paper, bleed, margin) for part in parts):
            return list(parts)
    raise UsageError(
        f"{piece.name or 'the piece'} is {piece.width:.0f} x {piece.height:.0f} mm (its squares at the size of "
        f"the pieces placed on it) and does not fit on {paper.name} paper ({paper.width:g} x {paper.height:g} mm) "
        f"even in two halves, with {bleed:g} mm bleed, crop marks and a {margin:g} mm printer margin; choose a "
        f"larger paper"
    )


def halves(piece: Piece, bleed: float = BLEED_MM, across_longer: bool = True) -> tuple[Piece, Piece]:
    """A piece too big for the paper cut in two across its longer side (or, with
    `across_longer=False`, its shorter one), at its `seams` line when it has one there (a time
    board between two columns of spaces), else in the middle; each half's bleed on the join shows
    the other half's art, so butted together they read as one board."""
    if (piece.width >= piece.height) == across_longer:
        at = piece.seams[0] if piece.seams and piece.seams[0] else piece.width / 2
        rest = piece.width - at
        first = Group(piece.front, translate(0, 0), (-bleed, -bleed, at + 2 * bleed, piece.height + 2 * bleed))
        second = Group(piece.front, translate(-at, 0), (at - bleed, -bleed, rest + 2 * bleed, piece.height + 2 * bleed))
        return (Piece(at, piece.height, (first,), None, f"{piece.name} left half"),
                Piece(rest, piece.height, (second,), None, f"{piece.name} right half"))
    at = piece.seams[1] if piece.seams and piece.seams[1] else piece.height / 2
    rest = piece.height - at
    first = Group(piece.front, translate(0, 0), (-bleed, -bleed, piece.width + 2 * bleed, at + 2 * bleed))
    second = Group(piece.front, translate(0, -at), (-bleed, at - bleed, piece.width + 2 * bleed, rest + 2 * bleed))
    return (Piece(piece.width, at, (first,), None, f"{piece.name} top half"),
            Piece(piece.width, rest, (second,), None, f"{piece.name} bottom half"))
