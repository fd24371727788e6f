"""The sections of a report: tables and charts as plain data, rendered alike by every backend."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ReportTable:
    """A table of a report section (markdown and PDF render the same rows)."""

    title: str
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
