"""Paper sizes: the named sheets the toolkit prints on, and custom `WxHmm` trim sizes."""
from __future__ import annotations

import re
from dataclasses import dataclass

from toolkit.errors import UsageError

NAMED_PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a5": (148.0, 210.0),
}
"""Portrait width and height in mm."""

MIN_SIDE_MM = 50.0
"""Smallest custom side: below this nothing of the toolkit fits."""
MAX_SIDE_MM = 2000.0
"""Largest custom side accepted (a large-format plotter roll is narrower than this)."""

_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*mm\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Paper:
    """A sheet of paper, portrait as given."""

    name: str
    width: float
    height: float

    @property
    def short(self) -> float:
        return min(self.width, self.height)


def parse_paper(text: str) -> Paper:
    """`a4`, `letter`, `a5` or a custom `WxHmm` such as `100x150mm`."""
    key = text.strip().lower()
    if key in NAMED_PAPERS:
        width, height = NAMED_PAPERS[key]
        return Paper(key, width, height)
    match = _CUSTOM.match(key)
    if not match:
        raise UsageError(
            f"unknown paper '{text}': expected a4, letter, a5 or a custom size like 100x150mm"
        )
    width, height = float(match.group(1)), float(match.group(2))
    for side in (width, height):
        if not MIN_SIDE_MM <= side <= MAX_SIDE_MM:
            raise UsageError(
                f"paper '{text}': each side must be between {MIN_SIDE_MM:g} and "
                f"{MAX_SIDE_MM:g} mm"
            )
    return Paper(f"{width:g}x{height:g}mm", width, height)
