"""A report as markdown: headings, paragraphs, lists and tables; charts that read well as text
(paired differences) in code blocks, the others left to the PDF and the PNG images."""
from __future__ import annotations

from toolkit.reports import charts
from toolkit.sections import Bullets, Heading, Paragraph, Report, ReportTable, Section


def table_lines(header, rows) -> list[str]:
    lines = ["| " + " | ".join(str(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def section_lines(section: Section) -> list[str]:
    """One section's lines (none for a chart markdown cannot draw)."""
    if isinstance(section, Heading):
        return ["#" * section.level + " " + section.text]
    if isinstance(section, Paragraph):
        return [section.text]
    if isinstance(section, Bullets):
        return ([section.lead] if section.lead else []) + ["- " + item for item in section.items]
    if isinstance(section, ReportTable):
        lines = [f"### {section.title}", ""] if section.title else []
        if section.intro:
            lines += [section.intro, ""]
        return lines + table_lines(section.header, section.rows)
    drawn = charts.text(section)
    return [] if drawn is None else ["```", *drawn, "```"]


def render_markdown(report: Report) -> str:
    """The whole report; blocks are separated by one blank line."""
    lines = [f"# {report.title}"]
    for section in report.sections:
        block = section_lines(section)
        if block:
            lines += ["", *block]
    return "\n".join(lines) + "\n"
