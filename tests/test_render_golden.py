"""One reviewed SVG per printed component, byte for byte: every SVG `patchwork build` puts in
svg/ (score sheet, patch and start card, each kit edition's quilt and time boards, a tile of every
look, the Automa cards), plus the token sheet and the rules reference of every kit edition and the
rules reference of the Automa edition.

A golden file holds the SVG with a line break between each two tags (the backend writes one
line), so a change reads as a diff of the elements it touches; the comparison undoes the breaks
and is byte for byte. When a drawing change is meant, rewrite the files with
`pytest tests/test_render_golden.py --regen-golden`, look at them (e.g. `rsvg-convert`) and review
the diff before committing.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.render import RenderOptions, encode, render_component
from toolkit.render.build import _jobs, kit_editions
from toolkit.render.components import solo_editions
from toolkit.render.paper import parse_paper
from toolkit.specs import load_edition

GOLDEN = Path(__file__).parent / "golden" / "svg"
PAPER = parse_paper("a4")


def _component(kind: str, name: str):
    return lambda: render_component(kind, load_edition(name), RenderOptions(paper=PAPER))


def _cases() -> dict[str, object]:
    """Golden file name -> a function making its one-page document."""
    cases = {Path(relative).name: (lambda make=make: make()[0])
             for relative, make in _jobs(PAPER) if relative.startswith("svg/")}
    for name in kit_editions():
        cases[f"{name}-tokens.svg"] = _component("tokens", name)
    for name in [*kit_editions(), *solo_editions()]:
        cases[f"{name}-rules.svg"] = _component("rules", name)
    return cases


CASES = _cases()


def one_tag_a_line(svg: bytes) -> bytes:
    """The SVG as stored: a line break between each two tags (the backend writes none)."""
    assert svg.count(b"\n") == 1 and svg.endswith(b"\n"), "the SVG backend writes one line"
    return svg.replace(b"><", b">\n<")


def as_written(golden: bytes) -> bytes:
    """The stored SVG as the backend writes it."""
    return golden.replace(b">\n<", b"><")


@pytest.mark.parametrize("name", sorted(CASES))
def test_component_svg_matches_its_golden_file(name, regen_golden):
    blobs = encode(CASES[name](), "svg")
    assert len(blobs) == 1, f"{name}: one page expected, got {len(blobs)}"
    path = GOLDEN / name
    if regen_golden:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(one_tag_a_line(blobs[0]))
        return
    assert path.exists(), f"{path} is missing: run pytest {Path(__file__).name} --regen-golden and review it"
    assert blobs[0] == as_written(path.read_bytes()), (
        f"{name} differs from {path}; if the change is meant, run pytest {Path(__file__).name} "
        f"--regen-golden and review the diff")


def test_no_golden_file_is_left_without_its_component(regen_golden):
    stale = sorted(p.name for p in GOLDEN.glob("*.svg") if p.name not in CASES)
    if regen_golden:
        for name in stale:
            (GOLDEN / name).unlink()
        return
    assert not stale, f"golden SVGs of no printed component: {', '.join(stale)}"
