"""Patchwork Doodle components: the score sheet, score pads, patch cards and start cards.

The sheet is laid out on a 210 x 297 mm reference page from the edition's board size, number of
scoring rounds and special actions, then scaled uniformly to the paper, so A4, Letter, A5 and
custom pads all look alike. A pad draws the sheet once as a symbol and places it on every page.
"""
from __future__ import annotations

from toolkit.errors import UsageError
from toolkit.render.components import require_component
from toolkit.geometry.outline import outline_loops
from toolkit.render.imposition import BLEED_MM, PRINTABLE_MARGIN_MM, Piece
from toolkit.render.paper import Paper
from toolkit.render.scene import (
    Circle,
    Group,
    Item,
    Line,
    Page,
    Poly,
    Rect,
    Symbol,
    Text,
    Use,
    MIN_TEXT_PT,
    MM_PER_PT,
    fit_text_size,
    scale,
    text_width,
    wrap_text,
)
from toolkit.render.theme import (
    DEFAULT_THEME,
    PatchLook,
    Theme,
    cloth,
    cover,
    CUT_RED,
    GREY,
    HAIRLINE,
    HEAVY,
    INK,
    LIGHT_GREY,
    THICK,
    arc_points,
    arrow,
    darker,
    lighter,
    shape_cells,
)
from toolkit.specs.models import Edition

REF_WIDTH = 210.0
REF_HEIGHT = 297.0
"""The sheet is designed on A4 portrait and scaled to the paper."""
MARGIN = 12.0
MAX_CELL = 17.0
"""Largest drawing-board cell on the reference page; small boards stop growing here."""
MIN_CELL_PRINTED = 4.0
"""Smallest printed cell a pencil can still fill: below it the paper is too small for the board."""
SCORE_COLUMN = 42.0
SPECIAL_HEIGHT = 54.0
BOARD_GRID = "#8c8c8c"
"""Stroke of the drawing-board spaces: light enough to shade over, dark enough to copy."""

CARD_WIDTH = 63.0
CARD_HEIGHT = 88.0
"""Doodle cards print at standard poker size."""
CARD_INK = "#2d2a26"
CARD_BACK = "#3d6b8c"
START_BACK = "#a34a3c"
START_FILL = "#c8553d"

SPECIAL_ACTIONS = ("neighbour", "single", "cut", "again")
SPECIAL_HINTS = {
    "neighbour": "draw the card left or right of the token",
    "single": "shade one empty space",
    "cut": "one straight cut, draw one piece",
    "again": "use another action a second time",
}


def require_doodle(edition: Edition, what: str) -> None:
    """Refuse an edition whose family prints no score sheets (toolkit.render.challenge asks this
    before drawing challenge sheets; the render dispatch asks `require_component` itself)."""
    require_component(edition, "sheet", what)


# ----- special-action pictograms (drawn in a 36 x 26 mm box centred on cx, cy) ------------------


def _pictogram(action: str, cx: float, cy: float) -> list[Item]:
    items: list[Item] = []
    if action == "neighbour":
        w, h, gap = 8.0, 11.0, 3.0
        for i in (-1, 0, 1):
            x = cx + i * (w + gap) - w / 2
            fill = "#f6d365" if i else "#ffffff"
            items.append(Rect(x, cy - h / 2 - 2, w, h, INK, 0.35, fill, radius=0.8))
        items.append(Circle(cx, cy - h / 2 - 4.2, 1.6, INK, 0.3, INK))
        items += arrow(cx - 1.5, cy + h / 2 + 2.2, cx - w - gap, cy + h / 2 + 2.2, INK, 0.45)
        items += arrow(cx + 1.5, cy + h / 2 + 2.2, cx + w + gap, cy + h / 2 + 2.2, INK, 0.45)
    elif action == "single":
        cell = 5.5
        x0, y0 = cx - 1.5 * cell, cy - 1.5 * cell
        for r in range(3):
            for c in range(3):
                fill = "#555555" if (r, c) == (1, 1) else "#ffffff"
                items.append(Rect(x0 + c * cell, y0 + r * cell, cell, cell, INK, 0.3, fill))
    elif action == "cut":
        cell = 5.0
        cells = {(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (1, 3)}
        x0, y0 = cx - 2 * cell, cy - cell
        items += shape_cells(cells, x0, y0, cell, "#f2c6a0", INK, 0.45, "#b08060")
        items.append(Line(x0 + 2 * cell, y0 - 3.0, x0 + 2 * cell, y0 + 2 * cell + 3.0, CUT_RED, 0.6, (1.2, 0.8)))
        # scissors: two finger rings and crossed blades at the top of the cut
        sx, sy = x0 + 2 * cell, y0 - 4.8
        items.append(Circle(sx - 1.6, sy - 1.4, 1.0, CUT_RED, 0.4))
        items.append(Circle(sx + 1.6, sy - 1.4, 1.0, CUT_RED, 0.4))
        items.append(Line(sx - 1.0, sy - 0.6, sx + 0.7, sy + 2.0, CUT_RED, 0.45))
        items.append(Line(sx + 1.0, sy - 0.6, sx - 0.7, sy + 2.0, CUT_RED, 0.45))
    elif action == "again":
        points = arc_points(cx, cy, 8.0, -60, 230, 30)
        items.append(Poly(points, False, INK, 0.9, None, round_joins=True))
        end = points[-1]
        prev = points[-3]
        items += arrow(prev[0], prev[1], end[0] + (end[0] - prev[0]) * 0.8, end[1] + (end[1] - prev[1]) * 0.8,
                       INK, 0.9, 2.8)
        items.append(Text(cx, cy + 2.3, "2×", 13, "middle", True, INK))
    return items


# ----- the score sheet ------------------------------------------------------------------------


def sheet_items(edition: Edition, min_pt: float = MIN_TEXT_PT, title: str | None = None) -> tuple[Item, ...]:
    """The score sheet on the 210 x 297 mm reference page; no text is set below `min_pt` (in the
    reference page's points: the printed minimum divided by the sheet's scale), hints wrap onto
    two lines rather than shrink, and a sheet that cannot hold them is refused. `title` replaces
    the edition's (a theme's)."""
    require_component(edition, "sheet")
    rules = edition.doodle_rules

    def pt(size: float) -> float:
        return max(size, min_pt)

    bw, bh = edition.board_width, edition.board_height
    items: list[Item] = []
    title = (title or edition.title).upper()
    items.append(Text(MARGIN, MARGIN + 10, title, fit_text_size(title, 110, 22, True), "start", True, INK))
    # name / date line
    y_line = MARGIN + 24
    items.append(Text(MARGIN, y_line, "Name", pt(9), "start", False, GREY))
    items.append(Line(MARGIN + 12, y_line + 0.8, 128, y_line + 0.8, INK, 0.35))
    items.append(Text(134, y_line, "Date", pt(9), "start", False, GREY))
    items.append(Line(144, y_line + 0.8, REF_WIDTH - MARGIN, y_line + 0.8, INK, 0.35))

    top = MARGIN + 34
    label_room = 5.0
    avail_w = REF_WIDTH - 2 * MARGIN - SCORE_COLUMN - label_room - 4
    has_specials = bool(rules.special_actions)
    avail_h = REF_HEIGHT - top - label_room - MARGIN - (SPECIAL_HEIGHT + 6 if has_specials else 14)
    cell = min(MAX_CELL, avail_w / bw, avail_h / bh)
    bx = MARGIN + label_room
    by = top + label_room
    board_w, board_h = bw * cell, bh * cell
    # the drawing board: light inner lines, a firm border, column letters and row numbers
    items.append(Rect(bx, by, board_w, board_h, None, HAIRLINE, "#ffffff"))
    # One rectangle per space (not grid lines): each space is one element in the SVG.
    for r in range(bh):
        for c in range(bw):
            items.append(Rect(bx + c * cell, by + r * cell, cell, cell, BOARD_GRID, 0.25, None))
    items.append(Rect(bx, by, board_w, board_h, INK, HEAVY, None))
    label_size = pt(min(8.0, cell * 0.55 / 0.3528))
    for c in range(bw):
        items.append(Text(bx + (c + 0.5) * cell, by - 1.5, _column_name(c), label_size, "middle", False, GREY))
    for r in range(bh):
        items.append(Text(bx - 1.5, by + (r + 0.5) * cell + 1.0, str(r + 1), label_size, "end", False, GREY))

    # score column: one box per round, the negative row, then the total
    sx = bx + board_w + 6
    sw = REF_WIDTH - MARGIN - sx
    rows = rules.rounds + 2
    row_gap = 3.0
    row_h = min(18.0, (board_h - (rows - 1) * row_gap - 4) / rows)
    items.append(Text(sx + sw / 2, by - 1.5, "SCORE", pt(8), "middle", True, GREY))
    y = by
    for rnd in range(1, rules.rounds + 1):
        items += _score_row(sx, y, sw, row_h, str(rnd), False)
        y += row_h + row_gap
    items += _score_row(sx, y, sw, row_h, "−", False)
    y += row_h + row_gap
    items.append(Line(sx, y - row_gap / 2, sx + sw, y - row_gap / 2, INK, THICK))
    items += _score_row(sx, y, sw, row_h, "=", True)
    y += row_h
    items.append(Text(sx + sw / 2, y + 4.5, "− = empty spaces", pt(6.5), "middle", False, GREY))

    # special actions, each a check-off box with its pictogram
    if has_specials:
        actions = [a for a in SPECIAL_ACTIONS if a in rules.special_actions]
        # Space the board leaves free goes to roomier action boxes, so the page never looks empty.
        spare = max(0.0, avail_h - board_h)
        grow = min(spare * 0.45, 16.0)
        sy = by + board_h + 8 + min(spare * 0.25, 8.0)
        items.append(Text(MARGIN, sy + 2, "SPECIAL ACTIONS", pt(8), "start", True, GREY))
        items.append(Text(REF_WIDTH - MARGIN, sy + 2, "each once per game: cross it off when used", pt(7),
                          "end", False, GREY))
        sy += 5
        gap = 4.0
        n = len(actions)
        box_w = (REF_WIDTH - 2 * MARGIN - (n - 1) * gap) / n
        box_h = SPECIAL_HEIGHT - 8 + grow
        for i, action in enumerate(actions):
            x = MARGIN + i * (box_w + gap)
            items.append(Rect(x, sy, box_w, box_h, INK, THICK, "#ffffff", radius=2.0))
            items.append(Rect(x + box_w - 8.5, sy + 2.5, 6.0, 6.0, INK, 0.6, "#ffffff", radius=0.6))
            items += _pictogram(action, x + box_w / 2 - 2, sy + 17 + grow * 0.45)
            name = action.upper()
            hint = SPECIAL_HINTS[action]
            hint_pt = pt(6.0)
            lines = wrap_text(hint, box_w - 3, hint_pt)
            if len(lines) > 2 or any(text_width(line, hint_pt) > box_w - 2 for line in lines):
                raise UsageError(
                    f"the special-action hints of {edition.name} do not fit their boxes at "
                    f"{MIN_TEXT_PT:g} pt on this paper; choose a larger paper"
                )
            leading = hint_pt * MM_PER_PT * 1.15
            name_y = sy + box_h - 5.0 - (len(lines) - 1) * leading - max(3.5, hint_pt * MM_PER_PT)
            items.append(Text(x + box_w / 2, name_y, name, max(fit_text_size(name, box_w - 4, 10, True), min_pt),
                              "middle", True, INK))
            for k, line in enumerate(lines):
                items.append(Text(x + box_w / 2, sy + box_h - 3.5 - (len(lines) - 1 - k) * leading, line, hint_pt,
                                  "middle", False, GREY))
    rule = "Each round: score one shaded rectangle, its biggest square + 1 per extra row or column."
    final = "Final score: add the round scores and subtract the empty spaces."
    foot_pt = pt(6.5)
    if max(text_width(rule, foot_pt), text_width(final, foot_pt)) > REF_WIDTH - 2 * MARGIN:
        raise UsageError(f"the scoring rules of the sheet do not fit at {MIN_TEXT_PT:g} pt on this paper; "
                         f"choose a larger paper")
    step = max(3.5, foot_pt * MM_PER_PT * 1.15)
    items.append(Text(REF_WIDTH / 2, REF_HEIGHT - MARGIN + 5.5 - step, rule, foot_pt, "middle", False, GREY))
    items.append(Text(REF_WIDTH / 2, REF_HEIGHT - MARGIN + 5.5, final, foot_pt, "middle", False, GREY))
    return tuple(items)


def _column_name(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def _score_row(x: float, y: float, w: float, h: float, mark: str, total: bool) -> list[Item]:
    r = min(h * 0.32, 4.5)
    items: list[Item] = [
        Circle(x + r + 0.5, y + h / 2, r, INK, 0.4, "#f1ece1" if not total else "#e0d6bf"),
        Text(x + r + 0.5, y + h / 2 + r * 0.45, mark, r * 3.4, "middle", True, INK),
        Rect(x + 2 * r + 3, y, w - 2 * r - 3, h, INK, HEAVY if total else THICK, "#ffffff", radius=1.2),
    ]
    return items


INK_EXTENT = (MARGIN, 16.0, REF_WIDTH - MARGIN, 291.5)
"""(left, top, right, bottom) of everything the sheet draws on its reference page, in ref mm: the
title's cap height at the top, the scoring footer's descenders at the bottom."""


def sheet_scale(paper: Paper, margin: float = PRINTABLE_MARGIN_MM) -> float:
    """The sheet's scale on `paper`: as large as the paper allows, centred, every mark at least
    `margin` from each edge (on A5 the footer would otherwise reach into the printer's border)."""
    s = min(paper.width / REF_WIDTH, paper.height / REF_HEIGHT)
    left, top, right, bottom = INK_EXTENT
    # centred, an edge's clearance is half the paper less the ink's reach from the centre
    for half, reach in ((paper.width / 2, REF_WIDTH / 2 - left), (paper.width / 2, right - REF_WIDTH / 2),
                        (paper.height / 2, REF_HEIGHT / 2 - top), (paper.height / 2, bottom - REF_HEIGHT / 2)):
        s = min(s, (half - margin) / reach)
    return s


def sheet_symbol(edition: Edition, paper: Paper, title: str | None = None) -> Symbol:
    """The whole sheet scaled to the paper, as one reusable symbol."""
    s = sheet_scale(paper)
    items = sheet_items(edition, MIN_TEXT_PT / s, title)
    cell = min(MAX_CELL, (REF_WIDTH - 2 * MARGIN - SCORE_COLUMN - 9) / edition.board_width) * s
    if cell < MIN_CELL_PRINTED:
        raise UsageError(
            f"a {edition.board_width}x{edition.board_height} drawing board does not fit legibly on "
            f"{paper.name} paper (cells would be {cell:.1f} mm, at least {MIN_CELL_PRINTED:g} mm "
            f"needed); choose a larger paper"
        )
    dx = (paper.width - REF_WIDTH * s) / 2
    dy = (paper.height - REF_HEIGHT * s) / 2
    return Symbol("doodle-sheet", paper.width, paper.height, (Group(items, scale(s, dx, dy)),))


def sheet_page(paper: Paper, number: str | None = None) -> Page:
    items: list[Item] = [Use("doodle-sheet", 0, 0)]
    if number is not None:
        s = sheet_scale(paper)
        dy = (paper.height - REF_HEIGHT * s) / 2
        dx = (paper.width - REF_WIDTH * s) / 2
        items.append(Text(dx + (REF_WIDTH - MARGIN) * s, dy + (MARGIN + 2) * s, f"No. {number}",
                          max(7 * s, MIN_TEXT_PT), "end", False, GREY))
    return Page(paper.width, paper.height, tuple(items), label=f"sheet {number}" if number else "sheet")


# ----- cards -----------------------------------------------------------------------------------


def _card_frame(fill: str, border: str, bleed: float = BLEED_MM) -> list[Item]:
    b = bleed
    return [
        Rect(-b, -b, CARD_WIDTH + 2 * b, CARD_HEIGHT + 2 * b, None, HAIRLINE, border),
        Rect(3.5, 3.5, CARD_WIDTH - 7, CARD_HEIGHT - 7, darker(border, 0.8), 0.35, fill, radius=2.5),
    ]


def _shape_block(shape, cx: float, top: float, max_w: float, max_h: float, cell_max: float,
                 fill: str, look: PatchLook = PatchLook()) -> tuple[list[Item], float]:
    cell = min(cell_max, max_w / shape.width, max_h / shape.height)
    x = cx - shape.width * cell / 2
    y = top + (max_h - shape.height * cell) / 2
    if look.art is None and look.pattern == "plain":
        return shape_cells(shape.cells, x, y, cell, fill, CARD_INK, 0.5), cell
    # a theme's picture or pattern on the cloth, under the squares a player counts
    outline = tuple(tuple((x + px, y + py) for px, py in loop) for loop in outline_loops(shape.cells, cell))
    items = shape_cells(shape.cells, x, y, cell, fill, CARD_INK, 0.5)
    items.append(Group(tuple(cloth(look, fill, x, y, shape.width * cell, shape.height * cell, cell)),
                       clip_path=outline))
    items += shape_cells(shape.cells, x, y, cell, None, CARD_INK, 0.5)
    return items, cell


def _shape_faces(shape, fill: str, top: float, bottom: float, look: PatchLook = PatchLook()) -> list[Item]:
    """The shape, and below it its mirror image when the shape is chiral."""
    items: list[Item] = []
    width = CARD_WIDTH - 16
    if shape.is_chiral:
        gap = 7.0
        half = (bottom - top - gap) / 2
        block, _ = _shape_block(shape, CARD_WIDTH / 2, top, width, half, 9.0, fill, look)
        items += block
        mid = top + half + gap / 2
        items.append(Line(12, mid, CARD_WIDTH / 2 - 8, mid, LIGHT_GREY, 0.3, (1.0, 0.8)))
        items.append(Line(CARD_WIDTH / 2 + 8, mid, CARD_WIDTH - 12, mid, LIGHT_GREY, 0.3, (1.0, 0.8)))
        items += arrow(CARD_WIDTH / 2 - 1, mid, CARD_WIDTH / 2 - 6, mid, GREY, 0.4, 1.3)
        items += arrow(CARD_WIDTH / 2 + 1, mid, CARD_WIDTH / 2 + 6, mid, GREY, 0.4, 1.3)
        block, _ = _shape_block(shape.mirror(), CARD_WIDTH / 2, top + half + gap, width, half, 9.0,
                                lighter(fill, 0.35), look)
        items += block
    else:
        block, _ = _shape_block(shape, CARD_WIDTH / 2, top, width, bottom - top, 11.0, fill, look)
        items += block
    return items


def patch_card(patch, index: int, bleed: float = BLEED_MM, theme: Theme = DEFAULT_THEME) -> tuple[Item, ...]:
    fill = theme.patch_fill(index, patch)
    items = _card_frame(theme.card_face, "#d9cfbd", bleed)
    items.append(Circle(12.5, 12.5, 6.0, CARD_INK, 0.4, CARD_INK))
    items.append(Text(12.5, 15.6, str(patch.shape.size), 17, "middle", True, "#ffffff"))
    items.append(Text(CARD_WIDTH - 8, 11.5, patch.id, 7, "end", False, GREY))
    items += _shape_faces(patch.shape, fill, 21.0, CARD_HEIGHT - 10, theme.look(patch.id))
    return tuple(items)


def start_card(card, bleed: float = BLEED_MM, theme: Theme = DEFAULT_THEME) -> tuple[Item, ...]:
    items = _card_frame("#fff4ec", theme.start_card_back, bleed)
    items.append(Rect(3.5, 3.5, CARD_WIDTH - 7, 13.0, None, HAIRLINE, theme.start_card_back))
    items.append(Text(CARD_WIDTH / 2, 12.6, "START", 14, "middle", True, "#ffffff"))
    items.append(Circle(CARD_WIDTH - 12.5, 24.5, 5.5, CARD_INK, 0.4, CARD_INK))
    items.append(Text(CARD_WIDTH - 12.5, 27.4, str(card.shape.size), 15, "middle", True, "#ffffff"))
    items.append(Text(8.5, 24.5, card.id, 7, "start", False, GREY))
    items += _shape_faces(card.shape, START_FILL, 31.0, CARD_HEIGHT - 9)
    return tuple(items)


def _card_back(colour: str, title: str, subtitle: str, bleed: float = BLEED_MM, art=None) -> tuple[Item, ...]:
    b = bleed
    items: list[Item] = [Rect(-b, -b, CARD_WIDTH + 2 * b, CARD_HEIGHT + 2 * b, None, HAIRLINE, colour)]
    if art is not None:
        # a theme's picture is the whole back, bleed included
        return (*items, cover(art, -b, -b, CARD_WIDTH + 2 * b, CARD_HEIGHT + 2 * b))
    light = lighter(colour, 0.25)
    # a quilted diamond pattern, clipped by the imposition to the card
    step = 9.0
    for k in range(-10, 14):
        x = k * step
        items.append(Line(x, -b, x + CARD_HEIGHT + 2 * b, CARD_HEIGHT + b, light, 0.4, (1.2, 1.0)))
        items.append(Line(x + CARD_HEIGHT + 2 * b, -b, x, CARD_HEIGHT + b, light, 0.4, (1.2, 1.0)))
    items.append(Rect(8, CARD_HEIGHT / 2 - 13, CARD_WIDTH - 16, 26, "#ffffff", 0.6, colour, radius=3))
    items.append(Text(CARD_WIDTH / 2, CARD_HEIGHT / 2 - 1.5, title, fit_text_size(title, CARD_WIDTH - 22, 13, True),
                      "middle", True, "#ffffff"))
    items.append(Text(CARD_WIDTH / 2, CARD_HEIGHT / 2 + 7.5, subtitle, 8, "middle", False, "#ffffff"))
    return tuple(items)


def card_pieces(edition: Edition, bleed: float = BLEED_MM, theme: Theme = DEFAULT_THEME) -> list[Piece]:
    """Every Doodle card to print: each patch card as often as the deck holds it, then the start
    cards, their art running `bleed` mm past the cut, in the look of `theme` (its title on the
    backs, its picture as the patch cards' back)."""
    require_component(edition, "cards")
    if theme.title:
        patch_back = _card_back(theme.card_back, theme.title.upper(), "", bleed, theme.card_back_art)
        start_back = _card_back(theme.start_card_back, "START", theme.title.upper(), bleed)
    else:
        patch_back = _card_back(theme.card_back, "PATCHWORK", "DOODLE", bleed, theme.card_back_art)
        start_back = _card_back(theme.start_card_back, "START", "DOODLE", bleed)
    pieces: list[Piece] = []
    for index, patch in enumerate(edition.patches):
        front = patch_card(patch, index, bleed, theme)
        for _ in range(max(1, patch.copies)):
            pieces.append(Piece(CARD_WIDTH, CARD_HEIGHT, front, patch_back, patch.id))
    for card in edition.doodle_rules.start_cards:
        pieces.append(Piece(CARD_WIDTH, CARD_HEIGHT, start_card(card, bleed, theme), start_back, card.id))
    return pieces
