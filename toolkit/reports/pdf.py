"""A report as PDF (the only reports module importing reportlab): A4 pages of headings,
paragraphs, tables and every chart drawn as vector shapes from its marks (toolkit.reports.charts).

Built with reportlab's invariant mode, so the same report gives the same PDF bytes.
"""
from __future__ import annotations

import io
import math
import re
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Circle, Drawing, Group, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph as Para
from reportlab.platypus import SimpleDocTemplate, Spacer, Table, TableStyle

from toolkit.reports import charts
from toolkit.sections import Bullets, Chart, Heading, Paragraph, Report, ReportTable

_STRONG = re.compile(r"\*\*(.+?)\*\*")


def inline(text: str) -> str:
    """Markdown inline text as reportlab markup: **strong** in bold, `code` as plain text."""
    return _STRONG.sub(r"<b>\1</b>", escape(str(text))).replace("`", "")


def _rgb(colour: charts.Colour):
    return colors.Color(colour[0] / 255, colour[1] / 255, colour[2] / 255)


def drawing(chart: Chart) -> Drawing:
    """The chart's marks as a reportlab Drawing."""
    m = charts.layout(chart)
    d = Drawing(m.width, m.height)
    for x, y, w, h, fill, outline in m.rects:
        d.add(Rect(x, y, w, h, fillColor=_rgb(fill), strokeColor=None if outline is None else _rgb(outline)))
    for (x0, y0), (x1, y1), colour, width in m.lines:
        d.add(Line(x0, y0, x1, y1, strokeColor=_rgb(colour), strokeWidth=width))
    for x, y, r, colour in m.dots:
        d.add(Circle(x, y, r, fillColor=_rgb(colour), strokeColor=None))
    for x, y, words, size, anchor, angle in m.texts:
        if not angle:
            d.add(String(x, y, words, fontSize=size, textAnchor=anchor))
            continue
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        d.add(Group(String(0, 0, words, fontSize=size, textAnchor=anchor), transform=(c, s, -s, c, x, y)))
    return d


class _Document:
    def __init__(self) -> None:
        styles = getSampleStyleSheet()
        self.headings = {1: styles["Heading1"], 2: styles["Heading2"], 3: styles["Heading3"]}
        self.body = styles["BodyText"]
        self.small = styles["BodyText"].clone("small", fontSize=7, leading=8.5)
        self.story: list = []

    def heading(self, text: str, level: int) -> None:
        self.story.append(Para(inline(text), self.headings[min(max(level, 1), 3)]))

    def para(self, text: str) -> None:
        self.story.append(Para(inline(text), self.body))

    def table(self, section: ReportTable) -> None:
        if section.title:
            self.heading(section.title, 3)
        if section.intro:
            self.para(section.intro)
        if self.story and isinstance(self.story[-1], Para):
            self.story.append(Spacer(1, 1.5 * mm))  # a table right under text is kept off it
        style = self.small if section.small else self.body
        data = [[Para(f"<b>{inline(h)}</b>", style) for h in section.header]]
        data += [[Para(inline(c), style) for c in row] for row in section.rows]
        table = Table(data, repeatRows=1)
        table.setStyle(TableStyle([
            ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]))
        self.story.append(table)
        self.story.append(Spacer(1, 4 * mm))

    def chart(self, chart: Chart) -> None:
        self.story.append(drawing(chart))
        self.story.append(Spacer(1, 3 * mm))


def render_pdf(report: Report) -> bytes:
    """The whole report as PDF bytes."""
    d = _Document()
    d.heading(report.title, 1)
    for section in report.sections:
        if isinstance(section, Heading):
            d.heading(section.text, section.level)
        elif isinstance(section, Paragraph):
            if section.pdf:
                d.para(section.text)
        elif isinstance(section, Bullets):
            for text in ([section.lead] if section.lead else []) + list(section.items):
                d.para(text)
        elif isinstance(section, ReportTable):
            d.table(section)
        else:
            d.chart(section)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, title=report.title, author="patchwork-toolkit",
                            leftMargin=18 * mm, rightMargin=18 * mm, topMargin=16 * mm, bottomMargin=16 * mm,
                            invariant=1)
    doc.build(d.story)
    return buffer.getvalue()
