"""Print documents: each printable component of an edition as a scene Document, and writing
documents out as PDF, SVG or PNG.

This is the library face of printing: the CLI parses options and calls `render_component` and
`write_document`; `toolkit.render.build` assembles the whole print-and-play set from them.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from toolkit.errors import UsageError
from toolkit.render import automa as automa_mod
from toolkit.render import challenge as challenge_mod
from toolkit.render import boards as boards_mod
from toolkit.render import doodle as doodle_mod
from toolkit.render import reference as reference_mod
from toolkit.render import tiles as tiles_mod
from toolkit.render import tokens as tokens_mod
from toolkit.render.components import default_edition as family_default_edition
from toolkit.render.components import level_spaces, require_component, require_solo_opponent
from toolkit.render.imposition import (
    BLEED_MM,
    MAX_BLEED_MM,
    Duplex,
    Layout,
    Piece,
    gutter_note,
    impose_grid,
    impose_shelves,
    impose_single,
    one_up,
    split_to_fit,
)
from toolkit.render.output import (  # noqa: F401  (FORMATS: callers read it here too)
    FORMATS, check_targets, not_own, remember, write_all, write_bytes)
from toolkit.render.paper import Paper, parse_paper
from toolkit.render.scene import MIN_TEXT_PT, Document, Group, Image, Page, Rect, Use, rescaled, translate
from toolkit.render.theme import DEFAULT_THEME, Theme
from toolkit.specs.models import Edition

MAX_SHEETS = 5000
"""A pad beyond this is surely a typo (the published pad has 80 sheets)."""
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
}
"""Card sizes print shops sell, width x height in mm (cards are designed at 63 x 88 mm)."""
DEFAULT_DPI = 300


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
    layout: Layout = Layout()
    """Printer margin, gutters, and n-up sheets or one piece per page."""
    card_size: str | None = None
    """Cards: one of CARD_SIZES, or None for the design size (63 x 88 mm)."""
    card_trim: tuple[float, float] | None = None
    """Cards: an exact trim (width, height) in mm, e.g. a shop template's; wins over card_size."""
    seed: int = 1
    """Challenge sheets: the seed of the first sheet."""
    count: int = 1
    """Challenge sheets: how many (consecutive seeds)."""
    bleed: float = BLEED_MM
    """How far art runs past every cut line, 0 to MAX_BLEED_MM."""
    theme: Theme = DEFAULT_THEME
    """The look: colours, fonts, card back, per-patch pictures or patterns, title and credits."""
    solo: bool = False
    """Kit, boards, tokens, rules: as for solo play against the edition's solo opponent (one quilt
    board, the time board with its level spaces marked, the level marker, the solo rules; the kit
    adds the Automa cards)."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.bleed <= MAX_BLEED_MM:
            raise UsageError(f"--bleed must be between 0 and {MAX_BLEED_MM:g} mm, got {self.bleed:g}")
        if not 1 <= self.sheets <= MAX_SHEETS:
            raise UsageError(f"--sheets must be between 1 and {MAX_SHEETS}, got {self.sheets}")
        if self.card_size is not None and self.card_size not in CARD_SIZES:
            raise UsageError(
                f"unknown card size '{self.card_size}': expected one of {', '.join(CARD_SIZES)}"
            )


def sheet_document(edition: Edition, options: RenderOptions) -> Document:
    symbol = doodle_mod.sheet_symbol(edition, options.paper, options.theme.title)
    return Document(f"{edition.title} score sheet", (doodle_mod.sheet_page(options.paper),), (symbol,))


def pad_document(edition: Edition, options: RenderOptions) -> Document:
    """N sheets, one drawn sheet placed on every page (so the file barely grows with N)."""
    symbol = doodle_mod.sheet_symbol(edition, options.paper, options.theme.title)
    sides = 2 if options.double_sided else 1
    pages: list[Page] = []
    for sheet in range(1, options.sheets + 1):
        for _side in range(sides):
            pages.append(doodle_mod.sheet_page(options.paper, str(sheet) if options.numbered else None))
    kind = "two-sided" if sides == 2 else "one-sided"
    return Document(f"{edition.title} score pad ({options.sheets} {kind} sheets)", tuple(pages), (symbol,))


def resize_card(piece: Piece, size: tuple[float, float], bleed: float = BLEED_MM) -> Piece:
    """A card redrawn at another trim size: its art scaled to fit and centred on a field of its
    own background colour, text kept at MIN_TEXT_PT or more."""
    width, height = size
    s = min(width / piece.width, height / piece.height)
    dx, dy = (width - piece.width * s) / 2, (height - piece.height * s) / 2

    def redraw(items):
        if items is None:
            return None
        field = items[0].fill if items and isinstance(items[0], Rect) and items[0].fill else "#ffffff"
        return (Rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, None, 0.1, field),
                Group(rescaled(items, s, MIN_TEXT_PT), translate(dx, dy)))

    return Piece(width, height, redraw(piece.front), redraw(piece.back), piece.name)


def _cards(pieces: list[Piece], options: RenderOptions) -> list[Piece]:
    size = options.card_trim or (CARD_SIZES[options.card_size] if options.card_size else None)
    if size is None:
        return pieces
    return [resize_card(piece, size, options.bleed) for piece in pieces]


def grid_pages(pieces: list[Piece], options: RenderOptions) -> list[Page]:
    return impose_grid(pieces, options.paper, bleed=options.bleed, backs=options.backs,
                       duplex=options.duplex, proof=options.proof, layout=options.layout)


def grid_notes(pieces: list[Piece], options: RenderOptions, what: str) -> tuple[str, ...]:
    """The gutter note of `pieces` laid out n-up (see imposition.gutter_note), if any."""
    if not pieces:
        return ()
    w = max(p.width for p in pieces)
    h = max(p.height for p in pieces)
    note = gutter_note(options.paper, w, h, options.bleed, options.layout, len(pieces), what)
    return (note,) if note else ()


def _grid(title: str, pieces: list[Piece], options: RenderOptions, what: str = "cards") -> Document:
    return Document(title, tuple(grid_pages(pieces, options)), notes=grid_notes(pieces, options, what))


def cards_document(edition: Edition, options: RenderOptions) -> Document:
    return _grid(f"{edition.title} patch and start cards",
                 _cards(doodle_mod.card_pieces(edition, options.bleed, options.theme), options), options)


def automa_document(edition: Edition, options: RenderOptions) -> Document:
    return _grid(f"{edition.title} Automa cards",
                 _cards(automa_mod.automa_pieces(edition, options.bleed, options.theme), options), options)


def tile_pages(pieces: list[Piece], options: RenderOptions) -> list[Page]:
    return impose_shelves(pieces, options.paper, bleed=options.bleed, backs=options.backs,
                          duplex=options.duplex, proof=options.proof, layout=options.layout)


def tiles_document(edition: Edition, options: RenderOptions) -> Document:
    return Document(f"{edition.title} patch tiles",
                    tuple(tile_pages(tiles_mod.tile_pieces(edition, bleed=options.bleed, theme=options.theme), options)))


def board_pages(edition: Edition, options: RenderOptions) -> list[Page]:
    """One quilt board per player (up to the edition's player cap) and the time board, 1-up."""
    bleed = options.bleed
    quilt = boards_mod.quilt_board(edition, bleed, options.theme)
    players = edition.players_max if edition.players_max is not None else edition.players_min
    if options.solo:
        players = 1  # the Automa has no quilt board
    levels = level_spaces(edition) if options.solo else ()
    time_board = boards_mod.time_board(edition, options.paper, options.layout.margin, bleed, levels, options.theme)
    if options.layout.mode == "single":
        pieces = [quilt] * max(1, players) + [time_board]
        return impose_single(pieces, bleed=bleed, proof=options.proof)
    pages = []
    margin = options.layout.margin
    boards = [(quilt, f"quilt board {player}") for player in range(1, max(1, players) + 1)]
    boards.append((time_board, "time board"))
    for board, label in boards:
        # small paper: a board in two halves, each on its own page, butted together at play
        parts = split_to_fit(board, options.paper, bleed, margin)
        for part in parts:
            name = label if len(parts) == 1 else f"{label}, {part.name.split()[-2]} half"
            pages.append(one_up(part, options.paper, bleed=bleed, proof=options.proof, label=name, margin=margin))
    return pages


def boards_document(edition: Edition, options: RenderOptions) -> Document:
    return Document(f"{edition.title} boards", tuple(board_pages(edition, options)))


def tokens_document(edition: Edition, options: RenderOptions) -> Document:
    return _grid(f"{edition.title} tokens",
                 tokens_mod.token_pieces(edition, options.bleed, options.solo, options.theme), options, "tokens")


def rules_document(edition: Edition, options: RenderOptions) -> Document:
    pages = reference_mod.reference_layout(edition, options.paper, options.layout.margin, bleed=options.bleed,
                                           solo=options.solo, theme=options.theme)
    return Document(f"{edition.title} {'solo rules' if options.solo else 'rules reference'}", tuple(pages))


def _kit_boards(edition: Edition, options: RenderOptions) -> list[Page]:
    pages: list[Page] = []
    for page in board_pages(edition, options):
        pages.append(page)
        if options.backs:
            # Boards are one-sided; an empty back keeps every later fronts/backs pair aligned
            # when the whole kit goes through a duplex printer.
            pages.append(Page(page.width, page.height, (), label="blank back"))
    return pages


def _kit_tiles(edition: Edition, options: RenderOptions) -> list[Page]:
    return tile_pages(tiles_mod.tile_pieces(edition, bleed=options.bleed, theme=options.theme), options)


def _kit_cards(edition: Edition, options: RenderOptions) -> list[Page]:
    return grid_pages(_cards(doodle_mod.card_pieces(edition, options.bleed, options.theme), options), options)


KIT_PARTS: tuple[tuple[str, Callable[[Edition, RenderOptions], list[Page]]], ...] = (
    ("boards", _kit_boards),
    ("tiles", _kit_tiles),
    ("cards", _kit_cards),
)
"""The playing pieces a kit holds, in print order: each one the edition's family prints. Its
tokens and the rules reference follow (score sheets come from the pad)."""


def kit_document(edition: Edition, options: RenderOptions) -> Document:
    """Everything to play an edition: the boards, tiles or cards its family prints, its tokens and
    the rules reference. A lone token (Doodle's) is cut from the foot of the rules reference rather
    than from a sheet of its own. With `options.solo`, the solo kit: one quilt board, the time
    board with the level spaces marked, the tiles, both Automa decks, the tokens with the level
    marker and the solo rules."""
    prints = require_component(edition, "kit").info.components
    pages: list[Page] = []
    for part, part_pages in KIT_PARTS:
        if part in prints:
            pages += part_pages(edition, options)
    notes: tuple[str, ...] = ()
    if "cards" in prints:
        notes += grid_notes(_cards(doodle_mod.card_pieces(edition, options.bleed, options.theme), options), options, "cards")
    if options.solo:
        automa = _cards(automa_mod.automa_pieces(edition, options.bleed, options.theme), options)
        first = len(pages) + 1
        pages += grid_pages(automa, options)
        notes += grid_notes(automa, options, "Automa cards")
        # the decks alone, for a player who owns the game (boards, tiles, tokens) but not its Automa
        notes += (f"the Automa decks are pages {first}-{len(pages)}{' (fronts and backs)' if options.backs else ''}: "
                  f"print only those if you own the game's other pieces",)
    tokens = tokens_mod.token_pieces(edition, options.bleed, options.solo, options.theme)
    lone = tokens if len(tokens) == 1 else []
    if not lone:
        pages += grid_pages(tokens, options)
        notes += grid_notes(tokens, options, "tokens")
    pages += reference_mod.reference_pages(edition, options, lone, options.solo)
    kind = "solo kit" if options.solo else "print-and-play kit"
    return Document(f"{edition.title} {kind}", tuple(pages), notes=notes)


@dataclass(frozen=True)
class Component:
    """One printable component: how its document is built and what an edition needs to print it
    (besides its family listing the component in `FamilyInfo.components`)."""

    build: Callable[[Edition, RenderOptions], Document]
    solo_opponent: bool = False
    """Drawn from the edition's solo opponent deck (Automa), which only some editions bring."""


COMPONENT_TABLE: dict[str, Component] = {
    "sheet": Component(sheet_document),
    "pad": Component(pad_document),
    "cards": Component(cards_document),
    "tiles": Component(tiles_document),
    "automa": Component(automa_document, solo_opponent=True),
    "boards": Component(boards_document),
    "kit": Component(kit_document),
    "tokens": Component(tokens_document),
    "rules": Component(rules_document),
    "challenge": Component(challenge_mod.challenge_document),
}
"""Every component `patchwork render` prints, by name; which of them an edition prints is its
family's `components`."""
COMPONENTS = tuple(COMPONENT_TABLE)
"""What `patchwork render` can print."""


def _component(kind: str) -> Component:
    try:
        return COMPONENT_TABLE[kind]
    except KeyError:
        raise UsageError(f"unknown component '{kind}': expected one of {', '.join(COMPONENTS)}") from None


def default_edition(kind: str) -> str:
    """The bundled edition a component prints when none is named."""
    return family_default_edition(kind, _component(kind).solo_opponent)


PATCH_COMPONENTS = ("cards", "tiles", "kit")
"""What draws one piece a patch (a tile or a card), so its size follows the patch count."""
MAX_PRINTED_PATCHES = 500
"""The most patches (copies counted) one file prints: fifteen times a bundled edition's (33),
about 50 sheets of tiles; a bigger set is surely a slip and would take minutes to lay out."""
SOLO_COMPONENTS = ("kit", "boards", "tokens", "rules")
"""What `--solo` prints differently (see RenderOptions.solo)."""


def render_component(kind: str, edition: Edition, options: RenderOptions) -> Document:
    """The document of one component kind for an edition; one UsageError when the edition's
    family does not print it (or it needs a solo opponent deck the edition lacks)."""
    component = _component(kind)
    require_component(edition, kind)
    if options.solo and kind not in SOLO_COMPONENTS:
        raise UsageError(f"--solo changes the {', '.join(SOLO_COMPONENTS)}; {kind} print the same for solo play")
    if component.solo_opponent:
        require_solo_opponent(edition)
    elif options.solo:
        require_solo_opponent(edition, f"--solo prints the {kind}")
    if kind in PATCH_COMPONENTS:
        pieces = sum(max(1, patch.copies) for patch in edition.all_patches())
        if pieces > MAX_PRINTED_PATCHES:
            raise UsageError(f"edition '{edition.name}' has {pieces:,} patches to print; a printed {kind} holds at "
                             f"most {MAX_PRINTED_PATCHES:,} (a bundled edition has 33)")
    theme = options.theme
    if theme.deck_places or theme.patch_places:
        from toolkit.render.theme_file import check_names

        check_names(theme, edition)
    document = component.build(edition, options)
    warnings = picture_warnings(document, theme)
    if warnings:
        document = replace(document, notes=document.notes + warnings)
    return document if theme.fonts is None else replace(document, fonts=theme.fonts)


PRINT_PPI = 300
"""Pixels per inch a picture needs at its printed size to print sharp."""
WARNING = "warning: "
"""How a note that asks for action (a picture too coarse to print well) begins."""


def _placed_pictures(items, scale: float, symbols, found: dict[bytes, float]) -> None:
    """For each picture in `items` (drawn `scale` times its size), the widest it is printed, mm."""
    for item in items:
        if isinstance(item, Image):
            found[item.data] = max(found.get(item.data, 0.0), item.width * scale)
        elif isinstance(item, Group):
            a, b, c, d = item.transform[:4]
            _placed_pictures(item.items, scale * abs(a * d - b * c) ** 0.5, symbols, found)
        elif isinstance(item, Use) and item.symbol in symbols:
            _placed_pictures(symbols[item.symbol].items, scale, symbols, found)


def picture_warnings(document: Document, theme: Theme) -> tuple[str, ...]:
    """One warning for each theme picture printed at under PRINT_PPI, naming the file, its
    pixels, the size it prints at and its ppi there (at the largest size it prints)."""
    given = [theme.card_back_art, theme.automa_back_art, theme.default_look.art,
             *(look.art for _, look in theme.patches)]
    arts = [art for art in given if art is not None]
    if not arts:
        return ()
    widest: dict[bytes, float] = {}
    symbols = {symbol.name: symbol for symbol in document.symbols}
    for page in document.pages:
        _placed_pictures(page.items, 1.0, symbols, widest)
    warnings = []
    for art in dict.fromkeys(arts):
        width_mm = widest.get(art.data)
        if not width_mm:
            continue
        ppi = art.width / (width_mm / 25.4)
        if ppi < PRINT_PPI - 0.5:
            height_mm = width_mm * art.height / art.width
            need = (round(art.width * PRINT_PPI / ppi), round(art.height * PRINT_PPI / ppi))
            warnings.append(f"{WARNING}picture {art.path} ({art.width} x {art.height} px) prints at "
                            f"{width_mm:.0f} x {height_mm:.0f} mm (before cropping): {ppi:.0f} ppi; under "
                            f"{PRINT_PPI} ppi it prints soft or blocky: give it at least {need[0]} x {need[1]} px")
    return tuple(warnings)


def piece_document(title: str, piece: Piece, bleed: float = BLEED_MM, theme: Theme = DEFAULT_THEME) -> Document:
    """One piece alone on a page the size of its bleed box (for SVG exports and print shops), its
    text in the theme's fonts."""
    return Document(title, tuple(impose_single([piece], bleed=bleed)), fonts=theme.fonts)


# ----- output ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Written:
    """One file written."""

    path: Path
    pages: int
    size: int
    holds: str = ""
    """What the file holds, in words (build summary)."""
    sheets: int = 0
    """Sheets of paper it prints on (0: not meant for printing, e.g. an SVG for editing)."""
    sides: str = ""
    """`one-sided` or `two-sided, flip on the long edge`."""
    cut: str = ""
    """What to cut, in words."""
    notes: tuple[str, ...] = ()
    """The document's notes (how it was laid out), on the file that prints it."""


def encode(document: Document, fmt: str, flip: str | None = None, *, cmyk: bool = False,
           dpi: int = DEFAULT_DPI, transparent: bool = False, cut_layer: bool = True,
           pdfx: bytes | None = None) -> list[bytes]:
    """The bytes of a document: one PDF, or one SVG or PNG per page (`transparent`: RGBA PNGs,
    clear where nothing is drawn). `cut_layer`: a PDF carries its pages' cut lines on a
    CutContour layer (for a print shop's cutter; a home printer would print them)."""
    if fmt == "pdf":
        from toolkit.render.pdf import document_pdf

        return [document_pdf(document, flip, cmyk, cut_layer, pdfx)]
    if fmt == "svg":
        from toolkit.render.svg import document_svgs

        return document_svgs(document)
    if fmt == "png":
        from toolkit.render.png import document_pngs

        return document_pngs(document, dpi, cmyk, transparent)
    raise UsageError(f"unknown format '{fmt}': expected pdf, svg or png")


def page_paths(out: Path, pages: int, labels: list[str] | None = None) -> list[Path]:
    """A one-page SVG or PNG goes to `out`; page i of a longer document to `<stem>-<i>.<ext>`, or
    with `labels` to `<stem>-<i>-<label>.<ext>` (e.g. `cards-003-D02-front.png`, one card face a
    file, as print-on-demand shops take them)."""
    if pages == 1 and not labels:
        return [out]
    digits = max(2, len(str(pages)))
    if labels:
        digits = max(3, digits)
        return [out.with_name(f"{out.stem}-{i:0{digits}d}-{_slug(label)}{out.suffix}")
                for i, label in enumerate(labels, start=1)]
    return [out.with_name(f"{out.stem}-{i:0{digits}d}{out.suffix}") for i in range(1, pages + 1)]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-") or "page"



CUT_FOLDER = "cut"
"""The subfolder beside the printed files that holds their SVG cut files."""


def cut_paths(document: Document, fmt: str, paths: list[Path]) -> list[tuple[int, Path]]:
    """(page index, path) of the cut file of every page with cut lines, in a `cut/` folder beside
    the output: for a PDF `<stem>-cut-<page>.svg` (page as numbered in the PDF; `<stem>-cut.svg`
    for a one-page PDF), for a picture or SVG of a page `<its stem>-cut.svg`."""
    pages = [i for i, page in enumerate(document.pages) if page.cut]
    if fmt != "pdf":
        return [(i, paths[i].parent / CUT_FOLDER / f"{paths[i].stem}-cut.svg") for i in pages]
    out = paths[0]
    folder = out.parent / CUT_FOLDER
    if len(document.pages) == 1:
        return [(i, folder / f"{out.stem}-cut.svg") for i in pages]
    digits = max(2, len(str(len(document.pages))))
    return [(i, folder / f"{out.stem}-cut-{i + 1:0{digits}d}.svg") for i in pages]


def cut_file(document: Document, index: int) -> bytes:
    """The SVG cut file of one page of the document."""
    from toolkit.render.svg import cut_svg

    page = document.pages[index]
    return cut_svg(page, f"{document.title} - cut lines of page {index + 1}")


def write_document(document: Document, fmt: str, out: str | Path, flip: str | None = None, *,
                   cmyk: bool = False, dpi: int = DEFAULT_DPI, force: bool = False,
                   labelled: bool = False, cut_files: bool = True, transparent: bool = False,
                   cut_layer: bool = False, pdfx: bytes | None = None) -> list[Written]:
    """Encode everything in memory first, check every target, then write each file atomically.
    `labelled`: SVG and PNG files are named by what each page holds (see `page_paths`);
    `cut_files`: pages with die-cut pieces also get an SVG cut file each (see `cut_paths`);
    `cut_layer`: a PDF also carries them on its CutContour layer (off by default: a home printer
    prints that layer as a magenta hairline on every outline; print shops' outputs turn it on).

    Without `force`, refuses (before writing anything) when a target already exists that is not
    the toolkit's own unchanged file from an earlier run (see output.is_own). Raises
    OutputError (before writing anything) when a target cannot be written.
    """
    out = Path(out)
    if out.is_dir():
        raise UsageError(f"--out {out} is a directory; give a file name such as {out / ('print.' + fmt)}")
    if fmt == "png":
        from toolkit.render.png import check_dpi

        check_dpi(dpi)
    check_targets([out])
    labels = [page.label or "page" for page in document.pages] if labelled else None
    paths = [out] if fmt == "pdf" else page_paths(out, len(document.pages), labels)
    cuts = cut_paths(document, fmt, paths) if cut_files else []
    paths_and_cuts = paths + [path for _, path in cuts]
    if not force:  # the toolkit's own files of an earlier run are replaced; anything else is kept
        existing = not_own(paths_and_cuts)
        if existing:
            more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
            raise UsageError(f"{existing[0]}{more} already exists and was not written by this toolkit (or was "
                             f"changed since); use --force to overwrite or --out to choose another name")
    blobs = encode(document, fmt, flip, cmyk=cmyk, dpi=dpi, transparent=transparent, cut_layer=cut_layer, pdfx=pdfx)
    cut_blobs = [cut_file(document, index) for index, _ in cuts]
    check_targets(paths_and_cuts)
    files = dict(zip(paths, blobs))
    files.update((path, blob) for (_, path), blob in zip(cuts, cut_blobs))
    write_all(files)  # every file or none: a full disk leaves no card faces half the deck
    remember(files)
    written = [Written(path, len(document.pages) if fmt == "pdf" else 1, len(blob),
                       notes=document.notes if number == 0 else ())
               for number, (path, blob) in enumerate(zip(paths, blobs))]
    written += [Written(path, 1, len(blob), holds=f"cut lines of page {index + 1}", cut="cut file")
                for (index, path), blob in zip(cuts, cut_blobs)]
    return written
