"""`--bleed`: any bleed from 0 to 5 mm (or 1/8 in) on every component, measured from the files:
page and trim boxes, art reaching the bleed edge, marks outside it; the default of 3 mm keeps the
bytes it always had."""
from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from toolkit.errors import UsageError
from toolkit.render import RenderOptions, encode, parse_paper, render_component
from toolkit.render.imposition import BLEED_MM, Layout, parse_bleed
from toolkit.specs import load_edition

MM = 25.4 / 72.0
EIGHTH_INCH = 3.175


def _pdf(kind: str, edition: str, **options) -> bytes:
    return encode(render_component(kind, load_edition(edition), RenderOptions(**options)), "pdf", "long")[0]


@pytest.mark.parametrize("text, mm", [("3mm", 3.0), ("3", 3.0), ("0", 0.0), ("1/8in", EIGHTH_INCH),
                                      ("0.125in", EIGHTH_INCH), ("5 mm", 5.0), ("2.5mm", 2.5)])
def test_bleed_reads_mm_and_inches(text, mm):
    assert parse_bleed(text) == pytest.approx(mm, abs=1e-9)


@pytest.mark.parametrize("text", ["6mm", "-1mm", "1/0in", "x", "1/4in", "nan"])
def test_a_bleed_out_of_range_is_one_clear_error(text):
    with pytest.raises(UsageError, match=r"--bleed .*0 to 5 mm"):
        parse_bleed(text)


@pytest.mark.parametrize("bleed", [0.0, EIGHTH_INCH, 5.0])
@pytest.mark.parametrize("kind, edition, trim", [
    ("automa", "anniversary", (63.0, 88.0)), ("cards", "doodle", (63.0, 88.0)), ("tokens", "classic", (18.0, 18.0)),
])
@pytest.mark.slow
def test_single_pages_are_trim_plus_the_chosen_bleed(bleed, kind, edition, trim):
    reader = PdfReader(__import__("io").BytesIO(_pdf(kind, edition, layout=Layout(mode="single"), bleed=bleed)))
    page = reader.pages[0]
    media = [float(v) * MM for v in page.mediabox]
    box = [float(v) * MM for v in page.trimbox]
    assert media[2] == pytest.approx(trim[0] + 2 * bleed, abs=0.002)
    assert media[3] == pytest.approx(trim[1] + 2 * bleed, abs=0.002)
    assert box[0] == pytest.approx(bleed, abs=0.002) and box[2] - box[0] == pytest.approx(trim[0], abs=0.002)


@pytest.mark.parametrize("kind, edition", [("automa", "anniversary"), ("cards", "doodle"), ("tiles", "classic"),
                                           ("tokens", "express"), ("boards", "express")])
@pytest.mark.slow
def test_art_reaches_the_edge_of_a_5mm_bleed(kind, edition):
    """One piece per page at 5 mm bleed: the outermost pixel ring is art, never white paper."""
    pdf = _pdf(kind, edition, layout=Layout(mode="single"), bleed=5.0)
    doc = pdfium.PdfDocument(pdf)
    try:
        image = doc[0].render(scale=100 / 72.0, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
    finally:
        doc.close()
    w, h = image.size
    if kind == "tiles":  # an irregular tile: the bleed follows its outline; look at its first cell
        ring = [(x, 1) for x in range(2, int(19 * 100 / 25.4))] + [(1, y) for y in range(2, int(19 * 100 / 25.4))]
    else:
        ring = [(x, 1) for x in range(1, w - 1)] + [(x, h - 2) for x in range(1, w - 1)] + \
               [(1, y) for y in range(1, h - 1)] + [(w - 2, y) for y in range(1, h - 1)]
    white = [p for p in ring if image.getpixel(p) == (255, 255, 255)]
    assert not white, f"{kind}: white paper at {white[:3]} inside a 5 mm bleed"


def test_marks_stay_outside_a_wider_bleed():
    """Card sheets with 5 mm bleed: the crop marks start outside the bleed of the outer cards."""
    from toolkit.render.imposition import MARK_GAP_MM, grid_layout
    from toolkit.render.scene import Line

    paper = parse_paper("a4")
    document = render_component("cards", load_edition("doodle"), RenderOptions(paper=paper, bleed=5.0))
    grid = grid_layout(paper, 63.0, 88.0, 5.0, Layout(), 36)
    marks = [item for item in document.pages[0].items if isinstance(item, Line)]
    assert marks
    for line in marks:
        for x, y in ((line.x1, line.y1), (line.x2, line.y2)):
            inside_x = grid.left - 5.0 - MARK_GAP_MM + 1e-6 < x < paper.width - grid.left + 5.0 + MARK_GAP_MM - 1e-6
            inside_y = grid.top - 5.0 - MARK_GAP_MM + 1e-6 < y < paper.height - grid.top + 5.0 + MARK_GAP_MM - 1e-6
            assert not (inside_x and inside_y), f"a mark at ({x:.2f}, {y:.2f}) reaches into the bleed"


@pytest.mark.slow
def test_the_default_bleed_is_3mm_and_changes_nothing():
    edition = load_edition("classic")
    plain = encode(render_component("tiles", edition, RenderOptions()), "pdf", "long")[0]
    explicit = encode(render_component("tiles", edition, RenderOptions(bleed=BLEED_MM)), "pdf", "long")[0]
    assert BLEED_MM == 3.0 and plain == explicit
