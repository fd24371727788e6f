"""Printing: every component of the Patchwork family as PDF, SVG and PNG, drawn from the specs.

Data flows specs/models -> component scenes (doodle, tiles, boards, automa, tokens, the rules
reference, Doodle challenges) -> imposition -> backend (pdf.py, svg.py; png.py rasterises the
PDF). The public entry points are `render_component`, `write_document` and `build`; everything
is measured in mm until a backend converts it.
"""
from toolkit.render.documents import (
    CARD_SIZES,
    COMPONENTS,
    FORMATS,
    RenderOptions,
    Written,
    default_edition,
    encode,
    piece_document,
    render_component,
    write_document,
)
from toolkit.render.components import require_component
from toolkit.render.imposition import Duplex, Layout
from toolkit.render.paper import Paper, parse_paper

__all__ = [
    "CARD_SIZES",
    "COMPONENTS",
    "FORMATS",
    "Duplex",
    "Layout",
    "Paper",
    "RenderOptions",
    "Written",
    "default_edition",
    "encode",
    "parse_paper",
    "piece_document",
    "render_component",
    "require_component",
    "write_document",
]
