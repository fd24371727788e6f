"""The print-and-play kit of one edition or variant, e.g. a generated custom deck.

`patchwork build --edition FILE` writes it: the edition's kit with backs in one duplex PDF (for
a time-track edition, quilt boards, the time board and every tile, leather patches and bonus tile
included; for a Doodle edition, the cards), and, when its family prints a score pad, the pad of
PAD_SHEETS sheets. Built from the same components as `patchwork render`, so a custom deck prints
exactly like a bundled one.
"""
from __future__ import annotations

import re
from pathlib import Path

from toolkit.families import family_of
from toolkit.render import Duplex, RenderOptions, Written, render_component, write_document
from toolkit.render.imposition import Layout
from toolkit.render.paper import Paper
from toolkit.specs import load_edition

PAD_SHEETS = 80
"""Sheets of a printed score pad (the published Doodle pad has 80)."""


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "edition"


def build_edition(ref: str, out_dir: str | Path, paper: Paper, layout: Layout = Layout(),
                  **options) -> list[Written]:
    """Write the kit of one edition or variant into `out_dir`; what was written. `options` are
    further RenderOptions fields every file shares (e.g. `bleed`)."""
    edition = load_edition(ref)
    out = Path(out_dir)
    name = _slug(edition.name)
    duplex = Duplex("long")
    jobs = [("kit", RenderOptions(paper=paper, backs=True, duplex=duplex, layout=layout, **options), "long")]
    if "pad" in family_of(edition).info.components:
        jobs.insert(0, ("pad", RenderOptions(paper=paper, sheets=PAD_SHEETS, double_sided=True, layout=layout,
                                             **options), "long"))
    written: list[Written] = []
    for kind, options, flip in jobs:
        document = render_component(kind, edition, options)
        written += write_document(document, "pdf", out / f"{name}-{kind}.pdf", flip)
    return written
