"""Interval charts of the workbench: estimates with 95% bars against the swept values.

One chart model, two renderers: a reportlab Drawing for the PDF reports and a Pillow PNG for the
sweep's per-figure images. Both place every mark from the same scaled coordinates, so the PNG
shows what the PDF shows; both are deterministic (same data, same bytes).
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass

WIDTH, HEIGHT = 480.0, 220.0
"""Chart size in points (PDF) and pixels at 1x (PNG is drawn at 2x)."""
LEFT, RIGHT, BOTTOM, TOP = 52.0, 14.0, 40.0, 26.0
COLOUR = (59, 110, 165)
LINE_COLOUR = (200, 85, 61)


@dataclass(frozen=True)
class IntervalChart:
    """Points with intervals at categories (in order), optionally with a fitted line over numeric x."""

    title: str
    labels: tuple[str, ...]
    estimates: tuple[float | None, ...]
    lows: tuple[float | None, ...]
    highs: tuple[float | None, ...]
    y_label: str = ""
    xs: tuple[float, ...] | None = None
    """Numeric x of each category (to draw `line` and `mark` on the same axis)."""
    line: tuple[float, float] | None = None
    """(intercept, slope) of a fitted line y = a + b x."""
    mark: float | None = None
    """An x to mark with a vertical rule (e.g. the fair value)."""
    zero: bool = True
    """Draw the y = 0 rule."""


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    span = hi - lo
    raw = span / count
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), default=raw)
    first = math.ceil(lo / step) * step
    ticks, t = [], first
    while t <= hi + 1e-9 * span:
        ticks.append(round(t, 10))
        t += step
    return ticks


@dataclass(frozen=True)
class _Layout:
    ymin: float
    ymax: float
    xmin: float
    xmax: float
    n: int

    def x_of_index(self, i: int) -> float:
        w = WIDTH - LEFT - RIGHT
        return LEFT + w * (i + 0.5) / self.n

    def x_of_value(self, x: float) -> float:
        w = WIDTH - LEFT - RIGHT
        if self.xmax == self.xmin:
            return LEFT + w / 2
        # categories sit at the centres of n equal slots, so value xmin..xmax maps to slot centres
        return LEFT + w * (0.5 + (x - self.xmin) / (self.xmax - self.xmin) * (self.n - 1)) / self.n

    def y(self, v: float) -> float:
        h = HEIGHT - BOTTOM - TOP
        return BOTTOM + h * (v - self.ymin) / (self.ymax - self.ymin)


def _layout(c: IntervalChart) -> _Layout:
    values = [v for v in (*c.estimates, *c.lows, *c.highs) if v is not None]
    if c.zero:
        values.append(0.0)
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    if hi - lo < 1e-9:
        lo, hi = lo - 1.0, hi + 1.0
    pad = (hi - lo) * 0.08
    xs = c.xs or tuple(range(len(c.labels)))
    return _Layout(lo - pad, hi + pad, min(xs), max(xs), max(1, len(c.labels)))


def _segments(c: IntervalChart, lay: _Layout):
    """Every mark as plain geometry in chart coordinates (y up): lines, dots and texts."""
    lines, dots, texts = [], [], []
    lines.append(((LEFT, BOTTOM), (WIDTH - RIGHT, BOTTOM), (0, 0, 0), 0.8))
    lines.append(((LEFT, BOTTOM), (LEFT, HEIGHT - TOP), (0, 0, 0), 0.8))
    for t in _ticks(lay.ymin, lay.ymax):
        y = lay.y(t)
        lines.append(((LEFT - 3, y), (LEFT, y), (0, 0, 0), 0.6))
        texts.append((LEFT - 5, y - 3, f"{t:g}", 7, "end"))
    if c.zero and lay.ymin < 0 < lay.ymax:
        lines.append(((LEFT, lay.y(0)), (WIDTH - RIGHT, lay.y(0)), (150, 150, 150), 0.6))
    longest = max((len(label) for label in c.labels), default=1)
    step = max(1, math.ceil(len(c.labels) * (longest * 4.0 + 6.0) / (WIDTH - LEFT - RIGHT)))
    for i, label in enumerate(c.labels):
        x = lay.x_of_index(i)
        if i % step == 0:
            texts.append((x, BOTTOM - 12, label, 7, "middle"))
        if c.lows[i] is not None and c.highs[i] is not None:
            lo, hi = lay.y(c.lows[i]), lay.y(c.highs[i])
            lines.append(((x, lo), (x, hi), COLOUR, 1.0))
            lines.append(((x - 3, lo), (x + 3, lo), COLOUR, 1.0))
            lines.append(((x - 3, hi), (x + 3, hi), COLOUR, 1.0))
        if c.estimates[i] is not None:
            dots.append((x, lay.y(c.estimates[i]), 2.4, COLOUR))
    if c.line is not None and c.xs:
        a, b = c.line
        x0, x1 = lay.xmin, lay.xmax
        y0, y1 = a + b * x0, a + b * x1
        if lay.ymin <= min(y0, y1) and max(y0, y1) <= lay.ymax:
            lines.append(((lay.x_of_value(x0), lay.y(y0)), (lay.x_of_value(x1), lay.y(y1)), LINE_COLOUR, 1.0))
        else:  # clip by sampling: keep the part inside the plot
            pts = [(x0 + (x1 - x0) * k / 50) for k in range(51)]
            inside = [(lay.x_of_value(x), lay.y(a + b * x)) for x in pts if lay.ymin <= a + b * x <= lay.ymax]
            for p, q in zip(inside, inside[1:]):
                lines.append((p, q, LINE_COLOUR, 1.0))
    if c.mark is not None and c.xs and lay.xmin <= c.mark <= lay.xmax:
        x = lay.x_of_value(c.mark)
        lines.append(((x, BOTTOM), (x, HEIGHT - TOP), LINE_COLOUR, 0.6))
    texts.append((WIDTH / 2, HEIGHT - 14, c.title, 9, "middle"))
    if c.y_label:
        texts.append((LEFT, HEIGHT - TOP + 4, c.y_label, 7, "start"))
    return lines, dots, texts


def drawing(c: IntervalChart):
    """The chart as a reportlab Drawing (for the PDF)."""
    from reportlab.graphics.shapes import Circle, Drawing, Line, String
    from reportlab.lib import colors

    lay = _layout(c)
    lines, dots, texts = _segments(c, lay)
    d = Drawing(WIDTH, HEIGHT)
    rgb = lambda col: colors.Color(col[0] / 255, col[1] / 255, col[2] / 255)  # noqa: E731
    for (x0, y0), (x1, y1), col, width in lines:
        d.add(Line(x0, y0, x1, y1, strokeColor=rgb(col), strokeWidth=width))
    for x, y, r, col in dots:
        d.add(Circle(x, y, r, fillColor=rgb(col), strokeColor=None))
    for x, y, text, size, anchor in texts:
        d.add(String(x, y, text, fontSize=size, textAnchor=anchor))
    return d


def png(c: IntervalChart, scale: int = 2) -> bytes:
    """The chart as PNG bytes (Pillow; y flipped to image coordinates)."""
    from PIL import Image, ImageDraw, ImageFont

    lay = _layout(c)
    lines, dots, texts = _segments(c, lay)
    img = Image.new("RGB", (int(WIDTH * scale), int(HEIGHT * scale)), "white")
    draw = ImageDraw.Draw(img)
    flip = lambda x, y: (x * scale, (HEIGHT - y) * scale)  # noqa: E731
    for (x0, y0), (x1, y1), col, width in lines:
        draw.line([flip(x0, y0), flip(x1, y1)], fill=col, width=max(1, round(width * scale)))
    for x, y, r, col in dots:
        cx, cy = flip(x, y)
        draw.ellipse([cx - r * scale, cy - r * scale, cx + r * scale, cy + r * scale], fill=col)
    for x, y, text, size, anchor in texts:
        font = ImageFont.load_default(size * scale)
        px, py = flip(x, y)
        pil_anchor = {"start": "ls", "middle": "ms", "end": "rs"}[anchor]
        draw.text((px, py), text, fill=(0, 0, 0), font=font, anchor=pil_anchor)
    buffer = io.BytesIO()
    img.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()
