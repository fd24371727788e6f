"""The print theme: colours, line weights and the vector pictograms shared by the components.

Everything is in mm. Pictograms are small functions returning scene items around a centre point,
so a button looks the same on a tile, a time board and an Automa card.
"""
from __future__ import annotations

import math

from toolkit.render.scene import MIN_LINE_MM, Circle, Item, Line, Poly, Rect, Text

INK = "#1f1f1f"
GREY = "#6b6b6b"
LIGHT_GREY = "#b9b9b9"
PAPER = "#ffffff"
CREAM = "#fbf6ea"
BUTTON_FILL = "#2b6cb0"
BUTTON_RIM = "#173f6b"
INCOME_FILL = "#e0a526"
LEATHER = "#8a5a2b"
LEATHER_DARK = "#5a3819"
CUT_RED = "#c62828"
EXPRESS_BLUE = "#2f6db5"
LEVEL_FILL = "#7d2e46"
"""Solo play: the Automa level badges on the time board and the level marker put on one."""

HAIRLINE = MIN_LINE_MM
"""0.25 pt: the thinnest line the toolkit draws (crop marks, inner grid lines)."""
THIN = 0.18
THICK = 0.5
HEAVY = 0.9

PATCH_PALETTE: tuple[str, ...] = (
    "#e57373", "#81c784", "#ffb74d", "#9575cd", "#f06292", "#aed581", "#ffd54f", "#4db6ac",
    "#ff8a65", "#ba68c8", "#dce775", "#a1887f", "#c5a3ff", "#f4a6a6", "#b5c96a", "#e6b86a",
)
"""Fill colours for patches that name none; assigned by position in the spec, so stable. No
blues: blue is reserved for the Express blue patches."""


def patch_colour(index: int, explicit: str | None) -> str:
    return explicit or PATCH_PALETTE[index % len(PATCH_PALETTE)]


def darker(colour: str, factor: float = 0.6) -> str:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(int(r * factor), int(g * factor), int(b * factor))


def lighter(colour: str, factor: float = 0.5) -> str:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(
        int(r + (255 - r) * factor), int(g + (255 - g) * factor), int(b + (255 - b) * factor)
    )


def pt_for_height(mm: float) -> float:
    """Font size in pt whose digits are about `mm` tall (cap height of Vera ~ 0.73 em)."""
    return mm / 0.73 / (25.4 / 72.0)


# ----- pictograms -------------------------------------------------------------------------------


def button(cx: float, cy: float, r: float, fill: str = BUTTON_FILL, rim: str = BUTTON_RIM,
           holes: bool = True) -> list[Item]:
    """A sewing button: disc, rim and four thread holes (left out under a number)."""
    hole = max(r * 0.13, 0.25)
    d = r * 0.32
    items: list[Item] = [Circle(cx, cy, r, rim, max(r * 0.08, MIN_LINE_MM), fill)]
    if not holes:
        items.append(Circle(cx, cy, r * 0.8, lighter(fill, 0.3), max(r * 0.03, MIN_LINE_MM), None))
        return items
    for dx, dy in ((-d, -d), (d, -d), (-d, d), (d, d)):
        items.append(Circle(cx + dx, cy + dy, hole, None, HAIRLINE, rim))
    return items


def hourglass(cx: float, cy: float, h: float, colour: str = INK) -> list[Item]:
    """Time: two triangles meeting at the waist, with caps."""
    w = h * 0.62
    top, bottom = cy - h / 2, cy + h / 2
    lw = max(h * 0.06, MIN_LINE_MM)
    return [
        Poly(((cx - w / 2, top), (cx + w / 2, top), (cx, cy), (cx - w / 2, bottom), (cx + w / 2, bottom), (cx, cy)),
             True, colour, lw, lighter(colour, 0.75)),
        Line(cx - w * 0.65, top, cx + w * 0.65, top, colour, lw * 1.5),
        Line(cx - w * 0.65, bottom, cx + w * 0.65, bottom, colour, lw * 1.5),
    ]


def leather_patch(cx: float, cy: float, side: float) -> list[Item]:
    """The 1x1 leather patch: brown square with a stitched border."""
    x, y = cx - side / 2, cy - side / 2
    inset = side * 0.16
    return [
        Rect(x, y, side, side, LEATHER_DARK, max(side * 0.04, MIN_LINE_MM), LEATHER, radius=side * 0.08),
        Rect(x + inset, y + inset, side - 2 * inset, side - 2 * inset, "#f3e2c7",
             max(side * 0.035, MIN_LINE_MM), None, (side * 0.08, side * 0.06)),
    ]


def arrow(x1: float, y1: float, x2: float, y2: float, colour: str = INK, width: float = 0.5,
          head: float = 1.6) -> list[Item]:
    """A straight arrow from (x1, y1) to (x2, y2)."""
    ang = math.atan2(y2 - y1, x2 - x1)
    left = (x2 - head * math.cos(ang - 0.45), y2 - head * math.sin(ang - 0.45))
    right = (x2 - head * math.cos(ang + 0.45), y2 - head * math.sin(ang + 0.45))
    return [
        Line(x1, y1, x2 - head * 0.6 * math.cos(ang), y2 - head * 0.6 * math.sin(ang), colour, width),
        Poly((left, (x2, y2), right), True, colour, MIN_LINE_MM, colour),
    ]


def arc_points(cx: float, cy: float, r: float, start: float, end: float, steps: int = 24):
    """Points of a circular arc, angles in degrees, 0 = east, clockwise on the page (y down)."""
    return tuple(
        (cx + r * math.cos(math.radians(start + (end - start) * i / steps)),
         cy + r * math.sin(math.radians(start + (end - start) * i / steps)))
        for i in range(steps + 1)
    )


def cells_outline(cells, x: float, y: float, cell: float, colour: str, width: float) -> list[Item]:
    """The boundary of a set of (row, col) cells as line segments (the cut line of a tile)."""
    items: list[Item] = []
    for r, c in sorted(cells):
        x0, y0 = x + c * cell, y + r * cell
        if (r - 1, c) not in cells:
            items.append(Line(x0, y0, x0 + cell, y0, colour, width))
        if (r + 1, c) not in cells:
            items.append(Line(x0, y0 + cell, x0 + cell, y0 + cell, colour, width))
        if (r, c - 1) not in cells:
            items.append(Line(x0, y0, x0, y0 + cell, colour, width))
        if (r, c + 1) not in cells:
            items.append(Line(x0 + cell, y0, x0 + cell, y0 + cell, colour, width))
    return items


def shape_cells(cells, x: float, y: float, cell: float, fill: str, outline: str,
                width: float = 0.35, grid: str | None = None) -> list[Item]:
    """A polyomino drawn as filled cells with light inner seams and a firm outline."""
    items: list[Item] = []
    for r, c in sorted(cells):
        items.append(Rect(x + c * cell, y + r * cell, cell, cell, grid or lighter(outline, 0.55),
                          max(width * 0.5, MIN_LINE_MM), fill))
    items += cells_outline(cells, x, y, cell, outline, width)
    return items


def label(x: float, y: float, text: str, size: float, anchor: str = "middle", bold: bool = False,
          fill: str = INK) -> Text:
    return Text(x, y, text, size, anchor, bold, fill)
