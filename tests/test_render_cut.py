"""Cut paths of die-cut pieces, measured from the files: the PDF's CutContour spot colour on a
layer of its own, the SVG cut file beside it, both following each tile's printed outline exactly
(deviation measured against the art's outline lines), and none of it in a picture of the page."""
from __future__ import annotations

import io
import re
from xml.etree import ElementTree

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from toolkit.render import RenderOptions, encode, render_component
from toolkit.render.documents import cut_file
from toolkit.render.imposition import Layout
from toolkit.specs import load_edition

SVG = "{http://www.w3.org/2000/svg}"
OUTLINE_WIDTH = "0.45"
"""Stroke width of the printed outline of a tile (toolkit.render.tiles.tile_front)."""


def _tiles(edition: str, **options):
    return render_component("tiles", load_edition(edition), RenderOptions(**options))


def _segments(loop):
    return [(loop[i], loop[(i + 1) % len(loop)]) for i in range(len(loop))]


def _cut_loops(svg: bytes) -> list[list[tuple[float, float]]]:
    root = ElementTree.fromstring(svg)
    loops = []
    for path in root.iter(f"{SVG}path"):
        numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d"))]
        loops.append(list(zip(numbers[::2], numbers[1::2])))
    return loops


def _outline_lines(svg: bytes) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The printed outline segments of every tile on an art page, in page mm."""
    found = []

    def walk(element, dx, dy):
        transform = element.get("transform", "")
        match = re.match(r"translate\((-?[\d.]+),(-?[\d.]+)\)", transform)
        if match:
            dx, dy = dx + float(match.group(1)), dy + float(match.group(2))
        if element.tag == f"{SVG}line" and element.get("stroke-width") == OUTLINE_WIDTH:
            found.append(((float(element.get("x1")) + dx, float(element.get("y1")) + dy),
                          (float(element.get("x2")) + dx, float(element.get("y2")) + dy)))
        for child in element:
            walk(child, dx, dy)

    walk(ElementTree.fromstring(svg), 0.0, 0.0)
    return found


def _distance_to_segment(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    vx, vy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * vx + (py - ay) * vy) / ((vx * vx + vy * vy) or 1.0)))
    return ((px - ax - t * vx) ** 2 + (py - ay - t * vy) ** 2) ** 0.5


@pytest.mark.parametrize("edition", ["classic", "express"])
@pytest.mark.slow
def test_the_cut_file_follows_every_printed_tile_outline_exactly(edition):
    document = _tiles(edition)
    art = encode(document, "svg")
    worst = 0.0
    for index, page in enumerate(document.pages):
        if not page.cut:
            continue
        loops = _cut_loops(cut_file(document, index))
        outline = _outline_lines(art[index])
        assert outline, f"page {index + 1}: no printed outlines found"
        cut_segments = [s for loop in loops for s in _segments(loop)]
        # every printed outline segment lies on the cut path, and every cut corner on the outline
        for a, b in outline:
            for p in (a, b, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)):
                worst = max(worst, min(_distance_to_segment(p, *s) for s in cut_segments))
        for loop in loops:
            for p in loop:
                near = min((_distance_to_segment(p, a, b) for a, b in outline), default=None)
                if near is not None and near < 1.0:  # corners of outlined tiles (not leather/bonus)
                    worst = max(worst, near)
    assert worst < 0.001, f"cut path is {worst:.4f} mm off the printed outline"


def test_the_pdf_holds_the_cut_lines_on_a_cutcontour_layer_in_a_spot_colour():
    from toolkit.render.imposition import Duplex

    pdf = encode(_tiles("express", backs=True, duplex=Duplex("long")), "pdf", "long")[0]
    reader = PdfReader(io.BytesIO(pdf))
    assert pdf.startswith(b"%PDF-1.5")
    properties = reader.trailer["/Root"]["/OCProperties"]
    layer = properties["/OCGs"][0].get_object()
    assert layer["/Type"] == "/OCG" and layer["/Name"] == "CutContour"
    assert properties["/D"]["/ON"][0].get_object() is layer
    fronts = reader.pages[0]
    resources = fronts["/Resources"]
    assert resources["/Properties"]["/OCcut"].get_object() is layer
    space = resources["/ColorSpace"]["/CutContour"]
    assert space[0] == "/Separation" and space[1] == "/CutContour" and space[2] == "/DeviceCMYK"
    content = fronts.get_contents().get_data().decode("latin-1")
    marked = content[content.index("/OC /OCcut BDC"):content.index("EMC")]
    assert "/CutContour CS 1 SCN" in marked and ("S\n" in marked or "s\n" in marked or marked.rstrip().endswith("S"))
    assert "/Properties" not in reader.pages[1]["/Resources"]  # a backs page has nothing to cut


@pytest.mark.slow
def test_cut_lines_are_not_in_a_picture_of_the_page():
    document = _tiles("express")
    png = encode(document, "png", dpi=60)[0]
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    magenta = [p for _, p in image.getcolors(1 << 20) if p[0] > 200 and p[1] < 60 and p[2] > 200]
    assert not magenta
    doc = pdfium.PdfDocument(encode(document, "pdf")[0])
    try:
        printed = doc[0].render(scale=60 / 72).to_pil().convert("RGB")
    finally:
        doc.close()
    shown = [p for _, p in printed.getcolors(1 << 20) if p[0] > 200 and p[1] < 90 and p[2] > 120]
    assert shown, "the PDF shows its cut lines"


def test_single_tile_pages_carry_their_own_cut_line():
    document = _tiles("classic", layout=Layout(mode="single"))
    fronts = [page for page in document.pages if page.cut]
    assert len(fronts) == len(document.pages)
    for page in fronts:
        xs = [x for loop in page.cut for x, _ in loop]
        assert min(xs) == pytest.approx(page.trim.x) and max(xs) == pytest.approx(page.trim.x + page.trim.width)


@pytest.mark.parametrize("kind, edition", [("cards", "doodle"), ("automa", "anniversary"), ("tokens", "doodle"),
                                           ("boards", "classic")])
def test_rectangular_pieces_have_no_cut_layer(kind, edition):
    document = render_component(kind, load_edition(edition), RenderOptions())
    assert not any(page.cut for page in document.pages)
    pdf = encode(document, "pdf")[0]
    assert b"/OCProperties" not in pdf and b"CutContour" not in pdf and pdf.startswith(b"%PDF-1.4")


def test_a_cut_file_is_the_page_size_in_mm():
    document = _tiles("classic")
    root = ElementTree.fromstring(cut_file(document, 0))
    assert root.get("width") == "210mm" and root.get("viewBox") == "0 0 210 297"
    layer = root.find(f"{SVG}g")
    assert layer.get("id") == "CutContour"
    assert all(path.get("fill") == "none" for path in layer.iter(f"{SVG}path"))


@pytest.mark.slow
def test_no_cut_lines_leaves_neither_layer_nor_cut_file(tmp_path):
    from tests.cli_helpers import ok

    result = ok("render", "tiles", "express", "--no-cut-lines", "--out", str(tmp_path / "t.pdf"))
    assert "cut lines" not in result.output
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith(".")] == ["t.pdf"]
    assert b"CutContour" not in (tmp_path / "t.pdf").read_bytes()
    ok("render", "tiles", "express", "--out", str(tmp_path / "u.pdf"))
    assert sorted(p.name for p in tmp_path.glob("u*")) == ["u.pdf"]
    assert sorted(p.name for p in (tmp_path / "cut").glob("*.svg")) == ["u-cut-01.svg", "u-cut-02.svg", "u-cut-03.svg"]
