"""`patchwork build`: every promised file in the output folder, readable, with the right pages;
a short table on stdout; an interrupted build keeps the good files it had not yet replaced."""
from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

import pytest
from pypdf import PdfReader

from toolkit.cli.app import main
from toolkit.render import build as build_module
from toolkit.render.paper import parse_paper

PDFS = {
    "doodle-pad.pdf": 160,
    "doodle-kit.pdf": 12,
    "classic-kit.pdf": None,
    "christmas-kit.pdf": None,
    "express-kit.pdf": None,
    "anniversary-solo-kit.pdf": 22,
}
SVGS = {
    "doodle-sheet.svg", "doodle-patch-card.svg", "doodle-start-card.svg",
    "classic-quilt-board.svg", "classic-time-board.svg", "christmas-quilt-board.svg",
    "christmas-time-board.svg", "express-quilt-board.svg", "express-time-board.svg",
    "classic-tile.svg", "express-tile.svg", "express-blue-tile.svg",
    "automa-card-normal.svg", "automa-card-tactical.svg",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("build") / "output"
    saved = sys.argv
    sys.argv = ["patchwork", "build", "--out", str(out)]
    try:
        with pytest.raises(SystemExit) as stop:
            main()
    finally:
        sys.argv = saved
    assert stop.value.code in (0, None)
    return out


@pytest.mark.slow
def test_build_writes_every_pdf(built):
    for name, pages in PDFS.items():
        reader = PdfReader(built / name)
        assert len(reader.pages) >= 3
        if pages is not None:
            assert len(reader.pages) == pages, name
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"


@pytest.mark.slow
def test_kits_hold_boards_then_fronts_and_backs(built):
    reader = PdfReader(built / "classic-kit.pdf")
    # two quilt boards and the time board, each with a blank back, then tile fronts/backs pairs
    assert len(reader.pages) % 2 == 0
    assert reader.pages[0].trimbox is not None
    assert "START" in reader.pages[4].extract_text()
    assert reader.pages[1].extract_text().strip() == ""


def test_build_writes_an_svg_of_every_distinct_component(built):
    found = {p.name for p in (built / "svg").iterdir() if not p.name.startswith(".")}
    assert found == SVGS
    for name in found:
        root = ET.fromstring((built / "svg" / name).read_bytes())
        assert root.get("width").endswith("mm") and root.get("viewBox").startswith("0 0 ")


def test_build_leaves_no_partial_files(built):
    assert not [p for p in built.rglob("*") if p.name.endswith(".part")]


def test_interrupted_build_leaves_the_old_kit_untouched(tmp_path, monkeypatch):
    out = tmp_path / "output"
    out.mkdir()
    (out / "doodle-kit.pdf").write_bytes(b"the good cards")
    calls = {"n": 0}
    real_encode = build_module.encode

    def failing_encode(document, fmt, flip=None, **options):
        calls["n"] += 1
        if calls["n"] == 2:  # the classic kit, second file of the build
            raise RuntimeError("printer on fire")
        return real_encode(document, fmt, flip, **options)

    monkeypatch.setattr(build_module, "encode", failing_encode)
    monkeypatch.setattr(build_module, "PAD_SHEETS", 2)
    with pytest.raises(RuntimeError):
        build_module.build(out, parse_paper("letter"))
    # the set is staged and moved into place only when complete: nothing new, nothing hidden
    assert (out / "doodle-kit.pdf").read_bytes() == b"the good cards"
    assert sorted(p.name for p in out.iterdir()) == ["doodle-kit.pdf"]


def run_build(capsys, out) -> tuple[int, str]:
    saved = sys.argv
    sys.argv = ["patchwork", "build", "--out", str(out)]
    try:
        main()
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    finally:
        sys.argv = saved
    return code, capsys.readouterr().err


def assert_one_error(err: str, *needles: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("patchwork: error: "), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], lines[0]


def test_a_directory_in_the_way_stops_the_build_before_any_file(capsys, tmp_path):
    out = tmp_path / "kit"
    (out / "classic-kit.pdf").mkdir(parents=True)
    code, err = run_build(capsys, out)
    assert code != 0
    assert_one_error(err, str(out / "classic-kit.pdf"), "directory")
    assert [p.name for p in out.iterdir()] == ["classic-kit.pdf"]


@pytest.mark.slow
def test_an_output_folder_under_a_file_is_refused(capsys, tmp_path):
    (tmp_path / "plain").write_text("not a folder")
    code, err = run_build(capsys, tmp_path / "plain" / "kit")
    assert code != 0
    assert_one_error(err, "plain", "is a file")
    assert (tmp_path / "plain").read_text() == "not a folder"


@pytest.mark.slow
def test_an_unwritable_folder_is_refused_up_front(capsys, tmp_path, monkeypatch):
    from toolkit.render import output

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    # root may write anywhere, so refuse the probe the way a read-only folder would
    monkeypatch.setattr(output.tempfile, "mkstemp", refuse)
    code, err = run_build(capsys, tmp_path / "kit")
    assert code != 0
    assert_one_error(err, "not writable", "Permission denied")
    assert not (tmp_path / "kit").exists()


@pytest.mark.slow
def test_a_failed_write_is_one_error_line(capsys, tmp_path, monkeypatch):
    from toolkit.render import output

    def full_disk(path, data):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(output, "atomic_write_bytes", full_disk)
    monkeypatch.setattr(build_module, "PAD_SHEETS", 2)
    code, err = run_build(capsys, tmp_path / "kit")
    assert code != 0
    assert_one_error(err, "doodle-pad.pdf", "No space left on device")


# ----- --pdfx: every PDF of the kit a PDF/X-1a file, colours through the --icc profile -----------

from tests.test_render_pdfx import PROFILE, _check_pdfx, needs_profile  # noqa: E402


@needs_profile
@pytest.mark.slow
def test_an_edition_kit_built_as_pdfx_passes_every_check(tmp_path):
    from tests.cli_helpers import ok

    result = ok("build", "--edition", "express", "--pdfx", "--icc", PROFILE, "--cut-layer", "--out",
                str(tmp_path / "kit"))
    assert "every PDF is PDF/X-1a:2003" in result.output and PROFILE in result.output
    pdfs = sorted((tmp_path / "kit").glob("*.pdf"))
    assert [p.name for p in pdfs] == ["express-kit.pdf"]
    _check_pdfx(pdfs[0])
    assert b"/CutContour" in pdfs[0].read_bytes()  # the cut as a spot colour, no layer (PDF/X-1a has none)


@needs_profile
@pytest.mark.slow
def test_the_whole_build_as_pdfx_passes_every_check(tmp_path):
    from tests.cli_helpers import ok

    ok("build", "--pdfx", "--out", str(tmp_path / "out"))
    pdfs = sorted((tmp_path / "out").glob("*.pdf"))
    assert {p.name for p in pdfs} == set(PDFS)
    for pdf in pdfs:
        _check_pdfx(pdf)
    assert not list((tmp_path / "out" / "svg").glob("*.pdf"))


@pytest.mark.parametrize("args, needle", [
    (["--icc", "nowhere.icc"], "add --pdfx"),
    (["--pdfx", "--icc", "fake.icc"], "not an ICC profile of a CMYK"),
    (["--pdfx", "--icc", "missing.icc"], "missing.icc"),
])
def test_build_pdfx_options_that_cannot_work_are_refused(tmp_path, monkeypatch, args, needle):
    from tests.cli_helpers import fails

    monkeypatch.chdir(tmp_path)
    (tmp_path / "fake.icc").write_bytes(b"\0" * 200)
    error = fails("build", "--edition", "doodle", *args, "--out", "kit")
    assert needle in str(error) and error.exit_code == 2 and not (tmp_path / "kit").exists()


@needs_profile
@pytest.mark.slow
def test_pdfx_colours_and_pictures_go_through_the_profile(tmp_path, monkeypatch):
    """A theme's flat colour and its picture come out as the inks the --icc profile gives them
    (not the uncalibrated formula), and the same build gives the same bytes."""
    import io

    from PIL import Image, ImageCms
    from pypdf import PdfReader

    from tests.cli_helpers import ok
    from toolkit.render.pdf import cmyk_of, icc_transform

    profile = open(PROFILE, "rb").read()
    blue = (30, 120, 200)
    inks = ImageCms.applyTransform(Image.new("RGB", (1, 1), blue), ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(io.BytesIO(profile)), "RGB", "CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)).getpixel((0, 0))
    assert cmyk_of("#1e78c8", transform=icc_transform(profile)) == tuple(round(v / 255, 4) for v in inks)
    assert cmyk_of("#1e78c8") != cmyk_of("#1e78c8", transform=icc_transform(profile))
    assert cmyk_of("#808080", transform=icc_transform(profile)) == (0.0, 0.0, 0.0, 0.498)  # greys: black plate

    monkeypatch.chdir(tmp_path)
    Image.new("RGB", (300, 420), blue).save(tmp_path / "back.png")
    (tmp_path / "t.yaml").write_text("kind: theme\ncard_back: back.png\n")
    for out in ("a", "b"):
        ok("build", "--edition", "doodle", "--pdfx", "--theme", "t.yaml", "--out", out)
    for name in ("doodle-kit.pdf", "doodle-pad.pdf"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    reader = PdfReader(tmp_path / "a" / "doodle-kit.pdf")
    pictures = [image for page in reader.pages for image in page.images]
    assert pictures
    with Image.open(io.BytesIO(pictures[0].data)) as jpeg:
        pixel = jpeg.convert("CMYK").getpixel((150, 210))
    # a CMYK JPEG from Pillow is stored inverted (Adobe's convention); either way within JPEG's error
    assert (all(abs(a - b) <= 4 for a, b in zip(pixel, inks))
            or all(abs(255 - a - b) <= 4 for a, b in zip(pixel, inks))), (pixel, inks)
