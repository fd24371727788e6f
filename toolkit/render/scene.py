"""The backend-neutral scene: what a printed page shows, in millimetres, y pointing down.

Component modules build scenes from the spec models; `toolkit.render.svg` and
`toolkit.render.pdf` draw the very same scene, so the two formats never drift apart. A scene is a
tree of frozen primitives (rectangles, lines, polylines, circles, text, groups with an affine
transform and an optional clip) plus named symbols that pages reuse: a symbol becomes one form
XObject in the PDF and one `<symbol>` in the SVG, which is what keeps a 160-page pad small.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

MM_PER_PT = 25.4 / 72.0
"""One typographic point in millimetres."""
MIN_LINE_MM = 0.25 * MM_PER_PT
"""Thinnest stroke a printer reproduces reliably: 0.25 pt. Every stroke is checked against it."""
MIN_TEXT_PT = 6.0
"""Smallest printed text size: components reflow, wrap or refuse rather than go below it."""

Colour = str
"""`#rrggbb`."""
Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]
"""Affine transform (a, b, c, d, e, f): x' = a x + c y + e, y' = b x + d y + f."""

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _check_stroke(stroke: Colour | None, width: float, what: str) -> None:
    if stroke is not None and width < MIN_LINE_MM - 1e-9:
        raise ValueError(f"{what}: stroke width {width:.4f} mm is below the 0.25 pt minimum")


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle; `radius` rounds its corners."""

    x: float
    y: float
    width: float
    height: float
    stroke: Colour | None = "#000000"
    stroke_width: float = 0.3
    fill: Colour | None = None
    dash: tuple[float, ...] = ()
    radius: float = 0.0

    def __post_init__(self) -> None:
        _check_stroke(self.stroke, self.stroke_width, "rect")


@dataclass(frozen=True)
class Line:
    """A straight segment."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Colour = "#000000"
    stroke_width: float = 0.3
    dash: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        _check_stroke(self.stroke, self.stroke_width, "line")


@dataclass(frozen=True)
class Poly:
    """A polyline, or a polygon when `closed` (curves are approximated by their callers)."""

    points: tuple[Point, ...]
    closed: bool = False
    stroke: Colour | None = "#000000"
    stroke_width: float = 0.3
    fill: Colour | None = None
    dash: tuple[float, ...] = ()
    round_joins: bool = False

    def __post_init__(self) -> None:
        _check_stroke(self.stroke, self.stroke_width, "polyline")
        if len(self.points) < 2:
            raise ValueError("a polyline needs at least two points")


@dataclass(frozen=True)
class Circle:
    """A circle (buttons, income marks)."""

    cx: float
    cy: float
    r: float
    stroke: Colour | None = "#000000"
    stroke_width: float = 0.3
    fill: Colour | None = None

    def __post_init__(self) -> None:
        _check_stroke(self.stroke, self.stroke_width, "circle")


@dataclass(frozen=True)
class Text:
    """One line of text; (x, y) is on the baseline, `anchor` is start, middle or end."""

    x: float
    y: float
    text: str
    size: float = 10.0
    """Font size in points (the printers' unit); backends convert."""
    anchor: str = "start"
    bold: bool = False
    fill: Colour = "#000000"

    def __post_init__(self) -> None:
        if self.anchor not in ("start", "middle", "end"):
            raise ValueError(f"text anchor must be start, middle or end, not {self.anchor!r}")


@dataclass(frozen=True)
class Image:
    """A picture (PNG or JPEG bytes) stretched over the box (x, y, width, height)."""

    x: float
    y: float
    width: float
    height: float
    data: bytes = field(repr=False)
    mime: str = "image/png"


@dataclass(frozen=True)
class Group:
    """Items drawn under an affine transform, optionally clipped to a rectangle (in group units)."""

    items: tuple["Item", ...]
    transform: Matrix = IDENTITY
    clip: tuple[float, float, float, float] | None = None
    """(x, y, width, height) in the group's own coordinates."""
    clip_path: tuple[tuple[Point, ...], ...] | None = None
    """Closed loops in the group's own coordinates the items are clipped to (a patch's outline)."""


@dataclass(frozen=True)
class Use:
    """An instance of a named symbol with its top-left corner at (x, y)."""

    symbol: str
    x: float = 0.0
    y: float = 0.0


Item = Union[Rect, Line, Poly, Circle, Text, Image, Group, Use]

CutPath = Union[tuple[Point, ...], Circle]
"""One closed cut line: a loop of corners (clockwise on the page), or a Circle (a round piece;
only its centre and radius count)."""


@dataclass(frozen=True)
class Symbol:
    """Content drawn once and placed many times (form XObject / SVG symbol)."""

    name: str
    """Stable identifier: letters, digits and dashes (it becomes an SVG id)."""
    width: float
    height: float
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Box:
    """A page box in mm: (x, y) is the top-left corner."""

    x: float
    y: float
    width: float
    height: float

    def grow(self, by: float) -> "Box":
        return Box(self.x - by, self.y - by, self.width + 2 * by, self.height + 2 * by)


@dataclass(frozen=True)
class Page:
    """One printed page."""

    width: float
    height: float
    items: tuple[Item, ...]
    trim: Box | None = None
    """Finished size of the one piece on a 1-up page (becomes the PDF TrimBox)."""
    bleed: Box | None = None
    """Trim grown by the bleed (becomes the PDF BleedBox)."""
    label: str = ""
    """What the page holds, e.g. `fronts 1` (used for SVG titles)."""
    cut: tuple["CutPath", ...] = ()
    """Cut lines of the die-cut pieces on the page (tiles, round tokens): closed loops, or circles
    for round pieces, in page mm, exactly each piece's outline. The PDF strokes them in the
    `CutContour` spot colour on a layer of their own; an SVG cut file holds them alone
    (toolkit.render.svg.cut_svg)."""


@dataclass(frozen=True)
class Document:
    """Pages plus the symbols they use; everything a backend needs."""

    title: str
    pages: tuple[Page, ...]
    symbols: tuple[Symbol, ...] = field(default=())
    notes: tuple[str, ...] = ()
    """What the user should know about how it was laid out (e.g. a gutter that cost a sheet)."""
    fonts: tuple | None = None
    """(regular, bold) theme FontFiles the text is set in; None: the bundled Vera Sans."""

    def symbol(self, name: str) -> Symbol:
        for sym in self.symbols:
            if sym.name == name:
                return sym
        raise KeyError(name)


# ----- helpers shared by the component modules -------------------------------------------------


def translate(dx: float, dy: float) -> Matrix:
    return (1.0, 0.0, 0.0, 1.0, dx, dy)


def scale(s: float, dx: float = 0.0, dy: float = 0.0) -> Matrix:
    """Scale by `s`, then move by (dx, dy)."""
    return (s, 0.0, 0.0, s, dx, dy)


def compose(*matrices: Matrix) -> Matrix:
    """The product of affine transforms: `compose(A, B)` applies B first, then A."""
    result = IDENTITY
    for m in reversed(matrices):
        a1, b1, c1, d1, e1, f1 = m
        a2, b2, c2, d2, e2, f2 = result
        result = (
            a1 * a2 + c1 * b2,
            b1 * a2 + d1 * b2,
            a1 * c2 + c1 * d2,
            b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1,
            b1 * e2 + d1 * f2 + f1,
        )
    return result


def apply(matrix: Matrix, x: float, y: float) -> Point:
    a, b, c, d, e, f = matrix
    return (a * x + c * y + e, b * x + d * y + f)


def group(items, dx: float = 0.0, dy: float = 0.0, clip=None) -> Group:
    return Group(tuple(items), translate(dx, dy), clip)


def text_width(text: str, size_pt: float, bold: bool = False) -> float:
    """Width of `text` in mm, estimated from the Vera Sans advance widths.

    Layout code must not import a backend, so this uses a compact width table: narrow, normal
    and wide glyph classes, slightly generous so text never overruns its box.
    """
    narrow = set("iljtfI.,:;'!|()[] ")
    wide = set("MWmw@%")
    total = 0.0
    for ch in text:
        if ch in narrow:
            total += 0.34
        elif ch in wide:
            total += 0.88
        elif ch.isupper() or ch.isdigit():
            total += 0.68
        else:
            total += 0.62
    if bold:
        total *= 1.1
    return total * size_pt * MM_PER_PT


def fit_text_size(text: str, max_width: float, size_pt: float, bold: bool = False) -> float:
    """The largest size <= size_pt at which `text` fits in max_width mm."""
    width = text_width(text, size_pt, bold)
    if width <= max_width or width == 0:
        return size_pt
    return size_pt * max_width / width


def rescaled(items, s: float, min_text_pt: float = 0.0) -> tuple[Item, ...]:
    """`items` drawn `s` times as large about the origin, strokes kept printable and text kept at
    least `min_text_pt` (a smaller card keeps legible type rather than shrinking it)."""

    def stroke(width: float) -> float:
        return max(width * s, MIN_LINE_MM)

    def one(item):
        if isinstance(item, Rect):
            return Rect(item.x * s, item.y * s, item.width * s, item.height * s, item.stroke,
                        stroke(item.stroke_width), item.fill, tuple(d * s for d in item.dash), item.radius * s)
        if isinstance(item, Line):
            return Line(item.x1 * s, item.y1 * s, item.x2 * s, item.y2 * s, item.stroke,
                        stroke(item.stroke_width), tuple(d * s for d in item.dash))
        if isinstance(item, Poly):
            return Poly(tuple((x * s, y * s) for x, y in item.points), item.closed, item.stroke,
                        stroke(item.stroke_width), item.fill, tuple(d * s for d in item.dash), item.round_joins)
        if isinstance(item, Circle):
            return Circle(item.cx * s, item.cy * s, item.r * s, item.stroke, stroke(item.stroke_width), item.fill)
        if isinstance(item, Text):
            return Text(item.x * s, item.y * s, item.text, max(item.size * s, min_text_pt), item.anchor,
                        item.bold, item.fill)
        if isinstance(item, Image):
            return Image(item.x * s, item.y * s, item.width * s, item.height * s, item.data, item.mime)
        if isinstance(item, Group):
            a, b, c, d, e, f = item.transform
            if (a, b, c, d) != (1.0, 0.0, 0.0, 1.0):
                raise ValueError("rescaled() handles translated groups only")
            box = item.clip
            clip = None if box is None else (box[0] * s, box[1] * s, box[2] * s, box[3] * s)
            path = None if item.clip_path is None else tuple(tuple((x * s, y * s) for x, y in loop)
                                                             for loop in item.clip_path)
            return Group(tuple(one(child) for child in item.items), (1.0, 0.0, 0.0, 1.0, e * s, f * s), clip, path)
        raise ValueError(f"rescaled() cannot scale {type(item).__name__}")

    return tuple(one(item) for item in items)


def smallest_text(items, factor: float = 1.0) -> float | None:
    """The smallest printed text size in pt among `items` (groups' scales applied)."""
    found: list[float] = []

    def walk(items, f):
        for item in items:
            if isinstance(item, Text):
                found.append(item.size * f)
            elif isinstance(item, Group):
                a, b, c, d, _, _ = item.transform
                walk(item.items, f * abs(a * d - b * c) ** 0.5)

    walk(items, factor)
    return min(found) if found else None


def wrap_text(text: str, width: float, size_pt: float, bold: bool = False) -> list[str]:
    """`text` broken into lines no wider than `width` mm at `size_pt` (a single over-long word
    stays on its own line)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and text_width(trial, size_pt, bold) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines
