"""SVG output read back with an XML parser: size in mm, viewBox, the board's spaces, symbols,
stable bytes, and one file per page for longer documents."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from toolkit.render import RenderOptions, encode, parse_paper, render_component, write_document
from toolkit.render.boards import QUILT_SEAM
from toolkit.render.doodle import BOARD_GRID
from toolkit.specs import load_edition

NS = {"svg": "http://www.w3.org/2000/svg"}


def svg_root(kind: str, edition_name: str, **options) -> ET.Element:
    blobs = encode(render_component(kind, load_edition(edition_name), RenderOptions(**options)), "svg")
    return ET.fromstring(blobs[0])


def count_spaces(root: ET.Element, stroke: str) -> int:
    return sum(1 for rect in root.iter("{http://www.w3.org/2000/svg}rect") if rect.get("stroke") == stroke)


@pytest.mark.parametrize("paper,w,h", [("a4", "210", "297"), ("letter", "215.9", "279.4"), ("a5", "148", "210")])
def test_sheet_size_in_mm_and_viewbox(paper, w, h):
    root = svg_root("sheet", "doodle", paper=parse_paper(paper))
    assert root.get("width") == f"{w}mm" and root.get("height") == f"{h}mm"
    assert root.get("viewBox") == f"0 0 {w} {h}"


@pytest.mark.parametrize("edition,spaces", [("doodle", 81), ("doodle-8x8", 64)])
def test_sheet_grid_follows_the_board_size(edition, spaces):
    root = svg_root("sheet", edition)
    assert count_spaces(root, BOARD_GRID) == spaces
    # the sheet is a symbol placed once on the page
    assert root.find(".//svg:defs/svg:g[@id='sym-doodle-sheet']", NS) is not None
    assert len(root.findall(".//svg:use", NS)) == 1


def test_score_rows_follow_the_rounds():
    def labels(edition):
        root = svg_root("sheet", edition)
        return {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}

    assert {"1", "2", "3", "−", "="} <= labels("doodle")
    assert "4" in labels("doodle-4-rounds")


@pytest.mark.parametrize("edition,spaces", [("classic", 81), ("express", 49)])
def test_quilt_board_spaces(edition, spaces):
    root = svg_root("boards", edition)
    assert count_spaces(root, QUILT_SEAM) == spaces


@pytest.mark.slow
def test_svg_bytes_are_stable_and_ids_unique():
    first = encode(render_component("cards", load_edition("doodle"), RenderOptions(backs=True)), "svg")
    second = encode(render_component("cards", load_edition("doodle"), RenderOptions(backs=True)), "svg")
    assert first == second
    root = ET.fromstring(first[0])
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids))
    assert "clip-1" in ids


def test_multi_page_documents_write_one_svg_per_page(tmp_path):
    document = render_component("cards", load_edition("doodle"), RenderOptions(backs=True))
    written = write_document(document, "svg", tmp_path / "cards.svg")
    assert len(written) == len(document.pages) == 10
    assert [w.path.name for w in written[:2]] == ["cards-01.svg", "cards-02.svg"]
    for item in written:
        ET.fromstring(item.path.read_bytes())
