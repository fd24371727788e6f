"""A packing solution drawn as one page: the board with each patch in its colour, outlined
(toolkit.geometry.outline), labelled with its id. Uses the render scene, so SVG and PDF show the
same drawing; PNG goes through pypdfium2 when it is installed.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolkit.errors import UsageError
from toolkit.geometry.outline import outline_segments
from toolkit.render.scene import Document, Item, Line, Page, Rect, Text, fit_text_size, group
from toolkit.render.theme import INK, darker, patch_colour, pt_for_height

MARGIN_MM = 10.0
MAX_CELL_MM = 19.0
"""Quilt scale: a solution on a 9x9 board matches the printed tiles."""
PAGE_MM = 190.0
"""Largest drawing side, so a long board still fits an A4 page."""
FORMATS = ("svg", "pdf", "png")
PNG_DPI = 150


def solution_document(title: str, width: int, height: int, solution: Sequence,
                      colour_index: dict[str, int], colours: dict[str, str | None]) -> Document:
    """The board with the placed patches; `solution` holds Placed values (id, cells)."""
    cell = min(MAX_CELL_MM, PAGE_MM / max(width, height))
    w, h = width * cell, height * cell
    items: list[Item] = [Rect(0, 0, w, h, "#6d4c33", 0.6, "#f3ecdc")]
    for r in range(height):
        for c in range(width):
            items.append(Rect(c * cell, r * cell, cell, cell, "#b7a585", 0.25, None))
    for placed in solution:
        fill = patch_colour(colour_index.get(placed.id, 0), colours.get(placed.id))
        for r, c in sorted(placed.cells):
            items.append(Rect(c * cell, r * cell, cell, cell, None, 0.25, fill))
        edge = darker(fill, 0.45)
        items += [Line(*segment, edge, 0.6) for segment in outline_segments(placed.cells, 0.0, 0.0, cell)]
        r0, c0 = min(placed.cells)
        size = fit_text_size(placed.id, cell * 0.9, pt_for_height(cell * 0.28))
        items.append(Text((c0 + 0.5) * cell, (r0 + 0.62) * cell, placed.id, size, "middle", True, INK))
    caption = fit_text_size(title, w, 9.0)
    items.append(Text(w / 2, h + 6.0, title, caption, "middle", False, INK))
    page_w, page_h = w + 2 * MARGIN_MM, h + 2 * MARGIN_MM + 6.0
    page = Page(page_w, page_h, (group(items, MARGIN_MM, MARGIN_MM),), label="packing")
    return Document(title, (page,))


def format_of(path: Path) -> str:
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise UsageError(f"--out {path}: expected a file name ending in .svg, .pdf or .png")
    return fmt


def png_rasteriser():
    """The pypdfium2 module, or a UsageError saying PNG needs it."""
    try:
        import pypdfium2
    except ImportError:
        raise UsageError("PNG output needs pypdfium2 (pip install pypdfium2); "
                         "write .svg or .pdf instead") from None
    return pypdfium2


def encode(document: Document, fmt: str) -> bytes:
    """The bytes of the one-page drawing in the given format."""
    from toolkit.render.documents import encode as encode_document

    if fmt in ("svg", "pdf"):
        return encode_document(document, fmt)[0]
    pypdfium2 = png_rasteriser()
    import io

    pdf = pypdfium2.PdfDocument(encode_document(document, "pdf")[0])
    image = pdf[0].render(scale=PNG_DPI / 72).to_pil()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def write(document: Document, path: Path) -> int:
    """Write the drawing; the number of bytes written."""
    from toolkit.render.output import check_targets, write_bytes

    fmt = format_of(path)
    check_targets([path])
    data = encode(document, fmt)
    write_bytes(path, data)
    return len(data)
