"""PNG backend: pages rasterised from the PDF with PDFium (through pypdfium2).

Rasterising the very PDF that would be printed keeps PNG, PDF and SVG one scene: previews, web
shop images and photo prints show exactly what the printer gets. Pages are rendered on white at
the chosen resolution, with the resolution recorded in the file (pHYs), and written by Pillow
with fixed settings, so the same scene gives the same bytes.
"""
from __future__ import annotations

import io

from toolkit.errors import UsageError
from toolkit.render.scene import Document

MIN_DPI = 10
MAX_DPI = 1200
MAX_PIXELS = 120_000_000
"""Refuse a page that would need more pixels than this (about 360 MB of RGB)."""


def check_dpi(dpi: int) -> None:
    if not MIN_DPI <= dpi <= MAX_DPI:
        raise UsageError(f"--dpi must be between {MIN_DPI} and {MAX_DPI}, got {dpi}")


def _whole_pixels(points: float, dpi: int) -> int | None:
    """`points` at `dpi` as a whole number of pixels when it is one (to a millionth), else None."""
    pixels = points * dpi / 72.0
    return round(pixels) if abs(pixels - round(pixels)) < 1e-6 else None


def pdf_to_pngs(pdf: bytes, dpi: int, pages: list[int] | None = None, transparent: bool = False) -> list[bytes]:
    """PNG bytes of the given 0-based pages of a PDF (every page when None); `transparent`: RGBA,
    clear wherever nothing is drawn (a die-cut tile's picture outside its bleed)."""
    import pypdfium2 as pdfium

    check_dpi(dpi)
    doc = pdfium.PdfDocument(pdf)
    try:
        indices = list(range(len(doc))) if pages is None else pages
        out: list[bytes] = []
        for index in indices:
            page = doc[index]
            width, height = page.get_size()
            pixels = (width * dpi / 72.0) * (height * dpi / 72.0)
            if pixels > MAX_PIXELS:
                raise UsageError(
                    f"page {index + 1} at {dpi} dpi would be {pixels / 1e6:.0f} megapixels; "
                    f"choose a lower --dpi"
                )
            bitmap = page.render(scale=dpi / 72.0, fill_color=(255, 255, 255, 0 if transparent else 255),
                                 may_draw_forms=False)
            image = bitmap.to_pil().convert("RGBA" if transparent else "RGB")
            # PDFium rounds the bitmap up; where the page is a whole number of pixels (a shop
            # template: 2.75 in at 300 dpi is 825 px) float noise in dpi/72 must not add a column.
            exact = (_whole_pixels(width, dpi), _whole_pixels(height, dpi))
            if exact != image.size and all(e is not None for e in exact):
                image = image.crop((0, 0, *exact))
            buffer = io.BytesIO()
            image.save(buffer, "PNG", dpi=(dpi, dpi), compress_level=6)
            out.append(buffer.getvalue())
            page.close()
        return out
    finally:
        doc.close()


def document_pngs(document: Document, dpi: int, cmyk: bool = False, transparent: bool = False) -> list[bytes]:
    """PNG bytes of every page of a scene document."""
    from toolkit.render.pdf import document_pdf

    # a picture shows the printed art: the cut lines are for the cutter, not in the print
    return pdf_to_pngs(document_pdf(document, None, cmyk, cut_layer=False), dpi, transparent=transparent)
