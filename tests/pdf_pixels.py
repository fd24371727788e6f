"""A printed PDF read back as pixels: the colour at a point given in millimetres."""
from __future__ import annotations

import pypdfium2 as pdfium


def pixel(pdf: bytes, page: int, x_mm: float, y_mm: float, dpi: int = 100) -> tuple[int, int, int]:
    """The RGB colour of `page` at (x_mm, y_mm) from the page's top left, rendered on white."""
    doc = pdfium.PdfDocument(pdf)
    try:
        image = doc[page].render(scale=dpi / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
    finally:
        doc.close()
    return image.getpixel((int(x_mm / 25.4 * dpi), int(y_mm / 25.4 * dpi)))
