"""Plain-text pictures shared by the engines' board text and the play prompt."""
from __future__ import annotations

TEXT_WIDTH = 78
"""Columns a terminal picture wraps at."""


def draw_side_by_side(blocks: list[tuple[str, tuple[str, ...]]], width: int = TEXT_WIDTH) -> list[str]:
    """Labelled text pictures next to each other (wrapping at `width` columns), tops aligned."""
    lines: list[str] = []
    row: list[tuple[str, tuple[str, ...]]] = []
    used = 0
    gap = "   "

    def flush() -> None:
        widths = [max(len(label), *(len(r) for r in rows)) for label, rows in row]
        height = max(len(rows) for _, rows in row)
        lines.append(gap.join(label.ljust(w) for (label, _), w in zip(row, widths)).rstrip())
        for i in range(height):
            lines.append(
                gap.join((rows[i] if i < len(rows) else "").ljust(w) for (_, rows), w in zip(row, widths)).rstrip()
            )

    for label, rows in blocks:
        w = max(len(label), *(len(r) for r in rows))
        if row and used + len(gap) + w > width:
            flush()
            row, used = [], 0
        used += (len(gap) if row else 0) + w
        row.append((label, rows))
    if row:
        flush()
    return lines
