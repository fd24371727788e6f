"""Every chart of every report, laid out once: a chart -> Marks (lines, bars, dots and texts in
points, y up), which the PDF draws as vector shapes (toolkit.reports.pdf) and `png` paints with
Pillow, so an image shows exactly what the PDF shows.

Kinds: histograms and bars (the simulator's distributions, start cards, rounds, base against
variant), intervals (the workbench's estimates with 95% bars against swept values, a fitted line,
a marked value), series (a 2-key sweep: one line per value of the second key, with 95% bars),
heatmaps (a 2-key sweep with many values of the second key: one cell per point, its estimate
written in it) and paired differences (balance; also drawn as text for the markdown). Layout is
deterministic: the same chart gives the same marks, the same PNG bytes and the same PDF bytes.
"""
from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from toolkit.sections import Chart, DifferenceChart, HeatmapChart, IntervalChart, SeriesChart

Colour = tuple[int, int, int]
MM = 72 / 25.4
"""Points per millimetre."""
BLACK: Colour = (0, 0, 0)
GREY: Colour = (128, 128, 128)
RULE: Colour = (150, 150, 150)
SERIES_COLOURS: tuple[Colour, ...] = ((59, 110, 165), (200, 85, 61), (106, 153, 78), (141, 106, 159))
"""Fill of the first, second, ... series; the first two also mark estimates and fitted lines."""
COLOUR, LINE_COLOUR = SERIES_COLOURS[0], SERIES_COLOURS[1]
LINE_SERIES_COLOURS: tuple[Colour, ...] = (*SERIES_COLOURS, (214, 160, 40), (70, 160, 170))
"""Lines of a series chart (at most MAX_LINES; more values of the second key make a heatmap)."""
MAX_LINES = len(LINE_SERIES_COLOURS)
MAX_BINS = 30
"""Most bars of a histogram: wider value ranges share bins."""


@dataclass
class Marks:
    """A chart as plain geometry in points, y up, painted in this order: rects, lines, dots, texts."""

    width: float
    height: float
    lines: list = field(default_factory=list)
    """((x0, y0), (x1, y1), colour, stroke width)"""
    rects: list = field(default_factory=list)
    """(x, y, width, height, fill, outline colour or None)"""
    dots: list = field(default_factory=list)
    """(x, y, radius, colour)"""
    texts: list = field(default_factory=list)
    """(x, y, text, size, anchor `start`/`middle`/`end`, angle in degrees counter-clockwise)"""


def layout(chart: Chart) -> Marks:
    """The chart's marks."""
    if isinstance(chart, SeriesChart):
        return _series(chart)
    if isinstance(chart, HeatmapChart):
        return _heatmap(chart)
    if isinstance(chart, IntervalChart):
        return _intervals(chart)
    if isinstance(chart, DifferenceChart):
        return _differences(chart)
    if chart.kind == "histogram":
        labels, counts = bin_histogram(list(chart.series))
        return _bars(chart.title, labels, counts, list(chart.names))
    return _bars(chart.title, list(chart.labels), [list(v) for v in chart.series], list(chart.names))


def _nice_step(span: float, count: int) -> float:
    raw = span / count
    mag = 10 ** math.floor(math.log10(raw))
    return min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), default=raw)


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    span = hi - lo
    step = _nice_step(span, count)
    first = math.ceil(lo / step) * step
    ticks, t = [], first
    while t <= hi + 1e-9 * span:
        ticks.append(round(t, 10))
        t += step
    return ticks


# ----- histograms and bars ------------------------------------------------------------------------


def bin_histogram(series: list[list[list[int]]], max_bins: int = MAX_BINS) -> tuple[list[str], list[list[int]]]:
    """Common bins for several histograms of (value, count) pairs: labels and counts per series."""
    values = [v for pairs in series for v, _ in pairs]
    if not values:
        return ["-"], [[0] for _ in series]
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / max_bins))
    bins = (hi - lo) // width + 1
    counts = [[0] * bins for _ in series]
    for k, pairs in enumerate(series):
        for v, c in pairs:
            counts[k][(v - lo) // width] += c
    labels = [str(lo + i * width) if width == 1 else f"{lo + i * width}..{lo + (i + 1) * width - 1}" for i in range(bins)]
    return labels, counts


def _bars(title: str, labels: list[str], data: Sequence[Sequence[float]], names: list[str],
          width: float = 170 * MM, height: float = 70 * MM) -> Marks:
    """Grouped vertical bars: one group per label, one bar per series, a legend for several series."""
    m = Marks(width, height)
    x0, y0 = 12 * MM, 16 * MM
    plot_w, plot_h = width - 20 * MM, height - 36 * MM
    values = [v for d in data for v in d]
    lo = min(0.0, min(values, default=0.0))
    hi = max(values, default=0.0)
    if hi - lo < 1e-9:
        hi = lo + 1.0
    step = _nice_step(hi - lo, 6)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    y = lambda v: y0 + plot_h * (v - lo) / (hi - lo)  # noqa: E731
    base = y(max(lo, 0.0))
    n = max(1, len(labels))
    slot = plot_w / n
    units = 10.0 * len(data) + 1.0  # bars of 10 units touch; 1 unit between groups
    for k, series in enumerate(data):
        colour = SERIES_COLOURS[k % len(SERIES_COLOURS)]
        for i, v in enumerate(series):
            left = x0 + slot * (i + (0.5 + 10.0 * k) / units)
            top = y(v)
            if top != base:
                m.rects.append((left, min(base, top), slot * 10.0 / units, abs(top - base), colour, None))
    m.lines.append(((x0, y0), (x0 + plot_w, y0), BLACK, 1.0))
    m.lines.append(((x0, y0), (x0, y0 + plot_h), BLACK, 1.0))
    for t in _ticks(lo, hi, 6):
        m.lines.append(((x0 - 5, y(t)), (x0, y(t)), BLACK, 1.0))
        m.texts.append((x0 - 5 - 2, y(t) - 2.5, f"{t:g}", 7, "end", 0))
    slanted = len(labels) > 10
    size = 5 if slanted else 7
    for i in range(n + 1):
        m.lines.append(((x0 + i * slot, y0), (x0 + i * slot, y0 - 5), BLACK, 1.0))
    for i, label in enumerate(labels):
        x = x0 + (i + 0.5) * slot
        if slanted:  # the label ends just below its group, running down to the left
            m.texts.append((x + 0.87 * size, y0 - 7 - 0.5 * size, label, size, "end", 60))
        else:
            m.texts.append((x, y0 - 5 - size, label, size, "middle", 0))
    m.texts.append((width / 2, height - 7 * MM, title, 9, "middle", 0))
    if len(names) > 1:
        for k, name in enumerate(names):
            left, top = 14 * MM + k * 45 * MM, height - 11 * MM
            m.rects.append((left, top - 10, 10, 10, SERIES_COLOURS[k % len(SERIES_COLOURS)], BLACK))
            m.texts.append((left + 20, top - 7.5, name, 7, "start", 0))
    return m


# ----- intervals ----------------------------------------------------------------------------------


INTERVAL_WIDTH, INTERVAL_HEIGHT = 480.0, 220.0
"""Interval chart size in points (PDF) and pixels at 1x (PNG is drawn at 2x)."""
LEFT, RIGHT, BOTTOM, TOP = 52.0, 14.0, 40.0, 26.0


@dataclass(frozen=True)
class _Scale:
    ymin: float
    ymax: float
    xmin: float
    xmax: float
    n: int

    def x_of_index(self, i: int) -> float:
        w = INTERVAL_WIDTH - LEFT - RIGHT
        return LEFT + w * (i + 0.5) / self.n

    def x_of_value(self, x: float) -> float:
        w = INTERVAL_WIDTH - LEFT - RIGHT
        if self.xmax == self.xmin:
            return LEFT + w / 2
        # categories sit at the centres of n equal slots, so value xmin..xmax maps to slot centres
        return LEFT + w * (0.5 + (x - self.xmin) / (self.xmax - self.xmin) * (self.n - 1)) / self.n

    def y(self, v: float) -> float:
        h = INTERVAL_HEIGHT - BOTTOM - TOP
        return BOTTOM + h * (v - self.ymin) / (self.ymax - self.ymin)


def _interval_scale(c: IntervalChart) -> _Scale:
    values = [v for v in (*c.estimates, *c.lows, *c.highs) if v is not None]
    if c.zero:
        values.append(0.0)
    if c.level is not None:
        values.append(c.level)
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    if hi - lo < 1e-9:
        lo, hi = lo - 1.0, hi + 1.0
    pad = (hi - lo) * 0.08
    xs = c.xs or tuple(range(len(c.labels)))
    return _Scale(lo - pad, hi + pad, min(xs), max(xs), max(1, len(c.labels)))


def _intervals(c: IntervalChart) -> Marks:
    lay = _interval_scale(c)
    m = Marks(INTERVAL_WIDTH, INTERVAL_HEIGHT)
    lines, dots, texts = m.lines, m.dots, m.texts
    width, height = INTERVAL_WIDTH, INTERVAL_HEIGHT
    lines.append(((LEFT, BOTTOM), (width - RIGHT, BOTTOM), BLACK, 0.8))
    lines.append(((LEFT, BOTTOM), (LEFT, height - TOP), BLACK, 0.8))
    for t in _ticks(lay.ymin, lay.ymax):
        y = lay.y(t)
        lines.append(((LEFT - 3, y), (LEFT, y), BLACK, 0.6))
        texts.append((LEFT - 5, y - 3, f"{t:g}", 7, "end", 0))
    if c.zero and lay.ymin < 0 < lay.ymax:
        lines.append(((LEFT, lay.y(0)), (width - RIGHT, lay.y(0)), RULE, 0.6))
    if c.level is not None and lay.ymin < c.level < lay.ymax:
        lines.append(((LEFT, lay.y(c.level)), (width - RIGHT, lay.y(c.level)), LINE_COLOUR, 0.6))
    longest = max((len(label) for label in c.labels), default=1)
    step = max(1, math.ceil(len(c.labels) * (longest * 4.0 + 6.0) / (width - LEFT - RIGHT)))
    for i, label in enumerate(c.labels):
        x = lay.x_of_index(i)
        if i % step == 0:
            texts.append((x, BOTTOM - 12, label, 7, "middle", 0))
        low, high, estimate = c.lows[i], c.highs[i], c.estimates[i]
        if estimate is not None and (low is None) != (high is None):  # open at one end: the bar runs off the plot
            lo = lay.y(lay.ymin if low is None else low)
            hi = lay.y(lay.ymax if high is None else high)
            lines.append(((x, lo), (x, hi), COLOUR, 1.0))
            cap = hi if c.highs[i] is not None else lo
            lines.append(((x - 3, cap), (x + 3, cap), COLOUR, 1.0))
        elif low is not None and high is not None:
            lo, hi = lay.y(low), lay.y(high)
            lines.append(((x, lo), (x, hi), COLOUR, 1.0))
            lines.append(((x - 3, lo), (x + 3, lo), COLOUR, 1.0))
            lines.append(((x - 3, hi), (x + 3, hi), COLOUR, 1.0))
        if estimate is not None:
            dots.append((x, lay.y(estimate), 2.4, COLOUR))
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
        lines.append(((x, BOTTOM), (x, height - TOP), LINE_COLOUR, 0.6))
    texts.append((width / 2, height - 14, c.title, 9, "middle", 0))
    if c.y_label:
        texts.append((LEFT, height - TOP + 4, c.y_label, 7, "start", 0))
    return m


# ----- series and heatmaps ------------------------------------------------------------------------


def _series(c: SeriesChart) -> Marks:
    flat = IntervalChart(c.title, c.labels, tuple(v for e in c.estimates for v in e), tuple(v for e in c.lows for v in e),
                         tuple(v for e in c.highs for v in e), c.y_label, zero=c.zero)
    lay = _interval_scale(flat)
    lay = _Scale(lay.ymin, lay.ymax, 0, max(1, len(c.labels) - 1), max(1, len(c.labels)))
    m = Marks(INTERVAL_WIDTH, INTERVAL_HEIGHT + 14 * ((len(c.names) + 3) // 4))
    m.lines.append(((LEFT, BOTTOM), (INTERVAL_WIDTH - RIGHT, BOTTOM), BLACK, 0.8))
    m.lines.append(((LEFT, BOTTOM), (LEFT, INTERVAL_HEIGHT - TOP), BLACK, 0.8))
    for t in _ticks(lay.ymin, lay.ymax):
        m.lines.append(((LEFT - 3, lay.y(t)), (LEFT, lay.y(t)), BLACK, 0.6))
        m.texts.append((LEFT - 5, lay.y(t) - 3, f"{t:g}", 7, "end", 0))
    if c.zero and lay.ymin < 0 < lay.ymax:
        m.lines.append(((LEFT, lay.y(0)), (INTERVAL_WIDTH - RIGHT, lay.y(0)), RULE, 0.6))
    for i, label in enumerate(c.labels):
        m.texts.append((lay.x_of_index(i), BOTTOM - 12, label, 7, "middle", 0))
    slot = (INTERVAL_WIDTH - LEFT - RIGHT) / max(1, len(c.labels))
    for k, name in enumerate(c.names):
        colour = LINE_SERIES_COLOURS[k % len(LINE_SERIES_COLOURS)]
        # series side by side within a category, so their bars do not hide each other
        shift = (k - (len(c.names) - 1) / 2) * min(6.0, slot * 0.6 / max(1, len(c.names)))
        points = []
        for i in range(len(c.labels)):
            x = lay.x_of_index(i) + shift
            est, lo, hi = c.estimates[k][i], c.lows[k][i], c.highs[k][i]
            if lo is not None and hi is not None:
                m.lines.append(((x, lay.y(lo)), (x, lay.y(hi)), colour, 0.8))
            if est is not None:
                m.dots.append((x, lay.y(est), 2.2, colour))
                points.append((x, lay.y(est)))
        for p, q in zip(points, points[1:]):
            m.lines.append((p, q, colour, 1.0))
        left, row_y = LEFT + (k % 4) * 105, INTERVAL_HEIGHT - TOP + 8 + 14 * (k // 4)
        m.lines.append(((left, row_y + 2.5), (left + 12, row_y + 2.5), colour, 2.0))
        m.texts.append((left + 16, row_y, name, 7, "start", 0))
    m.texts.append((INTERVAL_WIDTH / 2, m.height - 12, c.title, 9, "middle", 0))
    if c.y_label:
        m.texts.append((LEFT + 4, INTERVAL_HEIGHT - TOP - 8, c.y_label, 7, "start", 0))
    return m


def shade(value: float, lo: float, hi: float) -> Colour:
    """A cell's fill: white at the lowest value to 70% of the first series colour at the highest
    (so the black figure written in the cell stays readable)."""
    t = 0.0 if hi <= lo else 0.7 * (value - lo) / (hi - lo)
    return tuple(round(255 + (c - 255) * t) for c in COLOUR)  # type: ignore[return-value]


def _heatmap(c: HeatmapChart) -> Marks:
    cols, rows = max(1, len(c.columns)), max(1, len(c.rows))
    cell_w = min(60.0, (INTERVAL_WIDTH - LEFT - RIGHT) / cols)
    cell_h = min(24.0, 300.0 / rows)
    height = BOTTOM + rows * cell_h + TOP + 12
    m = Marks(INTERVAL_WIDTH, height)
    known = [v for row in c.values for v in row if v is not None]
    lo, hi = (min(known), max(known)) if known else (0.0, 1.0)
    size = 7 if cell_w >= 30 else 5
    for r, row_label in enumerate(c.rows):
        y = BOTTOM + r * cell_h
        m.texts.append((LEFT - 4, y + cell_h / 2 - 2.5, row_label, 7, "end", 0))
        for k in range(len(c.columns)):
            value = c.values[r][k]
            x = LEFT + k * cell_w
            fill = (235, 235, 235) if value is None else shade(value, lo, hi)
            m.rects.append((x, y, cell_w, cell_h, fill, (255, 255, 255)))
            if value is not None:
                words = f"{100 * value:.0f}%" if c.is_rate else f"{value:.1f}"
                m.texts.append((x + cell_w / 2, y + cell_h / 2 - 2.5, words, size, "middle", 0))
    for k, label in enumerate(c.columns):
        m.texts.append((LEFT + (k + 0.5) * cell_w, BOTTOM - 12, label, 7, "middle", 0))
    m.texts.append((LEFT + cols * cell_w / 2, BOTTOM - 26, c.column_key, 7, "middle", 0))
    m.texts.append((4, BOTTOM + rows * cell_h + 6, c.row_key, 7, "start", 0))
    m.texts.append((INTERVAL_WIDTH / 2, height - 14, c.title, 9, "middle", 0))
    m.texts.append((INTERVAL_WIDTH - RIGHT, height - 26, f"light {lo:.3g} .. dark {hi:.3g}", 6, "end", 0))
    return m


# ----- paired differences -------------------------------------------------------------------------


def _differences(c: DifferenceChart, width: float = 170 * MM) -> Marks:
    # (row, low, high, mean) of the rows with an interval (low and high are set together)
    rows = [(d, d.low, d.high, d.mean) for d in c.rows
            if d.low is not None and d.high is not None and d.mean is not None]
    row_h, label_w, value_w = 7 * MM, 52 * MM, 30 * MM
    height = (len(rows) + 1) * row_h + 8 * MM
    m = Marks(width, height)
    plot_x0, plot_x1 = label_w, width - value_w
    zero = (plot_x0 + plot_x1) / 2
    half = (plot_x1 - plot_x0) / 2
    m.texts.append((width / 2, height - 5 * MM, c.title, 8, "middle", 0))
    m.lines.append(((zero, 2 * MM), (zero, height - 9 * MM), GREY, 0.5))
    for i, (d, low, high, mean) in enumerate(rows):
        y = height - 9 * MM - (i + 0.6) * row_h
        reach = max(abs(low), abs(high)) or 1.0
        x = lambda v: zero + v / reach * half * 0.95  # noqa: E731
        colour = SERIES_COLOURS[1] if d.significant else SERIES_COLOURS[0]
        m.texts.append((2 * MM, y - 2.5, d.label, 7, "start", 0))
        m.lines.append(((x(low), y), (x(high), y), colour, 1.5))
        m.dots.append((x(mean), y, 2.2, colour))
        k = d.scale
        m.texts.append((plot_x1 + 2 * MM, y - 2.5,
                        f"{k * mean:+.2f}{d.unit} [{k * low:+.2f}, {k * high:+.2f}]", 6, "start", 0))
    return m


def text(chart: Chart, width: int = 41) -> list[str] | None:
    """The chart as lines of monospaced text, for the kinds that read well so (paired
    differences: `|` is zero, `=` the interval, `o` the estimate); None for the others."""
    if not isinstance(chart, DifferenceChart):
        return None
    lines = []
    for d in chart.rows:
        mean, low, high = d.mean, d.low, d.high
        if mean is None or low is None or high is None:  # low and high are set together
            lines.append(f"{d.label[:26]:<26} n/a")
            continue
        reach = max(abs(low), abs(high)) or 1.0
        half = width // 2
        col = lambda x: half + round(x / reach * half)  # noqa: E731
        row = [" "] * (width + 1)
        for c in range(col(low), col(high) + 1):
            row[c] = "="
        row[half] = "|"
        row[col(mean)] = "o"
        lines.append(f"{d.label[:26]:<26} {''.join(row)} {d.scale * mean:+.2f}{d.unit}")
    return lines


# ----- painting -----------------------------------------------------------------------------------


def png(chart: Chart, scale: int = 2) -> bytes:
    """The chart as PNG bytes (Pillow; y flipped to image coordinates)."""
    from PIL import Image, ImageDraw, ImageFont

    m = layout(chart)
    img = Image.new("RGB", (int(m.width * scale), int(m.height * scale)), "white")
    draw = ImageDraw.Draw(img)
    flip = lambda x, y: (x * scale, (m.height - y) * scale)  # noqa: E731
    for x, y, w, h, fill, outline in m.rects:
        (left, bottom), (right, top) = flip(x, y), flip(x + w, y + h)
        draw.rectangle([left, top, right, bottom], fill=fill, outline=outline, width=1 if outline else 0)
    for (x0, y0), (x1, y1), col, width in m.lines:
        draw.line([flip(x0, y0), flip(x1, y1)], fill=col, width=max(1, round(width * scale)))
    for x, y, r, col in m.dots:
        cx, cy = flip(x, y)
        draw.ellipse([cx - r * scale, cy - r * scale, cx + r * scale, cy + r * scale], fill=col)
    for x, y, words, size, anchor, angle in m.texts:
        font = ImageFont.load_default(size * scale)
        px, py = flip(x, y)
        pil_anchor = {"start": "ls", "middle": "ms", "end": "rs"}[anchor]
        if not angle:
            draw.text((px, py), words, fill=(0, 0, 0), font=font, anchor=pil_anchor)
            continue
        # Rotated text: drawn about the centre of a square of its own, turned there, then laid on.
        reach = int(font.getlength(words)) + size * scale * 2
        tile = Image.new("L", (2 * reach, 2 * reach), 0)
        ImageDraw.Draw(tile).text((reach, reach), words, fill=255, font=font, anchor=pil_anchor)
        tile = tile.rotate(angle, center=(reach, reach), resample=Image.Resampling.BICUBIC)
        img.paste((0, 0, 0), (round(px) - reach, round(py) - reach), tile)
    buffer = io.BytesIO()
    img.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()
