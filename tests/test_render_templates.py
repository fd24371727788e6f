"""`--template NAME`: print-on-demand card and tile templates, measured from the written files:
every card face an exact number of pixels (825 x 1125 for a poker card with 1/8 in bleed at
300 dpi), PDF pages of exactly trim + bleed with their boxes, files named by the face they hold,
and one clear line for an option that would break the template."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from tests.cli_helpers import fails, ok
from toolkit.render.templates import TEMPLATES

PIXELS = {"poker-png": (825, 1125), "bridge-png": (750, 1125), "mini-png": (600, 825), "tarot-png": (900, 1500)}
"""The published template sizes each PNG template must match, as cited in docs/print-shops.md
(The Game Crafter's poker, bridge, mini and tarot decks, from Templative's table of its products);
the files are measured against them below."""


def test_every_png_card_template_states_its_pixels():
    for name, size in PIXELS.items():
        assert TEMPLATES[name].pixels() == size


@pytest.mark.parametrize("name", sorted(PIXELS))
@pytest.mark.slow
def test_every_card_face_is_exactly_the_templates_pixels(tmp_path, name):
    result = ok("render", "automa", "anniversary", "--template", name, "--backs", "--out", str(tmp_path / "a.png"))
    faces = sorted(tmp_path.glob("a-*.png"))
    assert len(faces) == 48  # 24 cards, front and back
    for face in faces:
        with Image.open(face) as image:
            assert image.size == PIXELS[name], face.name
            assert image.info["dpi"][0] == pytest.approx(300, abs=0.01)
    assert f"{PIXELS[name][0]} x {PIXELS[name][1]} px at 300 dpi" in result.output


@pytest.mark.slow
def test_card_files_are_named_by_the_face_they_hold(tmp_path):
    ok("render", "cards", "--template", "poker-png", "--backs", "--page", "1", "--out", str(tmp_path / "c.png"))
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith(".")] == ["c-001-D01-front.png"]
    ok("render", "cards", "--template", "poker-png", "--backs", "--out", str(tmp_path / "d.png"))
    names = sorted(p.name for p in tmp_path.glob("d-*.png"))
    assert names[:2] == ["d-001-D01-front.png", "d-002-D01-back.png"] and len(names) == 80


@pytest.mark.slow
def test_poker_pdf_pages_are_2_75_by_3_75_inches_with_the_trim_inside(tmp_path):
    ok("render", "cards", "--template", "poker-pdf", "--out", str(tmp_path / "p.pdf"))
    reader = PdfReader(tmp_path / "p.pdf")
    assert len(reader.pages) == 40
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == [0, 0, 198, 270]  # 2.75 x 3.75 in
        assert [float(v) for v in page.trimbox] == [9, 9, 189, 261]  # 2.5 x 3.5 in, 1/8 in in
        assert [float(v) for v in page.bleedbox] == [0, 0, 198, 270]


@pytest.mark.slow
def test_die_cut_tiles_come_one_a_page_with_their_cut_files(tmp_path):
    result = ok("render", "tiles", "express", "--template", "tiles-diecut", "--out", str(tmp_path / "t.pdf"))
    reader = PdfReader(tmp_path / "t.pdf")
    assert len(reader.pages) == 29  # 23 patches and 6 leather patches
    cuts = sorted((tmp_path / "cut").glob("t-cut-*.svg"))
    assert len(cuts) == 29 and "CutContour" in result.output
    first = reader.pages[0]
    trim = [float(v) * 25.4 / 72 for v in first.trimbox]
    assert trim[0] == pytest.approx(3.175, abs=0.002)


@pytest.mark.slow
def test_die_cut_tile_pictures_are_clear_outside_their_bleed(tmp_path):
    ok("render", "tiles", "classic", "--template", "tiles-png", "--page", "8", "--out", str(tmp_path / "t.png"))
    picture = next(tmp_path.glob("t-*.png"))
    with Image.open(picture) as image:
        assert image.mode == "RGBA"
        corners = [image.getpixel(p) for p in ((0, 0), (image.width - 1, 0), (0, image.height - 1),
                                               (image.width - 1, image.height - 1))]
    assert any(c[3] == 0 for c in corners), "an L-shaped tile leaves a clear corner"
    assert sorted(p.name for p in (tmp_path / "cut").glob("*.svg"))[0].endswith("-cut.svg")


@pytest.mark.parametrize("args, needle", [
    (["render", "cards", "--template", "poker-png", "--format", "pdf"], "drop --format pdf"),
    (["render", "cards", "--template", "poker-png", "--bleed", "3mm"], "drop --bleed 3mm"),
    (["render", "cards", "--template", "poker-png", "--layout", "sheet"], "drop --layout sheet"),
    (["render", "cards", "--template", "poker-png", "--card-size", "mini"], "drop --card-size mini"),
    (["render", "cards", "--template", "poker-png", "--dpi", "600"], "drop --dpi 600"),
    (["render", "tiles", "--template", "poker-png"], "for tiles choose tiles-diecut, tiles-png"),
    (["render", "cards", "--template", "tiles-png"], "not cards"),
    (["render", "cards", "--template", "huge"], "unknown template 'huge'"),
])
@pytest.mark.slow
def test_a_clash_with_the_template_is_one_clear_line(tmp_path, args, needle):
    error = fails(*args, "--out", str(tmp_path / "x.png"))
    assert needle in str(error) and "\n" not in str(error)
    assert not list(Path(tmp_path).iterdir())
