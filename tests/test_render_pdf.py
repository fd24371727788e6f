"""PDF output read back with pypdf: page counts and sizes, TrimBox/BleedBox, embedded fonts, text,
viewer preferences, the pad's reused sheet and flat file size, and byte-identical reruns."""
from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from toolkit.errors import UsageError
from toolkit.render import Duplex, RenderOptions, encode, parse_paper, render_component
from toolkit.specs import load_edition

PT_PER_MM = 72.0 / 25.4

PT = 72.0 / 25.4


@pytest.fixture(scope="module")
def doodle():
    return load_edition("doodle")


@pytest.fixture(scope="module")
def classic():
    return load_edition("classic")


def pdf(kind, edition, **options) -> bytes:
    flip = "long" if options.get("backs") else None
    return encode(render_component(kind, edition, RenderOptions(**options)), "pdf", flip)[0]


def read(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def page_mm(page) -> tuple[float, float]:
    box = page.mediabox
    return round(float(box.width) / PT, 1), round(float(box.height) / PT, 1)


def embedded_fonts(reader: PdfReader) -> dict[str, bool]:
    """Every font used by pages and their forms -> whether its TrueType program is embedded."""
    found: dict[str, bool] = {}

    def walk_resources(resources, seen):
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            embedded = descriptor is not None and "/FontFile2" in descriptor.get_object()
            found[str(font["/BaseFont"])] = embedded
        for xobject in (resources.get("/XObject") or {}).values():
            ref = xobject.idnum if hasattr(xobject, "idnum") else id(xobject)
            if ref in seen:
                continue
            seen.add(ref)
            walk_resources(xobject.get_object().get("/Resources"), seen)

    seen: set = set()
    for page in reader.pages:
        walk_resources(page.get("/Resources"), seen)
    return found


def test_score_sheet_page_fonts_and_text(doodle):
    reader = read(pdf("sheet", doodle))
    assert len(reader.pages) == 1
    assert page_mm(reader.pages[0]) == (210.0, 297.0)
    fonts = embedded_fonts(reader)
    assert fonts and all(fonts.values()), fonts
    assert any("Vera" in name for name in fonts)
    text = reader.pages[0].extract_text()
    for word in ("PATCHWORK DOODLE", "Name", "Date", "NEIGHBOUR", "SINGLE", "CUT", "AGAIN", "SCORE"):
        assert word in text
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"


@pytest.mark.parametrize("paper,size", [("letter", (215.9, 279.4)), ("a5", (148.0, 210.0)),
                                        ("120x180mm", (120.0, 180.0))])
def test_pad_paper_sizes_and_sides(doodle, paper, size):
    reader = read(pdf("pad", doodle, paper=parse_paper(paper), sheets=3, double_sided=True))
    assert len(reader.pages) == 6
    assert page_mm(reader.pages[-1]) == size
    reader = read(pdf("pad", doodle, paper=parse_paper(paper), sheets=3, double_sided=False))
    assert len(reader.pages) == 3


@pytest.mark.slow
def test_pad_numbering(doodle):
    reader = read(pdf("pad", doodle, sheets=12, double_sided=False, numbered=True))
    assert "No. 12" in reader.pages[11].extract_text()
    plain = read(pdf("pad", doodle, sheets=2, double_sided=False))
    assert "No." not in plain.pages[1].extract_text()


@pytest.mark.slow
def test_pad_reuses_one_drawn_sheet_and_stays_small(doodle):
    small = pdf("pad", doodle, sheets=2)
    big = pdf("pad", doodle, sheets=80)
    reader = read(big)
    assert len(reader.pages) == 160
    forms = {page["/Resources"]["/XObject"].raw_get(name).idnum
             for page in reader.pages for name in page["/Resources"]["/XObject"]}
    assert len(forms) == 1, "every page must place the same form XObject"
    xobjects = reader.pages[0]["/Resources"]["/XObject"]
    sheet_stream = len(xobjects[list(xobjects.keys())[0]].get_data())  # the drawing, decoded
    per_page = (len(big) - len(small)) / (160 - 4)
    # each extra page costs a page object and a one-line content stream, not another drawing
    assert per_page < 700
    assert per_page < sheet_stream / 10
    assert len(big) < 3 * len(small)


@pytest.mark.slow
def test_cards_sheets_backs_and_text(doodle):
    reader = read(pdf("cards", doodle, backs=True))
    total = sum(max(1, p.copies) for p in doodle.patches) + len(doodle.rules.start_cards)
    assert total == 40
    assert len(reader.pages) == 2 * -(-total // 9)
    fronts = reader.pages[0].extract_text()
    assert doodle.patches[0].id in fronts
    backs = reader.pages[1].extract_text()
    assert "PATCHWORK" in backs
    last_fronts = reader.pages[-2].extract_text()
    assert "START" in last_fronts
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipLongEdge"


def test_boards_have_trim_and_bleed_boxes(classic):
    reader = read(pdf("boards", classic))
    assert len(reader.pages) == 3  # two quilt boards, one time board
    quilt = reader.pages[0]
    trim = quilt.trimbox
    bleed = quilt.bleedbox
    assert float(trim.width) / PT == pytest.approx(9 * 19.0 + 14.0, abs=0.01)
    assert float(bleed.width - trim.width) / PT == pytest.approx(6.0, abs=0.01)
    time_text = reader.pages[2].extract_text()
    assert "START" in time_text and "53" in time_text


def test_board_too_large_for_paper(classic):
    with pytest.raises(UsageError, match="larger paper"):
        pdf("boards", classic, paper=parse_paper("60x80mm"))


def test_boards_print_in_two_halves_on_a5_never_shrunk_under_their_pieces(classic):
    reader = read(pdf("boards", classic, paper=parse_paper("a5")))
    assert len(reader.pages) == 2 * 2 + 2  # two halves per player, then the time board's two halves
    for page in reader.pages[:4]:
        trim = page.trimbox
        width, height = float(trim.width) / PT_PER_MM, float(trim.height) / PT_PER_MM
        assert width == pytest.approx(185.0 / 2, abs=0.01) and height == pytest.approx(185.0, abs=0.01)
    # the time board: 8 x 8 squares plus a 12 mm header, cut between columns 4 and 5
    widths = [float(page.trimbox.width) / PT_PER_MM for page in reader.pages[4:]]
    heights = [float(page.trimbox.height) / PT_PER_MM for page in reader.pages[4:]]
    space = sum(widths) / 8
    assert widths[0] == pytest.approx(widths[1], abs=0.01) and heights[0] == pytest.approx(8 * space + 12, abs=0.01)
    assert space >= 19.0  # a leather patch (19 mm) and a time token (18 mm) fit on every space


@pytest.mark.slow
def test_automa_cards_both_decks():
    edition = load_edition("anniversary")
    reader = read(pdf("automa", edition, backs=True, duplex=Duplex("short")))
    assert len(reader.pages) == 6  # 24 cards, 9-up, with backs
    text = reader.pages[0].extract_text()
    assert "AUTOMA" in text and "virtual buttons" in text
    assert "tactical" in reader.pages[-2].extract_text()


@pytest.mark.slow
def test_the_barcode_card_never_buys():
    """The 0-virtual-button card passes, even when a patch costs nothing (Automa rules, card #12)."""
    edition = load_edition("anniversary")
    reader = read(pdf("automa", edition))
    text = " ".join(page.extract_text() for page in reader.pages)
    barcode = [card for _, cards in edition.rules.automa.decks for card in cards if card.virtual_buttons == 0]
    assert barcode, "the bundled normal deck holds the barcode card"
    assert text.count("never buys") == len(barcode)
    assert "affordable" not in text


@pytest.mark.slow
def test_express_kit_distinguishes_blue_patches():
    edition = load_edition("express")
    reader = read(pdf("kit", edition))
    text = " ".join(page.extract_text() for page in reader.pages)
    for patch in edition.all_patches():
        assert patch.id in text


@pytest.mark.slow
def test_proof_overlay_is_extra_ink(doodle):
    plain = read(pdf("cards", doodle)).pages[0].extract_text()
    proof = read(pdf("cards", doodle, proof=True)).pages[0].extract_text()
    assert "proof" not in plain and "proof" in proof


@pytest.mark.slow
def test_pdf_bytes_are_identical_on_rerun(doodle, classic):
    assert pdf("cards", doodle, backs=True) == pdf("cards", doodle, backs=True)
    assert pdf("kit", classic, backs=True) == pdf("kit", classic, backs=True)
