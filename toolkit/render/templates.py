"""Print-on-demand templates: the page and pixel sizes shops publish for cards and die-cut tiles.

A template fixes what a shop's upload page checks: the trim size, the bleed, the file format and
the resolution, one piece per page (`--layout single`). `--template NAME` applies one; the sizes
and where they come from are listed in docs/print-shops.md. US shops give sizes in inches with a
1/8 in (3.175 mm) bleed on every side at 300 dpi, so a 2.5 x 3.5 in poker card is a 2.75 x 3.75 in
page and an 825 x 1125 px PNG. Sizes are kept in inches here so every page is an exact number of
pixels (a page of w in at 300 dpi is exactly 300 w px).
"""
from __future__ import annotations

from dataclasses import dataclass

from toolkit.errors import UsageError
from toolkit.render.imposition import MM_PER_INCH

EIGHTH_INCH_MM = MM_PER_INCH / 8.0
"""The bleed US print-on-demand shops ask for: 1/8 in = 3.175 mm on every side."""


@dataclass(frozen=True)
class Template:
    """One shop template: what it prints, at which trim, bleed, format and resolution."""

    name: str
    what: str
    """The pieces it holds, in words (`poker cards`)."""
    components: tuple[str, ...]
    """The `patchwork render` components it applies to."""
    trim_in: tuple[float, float] | None
    """Card trim (width, height) in inches; None keeps the pieces' own size (tiles at quilt scale)."""
    fmt: str
    """`png`: one picture per card face; `pdf`: one face per page with TrimBox and BleedBox."""
    bleed_mm: float = EIGHTH_INCH_MM
    dpi: int = 300
    cut_file: bool = False
    """Also write the SVG cut file of every non-rectangular piece (die-cut tiles)."""
    transparent: bool = False
    """PNG: clear outside the piece's bleed (an L tile's picture has no white corner to cut)."""

    @property
    def trim_mm(self) -> tuple[float, float] | None:
        if self.trim_in is None:
            return None
        return (self.trim_in[0] * MM_PER_INCH, self.trim_in[1] * MM_PER_INCH)

    def pixels(self) -> tuple[int, int] | None:
        """(width, height) in pixels of a card face of a PNG template, bleed included."""
        if self.trim_in is None or self.fmt != "png":
            return None
        bleed_in = self.bleed_mm / MM_PER_INCH
        return tuple(round((side + 2 * bleed_in) * self.dpi) for side in self.trim_in)  # type: ignore[return-value]


CARDS = ("cards", "automa")
TEMPLATES: dict[str, Template] = {t.name: t for t in (
    Template("poker-png", "poker cards, 2.5 x 3.5 in", CARDS, (2.5, 3.5), "png"),
    Template("bridge-png", "bridge cards, 2.25 x 3.5 in", CARDS, (2.25, 3.5), "png"),
    Template("mini-png", "mini cards, 1.75 x 2.5 in", CARDS, (1.75, 2.5), "png"),
    Template("tarot-png", "tarot cards, 2.75 x 4.75 in", CARDS, (2.75, 4.75), "png"),
    Template("poker-pdf", "poker cards, 2.5 x 3.5 in", CARDS, (2.5, 3.5), "pdf"),
    Template("tiles-diecut", "die-cut tiles at quilt scale", ("tiles",), None, "pdf", cut_file=True),
    Template("tiles-png", "die-cut tiles at quilt scale", ("tiles",), None, "png", cut_file=True, transparent=True),
)}
"""Every template `--template` takes, by name."""


def template(name: str, component: str) -> Template:
    """The named template, or one UsageError naming those that exist or those for `component`."""
    key = name.strip().lower()
    found = TEMPLATES.get(key)
    if found is None:
        raise UsageError(f"unknown template '{name}': expected one of {', '.join(TEMPLATES)}")
    if component not in found.components:
        fitting = [t.name for t in TEMPLATES.values() if component in t.components]
        hint = f"; for {component} choose {', '.join(fitting)}" if fitting else f"; {component} have no template"
        raise UsageError(f"--template {found.name} prints {' and '.join(found.components)}, not {component}{hint}")
    return found
