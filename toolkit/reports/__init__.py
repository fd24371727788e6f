"""Reports: one section model (tables and charts) that markdown, PDF and charts render alike."""
from toolkit.reports.model import ReportChart, ReportTable

__all__ = ["ReportChart", "ReportTable"]
