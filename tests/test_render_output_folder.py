"""The output folder as a user meets it: a second run replaces the toolkit's own files of the
first and nothing else, cut files sit in cut/, messages say what was written (pixels read back
from the file), and the `show` GIF is drawn at a resolution whose text reads."""
from __future__ import annotations

import json

import pytest
from PIL import Image

from tests.cli_helpers import fails, ok
from toolkit.render.output import OWN_FILES, is_own


@pytest.mark.slow
def test_running_a_render_again_replaces_its_own_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ok("render", "tiles", "express", "--page", "1")
    first = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    result = ok("render", "tiles", "express", "--page", "1")
    assert "wrote output/" in result.output
    again = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert first == again
    pdf = next((tmp_path / "output").glob("*.pdf"))
    assert is_own(pdf)
    listed = json.loads((tmp_path / "output" / OWN_FILES).read_text())
    assert pdf.name in listed and len(listed[pdf.name]) == 64


@pytest.mark.slow
def test_a_file_the_toolkit_did_not_write_is_kept_without_force(tmp_path):
    target = tmp_path / "t.pdf"
    target.write_bytes(b"my own notes")
    error = fails("render", "tiles", "express", "--out", str(target))
    assert "not written by this toolkit" in str(error) and target.read_bytes() == b"my own notes"
    ok("render", "tiles", "express", "--out", str(target), "--force")
    assert target.read_bytes().startswith(b"%PDF")


@pytest.mark.slow
def test_a_file_changed_since_it_was_written_is_kept(tmp_path):
    target = tmp_path / "t.pdf"
    ok("render", "rules", "classic", "--out", str(target))
    with open(target, "ab") as handle:
        handle.write(b"% my edit\n")
    edited = target.read_bytes()
    error = fails("render", "rules", "classic", "--out", str(target))
    assert "changed since" in str(error) and target.read_bytes() == edited


@pytest.mark.slow
def test_a_link_named_like_an_own_file_is_not_own(tmp_path):
    ok("render", "rules", "classic", "--out", str(tmp_path / "r.pdf"))
    elsewhere = tmp_path / "elsewhere.pdf"
    (tmp_path / "r.pdf").rename(elsewhere)
    (tmp_path / "r.pdf").symlink_to(elsewhere)
    fails("render", "rules", "classic", "--out", str(tmp_path / "r.pdf"))


@pytest.mark.slow
def test_cut_files_go_to_their_own_folder_and_png_messages_name_no_pdf(tmp_path):
    result = ok("render", "tiles", "classic", "--format", "png", "--dpi", "30", "--out", str(tmp_path / "t.png"))
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == \
        ["cut", "t-01.png", "t-02.png", "t-03.png", "t-04.png"]
    assert len(list((tmp_path / "cut").glob("t-*-cut.svg"))) == 4
    assert "PDF" not in result.output and "cut/t-01-cut.svg" in result.output


@pytest.mark.slow
def test_a_template_says_the_pixels_its_file_has(tmp_path):
    result = ok("render", "tiles", "classic", "--template", "tiles-png", "--page", "8", "--out", str(tmp_path / "t.png"))
    picture = next(tmp_path.glob("t-*.png"))
    with Image.open(picture) as image:
        size = image.size
    assert f"= {size[0]} x {size[1]} px at 300 dpi" in result.output


@pytest.mark.slow
def test_build_again_replaces_its_own_kit_and_keeps_a_stranger(tmp_path):
    out = tmp_path / "kit"
    ok("build", "--edition", "express", "--out", str(out))
    ok("build", "--edition", "express", "--out", str(out))
    kit = out / "express-kit.pdf"
    kit.write_bytes(b"somebody else's kit")
    error = fails("build", "--edition", "express", "--out", str(out))
    assert "not written by this toolkit" in str(error) and kit.read_bytes() == b"somebody else's kit"
    ok("build", "--edition", "express", "--out", str(out), "--force")
    assert kit.read_bytes().startswith(b"%PDF") and (out / "cut").is_dir()


def test_the_show_gif_is_drawn_at_a_resolution_whose_text_reads():
    from toolkit.render import record_view

    # the record view's smallest text, the 5 pt market labels, is 8 px tall at the default (it
    # was 4 px at 60 dpi); its 7 pt notes are 12 px
    assert record_view.GIF_DPI >= 120
    assert 5 / 72 * record_view.GIF_DPI >= 8


def test_a_gif_too_large_is_refused_with_the_figure_before_drawing():
    from toolkit.errors import UsageError
    from toolkit.render import record_view
    from toolkit.render.scene import Document, Page

    frames = Document("game", (Page(321.0, 204.0, ()),) * 43)
    record_view.check_gif_size(frames, 120)
    with pytest.raises(UsageError, match=r"--dpi 300: 43 frames .* choose --dpi 1\d\d or less"):
        record_view.check_gif_size(frames, 300)
