"""Printing: every component of the Patchwork family as PDF, SVG and PNG, drawn from the specs.

Data flows specs/models -> component scenes (doodle, tiles, boards, automa, tokens, the rules
reference, Doodle challenges) -> imposition -> backend (pdf.py, svg.py; png.py rasterises the
PDF). The public entry points are `render_component`, `write_document` and `build`; everything
is measured in mm until a backend converts it.
"""
from __future__ import annotations

import importlib

_HOME = {
    **dict.fromkeys(("CARD_SIZES", "COMPONENTS", "FORMATS", "RenderOptions", "Written", "default_edition", "encode",
                     "piece_document", "render_component", "write_document"), "toolkit.render.documents"),
    "require_component": "toolkit.render.components",
    "Duplex": "toolkit.render.imposition",
    "Layout": "toolkit.render.imposition",
    "Paper": "toolkit.render.paper",
    "parse_paper": "toolkit.render.paper",
}
"""Where each public name lives: a name is imported on first use, so a command that only checks its
paper or format (toolkit.render.paper, .output) does not load every component's drawing."""


def __getattr__(name: str):
    if name not in _HOME:
        raise AttributeError(f"module 'toolkit.render' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOME[name]), name)
    globals()[name] = value
    return value


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
