"""PDF reports of simulation and balance results, with charts (the only sim module importing reportlab).

Charts: score distributions, margins and game length (time-track); score distribution, start
cards and rounds (Doodle); for balance, base and variant score distributions side by side. The
document is built with reportlab's invariant mode, so the same JSON gives the same PDF bytes.
"""
from __future__ import annotations

import io
import math

from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.shapes import Circle, Drawing, Line, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
from xml.sax.saxutils import escape

from toolkit.sim.report_md import RATE_METRICS, _family, balance_rows, sprt_line, summary_rows, track_line

MAX_BINS = 30
SERIES_COLOURS = (colors.HexColor("#3b6ea5"), colors.HexColor("#c8553d"), colors.HexColor("#6a994e"), colors.HexColor("#8d6a9f"))


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


def bar_chart(title: str, labels: list[str], data: list[list[float]], names: list[str], width: float = 170 * mm,
              height: float = 70 * mm) -> Drawing:
    drawing = Drawing(width, height)
    chart = VerticalBarChart()
    chart.x = 12 * mm
    chart.y = 16 * mm
    chart.width = width - 20 * mm
    chart.height = height - 36 * mm
    chart.data = [tuple(d) for d in data]
    chart.categoryAxis.categoryNames = labels
    chart.categoryAxis.labels.angle = 60 if len(labels) > 10 else 0
    chart.categoryAxis.labels.boxAnchor = "ne" if len(labels) > 10 else "n"
    chart.categoryAxis.labels.fontSize = 5 if len(labels) > 10 else 7
    chart.valueAxis.labels.fontSize = 7
    chart.valueAxis.valueMin = min(0, min((min(d) for d in data if d), default=0))
    chart.barSpacing = 0
    chart.groupSpacing = 1
    for k in range(len(data)):
        chart.bars[k].fillColor = SERIES_COLOURS[k % len(SERIES_COLOURS)]
        chart.bars[k].strokeColor = None
    drawing.add(chart)
    drawing.add(String(width / 2, height - 7 * mm, title, fontSize=9, textAnchor="middle"))
    if len(names) > 1:
        legend = Legend()
        legend.x = 14 * mm
        legend.y = height - 11 * mm
        legend.columnMaximum = 1
        legend.deltax = 45 * mm
        legend.fontSize = 7
        legend.alignment = "right"
        legend.colorNamePairs = [(SERIES_COLOURS[k % len(SERIES_COLOURS)], names[k]) for k in range(len(names))]
        drawing.add(legend)
    return drawing


def hist_chart(title: str, series: list[list[list[int]]], names: list[str]) -> Drawing:
    labels, counts = bin_histogram(series)
    return bar_chart(title, labels, counts, names)


def difference_chart(variant: dict, width: float = 170 * mm) -> Drawing:
    """Paired differences (variant - base) with 95% intervals, one row per figure, each row scaled to
    its own largest interval end (the figures' units differ); the grey rule is zero."""
    rows = [d for d in variant["differences"] if d["difference"].get("low") is not None]
    row_h = 7 * mm
    label_w = 52 * mm
    value_w = 30 * mm
    height = (len(rows) + 1) * row_h + 8 * mm
    drawing = Drawing(width, height)
    plot_x0, plot_x1 = label_w, width - value_w
    zero = (plot_x0 + plot_x1) / 2
    half = (plot_x1 - plot_x0) / 2
    drawing.add(String(width / 2, height - 5 * mm, "Paired differences, variant - base (95% intervals, each row on its own scale)",
                       fontSize=8, textAnchor="middle"))
    drawing.add(Line(zero, 2 * mm, zero, height - 9 * mm, strokeColor=colors.grey, strokeWidth=0.5))
    for i, d in enumerate(rows):
        diff_ = d["difference"]
        y = height - 9 * mm - (i + 0.6) * row_h
        reach = max(abs(diff_["low"]), abs(diff_["high"])) or 1.0
        x = lambda v: zero + v / reach * half * 0.95  # noqa: E731
        colour = SERIES_COLOURS[1] if diff_["significant"] else SERIES_COLOURS[0]
        drawing.add(String(2 * mm, y - 2.5, d["label"], fontSize=7))
        drawing.add(Line(x(diff_["low"]), y, x(diff_["high"]), y, strokeColor=colour, strokeWidth=1.5))
        drawing.add(Circle(x(diff_["mean"]), y, 2.2, fillColor=colour, strokeColor=None))
        k, unit = (100.0, " pp") if d["metric"] in RATE_METRICS else (1.0, "")
        drawing.add(String(plot_x1 + 2 * mm, y - 2.5, f"{k * diff_['mean']:+.2f}{unit} [{k * diff_['low']:+.2f}, {k * diff_['high']:+.2f}]",
                           fontSize=6))
    return drawing


class _Doc:
    def __init__(self) -> None:
        styles = getSampleStyleSheet()
        self.h1, self.h2, self.body = styles["Heading1"], styles["Heading2"], styles["BodyText"]
        self.small = styles["BodyText"].clone("small", fontSize=7, leading=8.5)
        self.story: list = []

    def heading(self, text: str, level: int = 1) -> None:
        self.story.append(Paragraph(escape(text), self.h1 if level == 1 else self.h2))

    def para(self, text: str) -> None:
        self.story.append(Paragraph(escape(text), self.body))

    def table(self, header: list[str], rows: list[list], widths=None, small: bool = False) -> None:
        style = self.small if small else self.body
        data = [[Paragraph(f"<b>{escape(str(h))}</b>", style) for h in header]]
        data += [[Paragraph(escape(str(c)).replace("**", ""), style) for c in row] for row in rows]
        table = Table(data, colWidths=widths, repeatRows=1)
        table.setStyle(TableStyle([
            ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]))
        self.story.append(table)
        self.story.append(Spacer(1, 4 * mm))

    def add(self, flowable) -> None:
        self.story.append(flowable)
        self.story.append(Spacer(1, 3 * mm))

    def build(self, title: str) -> bytes:
        buffer = io.BytesIO()
        doc = SimpleDocTemplate(buffer, pagesize=A4, title=title, author="patchwork-toolkit",
                                leftMargin=18 * mm, rightMargin=18 * mm, topMargin=16 * mm, bottomMargin=16 * mm,
                                invariant=1)
        doc.build(self.story)
        return buffer.getvalue()


def _run_paragraphs(d: _Doc, doc: dict) -> None:
    bots = ", ".join(f"{b['index']}: {b['label']}" for b in doc["bots"])
    d.para(f"Bots: {bots}. Games: {doc['games']} per edition ({doc['deals']} deals x {doc['games_per_deal']}). "
           f"Seed {doc['seed']}. {doc['seats']}.")
    d.para(f"Command: {doc['command']}")
    d.para(f"Intervals: {doc['intervals']}. {doc['toolkit']['name']} {doc['toolkit']['version']}.")


def _edition_paragraph(d: _Doc, edition: dict) -> None:
    d.para(f"Edition: {edition['title']} ({edition['name']}, {edition['family']}, board {edition['board']}); "
           f"spec {edition['source']}, hash {edition['content_hash'][:16]}. Time track: {track_line(edition)}.")


def _section(d: _Doc, section) -> None:
    from toolkit.reports.model import ReportTable

    if isinstance(section, ReportTable):
        if section.intro:
            d.para(section.intro)
        d.table(list(section.header), [list(row) for row in section.rows], small=section.small)
    elif section.kind == "histogram":
        d.add(hist_chart(section.title, list(section.series), list(section.names)))
    else:
        d.add(bar_chart(section.title, list(section.labels), [list(v) for v in section.series], list(section.names)))


def _figures(d: _Doc, figures: dict, family: str) -> None:
    d.table(["figure", "value (95% interval)"], [list(r) for r in summary_rows(figures, family)], widths=[60 * mm, 114 * mm])
    for section in _family(family).report_sections(figures):
        _section(d, section)


def simulation_pdf(doc: dict) -> bytes:
    edition = doc["edition"]
    d = _Doc()
    d.heading(f"Simulation: {edition['title']}")
    _edition_paragraph(d, edition)
    _run_paragraphs(d, doc)
    _figures(d, doc["figures"], edition["family"])
    return d.build(f"Simulation: {edition['title']}")


def balance_pdf(doc: dict) -> bytes:
    base = doc["base"]
    family = base["edition"]["family"]
    d = _Doc()
    d.heading(f"Balance: variants of {base['edition']['title']}")
    _edition_paragraph(d, base["edition"])
    _run_paragraphs(d, doc)
    d.para(f"Pairing: {doc['pairing']}.")
    if "sequential" in doc:
        d.para(f"Sequential test: {doc['sequential']['test']}; at most {doc['sequential']['games_cap']} games.")
    for variant in doc["variants"]:
        d.heading(f"Variant {variant['ref']}: {variant['edition']['title']}", 2)
        _edition_paragraph(d, variant["edition"])
        if "sprt" in variant:
            d.para(sprt_line(variant["sprt"]) + ".")
        d.table(["figure", "base", "variant", "difference", "p", "significant"], balance_rows(variant), small=True)
        d.add(difference_chart(variant))
        _section(d, _family(family).comparison_chart(base["figures"], variant["figures"]))
    d.heading("Base figures", 2)
    _figures(d, base["figures"], family)
    for variant in doc["variants"]:
        d.heading(f"Figures of {variant['ref']}", 2)
        _figures(d, variant["figures"], family)
    return d.build(f"Balance: {base['edition']['title']}")
