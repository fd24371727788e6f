"""A theme reaches every printed component: the tokens (button tiles, time tokens, the neutral and
Doodle tokens, the level marker) and the Automa cards (deck colours, the face's panel, buttons, a
back picture, the title, the fonts), measured from the written files' pixels, resources and text;
the bundled look stays the default, byte for byte."""
from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
import reportlab
from PIL import Image
from pypdf import PdfReader

from tests.cli_helpers import fails
from pdf_pixels import pixel
from toolkit.errors import SpecError
from toolkit.render import RenderOptions, encode, render_component
from toolkit.render.imposition import Duplex, Layout
from toolkit.render.paper import parse_paper
from toolkit.render.theme_file import load_theme, theme_yaml
from toolkit.render.tokens import token_pieces
from toolkit.specs import load_edition

FONTS = Path(reportlab.__file__).parent / "fonts"
LOOK = """\
kind: theme
name: night
title: Night Quilts
colours:
  button: "#aa0000"
  button_rim: "#550000"
  time_tokens: ["#00aa00", "#0000aa"]
  neutral_token: "#101010"
  doodle_token: "#00aaaa"
  level: "#aa00aa"
  automa: {normal: "#113355"}
  automa_face: "#eeffee"
fonts: {regular: fonts/Regular.ttf, bold: fonts/Bold.ttf}
automa_back: art/automa.png
"""


@pytest.fixture()
def theme(tmp_path):
    (tmp_path / "fonts").mkdir()
    (tmp_path / "art").mkdir()
    shutil.copy(FONTS / "VeraIt.ttf", tmp_path / "fonts" / "Regular.ttf")
    shutil.copy(FONTS / "VeraBd.ttf", tmp_path / "fonts" / "Bold.ttf")
    Image.new("RGB", (300, 420), "#ffcc00").save(tmp_path / "art" / "automa.png")
    (tmp_path / "look.yaml").write_text(LOOK)
    return load_theme(tmp_path / "look.yaml")


def _pdf(kind: str, edition: str, **options) -> bytes:
    return encode(render_component(kind, load_edition(edition), RenderOptions(**options)), "pdf")[0]




def _near(found, hex_colour: str, slack: int = 6) -> bool:
    wanted = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= slack for a, b in zip(found, wanted))


def _font_names(pdf: bytes) -> set[str]:
    names = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"].get("/Font", {}).values():
            names.add(re.sub(r"^/[A-Z]{6}\+", "", str(font.get_object()["/BaseFont"])))
    return names


@pytest.mark.parametrize("kind, edition, solo", [("tokens", "classic", False), ("tokens", "anniversary", True),
                                                 ("tokens", "doodle", False), ("automa", "anniversary", False),
                                                 ("kit", "anniversary", True)])
@pytest.mark.slow
def test_the_default_theme_file_prints_the_same_bytes(tmp_path, kind, edition, solo):
    (tmp_path / "bundled.yaml").write_text(theme_yaml())
    bundled = load_theme(tmp_path / "bundled.yaml")
    options = {"backs": True, "duplex": Duplex("long"), "solo": solo}
    assert _pdf(kind, edition, theme=bundled, **options) == _pdf(kind, edition, **options)


@pytest.mark.slow
def test_every_token_takes_the_themes_colours_and_fonts(theme):
    pieces = token_pieces(load_edition("anniversary"), solo=True)
    pdf = _pdf("tokens", "anniversary", solo=True, theme=theme, layout=Layout(mode="single"))
    # one token a page, 24 x 24 mm (18 mm + 3 mm bleed): a point inside each disc, clear of its print
    expected = {"button": "#aa0000", "time-token-lime-green": "#00aa00", "time-token-yellow": "#0000aa",
                "neutral-token": "#101010", "level-marker": "#aa00aa"}
    seen = set()
    for index, piece in enumerate(pieces):
        key = "button" if piece.name.startswith("button-") else piece.name
        if key in seen:
            continue
        seen.add(key)
        found = pixel(pdf, index, 12.0, 4.5)
        assert _near(found, expected[key]), f"{piece.name}: {found} is not the theme's {expected[key]}"
    assert seen == set(expected)
    assert _font_names(pdf) == {"BitstreamVeraSans-Bold"}  # the theme's bold (tokens print bold text only)
    doodle = _pdf("tokens", "doodle", theme=theme, layout=Layout(mode="single"))
    assert _near(pixel(doodle, 0, 12.0, 4.5), "#00aaaa")


@pytest.mark.slow
def test_the_automa_cards_take_the_themes_colours_back_picture_title_and_fonts(theme):
    pdf = _pdf("automa", "anniversary", theme=theme, backs=True, layout=Layout(mode="single"))
    reader = PdfReader(io.BytesIO(pdf))
    # the first card is of the normal deck: its band in the theme's colour, the face's panel too
    assert _near(pixel(pdf, 0, 3 + 2.0, 3 + 2.0), "#113355")
    assert _near(pixel(pdf, 0, 3 + 55.0, 3 + 40.0), "#eeffee")
    # its budget button in the theme's button colour, just inside the rim
    assert _near(pixel(pdf, 0, 3 + 31.5, 3 + 29.0 - 9.0), "#aa0000", 40)
    back = reader.pages[1]
    assert "/XObject" in back["/Resources"]  # the picture
    assert _near(pixel(pdf, 1, 1.0, 1.0), "#ffcc00")  # it runs into the bleed
    assert _near(pixel(pdf, 1, 3 + 8.0, 3 + 20.0), "#113355")  # the deck's band over it
    assert "Night Quilts" in back.extract_text() and "normal" in back.extract_text()
    # a deck the theme does not name keeps the bundled colour
    tactical = next(i for i, page in enumerate(reader.pages) if "tactical" in page.extract_text())
    assert _near(pixel(pdf, tactical, 3 + 2.0, 3 + 2.0), "#8a4f2a")
    assert _font_names(pdf) == {"BitstreamVeraSans-Oblique", "BitstreamVeraSans-Bold"}


@pytest.mark.slow
def test_the_solo_kit_and_builds_automa_sample_take_the_theme(theme):
    from toolkit.render.build import _jobs

    kit = render_component("kit", load_edition("anniversary"), RenderOptions(solo=True, theme=theme))
    svg = b"".join(encode(kit, "svg"))
    for colour in (b"#aa0000", b"#00aa00", b"#aa00aa", b"#113355", b"#eeffee"):
        assert colour in svg, colour
    samples = {relative: make for relative, make in _jobs(parse_paper("a4"), theme=theme)
               if "automa-card" in relative}
    document, fmt = samples["svg/automa-card-normal.svg"]()
    drawn = encode(document, fmt)[0]
    assert b"#113355" in drawn and b"#eeffee" in drawn and b"'Bitstream Vera Sans'" in drawn


@pytest.mark.parametrize("text, message", [
    ("colours: {automa: blue}", "colours.automa: expected a mapping of Automa deck name to colour"),
    ("colours: {automa: {normal: navy}}", "colours.automa.normal: expected a colour written #rrggbb, got 'navy'"),
    ("colours: {time_tokens: ['#000000']}", "colours.time_tokens: expected two colours (first and second player)"),
    ("colours: {button: red}", "colours.button: expected a colour written #rrggbb, got 'red'"),
    ("automa_back: nope.png", "automa_back: nope.png does not exist"),
])
def test_a_bad_new_key_is_one_line(tmp_path, text, message):
    path = tmp_path / "look.yaml"
    path.write_text(f"kind: theme\n{text}\n")
    with pytest.raises(SpecError) as error:
        load_theme(path)
    lines = error.value.render().splitlines()
    assert len(lines) == 1 and message in lines[0], lines


def test_a_bad_automa_back_on_the_command_line_is_one_line(tmp_path):
    (tmp_path / "a.png").write_text("not a picture")
    (tmp_path / "look.yaml").write_text("kind: theme\nautoma_back: a.png\n")
    error = fails("render", "automa", "--theme", str(tmp_path / "look.yaml"), "--out", str(tmp_path / "a.pdf"))
    lines = str(error).splitlines()
    assert len(lines) == 1 and lines[0].endswith("look.yaml:2:14: automa_back: a.png is not a picture (expected PNG "
                                                 "or JPEG)"), lines
    assert not (tmp_path / "a.pdf").exists()


def test_an_automa_deck_the_edition_lacks_is_one_line_naming_where_the_theme_names_it(tmp_path):
    path = tmp_path / "look.yaml"
    path.write_text('kind: theme\ncolours:\n  automa: {normal: "#113355", tactcal: "#553311"}\n')
    theme = load_theme(path)
    with pytest.raises(SpecError) as error:
        render_component("automa", load_edition("anniversary"), RenderOptions(theme=theme))
    lines = error.value.render().splitlines()
    assert len(lines) == 1 and lines[0].endswith(
        "look.yaml:3:40: colours.automa.tactcal: no Automa deck tactcal in edition 'anniversary' or the bundled "
        "editions (it has normal, tactical)"), lines
    with pytest.raises(SpecError, match="tactcal"):
        render_component("kit", load_edition("anniversary"), RenderOptions(theme=theme, solo=True))
    with pytest.raises(SpecError, match="tactcal"):  # a misspelt deck is a slip whatever is printed
        render_component("kit", load_edition("classic"), RenderOptions(theme=theme))
    from toolkit.render.build import build

    with pytest.raises(SpecError, match="no Automa deck tactcal in the bundled editions"):
        build(tmp_path / "out", parse_paper("a4"), theme=theme)
    assert not (tmp_path / "out").exists()
