"""Print documents: each printable component of an edition as a scene Document, and writing
documents out as PDF or SVG.

This is the library face of printing: the CLI parses options and calls `render_component` and
`write_document`; `toolkit.render.build` assembles the whole print-and-play set from them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from toolkit.errors import UsageError
from toolkit.render import automa as automa_mod
from toolkit.render import boards as boards_mod
from toolkit.render import doodle as doodle_mod
from toolkit.render import tiles as tiles_mod
from toolkit.render.imposition import BLEED_MM, Duplex, Piece, impose_grid, impose_shelves, one_up
from toolkit.render.output import check_targets, write_bytes
from toolkit.render.paper import Paper, parse_paper
from toolkit.render.scene import Box, Document, Group, Page, translate
from toolkit.specs.models import Edition

COMPONENTS = ("sheet", "pad", "cards", "tiles", "automa", "boards", "kit")
"""What `patchwork render` can print."""
FORMATS = ("pdf", "svg")
MAX_SHEETS = 5000
"""A pad beyond this is surely a typo (the published pad has 80 sheets)."""


@dataclass(frozen=True)
class RenderOptions:
    """Everything a component needs besides its edition."""

    paper: Paper = field(default_factory=lambda: parse_paper("a4"))
    backs: bool = False
    """Cards and tiles: follow each fronts page with its backs page."""
    proof: bool = False
    """Overlay trim, bleed and safe-area guides."""
    duplex: Duplex = Duplex()
    sheets: int = 1
    """Pad: number of physical sheets."""
    double_sided: bool = True
    """Pad: print the score sheet on both sides of each sheet."""
    numbered: bool = False
    """Pad: print a sheet number in the corner."""

    def __post_init__(self) -> None:
        if not 1 <= self.sheets <= MAX_SHEETS:
            raise UsageError(f"--sheets must be between 1 and {MAX_SHEETS}, got {self.sheets}")


def sheet_document(edition: Edition, options: RenderOptions) -> Document:
    symbol = doodle_mod.sheet_symbol(edition, options.paper)
    return Document(f"{edition.title} score sheet", (doodle_mod.sheet_page(options.paper),), (symbol,))


def pad_document(edition: Edition, options: RenderOptions) -> Document:
    """N sheets, one drawn sheet placed on every page (so the file barely grows with N)."""
    symbol = doodle_mod.sheet_symbol(edition, options.paper)
    sides = 2 if options.double_sided else 1
    pages: list[Page] = []
    for sheet in range(1, options.sheets + 1):
        for _side in range(sides):
            pages.append(doodle_mod.sheet_page(options.paper, str(sheet) if options.numbered else None))
    kind = "two-sided" if sides == 2 else "one-sided"
    return Document(f"{edition.title} score pad ({options.sheets} {kind} sheets)", tuple(pages), (symbol,))


def _grid(title: str, pieces: list[Piece], options: RenderOptions) -> Document:
    pages = impose_grid(pieces, options.paper, backs=options.backs, duplex=options.duplex, proof=options.proof)
    return Document(title, tuple(pages))


def cards_document(edition: Edition, options: RenderOptions) -> Document:
    return _grid(f"{edition.title} patch and start cards", doodle_mod.card_pieces(edition), options)


def automa_document(edition: Edition, options: RenderOptions) -> Document:
    return _grid(f"{edition.title} Automa cards", automa_mod.automa_pieces(edition), options)


def tiles_document(edition: Edition, options: RenderOptions) -> Document:
    pages = impose_shelves(tiles_mod.tile_pieces(edition), options.paper, backs=options.backs,
                           duplex=options.duplex, proof=options.proof)
    return Document(f"{edition.title} patch tiles", tuple(pages))


def board_pages(edition: Edition, options: RenderOptions) -> list[Page]:
    """One quilt board per player (up to the edition's player cap) and the time board, 1-up."""
    quilt = boards_mod.quilt_board(edition)
    players = edition.players_max if edition.players_max is not None else edition.players_min
    pages = []
    for player in range(1, max(1, players) + 1):
        pages.append(one_up(quilt, options.paper, proof=options.proof, label=f"quilt board {player}"))
    pages.append(one_up(boards_mod.time_board(edition, options.paper), options.paper, proof=options.proof,
                        label="time board"))
    return pages


def boards_document(edition: Edition, options: RenderOptions) -> Document:
    return Document(f"{edition.title} boards", tuple(board_pages(edition, options)))


def kit_document(edition: Edition, options: RenderOptions) -> Document:
    """The print-and-play kit of a time-track edition: boards, then the tiles."""
    pages: list[Page] = []
    for page in board_pages(edition, options):
        pages.append(page)
        if options.backs:
            # Boards are one-sided; an empty back keeps every later fronts/backs pair aligned
            # when the whole kit goes through a duplex printer.
            pages.append(Page(page.width, page.height, (), label="blank back"))
    pages += impose_shelves(tiles_mod.tile_pieces(edition), options.paper, backs=options.backs,
                            duplex=options.duplex, proof=options.proof)
    return Document(f"{edition.title} print-and-play kit", tuple(pages))


_BUILDERS = {
    "sheet": sheet_document,
    "pad": pad_document,
    "cards": cards_document,
    "tiles": tiles_document,
    "automa": automa_document,
    "boards": boards_document,
    "kit": kit_document,
}


def render_component(kind: str, edition: Edition, options: RenderOptions) -> Document:
    """The document of one component kind for an edition."""
    try:
        builder = _BUILDERS[kind]
    except KeyError:
        raise UsageError(f"unknown component '{kind}': expected one of {', '.join(COMPONENTS)}") from None
    return builder(edition, options)


def piece_document(title: str, piece: Piece, bleed: float = BLEED_MM) -> Document:
    """One piece alone on a page the size of its bleed box (for SVG exports and print shops)."""
    w, h = piece.width + 2 * bleed, piece.height + 2 * bleed
    trim = Box(bleed, bleed, piece.width, piece.height)
    page = Page(w, h, (Group(piece.front, translate(bleed, bleed), (0.0, 0.0, w, h)),), trim=trim,
                bleed=Box(0, 0, w, h), label=piece.name)
    return Document(title, (page,))


# ----- output ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Written:
    """One file written."""

    path: Path
    pages: int
    size: int


def encode(document: Document, fmt: str, flip: str | None = None) -> list[bytes]:
    """The bytes of a document: one PDF, or one SVG per page."""
    if fmt == "pdf":
        from toolkit.render.pdf import document_pdf

        return [document_pdf(document, flip)]
    if fmt == "svg":
        from toolkit.render.svg import document_svgs

        return document_svgs(document)
    raise UsageError(f"unknown format '{fmt}': expected pdf or svg")


def svg_paths(out: Path, pages: int) -> list[Path]:
    """A one-page SVG goes to `out`; page i of a longer document to `<stem>-<i>.svg`."""
    if pages == 1:
        return [out]
    digits = max(2, len(str(pages)))
    return [out.with_name(f"{out.stem}-{i:0{digits}d}{out.suffix}") for i in range(1, pages + 1)]


def write_document(document: Document, fmt: str, out: str | Path, flip: str | None = None) -> list[Written]:
    """Encode everything in memory first, check every target, then write each file atomically.

    Raises OutputError (before writing anything) when a target cannot be written.
    """
    out = Path(out)
    if out.is_dir():
        raise UsageError(f"--out {out} is a directory; give a file name such as {out / ('print.' + fmt)}")
    check_targets([out])
    blobs = encode(document, fmt, flip)
    paths = [out] if fmt == "pdf" else svg_paths(out, len(blobs))
    check_targets(paths)
    written = []
    for path, blob in zip(paths, blobs):
        write_bytes(path, blob)
        written.append(Written(path, len(document.pages) if fmt == "pdf" else 1, len(blob)))
    return written
