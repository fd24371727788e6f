"""A designer's own look: theme files (colours, TrueType fonts embedded and subset, a card back
picture, per-patch pictures or patterns, title and credits), measured from the written files; every
problem in a theme file one clear line; the bundled look is the default and prints the same bytes."""
from __future__ import annotations

import io
import os
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import reportlab
from PIL import Image, ImageDraw
from pypdf import PdfReader

from tests.cli_helpers import fails, ok
from pdf_pixels import pixel
from toolkit.errors import SpecError
from toolkit.render import RenderOptions, encode, render_component
from toolkit.render.scene import Document, Page, Text, text_width
from toolkit.render.theme import DEFAULT_THEME
from toolkit.render.theme_file import MAX_IMAGE_BYTES, load_theme, theme_yaml
from toolkit.specs import load_edition

FONTS = Path(reportlab.__file__).parent / "fonts"
MM = 25.4 / 72


@pytest.fixture()
def folder(tmp_path, monkeypatch) -> Path:
    """A designer's folder, the working folder: two TrueType fonts, a card back and a patch picture."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fonts").mkdir()
    (tmp_path / "art").mkdir()
    shutil.copy(FONTS / "VeraIt.ttf", tmp_path / "fonts" / "Regular.ttf")
    shutil.copy(FONTS / "VeraBd.ttf", tmp_path / "fonts" / "Bold.ttf")
    back = Image.new("RGB", (750, 1050), "#114477")
    ImageDraw.Draw(back).ellipse((200, 350, 550, 700), fill="#ffcc00")
    back.save(tmp_path / "art" / "back.png")
    Image.new("RGB", (400, 300), "#00aa55").save(tmp_path / "art" / "patch.jpg", quality=95)
    return tmp_path


def _theme(folder: Path, text: str, name: str = "look.yaml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


DOODLE_LOOK = """\
kind: theme
name: night
title: Night Quilts
credits: "Art: A. Designer, CC BY 4.0"
colours:
  card_face: "#fff8e0"
  card_back: "#114477"
  palette: ["#cc3355", "#33aacc"]
fonts: {regular: fonts/Regular.ttf, bold: fonts/Bold.ttf}
card_back: art/back.png
patches:
  default: {pattern: stripes}
  D01: {art: art/patch.jpg}
  D02: {colour: "#123456", pattern: dots}
"""
CLASSIC_LOOK = """\
kind: theme
name: board
colours: {quilt_frame: "#204020", quilt: "#e0f0e0", tile_back: "#202060", time_board: "#402020",
          track: ["#ffffff", "#dddddd"]}
patches:
  P01: {art: art/patch.jpg}
  P02: {pattern: checks, colour: "#880088"}
"""


def _pdf(kind, edition, theme, **options) -> bytes:
    return encode(render_component(kind, load_edition(edition), RenderOptions(theme=theme, **options)), "pdf")[0]




# ----- the bundled look is the default ----------------------------------------------------------------


def test_the_written_default_theme_is_the_bundled_look(tmp_path):
    ok("render", "theme", "--out", str(tmp_path / "mine.yaml"))
    loaded = load_theme(tmp_path / "mine.yaml")
    assert replace(loaded, source="") == DEFAULT_THEME
    assert theme_yaml().startswith("# A look for patchwork render and build")


@pytest.mark.parametrize("kind, edition", [("cards", "doodle"), ("tiles", "classic"), ("boards", "express"),
                                           ("rules", "anniversary"), ("sheet", "doodle"), ("kit", "classic")])
@pytest.mark.slow
def test_the_default_theme_file_prints_the_same_bytes(tmp_path, kind, edition):
    path = _theme(tmp_path, theme_yaml())
    plain = encode(render_component(kind, load_edition(edition), RenderOptions()), "pdf")[0]
    assert _pdf(kind, edition, load_theme(path)) == plain


# ----- a designer's look, measured from the files ------------------------------------------------


@pytest.mark.slow
def test_fonts_are_embedded_and_subset_and_nothing_else_is(folder):
    pdf = _pdf("rules", "doodle", load_theme(_theme(folder, DOODLE_LOOK)))
    reader = PdfReader(io.BytesIO(pdf))
    fonts = {}
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            fonts[str(font["/BaseFont"])] = font["/FontDescriptor"].get_object()
    assert {re.sub(r"^/[A-Z]{6}\+", "", name) for name in fonts} == {"BitstreamVeraSans-Oblique",
                                                                     "BitstreamVeraSans-Bold"}
    for name, descriptor in fonts.items():
        assert re.match(r"^/[A-Z]{6}\+", name), f"{name} is not a subset"
        assert "/FontFile2" in descriptor, f"{name} is not embedded"
    text = reader.pages[0].extract_text()
    assert "Night Quilts: rules reference" in text and "Art: A. Designer, CC BY 4.0" in text


@pytest.mark.slow
def test_colours_card_back_picture_and_title_reach_the_cards(folder):
    theme = load_theme(_theme(folder, DOODLE_LOOK))
    pdf = _pdf("cards", "doodle", theme, layout=__import__("toolkit.render.imposition", fromlist=["Layout"]).Layout(
        mode="single"), backs=True)
    reader = PdfReader(io.BytesIO(pdf))
    front, back = reader.pages[0], reader.pages[1]
    assert "/XObject" in back["/Resources"]  # the picture
    # a 69 x 94 mm page: trim from 3 mm; the card face colour near a corner, the picture's disc mid-card
    assert pixel(pdf, 0, 3 + 10.0, 3 + 60.0) == (0xff, 0xf8, 0xe0)
    centre = pixel(pdf, 1, 3 + 31.5, 3 + 44.0)
    assert centre[0] > 230 and 180 < centre[1] < 230 and centre[2] < 40  # the yellow disc
    assert pixel(pdf, 1, 1.0, 1.0)[2] > 100  # the picture runs into the bleed
    assert "Night Quilts".upper() not in front.extract_text()


@pytest.mark.slow
def test_each_patch_gets_its_picture_or_pattern_clipped_to_its_outline(folder):
    theme = load_theme(_theme(folder, CLASSIC_LOOK))
    document = render_component("tiles", load_edition("classic"), RenderOptions(theme=theme))
    svg = encode(document, "svg")
    joined = b"".join(svg)
    assert joined.count(b"data:image/jpeg;base64,") == 1  # P01's picture
    assert b'clip-rule="evenodd"' in joined
    pdf = _pdf("tiles", "classic", theme, backs=True, duplex=__import__(
        "toolkit.render.imposition", fromlist=["Duplex"]).Duplex("long"))
    reader = PdfReader(io.BytesIO(pdf))
    backs = reader.pages[1].get_contents().get_data()
    assert re.search(rb"\.12549 \.12549 \.376471 rg", backs), "the theme's tile back colour #202060"


def test_board_colours(folder):
    theme = load_theme(_theme(folder, CLASSIC_LOOK))
    pdf = _pdf("boards", "classic", theme)
    # the quilt board's frame, 2 mm inside its left edge (the board is centred on A4)
    x = (210 - 185) / 2 + 2.0
    assert pixel(pdf, 0, x, 297 / 2) == (0x20, 0x40, 0x20)
    assert pixel(pdf, 0, 105, 297 / 2) == (0xe0, 0xf0, 0xe0)  # the middle of a quilt square


def test_a_font_wider_than_the_layout_expects_is_condensed_into_its_box(folder):
    from toolkit.render.theme_file import load_theme as load

    wide = _theme(folder, "kind: theme\nfonts: {regular: fonts/Bold.ttf}\n", "wide.yaml")
    fonts = load(wide).fonts
    text = "Wide letters must stay inside the width the layout measured WWWWMMMM"
    document = Document("t", (Page(200, 40, (Text(10, 20, text, 12.0),)),), fonts=fonts)
    pdf = encode(document, "pdf")[0]
    assert b" Tz" in PdfReader(io.BytesIO(pdf)).pages[0].get_contents().get_data()
    doc = pdfium.PdfDocument(pdf)
    image = doc[0].render(scale=300 / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("L")
    doc.close()
    left, _, right, _ = image.point(lambda v: 255 if v < 200 else 0).getbbox()
    assert (right - left) * 25.4 / 300 <= text_width(text, 12.0) + 0.2


def test_svg_text_asks_for_the_themes_family(folder):
    theme = load_theme(_theme(folder, DOODLE_LOOK))
    svg = encode(render_component("rules", load_edition("doodle"), RenderOptions(theme=theme)), "svg")[0]
    # the theme's family first, then the bundled fallbacks
    assert b"font-family=\"'Bitstream Vera Sans', 'Bitstream Vera Sans', 'DejaVu Sans'" in svg


@pytest.mark.slow
def test_render_and_build_take_a_theme(folder, tmp_path):
    look = _theme(folder, DOODLE_LOOK)
    result = ok("render", "cards", "--theme", str(look), "--out", str(tmp_path / "c.pdf"))
    assert "c.pdf" in result.output
    spec = load_edition("doodle")
    assert spec.patches[0].id == "D01"
    out = tmp_path / "kit"
    ok("build", "--edition", "doodle", "--theme", str(look), "--out", str(out))
    text = PdfReader(out / "doodle-kit.pdf").pages[-2].extract_text()
    assert "Night Quilts" in text


# ----- every problem one clear line --------------------------------------------------------------


def test_every_problem_is_one_line_naming_file_line_and_key(folder):
    (folder / "art" / "notes.png").write_text("not a picture")
    Image.new("P", (4, 4)).save(folder / "art" / "anim.gif")
    (folder / "fonts" / "cff.ttf").write_bytes(b"OTTO" + bytes(200))
    (folder / "fonts" / "junk.ttf").write_bytes(b"\0\1\0\0" + b"junk" * 40)
    path = _theme(folder, """\
kind: theme
colour: {}
title: ""
colours:
  card_back: navy
  ink: "#000000"
  track: ["#ffffff"]
fonts:
  regular: fonts/missing.ttf
  bold: fonts/cff.ttf
  italic: fonts/junk.ttf
card_back: art/notes.png
patches:
  D01: {art: art/anim.gif}
  D02: {pattern: tartan, size: 3}
  D03: {art: art}
  D04: 7
""")
    with pytest.raises(SpecError) as error:
        load_theme(path)
    lines = str(error.value).splitlines()
    expected = [
        "look.yaml:2:9: colour: unknown key",
        "look.yaml:3:8: title: expected one line",
        "look.yaml:5:14: colours.card_back: expected a colour written #rrggbb, got 'navy'",
        "look.yaml:6:8: colours.ink: unknown colour",
        "look.yaml:7:10: colours.track: expected two colours",
        "look.yaml:9:12: fonts.regular: fonts/missing.ttf does not exist",
        "look.yaml:10:9: fonts.bold: fonts/cff.ttf is an OpenType font with PostScript (CFF) outlines",
        "look.yaml:11:11: fonts.italic: unknown font",
        "look.yaml:12:12: card_back: art/notes.png is not a picture",
        "look.yaml:14:14: patches.D01.art: art/anim.gif is a GIF picture; expected PNG or JPEG",
        "look.yaml:15:18: patches.D02.pattern: unknown pattern 'tartan'",
        "look.yaml:15:32: patches.D02.size: unknown key",
        "look.yaml:16:14: patches.D03.art: art is a directory, not a PNG or JPEG picture",
        "look.yaml:17:8: patches.D04: expected a mapping",
    ]
    assert len(lines) == len(expected)
    for line, start in zip(lines, expected):
        assert line.startswith(start), (line, start)


def test_a_font_that_is_not_truetype_and_files_too_large(folder):
    (folder / "fonts" / "junk.ttf").write_bytes(b"\0\1\0\0" + b"junk" * 40)
    big = folder / "art" / "huge.png"
    with open(big, "wb") as handle:  # sparse: the size is checked before anything is read
        handle.truncate(MAX_IMAGE_BYTES + 1)
    Image.new("1", (8000, 6000)).save(folder / "art" / "wide.png")
    path = _theme(folder, "kind: theme\nfonts: {regular: fonts/junk.ttf}\ncard_back: art/huge.png\n"
                          "patches: {D01: {art: art/wide.png}}\n")
    with pytest.raises(SpecError) as error:
        load_theme(path)
    text = str(error.value)
    assert "fonts/junk.ttf is not a TrueType font that can be embedded" in text
    assert "art/huge.png is 20.0 MB; a PNG or JPEG picture may be at most 20 MB" in text
    assert "art/wide.png is 8000 x 6000 px; a picture may have at most 40 megapixels" in text
    assert len(text.splitlines()) == 3


def test_patch_ids_are_checked_against_every_edition(folder):
    theme = load_theme(_theme(folder, CLASSIC_LOOK))
    render_component("cards", load_edition("doodle"), RenderOptions(theme=theme))  # P01 is classic's: fine
    typo = load_theme(_theme(folder, CLASSIC_LOOK.replace("P01:", "P0l:"), "typo.yaml"))
    with pytest.raises(SpecError, match=r"typo.yaml:6:8: patches.P0l: no patch P0l in edition 'doodle' or the "
                                        r"bundled editions"):
        render_component("sheet", load_edition("doodle"), RenderOptions(theme=typo))


@pytest.mark.slow
def test_a_bad_theme_on_the_command_line_is_its_problems_and_no_traceback(folder, tmp_path):
    path = _theme(folder, "kind: theme\ncolours: {quilt: green}\nfonts: {regular: nope.ttf}\n")
    error = fails("render", "boards", "--theme", str(path), "--out", str(tmp_path / "b.pdf"))
    assert str(error).splitlines() == [
        "look.yaml:2:18: colours.quilt: expected a colour written #rrggbb, got 'green'",
        "look.yaml:3:18: fonts.regular: nope.ttf does not exist (paths are relative to the theme file)",
    ]
    assert not (tmp_path / "b.pdf").exists()
    assert "theme file" in str(fails("render", "cards", "--theme", str(folder / "none.yaml"))).lower()
    assert os.path.exists(folder / "look.yaml")
