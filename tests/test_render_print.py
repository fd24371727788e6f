"""Issue 12, measured from the written files: PDF boxes, positions, colours and fonts (pypdf,
pypdfium2), SVG clips and circles, PNG pixels and sizes."""
from __future__ import annotations

import io
import re
import struct
from xml.etree import ElementTree

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader

from toolkit.render import RenderOptions, encode, parse_paper, render_component
from toolkit.render.build import _jobs
from toolkit.render.challenge import par_bot, seeded_game
from toolkit.render.documents import CARD_SIZES, piece_document
from toolkit.render.imposition import Duplex, Layout, Piece, flip_matrix, impose_grid
from toolkit.render.scene import Document, Rect, Text, apply
from toolkit.render.tiles import tile_pieces
from toolkit.specs import load_edition

PT_PER_MM = 72.0 / 25.4
SVG = "{http://www.w3.org/2000/svg}"


def _pdf(kind, edition, **options) -> bytes:
    return encode(render_component(kind, load_edition(edition), RenderOptions(**options)), "pdf", "long")[0]


def _png_pages(pdf: bytes, dpi: int) -> list[Image.Image]:
    doc = pdfium.PdfDocument(pdf)
    images = [doc[i].render(scale=dpi / 72.0, fill_color=(255, 255, 255, 255)).to_pil().convert("L")
              for i in range(len(doc))]
    doc.close()
    return images


# ----- 2: every mark and all bleed inside the printable margin ----------------------------------


@pytest.mark.parametrize("kind, edition, paper", [
    ("cards", "doodle", "letter"), ("cards", "doodle", "a4"), ("tiles", "classic", "letter"),
    ("tiles", "express", "a4"), ("automa", "anniversary", "letter"), ("kit", "classic", "a4"),
    ("tokens", "express", "letter"),
])
@pytest.mark.slow
def test_nothing_prints_in_the_5mm_border(kind, edition, paper):
    dpi = 60
    border = int(4.6 / 25.4 * dpi)  # 5 mm, less a pixel of anti-aliasing
    for number, image in enumerate(_png_pages(_pdf(kind, edition, paper=parse_paper(paper), proof=False), dpi)):
        w, h = image.size
        for box in ((0, 0, w, border), (0, h - border, w, h), (0, 0, border, h), (w - border, 0, w, h)):
            assert image.crop(box).getextrema() == (255, 255), f"page {number + 1} prints inside {box}"


def test_a_wider_margin_moves_the_marks_in():
    dpi = 60
    image = _png_pages(_pdf("cards", "doodle", paper=parse_paper("a4"), layout=Layout(margin=12.0)), dpi)[0]
    border = int(11.6 / 25.4 * dpi)
    w, h = image.size
    for box in ((0, 0, w, border), (0, h - border, w, h), (0, 0, border, h), (w - border, 0, w, h)):
        assert image.crop(box).getextrema() == (255, 255)
    assert image.getextrema()[0] < 128


# ----- 3: gutters with full bleed per card ---------------------------------------------------------


def _svg_clips(blob: bytes) -> list[tuple[float, float]]:
    root = ElementTree.fromstring(blob)
    return [(float(r.get("width")), float(r.get("height"))) for r in root.iter(f"{SVG}rect")
            if any(r in list(c) for c in root.iter(f"{SVG}clipPath"))]


def test_gutter_gives_every_card_its_own_full_bleed():
    document = render_component("cards", load_edition("doodle"),
                                RenderOptions(paper=parse_paper("a4"), layout=Layout(gutter=6.0)))
    clips = _svg_clips(encode(document, "svg")[0])
    assert clips and all(sorted(c) == sorted((63.0 + 6.0, 88.0 + 6.0)) for c in clips)
    tight = render_component("cards", load_edition("doodle"),
                             RenderOptions(paper=parse_paper("a4"), layout=Layout(gutter=0.0)))
    assert any(sorted(c) != sorted((69.0, 94.0)) for c in _svg_clips(encode(tight, "svg")[0]))


# ----- 4: single-component SVGs keep bleed on all four sides -------------------------------------


@pytest.mark.parametrize("index", [0, 5, 40])
def test_single_component_svg_has_bleed_on_all_four_sides(index):
    pieces = tile_pieces(load_edition("classic"))
    piece = pieces[min(index, len(pieces) - 1)]
    blob = encode(piece_document("tile", piece), "svg")[0]
    root = ElementTree.fromstring(blob)
    assert root.get("viewBox") == f"0 0 {piece.width + 6:g} {piece.height + 6:g}"
    group = next(g for g in root.iter(f"{SVG}g") if (g.get("transform") or "").startswith("translate(3"))
    assert group.get("transform") == "translate(3,3)"
    clip = next(root.iter(f"{SVG}clipPath")).find(f"{SVG}rect")
    # the clip, in the translated group's units, starts 3 mm left of and above the trim
    assert (float(clip.get("x")), float(clip.get("y"))) == (-3.0, -3.0)
    assert (float(clip.get("width")), float(clip.get("height"))) == (piece.width + 6, piece.height + 6)


# ----- 5: duplex registration for every orientation and both flips ---------------------------------


def _labelled(count: int) -> list[Piece]:
    pieces = []
    for i in range(count):
        front = (Rect(-3, -3, 69, 94, None, 0.1, "#ffffff"), Text(20.0, 30.0, chr(65 + i), 14, "middle"))
        # the back's label sits behind the front's: mirrored left-right in the piece's own frame
        back = (Rect(-3, -3, 69, 94, None, 0.1, "#ffffff"), Text(63.0 - 20.0, 30.0, chr(65 + i), 14, "middle"))
        pieces.append(Piece(63.0, 88.0, front, back, f"c{i}"))
    return pieces


def _char_centres(pdf: bytes) -> list[dict[str, tuple[float, float]]]:
    doc = pdfium.PdfDocument(pdf)
    pages = []
    for page in doc:
        height = page.get_height()
        text = page.get_textpage()
        found = {}
        for i in range(text.count_chars()):
            ch = text.get_text_range(i, 1)
            if ch.strip():
                left, bottom, right, top = text.get_charbox(i, loose=True)
                found[ch] = ((left + right) / 2 / PT_PER_MM, (height - (bottom + top) / 2) / PT_PER_MM)
        pages.append(found)
    doc.close()
    return pages


@pytest.mark.parametrize("paper", ["a4", "297x210mm", "letter", "279.4x215.9mm"])
@pytest.mark.parametrize("flip", ["long", "short"])
def test_each_back_lands_behind_its_front_after_the_physical_flip(paper, flip):
    sheet = parse_paper(paper)
    pages = impose_grid(_labelled(10), sheet, backs=True, duplex=Duplex(flip))
    pdf = encode(Document("registration", tuple(pages)), "pdf", flip)[0]
    centres = _char_centres(pdf)
    # the physical flip of this sheet, worked out from its shape and the flip edge alone
    portrait = sheet.height >= sheet.width
    about_vertical = (flip == "long") == portrait
    checked = 0
    for fronts, backs in zip(centres[0::2], centres[1::2]):
        for ch, (x, y) in fronts.items():
            bx, by = backs[ch]
            expected = (sheet.width - x, y) if about_vertical else (x, sheet.height - y)
            assert (bx, by) == pytest.approx(expected, abs=0.3), (ch, paper, flip)
            checked += 1
    assert checked == 10


def test_automa_backs_register_on_landscape_paper():
    """The 24 Automa cards on landscape paper, long-edge flip: each back behind its own front."""
    sheet = parse_paper("297x210mm")
    edition = load_edition("anniversary")
    document = render_component("automa", edition, RenderOptions(paper=sheet, backs=True, duplex=Duplex("long")))
    for fronts, backs in zip(document.pages[0::2], document.pages[1::2]):
        for front, back in zip(fronts.items, backs.items):
            # the front's trim centre, carried through the physical flip, is the back's trim centre
            fx, fy = apply(front.transform, 31.5, 44.0)
            bx, by = apply(back.transform, 31.5, 44.0)
            assert apply(flip_matrix(sheet, "long"), fx, fy) == pytest.approx((bx, by))


# ----- 6: print-shop output ----------------------------------------------------------------------------


@pytest.mark.parametrize("size", sorted(CARD_SIZES))
@pytest.mark.slow
def test_single_layout_pages_are_trim_plus_bleed_with_boxes(size):
    pdf = _pdf("automa", "anniversary", backs=True, layout=Layout(mode="single"), card_size=size)
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 48  # 24 cards, front and back
    w, h = CARD_SIZES[size]
    for page in reader.pages:
        trim, bleed, media = page.trimbox, page.bleedbox, page.mediabox
        assert float(trim.width) / PT_PER_MM == pytest.approx(w, abs=0.01)
        assert float(trim.height) / PT_PER_MM == pytest.approx(h, abs=0.01)
        assert float(bleed.width) / PT_PER_MM == pytest.approx(w + 6, abs=0.01)
        assert float(media.width) == pytest.approx(float(bleed.width), abs=0.01)
        assert float(trim.left) / PT_PER_MM == pytest.approx(3.0, abs=0.01)


def _all_streams(reader: PdfReader) -> bytes:
    data = b""
    for page in reader.pages:
        data += page.get_contents().get_data()
        for xobject in (page["/Resources"].get("/XObject") or {}).values():
            data += xobject.get_object().get_data()
    return data


@pytest.mark.slow
def test_cmyk_output_has_no_rgb_and_black_text_on_k_only():
    rgb = _all_streams(PdfReader(io.BytesIO(_pdf("cards", "doodle", backs=True))))
    assert re.search(rb" rg\b", rgb)
    document = render_component("cards", load_edition("doodle"), RenderOptions(backs=True))
    data = _all_streams(PdfReader(io.BytesIO(encode(document, "pdf", "long", cmyk=True)[0])))
    assert not re.search(rb" (rg|RG)\b", data)
    assert re.search(rb" k\b", data) and re.search(rb" K\b", data)
    # crop marks: pure black on the black plate only
    assert re.search(rb"\b0 0 0 1 K\b", data)
    # every text object is filled with K only, never a four-colour black
    for block in re.findall(rb"BT(.*?)ET", data, re.S):
        colours = re.findall(rb"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) k", block)
        for c, m, y, k in colours:
            if float(k) > 0.7:
                assert (float(c), float(m), float(y)) == (0.0, 0.0, 0.0)


def _fonts(pdf: bytes) -> set[str]:
    reader = PdfReader(io.BytesIO(pdf))
    found = set()
    for page in reader.pages:
        resources = [page["/Resources"]] + [x.get_object()["/Resources"]
                                            for x in (page["/Resources"].get("/XObject") or {}).values()]
        for res in resources:
            for font in (res.get("/Font") or {}).values():
                found.add(str(font.get_object()["/BaseFont"]))
    return found


def test_font_subset_tags_are_unique_and_follow_the_glyphs():
    sheet = _fonts(_pdf("sheet", "doodle"))
    tags = {name.split("+")[0] for name in sheet}
    assert len(sheet) >= 2 and len(tags) == len(sheet)
    # the sheet's subsets hold × and − besides ASCII: not the glyphs of the Automa cards' subsets
    assert sheet != _fonts(_pdf("automa", "anniversary"))
    assert all(re.fullmatch(r"/[A-Z]{6}", t) for t in tags) and "/AAAAAA" not in tags
    assert _fonts(_pdf("sheet", "doodle")) == sheet  # the same glyphs, the same tags


# ----- 7: PNG export -----------------------------------------------------------------------------------


def test_png_export_has_the_page_size_at_the_chosen_dpi_and_repeats_exactly():
    document = render_component("sheet", load_edition("doodle"), RenderOptions(paper=parse_paper("a5")))
    first = encode(document, "png", dpi=150)
    assert first == encode(document, "png", dpi=150)
    image = Image.open(io.BytesIO(first[0]))
    assert image.size[0] == pytest.approx(148 / 25.4 * 150, abs=1)
    assert image.size[1] == pytest.approx(210 / 25.4 * 150, abs=1)
    assert tuple(round(v) for v in image.info["dpi"]) == (150, 150)
    chunk = first[0].index(b"pHYs")
    ppm = struct.unpack(">I", first[0][chunk + 4:chunk + 8])[0]
    assert abs(ppm - 150 / 0.0254) < 2


# ----- 8: legibility ---------------------------------------------------------------------------------


def _smallest_font_pt(pdf: bytes) -> float:
    reader = PdfReader(io.BytesIO(pdf))
    sizes: list[float] = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            a, b, c, d = [x for x in (tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3],
                                      tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3])]
            sizes.append(size * abs(a * d - b * c) ** 0.5)

    for page in reader.pages:
        page.extract_text(visitor_text=visit)
    assert sizes
    return min(sizes)


@pytest.mark.parametrize("kind, edition, paper", [
    ("sheet", "doodle", "a5"), ("sheet", "doodle", "letter"), ("sheet", "doodle", "a4"),
    ("kit", "classic", "a4"), ("kit", "express", "letter"), ("automa", "anniversary", "a4"),
    ("rules", "doodle", "a5"), ("tokens", "classic", "a4"), ("challenge", "doodle", "a5"),
    ("challenge", "doodle", "letter"), ("cards", "doodle", "a4"),
])
@pytest.mark.slow
def test_no_text_below_6pt(kind, edition, paper):
    assert _smallest_font_pt(_pdf(kind, edition, paper=parse_paper(paper))) >= 6.0 - 0.01


def test_mini_cards_keep_6pt_text():
    assert _smallest_font_pt(_pdf("cards", "doodle", card_size="mini")) >= 6.0 - 0.01


def _big_circles(blob: bytes) -> int:
    root = ElementTree.fromstring(blob)
    return sum(1 for c in root.iter(f"{SVG}circle") if float(c.get("r")) > 2.0)


def test_tiles_show_exactly_their_income_in_buttons():
    edition = load_edition("classic")
    pieces = {p.name: p for p in tile_pieces(edition, extras=False)}
    for patch in edition.all_patches():
        blob = encode(piece_document(patch.id, pieces[patch.id]), "svg")[0]
        assert _big_circles(blob) == patch.income, patch.id
    assert next(p for p in edition.all_patches() if p.id == "P21").income == 2


# ----- 10: challenge sheets ----------------------------------------------------------------------------


@pytest.mark.slow
def test_challenge_sequence_is_the_seeds_game_whatever_is_drawn():
    from toolkit.games.doodle.game import DoodleGame

    edition = load_edition("doodle")
    start, turns, final = seeded_game(edition, 7)
    assert len(turns) + 1 == 18 and len(final) == 3
    # play the same seed drawing something every turn: the token lands on the same cards
    game = DoodleGame(edition, 7, 1)
    seen = []
    while not game.is_over:
        legal = game.legal_actions()
        if game.phase == "turn":
            seen.append((game.roll, game.circle()[game.token_card]))
        draws = [a for a in legal if a.kind in ("draw", "start", "score")]
        game.apply(draws[0] if draws else legal[0])
    assert seen == [(t.roll, t.card) for t in turns]
    assert game.deal()["start_cards"][0] == start


def test_the_par_is_set_by_the_familys_strongest_bot():
    from toolkit.families import family_of

    doodle = load_edition("doodle")
    assert par_bot(doodle) == family_of(doodle).info.strong_bot == "expert"


def test_build_has_no_pdf_without_a_rules_reference():
    for relative, make in _jobs(parse_paper("a4")):
        if relative.endswith("-kit.pdf"):
            document, _ = make()
            assert any(page.label == "rules reference" for page in document.pages), relative


def test_tile_marks_sit_on_the_outline_of_each_tile():
    """An L tile on its own sheet: every crop mark, read from the SVG, lies on the extension of an
    edge of the L, 4 mm past an outer corner, and none points at the empty corner of its box."""
    from toolkit.geometry.outline import outline_loops
    from toolkit.render.imposition import impose_shelves

    cell = 19.0
    cells = {(0, 0), (1, 0), (1, 1)}  # an L: its box's top-right square is empty
    piece = Piece(2 * cell, 2 * cell, (Rect(-3, -3, 44, 44, None, 0.1, "#cccccc"),), None, "L",
                  outline_loops(cells, cell))
    page = impose_shelves([piece], parse_paper("a5"))[0]
    blob = encode(Document("L", (page,)), "svg")[0]
    root = ElementTree.fromstring(blob)
    move = next(g.get("transform") for g in root.iter(f"{SVG}g") if (g.get("transform") or "").startswith("translate("))
    ox, oy = (float(v) for v in move[len("translate("):-1].split(","))
    # the L's outer corners, worked out here from its squares
    corners = [(ox, oy), (ox + cell, oy), (ox + 2 * cell, oy + cell), (ox + 2 * cell, oy + 2 * cell),
               (ox, oy + 2 * cell)]
    marks = [tuple(float(line.get(k)) for k in ("x1", "y1", "x2", "y2")) for line in root.iter(f"{SVG}line")]
    assert len(marks) == 2 * len(corners)
    for x1, y1, x2, y2 in marks:
        near = min(corners, key=lambda c: (c[0] - x1) ** 2 + (c[1] - y1) ** 2)
        assert abs(x1 - near[0]) + abs(y1 - near[1]) == pytest.approx(4.0)  # bleed 3 mm + 1 mm gap
        assert x1 == x2 == near[0] or y1 == y2 == near[1]  # on the extension of an edge
        # no mark at the empty corner of the L's box, where a box-corner mark would mislead the cut
        gone = (ox + 2 * cell, oy)
        assert min((x - gone[0]) ** 2 + (y - gone[1]) ** 2 for x, y in ((x1, y1), (x2, y2))) > 7.0 ** 2


@pytest.mark.slow
def test_build_takes_the_margin_and_gutter_of_every_printed_sheet(tmp_path):
    from cli_helpers import ok

    ok("build", "--out", str(tmp_path / "wide"), "--margin", "12mm", "--gutter", "0")
    ok("build", "--out", str(tmp_path / "plain"))
    dpi = 60
    border = int(11.6 / 25.4 * dpi)
    kit = (tmp_path / "wide" / "doodle-kit.pdf").read_bytes()
    for number, image in enumerate(_png_pages(kit, dpi)):
        w, h = image.size
        for box in ((0, 0, w, border), (0, h - border, w, h), (0, 0, border, h), (w - border, 0, w, h)):
            assert image.crop(box).getextrema() == (255, 255), f"page {number + 1} prints inside {box}"
    assert kit != (tmp_path / "plain" / "doodle-kit.pdf").read_bytes()
