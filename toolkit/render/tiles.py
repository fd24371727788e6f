"""Patch tiles of the time-track games (classic, Christmas, Express) at true quilt scale.

Each tile is its shape at QUILT_CELL_MM per square, so printed tiles fit the printed quilt board;
it shows its cost (button), time (hourglass) and printed income buttons, and its id. Express blue
patches get a blue fill and a square badge, the colourful ones a round badge, so the two sets are
told apart at a glance (and in grey-scale print). The kit adds the leather patches of the time
track and the bonus tile.
"""
from __future__ import annotations

from toolkit.render.components import require_component
from toolkit.geometry.outline import outline_loops
from toolkit.render.imposition import BLEED_MM, Piece, offset_loop
from toolkit.render.scene import Circle, Group, Item, Line, Poly, Rect, Text
from toolkit.render.theme import (
    EXPRESS_BLUE,
    GREY,
    HAIRLINE,
    INK,
    LEATHER,
    DEFAULT_THEME,
    Theme,
    button,
    cells_outline,
    cloth,
    darker,
    hourglass,
    leather_patch,
    lighter,
    pt_for_height,
)
from toolkit.specs.models import Edition

QUILT_CELL_MM = 19.0
"""Side of one quilt square: close to the published quilt boards, so tiles and board match and
a 9x9 board (171 mm + frame) still fits A4 and Letter with bleed and crop marks."""
TILE_BACK = "#d8ccb4"
BLUE_TAG = "blue"


def _bleed_fill(cells, cell: float, colour: str, bleed: float = BLEED_MM) -> list[Item]:
    """Each cell grown by the bleed: their union is the shape offset outward by the bleed."""
    b = bleed
    return [Rect(c * cell - b, r * cell - b, cell + 2 * b, cell + 2 * b, None, HAIRLINE, colour)
            for r, c in sorted(cells)]


def print_shape(patch):
    """The orientation a tile is printed in: lying flat (wider than tall) packs best on shelves,
    and any orientation may be placed on the quilt."""
    shape = patch.shape
    return shape.rotate() if shape.height > shape.width else shape


def price_tag(x: float, y: float, cell: float, cost: int) -> list[Item]:
    """The cost: a white price tag with the number of buttons, shaped nothing like the round
    income buttons printed on the cloth (a tile never shows more buttons than its income)."""
    w, h = cell * 0.64, cell * 0.32
    point = h * 0.4
    items: list[Item] = [
        Poly(((x, y + h / 2), (x + point, y), (x + w, y), (x + w, y + h), (x + point, y + h)), True, INK, 0.35,
             "#ffffff"),
        Line(x + point * 0.55, y + h / 2, x + point * 0.95, y + h / 2, INK, 0.35),
    ]
    items.append(Text(x + point + (w - point) / 2, y + h / 2 + cell * 0.085, str(cost), pt_for_height(cell * 0.17),
                      "middle", True, INK))
    return items


def tile_front(patch, index: int, cell: float = QUILT_CELL_MM, bleed: float = BLEED_MM,
               theme: Theme = DEFAULT_THEME) -> tuple[Item, ...]:
    blue = patch.tag == BLUE_TAG
    # the blue cloth tells Express's late patches apart (a rule), so a theme keeps it
    fill = EXPRESS_BLUE if blue else theme.patch_fill(index, patch)
    seam = lighter(fill, 0.35) if blue else darker(fill, 0.82)
    # Buttons stay visible on the blue cloth of Express blue patches.
    knob = ("#ffffff", "#0d2a4d") if blue else (theme.button, theme.button_rim)
    shape = print_shape(patch)
    cells = sorted(shape.cells)
    items: list[Item] = _bleed_fill(cells, cell, fill, bleed)
    look = theme.look(patch.id)
    if look.art is not None or look.pattern != "plain":
        # the picture or pattern covers the cloth out to the bleed, cut to the tile's outline
        edge = tuple(offset_loop(loop, bleed) for loop in outline_loops(shape.cells, cell))
        w, h = shape.width * cell, shape.height * cell
        items.append(Group(tuple(cloth(look, fill, -bleed, -bleed, w + 2 * bleed, h + 2 * bleed, cell)),
                           clip_path=edge))
    for r, c in cells:
        items.append(Rect(c * cell + 0.8, r * cell + 0.8, cell - 1.6, cell - 1.6, seam, 0.3, None, (1.0, 0.8)))
    ink = "#ffffff" if blue else INK
    # cost and time in the first cell, in reading order
    r0, c0 = cells[0]
    x0, y0 = c0 * cell, r0 * cell
    size = pt_for_height(cell * 0.22)
    items += price_tag(x0 + cell * 0.08, y0 + cell * 0.1, cell, patch.cost)
    items += hourglass(x0 + cell * 0.27, y0 + cell * 0.70, cell * 0.32, ink)
    items.append(Text(x0 + cell * 0.52, y0 + cell * 0.81, str(patch.time), size, "start", True, ink))
    # printed income buttons: one per further cell, several per cell when cells run out
    others = cells[1:] or cells[:1]
    per_cell = -(-patch.income // len(others)) if patch.income else 0
    left = patch.income
    for r, c in others:
        if left <= 0:
            break
        n = min(per_cell, left)
        left -= n
        cx0, cy0 = c * cell, r * cell
        if (r, c) == (r0, c0):
            slots = [(cx0 + cell * 0.8, cy0 + cell * 0.5)]
        else:
            radius = cell * (0.24 if n == 1 else 0.17)
            span = cell * 0.5
            slots = [(cx0 + cell / 2 + (i - (n - 1) / 2) * span / max(n - 1, 1), cy0 + cell / 2) for i in range(n)]
            for cx, cy in slots:
                items += button(cx, cy, radius, *knob)
            continue
        for cx, cy in slots:
            items += button(cx, cy, cell * 0.13, *knob)
    # id and set badge in the last cell
    rl, cl = cells[-1]
    xl, yl = cl * cell, rl * cell
    items.append(Text(xl + cell - 1.6, yl + cell - 1.8, patch.id, 6.0, "end", False, ink if blue else GREY))
    if patch.tag:
        bx, by = xl + 2.8, yl + cell - 2.8
        if blue:
            items.append(Rect(bx - 1.4, by - 1.4, 2.8, 2.8, "#ffffff", 0.4, None))
        else:
            items.append(Circle(bx, by, 1.4, INK, 0.4, None))
    items += cells_outline(set(cells), 0.0, 0.0, cell, darker(fill, 0.5), 0.45)
    return tuple(items)


def tile_back(patch, cell: float = QUILT_CELL_MM, bleed: float = BLEED_MM,
              theme: Theme = DEFAULT_THEME) -> tuple[Item, ...]:
    """The back as seen after turning the tile over left to right: the mirrored outline."""
    mirrored = print_shape(patch).mirror()
    colour = lighter(EXPRESS_BLUE, 0.45) if patch.tag == BLUE_TAG else theme.tile_back
    items: list[Item] = _bleed_fill(mirrored.cells, cell, colour, bleed)
    items += cells_outline(set(mirrored.cells), 0.0, 0.0, cell, darker(colour, 0.6), 0.35)
    return tuple(items)


def leather_piece(number: int, cell: float = QUILT_CELL_MM, bleed: float = BLEED_MM) -> Piece:
    b = bleed
    front = (Rect(-b, -b, cell + 2 * b, cell + 2 * b, None, HAIRLINE, LEATHER),
             *leather_patch(cell / 2, cell / 2, cell))
    back = (Rect(-b, -b, cell + 2 * b, cell + 2 * b, None, HAIRLINE, LEATHER),)
    return Piece(cell, cell, front, back, f"leather-{number}")


def bonus_piece(edition: Edition, cell: float = QUILT_CELL_MM, bleed: float = BLEED_MM) -> Piece:
    """The special tile for the first filled k x k square (one quilt cell by 1.5 cells)."""
    bonus = edition.timetrack_rules.bonus
    assert bonus is not None
    b = bleed
    w, h = cell * 1.5, cell
    k = bonus.square_size
    front = (
        Rect(-b, -b, w + 2 * b, h + 2 * b, None, HAIRLINE, "#f4e3a1"),
        Rect(1.2, 1.2, w - 2.4, h - 2.4, "#a07d10", 0.5, None, radius=1.5),
        Text(w / 2, h * 0.45, f"{k}×{k}", pt_for_height(h * 0.22), "middle", True, INK),
        Text(w / 2, h * 0.8, f"+{bonus.points}", pt_for_height(h * 0.17), "middle", True, INK),
    )
    back = (Rect(-b, -b, w + 2 * b, h + 2 * b, None, HAIRLINE, "#f4e3a1"),)
    return Piece(w, h, front, back, "bonus")


def tile_pieces(edition: Edition, extras: bool = True, bleed: float = BLEED_MM,
                theme: Theme = DEFAULT_THEME) -> list[Piece]:
    """Every tile of the edition's starting circle and late patches (plus leather and bonus),
    its art running `bleed` mm past the cut line, in the look of `theme`."""
    require_component(edition, "tiles")
    pieces = []
    cell = QUILT_CELL_MM
    for index, patch in enumerate(edition.all_patches()):
        shape = print_shape(patch)
        pieces.append(Piece(shape.width * cell, shape.height * cell,
                            tile_front(patch, index, cell, bleed, theme), tile_back(patch, cell, bleed, theme), patch.id,
                            outline_loops(shape.cells, cell)))
    if extras:
        track = edition.timetrack_rules.time_track
        if track is not None:
            for number, _space in enumerate(track.leather_patches, start=1):
                pieces.append(leather_piece(number, cell, bleed))
        if edition.timetrack_rules.bonus is not None:
            pieces.append(bonus_piece(edition, cell, bleed))
    return pieces
