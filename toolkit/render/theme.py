"""The print theme: colours, line weights and the vector pictograms shared by the components, and
the Theme a designer's theme file fills in (toolkit.render.theme_file reads and checks one).

Everything is in mm. Pictograms are small functions returning scene items around a centre point,
so a button looks the same on a tile, a time board and an Automa card. `Theme()` is the bundled
look: the components draw exactly what they always drew unless a theme changes a value.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from toolkit.geometry.outline import outline_segments
from toolkit.render.scene import MIN_LINE_MM, Circle, Image, Item, Line, Poly, Rect, Text

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
    return [Line(*segment, colour, width) for segment in outline_segments(cells, x, y, cell)]


def shape_cells(cells, x: float, y: float, cell: float, fill: str | None, outline: str,
                width: float = 0.35, grid: str | None = None) -> list[Item]:
    """A polyomino drawn as filled cells (`fill` None: seams and outline only) with light inner seams and a
    firm outline."""
    items: list[Item] = []
    for r, c in sorted(cells):
        items.append(Rect(x + c * cell, y + r * cell, cell, cell, grid or lighter(outline, 0.55),
                          max(width * 0.5, MIN_LINE_MM), fill))
    items += cells_outline(cells, x, y, cell, outline, width)
    return items


def label(x: float, y: float, text: str, size: float, anchor: str = "middle", bold: bool = False,
          fill: str = INK) -> Text:
    return Text(x, y, text, size, anchor, bold, fill)


# ----- a designer's own look ------------------------------------------------------------------------

AUTOMA_OTHER = "#5d5a7a"
"""An Automa deck the theme gives no colour."""
PATTERNS = ("plain", "stripes", "dots", "checks")
"""What a theme may draw over a patch's cloth colour."""


@dataclass(frozen=True)
class Art:
    """A picture a theme file names (PNG or JPEG), read and checked when the theme is loaded."""

    path: str
    """As the theme file gives it (for messages)."""
    data: bytes
    width: int
    """Pixels."""
    height: int
    mime: str
    """`image/png` or `image/jpeg`."""


@dataclass(frozen=True)
class FontFile:
    """A TrueType font a theme file names; the PDF embeds the subset of it the text uses."""

    path: str
    data: bytes
    family: str
    """The family name the font gives itself (SVG text asks for it by name)."""


@dataclass(frozen=True)
class PatchLook:
    """How a patch's cloth is drawn."""

    colour: str | None = None
    """`#rrggbb`; None: the spec's colour, else the palette's by position."""
    pattern: str = "plain"
    """One of PATTERNS, drawn in a shade of the cloth colour."""
    art: Art | None = None
    """A picture covering the patch (cropped to its outline); wins over the pattern."""


@dataclass(frozen=True)
class Theme:
    """Everything a designer may change about how the pieces look. The defaults are the bundled
    look, so `Theme()` prints exactly what the toolkit always printed."""

    name: str = "bundled"
    title: str | None = None
    """Printed in place of the game's title: card backs, score sheet, rules reference."""
    credits: str | None = None
    """A line at the foot of the rules reference (art, design, licence)."""
    palette: tuple[str, ...] = PATCH_PALETTE
    """Cloth colours of patches whose spec names none, by position."""
    card_face: str = CREAM
    card_back: str = "#3d6b8c"
    start_card_back: str = "#a34a3c"
    tile_back: str = "#d8ccb4"
    quilt: str = "#f3ecdc"
    quilt_frame: str = "#6d4c33"
    time_board: str = "#5b4330"
    track: tuple[str, str] = ("#f6efe0", "#e9dfc8")
    button: str = BUTTON_FILL
    """Every button: button tiles, the income buttons printed on tiles, the Automa's budget."""
    button_rim: str = BUTTON_RIM
    time_tokens: tuple[str, str] = ("#9bc53d", "#f4c430")
    """The players' time tokens, first and second seat."""
    neutral_token: str = "#3b3b3b"
    doodle_token: str = "#c8553d"
    level: str = LEVEL_FILL
    """Solo play: the level spaces on the time board and the level marker."""
    automa: tuple[tuple[str, str], ...] = (("normal", "#4f6473"), ("tactical", "#8a4f2a"))
    """(deck name, colour) of the Automa decks; a deck not named here is drawn in AUTOMA_OTHER."""
    automa_face: str = "#fbf8f2"
    """The panel of an Automa card's face."""
    automa_back_art: Art | None = None
    """A picture for the back of every Automa card, under its deck name (and budget)."""
    regular_font: FontFile | None = None
    bold_font: FontFile | None = None
    card_back_art: Art | None = None
    """A picture for the back of every patch card (it covers the card and its bleed)."""
    patches: tuple[tuple[str, PatchLook], ...] = ()
    """(patch id, look) of the patches the theme names."""
    default_look: PatchLook = PatchLook()
    """The look of every other patch."""
    source: str = ""
    """The theme file (empty for the bundled look)."""
    patch_places: tuple[tuple[str, int, int], ...] = field(default=(), compare=False)
    """(patch id, line, column) where the theme file names each patch (for its messages)."""
    deck_places: tuple[tuple[str, int, int], ...] = field(default=(), compare=False)
    """(Automa deck name, line, column) where the theme file names each deck (for its messages)."""

    def automa_colour(self, deck: str) -> str:
        """The colour of an Automa deck."""
        return dict(self.automa).get(deck, AUTOMA_OTHER)

    def look(self, patch_id: str) -> PatchLook:
        for name, look in self.patches:
            if name == patch_id:
                return look
        return self.default_look

    def patch_fill(self, index: int, patch) -> str:
        """The cloth colour of the patch at `index` of its set: the theme's, else the spec's, else
        the palette's."""
        look = self.look(patch.id)
        return look.colour or patch.colour or self.palette[index % len(self.palette)]

    @property
    def fonts(self) -> tuple[FontFile, FontFile] | None:
        """(regular, bold), or None for the bundled Vera Sans."""
        if self.regular_font is None and self.bold_font is None:
            return None
        regular = self.regular_font or self.bold_font
        return (regular, self.bold_font or regular)  # type: ignore[return-value]


DEFAULT_THEME = Theme()
"""The bundled look."""


def cloth(look: PatchLook, fill: str, x: float, y: float, w: float, h: float, cell: float) -> list[Item]:
    """What a look draws over a patch's plain cloth in the box (x, y, w, h), to be clipped to the
    patch's outline by the caller: its picture covering the box, or its pattern at `cell` scale."""
    if look.art is not None:
        return [cover(look.art, x, y, w, h)]
    shade = darker(fill, 0.82)
    step = cell / 4
    items: list[Item] = []
    if look.pattern == "stripes":
        k = 0.0
        while k < w + h:
            items.append(Line(x + k, y, x + k - h, y + h, shade, max(step * 0.28, MIN_LINE_MM)))
            k += step
    elif look.pattern == "dots":
        for row in range(int(h / step) + 1):
            for col in range(int(w / step) + 1):
                offset = step / 2 if row % 2 else 0.0
                items.append(Circle(x + col * step + offset, y + row * step + step / 2, step * 0.16, None,
                                    HAIRLINE, shade))
    elif look.pattern == "checks":
        for row in range(int(h / step) + 1):
            for col in range(int(w / step) + 1):
                if (row + col) % 2:
                    items.append(Rect(x + col * step, y + row * step, step, step, None, HAIRLINE, shade))
    return items


def cover(art: Art, x: float, y: float, w: float, h: float) -> Image:
    """The picture scaled to cover the box (x, y, w, h), centred, its aspect kept (the caller's
    clip crops what overhangs)."""
    s = max(w / art.width, h / art.height)
    dw, dh = art.width * s, art.height * s
    return Image(x + (w - dw) / 2, y + (h - dh) / 2, dw, dh, art.data, art.mime)
