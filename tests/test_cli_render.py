"""`patchwork render ...`: default outputs, options, and one clear error line with a non-zero exit
for every kind of bad input; existing files survive a failed run."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from toolkit.cli.app import main
from toolkit.specs import load_edition

VARIANT_120 = """\
kind: variant
name: marathon
title: Patchwork, marathon track
extends: classic
time_track:
  id: marathon-120
  title: Marathon time board
  final_space: 119
  income_marks: [5, 17, 29, 41, 53, 65, 77, 89, 101, 113, 119]
  leather_patches: [20, 40, 60, 80, 100]
"""


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    saved = sys.argv
    sys.argv = ["patchwork", *args]
    try:
        main()
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    finally:
        sys.argv = saved
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.slow
def test_default_pad_is_the_doodle_pad(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "render", "pad")
    assert code == 0, err
    path = tmp_path / "output" / "doodle-pad-80-sheets-duplex-a4.pdf"
    assert path.exists() and "160 page(s)" in out
    assert len(PdfReader(path).pages) == 160


@pytest.mark.parametrize("component,edition,pages", [
    ("sheet", "doodle-8x8", 1),
    ("cards", "doodle", 5),
    ("tiles", "classic", 4),
    ("automa", "anniversary", 3),
    ("boards", "express", 3),
])
@pytest.mark.slow
def test_each_component_renders(capsys, tmp_path, component, edition, pages):
    out = tmp_path / f"{component}.pdf"
    code, stdout, err = run_cli(capsys, "render", component, edition, "--out", str(out))
    assert code == 0, err
    assert len(PdfReader(out).pages) == pages


@pytest.mark.slow
def test_pad_options(capsys, tmp_path):
    out = tmp_path / "pad.pdf"
    code, _, err = run_cli(capsys, "render", "pad", "--sheets", "5", "--simplex", "--numbered",
                           "--paper", "letter", "--out", str(out))
    assert code == 0, err
    reader = PdfReader(out)
    assert len(reader.pages) == 5
    assert round(float(reader.pages[0].mediabox.width) * 25.4 / 72, 1) == 215.9
    assert "No. 5" in reader.pages[4].extract_text()


@pytest.mark.slow
def test_cards_with_backs_short_flip_offset_and_proof(capsys, tmp_path):
    out = tmp_path / "cards.pdf"
    code, _, err = run_cli(capsys, "render", "cards", "--backs", "--flip", "short", "--back-offset",
                           "0.5x-1mm", "--proof", "--out", str(out))
    assert code == 0, err
    reader = PdfReader(out)
    assert len(reader.pages) == 10
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"


def test_svg_format(capsys, tmp_path):
    out = tmp_path / "sheet.svg"
    code, _, err = run_cli(capsys, "render", "sheet", "--format", "svg", "--paper", "a5", "--out", str(out))
    assert code == 0, err
    assert b'width="148mm"' in out.read_bytes()


@pytest.mark.slow
def test_variant_file_with_a_long_custom_track(capsys, tmp_path):
    spec = tmp_path / "marathon.yaml"
    spec.write_text(VARIANT_120)
    out = tmp_path / "boards.pdf"
    code, _, err = run_cli(capsys, "render", "boards", str(spec), "--out", str(out))
    assert code == 0, err
    text = PdfReader(out).pages[2].extract_text()
    assert "119" in text and "START" in text


@pytest.mark.parametrize("args,needle", [
    (["render", "pad", "--sheets", "0"], "--sheets"),
    (["render", "pad", "--sheets", "-4"], "--sheets"),
    (["render", "sheet", "--paper", "b7"], "unknown paper 'b7'"),
    (["render", "sheet", "--paper", "30x30mm"], "between"),
    (["render", "boards", "--paper", "60x80mm"], "larger paper"),
    (["render", "sheet", "no-such-edition"], "no-such-edition"),
    (["render", "automa", "express"], "no Automa deck"),
    (["render", "automa", "doodle"], "which prints sheet, pad, cards"),
    (["render", "cards", "classic"], "which prints tiles, boards, tokens, rules, kit, automa; for cards choose a Doodle"),
    (["render", "tiles", "doodle"], "for tiles choose a time-track edition"),
    (["render", "sheet", "--format", "tiff"], "unknown format"),
    (["render", "cards", "--backs", "--flip", "sideways"], "flip"),
    (["render", "cards", "--back-offset", "lots"], "--back-offset"),
    (["build", "--paper", "b7"], "unknown paper"),
    (["render", "sheet", "--paper", "100x150mm"], "6 pt"),
    (["render", "cards", "--card-size", "huge"], "card size"),
    (["render", "cards", "--gutter", "wide"], "--gutter"),
    (["render", "cards", "--layout", "poster"], "layout"),
    (["render", "cards", "--format", "png", "--dpi", "5000"], "--dpi"),
    (["render", "challenge", "classic", "--seed", "1"], "for challenge choose a Doodle edition"),
    (["render", "sheet", "--format", "svg", "--cmyk"], "--cmyk"),
])
@pytest.mark.slow
def test_bad_options_give_one_clear_line(capsys, tmp_path, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, *args)
    assert code != 0
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("patchwork: error: "), err
    assert needle in lines[0]
    assert "Traceback" not in err
    assert not (tmp_path / "output").exists()


def test_failed_run_leaves_the_existing_file_alone(capsys, tmp_path):
    out = tmp_path / "pad.pdf"
    out.write_bytes(b"a good pad")
    code, _, _ = run_cli(capsys, "render", "pad", "--paper", "9x9mm", "--out", str(out))
    assert code != 0
    assert out.read_bytes() == b"a good pad"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pad.pdf"]


@pytest.mark.slow
def test_same_command_same_bytes_across_processes(capsys, tmp_path):
    """A fresh process (new hash seed, fresh font registry) writes the very bytes this one does."""
    exe = Path(sys.executable).with_name("patchwork")
    there = tmp_path / "there.pdf"
    subprocess.run([str(exe), "render", "kit", "express", "--backs", "--out", str(there)], check=True,
                   capture_output=True)
    here = tmp_path / "here.pdf"
    code, _, err = run_cli(capsys, "render", "kit", "express", "--backs", "--out", str(here))
    assert code == 0, err
    assert there.read_bytes() == here.read_bytes()


def _one_error(err: str, *needles: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("patchwork: error: "), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], lines[0]


@pytest.mark.slow
def test_out_that_cannot_be_written_gives_one_clear_line(capsys, tmp_path):
    (tmp_path / "plain").write_text("x")
    (tmp_path / "b-02.svg").mkdir()
    cases = [
        (["render", "boards", "--out", str(tmp_path)], "is a directory"),
        (["render", "boards", "--out", str(tmp_path / "plain" / "b.pdf")], "is a file"),
        # the second page of a multi-page SVG would land on a directory: nothing is written
        (["render", "boards", "--format", "svg", "--out", str(tmp_path / "b.svg")], "b-02.svg"),
    ]
    for args, needle in cases:
        code, _, err = run_cli(capsys, *args)
        assert code != 0, args
        _one_error(err, needle)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b-02.svg", "plain"]


@pytest.mark.slow
def test_a_failed_write_is_one_error_line(capsys, tmp_path, monkeypatch):
    from toolkit.render import output

    def refuse(files):
        raise PermissionError(13, "Permission denied", str(next(iter(files))))

    monkeypatch.setattr(output, "write_files", refuse)
    code, _, err = run_cli(capsys, "render", "sheet", "--out", str(tmp_path / "s.pdf"))
    assert code != 0
    _one_error(err, "s.pdf", "Permission denied")


# ----- issue 12: named outputs, no silent overwrite, PNG, tokens, rules, challenges, build ---------


@pytest.mark.slow
def test_render_never_overwrites_without_force(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "render", "pad", "--sheets", "2")
    assert code == 0, err
    path = tmp_path / "output" / "doodle-pad-2-sheets-duplex-a4.pdf"
    assert path.exists() and path.name != "doodle-pad.pdf"  # build's 80-sheet pad keeps its name
    code, out, err = run_cli(capsys, "render", "pad", "--sheets", "2")
    assert code == 0, err  # its own file of the last run is replaced
    path.write_bytes(b"changed by hand")
    code, out, err = run_cli(capsys, "render", "pad", "--sheets", "2")
    assert code != 0 and "already exists" in err and "--force" in err
    assert path.read_bytes() == b"changed by hand"
    code, out, err = run_cli(capsys, "render", "pad", "--sheets", "2", "--force")
    assert code == 0, err


@pytest.mark.slow
def test_default_names_say_what_a_file_holds(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in (["cards", "--backs"], ["cards", "--backs", "--flip", "short"], ["cards", "--card-size", "tarot"],
                 ["automa", "--layout", "single"], ["pad", "--sheets", "3", "--simplex", "--numbered"]):
        code, out, err = run_cli(capsys, "render", *args)
        assert code == 0, err
    names = {p.name for p in (tmp_path / "output").iterdir() if not p.name.startswith(".")}
    assert names == {
        "anniversary-automa-single-a4.pdf", "doodle-cards-tarot-a4.pdf",
        "doodle-cards-backs-long-edge-a4.pdf", "doodle-cards-backs-short-edge-a4.pdf",
        "doodle-pad-3-sheets-simplex-numbered-a4.pdf",
    }


@pytest.mark.slow
def test_png_export_one_file_per_page_or_one_page(capsys, tmp_path):
    out = tmp_path / "cards.png"
    code, stdout, err = run_cli(capsys, "render", "cards", "--format", "png", "--dpi", "20", "--out", str(out))
    assert code == 0, err
    pages = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("."))
    assert pages == [f"cards-{i:02d}.png" for i in range(1, 6)]
    single = tmp_path / "page2.png"
    code, stdout, err = run_cli(capsys, "render", "cards", "--format", "png", "--dpi", "20", "--page", "2",
                                "--out", str(single))
    assert code == 0, err
    assert single.read_bytes() == (tmp_path / "cards-02.png").read_bytes()
    code, stdout, err = run_cli(capsys, "render", "cards", "--page", "9", "--out", str(tmp_path / "x.pdf"))
    assert code != 0 and "--page 9" in err


def _texts(path) -> list[str]:
    found: list[str] = []
    for page in PdfReader(path).pages:
        page.extract_text(visitor_text=lambda text, *_: found.append(text.strip()) if text.strip() else None)
    return found


@pytest.mark.parametrize("edition, counts", [
    ("classic", {"1": 32, "5": 12, "10": 5, "20": 1, "NEUTRAL": 1}),
    ("express", {"1": 12, "2": 9, "5": 8, "NEUTRAL": 1}),
    ("doodle", {"TOKEN": 1}),
])
@pytest.mark.slow
def test_token_sheets_hold_the_published_button_tiles(capsys, tmp_path, edition, counts):
    out = tmp_path / "tokens.pdf"
    code, stdout, err = run_cli(capsys, "render", "tokens", edition, "--backs", "--out", str(out))
    assert code == 0, err
    fronts = PdfReader(out).pages[0]
    found: list[str] = []
    fronts.extract_text(visitor_text=lambda text, *_: found.append(text.strip()) if text.strip() else None)
    for text, count in counts.items():
        assert found.count(text) == count, (text, found)


@pytest.mark.slow
def test_doodle_rules_reference_tells_how_to_use_a_d6(capsys, tmp_path):
    out = tmp_path / "rules.pdf"
    code, stdout, err = run_cli(capsys, "render", "rules", "doodle", "--out", str(out))
    assert code == 0, err
    text = " ".join(_texts(out))
    assert "1-2 = 1, 3-4 = 2, 5-6 = 3" in text and "rules reference" in text


@pytest.mark.slow
def test_a_week_of_challenges_and_its_par_replays(capsys, tmp_path):
    out = tmp_path / "week.pdf"
    code, stdout, err = run_cli(capsys, "render", "challenge", "--seed", "11", "--count", "7", "--out", str(out))
    assert code == 0, err
    assert "par by expert" in stdout  # the strong tier sets the par
    reader = PdfReader(out)
    assert len(reader.pages) == 14
    sheet = reader.pages[0].extract_text()
    par = int(sheet.split("par ")[1].split()[0])
    cards = reader.pages[1].extract_text()
    assert "patchwork play doodle --seed 11" in cards and f"Par {par}" in cards
    assert cards.count(": roll ") == 17 and "final turn" in cards
    code, stdout, err = run_cli(capsys, "play", "doodle", "--seed", "11", "--bots", "expert")
    assert code == 0, err
    assert f"final scores: player 1 {par}" in stdout


@pytest.mark.slow
def test_build_says_what_to_print_and_cut(capsys, tmp_path):
    code, stdout, err = run_cli(capsys, "build", "--paper", "a5", "--out", str(tmp_path / "kit"))
    assert code == 0, err
    assert "on a5 paper (148 x 210 mm)" in stdout
    assert "classic-kit.pdf:" in stdout and "32 1-button tiles" in stdout and "rules reference" in stdout
    assert stdout.count("      cut:") == 6 and "total:" in stdout  # 4 kits, the pad, the solo kit
    assert "anniversary-solo-kit.pdf:" in stdout and "1 level marker" in stdout
    # one solo file: the Automa decks are in it, and its note says on which pages
    assert "automa-cards.pdf" not in stdout and "the Automa decks are pages " in stdout
    classic = PdfReader(tmp_path / "kit" / "classic-kit.pdf")
    labels = len([p for p in classic.pages if float(p.trimbox.width) < 100 * 72 / 25.4])
    assert labels >= 4  # on A5 each quilt board prints in two halves


def test_every_component_has_a_default_edition_that_prints_it():
    """With no edition named, a component prints the default edition of the first family that
    prints it (Automa cards: the first edition of that family bringing a solo opponent)."""
    from toolkit.families import family_of
    from toolkit.render import COMPONENTS, default_edition, require_component
    from toolkit.render.components import solo_opponent

    for kind in COMPONENTS:
        edition = load_edition(default_edition(kind))
        assert kind in family_of(edition).info.components
        require_component(edition, kind)
    assert solo_opponent(load_edition(default_edition("automa"))) is not None
    assert [default_edition(k) for k in ("sheet", "tiles", "automa")] == ["doodle", "classic", "anniversary"]


def test_the_refusal_names_what_the_edition_prints():
    from toolkit.errors import UsageError
    from toolkit.render import require_component

    with pytest.raises(UsageError) as refused:
        require_component(load_edition("doodle"), "tiles")
    text = refused.value.render()
    assert "'doodle' is a Doodle edition, which prints sheet, pad, cards, tokens, rules, kit, challenge" in text
    assert "for tiles choose a time-track edition" in text
