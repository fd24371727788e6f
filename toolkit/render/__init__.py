"""Printing: every component of the Patchwork family as PDF and SVG, drawn from the specs.

Data flows specs/models -> component scenes (doodle, tiles, boards, automa) -> imposition ->
backend (pdf.py, svg.py). The public entry points are `render_component`, `write_document` and
`build`; everything is measured in mm until a backend converts it.
"""
from toolkit.render.documents import (
    COMPONENTS,
    FORMATS,
    RenderOptions,
    Written,
    encode,
    piece_document,
    render_component,
    write_document,
)
from toolkit.render.imposition import Duplex
from toolkit.render.paper import Paper, parse_paper

__all__ = [
    "COMPONENTS",
    "FORMATS",
    "Duplex",
    "Paper",
    "RenderOptions",
    "Written",
    "encode",
    "parse_paper",
    "piece_document",
    "render_component",
    "write_document",
]
