"""A recorded game drawn at any move (`patchwork show`): a page built from the same scene the
print kit uses, with the position on it.

A time-track game: each seat's printed quilt board (toolkit.render.boards.quilt_board) with the
patches on it in their colours and ids, the latest placement in a colour of its own; the printed
time board (boards.time_board) with both time tokens standing on their spaces and the leather
patches already taken crossed off; the bonus tile (tiles.bonus_piece) beside the quilt that holds
it; the market circle as printed tiles (tiles.tile_front), the window framed and the neutral
token before it. A Doodle game: each printed score sheet (doodle.sheet_items) shaded in pencil,
the start patch and the latest drawing in colours of their own, each round's scored rectangle
outlined in its round's colour with its points, the score boxes filled in and the special actions
used crossed off; the circle of printed cards (doodle.patch_card) with the token card framed.

Which of these a page holds follows the Position (toolkit.families.view) and the family's
printed components, never the family's name. `document(...)` gives one page per position asked
for; `write(...)` encodes it as SVG, PDF or PNG, or a GIF that steps through the whole game.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit.errors import UsageError
from toolkit.families import family_of
from toolkit.families.view import DRAWING, LEATHER, START, Board, Position
from toolkit.render import boards as boards_mod
from toolkit.render import doodle as doodle_mod
from toolkit.render import tiles as tiles_mod
from toolkit.render.paper import parse_paper
from toolkit.render.scene import (Circle, Document, Group, Item, Line, Page, Rect, Text, compose,
                                  fit_text_size, scale, translate)
from toolkit.render.theme import GREY, INK, darker, leather_patch, lighter, patch_colour, shape_cells

FORMATS = ("svg", "pdf", "png", "gif")
LAST_FILL = "#00e5ff"
"""The latest placement of each board: a colour no patch palette uses."""
LAST_EDGE = "#006064"
PENCIL = "#9e9e9e"
START_FILL = "#e8a08f"
ROUND_COLOURS = ("#d81b60", "#00897b", "#f57f17", "#3949ab", "#6d4c41")
"""The outline of the rectangle scored in round 1, 2, 3 ..."""
TOKEN_COLOURS = ("#c62828", "#1565c0", "#f9a825", "#2e7d32")
MARGIN = 8.0
GAP = 6.0
TITLE_H = 16.0
QUILT_SCALE = 0.5
TRACK_SIDE = 108.0
"""Side of the time board on the page, mm."""
SHEET_SCALE = 0.6
TILE_CELL = 3.6
CARD_SCALE = 0.3
PNG_DPI = 150
GIF_DPI = 120
"""The GIF's default resolution: the smallest whose smallest text (market labels, notes) reads."""
MAX_GIF_PIXELS = 150_000_000
"""Pixels of all a GIF's frames together (one byte each once quantised): refused beyond, with
the highest --dpi that fits, before anything is drawn."""
GIF_FRAME_MS = 700
GIF_LAST_MS = 3000


@dataclass(frozen=True)
class BoardPlace:
    """Where a seat's board cells lie on the page (for tests and pictures)."""

    seat: int
    x: float
    """Page mm of the top-left corner of cell (0, 0)."""
    y: float
    cell: float

    def centre(self, row: int, col: int) -> tuple[float, float]:
        return self.x + (col + 0.5) * self.cell, self.y + (row + 0.5) * self.cell


@dataclass(frozen=True)
class Layout:
    width: float
    height: float
    boards: tuple[BoardPlace, ...]


# ----- shared pieces --------------------------------------------------------------------------


def _title(position: Position, width: float) -> list[Item]:
    items: list[Item] = []
    title = position.title
    items.append(Text(MARGIN, 8.0, title, fit_text_size(title, width - 2 * MARGIN, 11, True), "start", True, INK))
    line = f"after {position.ply} action(s)" + (f" — last: {position.last_action}" if position.last_action else "")
    line += f" — {position.status}"
    items.append(Text(MARGIN, 13.5, line, fit_text_size(line, width - 2 * MARGIN, 8), "start", False, GREY))
    return items


def _clip_piece(piece, at_x: float, at_y: float, s: float) -> Group:
    """A printed piece placed at (at_x, at_y), drawn `s` times its size, cut to its trim."""
    return Group(tuple(piece.front), compose(translate(at_x, at_y), scale(s)), (0.0, 0.0, piece.width, piece.height))


def _text_lines(x: float, y: float, lines: list[str], size: float = 7.0, width: float = 200.0,
                colour: str = INK) -> tuple[list[Item], float]:
    items: list[Item] = []
    for line in lines:
        items.append(Text(x, y, line, fit_text_size(line, width, size), "start", False, colour))
        y += size * 0.3528 * 1.45
    return items, y


# ----- time-track pages -----------------------------------------------------------------------


def _quilt_pieces(board: Board, x: float, y: float, cell: float) -> list[Item]:
    """The placed patches of one quilt, cell (0, 0) at (x, y)."""
    items: list[Item] = []
    for index, piece in enumerate(board.placed):
        is_last = index == board.last
        if piece.kind == LEATHER:
            for r, c in piece.cells:
                if is_last:
                    items.append(Rect(x + c * cell, y + r * cell, cell, cell, LAST_EDGE, 0.8, LAST_FILL))
                    items += leather_patch(x + (c + 0.5) * cell, y + (r + 0.5) * cell, cell * 0.55)
                else:
                    items += leather_patch(x + (c + 0.5) * cell, y + (r + 0.5) * cell, cell * 0.92)
            continue
        fill = LAST_FILL if is_last else patch_colour(max(piece.colour_index, 0), piece.colour)
        edge = LAST_EDGE if is_last else darker(fill, 0.5)
        items += shape_cells(set(piece.cells), x, y, cell, fill, edge, 0.9 if is_last else 0.5)
        r, c = min(piece.cells)
        items.append(Text(x + (c + 0.5) * cell, y + (r + 0.5) * cell + cell * 0.12, piece.id,
                          fit_text_size(piece.id, cell * 0.9, cell * 0.9), "middle", True, INK))
    return items


def _time_track(position: Position, edition, x: float, y: float, side: float) -> tuple[list[Item], float]:
    track = position.track
    assert track is not None
    piece = boards_mod.time_board(edition, parse_paper("a4"))
    s = side / piece.width
    items: list[Item] = [_clip_piece(piece, x, y, s)]
    spaces = track.final + 1
    grid, cells = boards_mod.track_cells(spaces)
    space = piece.width / grid * s
    top = y + (piece.height - piece.width) * s
    taken = [sp for sp in edition.rules.time_track.leather_patches if sp not in track.leather and 0 < sp <= track.final]
    for sp in taken:
        r, c = cells[sp]
        cx, cy = x + (c + 0.76) * space, top + (r + 0.24) * space
        d = space * 0.17
        items.append(Line(cx - d, cy - d, cx + d, cy + d, INK, 0.5))
        items.append(Line(cx - d, cy + d, cx + d, cy - d, INK, 0.5))
    sharing = {token.space: sum(1 for t in track.tokens if t.space == token.space) for token in track.tokens}
    placed: dict[int, int] = {}
    for token in track.tokens:  # bottom first: a later token is drawn over an earlier one
        r, c = cells[min(token.space, track.final)]
        n, i = sharing[token.space], placed.get(token.space, 0)
        placed[token.space] = i + 1
        radius = space * (0.26 if n == 1 else 0.21)
        cx = x + (c + 0.5) * space + (i - (n - 1) / 2) * space * 0.4
        cy = top + (r + 0.58) * space - i * space * 0.06
        colour = TOKEN_COLOURS[token.seat % len(TOKEN_COLOURS)]
        items.append(Circle(cx, cy, radius, "#ffffff", 0.5, colour))
        items.append(Text(cx, cy + radius * 0.45, str(token.seat + 1), radius * 3.2, "middle", True, "#ffffff"))
    return items, y + piece.height * s


def _market(position: Position, edition, x: float, y: float, width: float) -> tuple[list[Item], float]:
    items: list[Item] = []
    if not position.offers:
        return items, y
    items.append(Text(x, y + 3.0, position.offers_title, 7.0, "start", True, INK))
    y += 6.0
    index = {p.id: i for i, p in enumerate(edition.all_patches())}
    at_x, row_h, top = x, 0.0, y
    first = True
    for offer in position.offers:
        patch = edition.patch(offer.id)
        shape = tiles_mod.print_shape(patch)
        w, h = shape.width * TILE_CELL, shape.height * TILE_CELL
        if at_x + w > x + width and at_x > x:
            at_x, top = x, top + row_h + 4.0
            row_h = 0.0
        if first:  # the neutral token stands before the first patch of the circle
            items.append(Circle(at_x + 1.6, top + 2.0, 1.6, INK, 0.3, INK))
            at_x += 4.5
            first = False
        if offer.role == "window":
            items.append(Rect(at_x - 1.0, top - 1.0, w + 2.0, h + 2.0, "#2e7d32" if offer.can_take else GREY,
                              0.8 if offer.can_take else 0.4, None, radius=0.8))
        items.append(Group(tiles_mod.tile_front(patch, index.get(offer.id, 0), TILE_CELL), translate(at_x, top),
                           (0.0, 0.0, w, h)))
        items.append(Text(at_x + w / 2, top + h + 2.6, offer.id, 5.0, "middle", offer.role == "window", INK))
        at_x += w + 3.0
        row_h = max(row_h, h + 3.0)
    return items, top + row_h + 2.0


def _time_track_page(position: Position, edition, width_hint: float = 0.0) -> tuple[Page, Layout]:
    quilt = boards_mod.quilt_board(edition)
    qw, qh = quilt.width * QUILT_SCALE, quilt.height * QUILT_SCALE
    cell = tiles_mod.QUILT_CELL_MM * QUILT_SCALE
    frame = boards_mod.BOARD_FRAME_MM * QUILT_SCALE
    drawn = [b for b in position.boards if b.has_board]
    width = max(width_hint, MARGIN * 2 + len(drawn) * (qw + GAP) + TRACK_SIDE)
    items: list[Item] = []
    places = []
    y0 = TITLE_H + 2.0
    x = MARGIN
    facts_bottom = y0
    bonus = tiles_mod.bonus_piece(edition) if getattr(edition.rules, "bonus", None) is not None else None
    for board in position.boards:
        if not board.has_board:
            continue
        items.append(Text(x, y0 + 3.0, board.name + ("  (to move)" if board.to_move else ""), 8.0, "start", True, INK))
        top = y0 + 5.0
        items.append(_clip_piece(quilt, x, top, QUILT_SCALE))
        items += _quilt_pieces(board, x + frame, top + frame, cell)
        places.append(BoardPlace(board.seat, x + frame, top + frame, cell))
        lines = list(board.facts)
        text, bottom = _text_lines(x, top + qh + 5.0, lines, 6.5, qw)
        items += text
        if bonus is not None and any("holds the" in fact for fact in board.facts):
            items.append(_clip_piece(bonus, x + qw - bonus.width * 0.35, bottom - 1.0, 0.35))
            bottom += bonus.height * 0.35
        facts_bottom = max(facts_bottom, bottom)
        x += qw + GAP
    others = [b for b in position.boards if not b.has_board]
    track_x = x
    track_items, track_bottom = _time_track(position, edition, track_x, y0 + 5.0, TRACK_SIDE)
    items += track_items
    lines = list(position.notes) + (list(position.track.notes) if position.track else [])
    for board in others:
        lines += [f"{board.name}: {fact}" for fact in board.facts]
    text, notes_bottom = _text_lines(track_x, track_bottom + 5.0, lines, 6.5, TRACK_SIDE)
    items += text
    market, bottom = _market(position, edition, MARGIN, max(facts_bottom, notes_bottom) + 3.0, width - 2 * MARGIN)
    items += market
    height = bottom + MARGIN
    page_items = [Rect(0, 0, width, height, None, 0.1, "#ffffff"), *_title(position, width), *items]
    return (Page(width, height, tuple(page_items), label=f"after {position.ply} actions"),
            Layout(width, height, tuple(places)))


# ----- Doodle pages ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _SheetGeometry:
    """Where the printed sheet puts its drawing board, score boxes and special-action boxes
    (found in the sheet's own scene items, so the picture follows the printed layout)."""

    x: float
    y: float
    cell: float
    score_boxes: tuple[Rect, ...]
    check_boxes: tuple[Rect, ...]
    name_at: tuple[float, float]


def _sheet_geometry(items) -> _SheetGeometry:
    grid = [i for i in items if isinstance(i, Rect) and i.stroke == doodle_mod.BOARD_GRID and i.fill is None]
    if not grid:
        raise UsageError("the printed score sheet has no drawing board to show the game on")
    x = min(r.x for r in grid)
    y = min(r.y for r in grid)
    cell = grid[0].width
    score = tuple(sorted((i for i in items if isinstance(i, Rect) and i.radius == 1.2 and i.fill == "#ffffff"),
                         key=lambda r: r.y))
    checks = tuple(sorted((i for i in items if isinstance(i, Rect) and i.radius == 0.6 and i.width == 6.0),
                          key=lambda r: r.x))
    name = next((i for i in items if isinstance(i, Text) and i.text == "Name"), None)
    at = (name.x + 14.0, name.y) if name is not None else (x, y - 12.0)
    return _SheetGeometry(x, y, cell, score, checks, at)


def _sheet_marks(board: Board, geo: _SheetGeometry, rounds: int) -> list[Item]:
    """What a player wrote on the sheet, in the sheet's reference coordinates."""
    items: list[Item] = []
    x, y, cell = geo.x, geo.y, geo.cell
    for index, piece in enumerate(board.placed):
        is_last = index == board.last
        fill = LAST_FILL if is_last else START_FILL if piece.kind == START else PENCIL
        edge = LAST_EDGE if is_last else darker(fill, 0.55)
        items += shape_cells(set(piece.cells), x, y, cell, fill, edge, 0.9 if is_last else 0.45,
                             lighter(edge, 0.3))
        if piece.kind in (DRAWING, START):
            r, c = min(piece.cells)
            items.append(Text(x + (c + 0.5) * cell, y + (r + 0.5) * cell + cell * 0.12, piece.id,
                              fit_text_size(piece.id, cell * 0.85, cell * 0.75), "middle", False, INK))
    for rect in board.scored:
        colour = ROUND_COLOURS[(rect.round - 1) % len(ROUND_COLOURS)]
        inset = 0.9 + 0.7 * (rect.round - 1)
        items.append(Rect(x + rect.col * cell + inset, y + rect.row * cell + inset, rect.width * cell - 2 * inset,
                          rect.height * cell - 2 * inset, colour, 1.6, None))
        tag = f"{rect.round}: {rect.points}"
        tx, ty = x + rect.col * cell + inset, y + rect.row * cell + inset
        items.append(Rect(tx, ty, len(tag) * 2.3 + 2.0, 5.0, colour, 0.3, colour))
        items.append(Text(tx + 1.0, ty + 3.9, tag, 10.0, "start", True, "#ffffff"))
    # The score column: each round, the empty cells, the total.
    facts = board.facts[0] if board.facts else ""
    values = _sheet_numbers(board, facts, rounds)
    for box, value in zip(geo.score_boxes, values):
        if value is not None:
            items.append(Text(box.x + box.width / 2, box.y + box.height * 0.7, value,
                              fit_text_size(value, box.width - 2, box.height * 1.6), "middle", True, "#1a237e"))
    for box, (name, used) in zip(geo.check_boxes, board.checks):
        for n in range(min(used, 2)):
            d = 0.6 + n * 0.9
            items.append(Line(box.x + d, box.y + d, box.x + box.width - d, box.y + box.height - d, "#c62828", 0.9))
            items.append(Line(box.x + d, box.y + box.height - d, box.x + box.width - d, box.y + d, "#c62828", 0.9))
    items.append(Text(geo.name_at[0], geo.name_at[1], board.name, 12.0, "start", True, "#1a237e"))
    return items


def _sheet_numbers(board: Board, facts: str, rounds: int) -> list[str | None]:
    """The round scores, the empty cells and the total, as the Doodle facts line gives them."""
    import re

    found = re.search(r"rounds ([^;]*); (\d+) empty; score (-?\d+)", facts)
    if not found:
        return [None] * (rounds + 2)
    scores = [None if s.strip() == "-" else s.strip() for s in found.group(1).split(",")]
    scores = (scores + [None] * rounds)[:rounds]
    empty = int(found.group(2))
    return [*scores, f"-{empty}" if empty else "0", found.group(3)]


def _doodle_page(position: Position, edition) -> tuple[Page, Layout]:
    sheet = doodle_mod.sheet_items(edition)
    geo = _sheet_geometry(sheet)
    s = SHEET_SCALE
    sw, sh = doodle_mod.REF_WIDTH * s, doodle_mod.REF_HEIGHT * s
    per_row = min(len(position.boards), 3)
    rows = -(-len(position.boards) // per_row)
    width = MARGIN * 2 + per_row * sw + (per_row - 1) * GAP
    items: list[Item] = []
    places = []
    rounds = int(position.extra.get("rounds", 0)) or len(geo.score_boxes) - 2
    y0 = TITLE_H + 2.0
    for index, board in enumerate(position.boards):
        col, row = index % per_row, index // per_row
        x, y = MARGIN + col * (sw + GAP), y0 + row * (sh + GAP)
        items.append(Rect(x, y, sw, sh, GREY, 0.3, "#ffffff"))
        marks = _sheet_marks(board, geo, rounds)
        items.append(Group((*sheet, *marks), compose(translate(x, y), scale(s))))
        places.append(BoardPlace(board.seat, x + geo.x * s, y + geo.y * s, geo.cell * s))
    y = y0 + rows * (sh + GAP)
    lines = list(position.notes)
    text, y = _text_lines(MARGIN, y + 2.0, lines, 7.0, width - 2 * MARGIN)
    items += text
    cards, y = _circle(position, edition, MARGIN, y + 2.0, width - 2 * MARGIN)
    items += cards
    height = y + MARGIN
    page_items = [Rect(0, 0, width, height, None, 0.1, "#ffffff"), *_title(position, width), *items]
    return Page(width, height, tuple(page_items), label=f"after {position.ply} actions"), Layout(width, height,
                                                                                                 tuple(places))


def _circle(position: Position, edition, x: float, y: float, width: float) -> tuple[list[Item], float]:
    items: list[Item] = []
    if not position.offers:
        return items, y
    items.append(Text(x, y + 3.0, position.offers_title, 7.0, "start", True, INK))
    y += 6.0
    index = {p.id: i for i, p in enumerate(edition.patches)}
    cw, ch = doodle_mod.CARD_WIDTH * CARD_SCALE, doodle_mod.CARD_HEIGHT * CARD_SCALE
    at_x, top = x, y
    for offer in position.offers:
        if at_x + cw > x + width and at_x > x:
            at_x, top = x, top + ch + 8.0
        patch = next(p for p in edition.patches if p.id == offer.id)
        if offer.role != "circle":
            colour = "#2e7d32" if offer.can_take else GREY
            items.append(Rect(at_x - 1.2, top - 1.2, cw + 2.4, ch + 2.4, colour,
                              1.2 if offer.role == "token card" else 0.6, None, radius=1.0))
        card = doodle_mod.patch_card(patch, index[offer.id])
        items.append(Group(card, compose(translate(at_x, top), scale(CARD_SCALE)),
                           (0.0, 0.0, doodle_mod.CARD_WIDTH, doodle_mod.CARD_HEIGHT)))
        if offer.role != "circle":
            items.append(Text(at_x + cw / 2, top + ch + 4.0, offer.role, 5.5, "middle", offer.role == "token card", INK))
        at_x += cw + 4.0
    return items, top + ch + 6.0


# ----- documents and files --------------------------------------------------------------------


def page(position: Position, edition) -> tuple[Page, Layout]:
    """One page showing `position`: a quilt-and-track page for an edition that prints boards, a
    score-sheet page for one that prints sheets."""
    prints = family_of(edition).info.components
    if "sheet" in prints:
        return _doodle_page(position, edition)
    if "boards" in prints and position.track is not None:
        return _time_track_page(position, edition)
    raise UsageError(f"{edition.name}: its family prints neither boards nor score sheets to draw a game on")


def document(game: Any, moves: list[int]) -> tuple[Document, list[Layout]]:
    """Pages of `game` after each of `moves` actions (0: the deal), and where their boards lie."""
    positions = list(family_of(game.edition).views(game))
    pages, layouts = [], []
    for move in moves:
        built, layout = page(positions[move], game.edition)
        pages.append(built)
        layouts.append(layout)
    return Document(f"{game.edition.title}, seed {game.seed}", tuple(pages)), layouts


def _same_size(document_: Document) -> Document:
    """Every page as large as the largest (a GIF's frames share one size)."""
    width = max(p.width for p in document_.pages)
    height = max(p.height for p in document_.pages)
    pages = tuple(Page(width, height, (Rect(0, 0, width, height, None, 0.1, "#ffffff"), *p.items), label=p.label)
                  for p in document_.pages)
    return Document(document_.title, pages, document_.symbols)


def encode(game: Any, fmt: str, move: int | None = None, dpi: int | None = None) -> bytes:
    """The picture's bytes: `fmt` svg, pdf or png (the game after `move` actions, default the
    last) or gif (every position, one frame each)."""
    last = len(game.history)
    if fmt == "gif":
        first, _ = document(game, [0])  # the frame size before drawing every frame: a refusal comes early
        check_gif_size(Document(first.title, first.pages * (last + 1)), dpi or GIF_DPI)
        doc, _ = document(game, list(range(last + 1)))
        return _gif(_same_size(doc), dpi or GIF_DPI)
    doc, _ = document(game, [last if move is None else move])
    if fmt == "svg":
        from toolkit.render.svg import document_svgs

        return document_svgs(doc)[0]
    if fmt == "pdf":
        from toolkit.render.pdf import document_pdf

        return document_pdf(doc)
    if fmt == "png":
        from toolkit.render.png import document_pngs

        return document_pngs(doc, dpi or PNG_DPI)[0]
    raise UsageError(f"unknown picture format '{fmt}': expected {', '.join(FORMATS)}")


def check_gif_size(doc: Document, dpi: int, at_least: bool = False) -> None:
    """UsageError when the GIF of `doc` at `dpi` would pass MAX_GIF_PIXELS, naming the figure
    (`at_least`: the page is the smallest a frame can be, so the figures are lower bounds)."""
    page = doc.pages[0]
    frame = (page.width / 25.4 * dpi) * (page.height / 25.4 * dpi)
    total = frame * len(doc.pages)
    if total > MAX_GIF_PIXELS:
        fits = int(dpi * (MAX_GIF_PIXELS / total) ** 0.5)
        least = "at least " if at_least else ""
        choose = f"choose a lower --dpi (none above {fits} can fit)" if at_least else f"choose --dpi {fits} or less"
        raise UsageError(f"--dpi {dpi}: {len(doc.pages)} frames of {least}{frame / 1e6:.1f} megapixels are "
                         f"{least}{total / 1e6:,.0f} megapixels in all (at most {MAX_GIF_PIXELS // 1_000_000:,}); "
                         f"{choose}")


def check_gif_record(record: Path, dpi: int | None) -> None:
    """Refuse the GIF of a record file from its length and its edition alone, before the game is
    replayed (a replay takes seconds and may load the compiled rules): each frame is at least the
    page of one board (a quilt board beside the time track, or one score sheet), so a GIF whose
    frames of that size already pass MAX_GIF_PIXELS is refused with the figure. Anything else is
    judged exactly once the frames are known (`encode`)."""
    from toolkit import records

    data = records.read_record(record)
    edition = records.replay_edition(data, base_dir=record.parent)
    prints = family_of(edition).info.components
    if "sheet" in prints:
        width = MARGIN * 2 + doodle_mod.REF_WIDTH * SHEET_SCALE
        height = MARGIN * 2 + doodle_mod.REF_HEIGHT * SHEET_SCALE
    elif "boards" in prints:
        quilt = boards_mod.quilt_board(edition)
        width = MARGIN * 2 + quilt.width * QUILT_SCALE + GAP + TRACK_SIDE
        height = TITLE_H + 2.0 + quilt.height * QUILT_SCALE + MARGIN
    else:
        return
    frames = len(data.get("actions") or ()) + 1
    check_gif_size(Document("", (Page(width, height, ()),) * frames), dpi or GIF_DPI, at_least=True)


def _gif(doc: Document, dpi: int) -> bytes:
    from PIL import Image

    from toolkit.render.pdf import document_pdf
    from toolkit.render.png import pdf_to_pngs

    check_gif_size(doc, dpi)
    pdf = document_pdf(doc)
    # one frame at a time, quantised at once: only one full-colour frame is ever held
    frames = []
    for index in range(len(doc.pages)):
        with Image.open(io.BytesIO(pdf_to_pngs(pdf, dpi, [index])[0])) as png:
            frames.append(png.convert("RGB").quantize(colors=255, method=Image.Quantize.FASTOCTREE,
                                                      dither=Image.Dither.NONE))
    buffer = io.BytesIO()
    durations = [GIF_FRAME_MS] * (len(frames) - 1) + [GIF_LAST_MS]
    frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return buffer.getvalue()


def write(game: Any, out: Path, fmt: str, move: int | None = None, dpi: int | None = None) -> Path:
    """Draw the game to `out` (atomically); the path written."""
    from toolkit.render.output import check_targets, write_bytes

    if dpi is not None:
        from toolkit.render.png import check_dpi

        check_dpi(dpi)
    check_targets([out])
    return write_bytes(out, encode(game, fmt, move, dpi))
