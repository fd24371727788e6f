"""One theme file for every edition: patch ids and Automa decks another edition prints are not an
error, a misspelt one still is; a picture too coarse for its printed size is named with its ppi;
a picture on every card is embedded and decoded once a file."""
from __future__ import annotations

import re

import pytest
from PIL import Image

from tests.cli_helpers import fails, ok
from toolkit.errors import SpecError
from toolkit.render import RenderOptions, encode, render_component
from toolkit.render.theme_file import load_theme
from toolkit.specs import load_edition

EVERY_EDITION = """\
kind: theme
patches:
  P01: {colour: "#aa3344", pattern: stripes}
  D01: {colour: "#3344aa"}
colours:
  automa: {normal: "#223344"}
"""


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "art").mkdir()
    return tmp_path


@pytest.mark.slow
def test_a_theme_naming_classic_and_doodle_patches_prints_every_edition(folder):
    (folder / "all.yaml").write_text(EVERY_EDITION)
    for args in (["render", "cards"], ["render", "tiles", "classic"], ["render", "automa", "anniversary"],
                 ["render", "kit", "express"]):
        ok(*args, "--theme", "all.yaml", "--page", "1", "--out", f"{args[1]}.pdf", "--force")
    ok("build", "--edition", "classic", "--theme", "all.yaml", "--out", "kit")


def test_a_misspelt_patch_or_deck_is_still_refused_with_its_line(folder):
    (folder / "typo.yaml").write_text(EVERY_EDITION.replace("D01:", "D0l:").replace("normal:", "nromal:"))
    error = fails("render", "cards", "--theme", "typo.yaml", "--out", "c.pdf")
    lines = str(error).splitlines()
    assert any(re.match(r"typo\.yaml:4:\d+: patches\.D0l: no patch D0l in edition 'doodle' or the bundled", line)
               for line in lines), lines
    assert not (folder / "c.pdf").exists()
    theme = load_theme(folder / "typo.yaml")
    with pytest.raises(SpecError, match="colours.automa.nromal"):
        render_component("automa", load_edition("anniversary"), RenderOptions(theme=theme))


@pytest.mark.slow
def test_a_custom_decks_own_ids_are_known_when_it_is_printed(folder):
    variant = folder / "mine.yaml"
    variant.write_text("kind: variant\nname: mine\ntitle: Mine\nextends: classic\n"
                       "add_patches:\n  - {id: X01, cost: 1, time: 1, income: 0, shape: \"#\"}\n")
    (folder / "t.yaml").write_text("kind: theme\npatches:\n  X01: {colour: \"#112233\"}\n")
    ok("render", "tiles", str(variant), "--theme", "t.yaml", "--page", "1", "--out", "t.pdf")
    error = fails("render", "tiles", "classic", "--theme", "t.yaml", "--out", "u.pdf")
    assert "no patch X01" in str(error)


def test_a_coarse_card_back_is_named_with_its_ppi(folder):
    Image.new("RGB", (40, 30), "#aa2233").save(folder / "art" / "tiny.png")
    (folder / "t.yaml").write_text("kind: theme\ncard_back: art/tiny.png\n")
    result = ok("render", "cards", "--backs", "--theme", "t.yaml", "--out", "c.pdf")
    warning = [line for line in result.output.splitlines() if line.startswith("warning: ")]
    assert len(warning) == 1 and "art/tiny.png (40 x 30 px)" in warning[0]
    ppi = int(re.search(r": (\d+) ppi", warning[0]).group(1))
    assert 5 <= ppi <= 12  # 30 px over the 94 mm bleed height of a 63 x 88 mm card: about 8 ppi


@pytest.mark.slow
def test_a_sharp_picture_draws_no_warning(folder):
    Image.new("RGB", (900, 1200), "#aa2233").save(folder / "art" / "back.png")
    (folder / "t.yaml").write_text("kind: theme\ncard_back: art/back.png\n")
    result = ok("render", "cards", "--backs", "--theme", "t.yaml", "--out", "c.pdf")
    assert "warning" not in result.output


@pytest.mark.slow
def test_a_picture_on_every_card_is_embedded_once(folder):
    Image.new("RGB", (900, 1200), "#2233aa").save(folder / "art" / "back.png")
    (folder / "t.yaml").write_text("kind: theme\ncard_back: art/back.png\npatches:\n  default: {art: art/back.png}\n")
    theme = load_theme(folder / "t.yaml")
    document = render_component("cards", load_edition("doodle"), RenderOptions(theme=theme, backs=True))
    pdf = encode(document, "pdf")[0]
    assert pdf.count(b"/Subtype /Image") == 1
