"""The sections of a report: headings, text, tables and charts as plain data, rendered alike by
every backend (toolkit.reports.markdown, toolkit.reports.pdf; charts through toolkit.reports.charts).

It sits at the bottom of the house with errors and stats, importing nothing of the toolkit: the
rules families fill these sections with their result figures (RulesFamily.summary_rows and
figure_sections), and the reports, far above them, assemble and render them.

Text is markdown inline text: `code` and **strong** are the only marks, and the PDF shows them as
plain and bold text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union


@dataclass(frozen=True)
class Heading:
    """A section heading; the report's title is level 1."""

    text: str
    level: int = 2


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of text."""

    text: str
    pdf: bool = True
    """False: a note for the markdown only (the files beside it, the caption of a text chart)."""


@dataclass(frozen=True)
class Bullets:
    """A list of facts, one line each; `lead` is a line just above the list."""

    items: tuple[str, ...]
    lead: str = ""


@dataclass(frozen=True)
class ReportTable:
    """A table of a report section (markdown and PDF render the same rows)."""

    title: str
    """Shown as a heading above the table; "" for none."""
    header: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    intro: str = ""
    small: bool = False


@dataclass(frozen=True)
class ReportChart:
    """A chart: `histogram` series are [[value, count], ...]; `bars` series are one number per label."""

    kind: str
    """`histogram` or `bars`."""
    title: str
    series: tuple[Any, ...]
    names: tuple[str, ...]
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class IntervalChart:
    """Points with 95% intervals at categories (in order), optionally with a fitted line over numeric x."""

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
    level: float | None = None
    """A y to rule across the plot and keep in view (e.g. 0.5: an even win rate)."""


@dataclass(frozen=True)
class SeriesChart:
    """Lines with 95% bars over shared categories: one line per series (a 2-key sweep draws one
    per value of the second key against the values of the first)."""

    title: str
    labels: tuple[str, ...]
    """The categories along x (values of the first key), in order."""
    names: tuple[str, ...]
    """One name per series (`bonus.points=5`)."""
    estimates: tuple[tuple[float | None, ...], ...]
    """Per series, one estimate per category."""
    lows: tuple[tuple[float | None, ...], ...]
    highs: tuple[tuple[float | None, ...], ...]
    y_label: str = ""
    zero: bool = False


@dataclass(frozen=True)
class HeatmapChart:
    """A grid of estimates, one cell per (row, column), shaded from the lowest to the highest and
    each written in its cell (its interval is in the report's table)."""

    title: str
    columns: tuple[str, ...]
    """Values of the first key, left to right."""
    rows: tuple[str, ...]
    """Values of the second key, bottom to top."""
    values: tuple[tuple[float | None, ...], ...]
    """values[row][column]."""
    column_key: str = ""
    row_key: str = ""
    is_rate: bool = False


@dataclass(frozen=True)
class Difference:
    """One figure's paired difference (variant - base) with its 95% interval."""

    label: str
    mean: float | None
    low: float | None
    high: float | None
    significant: bool
    scale: float = 1.0
    """Shown as value x scale (100 for a rate shown in percentage points)."""
    unit: str = ""


@dataclass(frozen=True)
class DifferenceChart:
    """Paired differences, one row per figure, each row scaled to its own largest interval end
    (the figures' units differ); markdown draws it as text, the PDF as a drawing."""

    title: str
    rows: tuple[Difference, ...]


Chart = Union[ReportChart, IntervalChart, SeriesChart, HeatmapChart, DifferenceChart]
Section = Union[Heading, Paragraph, Bullets, ReportTable, ReportChart, IntervalChart, SeriesChart, HeatmapChart,
                DifferenceChart]


@dataclass(frozen=True)
class Report:
    """A whole document: its title (the level-1 heading and the PDF's title) and its sections."""

    title: str
    sections: tuple[Section, ...]
