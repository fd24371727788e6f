"""Hostile input to the print generators: a theme's fonts and pictures confined to its folder (no
absolute path, no `..` out, no link out, no /proc) and never quoted; unbounded work refused early
with its figure; empty option values refused; a failed render leaves nothing behind."""
from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest
import reportlab
from PIL import Image

from tests.cli_helpers import fails, ok
from toolkit.errors import SpecError
from toolkit.render.theme_file import load_theme

FONTS = Path(reportlab.__file__).parent / "fonts"


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    """A theme's folder (the working folder) beside a secret it must not reach."""
    theme = tmp_path / "theme"
    (theme / "art").mkdir(parents=True)
    monkeypatch.chdir(theme)
    Image.new("RGB", (900, 1200), "#224466").save(theme / "art" / "back.png")
    shutil.copy(FONTS / "Vera.ttf", theme / "Regular.ttf")
    Image.new("RGB", (900, 1200), "#ff0000").save(tmp_path / "secret.png")
    (tmp_path / "secret.ttf").write_bytes(b"root:x:0:0:root:/root:/bin/bash\n" * 40)
    return theme


def _problems(theme: Path, text: str) -> list[str]:
    (theme / "t.yaml").write_text("kind: theme\n" + text)
    with pytest.raises(SpecError) as error:
        load_theme(theme / "t.yaml")
    return str(error.value).splitlines()


@pytest.mark.parametrize("line, needle", [
    ("card_back: {secret}", "relative to the theme file"),
    ("card_back: ../secret.png", "outside the theme's folder"),
    ("card_back: art/../../secret.png", "outside the theme's folder"),
    ("fonts: {{regular: ../secret.ttf}}", "outside the theme's folder"),
    ("fonts: {{regular: /proc/self/environ}}", "relative to the theme file"),
    ("card_back: ~/secret.png", "relative to the theme file"),
    ("automa_back: art/link.png", "outside the theme's folder"),
    ("fonts: {{bold: fontlink.ttf}}", "outside the theme's folder"),
    ("card_back: art/environ.png", "outside the theme's folder"),
    ("card_back: art/../art/../../theme/../secret.png", "outside the theme's folder"),
    ("patches: {{default: {{art: art/deep/../../../secret.png}}}}", "outside the theme's folder"),
])
def test_theme_files_are_confined_to_the_themes_folder(folder, line, needle):
    (folder / "art" / "link.png").symlink_to(folder.parent / "secret.png")
    (folder / "fontlink.ttf").symlink_to(folder.parent / "secret.ttf")
    (folder / "art" / "environ.png").symlink_to("/proc/self/environ")
    problems = _problems(folder, line.format(secret=folder.parent / "secret.png"))
    assert len(problems) == 1 and needle in problems[0], problems
    assert "root:x" not in problems[0] and "0x" not in problems[0]


def test_a_link_inside_the_folder_is_followed(folder):
    (folder / "art" / "same.png").symlink_to(folder / "art" / "back.png")
    (folder / "t.yaml").write_text("kind: theme\ncard_back: art/same.png\n")
    assert load_theme(folder / "t.yaml").card_back_art.width == 900


def test_a_font_that_is_not_one_is_refused_without_quoting_it(folder):
    (folder / "junk.ttf").write_bytes(b"root:x:0:0:root:/root:/bin/bash\n" * 40)
    (problem,) = _problems(folder, "fonts: {regular: junk.ttf}")
    assert "junk.ttf is not a TrueType font" in problem
    assert "726F6F74" not in problem.upper() and "root:x" not in problem


def test_a_huge_picture_is_refused_with_its_size(folder):
    Image.new("1", (9000, 5000)).save(folder / "art" / "huge.png")
    (problem,) = _problems(folder, "card_back: art/huge.png")
    assert "9000 x 5000 px" in problem and "megapixels" in problem


def test_an_edition_of_ten_thousand_patches_is_refused_before_layout():
    from dataclasses import replace

    from toolkit.errors import UsageError
    from toolkit.render import RenderOptions, render_component
    from toolkit.render.documents import MAX_PRINTED_PATCHES
    from toolkit.specs import load_edition

    classic = load_edition("classic")
    huge = replace(classic, patches=(replace(classic.patches[0], copies=10_000),))
    for kind in ("tiles", "kit"):
        with pytest.raises(UsageError, match=f"10,000 patches to print; a printed {kind} holds at most "
                                             f"{MAX_PRINTED_PATCHES:,}"):
            render_component(kind, huge, RenderOptions())


def test_a_gif_of_too_many_pixels_is_refused_before_drawing():
    from toolkit.errors import UsageError
    from toolkit.render import record_view
    from toolkit.render.scene import Document, Page

    with pytest.raises(UsageError, match=r"megapixels in all \(at most 150\); choose --dpi"):
        record_view.check_gif_size(Document("g", (Page(321.0, 204.0, ()),) * 200), 150)


@pytest.mark.parametrize("args", [
    ["render", "tiles", "--layout", ""],
    ["render", "pad", "--format", ""],
    ["render", "cards", "--template", ""],
    ["render", "cards", "--card-size", ""],
    ["render", "cards", "--gutter", " "],
    ["render", "kit", "--bleed", ""],
    ["render", "boards", "--paper", ""],
    ["build", "--bleed", ""],
    ["build", "--edition", ""],
])
@pytest.mark.slow
def test_an_empty_value_is_refused_not_defaulted(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    error = fails(*args)
    assert error.exit_code == 2 and "''" in str(error) and "\n" not in str(error)
    assert not any(tmp_path.iterdir())


@pytest.mark.slow
def test_a_full_disk_leaves_no_card_faces(tmp_path, monkeypatch):
    from toolkit import fileio

    real_fdopen = os.fdopen
    calls = {"n": 0}

    class Full:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, data):
            calls["n"] += 1
            if calls["n"] > 18:
                raise OSError(errno.ENOSPC, "No space left on device")
            return self.handle.write(data)

        def flush(self):
            self.handle.flush()

        def fileno(self):
            return self.handle.fileno()

    monkeypatch.setattr(fileio.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    error = fails("render", "cards", "--template", "poker-png", "--out", str(tmp_path / "c.png"))
    assert "No space left" in str(error)
    assert list(tmp_path.rglob("*")) == []
