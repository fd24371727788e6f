"""A kit printed at home shows no cut line: the CutContour layer is for a print shop's cutter, and
every renderer (PDFium, Ghostscript) draws it as a magenta hairline when it is in the file. The
layer is in the print shops' outputs (--template, --layout single) and behind --cut-layer."""
from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from tests.cli_helpers import fails, ok

DPI = 100


def _pdfium(path) -> list[Image.Image]:
    doc = pdfium.PdfDocument(path.read_bytes())
    try:
        return [doc[i].render(scale=DPI / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
                for i in range(len(doc))]
    finally:
        doc.close()


def _ghostscript(path) -> list[Image.Image]:
    out = path.with_suffix("")
    subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=png16m", f"-r{DPI}",
                    f"-sOutputFile={out}-%02d.png", str(path)], check=True, capture_output=True, timeout=120)
    return [Image.open(page).convert("RGB") for page in sorted(out.parent.glob(f"{out.name}-*.png"))]


def _magenta_changes(picture: Image.Image, bare: Image.Image) -> int:
    """Pixels where `picture` differs from the same page drawn with no cut line at all, towards
    the cut line's alternate colour (magenta: more red and blue than green)."""
    shown = np.asarray(picture, dtype=np.int16)
    changed = np.abs(shown - np.asarray(bare, dtype=np.int16)).max(axis=2) > 24
    r, g, b = shown[..., 0], shown[..., 1], shown[..., 2]
    return int((changed & (r - g > 40) & (b - g > 40)).sum())


def _three(tmp_path, kind: str, edition: str, *extra: str):
    """(home, shop, bare) PDFs of page 1: the default, with --cut-layer, with --no-cut-lines."""
    paths = []
    for name, flags in (("home", ()), ("shop", ("--cut-layer",)), ("bare", ("--no-cut-lines",))):
        path = tmp_path / f"{kind}-{name}.pdf"
        ok("render", kind, edition, "--page", "1", *flags, *extra, "--out", str(path))
        paths.append(path)
    return paths


@pytest.mark.parametrize("kind", ["tiles", "tokens"])
@pytest.mark.slow
def test_pdfium_draws_no_cut_line_on_what_is_printed_at_home(tmp_path, kind):
    home, shop, bare = _three(tmp_path, kind, "express")
    assert b"CutContour" not in home.read_bytes() and b"/OCProperties" not in home.read_bytes()
    assert list((tmp_path / "cut").glob(f"{kind}-home-cut*.svg")), "the cut files are still written"
    (home_page,), (shop_page,), (bare_page,) = _pdfium(home), _pdfium(shop), _pdfium(bare)
    assert _magenta_changes(shop_page, bare_page) > 500, "the test sees a cut line where there is one"
    assert _magenta_changes(home_page, bare_page) == 0


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (gs) is not installed")
@pytest.mark.slow
def test_ghostscript_draws_no_cut_line_on_what_is_printed_at_home(tmp_path):
    home, shop, bare = _three(tmp_path, "tiles", "classic")
    (home_page,), (shop_page,), (bare_page,) = _ghostscript(home), _ghostscript(shop), _ghostscript(bare)
    assert _magenta_changes(shop_page, bare_page) > 500
    assert _magenta_changes(home_page, bare_page) == 0


@pytest.mark.slow
def test_print_shop_outputs_keep_the_cut_layer(tmp_path):
    ok("render", "tiles", "express", "--template", "tiles-diecut", "--page", "1", "--out", str(tmp_path / "d.pdf"))
    ok("render", "tokens", "express", "--layout", "single", "--page", "1", "--out", str(tmp_path / "s.pdf"))
    assert b"/CutContour" in (tmp_path / "d.pdf").read_bytes()
    assert b"/CutContour" in (tmp_path / "s.pdf").read_bytes()
    ok("render", "tiles", "express", "--template", "tiles-diecut", "--page", "1", "--no-cut-layer",
       "--out", str(tmp_path / "e.pdf"))
    assert b"CutContour" not in (tmp_path / "e.pdf").read_bytes()


@pytest.mark.parametrize("args", [["--cut-layer", "--no-cut-lines", "--out", "x.pdf"],
                                  ["--cut-layer", "--format", "svg", "--out", "x.svg"]])
def test_a_cut_layer_that_cannot_be_made_is_refused(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    error = fails("render", "tiles", "express", *args)
    assert "--cut-layer" in str(error) and not list(tmp_path.iterdir())


@pytest.mark.slow
def test_build_kits_show_no_cut_line(tmp_path):
    ok("build", "--edition", "classic", "--out", str(tmp_path / "kit"))
    pdf = (tmp_path / "kit" / "classic-kit.pdf").read_bytes()
    assert b"CutContour" not in pdf
    assert list((tmp_path / "kit" / "cut").glob("*.svg"))
