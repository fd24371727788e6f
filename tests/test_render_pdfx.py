"""PDF/X-1a:2003 output (`--pdfx`), checked from the file: the version key and Trapped, an output
intent carrying a CMYK ICC profile, TrimBox and BleedBox inside the MediaBox on every page, only
CMYK and spot colours (a theme's RGB picture converted too), no transparency, no layers, every
font embedded; and read by Ghostscript, which reports every page as CMYK ink.

No PDF/X validator can be installed here (veraPDF checks PDF/A, not PDF/X), so these tests check
the PDF/X-1a requirements one by one; a shop's preflight remains the final word."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import IndirectObject

from tests.cli_helpers import fails, ok
from toolkit.render.pdf import PDFX_VERSION, find_cmyk_profile, is_cmyk_profile

PROFILE = find_cmyk_profile()
needs_profile = pytest.mark.skipif(PROFILE is None, reason="no CMYK ICC profile installed "
                                                           "(Ghostscript's default_cmyk.icc brings one)")


def _walk(obj, seen, found):
    """Every name and dictionary reachable from `obj` (resources, XObjects, fonts)."""
    if isinstance(obj, IndirectObject):
        if obj.idnum in seen:
            return
        seen.add(obj.idnum)
        obj = obj.get_object()
    if isinstance(obj, dict):
        found.append(obj)
        for key, value in obj.items():
            if key != "/Parent":
                _walk(value, seen, found)
    elif isinstance(obj, list):
        for value in obj:
            _walk(value, seen, found)
    else:
        found.append(obj)


def _check_pdfx(path):
    data = path.read_bytes()
    assert re.match(rb"%PDF-1\.[34]", data), data[:8]
    reader = PdfReader(path)
    info = reader.trailer["/Info"]
    assert info["/GTS_PDFXVersion"] == PDFX_VERSION == "PDF/X-1a:2003" and info["/Trapped"] == "/False"
    root = reader.trailer["/Root"]
    assert "/OCProperties" not in root
    (intent,) = [i.get_object() for i in root["/OutputIntents"]]
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"]
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4 and is_cmyk_profile(profile.get_data())
    found: list = []
    seen: set = set()
    for page in reader.pages:
        media = [float(v) for v in page.mediabox]
        for box in (page.trimbox, page.bleedbox):
            assert "/TrimBox" in page and "/BleedBox" in page
            x0, y0, x1, y1 = (float(v) for v in box)
            assert media[0] <= x0 < x1 <= media[2] and media[1] <= y0 < y1 <= media[3]
        _walk(page["/Resources"], seen, found)
    names = {str(v) for v in found if not isinstance(v, dict)}
    assert "/DeviceRGB" not in names and "/CalRGB" not in names and "/ICCBased" not in names
    dicts = [d for d in found if isinstance(d, dict)]
    for d in dicts:
        assert "/SMask" not in d or d["/SMask"] == "/None"
        assert float(d.get("/CA", 1)) == 1 and float(d.get("/ca", 1)) == 1
        if d.get("/Subtype") == "/Image":
            assert d["/ColorSpace"] == "/DeviceCMYK"
    fonts = [d for d in dicts if d.get("/Type") == "/FontDescriptor"]
    assert all("/FontFile2" in d or "/FontFile" in d or "/FontFile3" in d for d in fonts)
    return reader, [d for d in dicts if d.get("/Subtype") == "/Image"], fonts


@needs_profile
@pytest.mark.slow
def test_a_solo_kit_as_pdfx_meets_every_requirement(tmp_path):
    result = ok("render", "kit", "anniversary", "--solo", "--backs", "--pdfx", "--cut-layer",
                "--out", str(tmp_path / "kit.pdf"))
    assert "PDF/X-1a:2003" in result.output and PROFILE in result.output
    reader, _images, fonts = _check_pdfx(tmp_path / "kit.pdf")
    assert len(fonts) >= 2  # Vera and Vera Bold, both embedded
    assert len(reader.pages) > 10
    assert b"/CutContour" in (tmp_path / "kit.pdf").read_bytes()  # the cut as a spot colour, no layer


@needs_profile
def test_a_themes_rgb_picture_is_converted_to_cmyk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "art").mkdir()
    picture = Image.new("RGBA", (800, 1100), (30, 120, 200, 255))
    picture.paste((0, 0, 0, 0), (0, 0, 200, 200))  # a clear corner: flattened, not a soft mask
    picture.save(tmp_path / "art" / "back.png")
    (tmp_path / "t.yaml").write_text("kind: theme\ncard_back: art/back.png\n")
    ok("render", "cards", "--backs", "--theme", "t.yaml", "--pdfx", "--page", "2", "--out", "c.pdf")
    _reader, images, _fonts = _check_pdfx(tmp_path / "c.pdf")
    assert len(images) == 1 and images[0]["/ColorSpace"] == "/DeviceCMYK" and "/SMask" not in images[0]


@needs_profile
def test_cmyk_without_pdfx_converts_pictures_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Image.new("RGB", (800, 1100), (30, 120, 200)).save(tmp_path / "back.png")
    (tmp_path / "t.yaml").write_text("kind: theme\ncard_back: back.png\n")
    ok("render", "cards", "--backs", "--theme", "t.yaml", "--cmyk", "--page", "2", "--out", "c.pdf")
    assert b"/DeviceRGB" not in (tmp_path / "c.pdf").read_bytes()


@needs_profile
@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (gs) is not installed")
@pytest.mark.slow
def test_ghostscript_reads_every_page_as_cmyk_ink(tmp_path):
    ok("render", "tiles", "express", "--pdfx", "--out", str(tmp_path / "t.pdf"))
    run = subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dPDFSTOPONERROR", "-sDEVICE=inkcov",
                          "-o", "-", str(tmp_path / "t.pdf")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    assert len(lines) == len(PdfReader(tmp_path / "t.pdf").pages)
    assert all(line.rstrip().endswith("CMYK OK") for line in lines)


@pytest.mark.parametrize("args, needle", [
    (["--pdfx", "--format", "png", "--out", "x.png"], "--pdfx makes a PDF"),
    (["--icc", "nowhere.icc", "--out", "x.pdf"], "add --pdfx"),
    (["--pdfx", "--icc", "fake.icc", "--out", "x.pdf"], "not an ICC profile of a CMYK"),
])
def test_pdfx_options_that_cannot_work_are_refused(tmp_path, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fake.icc").write_bytes(b"\0" * 200)
    error = fails("render", "tiles", "classic", *args)
    assert needle in str(error) and not (tmp_path / "x.pdf").exists() and not (tmp_path / "x.png").exists()
