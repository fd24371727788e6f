"""Imposition as data: pieces (cards, tiles, boards) laid out on paper with bleed and crop marks.

A Piece is drawn in its own frame, (0, 0) at the top-left of the trim, with artwork running into
the bleed. Imposition places pieces n-up (a grid for equal cards, shelves for tiles), draws crop
marks in the margin outside every trim line (never scaling the content), adds duplex backs pages
and the proof overlay, and returns plain scene Pages. Nothing here knows about a backend.
"""
from __future__ import annotations

from dataclasses import dataclass

from toolkit.errors import UsageError
from toolkit.render.paper import Paper
from toolkit.render.scene import (
    Box,
    Group,
    Item,
    Line,
    Page,
    Rect,
    Text,
    rotate180,
    translate,
)

BLEED_MM = 3.0
"""Artwork runs this far past every cut line."""
SAFE_MM = 3.0
"""Text and key artwork stay this far inside the trim (shown by the proof overlay)."""
MARK_GAP_MM = 1.0
"""Crop marks start this far outside the bleed so a slightly late cut never shows them."""
MARK_LEN_MM = 5.0
"""Preferred crop-mark length; shortened down to MARK_MIN_MM when the margin is tight."""
MARK_MIN_MM = 2.0
EDGE_MM = 1.0
"""Keep this much clear paper at the sheet edge beyond the marks."""
TILE_MARK_MM = 2.0
"""Corner marks of tiles, drawn in the gaps between tiles."""
MARK_WIDTH_MM = 0.25 * 25.4 / 72.0
MARK_COLOUR = "#000000"

PROOF_TRIM = "#d40000"
PROOF_BLEED = "#0057d4"
PROOF_SAFE = "#00a040"

FLIPS = ("long", "short")


@dataclass(frozen=True)
class Piece:
    """One cut piece: its trim size, front artwork and (optionally) its back."""

    width: float
    height: float
    front: tuple[Item, ...]
    back: tuple[Item, ...] | None = None
    """The back as seen after turning the piece over left-to-right (its vertical axis); for a
    tile that means the mirrored outline. Short-edge duplex turns it half round in place."""
    name: str = ""


@dataclass(frozen=True)
class Duplex:
    """How backs are printed: flip edge and a printer registration correction."""

    flip: str = "long"
    offset: tuple[float, float] = (0.0, 0.0)
    """Shift of every backs page in mm (x right, y down) to cancel printer misregistration."""

    def __post_init__(self) -> None:
        if self.flip not in FLIPS:
            raise UsageError(f"unknown flip edge '{self.flip}': expected long or short")


def _piece_group(piece: Piece, x: float, y: float, items, clip: tuple | None) -> Group:
    return Group(tuple(items), translate(x, y), clip)


def _proof_items(x: float, y: float, w: float, h: float, bleed: float) -> list[Item]:
    thin = MARK_WIDTH_MM
    return [
        Rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, PROOF_BLEED, thin, None, (1.0, 1.0)),
        Rect(x, y, w, h, PROOF_TRIM, thin),
        Rect(x + SAFE_MM, y + SAFE_MM, w - 2 * SAFE_MM, h - 2 * SAFE_MM, PROOF_SAFE, thin, None, (0.6, 0.8)),
    ]


def _proof_legend(page_width: float, y: float) -> Text:
    return Text(
        page_width / 2, y, "proof: red = trim, blue dashed = bleed, green dashed = safe area",
        5.5, "middle", False, "#555555",
    )


def _back_placement(piece: Piece, x: float, y: float, paper: Paper, duplex: Duplex,
                    clip: tuple[float, float, float, float] | None) -> Group:
    """The back behind the front at (x, y); `clip` is the front's clip, mirrored to match."""
    ox, oy = duplex.offset
    assert piece.back is not None
    back_clip = None
    if clip is not None:
        cx, cy, cw, ch = clip
        # Turning over left-right swaps the left and right bleeds of the piece.
        back_clip = (piece.width - (cx + cw), cy, cw, ch)
    if duplex.flip == "long":
        bx = paper.width - x - piece.width + ox
        return Group(piece.back, translate(bx, y + oy), back_clip)
    by = paper.height - y - piece.height + oy
    return Group(piece.back, rotate180(piece.width, piece.height, x + ox, by), back_clip)


# ----- grid imposition (cards) -----------------------------------------------------------------


@dataclass(frozen=True)
class GridLayout:
    cols: int
    rows: int
    gutter: float
    left: float
    top: float
    mark_len: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows


def _grid_fit(paper: Paper, w: float, h: float, bleed: float, gutter: float) -> GridLayout | None:
    margin = MARK_GAP_MM + MARK_MIN_MM + EDGE_MM

    def count(space: float, size: float) -> int:
        usable = space - 2 * margin - 2 * bleed + gutter
        return max(0, int((usable + 1e-9) // (size + gutter)))

    cols, rows = count(paper.width, w), count(paper.height, h)
    if cols == 0 or rows == 0:
        return None
    block_w = cols * w + (cols - 1) * gutter
    block_h = rows * h + (rows - 1) * gutter
    left = (paper.width - block_w) / 2
    top = (paper.height - block_h) / 2
    room = min(left, top) - bleed - MARK_GAP_MM - EDGE_MM
    return GridLayout(cols, rows, gutter, left, top, min(MARK_LEN_MM, room))


def grid_layout(paper: Paper, w: float, h: float, bleed: float = BLEED_MM) -> GridLayout:
    """Most pieces per sheet; pieces get their own full bleed (a 2 x bleed gutter) when that
    costs no pieces, otherwise they butt edge to edge and share cut lines."""
    spaced = _grid_fit(paper, w, h, bleed, 2 * bleed)
    tight = _grid_fit(paper, w, h, bleed, 0.0)
    if tight is None:
        raise UsageError(
            f"a {w:g} x {h:g} mm piece with {bleed:g} mm bleed and crop marks does not fit on "
            f"{paper.name} paper ({paper.width:g} x {paper.height:g} mm); choose a larger paper"
        )
    if spaced is not None and spaced.per_page >= tight.per_page:
        return spaced
    return tight


def _grid_marks(layout: GridLayout, w: float, h: float, bleed: float, paper: Paper) -> list[Item]:
    xs: list[float] = []
    for c in range(layout.cols):
        x0 = layout.left + c * (w + layout.gutter)
        xs += [x0, x0 + w]
    ys: list[float] = []
    for r in range(layout.rows):
        y0 = layout.top + r * (h + layout.gutter)
        ys += [y0, y0 + h]
    xs = sorted({round(x, 4) for x in xs})
    ys = sorted({round(y, 4) for y in ys})
    block_right = layout.left + layout.cols * w + (layout.cols - 1) * layout.gutter
    block_bottom = layout.top + layout.rows * h + (layout.rows - 1) * layout.gutter
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
) -> list[Page]:
    """Equal-size pieces n-up; each fronts page is followed by its backs page when `backs`."""
    if not pieces:
        raise UsageError("nothing to print: the spec has no pieces of this kind")
    w = max(p.width for p in pieces)
    h = max(p.height for p in pieces)
    layout = grid_layout(paper, w, h, bleed)
    pages: list[Page] = []
    per = layout.per_page
    sheets = (len(pieces) + per - 1) // per
    for sheet in range(sheets):
        batch = pieces[sheet * per:(sheet + 1) * per]
        slots = {}
        for i, piece in enumerate(batch):
            slots[(i // layout.cols, i % layout.cols)] = piece
        fronts: list[Item] = []
        backs_items: list[Item] = []
        proof_items: list[Item] = []
        for (r, c), piece in slots.items():
            x = layout.left + c * (w + layout.gutter)
            y = layout.top + r * (h + layout.gutter)
            clip = None
            if layout.gutter < 2 * bleed:
                # Pieces share cut lines: bleed only where no neighbour's art would be covered.
                left = 0.0 if (r, c - 1) in slots else bleed
                right = 0.0 if (r, c + 1) in slots else bleed
                top = 0.0 if (r - 1, c) in slots else bleed
                bottom = 0.0 if (r + 1, c) in slots else bleed
                clip = (-left, -top, piece.width + left + right, piece.height + top + bottom)
            else:
                clip = (-bleed, -bleed, piece.width + 2 * bleed, piece.height + 2 * bleed)
            fronts.append(_piece_group(piece, x, y, piece.front, clip))
            if proof:
                proof_items += _proof_items(x, y, piece.width, piece.height, bleed)
            if backs and piece.back is not None:
                placed = _back_placement(piece, x, y, paper, duplex, clip)
                backs_items.append(placed)
        marks = _grid_marks(layout, w, h, bleed, paper)
        legend = [_proof_legend(paper.width, min(3.5, layout.top - bleed - 0.5))] if proof else []
        pages.append(
            Page(paper.width, paper.height, tuple(fronts + marks + proof_items + legend),
                 label=f"fronts {sheet + 1}")
        )
        if backs:
            pages.append(Page(paper.width, paper.height, tuple(backs_items), label=f"backs {sheet + 1}"))
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
) -> list[Page]:
    """Irregular pieces (tiles) packed on shelves, tallest first, with corner marks at each
    piece's bounding box drawn in the gaps between pieces."""
    if not pieces:
        raise UsageError("nothing to print: the spec has no pieces of this kind")
    reach = bleed + MARK_GAP_MM + TILE_MARK_MM
    gap = 2 * reach
    margin = reach + EDGE_MM
    usable_w = paper.width - 2 * margin
    usable_h = paper.height - 2 * margin
    for piece in pieces:
        if piece.width > usable_w + 1e-9 or piece.height > usable_h + 1e-9:
            raise UsageError(
                f"piece {piece.name or '?'} ({piece.width:g} x {piece.height:g} mm) does not fit on "
                f"{paper.name} paper with bleed and marks; choose a larger paper"
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
    for number, placed in enumerate(placed_pages, start=1):
        fronts: list[Item] = []
        marks: list[Item] = []
        proof_items: list[Item] = []
        backs_items: list[Item] = []
        for piece, px, py in placed:
            fronts.append(_piece_group(piece, px, py, piece.front, None))
            marks += corner_marks(Box(px, py, piece.width, piece.height), bleed, TILE_MARK_MM)
            if proof:
                proof_items += _proof_items(px, py, piece.width, piece.height, bleed)
            if backs and piece.back is not None:
                backs_items.append(_back_placement(piece, px, py, paper, duplex, None))
        legend = [_proof_legend(paper.width, 3.0)] if proof else []
        pages.append(Page(paper.width, paper.height, tuple(fronts + marks + proof_items + legend),
                          label=f"fronts {number}"))
        if backs:
            pages.append(Page(paper.width, paper.height, tuple(backs_items), label=f"backs {number}"))
    return pages


def corner_marks(trim: Box, bleed: float, length: float) -> list[Item]:
    """Two ticks at each corner of `trim`, on the extension of its edges, outside the bleed."""
    off = bleed + MARK_GAP_MM
    x0, y0 = trim.x, trim.y
    x1, y1 = trim.x + trim.width, trim.y + trim.height
    items: list[Item] = []
    for x, sx in ((x0, -1), (x1, 1)):
        for y, sy in ((y0, -1), (y1, 1)):
            items.append(Line(x + sx * off, y, x + sx * (off + length), y, MARK_COLOUR, MARK_WIDTH_MM))
            items.append(Line(x, y + sy * off, x, y + sy * (off + length), MARK_COLOUR, MARK_WIDTH_MM))
    return items


# ----- one piece per page (boards) -------------------------------------------------------------


def one_up(piece: Piece, paper: Paper, *, bleed: float = BLEED_MM, proof: bool = False,
           label: str = "") -> Page:
    """A single piece centred on the page, with TrimBox/BleedBox and corner crop marks."""
    need = 2 * (bleed + MARK_GAP_MM + MARK_MIN_MM + EDGE_MM)
    if piece.width + need > paper.width + 1e-9 or piece.height + need > paper.height + 1e-9:
        raise UsageError(
            f"{piece.name or 'the piece'} is {piece.width:.0f} x {piece.height:.0f} mm and does not "
            f"fit on {paper.name} paper ({paper.width:g} x {paper.height:g} mm) with {bleed:g} mm "
            f"bleed and crop marks; choose a larger paper (e.g. a custom WxHmm size)"
        )
    x = (paper.width - piece.width) / 2
    y = (paper.height - piece.height) / 2
    room = min(x, y) - bleed - MARK_GAP_MM - EDGE_MM
    trim = Box(x, y, piece.width, piece.height)
    items: list[Item] = [Group(piece.front, translate(x, y),
                               (-bleed, -bleed, piece.width + 2 * bleed, piece.height + 2 * bleed))]
    items += corner_marks(trim, bleed, min(MARK_LEN_MM, room))
    if proof:
        items += _proof_items(x, y, piece.width, piece.height, bleed)
        items.append(_proof_legend(paper.width, min(3.5, y - bleed - 0.5)))
    return Page(paper.width, paper.height, tuple(items), trim=trim, bleed=trim.grow(bleed),
                label=label or piece.name)
