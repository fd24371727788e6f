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


def test_build_writes_every_pdf(built):
    for name, pages in PDFS.items():
        reader = PdfReader(built / name)
        assert len(reader.pages) >= 3
        if pages is not None:
            assert len(reader.pages) == pages, name
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"


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


def test_an_output_folder_under_a_file_is_refused(capsys, tmp_path):
    (tmp_path / "plain").write_text("not a folder")
    code, err = run_build(capsys, tmp_path / "plain" / "kit")
    assert code != 0
    assert_one_error(err, "plain", "is a file")
    assert (tmp_path / "plain").read_text() == "not a folder"


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


def test_a_failed_write_is_one_error_line(capsys, tmp_path, monkeypatch):
    from toolkit.render import output

    def full_disk(path, data):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(output, "atomic_write_bytes", full_disk)
    monkeypatch.setattr(build_module, "PAD_SHEETS", 2)
    code, err = run_build(capsys, tmp_path / "kit")
    assert code != 0
    assert_one_error(err, "doodle-pad.pdf", "No space left on device")
