"""A5 and small paper, and the rules pages: no rules text below 7 pt (a reference takes a second
page instead), boards split rather than shrunk under their pieces (or refused), every page keeps
its 5 mm border; the rules pages say what the rulebooks say, measured from the rendered files."""
from __future__ import annotations

import io
import re

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from toolkit.errors import UsageError
from toolkit.render import RenderOptions, encode, parse_paper, render_component
from toolkit.render.reference import RULES_MIN_PT, reference_sections
from toolkit.render.scene import Text, smallest_text
from toolkit.specs import load_edition

EDITIONS = ["classic", "christmas", "express", "anniversary", "doodle", "classic-revised"]


def _document(kind: str, edition: str, paper: str = "a4", **options):
    return render_component(kind, load_edition(edition), RenderOptions(paper=parse_paper(paper), **options))


def _text(kind: str, edition: str, paper: str = "a4") -> str:
    pdf = encode(_document(kind, edition, paper), "pdf")[0]
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages).replace("\n", " ")


@pytest.mark.parametrize("paper", ["a5", "a4", "letter", "120x180mm"])
@pytest.mark.parametrize("edition", EDITIONS)
def test_rules_text_is_never_below_7pt(paper, edition):
    document = _document("rules", edition, paper)
    sizes = [smallest_text(page.items) for page in document.pages]
    assert min(sizes) >= RULES_MIN_PT
    pdf = encode(document, "pdf")[0]
    for page in PdfReader(io.BytesIO(pdf)).pages:  # measured from the file: every Tf size
        content = page.get_contents().get_data().decode("latin-1")
        sizes = [float(size) for size in re.findall(r"/F\S+ ([\d.]+) Tf", content)]
        assert sizes and min(sizes) >= RULES_MIN_PT


def test_the_anniversary_reference_takes_a_second_a5_page_rather_than_shrink():
    pages = _document("rules", "anniversary", "a5").pages
    assert len(pages) == 2
    assert any(isinstance(i, Text) and i.text.endswith("(continued)") for i in pages[1].items)
    assert len(_document("rules", "anniversary", "a4").pages) == 1


def test_a_reference_too_long_for_four_pages_is_refused():
    with pytest.raises(UsageError, match="7 pt"):
        _document("rules", "anniversary", "60x90mm")


def _ink_clearance(pdf: bytes, dpi: int = 150) -> float:
    """The smallest distance in mm from any page edge to any ink."""
    from PIL import ImageOps

    doc = pdfium.PdfDocument(pdf)
    least = 1e9
    try:
        for page in doc:
            image = page.render(scale=dpi / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("L")
            box = ImageOps.invert(image).point(lambda v: 255 if v > 8 else 0).getbbox()
            if box is None:
                continue
            w, h = image.size
            least = min(least, box[0], box[1], w - box[2], h - box[3])
    finally:
        doc.close()
    return least * 25.4 / dpi


@pytest.mark.parametrize("kind, edition, options", [
    ("pad", "doodle", {"sheets": 1}), ("sheet", "doodle", {}), ("cards", "doodle", {}), ("rules", "anniversary", {}),
    ("boards", "classic", {}), ("tokens", "classic", {}), ("tiles", "express", {}), ("automa", "anniversary", {}),
    ("challenge", "doodle", {"seed": 4}),
])
@pytest.mark.slow
def test_every_a5_page_keeps_its_5mm_border(kind, edition, options):
    clearance = _ink_clearance(encode(_document(kind, edition, "a5", **options), "pdf")[0])
    assert clearance >= 5.0 - 25.4 / 150, f"{kind}: ink {clearance:.2f} mm from the edge"


def test_time_board_on_a5_is_split_with_spaces_as_big_as_a_quilt_square():
    from toolkit.render.boards import time_board
    from toolkit.render.tiles import QUILT_CELL_MM

    board = time_board(load_edition("classic"), parse_paper("a5"))
    assert board.width / 8 >= QUILT_CELL_MM
    pages = _document("boards", "classic", "a5").pages
    assert [p.label for p in pages[-2:]] == ["time board, left half", "time board, right half"]


def test_a_board_that_does_not_fit_even_in_halves_is_refused_in_one_line():
    with pytest.raises(UsageError, match="even in two halves|even with the board in two halves") as error:
        _document("boards", "classic", "100x150mm")
    assert "\n" not in str(error.value)


# ----- the rules pages, line by line against the rulebooks --------------------------------------------


@pytest.mark.slow
def test_every_page_says_who_goes_first():
    for edition in EDITIONS:
        text = _text("rules", edition)
        assert "goes first" in text or "You play first" in text, edition


def test_express_sets_the_blue_patches_aside_before_laying_out_the_rest():
    text = _text("rules", "express")
    aside, lay = text.index("Set the 8 blue patches aside"), text.index("Lay out the other 15 patches")
    assert aside < lay
    assert "As soon as only 5 patches are left in the circle, add the 8 blue patches" in text


def test_a_leather_patch_is_placed_at_once_or_removed_from_play():
    for edition in ("classic", "express", "christmas"):
        assert "place it on their quilt at once or remove it from play" in _text("rules", edition)


def test_the_7x7_bonus_has_a_section_of_its_own():
    sections = dict(reference_sections(load_edition("classic")))
    assert not any("7x7" in line for line in sections["Moving onto or past a mark"])
    assert "7x7" in sections["The special tile"][0]
    assert "The special tile" not in dict(reference_sections(load_edition("express")))


def test_the_solo_rules_say_reaches_or_passes_and_what_the_automa_does_at_a_leather_patch():
    lines = " ".join(dict(reference_sections(load_edition("anniversary")))["Solo against the Automa"])
    assert "reaches or passes the level marker" in lines
    assert "Leather patch it moves onto or past first: the patch leaves play" in lines
    assert "1 Intern 52, 2 Apprentice 44, 3 Fellow 41, 4 Master 38, 5 Legend 35" in lines
    assert "moves the neutral token" in lines


def test_doodle_says_everyone_plays_at_once():
    text = _text("rules", "doodle")
    assert "nobody goes first" in text and "exactly two pieces" in text
